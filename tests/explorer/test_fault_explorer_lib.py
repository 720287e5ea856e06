#!/usr/bin/python3
"""Unit tests of the fault explorer's pure parts (scripts/explorer_lib): the promise each layout
makes, when a schedule exceeds it and which fault did, the shrinker, the drawer's timing relations
and the scenario file round trip. No raidtlm run. ctest: explorer.unit."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from explorer_lib import draw, families, promise, runner, shrink  # noqa: E402


def keys(layout, disks, **more):
    k = {"controller.layout": layout, "disks.count": disks, "host.stripe_unit_sectors": 64}
    k.update({f"controller.{a.replace('__', '.')}": v for a, v in more.items()})
    return k


def loss(t, disk, **more):
    return dict({"kind": "disk_loss", "at_ms": t, "disk": disk}, **more)


def media(t, disk, lbn, sectors=8):
    return {"kind": "media_error", "at_ms": t, "disk": disk, "lbn": lbn, "sectors": sectors}


class PromiseOfLayouts(unittest.TestCase):
    def test_tolerance_per_layout(self):
        cases = [(keys("raid0", 4), 0), (keys("raid1", 2), 1), (keys("raid1", 3), 2), (keys("raid4", 4), 1),
                 (keys("raid5", 4), 1), (keys("adaptraid5", 4), 1), (keys("raid6", 6), 2),
                 (keys("raid6", 7, raid6_checks=3), 3), (keys("floating", 4), 1),
                 (keys("floating", 5, floating_checks=2), 2), (keys("parity_logging", 8), 1),
                 (keys("parity_logging", 10, parity_logging__checks=3), 3), (keys("raid10", 4), 1),
                 (keys("raid10", 6, mirror_copies=3), 2), (keys("sr_array", 6, sr__dm=2), 1),
                 (keys("sr_array", 6, sr__dm=3), 2)]
        for k, tolerance in cases:
            with self.subTest(k=k):
                self.assertEqual(families.promise_of(k).tolerance, tolerance)

    def test_mirror_groups_are_columns_of_copies(self):
        self.assertEqual(families.promise_of(keys("raid10", 6, mirror_copies=3)).groups, ((0, 1, 2), (3, 4, 5)))
        self.assertEqual(families.promise_of(keys("sr_array", 6, sr__dm=2)).groups, ((0, 1), (2, 3), (4, 5)))
        self.assertEqual(families.promise_of(keys("raid5", 4)).groups, ((0, 1, 2, 3),))

    def test_every_family_draws_keys_with_a_promise(self):
        import random
        for family in families.FAMILIES:
            k = families.family_keys(family, random.Random(3))
            self.assertGreaterEqual(families.promise_of(k).tolerance, 1, family)


class Excesses(unittest.TestCase):
    raid5 = families.promise_of(keys("raid5", 4))

    def test_media_error_then_loss_of_the_same_disk_is_within(self):
        self.assertEqual(promise.excesses(self.raid5, [media(10, 1, 0), loss(20, 1, replace_after_ms=5)]), [])

    def test_media_error_on_another_disk_while_one_is_lost_is_beyond_and_named(self):
        found = promise.excesses(self.raid5, [loss(10, 0, replace_after_ms=5), media(50, 2, 640)])
        self.assertEqual(len(found), 1)
        self.assertEqual(found[0].fault, 1)
        self.assertEqual(found[0].members, (0, 2))
        self.assertIn("fault #1 media_error of disk 2", found[0].text)

    def test_media_errors_on_two_disks_in_different_rows_are_within_in_one_row_beyond(self):
        self.assertEqual(promise.excesses(self.raid5, [media(10, 1, 0), media(20, 2, 64)]), [])
        found = promise.excesses(self.raid5, [media(10, 1, 0, 16), media(20, 2, 60, 8)])
        self.assertEqual([e.fault for e in found], [1])

    def test_a_rebuilt_member_is_no_longer_missing(self):
        first = loss(10, 0, replace_after_ms=5, replaced_at_ms=15, rebuild_done_ms=100, happened=True)
        self.assertEqual(promise.excesses(self.raid5, [first, dict(loss(150, 1), happened=True)]), [])
        during = dict(first, rebuild_done_ms=None)
        self.assertEqual(len(promise.excesses(self.raid5, [during, dict(loss(150, 1), happened=True)])), 1)

    def test_a_fresh_drive_clears_its_media_errors(self):
        # The media error on disk 1 is gone with its drive; disk 1 is missing until rebuilt, one member.
        schedule = [dict(media(5, 1, 0), happened=True),
                    dict(loss(10, 1, replace_after_ms=5, replaced_at_ms=15, rebuild_done_ms=40), happened=True),
                    dict(loss(60, 2), happened=True)]
        self.assertEqual(promise.excesses(self.raid5, schedule), [])

    def test_a_fault_that_never_happened_counts_for_nothing(self):
        schedule = [dict(loss(10, 0), happened=True), dict(loss(20, 1), happened=False)]
        self.assertEqual(promise.excesses(self.raid5, schedule), [])

    def test_outages_miss_no_member_of_a_mirror_that_writes_every_copy_in_the_foreground(self):
        schedule = [loss(10, 0), {"kind": "power_loss", "at_ms": 20, "restore_after_ms": 100},
                    {"kind": "controller_loss", "at_ms": 300, "restore_after_ms": 1000}]
        foreground = {"delayed_writes.foreground_propagation": "true"}
        self.assertEqual(promise.excesses(families.promise_of(keys("raid1", 2, **foreground)), schedule), [])
        self.assertEqual(promise.excesses(families.promise_of(keys("raid10", 4, **foreground)), schedule), [])

    def test_with_delayed_writes_a_mirror_has_one_copy_of_recent_writes_until_its_recovery_ends(self):
        outage = {"kind": "power_loss", "at_ms": 20, "restore_after_ms": 100, "recovery_ms": 50, "happened": True}
        for p in (families.promise_of(keys("raid1", 2)), families.promise_of(keys("raid10", 4)),
                  families.promise_of(keys("sr_array", 6, sr__dm=2))):
            found = promise.excesses(p, [outage, dict(loss(150, 0), happened=True)])
            self.assertEqual([e.fault for e in found], [1], p.describe())
            self.assertIn("buffer DRAM", " ".join(fp.label for fp in found[0].footprints))
            self.assertEqual(promise.excesses(p, [outage, dict(loss(171, 0), happened=True)]), [], "after the recovery")
        three = families.promise_of(keys("raid1", 3))
        self.assertEqual(len(promise.excesses(three, [outage, dict(loss(150, 0), happened=True)])), 1,
                         "three copies: the later two both wait in the buffer DRAM, one copy on the media")
        self.assertEqual(promise.excesses(families.promise_of(keys("sr_array", 6, sr__dm=1)),
                                          [outage, dict(loss(150, 0), happened=True)])[0].fault, 1,
                         "no copies: a lost disk is beyond with or without the outage")

    def test_a_disk_lost_before_the_recovery_ends_meets_torn_stripes(self):
        outage = {"kind": "power_loss", "at_ms": 20, "restore_after_ms": 100, "recovery_ms": 5, "happened": True}
        during = [outage, dict(loss(60, 1), happened=True)]
        found = promise.excesses(self.raid5, during)
        self.assertEqual([e.fault for e in found], [1])
        self.assertIn("torn", found[0].text)
        in_recovery = [outage, dict(loss(123, 1), happened=True)]
        self.assertEqual(len(promise.excesses(self.raid5, in_recovery)), 1)
        after = [outage, dict(loss(126, 1), happened=True)]
        self.assertEqual(promise.excesses(self.raid5, after), [])
        self.assertEqual(promise.excesses(self.raid5, during, writes=False), [], "no write, nothing torn")
        degraded = [dict(loss(5, 1), happened=True), outage]
        self.assertEqual([e.fault for e in promise.excesses(self.raid5, degraded)], [1], "the degraded write hole")
        raid6 = families.promise_of(keys("raid6", 6))
        found = promise.excesses(raid6, during)
        self.assertEqual([e.fault for e in found], [1], "P+Q: a small write rewrote P and Q, neither can be trusted")
        self.assertEqual(found[0].members, (1,))
        self.assertEqual(promise.excesses(raid6, [outage]), [], "torn stripes alone lose nothing")
        triple = families.promise_of(keys("raid6", 7, raid6_checks=3))
        self.assertEqual(len(promise.excesses(triple, [dict(media(1, 2, 0), happened=True), outage])), 1)

    def test_an_outage_never_recovered_tears_to_the_end(self):
        outage = {"kind": "controller_loss", "at_ms": 20, "restore_after_ms": 100, "happened": True}
        self.assertEqual(len(promise.excesses(self.raid5, [outage, dict(loss(5000, 1), happened=True)], 9000)), 1)

    def test_raid6_two_losses_within_three_beyond(self):
        p = families.promise_of(keys("raid6", 6))
        self.assertEqual(promise.excesses(p, [loss(1, 0), loss(2, 3)]), [])
        self.assertEqual([e.fault for e in promise.excesses(p, [loss(1, 0), loss(2, 3), media(3, 5, 0)])], [2])

    def test_raid10_counts_per_mirror_group(self):
        p = families.promise_of(keys("raid10", 4))
        self.assertEqual(promise.excesses(p, [loss(1, 0), loss(2, 2)]), [])
        self.assertEqual(len(promise.excesses(p, [loss(1, 0), loss(2, 1)])), 1)

    def test_raid0_promises_nothing(self):
        p = families.promise_of(keys("raid0", 4))
        self.assertEqual(len(promise.excesses(p, [media(1, 2, 0)])), 1)

    def test_unknown_rows_are_taken_to_overlap(self):
        p = families.promise_of(keys("parity_logging", 8))
        self.assertEqual(len(promise.excesses(p, [media(1, 2, 0), media(2, 5, 100000)])), 1)

    def test_a_planned_replacement_without_a_known_rebuild_end_stays_missing(self):
        self.assertEqual(len(promise.excesses(self.raid5, [loss(10, 0, replace_after_ms=5), loss(1000, 1)])), 1)


class Shrinker(unittest.TestCase):
    def case(self):
        faults = [{"kind": "power_loss", "at_ms": 100, "restore_after_ms": 50}, media(200, 1, 0, 64),
                  loss(300, 2, replace_after_ms=40), {"kind": "controller_loss", "at_ms": 400, "restore_after_ms": 900}]
        return {"id": "t", "family": "raid5", "keys": {"workload.requests": 16000, "workload.outstanding": 100},
                "faults": faults, "notes": ["a", "b", "c", "d"]}

    def test_keeps_only_what_the_failure_needs(self):
        # A failure that needs the media error and a queue of at least 4.
        def fails(c):
            return any(f["kind"] == "media_error" for f in c["faults"]) and c["keys"]["workload.outstanding"] >= 4
        small, runs = shrink.shrink(self.case(), fails, budget=200, duration_ms=1000)
        self.assertEqual([f["kind"] for f in small["faults"]], ["media_error"])
        self.assertEqual(small["faults"][0]["sectors"], 1)
        self.assertTrue(4 <= small["keys"]["workload.outstanding"] < 8)
        self.assertLess(small["keys"]["workload.requests"], 16000)
        self.assertTrue(fails(small))
        self.assertEqual(self.case()["keys"]["workload.outstanding"], 100, "the input is not changed")

    def test_stays_within_the_budget_and_returns_the_input_when_nothing_smaller_fails(self):
        small, runs = shrink.shrink(self.case(), lambda c: False, budget=5)
        self.assertEqual(runs, 5)
        self.assertEqual(small, self.case())


class Drawer(unittest.TestCase):
    def drawn(self, index):
        case = draw.draw_workload(7, index, families.FAMILIES)
        layout = {"parity_logging": "parity logging, 8 disks, 123 regions, L = 4 sublogs of 28 tracks, parity 28 "
                                    "tracks per member, A = 1, 48-sector track, 4-sector stripe unit",
                  "parity_logging_3": "parity logging over P+Q+R, 10 disks, 123 regions, L = 2 sublogs of 56 tracks in "
                                      "3 copies, P, Q and R 28 tracks each per member, A = 1, 48-sector track"
                  }.get(case["family"], "")
        return draw.draw_faults(case, {"duration_ms": 20000.0, "disk_sectors": 649040, "layout_text": layout})

    def test_the_same_seed_and_index_give_the_same_case(self):
        self.assertEqual(self.drawn(3), self.drawn(3))
        self.assertNotEqual(self.drawn(3), self.drawn(4))

    def test_faults_are_in_time_order_inside_the_run_and_on_the_array(self):
        for i in range(60):
            c = self.drawn(i)
            disks = c["keys"]["disks.count"]
            times = [f["at_ms"] for f in c["faults"]]
            self.assertEqual(times, sorted(times))
            self.assertTrue(all(1 <= t <= 0.85 * 20000 for t in times))
            for f in c["faults"]:
                if "disk" in f:
                    self.assertTrue(0 <= f["disk"] < disks, (c["id"], f))
                if f["kind"] == "media_error":
                    self.assertTrue(0 <= f["lbn"] and f["lbn"] + f["sectors"] <= 649040)

    def test_a_replacement_drawn_during_an_outage_lands_in_it(self):
        seen = 0
        for i in range(300):
            c = self.drawn(i)
            for f, note in zip(c["faults"], c["notes"]):
                if note.startswith("replacement during an outage") and f["at_ms"] > 1:
                    swaps = [g["at_ms"] + g["replace_after_ms"] for g in c["faults"] if "replace_after_ms" in g]
                    self.assertTrue(any(f["at_ms"] < s < f["at_ms"] + f["restore_after_ms"] for s in swaps))
                    seen += 1
        self.assertGreater(seen, 0)

    def test_parity_logging_geometry_is_read_from_the_layout(self):
        self.assertEqual(draw.plog_geometry("x, L = 4 sublogs of 28 tracks, parity 28 tracks per member, A = 1, "
                                            "48-sector track"), (4, 28, 28, 48))
        self.assertEqual(draw.plog_geometry("over P+Q+R, L = 2 sublogs of 56 tracks in 3 copies, P, Q and R 28 tracks "
                                            "each per member, A = 1, 48-sector track"), (2, 56, 28, 48))
        self.assertIsNone(draw.plog_geometry("RAID 5 left-symmetric"))


class ScenarioFiles(unittest.TestCase):
    def test_a_written_case_reads_back_the_same(self):
        case = draw.draw_faults(draw.draw_workload(2, 5, ["adaptraid5"]),
                                {"duration_ms": 9000.0, "disk_sectors": 8000000})
        case["keys"]["disks.specs"] = [families.CHEETAH_9LP, families.CHEETAH_4LP, families.CHEETAH_4LP,
                                       families.CHEETAH_4LP]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "case.yaml")
            with open(path, "w") as f:
                f.write(runner.scenario_text(case, path, ["a header"]))
            back = runner.case_from_scenario(path)
        self.assertEqual(back["keys"], case["keys"])
        self.assertEqual(back["faults"], [runner.fault_entry(f) for f in case["faults"]])
        self.assertEqual((back["id"], back["family"]), (case["id"], case["family"]))


if __name__ == "__main__":
    unittest.main()
