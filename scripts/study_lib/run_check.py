"""A raidtlm run that returned wrong data is a failed run (issue 27), for every script.

`raidtlm run` exits 3 when the controller's scoreboard saw reads return wrong data
(stats.json controller.integrity_errors > 0, with workload.data_tokens): its response times were
measured on a model that lost or corrupted data, so they are no result. A script that launches
runs or reads stats.json must fail then (exit WRONG_DATA_EXIT, a clear message), never average or
plot the run. The scripts share this module instead of each copying the check:

  run_raidtlm(cmd, out_dir)   runs `raidtlm run ... --out out_dir`, returns stats.json checked;
                              raises IntegrityFailure (exit 3) or RunFailed (any other failure)
  load_stats(path)            reads a stats.json and checks it (IntegrityFailure)
  check_stats(stats, where)   checks stats already read
  main_guard(main)            runs main(); an IntegrityFailure becomes the message on stderr and
                              exit 3, a RunFailed its message and exit 1
  run_or_exit(cmd, out_dir)   run_raidtlm for a script without a main(): a failed run ends the
                              script the same way (SystemExit, also from a worker thread, whose
                              future's result() raises it in the main thread)

Plain Python, no third-party module: the Dask study ships it to its workers.
"""
import json
import os
import subprocess
import sys

SUCCESS_EXIT = 0
FAILURE_EXIT = 1
BAD_INPUT_EXIT = 2
WRONG_DATA_EXIT = 3  # raidtlm's own exit status for a run whose reads returned wrong data

_ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")


class RunFailed(RuntimeError):
    """A raidtlm run failed (exit status 1 or 2, or no stats.json)."""

    def __init__(self, message, exit_code=FAILURE_EXIT):
        super().__init__(message)
        self.exit_code = exit_code


class IntegrityFailure(RunFailed):
    """A raidtlm run's reads returned wrong data: the run is no data point."""

    def __init__(self, message):
        super().__init__(message, WRONG_DATA_EXIT)


def integrity_errors(stats):
    """Reads that returned wrong data in a stats.json (0 without the controller or its scoreboard)."""
    controller = stats.get("controller") if isinstance(stats, dict) else None
    if not isinstance(controller, dict):
        return 0
    return int(controller.get("integrity_errors") or 0)


def integrity_message(stats, where):
    """The one-line DATA INTEGRITY FAILURE message of a stats.json with wrong reads."""
    c = stats["controller"]
    first = c.get("first_integrity_errors") or []
    detail = ""
    if first:
        f = first[0]
        detail = f" (first: logical sector {f['lbn']}: expected token {f['expected']:#x}, got {f['got']:#x})"
    return (f"DATA INTEGRITY FAILURE: {where}: {c['integrity_errors']} of {c.get('reads_checked', '?')} sector "
            f"reads checked returned wrong data{detail}; the run is not a data point; see its stats.json "
            f"controller.first_integrity_errors")


def check_stats(stats, where):
    """Returns stats; raises IntegrityFailure when its reads returned wrong data."""
    if integrity_errors(stats) > 0:
        raise IntegrityFailure(integrity_message(stats, where))
    return stats


def load_stats(path):
    """A stats.json read and checked (IntegrityFailure)."""
    with open(path) as f:
        return check_stats(json.load(f), path)


def last_error_line(text, rc):
    lines = [ln for ln in (text or "").strip().splitlines() if ln.strip()]
    return lines[-1] if lines else f"raidtlm exited with status {rc} and no message"


def classify(returncode, stderr, what):
    """The exception for a finished raidtlm process (None when it succeeded)."""
    if returncode == 0:
        return None
    line = last_error_line(stderr, returncode)
    if returncode == WRONG_DATA_EXIT:
        return IntegrityFailure(f"{what}: {line}")
    return RunFailed(f"{what}: raidtlm exited with status {returncode}: {line}",
                     BAD_INPUT_EXIT if returncode == BAD_INPUT_EXIT else FAILURE_EXIT)


def run_raidtlm(cmd, out_dir, what=None, env=None):
    """Runs cmd (a `raidtlm run ... --out out_dir` command line) and returns its stats.json, checked.

    Raises IntegrityFailure when the run returned wrong data (exit 3, or a stats.json with
    integrity errors from an older binary), RunFailed when it failed otherwise."""
    what = what or out_dir
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env or _ENV)
    failure = classify(p.returncode, p.stderr, what)
    if failure:
        raise failure
    path = os.path.join(out_dir, "stats.json")
    try:
        with open(path) as f:
            stats = json.load(f)
    except (OSError, ValueError) as e:
        raise RunFailed(f"{what}: no stats.json from the run: {e}")
    return check_stats(stats, path)


def _script():
    return os.path.basename(sys.argv[0]) or "script"


def main_guard(main):
    """sys.exit(main()), with a failed run ending the script with its message and exit status."""
    try:
        code = main()
    except RunFailed as e:
        print(f"{_script()}: {e}", file=sys.stderr)
        code = e.exit_code
    sys.exit(code)


def run_or_exit(cmd, out_dir, what=None, env=None):
    """run_raidtlm(); a failed run prints its message and raises SystemExit with its exit status."""
    try:
        return run_raidtlm(cmd, out_dir, what, env)
    except RunFailed as e:
        print(f"{_script()}: {e}", file=sys.stderr)
        raise SystemExit(e.exit_code)
