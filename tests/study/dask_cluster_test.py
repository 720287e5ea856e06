#!/usr/bin/python3
"""System test of scripts/study on a real Dask cluster (ctest label `study`).

Starts `dask scheduler` and two `dask worker` processes on localhost, runs a small study through
them, SIGKILLs one worker while it is running a raidtlm run, and checks that every run finished
exactly once and that the table equals the same study run on a local cluster. Then checks resume
(a second run reuses every run) and that a failing point is reported while the others finish.

Usage: dask_cluster_test.py RAIDTLM_BINARY SOURCE_DIR WORK_DIR
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

binary, source, work = (os.path.abspath(a) for a in sys.argv[1:4])
study_cmd = [os.path.join(source, "scripts", "study")]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
procs = []


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    for p in procs:
        if p.poll() is None:
            p.kill()
    sys.exit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_study(name, grid, seeds):
    path = os.path.join(work, name + ".yaml")
    with open(path, "w") as f:
        f.write(f"scenario: {os.path.join(source, 'scenarios', 'default.yaml')}\n"
                "set:\n  output.waves: false\n  workload.requests: 1500\n  workload.warmup_requests: 200\n"
                "  disks.count: 2\n"
                f"grid:\n{grid}seeds: {seeds}\n"
                "metrics: [throughput.iops, response_time.mean_ms, response_time.p90_ms]\n")
    return path


def run_study(args, **kw):
    return subprocess.run(study_cmd + args + ["--raidtlm", binary], capture_output=True, text=True, **kw)


def finished_runs(out):
    d = os.path.join(out, "runs")
    return [k for k in os.listdir(d) if os.path.exists(os.path.join(d, k, "run.json"))] if os.path.isdir(d) else []


study = write_study("small", "  workload.outstanding: [1, 2, 4]\n  workload.read_fraction: [0.5, 1.0]\n", 2)
runs_expected = 3 * 2 * 2

# --- the cluster: one scheduler, two workers with one thread each ---------------------------------
port = free_port()
address = f"tcp://127.0.0.1:{port}"
env = dict(os.environ, TMPDIR=os.path.join(work, "tmp"), SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
os.makedirs(env["TMPDIR"])
log = open(os.path.join(work, "cluster.log"), "w")
procs.append(subprocess.Popen(["dask", "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--no-dashboard"], stdout=log, stderr=log, env=env))
workers = []
for i in range(2):
    w = subprocess.Popen(["dask", "worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                          "--name", f"w{i}", "--local-directory", env["TMPDIR"]], stdout=log, stderr=log, env=env)
    procs.append(w)
    workers.append(w)

import distributed  # noqa: E402  (after the cluster exists: the probe client connects to it)

deadline = time.time() + 30
probe = None
while time.time() < deadline:
    try:
        probe = probe or distributed.Client(address, timeout="2s")
        if len(probe.scheduler_info()["workers"]) == 2:
            break
    except (OSError, TimeoutError):
        pass
    time.sleep(0.3)
else:
    fail("the scheduler and two workers did not come up within 30 s (see cluster.log)")
victim_address = next(a for a, info in probe.scheduler_info()["workers"].items() if info["name"] == "w1")

# --- the study on the cluster; kill worker w1 while it runs a raidtlm run --------------------------
out_cluster = os.path.join(work, "cluster")
started = time.time()
study_proc = subprocess.Popen(study_cmd + [study, "--scheduler", address, "--out", out_cluster,
                                           "--raidtlm", binary],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
procs.append(study_proc)
killed = False
while study_proc.poll() is None and not killed and time.time() - started < 60:
    busy = probe.processing().get(victim_address, ())
    if len(finished_runs(out_cluster)) >= 1 and busy:
        workers[1].send_signal(signal.SIGKILL)
        workers[1].wait()
        killed = True
        finished_at_kill = len(finished_runs(out_cluster))
    time.sleep(0.05)
stdout, stderr = study_proc.communicate(timeout=120)
if not killed:
    fail(f"worker w1 was never seen running a task, so it was not killed midway\n{stderr}")
if finished_at_kill >= runs_expected:
    fail("the study had already finished when the worker was killed")
if study_proc.returncode != 0:
    fail(f"study on the cluster exited {study_proc.returncode}\n{stderr}")
print(f"cluster study: killed w1 after {finished_at_kill} of {runs_expected} runs; "
      f"took {time.time() - started:.1f} s")

with open(os.path.join(out_cluster, "study.json")) as f:
    sj = json.load(f)
keys = [r["key"] for r in sj["runs"]]
if len(keys) != runs_expected or len(set(keys)) != runs_expected:
    fail(f"expected {runs_expected} distinct runs in study.json, got {len(keys)} ({len(set(keys))} distinct)")
if not all(r["ok"] for r in sj["runs"]):
    fail(f"runs failed on the cluster: {[r['error'] for r in sj['runs'] if not r['ok']]}")
if sorted(finished_runs(out_cluster)) != sorted(keys):
    fail("the run directories are not exactly the study's runs")
for k in keys:
    with open(os.path.join(out_cluster, "runs", k, "run.json")) as f:
        if json.load(f)["worker"].split(":")[0] != socket.gethostname():
            fail(f"run {k} names no worker of this host")
for p in sj["points"]:
    if p["seeds_ok"] != 2:
        fail(f"point {p['values']} has {p['seeds_ok']} seeds finished, expected 2")
probe.close()
for p in procs:
    if p.poll() is None:
        p.terminate()
        p.wait(timeout=20)

# --- the same study on a local cluster gives the same table ----------------------------------------
out_local = os.path.join(work, "local")
r = run_study([study, "--out", out_local, "--workers", "2"])
if r.returncode != 0:
    fail(f"local study exited {r.returncode}\n{r.stderr}")
with open(os.path.join(out_cluster, "study.csv")) as a, open(os.path.join(out_local, "study.csv")) as b:
    ta, tb = a.read(), b.read()
if ta != tb:
    fail(f"study.csv differs between the cluster and the local run:\n{ta}\n---\n{tb}")
if ta.count("\n") != 1 + 6:
    fail(f"expected a header and 6 points in study.csv:\n{ta}")

# --- resume: nothing runs again --------------------------------------------------------------------
t0 = time.time()
r = run_study([study, "--out", out_local, "--workers", "2"])
if r.returncode != 0 or f"{runs_expected} reused" not in r.stderr:
    fail(f"a second run of the study should reuse all {runs_expected} runs:\n{r.stderr}")

# --- a failing point is reported, the others finish ------------------------------------------------
bad = write_study("bad", "  workload.read_fraction: [0.5, 1.5]\n", 1)
r = run_study([bad, "--out", os.path.join(work, "bad"), "--workers", "2"])
if r.returncode != 1:
    fail(f"a study with a failing point should exit 1, got {r.returncode}\n{r.stderr}")
if "failed: workload.read_fraction=1.5 seed=1:" not in r.stderr or "read_fraction" not in r.stderr.split("failed:")[1]:
    fail(f"the failing run's error is not reported:\n{r.stderr}")
with open(os.path.join(work, "bad", "study.csv")) as f:
    rows = f.read().splitlines()
if not rows[1].startswith("0.5,1,0,") or not rows[2].startswith("1.5,0,1,"):
    fail(f"study.csv should have the good point finished and the bad one failed:\n{rows}")

# --- a bad study file names its file and line ------------------------------------------------------
broken = os.path.join(work, "broken.yaml")
with open(broken, "w") as f:
    f.write(f"scenario: {os.path.join(source, 'scenarios', 'default.yaml')}\ngrid:\n  workload.outstanding: 4\n")
r = run_study([broken])
if r.returncode != 2 or f"{broken}:2:" not in r.stderr or "list" not in r.stderr:
    fail(f"a grid key without a list should be refused naming {broken}:2:\n{r.stderr}")
print("PASS")
