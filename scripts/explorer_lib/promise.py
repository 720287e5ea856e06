"""Whether a fault schedule stays within what its layout promises (families.Promise).

A fault makes a member missing for some rows over some time (a footprint):
  disk_loss    the member, every row, from the loss until its rebuild ends (rebuild_done_ms; a disk
               being rebuilt counts missing until rebuilt; never replaced or never rebuilt: to the end);
  media_error  the member, the rows its sectors fall in, from the injection until a fresh drive takes
               the slot (the firmware may repair the sectors earlier, by a read or a write; when is not
               known from outside, so they count unreadable until then: the cautious reading);
  power_loss, controller_loss  on a layout with computed checks (parity, P+Q, P+Q+R, parity logging)
               and a workload with writes: the stripes being written when the controller stopped are
               torn (some of the written members hold the new data or check, some the old) until the
               recovery has resynchronised them from the write-intent log (at_ms + restore_after_ms +
               recovery_ms; planned: the restore). A small write rewrites every check of its stripe,
               so in a torn stripe no check can be trusted to rebuild another member: the torn stripe
               uses up the whole tolerance (`tolerance` pseudo-members, TORN). Which stripes is not
               known from outside, so every row counts: a member missing or unreadable while the
               controller is off or before its recovery ends is the (degraded) write hole, beyond the
               promise. Mirrors lose nothing by a torn write (either copy of an unacknowledged write is
               a right answer), but with delayed writes (the default; not with
               controller.delayed_writes.foreground_propagation) an acknowledged write's later copies
               wait in volatile buffer DRAM, NVRAM keeping only where the first went (Yu et al. 3.4):
               a crash leaves those rows on one copy until the recovery has copied them, so the same
               pseudo-members, every row, until the recovery ends.
The schedule exceeds the promise when at some moment some row of some group has more distinct
members missing than the tolerance. Only then may requests fail or sectors be lost; wrong data
never.

Footprints come from the planned schedule (the drawer's aim) or from the run's stats.json `faults`
(the times things happened: a replacement, a rebuild's end).
"""
from dataclasses import dataclass
import math

INF = math.inf
# Torn stripes are short of every check: pseudo-members -1 .. -tolerance, counted in every group.


@dataclass(frozen=True)
class Footprint:
    member: int
    rows: object      # (first_row, end_row) half-open, or None for every row
    start_ms: float
    end_ms: float
    fault: int        # index into the schedule
    label: str


@dataclass(frozen=True)
class Excess:
    """A moment the schedule exceeded the promise: which fault tipped it, and who was missing."""
    at_ms: float
    fault: int
    members: tuple
    footprints: tuple
    text: str


def describe_fault(i, f):
    what = f["kind"]
    if "disk" in f:
        what += f" of disk {f['disk']}"
    if f["kind"] == "media_error":
        what += f" (LBN {f['lbn']}+{f['sectors']})"
    return f"fault #{i} {what} at {f.get('at_ms', 0):.1f} ms"


def footprints(promise, schedule, end_ms=INF, writes=True):
    """Footprints of `schedule` (dicts: kind, at_ms, disk, lbn, sectors, and from a run replaced_at_ms,
    rebuild_done_ms, recovery_ms, happened). A planned replacement is at at_ms + replace_after_ms, its
    rebuild taken as never ending (the drawer does not know how long it takes). `writes`: whether the
    workload writes (torn stripes need a write in flight)."""
    out = []
    replaced = []  # (disk, at_ms) of each fresh drive
    for f in schedule:
        if f["kind"] == "disk_loss" and f.get("happened", True):
            t = f.get("replaced_at_ms")
            if t is None and "happened" not in f and f.get("replace_after_ms", -1) >= 0:
                t = f["at_ms"] + f["replace_after_ms"]
            if t is not None:
                replaced.append((f["disk"], t))
    for i, f in enumerate(schedule):
        if not f.get("happened", True):
            continue
        start = f["at_ms"]
        if f["kind"] in ("power_loss", "controller_loss"):
            if (promise.computed_checks or promise.delayed_copies) and writes:
                end = start + f["restore_after_ms"] + (f["recovery_ms"] if "recovery_ms" in f else 0)
                if "happened" in f and "recovery_ms" not in f:
                    end = end_ms  # never recovered
                why = (" (the stripes written at that moment torn until its recovery ends)" if promise.computed_checks else
                       " (writes acknowledged on one copy, the others lost with the buffer DRAM, until its recovery ends)")
                for k in range(promise.tolerance):
                    out.append(Footprint(-1 - k, None, start, end, i, describe_fault(i, f) + why))
        elif f["kind"] == "disk_loss":
            end = f.get("rebuild_done_ms") if f.get("rebuild_done_ms") is not None else end_ms
            out.append(Footprint(f["disk"], None, start, end, i, describe_fault(i, f)))
        else:
            end = min([t for d, t in replaced if d == f["disk"] and t > start], default=end_ms)
            rows = None
            if promise.row_sectors:
                rows = (f["lbn"] // promise.row_sectors, (f["lbn"] + f["sectors"] - 1) // promise.row_sectors + 1)
            out.append(Footprint(f["disk"], rows, start, end, i, describe_fault(i, f)))
    return out


def _overlap(a, b):
    return a is None or b is None or (a[0] < b[1] and b[0] < a[1])


def _contains(fp, row):
    """Whether footprint `fp` covers row `row` (None: a row no ranged footprint is known to cover)."""
    return fp.rows is None or (row is not None and fp.rows[0] <= row < fp.rows[1])


def _most_missing(active, tip):
    """The largest set of distinct members missing in one row of `tip`, among `active` (one group):
    {member: footprint}, with the count without `tip` beside it (to tell whether tip tipped it)."""
    lo = tip.rows[0] if tip.rows else None
    probes = {lo} if tip.rows else {None}
    for fp in active:
        if fp.rows is not None and _overlap(fp.rows, tip.rows):
            probes.add(fp.rows[0] if lo is None else max(fp.rows[0], lo))
    best, before = {}, 0
    for row in probes:
        hit = {}
        for fp in active:
            if _contains(fp, row):
                hit.setdefault(fp.member, fp)
        without = {fp.member for fp in active if fp is not tip and _contains(fp, row)}
        if len(hit) > len(best):
            best, before = hit, len(without)
    return best, before


def excesses(promise, schedule, end_ms=INF, writes=True):
    """Every fault that took the schedule beyond the promise (an empty list: within it)."""
    fps = footprints(promise, schedule, end_ms, writes)
    found = []
    order = sorted(fps, key=lambda fp: (fp.start_ms, fp.fault))
    for n, tip in enumerate(order):
        t = tip.start_ms
        if tip.start_ms >= tip.end_ms:
            continue  # over before it began (a fresh drive at the same moment)
        groups = promise.groups if tip.member < 0 else (promise.group_of(tip.member),)
        started = order[:n + 1]  # footprints of one moment count one after another
        for group in groups:
            active = [fp for fp in started if t < fp.end_ms and (fp.member in group or fp.member < 0)]
            missing, before = _most_missing(active, tip)
            if len(missing) > promise.tolerance >= before:
                break
        if len(missing) > promise.tolerance >= before:
            missing[tip.member] = tip
            others = {fp.label for m, fp in missing.items() if fp.fault != tip.fault}
            members = sorted(m for m in missing if m >= 0)
            text = (f"{tip.label} left {len(missing)} members missing in one stripe, counting a torn stripe (or a write still on one copy) as short of "
                    f"every check (with {'; '.join(sorted(others))}), beyond {promise.describe()}")
            if not any(m < 0 for m in missing):
                text = (f"{tip.label} made {len(missing)} members missing in one stripe "
                        f"(with {'; '.join(sorted(others))}), beyond {promise.describe()}")
            found.append(Excess(t, tip.fault, tuple(members), tuple(missing.values()), text))
    return found
