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


def fewer_faults(case, duration_ms=None):
    return [_without_fault(case, i) for i in reversed(range(len(case["faults"])))]


def fewer_requests(case, duration_ms=None):
    requests = case["keys"]["workload.requests"]
    cuts = []
    if duration_ms and case["faults"]:
        last = max(f["at_ms"] + f.get("restore_after_ms", 0) + f.get("replace_after_ms", 0) for f in case["faults"])
        cuts.append(int(math.ceil(requests * min(1.0, last / duration_ms) * 1.2)) + 50)
    cuts += [requests // 2, requests * 3 // 4]
    return [_with(case, **{"workload.requests": n}) for n in cuts if 50 <= n < requests]


def smaller_depth(case, duration_ms=None):
    q = case["keys"]["workload.outstanding"]
    return [_with(case, **{"workload.outstanding": d}) for d in (1, q // 2) if 1 <= d < q]


def smaller_faults(case, duration_ms=None):
    out = []
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


STEPS = (fewer_faults, fewer_requests, smaller_depth, smaller_faults)


def candidates(case, duration_ms=None):
    """The smaller cases to try next, most reducing first."""
    return [c for step in STEPS for c in step(case, duration_ms)]


def size(case):
    """How big a case is, to compare: faults first, then requests, then depth."""
    k = case["keys"]
    return (len(case["faults"]), k["workload.requests"], k["workload.outstanding"],
            sum(f.get("sectors", 0) + f.get("replace_after_ms", 0) + f.get("restore_after_ms", 0)
                for f in case["faults"]))


def shrink(case, still_fails, budget=40, duration_ms=None):
    """The smallest failing case found within `budget` runs, and the runs spent. Each step is
    taken as long as it succeeds before the next is tried; the steps go round again while any
    of them made the case smaller."""
    best, runs = case, 0
    progress = True
    while progress and runs < budget:
        progress = False
        for step in STEPS:
            taken = True
            while taken and runs < budget:
                taken = False
                for c in step(best, duration_ms):
                    if runs >= budget:
                        break
                    if size(c) >= size(best):
                        continue
                    runs += 1
                    if still_fails(c):
                        best, taken, progress = c, True, True
                        break
    return best, runs
