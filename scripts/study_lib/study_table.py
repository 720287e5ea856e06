"""The study's table: per point, the mean of each metric over its seeds and a 95% interval.

Seeds are independent replications, so the interval is Student's t over the seeds' values:
mean +- t(0.975, n-1) * s / sqrt(n) (none with one seed). The table holds only what the runs
computed (no worker names, no wall times), so the same study gives the same table wherever it ran.
"""
import csv
import io
import json
import math

# Student's t, two-sided 95% (the 0.975 quantile) for 1..30 degrees of freedom; beyond 30 the
# normal quantile is within 2% (standard t table, e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2).
_T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
         2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
         2.052, 2.048, 2.045, 2.042]


def t975(dof):
    return _T975[dof - 1] if dof <= len(_T975) else 1.960


def metric_value(stats, dotted):
    node = stats
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return float(node) if isinstance(node, (int, float)) and not isinstance(node, bool) else None


def summarise(values):
    """mean, 95% half-width (None below two values), standard deviation, n."""
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "ci95_half": None, "stddev": None}
    mean = sum(values) / n
    if n < 2:
        return {"n": n, "mean": mean, "ci95_half": None, "stddev": None}
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return {"n": n, "mean": mean, "ci95_half": t975(n - 1) * sd / math.sqrt(n), "stddev": sd}


def build_points(spec, results):
    """results: {(point tuple, seed): run record}; returns the points in grid order."""
    points = []
    for point in spec.points():
        records = [results.get((tuple(point), seed)) for seed in spec.seeds]
        ok = [r for r in records if r and r.get("ok")]
        entry = {"values": dict(point), "seeds_ok": len(ok), "seeds_failed": len(spec.seeds) - len(ok),
                 "metrics": {}}
        for m in spec.metrics:
            vals = [v for v in (metric_value(r["stats"], m) for r in ok) if v is not None]
            entry["metrics"][m] = dict(summarise(vals), values=vals)
        points.append(entry)
    return points


def _fmt(x):
    return "" if x is None else repr(float(x))


def table_csv(spec, points):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    keys = [k for k, _ in spec.grid]
    header = keys + ["seeds_ok", "seeds_failed"]
    for m in spec.metrics:
        header += [f"{m}.mean", f"{m}.ci95_half"]
    w.writerow(header)
    for p in points:
        row = [p["values"][k] for k in keys] + [p["seeds_ok"], p["seeds_failed"]]
        for m in spec.metrics:
            row += [_fmt(p["metrics"][m]["mean"]), _fmt(p["metrics"][m]["ci95_half"])]
        w.writerow(row)
    return out.getvalue()


def table_json(spec, points, runs, binary_sha256):
    return json.dumps({
        "study": spec.path, "name": spec.name, "scenario": spec.scenario,
        "set": dict(spec.fixed), "grid": {k: v for k, v in spec.grid}, "seeds": spec.seeds,
        "metrics": spec.metrics, "binary_sha256": binary_sha256, "points": points, "runs": runs,
    }, indent=2) + "\n"
