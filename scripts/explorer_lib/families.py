"""The layouts the explorer draws, as `raidtlm run` keys, and what each promises.

Every family of scripts/soak_faults (raid1 raid10 raid4 raid5 raid6 triple sr_array floating
parity_logging parity_logging_3 iss_raid5) plus adaptraid5 and raid5 with read-rotate-write.
A family's shape varies where the layout allows it (mirror copies, SR-Array shape, floating's
checks, AdaptRaid5 on mixed drives), so the promise is computed from the keys, never looked up
by family name: a saved scenario's keys alone say what it promises.

The promise: per stripe, how many of its members may be missing or unreadable at once with every
sector still served (`tolerance`), and which members share stripes (`groups`). Rows: a drive LBN
belongs to stripe row lbn // row_sectors where the layout keeps a member's rows at the same drive
LBNs as its stripe mates; None where it does not (floating moves units, parity logging's regions
start at different LBNs on log and member disks, AdaptRaid5's pattern, SR-Array's replicas): then
any two faults in one group are taken to share a row (the cautious reading: more schedules count
as beyond the promise, none within it wrongly).
"""
from dataclasses import dataclass

CHEETAH_9LP = "../shared/reference/disksim/validation/cheetah9LP.diskspecs"  # from the repo root
CHEETAH_4LP = "../shared/reference/disksim/validation/cheetah4LP.diskspecs"
IBM_0661 = "scenarios/disks/ibm0661.diskspecs"

FAMILIES = ["raid1", "raid10", "raid4", "raid5", "raid6", "triple", "sr_array", "floating", "parity_logging",
            "parity_logging_3", "iss_raid5", "adaptraid5", "raid5_rrw"]


def family_keys(family, rng):
    """The scenario keys (dotted) of one draw of `family`'s layout; rng draws the shape."""
    k = {"disks.spec": CHEETAH_9LP}
    if family == "raid1":
        k.update({"disks.count": rng.choice([2, 2, 3]), "controller.layout": "raid1"})
    elif family == "raid10":
        copies = rng.choice([2, 2, 3])
        k.update({"disks.count": 2 * copies, "controller.layout": "raid10", "controller.mirror_copies": copies})
    elif family in ("raid4", "raid5", "iss_raid5", "raid5_rrw"):
        k.update({"disks.count": 4, "controller.layout": "raid4" if family == "raid4" else "raid5"})
        if family == "iss_raid5":
            k["controller.cpu.model"] = "iss"
        if family == "raid5_rrw":
            k["controller.rmw"] = "read_rotate_write"
            k["controller.rrw_order"] = rng.choice(["together", "parity_after_data"])
    elif family == "raid6":
        k.update({"disks.count": rng.choice([4, 6]), "controller.layout": "raid6"})
    elif family == "triple":
        k.update({"disks.count": 7, "controller.layout": "raid6", "controller.raid6_checks": 3})
    elif family == "sr_array":
        ds, dr, dm = rng.choice([(1, 3, 2), (2, 1, 2), (1, 2, 3)])
        k.update({"disks.count": ds * dr * dm, "controller.layout": "sr_array", "controller.sr.ds": ds,
                  "controller.sr.dr": dr, "controller.sr.dm": dm, "controller.scheduler": "rsatf"})
    elif family == "floating":
        checks = rng.choice([1, 1, 1, 2])
        k.update({"disks.spec": IBM_0661, "disks.count": 4 + checks - 1, "controller.layout": "floating",
                  "host.stripe_unit_sectors": 4, "controller.floating_checks": checks})
    elif family in ("parity_logging", "parity_logging_3"):
        k.update({"disks.spec": IBM_0661, "controller.layout": "parity_logging", "host.stripe_unit_sectors": 4,
                  "controller.nvram.capacity_kib": 4096})
        if family == "parity_logging":
            k["disks.count"] = 8
        else:
            k.update({"disks.count": 10, "controller.parity_logging.checks": 3,
                      "controller.parity_logging.log_stripes": 2})
    elif family == "adaptraid5":
        k.update({"disks.count": 4, "controller.layout": "adaptraid5"})
        if rng.random() < 0.5:  # larger drives first: their extra space holds the wider stripes
            k["disks.specs"] = [CHEETAH_9LP, CHEETAH_9LP, CHEETAH_4LP, CHEETAH_4LP]
    else:
        raise ValueError(f"unknown family '{family}'; expected one of {' '.join(FAMILIES)}")
    return k


@dataclass(frozen=True)
class Promise:
    """What a layout survives: in each group (members that share stripes) at most `tolerance`
    members missing per stripe row; `row_sectors` None when rows cannot be told from drive LBNs."""
    layout: str
    groups: tuple          # tuple of tuples of member numbers
    tolerance: int
    row_sectors: object    # int or None
    computed_checks: bool = True  # stripes hold checks computed from the data (the write hole applies)
    # Copies after the first written later from volatile buffer DRAM (the delayed-write table, Yu et al.
    # 3.4: NVRAM keeps only the first copy's location): a crash leaves those rows one copy until the
    # recovery has copied them.
    delayed_copies: bool = False

    def group_of(self, member):
        for g in self.groups:
            if member in g:
                return g
        raise ValueError(f"member {member} is in no group of {self.groups}")

    def describe(self):
        per = "per stripe" if len(self.groups) == 1 else f"per group of {len(self.groups[0])} members"
        return f"{self.layout}: at most {self.tolerance} missing or unreadable member(s) {per}"


def promise_of(keys):
    """The promise of the scenario `keys` (dotted; the defaults of `raidtlm run --help` where absent)."""
    layout = keys.get("controller.layout", "raid0")
    disks = len(keys["disks.specs"]) if keys.get("disks.specs") else int(keys.get("disks.count", 4))
    unit = int(keys.get("host.stripe_unit_sectors", 64))
    everyone = (tuple(range(disks)),)
    delayed = str(keys.get("controller.delayed_writes.foreground_propagation", "false")).lower() != "true"

    def columns(size):
        return tuple(tuple(range(c, c + size)) for c in range(0, disks, size))

    if layout == "raid0":
        return Promise("raid0", everyone, 0, unit, False)
    if layout == "raid1":
        return Promise(f"raid1 ({disks} copies)", everyone, disks - 1, unit, False, delayed)
    if layout == "raid10":
        copies = int(keys.get("controller.mirror_copies", 2))
        return Promise(f"raid10 ({copies} copies)", columns(copies), copies - 1, unit, False, delayed)
    if layout in ("raid4", "raid5"):
        return Promise(layout, everyone, 1, unit)
    if layout == "raid6":
        checks = int(keys.get("controller.raid6_checks", 2))
        return Promise(f"raid6 ({checks} checks)", everyone, checks, unit)
    if layout == "adaptraid5":
        return Promise("adaptraid5", everyone, 1, None)
    if layout == "floating":
        checks = int(keys.get("controller.floating_checks", 1))
        return Promise(f"floating ({checks} checks)", everyone, checks, None)
    if layout == "parity_logging":
        checks = int(keys.get("controller.parity_logging.checks", 1))
        return Promise(f"parity_logging ({checks} checks)", everyone, checks, None)
    if layout == "sr_array":
        dm = int(keys.get("controller.sr.dm", 1))
        return Promise(f"sr_array (dm {dm})", columns(dm), dm - 1, None, False, delayed and dm > 1)
    raise ValueError(f"no promise known for layout '{layout}'")


def data_members(keys):
    """Members' worth of host data per stripe row: how far a host range spreads over the drives."""
    p = promise_of(keys)
    disks = sum(len(g) for g in p.groups)
    if keys.get("controller.layout") in ("raid1", "raid10", "sr_array"):
        return len(p.groups)
    if keys.get("controller.layout") == "parity_logging":
        checks = int(keys.get("controller.parity_logging.checks", 1))
        return disks - checks - checks * int(keys.get("controller.parity_logging.log_stripes", 4))
    return disks - p.tolerance
