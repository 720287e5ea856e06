#!/usr/bin/env python3
"""Judges examples/write_back_raid5's run (out_of_tree_example.sh): the user's firmware and scheduler
ran, every read checked returned what was written, and the cache was used."""
import json, sys
s = json.load(open(sys.argv[1]))
c = s["controller"]
fw = c["firmware"]
cache = fw["write_back_cache"]
scen = s["scenario"]["controller"]
problems = []
if scen.get("firmware") != "write_back_raid5": problems.append(f"firmware {scen.get('firmware')!r}")
if scen.get("scheduler") != "aged_sstf": problems.append(f"scheduler {scen.get('scheduler')!r}")
if c["integrity_errors"] != 0: problems.append(f"{c['integrity_errors']} integrity errors")
if c["reads_checked"] < 1000: problems.append(f"only {c['reads_checked']} reads checked")
if cache["destaged_writes"] == 0: problems.append("nothing destaged")
if cache["read_hits"] + cache["partial_read_hits"] == 0: problems.append("no read hit the cache")
if problems:
    sys.exit("out-of-tree firmware run: " + "; ".join(problems))
print(f"ok: {c['reads_checked']} reads checked, 0 integrity errors, {cache['destaged_writes']} writes destaged, "
      f"{cache['read_hits']} read hits")
