"""One raidtlm run on a Dask worker: the function the study submits.

It writes the scenario bundle into the worker's scratch directory, finds the raidtlm binary (the
path given, if it exists on this worker, else `raidtlm` on the worker's PATH), runs it into a
scratch output directory and returns the run's stats.json. A run that fails returns its error as
data (a bad key fails the same way on every worker, so it must not be retried); only a worker that
dies makes Dask run the task again elsewhere.
"""
import ctypes
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

from . import run_check, scenario_bundle

_PR_SET_PDEATHSIG = 1


def _die_with_parent():
    # A killed worker must not leave its raidtlm child running on as an orphan.
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass


def binary_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def find_binary(hint):
    if hint and os.path.isfile(hint) and os.access(hint, os.X_OK):
        return hint
    found = shutil.which("raidtlm")
    if not found:
        raise FileNotFoundError(f"no raidtlm binary on {socket.gethostname()}: "
                                f"{hint or '(none given)'} does not exist and raidtlm is not on PATH")
    return found


def describe_binary(hint):
    """(path, sha256) of the binary this worker would run."""
    path = find_binary(hint)
    return path, binary_digest(path)


def run_one(bundle, overrides, binary_hint, timeout_s):
    """bundle: scenario_bundle.as_data(). Runs `raidtlm run SCENARIO --set K=V ...`; returns a dict: ok, stats or
    error, worker, binary. A run whose reads returned wrong data (exit 3, or integrity errors in its stats.json)
    fails with wrong_data set: it is never a data point (run_check)."""
    started = time.time()
    result = {"worker": socket.gethostname() + ":" + str(os.getpid())}
    try:
        binary = find_binary(binary_hint)
    except FileNotFoundError as e:
        return dict(result, ok=False, error=str(e), elapsed_s=0.0)
    result["binary_sha256"] = binary_digest(binary)
    scratch = os.path.join(tempfile.gettempdir(), "raidtlm-study")
    os.makedirs(scratch, exist_ok=True)
    scenario = scenario_bundle.materialise(bundle, scratch)
    out_dir = tempfile.mkdtemp(prefix="run-", dir=scratch)
    cmd = [binary, "run", scenario, "--out", out_dir, "--quiet"]
    for k, v in overrides:
        cmd += ["--set", f"{k}={v}"]
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout_s,
                              preexec_fn=_die_with_parent)
        if proc.returncode == run_check.WRONG_DATA_EXIT:
            # Its stats.json goes back with it (first_integrity_errors, to debug from), never as a result.
            failed = dict(result, ok=False, error=run_check.last_error_line(proc.stderr, proc.returncode),
                          wrong_data=True, out_dir=out_dir, elapsed_s=time.time() - started)
            try:
                with open(os.path.join(out_dir, "stats.json")) as f:
                    failed["stats"] = json.load(f)
            except (OSError, ValueError):
                pass
            return failed
        if proc.returncode != 0:
            return dict(result, ok=False, error=run_check.last_error_line(proc.stderr, proc.returncode),
                        elapsed_s=time.time() - started)
        with open(os.path.join(out_dir, "stats.json")) as f:
            stats = json.load(f)
        if run_check.integrity_errors(stats):
            return dict(result, ok=False, error=run_check.integrity_message(stats, "stats.json"), wrong_data=True,
                        stats=stats, out_dir=out_dir, elapsed_s=time.time() - started)
        return dict(result, ok=True, stats=stats, elapsed_s=time.time() - started)
    except subprocess.TimeoutExpired:
        return dict(result, ok=False, error=f"run exceeded the study's timeout of {timeout_s} s",
                    elapsed_s=time.time() - started)
    except (OSError, ValueError) as e:
        return dict(result, ok=False, error=f"no stats.json from the run: {e}", elapsed_s=time.time() - started)
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)
