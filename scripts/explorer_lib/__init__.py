"""The randomized fault explorer's pieces (scripts/fault_explorer.py, `scripts/soak_faults --explore`):
families.py  the layouts explored, their `raidtlm run` keys and the redundancy each promises;
promise.py   which members a fault schedule leaves missing per stripe, and when it exceeds the promise;
draw.py      a case drawn from a seed: workload, layout, faults and their timing relative to each other;
runner.py    a case as a scenario file, one `raidtlm run` of it and the verdict on its stats.json;
shrink.py    the smallest case that still fails the same way.
Imported by the explorer (it puts scripts/ on sys.path); not a script itself.
"""
