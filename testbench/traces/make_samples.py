#!/usr/bin/env python3
"""Writes the small sample traces of this folder (run from anywhere; overwrites them).

Each sample is ~60 synthetic requests (seeded, so the files never change): a mix of reads and
writes, 4-64 KB, on two devices, arrivals ~2 ms apart. disksim, spc and msr samples are in the
canonical form raidtlm's trace writer produces, so a parse-write cycle reproduces them byte for
byte; the blkparse sample looks like real `blkparse -i sda` output (queue, get, insert, issue,
complete, merge, plug/unplug events, a flush without data, a discard, and the closing summary),
of which only the D (issue) lines are requests.
"""
import os
import random

here = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(4)
reqs = []
t = 0.0
for i in range(60):
    t += rng.expovariate(1 / 2.0)                 # ms
    dev = rng.choice([0, 0, 1])
    size = rng.choice([8, 8, 8, 16, 32, 128])     # sectors
    lbn = rng.randrange(0, 17_000_000 // 8) * 8
    read = rng.random() < 0.67
    resp = rng.uniform(0.5, 20.0)                 # ms (msr only)
    reqs.append((round(t, 6), dev, lbn, size, read, resp))

with open(os.path.join(here, "sample.disksim"), "w") as f:
    for t, dev, lbn, size, read, _ in reqs:
        f.write(f"{t:.6f} {dev} {lbn} {size} {1 if read else 0:x}\n")

with open(os.path.join(here, "sample.spc"), "w") as f:
    for t, dev, lbn, size, read, _ in reqs:
        f.write(f"{dev},{lbn},{size * 512},{'r' if read else 'w'},{t / 1000:.6f}\n")

origin = 128166372003061629  # 100 ns ticks since 1601 (early 2007, like the published traces)
with open(os.path.join(here, "sample.msr"), "w") as f:
    for t, dev, lbn, size, read, resp in reqs:
        ticks = origin + round(t * 1e4)
        f.write(f"{ticks},usr,{dev},{'Read' if read else 'Write'},{lbn * 512},{size * 512},{round(resp * 1e4)}\n")

# blkparse: one device per major/minor; events per request Q G I D C, with merges now and then.
events = []
seq = {}
base_ns = 3_000_000_000
for k, (t, dev, lbn, size, read, resp) in enumerate(reqs):
    devname = (8, 0) if dev == 0 else (8, 16)
    ns = base_ns + round(t * 1e6)
    rw = ("R" if read else "W") + ("S" if not read and k % 3 == 0 else "")
    pid = 4100 + k % 7
    proc = "fio" if k % 4 else "kworker/u8:2"
    cpu = k % 2
    events.append((ns, devname, cpu, pid, "Q", rw, f"{lbn} + {size} [{proc}]"))
    events.append((ns + 900, devname, cpu, pid, "G", rw, f"{lbn} + {size} [{proc}]"))
    if k % 5 == 0:
        events.append((ns + 1500, devname, cpu, pid, "P", "N", f"[{proc}]"))
    events.append((ns + 2100, devname, cpu, pid, "I", rw, f"{lbn} + {size} [{proc}]"))
    if k % 5 == 0:
        events.append((ns + 2600, devname, cpu, pid, "U", "N", f"[{proc}] 1"))
    events.append((ns + 3000, devname, cpu, pid, "D", rw, f"{lbn} + {size} [{proc}]"))
    if k % 11 == 0:  # a request merged into this one: queued, merged, never issued on its own
        events.append((ns + 3500, devname, cpu, pid, "Q", rw, f"{lbn + size} + 8 [{proc}]"))
        events.append((ns + 3700, devname, cpu, pid, "M", rw, f"{lbn + size} + 8 [{proc}]"))
    events.append((ns + round(resp * 1e6), devname, 1 - cpu, 0, "C", rw, f"{lbn} + {size} [0]"))
    if k == 20:  # a cache flush (no data) and a discard
        events.append((ns + 5000, devname, cpu, pid, "D", "FWS", "[kworker/0:1H]"))
        events.append((ns + 6000, devname, cpu, pid, "D", "DS", f"{lbn} + 2048 [fstrim]"))
events.sort(key=lambda e: e[0])
with open(os.path.join(here, "sample.blkparse"), "w") as f:
    for ns, (ma, mi), cpu, pid, act, rw, rest in events:
        seq[cpu] = seq.get(cpu, 0) + 1
        f.write(f"{ma:3d},{mi:<3d} {cpu:2d} {seq[cpu]:8d} {ns // 10**9:5d}.{ns % 10**9:09d} {pid:5d} {act:>2} {rw:>3} {rest}\n")
    f.write("CPU0 (sda):\n"
            " Reads Queued:          21,      344KiB\t Writes Queued:          9,      160KiB\n"
            " Read Dispatches:       21,      344KiB\t Write Dispatches:        9,      160KiB\n"
            "CPU1 (sda):\n"
            " Reads Queued:          20,      316KiB\t Writes Queued:         10,      188KiB\n"
            "\n"
            "Total (sda):\n"
            " Reads Queued:          41,      660KiB\t Writes Queued:         19,      348KiB\n"
            "\n"
            "Throughput (R/W): 5280KiB/s / 2784KiB/s\n"
            "Events (sda): 321 entries\n"
            "Skips: 0 forward (0 -   0.0%)\n")
