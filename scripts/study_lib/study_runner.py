"""Runs a study on a Dask cluster and writes its table.

Each run's key is a hash of what decides its result: the scenario bundle (the scenario and every
file it names), the overrides in order (the seed among them) and the raidtlm binary's sha256. A
finished run is stored under OUT/runs/<key>/ (run.json, stats.json); a later study with the same
key reuses it instead of running it again, so a study that stopped resumes where it was, and one
that grows runs only its new points. Failed runs are reported and run again next time.
"""
import hashlib
import json
import os
import sys
import time

import cloudpickle
import distributed

from . import run_check, run_task, scenario_bundle, study_progress, study_spec, study_table


def run_key(bundle_digest, overrides, binary_sha256):
    text = json.dumps({"scenario": bundle_digest, "overrides": overrides, "binary": binary_sha256},
                      separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _load_cached(run_dir):
    try:
        with open(os.path.join(run_dir, "run.json")) as f:
            meta = json.load(f)
        if not meta.get("ok"):
            return None
        with open(os.path.join(run_dir, "stats.json")) as f:
            stats = json.load(f)
        if run_check.integrity_errors(stats):
            return None  # wrong data is never reused as a result: run it again, and fail it then
        return dict(meta, stats=stats)
    except (OSError, ValueError):
        return None


def _store(run_dir, record):
    os.makedirs(run_dir, exist_ok=True)
    if record.get("stats") is not None:  # a result, or a run with wrong data kept to debug from
        with open(os.path.join(run_dir, "stats.json"), "w") as f:
            json.dump(record["stats"], f, indent=1)
        if record.get("wrong_data") and record.get("out_dir"):
            # The error named the worker's scratch copy, gone by now: name the one kept here.
            record["error"] = record["error"].replace(os.path.join(record["out_dir"], "stats.json"),
                                                      os.path.join(run_dir, "stats.json"))
    meta = {k: v for k, v in record.items() if k not in ("stats", "out_dir")}
    tmp = os.path.join(run_dir, "run.json.tmp")
    with open(tmp, "w") as f:  # run.json last and atomically: it marks the run as finished
        json.dump(meta, f, indent=1)
    os.replace(tmp, os.path.join(run_dir, "run.json"))


def _ship_library():
    # Workers elsewhere do not have scripts/study_lib: send its code with the tasks.
    # Dask pickles a function by value only when its own module is registered (not its package).
    for module in (run_task, run_check, scenario_bundle):
        if module.__name__ not in cloudpickle.list_registry_pickle_by_value():
            cloudpickle.register_pickle_by_value(module)


def open_client(scheduler, workers):
    if scheduler:
        return distributed.Client(scheduler, timeout="30s"), None
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=workers, processes=False,
                                       dashboard_address=None)
    return distributed.Client(cluster), cluster


def run_study(spec, out_dir, client, binary_hint, timeout_s, stream=sys.stderr):
    """Runs every point and seed not yet finished; writes study.csv and study.json; returns the failures, each
    {"label", "error", "wrong_data"} (wrong_data: the run's reads returned wrong data, run_check)."""
    _ship_library()
    runs = spec.runs()
    bundle = scenario_bundle.make_bundle(spec.scenario, [v for _, v in spec.fixed] +
                                         [v for _, vals in spec.grid for v in vals])
    # The binary identity: the one given or on this machine's PATH, else what a worker would run.
    try:
        binary_path, binary_sha = run_task.describe_binary(binary_hint)
    except FileNotFoundError:
        binary_path, binary_sha = client.submit(run_task.describe_binary, binary_hint, pure=False).result()
    results, keys, todo = {}, {}, []
    for point, seed, overrides in runs:
        key = run_key(bundle.digest, overrides, binary_sha)
        keys[(tuple(point), seed)] = key
        cached = _load_cached(os.path.join(out_dir, "runs", key))
        if cached:
            results[(tuple(point), seed)] = cached
        else:
            todo.append((point, seed, overrides, key))

    def running():
        processing = client.processing()
        threads = client.nthreads()
        return sum(min(len(processing.get(w, ())), threads.get(w, 1)) for w in processing)

    meter = study_progress.progress_meter(len(runs), len(results), running, stream)
    meter.start()
    failures = []
    if todo:
        [shipped] = client.scatter([bundle.as_data()], broadcast=True, hash=True)
        futures = {}
        for point, seed, overrides, key in todo:
            f = client.submit(run_task.run_one, shipped, overrides, binary_path, timeout_s,
                              key=f"raidtlm-run-{key}", pure=False)
            futures[f] = (point, seed, overrides, key)
        for f in distributed.as_completed(futures):
            point, seed, overrides, key = futures[f]
            try:
                record = f.result()
            except Exception as e:  # e.g. KilledWorker: the run killed every worker it was tried on
                record = {"ok": False, "error": f"{type(e).__name__}: {e}"}
            record.update(key=key, point=dict(point), seed=seed, overrides=overrides)
            if record.get("ok") and record.get("binary_sha256") != binary_sha:
                record["warning"] = "a different raidtlm binary ran this run than the study's key names"
            _store(os.path.join(out_dir, "runs", key), record)
            results[(tuple(point), seed)] = record
            meter.record(record.get("ok"))
            if not record.get("ok"):
                label = " ".join(f"{k}={v}" for k, v in point) + f" seed={seed}"
                wrong = bool(record.get("wrong_data"))
                failures.append({"label": label, "error": record["error"], "wrong_data": wrong})
                meter.note(f"study: {'WRONG DATA' if wrong else 'failed'}: {label}: {record['error']}")
            f.release()
    meter.finish()

    points = study_table.build_points(spec, results)
    run_list = []
    for point, seed, overrides in runs:
        r = results.get((tuple(point), seed), {})
        run_list.append({"key": keys[(tuple(point), seed)], "point": dict(point), "seed": seed,
                         "ok": bool(r.get("ok")), "error": r.get("error"), "wrong_data": bool(r.get("wrong_data")),
                         "stats": os.path.join("runs", keys[(tuple(point), seed)], "stats.json")
                         if r.get("ok") else None})
    with open(os.path.join(out_dir, "study.csv"), "w") as f:
        f.write(study_table.table_csv(spec, points))
    with open(os.path.join(out_dir, "study.json"), "w") as f:
        f.write(study_table.table_json(spec, points, run_list, binary_sha))
    return failures


def main_with(spec_path, out_dir, scheduler, workers, binary_hint, timeout_s):
    spec = study_spec.load_study(spec_path)
    out_dir = out_dir or os.path.join("out", "study_" + spec.name)
    os.makedirs(out_dir, exist_ok=True)
    client, cluster = open_client(scheduler, workers)
    started = time.time()
    try:
        failures = run_study(spec, out_dir, client, binary_hint, timeout_s)
    finally:
        client.close()
        if cluster:
            cluster.close()
    total = len(spec.runs())
    print(f"study: {total - len(failures)} of {total} runs finished ({len(failures)} failed) in "
          f"{study_progress.format_duration(time.time() - started)}; wrote "
          f"{os.path.join(out_dir, 'study.csv')} and study.json")
    report_wrong_data(failures)
    return failures, total


def report_wrong_data(failures, stream=sys.stderr):
    """The runs whose reads returned wrong data, said so that nobody can miss it; True if any."""
    wrong = [f for f in failures if f["wrong_data"]]
    if wrong:
        print(f"study: DATA INTEGRITY FAILURE: {len(wrong)} run(s) returned wrong data and are not in the "
              f"table:", file=stream)
        for f in wrong:
            print(f"  {f['label']}: {f['error']}", file=stream)
    return bool(wrong)


def exit_status(failures):
    """The study's exit status: 3 when a run returned wrong data, 1 when runs failed otherwise, else 0."""
    if any(f["wrong_data"] for f in failures):
        return run_check.WRONG_DATA_EXIT
    return run_check.FAILURE_EXIT if failures else run_check.SUCCESS_EXIT
