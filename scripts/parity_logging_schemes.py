"""Shared by scripts/reproduce_parity_logging, scripts/plot_parity_logging and
scripts/parity_logging_contention: the schemes of the parity logging paper (Stodolsky et al.,
../shared/papers/001_adad7b23d9ed6262.txt) as raidtlm runs of scenarios/parity_logging_paper.yaml,
the model figures (raidtlm plog-model) and stats.json helpers.

scheme_run() is one row of a study_lib.run_table table (run_scheme() runs one alone). A scheme
whose layout a build does not have (an older binary, say) makes `raidtlm run` exit 2 with a
scenario error naming one of its keys; its result is then None and the callers print "not
available in this build". A run whose reads returned wrong data raises run_check.IntegrityFailure:
the scripts stop with its message and exit status 3 (run_check.main_guard).
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from study_lib import run_check, run_table  # noqa: E402,F401  (run_check: the scripts' main_guard)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = os.path.join(ROOT, "scenarios", "parity_logging_paper.yaml")
SPEC = os.path.join(ROOT, "scenarios", "disks", "ibm0661.diskspecs")
DISKS = 22
LOG_STRIPES = 6  # Section 8, Figure 23: "a log striping degree of six"
PQR_LOG_STRIPES = 4  # parity logging at f = 3 (parity_logging_pqr below): 3 copies of 4 sublogs

# name -> (controller lines replacing `layout:`/`rmw:` of the scenario, extra --set keys,
#          model key in `raidtlm plog-model --json`)
SCHEMES = {
    "nonredundant": ("  layout: raid0\n", [], "nonredundant"),
    # The paper's mirroring writes both copies before the write completes: foreground propagation
    # (the firmware's default for raid10 is NVRAM delayed writes, which under this saturating load
    # only borrow time: the table fills and the second copies are left pending).
    "mirroring": ("  layout: raid10\n  mirror_copies: 2\n", ["controller.delayed_writes.foreground_propagation=true"],
                  "mirroring"),
    # Section 8: the parity disk's read-rotate-write after the data disk's ("sequentially").
    "raid5": ("  layout: raid5\n  rmw: read_rotate_write\n  rrw_order: parity_after_data\n", [], "raid5"),
    "floating": ("  layout: floating\n  rrw_order: parity_after_data\n", [], "floating"),
    # The data preread and overwrite as one read-rotate-write access (Section 3).
    "parity_logging": ("  layout: parity_logging\n  rmw: read_rotate_write\n",
                       ["controller.parity_logging.preread=true",
                        "controller.parity_logging.regions_per_disk=100",
                        "controller.parity_logging.log_write_tracks=1",
                        f"controller.parity_logging.log_stripes={LOG_STRIPES}"], "parity_logging"),
    "parity_logging_no_preread": ("  layout: parity_logging\n  rmw: read_rotate_write\n",
                                  ["controller.parity_logging.preread=false",
                                   "controller.parity_logging.regions_per_disk=100",
                                   "controller.parity_logging.log_write_tracks=1",
                                   f"controller.parity_logging.log_stripes={LOG_STRIPES}"],
                                  "parity_logging_no_preread"),
}

# Section 9's variants and the cached-old-data runs (scripts/reproduce_parity_logging_failures,
# scripts/reproduce_airline), kept apart so the scripts that walk SCHEMES (the paper's Section 8
# set) do not run them.
TOLERANT_SCHEMES = {
    # Section 9: f-failure-tolerant mirroring is f+1 copies ("quadruplicated storage" at f = 3),
    # all written before the write completes. A copy set needs whole columns: 21 and 20 of the 22
    # disks (callers set disks.count, see copies_disks()).
    "mirroring_3copies": ("  layout: raid10\n  mirror_copies: 3\n",
                          ["controller.delayed_writes.foreground_propagation=true"], "mirroring"),
    "mirroring_4copies": ("  layout: raid10\n  mirror_copies: 4\n",
                          ["controller.delayed_writes.foreground_propagation=true"], "mirroring"),
    # The old data in the controller's cache (Figure 23(c), Figure 27's "cached"): the data disk
    # only writes, the parity disk reads-rotates-writes, both issued together (Section 8: "a user's
    # data write and parity update can be issued concurrently").
    "raid5_cached": ("  layout: raid5\n  rmw: read_rotate_write\n  old_data: cached\n", [], "raid5"),
    "floating_cached": ("  layout: floating\n  old_data: cached\n", [], "floating"),
    # Section 9's double-failure RAID 5: P+Q, a small write as the data disk's and the two check
    # disks' read-rotate-writes, the check disks' after the data disk's (a build without the raid6
    # layout refuses it: "not simulated").
    "pq": ("  layout: raid6\n  rmw: read_rotate_write\n  rrw_order: parity_after_data\n", [], "parity"),
    "pq_cached": ("  layout: raid6\n  rmw: read_rotate_write\n  old_data: cached\n", [], "parity"),
    # Section 9's floating data and check at f = 2: floating over P+Q, a blind small write three
    # floated read-rotate-writes (data, then P and Q, as the blind P+Q and floating rows order
    # them); cached: the data unit rewritten in place, P and Q floated, all together.
    "floating_pq": ("  layout: floating\n  floating_checks: 2\n  rrw_order: parity_after_data\n", [], "floating"),
    "floating_pq_cached": ("  layout: floating\n  floating_checks: 2\n  old_data: cached\n", [], "floating"),
    # Section 9's RAID 5 and floating data and check at f = 3: three checks P, Q and R (R = sum
    # g^(2j) D_j; controller.raid6_checks 3, floating_checks 3), a blind small write the data
    # disk's and three check disks' read-rotate-writes (the checks' after the data's), floated for
    # floating; cached as at f = 2, the data written (in place) and the three check accesses together.
    "pqr": ("  layout: raid6\n  raid6_checks: 3\n  rmw: read_rotate_write\n  rrw_order: parity_after_data\n", [],
            "parity"),
    "pqr_cached": ("  layout: raid6\n  raid6_checks: 3\n  rmw: read_rotate_write\n  old_data: cached\n", [], "parity"),
    "floating_pqr": ("  layout: floating\n  floating_checks: 3\n  rrw_order: parity_after_data\n", [], "floating"),
    "floating_pqr_cached": ("  layout: floating\n  floating_checks: 3\n  old_data: cached\n", [], "floating"),
    # Section 9's parity logging at f = 2: P and Q check images per big row, every update record
    # written into 2 log copies (controller.parity_logging.checks 2: 2L = 12 log disks per region,
    # 10 members); blind with the data's read-rotate-write, cached without the preread.
    "parity_logging_pq": ("  layout: parity_logging\n  rmw: read_rotate_write\n",
                          ["controller.parity_logging.preread=true",
                           "controller.parity_logging.checks=2",
                           "controller.parity_logging.regions_per_disk=100",
                           "controller.parity_logging.log_write_tracks=1",
                           f"controller.parity_logging.log_stripes={LOG_STRIPES}"], "parity_logging"),
    "parity_logging_pq_no_preread": ("  layout: parity_logging\n  rmw: read_rotate_write\n",
                                     ["controller.parity_logging.preread=false",
                                      "controller.parity_logging.checks=2",
                                      "controller.parity_logging.regions_per_disk=100",
                                      "controller.parity_logging.log_write_tracks=1",
                                      f"controller.parity_logging.log_stripes={LOG_STRIPES}"],
                                     "parity_logging_no_preread"),
    # Section 9's parity logging at f = 3: P, Q and R check images per big row (R = sum g^2j D_j),
    # every update record written into 3 log copies (controller.parity_logging.checks 3). At
    # L = 6 the 3 copies would take 18 of the 22 disks, leaving 4 members: P, Q, R and one data
    # column, where a 2 KB write is a whole logical stripe (overwrite records, no preread): not
    # the small write the model charges. L = 4 keeps f = 2's 12 log disks and 10 members per
    # region (7 data columns); the model differs from L = 6's by 0.05%.
    "parity_logging_pqr": ("  layout: parity_logging\n  rmw: read_rotate_write\n",
                           ["controller.parity_logging.preread=true",
                            "controller.parity_logging.checks=3",
                            "controller.parity_logging.regions_per_disk=100",
                            "controller.parity_logging.log_write_tracks=1",
                            f"controller.parity_logging.log_stripes={PQR_LOG_STRIPES}"], "parity_logging"),
    "parity_logging_pqr_no_preread": ("  layout: parity_logging\n  rmw: read_rotate_write\n",
                                      ["controller.parity_logging.preread=false",
                                       "controller.parity_logging.checks=3",
                                       "controller.parity_logging.regions_per_disk=100",
                                       "controller.parity_logging.log_write_tracks=1",
                                       f"controller.parity_logging.log_stripes={PQR_LOG_STRIPES}"],
                                      "parity_logging_no_preread"),
}
ALL_SCHEMES = {**SCHEMES, **TOLERANT_SCHEMES}


def copies_disks(copies, disks=DISKS):
    """The largest array of at most `disks` drives made of whole `copies`-disk mirror columns."""
    return disks // copies * copies


# The paper's derived figures (SEEDS.md): busy ms per write and IO/s per disk at saturation.
PAPER = {"nonredundant": (20.61, 48.5), "mirroring": (41.22, 24.3), "raid5": (69.02, 14.5),
         "floating": (47.61, 21.0), "parity_logging": (41.16, 24.3),
         "parity_logging_no_preread": (27.26, 36.7)}

ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")


def scenario_text(scheme):
    """The paper scenario with the scheme's layout lines in its controller section (its own layout,
    rmw and parity_logging keys removed: the scheme sets them)."""
    with open(SCENARIO) as f:
        lines = f.read().split("\n")
    out, section, skipping, replaced = [], None, False, False
    for line in lines:
        if line and not line[0].isspace() and not line.startswith("#"):
            section = line.split(":")[0]
        indent = len(line) - len(line.lstrip(" "))
        if skipping and (indent > 2 or not line.strip()):
            continue  # the children of a removed block
        skipping = False
        if section == "controller" and indent == 2 and line.strip() and not line.lstrip().startswith("#"):
            key = line.strip().split(":")[0]
            if key == "layout":
                out.append(ALL_SCHEMES[scheme][0].rstrip("\n"))
                replaced = True
                continue
            if key in ("rmw", "rrw_order", "mirror_copies", "old_data", "parity_logging", "floating_checks",
                       "raid6_checks"):
                skipping = key == "parity_logging"
                continue
        if section == "disks" and line.strip().startswith("spec:"):
            line = f"  spec: {SPEC}"  # the copy lives elsewhere: an absolute path
        out.append(line)
    if not replaced:
        raise RuntimeError(f"{SCENARIO}: no controller.layout line to replace")
    return "\n".join(out)


def scheme_run(scheme, outdir, sets=(), waves=False, name=None):
    """The table row of one run of a scheme into outdir (its scenario written there as scenario.yaml);
    its result is None when this build refuses the scheme's layout or keys."""
    layout_keys = ["controller." + line.strip().split(":")[0] for line in ALL_SCHEMES[scheme][0].splitlines()]
    scheme_keys = layout_keys + [s.split("=")[0] for s in ALL_SCHEMES[scheme][1]]
    return run_table.Run(name or scheme, outdir, scenario_text=scenario_text(scheme),
                         overrides=["output.timeline=false", f"output.waves={'true' if waves else 'false'}"] +
                         list(ALL_SCHEMES[scheme][1]) + list(sets), missing_keys=scheme_keys)


def run_scheme(scheme, outdir, sets=(), waves=False):
    """Runs one scheme alone; returns stats.json, or None when this build refuses the layout."""
    return run_table.run_one(scheme_run(scheme, outdir, sets, waves))


def model(log_stripes=LOG_STRIPES):
    """raidtlm plog-model on the IBM 0661 spec: {scheme: (busy ms, IO/s per disk)}."""
    p = subprocess.run([run_table.binary(), "plog-model", "--disk", SPEC, "--disks", str(DISKS),
                        "--log-stripes", str(log_stripes), "--json"],
                       check=True, capture_output=True, text=True, env=ENV)
    j = json.loads(p.stdout)
    return {k: (v["busy_ms_per_write"], v["io_per_s_per_disk"]) for k, v in j["schemes"].items()}


def mean_disk_utilisation(st):
    return sum(d["utilisation"] for d in st["disks"]) / len(st["disks"])


def disk_busy_ms_per_write(st):
    """Disk time per user write: the disks' summed busy time in the window over the writes done."""
    window_ms = st["window"]["duration_ms"]
    busy = sum(d["utilisation"] for d in st["disks"]) * window_ms
    return busy / (st["throughput"]["iops"] * window_ms / 1000.0)
