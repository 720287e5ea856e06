#!/usr/bin/python3
"""A raidtlm run whose reads returned wrong data is a failure of every script (issue 27; ctest label
`study`): scripts/study exits 3 naming it and keeps it out of the table, scripts/plot_study,
scripts/plot and scripts/compare_stats refuse it, and scripts/study_lib/run_check (the helper every
script shares) raises IntegrityFailure for raidtlm's exit status 3 and for a stats.json with
integrity errors.

The wrong data comes from the fault silent_corruption (a drive whose media change under the
controller): a point that reaches the fault's request returns wrong data, one that ends before it
does not.

Usage: wrong_data_test.py RAIDTLM_BINARY SOURCE_DIR WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys

binary, source, work = (os.path.abspath(a) for a in sys.argv[1:4])
scripts = os.path.join(source, "scripts")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
env = dict(os.environ, TMPDIR=os.path.join(work, "tmp"), SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
os.makedirs(env["TMPDIR"])
sys.path.insert(0, scripts)
from study_lib import run_check  # noqa: E402


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


scenario = os.path.join(work, "corrupt.yaml")
with open(scenario, "w") as f:
    f.write(f"disks:\n  spec: {os.path.join(source, '..', 'shared', 'reference', 'disksim', 'validation', 'cheetah9LP.diskspecs')}\n"
            "  count: 4\ncontroller:\n  enabled: true\n  layout: raid5\n"
            "workload:\n  outstanding: 4\n  read_fraction: 0.5\n  request_sectors: 8\n  address: hot_cold\n"
            "  hot_space_fraction: 0.0002\n  hot_access_fraction: 0.9\n  data_tokens: true\n  warmup_requests: 0\n"
            "output:\n  waves: false\n"
            "faults:\n  - {kind: silent_corruption, at_request: 200, disk: 0, lbn: 0, sectors: 2048}\n")

# --- scripts/study: the point past the fault fails as wrong data, the other one is a result ---------
study = os.path.join(work, "study.yaml")
with open(study, "w") as f:
    f.write(f"scenario: {scenario}\ngrid:\n  workload.requests: [150, 3000]\nseeds: 1\n"
            "metrics: [throughput.iops, response_time.mean_ms]\n")
out = os.path.join(work, "study")
r = run([os.path.join(scripts, "study"), study, "--out", out, "--workers", "1", "--raidtlm", binary])
if r.returncode != 3:
    fail(f"a study with a run that returned wrong data should exit 3, got {r.returncode}\n{r.stderr}")
if "DATA INTEGRITY FAILURE: 1 run(s) returned wrong data" not in r.stderr or \
        "workload.requests=3000 seed=1: raidtlm: DATA INTEGRITY FAILURE" not in r.stderr:
    fail(f"the study does not name the run with wrong data:\n{r.stderr}")
with open(os.path.join(out, "study.csv")) as f:
    rows = f.read().splitlines()
if not rows[1].startswith("150,1,0,") or not rows[2].startswith("3000,0,1,"):
    fail(f"study.csv should have the point before the fault finished and the one past it failed:\n{rows}")
with open(os.path.join(out, "study.json")) as f:
    sj = json.load(f)
wrong = [x for x in sj["runs"] if x["wrong_data"]]
if len(wrong) != 1 or wrong[0]["ok"] or wrong[0]["stats"] is not None:
    fail(f"study.json should list the run with wrong data as failed, with no stats: {sj['runs']}")
kept = os.path.join(out, "runs", wrong[0]["key"], "stats.json")
if kept not in wrong[0]["error"] or not os.path.exists(kept):
    fail(f"the run with wrong data should keep its stats.json in {kept} and its error name it: {wrong[0]['error']}")
if sj["points"][1]["metrics"]["throughput.iops"]["values"]:
    fail(f"the run with wrong data gave a value to the table: {sj['points'][1]}")
# Run again: the wrong run is not reused as a result, and fails again.
r = run([os.path.join(scripts, "study"), study, "--out", out, "--workers", "1", "--raidtlm", binary])
if r.returncode != 3:
    fail(f"the study run again should fail again with 3, got {r.returncode}\n{r.stderr}")
# plot_study refuses the study.
r = run([os.path.join(scripts, "plot_study"), out, "--out", os.path.join(work, "plots")])
if r.returncode != 3 or "DATA INTEGRITY FAILURE" not in r.stderr:
    fail(f"plot_study should refuse a study with wrong data (exit 3), got {r.returncode}\n{r.stderr}")

# --- a run's own stats.json: plot and compare_stats refuse it --------------------------------------
bad = os.path.join(work, "runs_new", "corrupt")
r = run([binary, "run", scenario, "--quiet", "--out", bad, "--set", "workload.requests=3000"])
if r.returncode != 3:
    fail(f"raidtlm run should exit 3 on wrong data, got {r.returncode}\n{r.stderr}")
r = run([os.path.join(scripts, "plot"), bad, "--out", os.path.join(work, "plots")])
if r.returncode != 3 or "DATA INTEGRITY FAILURE" not in r.stderr:
    fail(f"plot should refuse a stats.json with wrong data (exit 3), got {r.returncode}\n{r.stderr}")
shutil.copytree(os.path.join(work, "runs_new"), os.path.join(work, "runs_base"))
r = run([os.path.join(scripts, "compare_stats"), os.path.join(work, "runs_base"), os.path.join(work, "runs_new")])
if r.returncode != 3 or "corrupt (base): DATA INTEGRITY FAILURE" not in r.stderr:
    fail(f"compare_stats should fail on a run with wrong data (exit 3), got {r.returncode}\n{r.stdout}{r.stderr}")

# --- run_check, the helper of every script ------------------------------------------------------------
try:
    run_check.run_raidtlm([binary, "run", scenario, "--quiet", "--out", os.path.join(work, "helper"),
                           "--set", "workload.requests=3000"], os.path.join(work, "helper"), "helper run")
    fail("run_raidtlm returned a run with wrong data")
except run_check.IntegrityFailure as e:
    if e.exit_code != 3 or "helper run: raidtlm: DATA INTEGRITY FAILURE" not in str(e):
        fail(f"run_raidtlm's IntegrityFailure: {e.exit_code} {e}")
# A stats.json with integrity errors from a binary that still exited 0.
with open(os.path.join(bad, "stats.json")) as f:
    stats = json.load(f)
try:
    run_check.check_stats(stats, "old.json")
    fail("check_stats accepted integrity errors")
except run_check.IntegrityFailure as e:
    if "DATA INTEGRITY FAILURE: old.json:" not in str(e) or "first: logical sector" not in str(e):
        fail(f"check_stats' message: {e}")
if run_check.integrity_errors({"response_time": {}}) != 0:
    fail("a stats.json without the controller has no integrity errors")
fake = os.path.join(work, "fake_raidtlm")
with open(fake, "w") as f:
    f.write("#!/bin/sh\necho 'raidtlm: DATA INTEGRITY FAILURE: 1 of 2 reads checked' >&2\nexit 3\n")
os.chmod(fake, 0o755)
r = run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); from study_lib import run_check; "
         "run_check.main_guard(lambda: run_check.run_raidtlm([sys.argv[2]], sys.argv[3]))", scripts, fake, work])
if r.returncode != 3 or "DATA INTEGRITY FAILURE: 1 of 2" not in r.stderr:
    fail(f"main_guard should end a script with 3 and the message, got {r.returncode}\n{r.stderr}")
print("PASS")
