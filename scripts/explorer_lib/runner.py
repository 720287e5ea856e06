"""A case as a scenario file, one `raidtlm run` of it, and the verdict on what it returned.

Verdicts (the failure classes, worst first):
  crash          an exit status other than 0, 1 or 3 (wrong data), or no stats.json (an exception, an abort, a signal)
  timeout        the run used more than its CPU limit (30 times the fault-free pilot's, at least 60 s;
                 killed)
  wrong_data     stats.json controller.integrity_errors > 0: a read returned data never written there
  stall          the run ended with fewer requests completed than asked (a request that never came back;
                 raidtlm says so and writes no stats.json: "the simulation ended after N of M requests")
  lost_within_promise  failed host requests (controller.failed_requests) or lost sectors
                 (firmware.lost_sectors) while the schedule stayed within the layout's promise
                 (promise.py, on the times the faults happened)
  exit_status    exit status 1 with none of the above (raidtlm says a request failed; stats.json does not)
Requests lost with the controller's power are the fault's own outcome (faults[].requests_lost_with_power),
never a failure; faults that never happened (the run ended first) are noted, not failed.
"""
import json
import math
import os
import resource
import signal
import subprocess
import threading
import time

import yaml

from explorer_lib import families, promise

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
PATH_KEYS = ("disks.spec", "disks.specs")


def nested(keys):
    """Dotted keys as the nested maps of a scenario file."""
    out = {}
    for k, v in keys.items():
        node = out
        parts = k.split(".")
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        node[parts[-1]] = v
    return out


def paths_for(keys, base_dir):
    """The keys with drive spec paths (relative to the repo root) made relative to `base_dir`."""
    def fix(p):
        return os.path.relpath(os.path.normpath(os.path.join(ROOT, p)), base_dir)
    out = dict(keys)
    for k in PATH_KEYS:
        if k in out:
            out[k] = [fix(p) for p in out[k]] if isinstance(out[k], list) else fix(out[k])
    return out


def fault_entry(f):
    """A schedule entry as the `faults:` list takes it (the explorer's own fields dropped)."""
    fields = ["kind", "at_ms", "disk", "lbn", "sectors", "restore_after_ms", "replace_after_ms"]
    return {k: f[k] for k in fields if k in f}


def scenario_text(case, path, header=()):
    """The whole scenario of `case` as YAML, to be written at `path` (spec paths relative to it)."""
    doc = nested(paths_for(case["keys"], os.path.dirname(os.path.abspath(path))))
    doc["faults"] = [fault_entry(f) for f in case["faults"]]
    body = yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, width=120)
    meta = {k: case[k] for k in ("id", "family") if k in case}
    lines = [f"# {h}" if h else "#" for h in header]
    lines.append("# explorer: " + json.dumps(meta))
    return "\n".join(lines) + "\n" + body


def case_from_scenario(path):
    """A case back from a scenario file the explorer wrote (for --check and the shrinker's tests)."""
    with open(path) as f:
        text = f.read()
    meta = {}
    for line in text.splitlines():
        if line.startswith("# explorer: "):
            meta = json.loads(line[len("# explorer: "):])
    doc = yaml.safe_load(text)
    faults = doc.pop("faults", [])
    keys = {}

    def walk(node, prefix):
        for k, v in node.items():
            if isinstance(v, dict) and not (prefix + k) == "controller.adaptraid5.uf":
                walk(v, prefix + k + ".")
            else:
                keys[prefix + k] = v
    walk(doc, "")
    base = os.path.dirname(os.path.abspath(path))
    for k in PATH_KEYS:  # back to repo-root relative
        if k in keys:
            def back(p):
                return os.path.relpath(os.path.normpath(os.path.join(base, p)), ROOT)
            keys[k] = [back(p) for p in keys[k]] if isinstance(keys[k], list) else back(keys[k])
    return {"id": meta.get("id", os.path.basename(path)), "family": meta.get("family", "?"), "keys": keys,
            "faults": faults, "notes": [""] * len(faults)}


class Outcome:
    def __init__(self, rc, stats, wall_s, cpu_s, stderr, timed_out):
        self.rc, self.stats, self.wall_s, self.cpu_s, self.stderr, self.timed_out = rc, stats, wall_s, cpu_s, stderr, timed_out


def run_case(case, binary, work_dir, cpu_limit_s, firmware_image=None):
    """One `raidtlm run` of `case` in `work_dir` (created); its Outcome. The run may use `cpu_limit_s`
    of CPU (RLIMIT_CPU: the limit holds however loaded the machine is) and 20 times that of wall
    clock (a run waiting on nothing); beyond either it is killed and counts as timed out.
    `firmware_image`: the ISS's image (controller.cpu.firmware), kept out of the scenario file."""
    os.makedirs(work_dir, exist_ok=True)
    path = os.path.join(work_dir, "scenario.yaml")
    with open(path, "w") as f:
        f.write(scenario_text(case, path))
    out = os.path.join(work_dir, "out")
    stats_path = os.path.join(out, "stats.json")
    if os.path.exists(stats_path):
        os.remove(stats_path)
    limit = max(1, int(math.ceil(cpu_limit_s)))

    def cpu_limit():
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 5))
    start = time.monotonic()
    with open(os.path.join(work_dir, "stderr"), "w+") as err:
        extra = ["--set", f"controller.cpu.firmware={firmware_image}"] if firmware_image else []
        p = subprocess.Popen([binary, "run", path, "--out", out, "--quiet"] + extra, stdout=subprocess.DEVNULL, stderr=err,
                             env=ENV, preexec_fn=cpu_limit)
        killed = []
        timer = threading.Timer(20 * limit, lambda: (killed.append(True), p.kill()))
        timer.start()
        _, status, usage = os.wait4(p.pid, 0)
        timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read()
    wall = time.monotonic() - start
    cpu = usage.ru_utime + usage.ru_stime
    timed_out = bool(killed) or p.returncode in (-signal.SIGXCPU, -signal.SIGKILL) and cpu >= limit
    stats = None
    if os.path.exists(stats_path) and not timed_out:
        with open(stats_path) as f:
            stats = json.load(f)
    return Outcome(p.returncode, stats, wall, cpu, text[-2000:], timed_out)


class Verdict:
    def __init__(self, failure, detail, excess, notes, facts):
        self.failure, self.detail, self.excess, self.notes, self.facts = failure, detail, excess, notes, facts

    @property
    def failed(self):
        return self.failure is not None


def writes_in(keys):
    return float(keys.get("workload.read_fraction", 0.67)) < 1.0


def judge(case, outcome):
    """The Verdict on one run of `case`."""
    keys = case["keys"]
    if outcome.timed_out:
        return Verdict("timeout", f"killed after {outcome.cpu_s:.0f} s of CPU ({outcome.wall_s:.0f} s wall)", [], [], {})
    # Exit status 3 is raidtlm's "a read returned wrong data" (stats.json is written): judged below.
    if outcome.rc not in (0, 1, 3) or outcome.stats is None:
        last = (outcome.stderr.strip().splitlines()[-1:] or ["(no stderr)"])[0][:300]
        # Without stats.json the promise is judged on the planned schedule (times as drawn).
        planned = promise.excesses(families.promise_of(keys), case["faults"], writes=writes_in(keys))
        beyond = " (the planned schedule goes beyond the promise)" if planned else ""
        failure = "stall" if outcome.rc == 1 and "the simulation ended after" in last else "crash"
        return Verdict(failure, f"exit status {outcome.rc}, no stats.json{beyond}: {last}", planned, [], {})
    s = outcome.stats
    c = s["controller"]
    fw = c.get("firmware", {})
    failed = c["failed_requests"]["reads"] + c["failed_requests"]["writes"]
    lost = fw.get("lost_sectors", 0)
    end_ms = s["simulation"]["end_ms"]
    happened = s.get("faults", [])
    notes = [f"fault #{i} ({f['kind']}) never happened (the run ended first)"
             for i, f in enumerate(happened) if not f["happened"]]
    excess = promise.excesses(families.promise_of(keys), happened, end_ms, writes_in(keys))
    facts = {"failed": failed, "lost_sectors": lost, "integrity_errors": c["integrity_errors"],
             "reads_checked": c["reads_checked"], "end_ms": end_ms, "wall_s": outcome.wall_s,
             "medium_errors": c.get("medium_errors", 0), "completed": s["requests"]["completed_total"]}
    if c["integrity_errors"] > 0:
        return Verdict("wrong_data", f"{c['integrity_errors']} integrity errors in {c['reads_checked']} reads checked",
                       excess, notes, facts)
    if outcome.rc == 3:
        return Verdict("crash", "exit status 3 (wrong data) with no integrity error in stats.json", excess, notes, facts)
    if s["requests"]["completed_total"] < keys["workload.requests"]:
        return Verdict("stall", f"{s['requests']['completed_total']} of {keys['workload.requests']} requests "
                       f"completed", excess, notes, facts)
    if (failed or lost) and not excess:
        return Verdict("lost_within_promise", f"{failed} failed requests, {lost} lost sectors with the schedule "
                       f"within the promise ({families.promise_of(keys).describe()})", excess, notes, facts)
    if outcome.rc == 1 and not (failed or lost):
        return Verdict("exit_status", "exit status 1 with no failed request or lost sector in stats.json: "
                       + (outcome.stderr.strip().splitlines() or [""])[-1][:300], excess, notes, facts)
    return Verdict(None, f"{failed} failed, {lost} lost sectors" + (" (beyond the promise)" if excess else ""),
                   excess, notes, facts)


def pilot_facts(case, outcome, disk_sectors):
    """What the fault drawer needs from the fault-free pilot run."""
    s = outcome.stats
    return {"duration_ms": s["simulation"]["end_ms"], "disk_sectors": disk_sectors,
            "layout_text": s["controller"].get("firmware", {}).get("layout", "")}


def disk_sectors_of(spec, binary, work_dir):
    """A drive model's capacity in sectors: a RAID 0 of one such drive behind the controller reports it."""
    os.makedirs(work_dir, exist_ok=True)
    out = os.path.join(work_dir, "capacity")
    cmd = [binary, "run", os.path.join(ROOT, "scenarios", "default.yaml"), "--out", out, "--quiet",
           "--set", f"disks.spec={os.path.join(ROOT, spec)}", "--set", "disks.count=1",
           "--set", "controller.enabled=true", "--set", "host.stripe_unit_sectors=1", "--set", "workload.requests=1",
           "--set", "workload.warmup_requests=0", "--set", "output.waves=false", "--set", "output.timeline=false"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=ENV)
    with open(os.path.join(out, "stats.json")) as f:
        return int(json.load(f)["controller"]["firmware"]["capacity_sectors"])
