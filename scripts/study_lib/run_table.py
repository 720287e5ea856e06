"""A reproduce script's runs as a table, executed here: the one launcher of every scripts/reproduce_*.

A script lists its runs (run_table.Run: a name, an output directory, a scenario file or the text of
a generated one, and its `--set KEY=VALUE` overrides in order), hands the list to execute(), and
only analyses the stats.json it gets back. execute() runs `raidtlm run SCENARIO --out DIR --quiet
--set ...` for each, --jobs at a time, with the study's progress line on stderr, and fails the
script loudly: a run whose reads returned wrong data (exit 3, or controller.integrity_errors > 0)
or that failed otherwise stops the table (no new run starts; the ones running finish) and raises
run_check's IntegrityFailure / RunFailed, which run_check.main_guard turns into the message and
exit status 3 / 1 (2 for bad input). Wrong data is never a data point, whatever the run says.

Two outcomes are results and not failures, when the table says so per run:
  missing_keys   the build refuses one of these keys (exit 2 naming `key 'K'`): it does not have
                 the configuration, and the run's result is None ("not available in this build")
  may_fail       any failure but wrong data is a None result, its message in results.errors

The options every reproduce script shares (add_options): --jobs N, --raidtlm PATH, --list-runs
(print the table -- name, output directory, scenario, overrides -- and exit 0 without running;
tables that depend on earlier runs' results say they stop there), --resume (reuse a run whose
run.json records the same scenario bytes, overrides and binary sha256: a table stopped midway
goes on where it was). Without --resume every run runs again, as the scripts always did.

Plain threads, not Dask: a reproduce script keeps every run's output directory where its docs say,
while scripts/study (study_runner) ships runs to a cluster and keys them by hash.
"""
import argparse
import concurrent.futures
import hashlib
import io
import json
import os
import subprocess
import sys
import threading

from . import run_check, run_task, study_progress

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_binary = os.path.join(ROOT, "build", "release", "raidtlm")


class Run:
    """One raidtlm run of a table. overrides: "key=value" strings, passed as --set in this order."""

    def __init__(self, name, out, scenario=None, overrides=(), scenario_text=None, missing_keys=(),
                 may_fail=False):
        if (scenario is None) == (scenario_text is None):
            raise ValueError(f"{name}: a run needs a scenario file or a scenario text, not both")
        self.name, self.out = name, out
        self.scenario, self.scenario_text = scenario, scenario_text
        self.overrides = [str(o) for o in overrides]
        self.missing_keys, self.may_fail = list(missing_keys), may_fail

    def scenario_path(self):
        """Where the run's scenario is (a generated one is written into its output directory)."""
        return self.scenario if self.scenario is not None else os.path.join(self.out, "scenario.yaml")

    def command(self, binary):
        cmd = [binary, "run", self.scenario_path(), "--out", self.out, "--quiet"]
        for o in self.overrides:
            cmd += ["--set", o]
        return cmd

    def identity(self):
        """What decides the run's result apart from the binary: the scenario's bytes and the overrides."""
        if self.scenario_text is not None:
            data = self.scenario_text.encode()
        else:
            with open(self.scenario, "rb") as f:
                data = f.read()
        return {"scenario_sha256": hashlib.sha256(data).hexdigest(), "overrides": self.overrides}


class Results(dict):
    """name -> stats.json (None: not available in this build, or a may_fail run that failed);
    errors: name -> the failure message of such a None."""

    def __init__(self):
        super().__init__()
        self.errors = {}


def binary():
    """The raidtlm binary the table runs (--raidtlm, default this checkout's build/release/raidtlm);
    the scripts' model commands (sr-model, plog-model) use the same one."""
    return _binary


def use_binary(path):
    global _binary
    _binary = os.path.abspath(path) if path and os.path.exists(path) else (path or _binary)


def add_options(ap, jobs=None):
    """The shared options; jobs: the script's default number of runs at once (default: processors)."""
    if not any("--jobs" in act.option_strings for act in ap._actions):
        ap.add_argument("--jobs", type=int, default=jobs or os.cpu_count() or 1, help="raidtlm runs at once")
    ap.add_argument("--raidtlm", default=None, help="raidtlm binary (default: build/release/raidtlm of this checkout)")
    ap.add_argument("--list-runs", action="store_true",
                    help="print the runs (name, output directory, scenario, overrides) and exit without running")
    ap.add_argument("--resume", action="store_true",
                    help="reuse each finished run whose run.json names the same scenario, overrides and binary")
    return ap


def parse(ap, argv=None):
    a = ap.parse_args(argv)
    use_binary(a.raidtlm)
    return a


def _shown(path):
    """A path as the listing shows it: relative to the checkout when inside it."""
    full = os.path.abspath(path)
    return os.path.relpath(full, ROOT) if full.startswith(ROOT + os.sep) else full


def list_text(runs):
    """One line a run, tab-separated: name, output directory, scenario, the overrides in order."""
    lines = []
    for r in runs:
        scenario = _shown(r.scenario) if r.scenario is not None else "(generated) " + \
            _shown(r.scenario_path()) + " sha256:" + r.identity()["scenario_sha256"][:16]
        lines.append("\t".join([r.name, _shown(r.out), scenario] + r.overrides))
    return "\n".join(lines) + ("\n" if lines else "")




def _reusable(run, ident):
    try:
        with open(os.path.join(run.out, "run.json")) as f:
            if json.load(f) != ident:
                return None
        return run_check.load_stats(os.path.join(run.out, "stats.json"))  # wrong data is raised, never reused
    except (OSError, ValueError):
        return None


def _refused_key(run, returncode, stderr):
    return returncode == run_check.BAD_INPUT_EXIT and any(f"key '{k}'" in stderr for k in run.missing_keys)


def _execute_one(run, binary_path, binary_sha, resume):
    """(stats or None, error or None) of one run; raises RunFailed/IntegrityFailure for a failure."""
    ident = dict(run.identity(), binary_sha256=binary_sha)
    if resume:
        stats = _reusable(run, ident)
        if stats is not None:
            return stats, None, True
    os.makedirs(run.out, exist_ok=True)
    if run.scenario_text is not None:
        with open(run.scenario_path(), "w") as f:
            f.write(run.scenario_text)
    marker = os.path.join(run.out, "run.json")
    if os.path.exists(marker):
        os.remove(marker)  # a run.json left from before names a result this run is about to replace
    p = subprocess.run(run.command(binary_path), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       env=run_check._ENV)
    if _refused_key(run, p.returncode, p.stderr):
        return None, run_check.last_error_line(p.stderr, p.returncode), False
    try:
        failure = run_check.classify(p.returncode, p.stderr, f"{run.name} ({run.out})")
        if failure:
            raise failure
        try:
            with open(os.path.join(run.out, "stats.json")) as f:
                stats = json.load(f)
        except (OSError, ValueError) as e:
            raise run_check.RunFailed(f"{run.name} ({run.out}): no stats.json from the run: {e}")
        run_check.check_stats(stats, os.path.join(run.out, "stats.json"))
    except run_check.IntegrityFailure:
        raise
    except run_check.RunFailed as e:
        if run.may_fail:  # the row says why in raidtlm's own words
            return None, (run_check.last_error_line(p.stderr, p.returncode) if p.returncode else str(e)), False
        raise
    with open(marker + ".tmp", "w") as f:  # last and atomically: it marks the run as finished
        json.dump(ident, f, indent=1)
    os.replace(marker + ".tmp", marker)
    return stats, None, False


def print_list(runs, stream=None, more=None):
    stream = stream or sys.stdout
    stream.write(list_text(runs))
    if more:
        stream.write(f"# {more}\n")


def execute(runs, options, label=None, more=None, progress=True):
    """Runs the table (options: the parsed add_options() namespace); returns Results by run name.

    --list-runs prints the table and exits 0 instead (more: a note that later tables depend on
    these runs' results and are not listed). A failure raises as the module docstring says."""
    names = [r.name for r in runs]
    if len(set(names)) != len(names):
        raise ValueError("run names must be unique in a table: " +
                         ", ".join(sorted({n for n in names if names.count(n) > 1})))
    if getattr(options, "list_runs", False):
        print_list(runs, more=more)
        sys.exit(run_check.SUCCESS_EXIT)
    label = label or os.path.basename(sys.argv[0]) or "runs"
    results = Results()
    if not runs:
        return results
    binary_path = binary()
    if not os.path.isfile(binary_path):
        raise run_check.RunFailed(f"{binary_path}: no raidtlm binary (scripts/build Release, or --raidtlm PATH)")
    binary_sha = run_task.binary_digest(binary_path)
    resume = getattr(options, "resume", False)
    jobs = max(1, getattr(options, "jobs", 1) or 1)
    running = [0]
    lock = threading.Lock()
    stop = threading.Event()

    def one(run):
        if stop.is_set():
            return None
        with lock:
            running[0] += 1
        try:
            return _execute_one(run, binary_path, binary_sha, resume)
        finally:
            with lock:
                running[0] -= 1

    meter = study_progress.progress_meter(len(runs), 0, lambda: running[0], label=label,
                                          stream=sys.stderr if progress else io.StringIO())
    meter.start()
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(one, r): r for r in runs}
        for f in concurrent.futures.as_completed(futures):
            run = futures[f]
            try:
                outcome = f.result()
            except run_check.RunFailed as e:
                failures.append(e)
                stop.set()
                meter.record(False)
                continue
            except BaseException:  # a bug or an interrupt: start nothing more, let it through
                stop.set()
                raise
            if outcome is None:  # not started: the table stopped at a failure
                continue
            stats, error, reused = outcome
            results[run.name] = stats
            if error:
                results.errors[run.name] = error
            meter.record(True, reused=reused)
    meter.finish()
    if failures:
        # Wrong data decides the exit status (3) over any other failure; every failure is named.
        failures.sort(key=lambda e: not isinstance(e, run_check.IntegrityFailure))
        first = failures[0]
        if len(failures) > 1:
            first.args = (str(first) + "".join(f"\n  also: {e}" for e in failures[1:]),)
        raise first
    return results


def run_one(run, resume=False):
    """One run outside a table, no progress line (for a caller that picks its next run from this
    one's result): its stats.json, or None as in a table; a failure raises."""
    return execute([run], argparse.Namespace(jobs=1, resume=resume, list_runs=False), progress=False).get(run.name)
