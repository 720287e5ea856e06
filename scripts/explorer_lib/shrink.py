"""The smallest case that still fails the same way (greedy, like a property-based tester's shrink).

Steps, repeated until none is taken or the run budget is spent:
  fewer faults      drop one fault (the others keep their times: they are absolute at_ms);
  fewer requests    cut the run to just past the last fault (its share of the run, plus a margin),
                    then halve while it still fails;
  smaller depth     workload.outstanding 1, then halved;
  smaller faults    a media error of one sector; a replacement or an outage ends sooner.
`still_fails(case)` runs a candidate and says whether it fails with the same class (the caller's
test); the shrinker knows nothing of raidtlm. Each candidate is a new dict; the input is not changed.
"""
import copy
import math


def _with(case, **keys):
    c = copy.deepcopy(case)
    c["keys"].update(keys)
    return c


def _without_fault(case, i):
    c = copy.deepcopy(case)
    del c["faults"][i]
    c["notes"] = [n for j, n in enumerate(c.get("notes", [])) if j != i]
    return c


def candidates(case, duration_ms=None):
    """The smaller cases to try next, most reducing first."""
    keys = case["keys"]
    out = [_without_fault(case, i) for i in reversed(range(len(case["faults"])))]
    requests = keys["workload.requests"]
    cuts = []
    if duration_ms and case["faults"]:
        last = max(f["at_ms"] + f.get("restore_after_ms", 0) + f.get("replace_after_ms", 0) for f in case["faults"])
        cuts.append(int(math.ceil(requests * min(1.0, last / duration_ms) * 1.2)) + 50)
    cuts += [requests // 2, requests * 3 // 4]
    for n in cuts:
        if 50 <= n < requests:
            out.append(_with(case, **{"workload.requests": n}))
    q = keys["workload.outstanding"]
    for d in (1, q // 2):
        if 1 <= d < q:
            out.append(_with(case, **{"workload.outstanding": d}))
    for i, f in enumerate(case["faults"]):
        smaller = dict(f)
        if f["kind"] == "media_error" and f["sectors"] > 1:
            smaller["sectors"] = 1
        elif f.get("replace_after_ms", 0) > 1:
            smaller["replace_after_ms"] = round(f["replace_after_ms"] / 2, 3)
        elif f.get("restore_after_ms", 0) > 10:
            smaller["restore_after_ms"] = round(f["restore_after_ms"] / 2, 3)
        if smaller != f:
            c = copy.deepcopy(case)
            c["faults"][i] = smaller
            out.append(c)
    return out


def size(case):
    """How big a case is, to compare: faults first, then requests, then depth."""
    k = case["keys"]
    return (len(case["faults"]), k["workload.requests"], k["workload.outstanding"],
            sum(f.get("sectors", 0) + f.get("replace_after_ms", 0) + f.get("restore_after_ms", 0)
                for f in case["faults"]))


def shrink(case, still_fails, budget=40, duration_ms=None):
    """The smallest failing case found within `budget` runs, and the runs spent."""
    best, runs = case, 0
    progress = True
    while progress and runs < budget:
        progress = False
        for c in candidates(best, duration_ms):
            if runs >= budget:
                break
            if size(c) >= size(best):
                continue
            runs += 1
            if still_fails(c):
                best, progress = c, True
                break
    return best, runs
