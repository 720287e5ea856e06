#!/usr/bin/python3
"""The randomized fault explorer (`scripts/soak_faults --explore N --seed S`, issue 27).

Each case is drawn from (seed, index): a layout of every family soak_faults knows plus adaptraid5
and raid5 with read-rotate-write, a queue depth of 1-256, request sizes, a read fraction, a hot
region, 2,000-20,000 requests, then 1-4 faults timed relative to each other (explorer_lib/draw.py).
A case runs twice: fault-free (the pilot: how long the run lasts, so faults can be placed in
simulated ms; a fault-free run must pass too), then with its faults, data tokens on. The verdict
(explorer_lib/runner.py): wrong data is always a failure; failed requests and lost sectors only
where the schedule exceeded what the layout promises (explorer_lib/promise.py, on the times the
faults happened; the output names the fault that exceeded it); a crash, a stall, an unexpected exit
status or a timeout is a failure. The first failing case of each (failure, family) is shrunk
(explorer_lib/shrink.py: fewer faults, fewer requests, smaller depth) and written as a scenario
file: its path and its content are printed.

Usage: fault_explorer.py --explore N [--seed S] [--first I] [--jobs 1|2] [--binary RAIDTLM]
                         [--out DIR] [--families "raid5 raid6 ..."] [--no-shrink] [--known FILE]
       fault_explorer.py --case S:I ...       cases again (as drawn by --explore), e.g. one family's after a fix
       fault_explorer.py --check FILE.yaml     run and judge a scenario file the explorer wrote
Exit status 0 when no case failed (or every failing case is listed in --known), 1 otherwise,
2 on bad usage.
"""
import argparse
import collections
import json
import os
import resource
import shutil
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from explorer_lib import draw, families, runner, shrink  # noqa: E402

MAX_JOBS = 2  # the machine's two cores are shared: never more raidtlm runs at once


class Explorer:
    def __init__(self, args):
        self.args = args
        self.binary = os.path.abspath(args.binary)
        self.work = args.out or tempfile.mkdtemp(prefix="fault_explorer_")
        os.makedirs(self.work, exist_ok=True)
        self.capacity = {}
        self.lock = threading.Lock()
        self.runs = 0
        self.firmware = self.pin_firmware_image(args.firmware_image)

    def pin_firmware_image(self, given):
        """The C firmware image the iss_raid5 cases run, copied into the work folder now: a binary
        loads its build tree's image, which a rebuild during a long exploration would change."""
        source = given or os.path.join(os.path.dirname(self.binary), "controller", "iss", "firmware_c", "raidtlm_firmware.elf")
        if not os.path.isfile(source):
            if given:
                sys.exit(f"fault_explorer: '{given}': no such file; expected the ARM ELF firmware image")
            return None  # a binary outside its build tree: the image baked into it
        pinned = os.path.abspath(os.path.join(self.work, "firmware.elf"))
        shutil.copyfile(source, pinned)
        return pinned

    def log(self, text):
        with self.lock:
            print(text, flush=True)

    def disk_sectors(self, keys):
        specs = keys.get("disks.specs") or [keys["disks.spec"]]
        with self.lock:
            for spec in specs:
                if spec not in self.capacity:
                    self.capacity[spec] = runner.disk_sectors_of(spec, self.binary, os.path.join(self.work, "specs"))
            return min(self.capacity[s] for s in specs)

    def run(self, case, tag, timeout_s):
        with self.lock:
            self.runs += 1
        d = os.path.join(self.work, "runs", case["id"].replace(":", "_"), tag)
        iss = case["keys"].get("controller.cpu.model") == "iss"
        out = runner.run_case(case, self.binary, d, timeout_s, self.firmware if iss else None)
        return out, runner.judge(case, out)

    def explore_one(self, seed, index):
        """Draw, pilot and run case `index`: a record of it."""
        case = draw.draw_workload(seed, index, self.args.families)
        pilot, verdict = self.run(case, "pilot", self.args.pilot_timeout)
        rec = {"case": case, "pilot": verdict, "verdict": verdict, "duration_ms": None,
               "timeout_s": self.args.pilot_timeout, "wall_s": pilot.wall_s, "cpu_s": pilot.cpu_s}
        if not verdict.failed:
            rec["duration_ms"] = pilot.stats["simulation"]["end_ms"]
            case = draw.draw_faults(case, runner.pilot_facts(case, pilot, self.disk_sectors(case["keys"])))
            rec["timeout_s"] = max(60.0, 30 * pilot.cpu_s)
            out, verdict = self.run(case, "faults", rec["timeout_s"])
            rec.update(case=case, verdict=verdict, wall_s=rec["wall_s"] + out.wall_s, cpu_s=rec["cpu_s"] + out.cpu_s)
        self.log(line_of(rec))
        if rec["verdict"].failed:  # kept as drawn at once: an interrupted exploration loses nothing found
            os.makedirs(os.path.join(self.work, "failing"), exist_ok=True)
            write_case(os.path.join(self.work, "failing", case["id"].replace(":", "_") + ".yaml"), case, rec["verdict"])
        return rec

    def shrink_one(self, rec):
        failure = rec["verdict"].failure
        tries = collections.Counter()

        def still_fails(c):
            tries["n"] += 1
            return self.run(c, f"shrink{tries['n']}", rec["timeout_s"])[1].failure == failure
        small, spent = shrink.shrink(rec["case"], still_fails, self.args.shrink_budget, rec["duration_ms"])
        _, verdict = self.run(small, "minimal", rec["timeout_s"])
        return small, verdict, spent


def line_of(rec):
    c, v = rec["case"], rec["verdict"]
    k = c["keys"]
    kinds = ",".join(f["kind"].replace("_loss", "").replace("_error", "") for f in c["faults"]) or "-"
    where = "pilot" if v is rec["pilot"] and v.failed else ""
    beyond = " beyond" if v.excess else ""
    status = f"FAIL {v.failure}{' (' + where + ')' if where else ''}: {v.detail}" if v.failed else "pass"
    return (f"{c['id']:>8} {c['family']:<16} q={k['workload.outstanding']:<3} n={k['workload.requests']:<5} "
            f"rf={k['workload.read_fraction']:<4} faults={kinds:<28}{beyond:<7} {rec['cpu_s']:5.1f}s {status}")


def header_of(case, verdict, command):
    lines = [f"Fault explorer case {case['id']} ({case['family']}): {verdict.failure} - {verdict.detail}",
             f"Promise: {families.promise_of(case['keys']).describe()}"]
    for e in verdict.excess:
        lines.append(f"Beyond the promise: {e.text}")
    for i, n in enumerate(case.get("notes", [])):
        if n:
            lines.append(f"fault #{i}: {n}")
    for n in verdict.notes:
        lines.append(n)
    lines += [f"Reproduce: {command}", "Judge it: scripts/soak_faults --check THIS_FILE"]
    return lines


def write_case(path, case, verdict):
    shown = os.path.relpath(path, runner.ROOT)
    if shown.startswith(".."):
        shown = os.path.abspath(path)
    cmd = f"build/release/raidtlm run {shown} --out out/explorer_case"
    text = runner.scenario_text(case, path, header_of(case, verdict, cmd))
    with open(path, "w") as f:
        f.write(text)
    return text


def read_known(path):
    known = {}
    if path:
        with open(path) as f:
            for line in f:
                body = line.split("#", 1)[0].split()
                if body:
                    known[body[0]] = line.strip()
    return known


def summarize(records, elapsed_s, runs, work):
    fam = collections.Counter(r["case"]["family"] for r in records)
    with open(os.path.join(work, "summary.json"), "w") as f:
        json.dump([{"id": r["case"]["id"], "family": r["case"]["family"], "keys": r["case"]["keys"],
                    "faults": r["case"]["faults"], "notes": r["case"].get("notes", []),
                    "failure": r["verdict"].failure, "detail": r["verdict"].detail,
                    "beyond": [e.text for e in r["verdict"].excess], "wall_s": r["wall_s"], "cpu_s": r["cpu_s"]} for r in records], f, indent=1)
    kinds, relations = collections.Counter(), collections.Counter()
    for r in records:
        for f, n in zip(r["case"]["faults"], r["case"].get("notes", [])):
            kinds[f["kind"]] += 1
            relations[n.split(":")[0] if ":" in n else "first fault"] += 1
    beyond = sum(1 for r in records if r["verdict"].excess)
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"\n{len(records)} cases, {runs} raidtlm runs, {elapsed_s:.0f} s wall, {cpu.ru_utime + cpu.ru_stime:.0f} s CPU "
          f"in the runs ({(cpu.ru_utime + cpu.ru_stime) / max(1, len(records)):.1f} s a case)")
    failed = collections.Counter(r["case"]["family"] for r in records if r["verdict"].failed)
    print("families (cases/failed): " + ", ".join(f"{k} {v}/{failed[k]}" for k, v in sorted(fam.items())))
    print("faults: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    print("relations: " + ", ".join(f"{k} {v}" for k, v in sorted(relations.items())))
    print(f"schedules beyond the promise (as the faults happened): {beyond} of {len(records)}")


def shrink_files(ex, a):
    """--shrink: each file run once (its failure), shrunk, written into --cases-dir."""
    cases_dir = a.cases_dir or os.path.join(ex.work, "cases")
    os.makedirs(cases_dir, exist_ok=True)

    def one(path):
        case = runner.case_from_scenario(path)
        out, verdict = ex.run(case, "as_drawn", a.pilot_timeout)
        if not verdict.failed:
            return path, None, None, 0
        rec = {"case": case, "verdict": verdict, "pilot": None, "timeout_s": max(60.0, 2 * out.cpu_s),
               "duration_ms": out.stats["simulation"]["end_ms"] if out.stats else None}
        small, verdict, spent = ex.shrink_one(rec)
        if not verdict.failed:
            small, verdict = case, rec["verdict"]
        name = f"{verdict.failure}_{case['family']}_{case['id'].replace(':', '_')}.yaml"
        target = os.path.join(cases_dir, name)
        return path, target, write_case(target, small, verdict), spent
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        done = list(pool.map(one, a.shrink))
    for path, target, text, spent in done:
        print(f"\n{path}: passes now" if target is None else f"\n{path}: shrunk in {spent} runs\n{target}\n{text}")
    return 1 if any(t for _, t, _, _ in done) else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--explore", type=int, default=0, metavar="N", help="draw and run N cases (layout, queue depth, "
                    "request sizes, faults and their timing); failing ones are shrunk and written as scenarios")
    ap.add_argument("--seed", type=int, default=1, help="the seed the cases are drawn from (case S:I is case I "
                    "of seed S; ids depend on --families)")
    ap.add_argument("--first", type=int, default=0, metavar="I", help="the first case index (cases I .. I+N-1)")
    ap.add_argument("--case", metavar="S:I", nargs="+", help="cases again (e.g. those of some families after a fix)")
    ap.add_argument("--check", metavar="FILE", help="run and judge a scenario file the explorer wrote")
    ap.add_argument("--shrink", metavar="FILE", nargs="+", help="shrink failing scenario files the explorer wrote "
                    "(into --cases-dir)")
    ap.add_argument("--jobs", type=int, default=2, help=f"runs at a time, 1 to {MAX_JOBS} (default 2)")
    ap.add_argument("--binary", default=os.path.join(runner.ROOT, "build", "release", "raidtlm"),
                    help="the raidtlm to run (default build/release/raidtlm, not rebuilt)")
    ap.add_argument("--firmware-image", metavar="ELF", help="the C firmware image for iss_raid5 cases (default: "
                    "the one in the binary's build tree, copied into OUT at the start)")
    ap.add_argument("--out", help="work folder (runs, cases); default a new folder under /tmp")
    ap.add_argument("--families", type=lambda s: s.split(), default=families.FAMILIES, metavar="LIST",
                    help="space-separated families drawn from (default all: " + " ".join(families.FAMILIES) + ")")
    ap.add_argument("--cases-dir", metavar="DIR", help="where failing cases are written (default OUT/cases)")
    ap.add_argument("--no-shrink", action="store_true", help="write failing cases as drawn")
    ap.add_argument("--shrink-budget", type=int, default=50, metavar="RUNS", help="runs a shrink may take")
    ap.add_argument("--pilot-timeout", type=float, default=600.0, metavar="S", help="CPU seconds a pilot run may use")
    ap.add_argument("--known", metavar="FILE", help="failing case ids known (one a line, '#' comments)")
    a = ap.parse_args(argv)
    if not 1 <= a.jobs <= MAX_JOBS:
        ap.error(f"--jobs must be 1 or {MAX_JOBS}")
    unknown = [f for f in a.families if f not in families.FAMILIES]
    if unknown:
        ap.error(f"unknown families {unknown}; expected some of {' '.join(families.FAMILIES)}")
    for f in ([a.check] if a.check else []) + (a.shrink or []):
        if not os.path.isfile(f):
            ap.error(f"'{f}': no such file; expected a scenario file the explorer wrote")
    if not (a.explore or a.case or a.check or a.shrink):
        ap.error("give --explore N, --case S:I, --check FILE or --shrink FILE...")
    ex = Explorer(a)
    start = time.monotonic()
    if a.check:
        case = runner.case_from_scenario(a.check)
        out, verdict = ex.run(case, "check", a.pilot_timeout)
        print(f"{a.check}: {'FAIL ' + verdict.failure if verdict.failed else 'pass'}: {verdict.detail}")
        for e in verdict.excess:
            print(f"  beyond the promise: {e.text}")
        for n in verdict.notes:
            print(f"  {n}")
        return 1 if verdict.failed else 0
    if a.shrink:
        return shrink_files(ex, a)
    if a.case:
        jobs = []
        for one in a.case:
            try:
                s, i = (int(x) for x in one.split(":"))
            except ValueError:
                ap.error(f"--case '{one}': expected SEED:INDEX, two integers (e.g. 21:82)")
            jobs.append((s, i))
    else:
        jobs = [(a.seed, i) for i in range(a.first, a.first + a.explore)]
    print(f"fault explorer: {len(jobs)} cases from seed {jobs[0][0]}, {a.jobs} at a time, work in {ex.work}", flush=True)
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        records = list(pool.map(lambda j: ex.explore_one(*j), jobs))
    failing = [r for r in records if r["verdict"].failed]
    summarize(records, time.monotonic() - start, ex.runs, ex.work)
    firsts = {}
    for r in failing:
        firsts.setdefault((r["verdict"].failure, r["case"]["family"]), r)
    cases_dir = a.cases_dir or os.path.join(ex.work, "cases")
    os.makedirs(cases_dir, exist_ok=True)

    def finish(rec):
        if a.no_shrink or rec["verdict"] is rec["pilot"]:
            return rec["case"], rec["verdict"], 0
        return ex.shrink_one(rec)
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        minimal = list(pool.map(finish, firsts.values()))
    known = read_known(a.known)
    new_failures = len([r for r in failing if r["case"]["id"] not in known])
    for (key, rec), (small, verdict, spent) in zip(firsts.items(), minimal):
        same = [r["case"]["id"] for r in failing if (r["verdict"].failure, r["case"]["family"]) == key]
        if not verdict.failed:  # the minimal case passed when run again: keep the drawn one
            small, verdict = rec["case"], rec["verdict"]
        path = os.path.join(cases_dir, f"{key[0]}_{key[1]}_{rec['case']['id'].replace(':', '_')}.yaml")
        text = write_case(path, small, verdict)
        tag = "KNOWN " if all(i in known for i in same) else ""
        print(f"\n{tag}FAILURE {key[0]} on {key[1]}: cases {' '.join(same)}; "
              f"shrunk in {spent} runs to {len(small['faults'])} faults, {small['keys']['workload.requests']} requests, "
              f"depth {small['keys']['workload.outstanding']}\n{path}\n{text}")
    for i in known:
        if any(r["case"]["id"] == i and not r["verdict"].failed for r in records):
            print(f"known failing case {i} passes now: take it off {a.known}")
    print(f"{len(failing)} of {len(records)} cases failed"
          f"{f' ({len(failing) - new_failures} known)' if known else ''}; work in {ex.work}")
    return 1 if new_failures else 0


if __name__ == "__main__":
    sys.exit(main())
