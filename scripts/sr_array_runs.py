"""Shared pieces of the SR-Array reproduction scripts (scripts/reproduce_sr_array*): a run of
scenarios/sr_array_d6.yaml with overrides (a row of a study_lib.run_table table), the layouts, the
seek-locality emulation, the analytic model through `raidtlm sr-model`, and a write-through copy
of the Cheetah 9LP spec.
Imported by the scripts (they put scripts/ on sys.path); not a script itself.
"""
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from study_lib import run_check, run_table  # noqa: E402,F401  (run_check: the scripts' main_guard)
SCENARIO = os.path.join(ROOT, "scenarios", "sr_array_d6.yaml")
SPEC_DIR = os.path.join(ROOT, "..", "shared", "reference", "disksim", "validation")
SPEC = os.path.join(SPEC_DIR, "cheetah9LP.diskspecs")
ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")


def locality(L):
    """Seek locality L emulated as in scripts/reproduce_sr_array's "region/L": uniform over 1/L of
    the logical space (workload.address=hot_cold, all accesses hot), so every layout's band and mean
    seek distance shrink by L: the paper's S -> S/L. L = 1: uniform over everything."""
    if L == 1:
        return []
    return ["workload.address=hot_cold", f"workload.hot_space_fraction={1.0 / L}", "workload.hot_access_fraction=1"]


def layout(ds, dr, dm, sched):
    return ["controller.layout=sr_array", f"controller.sr.ds={ds}", f"controller.sr.dr={dr}",
            f"controller.sr.dm={dm}", f"controller.scheduler={sched}"]


def run(out_root, name, sets):
    """The table row of one run of the D = 6 scenario with the overrides, into out_root/name."""
    return run_table.Run(name, os.path.join(out_root, name), SCENARIO,
                         ["output.timeline=false", "output.waves=false"] + list(sets))


def options(description, default_out):
    """The scripts' command line: [OUTDIR] and the run table's options (--jobs, --list-runs, ...)."""
    import argparse
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("outdir", nargs="?", default=os.path.join(ROOT, "out", default_out))
    return run_table.parse(run_table.add_options(ap))


def model(ds, dr, dm, queue, read_fraction=1.0, L=1.0, overhead_ms=0.0):
    """Eq 4-16 from `raidtlm sr-model`, S and R from the Cheetah 9LP spec."""
    cmd = [run_table.binary(), "sr-model", "--disk", SPEC, "--ds", str(ds), "--dr", str(dr), "--dm", str(dm), "--queue", str(queue),
           "--read-fraction", str(read_fraction), "--locality", str(L), "--overhead-ms", str(overhead_ms)]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True, env=ENV).stdout)


def disk_means(st):
    """Request-weighted means over the drives: seek, rotation, transfer, overhead (ms)."""
    n = sum(d["requests"] for d in st["disks"])
    w = lambda k: sum(d[k] * d["requests"] for d in st["disks"]) / n
    return w("mean_seek_ms"), w("mean_rotation_ms"), w("mean_transfer_ms"), w("mean_overhead_ms")


def write_through_spec(out_root, write=True):
    """A copy of the Cheetah 9LP spec with "Fast write level = 0" (the drive acknowledges a write only
    when it is on the media) and nothing else changed. With the spec's level 2 the drive acknowledges
    every write from its cache and writes it out in its own order, so the firmware's foreground
    propagation (and its RLOOK/RSATF choice of replica) would not be what times a write.
    write=False: only its path (--list-runs writes nothing)."""
    d = os.path.join(out_root, "write_through_spec")
    if not write:
        return os.path.join(d, "cheetah9LP.diskspecs")
    os.makedirs(d, exist_ok=True)
    for f in ("cheetah9LP.model", "cheetah9LP.seek"):
        shutil.copy(os.path.join(SPEC_DIR, f), d)
    with open(SPEC) as f:
        text = f.read()
    text, n = re.subn(r"Fast write level = 2", "Fast write level = 0", text)
    if n != 1:
        raise SystemExit(f"{SPEC}: expected one 'Fast write level = 2' line, found {n}")
    path = os.path.join(d, "cheetah9LP.diskspecs")
    with open(path, "w") as f:
        f.write(text)
    return path


def interpolate_crossover(xs, diff):
    """The first x where diff (a - b) changes sign from > 0 to <= 0, linearly interpolated; None if it
    never does."""
    for i in range(1, len(xs)):
        if diff[i - 1] > 0 and diff[i] <= 0:
            return xs[i - 1] + (xs[i] - xs[i - 1]) * diff[i - 1] / (diff[i - 1] - diff[i])
    return None
