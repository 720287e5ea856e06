"""A study file (YAML) and the runs it expands into.

A study names one scenario, fixed overrides, a grid (each key with its values) and seeds; every
combination of grid values is a point, and every point runs once per seed. Errors name the study
file, the line and what was expected, as raidtlm's own inputs do.
"""
import itertools
import os

import yaml


class study_error(Exception):
    """Bad study input: the message names the file, the line and the expected form."""


def _line_of(node_map, key):
    """Line (1-based) of a key in a composed YAML mapping, or None."""
    for k, _ in node_map.value if node_map is not None else []:
        if k.value == key:
            return k.start_mark.line + 1
    return None


def override_text(value):
    """A grid or fixed value as `--set KEY=TEXT` expects it (YAML's own spelling of booleans)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class study_spec:
    """scenario: absolute path; fixed: [(key, text)]; grid: [(key, [text...])]; seeds: [int];
    metrics: [dotted stats.json path]."""

    DEFAULT_METRICS = ["throughput.iops", "response_time.mean_ms", "response_time.p90_ms",
                       "response_time.p99_ms"]

    def __init__(self, path, scenario, fixed, grid, seeds, metrics, name):
        self.path, self.scenario, self.fixed, self.grid = path, scenario, fixed, grid
        self.seeds, self.metrics, self.name = seeds, metrics, name

    def points(self):
        """Every combination of grid values, as [(key, text)] in the grid's key order."""
        keys = [k for k, _ in self.grid]
        return [list(zip(keys, combo)) for combo in itertools.product(*[v for _, v in self.grid])]

    def runs(self):
        """(point, seed, overrides) for every point and seed; the seed goes in as workload.seed."""
        out = []
        for point in self.points():
            for seed in self.seeds:
                overrides = self.fixed + point + [("workload.seed", str(seed)), ("measurement.seeds", "1")]
                out.append((point, seed, overrides))
        return out


def load_study(path):
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise study_error(f"{path}: cannot read: {e.strerror}")
    try:
        node = yaml.compose(text)
        doc = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else path
        raise study_error(f"{where}: not valid YAML ({getattr(e, 'problem', e)}); expected a study mapping")
    if not isinstance(doc, dict):
        raise study_error(f"{path}:1: expected a mapping with scenario, grid and seeds")

    def where(key):
        line = _line_of(node, key)
        return f"{path}:{line}" if line else path

    known = {"scenario", "set", "grid", "seeds", "metrics", "name"}
    for k in doc:
        if k not in known:
            raise study_error(f"{where(k)}: unknown key '{k}'; expected one of {', '.join(sorted(known))}")
    if "scenario" not in doc or not isinstance(doc["scenario"], str):
        raise study_error(f"{where('scenario')}: 'scenario' must name a scenario file (relative to the study file)")
    scenario = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), doc["scenario"]))
    if not os.path.isfile(scenario):
        raise study_error(f"{where('scenario')}: scenario file {scenario} does not exist")

    fixed_doc = doc.get("set") or {}
    if not isinstance(fixed_doc, dict):
        raise study_error(f"{where('set')}: 'set' must map scenario keys to values, e.g. output.waves: false")
    fixed = [(str(k), override_text(v)) for k, v in fixed_doc.items()]

    grid_doc = doc.get("grid")
    if not isinstance(grid_doc, dict) or not grid_doc:
        raise study_error(f"{where('grid')}: 'grid' must map scenario keys to lists of values")
    grid = []
    for k, v in grid_doc.items():
        if not isinstance(v, list) or not v or any(isinstance(x, (list, dict)) for x in v):
            raise study_error(f"{where('grid')}: grid key '{k}' must have a non-empty list of scalar values")
        if k in fixed_doc:
            raise study_error(f"{where('grid')}: '{k}' is both in 'set' and in 'grid'")
        if k in ("workload.seed", "measurement.seeds"):
            raise study_error(f"{where('grid')}: '{k}' is set by the study; list seeds under 'seeds'")
        grid.append((str(k), [override_text(x) for x in v]))

    seeds_doc = doc.get("seeds", 1)
    if isinstance(seeds_doc, bool) or not (isinstance(seeds_doc, int) or isinstance(seeds_doc, list)):
        raise study_error(f"{where('seeds')}: 'seeds' must be a count N (seeds 1..N) or a list of seeds")
    if isinstance(seeds_doc, int):
        if seeds_doc < 1:
            raise study_error(f"{where('seeds')}: 'seeds' must be at least 1")
        seeds = list(range(1, seeds_doc + 1))
    else:
        if not seeds_doc or any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in seeds_doc):
            raise study_error(f"{where('seeds')}: 'seeds' list must hold non-negative integers")
        if len(set(seeds_doc)) != len(seeds_doc):
            raise study_error(f"{where('seeds')}: a seed is listed twice")
        seeds = list(seeds_doc)

    metrics = doc.get("metrics", study_spec.DEFAULT_METRICS)
    if not isinstance(metrics, list) or not metrics or not all(isinstance(m, str) for m in metrics):
        raise study_error(f"{where('metrics')}: 'metrics' must list dotted stats.json paths, "
                          "e.g. response_time.mean_ms")
    name = doc.get("name") or os.path.splitext(os.path.basename(path))[0]
    return study_spec(os.path.abspath(path), scenario, fixed, grid, seeds, list(metrics), str(name))
