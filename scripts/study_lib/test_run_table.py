"""run_table against a stand-in raidtlm (a shell script): the listing, the verdicts, resume.

Run: python3 -m unittest discover -s scripts/study_lib -p "test_*.py"   (no raidtlm build needed)
"""
import argparse
import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from study_lib import run_check, run_table  # noqa: E402

# The stand-in logs its arguments and behaves as the overrides ask: fake.exit=N exits N with a
# message, fake.wrong=1 writes a stats.json with integrity errors and exits 0, fake.sleep=S waits S
# seconds first.
FAKE = r"""#!/bin/sh
echo "$*" >> "$FAKE_LOG"
out=""; code=0; wrong=0; prev=""
for a in "$@"; do
  [ "$prev" = "--out" ] && out="$a"
  case "$a" in fake.exit=*) code="${a#fake.exit=}";; fake.wrong=1) wrong=1;; fake.sleep=*) sleep "${a#fake.sleep=}";; esac
  prev="$a"
done
if [ "$code" = 2 ]; then echo "scenario.yaml:3:5: key 'controller.layout': no such layout" >&2; exit 2; fi
if [ "$code" = 3 ]; then echo "raidtlm: DATA INTEGRITY FAILURE: 1 of 9 reads" >&2; exit 3; fi
if [ "$code" != 0 ]; then echo "raidtlm: stalled" >&2; exit "$code"; fi
mkdir -p "$out"
if [ "$wrong" = 1 ]; then
  echo '{"controller": {"integrity_errors": 2, "reads_checked": 9}}' > "$out/stats.json"
else
  echo '{"throughput": {"iops": 100.0}}' > "$out/stats.json"
fi
"""


class RunTableTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="run_table_test-")
        self.binary = os.path.join(self.dir, "raidtlm")
        with open(self.binary, "w") as f:
            f.write(FAKE)
        os.chmod(self.binary, 0o755)
        self.log = os.path.join(self.dir, "log")
        os.environ["FAKE_LOG"] = self.log
        self.scenario = os.path.join(self.dir, "s.yaml")
        with open(self.scenario, "w") as f:
            f.write("disks: {count: 2}\n")
        run_table.use_binary(self.binary)
        run_check._ENV["FAKE_LOG"] = self.log

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def options(self, **kw):
        return argparse.Namespace(**dict(dict(jobs=2, resume=False, list_runs=False), **kw))

    def run_(self, name, *overrides, **kw):
        return run_table.Run(name, os.path.join(self.dir, "out", name), self.scenario, list(overrides), **kw)

    def launched(self):
        if not os.path.exists(self.log):
            return []
        with open(self.log) as f:
            return f.read().splitlines()

    def test_runs_in_order_of_overrides_and_returns_stats(self):
        res = run_table.execute([self.run_("a", "x=1", "y=2"), self.run_("b", "x=3")], self.options(),
                                progress=False)
        self.assertEqual(res["a"], {"throughput": {"iops": 100.0}})
        self.assertIn(f"run {self.scenario} --out {self.dir}/out/a --quiet --set x=1 --set y=2", self.launched())

    def test_generated_scenario_is_written_into_the_run_directory(self):
        r = run_table.Run("g", os.path.join(self.dir, "out", "g"), scenario_text="workload: {}\n")
        run_table.execute([r], self.options(), progress=False)
        with open(os.path.join(self.dir, "out", "g", "scenario.yaml")) as f:
            self.assertEqual(f.read(), "workload: {}\n")

    def test_list_runs_prints_the_table_and_runs_nothing(self):
        out = io.StringIO()
        with redirect_stdout(out), self.assertRaises(SystemExit) as e:
            run_table.execute([self.run_("a", "x=1"), self.run_("b")], self.options(list_runs=True), more="more")
        self.assertEqual(e.exception.code, 0)
        lines = out.getvalue().splitlines()
        self.assertEqual(lines[0].split("\t")[0], "a")
        self.assertEqual(lines[0].split("\t")[3:], ["x=1"])
        self.assertEqual(lines[2], "# more")
        self.assertEqual(self.launched(), [])

    def test_wrong_data_fails_the_table_with_exit_3(self):
        for overrides in (["fake.exit=3"], ["fake.wrong=1"]):
            with self.assertRaises(run_check.IntegrityFailure) as e:
                run_table.execute([self.run_("bad", *overrides)], self.options(), progress=False)
            self.assertEqual(e.exception.exit_code, 3)
        # may_fail never covers wrong data
        with self.assertRaises(run_check.IntegrityFailure):
            run_table.execute([self.run_("bad", "fake.exit=3", may_fail=True)], self.options(), progress=False)

    def test_wrong_data_wins_over_another_failure(self):
        # The stall fails late: the wrong-data run has started by then on a loaded machine too (a
        # table stops starting runs at its first failure; before, under the full suite's load, the
        # stall could end before the other run began).
        with self.assertRaises(run_check.IntegrityFailure) as e:
            run_table.execute([self.run_("stall", "fake.sleep=2", "fake.exit=1"), self.run_("bad", "fake.wrong=1")],
                              self.options(jobs=2), progress=False)
        self.assertIn("also:", str(e.exception))

    def test_failure_fails_the_table(self):
        with self.assertRaises(run_check.RunFailed) as e:
            run_table.execute([self.run_("stall", "fake.exit=1")], self.options(), progress=False)
        self.assertEqual(e.exception.exit_code, 1)

    def test_missing_keys_and_may_fail_are_none_results(self):
        res = run_table.execute([self.run_("old", "fake.exit=2", missing_keys=["controller.layout"]),
                                 self.run_("cannot", "fake.exit=1", may_fail=True)], self.options(), progress=False)
        self.assertIsNone(res["old"])
        self.assertIsNone(res["cannot"])
        self.assertEqual(res.errors["cannot"], "raidtlm: stalled")
        with self.assertRaises(run_check.RunFailed):  # a refused key the run did not declare
            run_table.execute([self.run_("bad_input", "fake.exit=2")], self.options(), progress=False)

    def test_resume_reuses_only_the_same_run(self):
        run_table.execute([self.run_("a", "x=1")], self.options(), progress=False)
        run_table.execute([self.run_("a", "x=1")], self.options(resume=True), progress=False)
        self.assertEqual(len(self.launched()), 1)
        run_table.execute([self.run_("a", "x=2")], self.options(resume=True), progress=False)
        self.assertEqual(len(self.launched()), 2)
        run_table.execute([self.run_("a", "x=2")], self.options(), progress=False)  # no --resume: runs again
        self.assertEqual(len(self.launched()), 3)
        with open(os.path.join(self.dir, "out", "a", "run.json")) as f:
            self.assertEqual(json.load(f)["overrides"], ["x=2"])

    def test_names_must_be_unique(self):
        with self.assertRaises(ValueError):
            run_table.execute([self.run_("a"), self.run_("a")], self.options(), progress=False)


if __name__ == "__main__":
    unittest.main()
