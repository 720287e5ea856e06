#!/usr/bin/env python3
"""Judges examples/declustered_raid5's run (out_of_tree_example.sh): the user's layout served the
array (through raidtlm's RAID firmware), every read checked returned what was written across a disk
loss and the rebuild onto a fresh drive, and the stripes spread the load over every disk."""
import json, sys
s = json.load(open(sys.argv[1]))
c = s["controller"]
fw = c["firmware"]
problems = []
if s["scenario"]["controller"].get("layout") != "declustered_raid5":
    problems.append(f"layout {s['scenario']['controller'].get('layout')!r}")
if not fw.get("layout", "").startswith("declustered RAID 5"): problems.append(f"firmware's layout {fw.get('layout')!r}")
if c["integrity_errors"] != 0: problems.append(f"{c['integrity_errors']} integrity errors")
if c["reads_checked"] < 1000: problems.append(f"only {c['reads_checked']} reads checked")
if sum(c["failed_requests"].values()) if isinstance(c["failed_requests"], dict) else c["failed_requests"]:
    problems.append(f"failed requests {c['failed_requests']}")
rebuild = fw.get("rebuild", {})
if rebuild.get("started", 0) != 1 or rebuild.get("units_rebuilt", 0) == 0:
    problems.append(f"no rebuild progress: {rebuild}")
# Every disk but the one lost serves a like share: the stripes are spread, not in fixed groups.
lost = s["faults"][0]["disk"]
served = [d["requests"] for i, d in enumerate(s["disks"]) if i != lost]
if min(served) < 0.8 * max(served): problems.append(f"uneven load over the surviving disks: {served}")
if problems:
    sys.exit("out-of-tree layout run: " + "; ".join(problems))
print(f"ok: {c['reads_checked']} reads checked, 0 integrity errors, {rebuild['units_rebuilt']} units rebuilt, "
      f"surviving disks served {min(served)}-{max(served)} requests")
