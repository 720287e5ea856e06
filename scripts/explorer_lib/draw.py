"""One explorer case drawn from (seed, index): the layout, the workload, then the faults.

The workload is drawn first (layout shape, queue depth 1-256, request sizes, read fraction, hot
region, run length 2,000-20,000 requests); the faults are drawn after a fault-free pilot run of it
has said how long the run lasts (`duration_ms`), so that they can be timed in simulated ms relative
to each other: the schedule's `at_request` cannot say "during the outage" or "while the replacement
is being rebuilt", and `restore_after_ms` / `replace_after_ms` only time a fault's own end. Every
fault is therefore given at an absolute `at_ms` computed from the ones drawn before it.

Relations drawn between faults (each names itself in the case's notes):
  a replacement during an outage / during the power recovery after it; an outage (power or
  controller loss) during a rebuild or while degraded; a second disk loss during a rebuild; a media
  error on a rebuild source (another member, in the rows the load and the rebuild touch) or on
  parity / log sectors; a disk lost while the controller is off or while it recovers; a media error
  on a disk that is lost later; a fault at an independent time.
Half of the cases steer the members they pick to stay within the layout's promise (promise.py on
the planned schedule), the other half pick freely (often beyond it).
"""
import math
import random
import re

from explorer_lib import families, promise

KINDS = ["disk_loss", "media_error", "power_loss", "controller_loss"]


def case_rng(seed, index, part):
    return random.Random(f"fault-explorer:{seed}:{index}:{part}")


def log_uniform(rng, lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def draw_workload(seed, index, family_list):
    """The case without faults: {'id', 'family', 'keys' (dotted scenario keys), 'faults': [], 'notes': []}."""
    rng = case_rng(seed, index, "workload")
    family = rng.choice(family_list)
    keys = families.family_keys(family, rng)
    iss = keys.get("controller.cpu.model") == "iss"  # instruction-set simulation: ~4x the host CPU per request
    requests = int(log_uniform(rng, 2000, 8000 if iss else 20000))
    keys.update({
        "controller.enabled": True, "workload.data_tokens": True, "workload.requests": requests,
        "workload.warmup_requests": 0, "measurement.ci_target": 0, "output.waves": False, "output.timeline": False,
        "workload.outstanding": int(round(log_uniform(rng, 1, 256))),
        "workload.read_fraction": rng.choice([0.1, 0.25, 0.5, 0.5, 0.67, 0.75, 0.9, 1.0]),
        "workload.address": "hot_cold", "workload.hot_space_fraction": round(log_uniform(rng, 0.0001, 0.005), 6),
        "workload.hot_access_fraction": rng.choice([0.8, 0.9, 0.99]), "workload.seed": rng.randrange(1, 1 << 30),
        "controller.rebuild_share": rng.choice([0.3, 0.3, 1.0]),
        # The C firmware rebuilds one stripe at a time (raidtlm refuses more).
        "controller.rebuild_units_in_flight": 1 if iss else rng.choice([1, 1, 4]),
    })
    size = rng.choice(["small", "small", "mixed", "large"])
    if size == "small":
        keys.update({"workload.size_distribution": "constant", "workload.request_sectors": rng.choice([1, 4, 8, 16])})
    elif size == "mixed":
        keys.update({"workload.size_distribution": "uniform", "workload.size_min_sectors": rng.choice([1, 8]),
                     "workload.size_max_sectors": rng.choice([16, 64, 128])})
    else:
        keys.update({"workload.size_distribution": "constant", "workload.request_sectors": rng.choice([64, 128, 256])})
    keys["workload.alignment_sectors"] = rng.choice([0, 1, 8])
    return {"id": f"{seed}:{index}", "family": family, "keys": keys, "faults": [], "notes": []}


def plog_geometry(layout_text):
    """Parity logging's region geometry from firmware.layout: (L sublogs, sublog tracks, parity tracks, track sectors)."""
    m = re.search(r"L = (\d+) sublogs of (\d+) tracks.*?(?:parity|P, Q and R|P and Q) (\d+) tracks.*?(\d+)-sector track",
                  layout_text or "")
    return tuple(int(x) for x in m.groups()) if m else None


class FaultDrawer:
    """Draws the faults of one case; `pilot` = {'duration_ms', 'disk_sectors', 'layout_text'}."""

    def __init__(self, case, pilot, rng):
        self.case, self.keys, self.rng = case, case["keys"], rng
        self.promise = families.promise_of(self.keys)
        self.disks = sum(len(g) for g in self.promise.groups)
        self.duration = pilot["duration_ms"]
        self.disk_sectors = pilot["disk_sectors"]
        self.layout_text = pilot.get("layout_text", "")
        self.within = rng.random() < 0.5
        self.writes = self.keys["workload.read_fraction"] < 1.0
        self.faults, self.notes = [], []
        hot = self.keys["workload.hot_space_fraction"] * self.disk_sectors
        self.hot_span = max(64, int(hot * rng.choice([1, 1, 2, 4])))

    # -- times and members ------------------------------------------------------------------------
    def clamp(self, t):
        return round(min(max(t, 1.0), 0.85 * self.duration), 3)

    def independent_time(self):
        return self.clamp(self.rng.uniform(0.05, 0.6) * self.duration)

    def offset(self, hi_ms=3000.0):
        return log_uniform(self.rng, 0.5, max(1.0, min(hi_ms, 0.3 * self.duration)))

    def pick_disk(self, fault, candidates=None):
        """A member for `fault` (its disk filled in): when steering within the promise, one that keeps
        the planned schedule within it if any does."""
        candidates = list(candidates if candidates is not None else range(self.disks))
        self.rng.shuffle(candidates)
        if self.within:
            for d in candidates:
                if not promise.excesses(self.promise, self.faults + [dict(fault, disk=d)], writes=self.writes):
                    return d
        return candidates[0]

    # -- fault makers -----------------------------------------------------------------------------
    def add(self, fault, note):
        self.faults.append(fault)
        self.notes.append(note)

    def disk_loss(self, at_ms, note, candidates=None, replace=None):
        f = {"kind": "disk_loss", "at_ms": self.clamp(at_ms)}
        if replace is None:
            replace = self.rng.random() < 0.8
        if replace:
            f["replace_after_ms"] = round(log_uniform(self.rng, 1, 1000), 3)
        f["disk"] = self.pick_disk(f, candidates)
        self.add(f, note)
        return f

    def outage(self, at_ms, note, kind=None):
        kind = kind or self.rng.choice(["power_loss", "power_loss", "controller_loss"])
        lo, hi = (10, 1000) if kind == "power_loss" else (200, 3000)
        f = {"kind": kind, "at_ms": self.clamp(at_ms), "restore_after_ms": round(log_uniform(self.rng, lo, hi), 3)}
        self.add(f, note)
        return f

    def media_error(self, at_ms, note, target=None, candidates=None):
        target = target or self.rng.choice(["hot", "hot", "hot", "parity", "anywhere"])
        sectors = self.rng.choice([1, 8, 16, 64, 128])
        f = {"kind": "media_error", "at_ms": self.clamp(at_ms), "sectors": sectors}
        placed = self.place_on_checks(f, target, candidates)
        if not placed:
            if target == "anywhere":
                f["lbn"] = self.rng.randrange(0, self.disk_sectors - sectors)
            else:
                f["lbn"] = self.rng.randrange(0, self.hot_span)
            f["disk"] = self.pick_disk(f, candidates)
            placed = "hot" if target != "anywhere" else target
        self.add(f, f"{note} ({placed} sectors)")
        return f

    def place_on_checks(self, f, target, candidates):
        """A media error on parity (RAID 4/5: a hot row's parity member) or on parity logging's parity
        or log (region 0): what it hit; None when the layout's check sectors are not known to the explorer."""
        layout = self.keys.get("controller.layout")
        unit = int(self.keys.get("host.stripe_unit_sectors", 64))
        if target == "parity" and layout in ("raid4", "raid5"):
            row = self.rng.randrange(0, max(1, self.hot_span // unit))
            disk = self.disks - 1 if layout == "raid4" else self.disks - 1 - row % self.disks
            if candidates is not None and disk not in candidates:
                return None
            f.update(disk=disk, lbn=row * unit + self.rng.randrange(0, unit))
            f["sectors"] = min(f["sectors"], unit * (row + 1) - f["lbn"])
            return "parity"
        geometry = plog_geometry(self.layout_text)
        if layout != "parity_logging" or geometry is None or target not in ("parity", "anywhere"):
            return None
        sublogs, sublog_tracks, parity_tracks, track = geometry
        checks = int(self.keys.get("controller.parity_logging.checks", 1))
        log_disks = checks * sublogs
        members = self.disks - log_disks
        if members < 2:
            return None  # a layout text of another shape than the keys say: not guessed at
        if self.rng.random() < 0.5:  # a log disk of region 0: its sublog from LBN 0
            disk, first, length = self.rng.randrange(0, log_disks), 0, sublog_tracks * track
            what = "log"
        else:  # member m of region 0: its check run(s)
            m = self.rng.randrange(0, members)
            disk = log_disks + m
            first = (members - 1 - m) * parity_tracks * track if checks == 1 else 0
            length = checks * parity_tracks * track
            what = "parity"
        if candidates is not None and disk not in candidates:
            return None
        f.update(disk=disk, lbn=first + self.rng.randrange(0, max(1, min(length, self.hot_span) - f["sectors"])))
        return what

    # -- relations --------------------------------------------------------------------------------
    def replaced(self):
        return [f for f in self.faults if f["kind"] == "disk_loss" and "replace_after_ms" in f]

    def outages(self):
        return [f for f in self.faults if f["kind"] in ("power_loss", "controller_loss")]

    def losses(self):
        return [f for f in self.faults if f["kind"] == "disk_loss"]

    def relations(self):
        """The relations that apply to the faults drawn so far: (name, weight, maker)."""
        out = [("independent", 2, self.independent)]
        if self.replaced():
            out += [("replacement during an outage", 2, self.replacement_during_outage),
                    ("replacement during power recovery", 2, self.replacement_during_recovery),
                    ("outage during a rebuild", 2, self.outage_during_rebuild),
                    ("second disk loss during a rebuild", 2, self.second_loss_during_rebuild),
                    ("media error on a rebuild source", 3, self.media_on_rebuild_source)]
        if self.losses():
            out += [("outage while degraded", 1, self.outage_while_degraded),
                    ("media error on the disk before it is lost", 1, self.media_before_loss)]
        if self.outages():
            out += [("disk loss while the controller is off", 2, self.loss_during_outage),
                    ("fault during power recovery", 2, self.fault_during_recovery)]
        out += [("media error on parity or log sectors", 1, lambda: self.media_error(
            self.independent_time(), "media error on check sectors", target="parity"))]
        return out

    def independent(self):
        kind = self.rng.choices(KINDS, weights=[4, 3, 2, 1])[0]
        t = self.independent_time()
        if kind == "disk_loss":
            self.disk_loss(t, "disk loss at an independent time")
        elif kind == "media_error":
            self.media_error(t, "media error at an independent time")
        else:
            self.outage(t, f"{kind} at an independent time", kind)

    def replacement_during_outage(self):
        loss = self.rng.choice(self.replaced())
        swap = loss["at_ms"] + loss["replace_after_ms"]
        f = self.outage(swap, "outage with the replacement during it")
        f["at_ms"] = self.clamp(swap - self.rng.uniform(0.05, 0.95) * f["restore_after_ms"])

    def replacement_during_recovery(self):
        loss = self.rng.choice(self.replaced())
        swap = loss["at_ms"] + loss["replace_after_ms"]
        f = self.outage(swap, "outage with the replacement during its power recovery")
        f["at_ms"] = self.clamp(swap - f["restore_after_ms"] - log_uniform(self.rng, 0.01, 50))

    def rebuild_moment(self):
        loss = self.rng.choice(self.replaced())
        return loss, loss["at_ms"] + loss["replace_after_ms"] + self.offset()

    def outage_during_rebuild(self):
        loss, t = self.rebuild_moment()
        self.outage(t, f"outage during the rebuild of disk {loss['disk']}")

    def second_loss_during_rebuild(self):
        loss, t = self.rebuild_moment()
        others = [d for d in range(self.disks) if d != loss["disk"]]
        self.disk_loss(t, f"second disk loss during the rebuild of disk {loss['disk']}", others)

    def media_on_rebuild_source(self):
        loss, t = self.rebuild_moment()
        if self.rng.random() < 0.3:  # left unread from before the loss
            t = loss["at_ms"] - self.offset()
        others = [d for d in range(self.disks) if d != loss["disk"]]
        self.media_error(t, f"media error on a rebuild source of disk {loss['disk']}",
                         target=self.rng.choice(["hot", "hot", "parity"]), candidates=others)

    def outage_while_degraded(self):
        loss = self.rng.choice(self.losses())
        span = loss.get("replace_after_ms", self.offset())
        self.outage(loss["at_ms"] + self.rng.uniform(0, 1) * span, f"outage while disk {loss['disk']} is missing")

    def media_before_loss(self):
        loss = self.rng.choice(self.losses())
        self.media_error(loss["at_ms"] - self.offset(), f"media error on disk {loss['disk']} before it is lost",
                         candidates=[loss["disk"]])

    def loss_during_outage(self):
        out = self.rng.choice(self.outages())
        self.disk_loss(out["at_ms"] + self.rng.uniform(0.05, 0.95) * out["restore_after_ms"],
                       f"disk loss while the controller is off ({out['kind']})")

    def fault_during_recovery(self):
        out = self.rng.choice(self.outages())
        t = out["at_ms"] + out["restore_after_ms"] + log_uniform(self.rng, 0.01, 100)
        if self.rng.random() < 0.5:
            self.disk_loss(t, f"disk loss during the recovery after {out['kind']}")
        else:
            self.media_error(t, f"media error during the recovery after {out['kind']}")

    def draw(self):
        count = self.rng.choices([1, 2, 3, 4], weights=[2, 4, 3, 2])[0]
        first = self.rng.choices(KINDS, weights=[5, 2, 2, 1])[0]
        t = self.independent_time()
        if first == "disk_loss":
            self.disk_loss(t, "first fault", replace=self.rng.random() < 0.85)
        elif first == "media_error":
            self.media_error(t, "first fault")
        else:
            self.outage(t, "first fault", first)
        while len(self.faults) < count:
            options = self.relations()
            name, _, make = self.rng.choices(options, weights=[w for _, w, _ in options])[0]
            make()
            self.notes[-1] = f"{name}: {self.notes[-1]}"
        order = sorted(range(len(self.faults)), key=lambda i: self.faults[i]["at_ms"])
        return [self.faults[i] for i in order], [self.notes[i] for i in order]


def draw_faults(case, pilot):
    """The case with its faults drawn (a new dict); `pilot` from runner.pilot_facts."""
    seed, index = case["id"].split(":")
    drawer = FaultDrawer(case, pilot, case_rng(seed, index, "faults"))
    faults, notes = drawer.draw()
    planned = promise.excesses(drawer.promise, faults, writes=drawer.writes)
    return dict(case, faults=faults, notes=notes, steered_within=drawer.within,
                planned_beyond=[e.text for e in planned])
