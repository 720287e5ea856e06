"""A scenario and every file it names, shipped to workers that do not share this file system.

A scenario names other files (a drive spec, a trace) relative to itself, and a DiskSim spec names
its .model and .seek files relative to itself. The bundle holds each such file under its path
relative to the files' common directory, so relative names still resolve once a worker writes the
bundle into a directory of its own. The digest covers every path and byte: it is the scenario's
identity in a run's key (editing the drive spec re-runs the study's points).
"""
import hashlib
import os
import re
import shutil
import threading

import yaml

_TOKEN = re.compile(r"[A-Za-z0-9_./+\-]+")
_MAX_SCANNED_BYTES = 4 << 20  # larger files (traces) are shipped but not searched for further names


def _strings_in(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _strings_in(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings_in(v)


def _named_files(path, text, base_dir):
    """Files named in text (whole tokens) that exist relative to base_dir."""
    found = set()
    for token in set(_TOKEN.findall(text)):
        if "/" not in token and "." not in token:
            continue
        candidate = os.path.normpath(os.path.join(base_dir, token))
        if candidate != path and os.path.isfile(candidate):
            found.add(candidate)
    return found


def referenced_files(scenario, override_values):
    """The scenario and every file reachable from it by name (absolute paths, sorted)."""
    base = os.path.dirname(scenario)
    with open(scenario) as f:
        text = f.read()
    pending = set()
    if scenario.endswith((".yaml", ".yml")):
        try:
            doc = yaml.safe_load(text)
        except yaml.YAMLError:
            doc = None  # raidtlm itself reports the scenario's syntax error with its line
        for s in list(_strings_in(doc)) + list(override_values):
            candidate = os.path.normpath(os.path.join(base, s))
            if os.path.isfile(candidate):
                pending.add(candidate)
    else:  # a DiskSim .parv: `source` lines and file names
        pending |= _named_files(scenario, text, base)
    seen = {scenario}
    while pending:
        p = pending.pop()
        if p in seen:
            continue
        seen.add(p)
        if os.path.getsize(p) <= _MAX_SCANNED_BYTES:
            try:
                with open(p, encoding="utf-8") as f:
                    pending |= _named_files(p, f.read(), os.path.dirname(p)) - seen
            except UnicodeDecodeError:
                pass
    return sorted(seen)


class scenario_bundle:
    """files: {relative path: bytes}; scenario: the scenario's relative path; digest: sha256 hex."""

    def __init__(self, files, scenario):
        self.files, self.scenario = files, scenario
        h = hashlib.sha256()
        for rel in sorted(files):
            h.update(rel.encode() + b"\0" + hashlib.sha256(files[rel]).digest())
        self.digest = h.hexdigest()

    def as_data(self):
        """Plain data (what is shipped: workers need no raidtlm code to unpickle it)."""
        return {"files": self.files, "scenario": self.scenario, "digest": self.digest}


def materialise(data, parent_dir):
    """Writes a bundle's files under parent_dir/bundle-<digest>/ once (atomically); returns the
    scenario's path there."""
    target = os.path.join(parent_dir, "bundle-" + data["digest"][:24])
    if not os.path.isdir(target):
        tmp = f"{target}.tmp{os.getpid()}.{threading.get_ident()}"
        for rel, content in data["files"].items():
            p = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "wb") as f:
                f.write(content)
        try:
            os.rename(tmp, target)
        except OSError:  # another task wrote the same bundle first
            shutil.rmtree(tmp, ignore_errors=True)
    return os.path.join(target, data["scenario"])


def make_bundle(scenario, override_values):
    paths = referenced_files(os.path.abspath(scenario), override_values)
    root = os.path.commonpath([os.path.dirname(p) for p in paths])
    files = {}
    for p in paths:
        with open(p, "rb") as f:
            files[os.path.relpath(p, root)] = f.read()
    return scenario_bundle(files, os.path.relpath(os.path.abspath(scenario), root))
