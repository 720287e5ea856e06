#include <gtest/gtest.h>

#include <cmath>

#include "controller/kit/predict/head_position_predictor.h"
#include "controller/kit/predict/prediction_statistics.h"
#include "controller/kit/predict/spindle_calibration.h"
#include "controller/layouts/sr_mirror_layout.h"
#include "disk_fixtures.h"
#include "testbench/workloads/random.h"

using namespace raidtlm::controller;
using raidtlm::disks::head_position;
using raidtlm::disks::mechanics;
using raidtlm::disks::physical_address;

namespace {

// The drive as it really is: disks::mechanics with its own spindle phase, plus random error in
// every positioning (seek or head switch) that the firmware cannot know.
class true_drive {
public:
    true_drive(const raidtlm::disks::disk_spec &spec, double phase, double positioning_sigma_ms, uint64_t seed)
        : m_layout(spec), m_mech(spec, m_layout, phase), m_sigma(positioning_sigma_ms), m_rng(seed) {}

    struct outcome {
        double access_ms;  // positioning + rotational latency
        double media_end_ms;
    };
    outcome serve(const placement &p, bool write, double start_ms) {
        double pos = m_mech.positioning_ms(m_head, {p.first.cyl, p.first.head}, write);
        if (pos > 0) pos = std::max(0.0, pos + m_sigma * m_rng.normal());
        const double ready = start_ms + pos;
        const double wait = m_mech.wait_for_angle(ready, m_layout.slot_angle(p.first.cyl, p.first.head, p.first.slot));
        m_head = {p.last.cyl, p.last.head};
        return {pos + wait, ready + wait + p.sectors * m_mech.sector_ms(p.first.cyl)};
    }
    const mechanics &mech() const { return m_mech; }

private:
    raidtlm::disks::disk_layout m_layout;
    mechanics m_mech;
    double m_sigma;
    raidtlm::testbench::random_source m_rng;
    head_position m_head;
};

// One reference read of LBN 0 whose pass the firmware knows exactly; returns when it ended.
double reference_pass(head_position_predictor &predictor, true_drive &drive, double start_ms) {
    placement p;
    p.first = p.last = predictor.geometry().to_physical(0);
    p.sectors = 1;
    const double pass = drive.serve(p, false, start_ms).media_end_ms;
    predictor.observe_reference_read(p.first, pass);
    predictor.command_ended_on(p.last);  // this true_drive does not read ahead
    return pass;
}

struct run_result {
    prediction_statistics late;  // the second half of the run
    double final_slack = 0;
};

// A closed queue of `depth` random single-sector reads on disk 0 of a 2×3×1 SR-Array on Cheetah
// 9LPs, served by RSATF with the predictor's oracle against a true drive.
run_result run_closed_queue(const head_position_predictor::config &cfg, double sigma_ms, int requests, int depth = 8) {
    const auto &spec = raidtlm::test::cheetah9lp();
    static const sr_mirror_layout sr(spec, 6, {2, 3, 1, 128, 0});
    const double true_phase = 0.37;
    true_drive drive(spec, true_phase, sigma_ms, 11);
    head_position_predictor predictor(spec, cfg);
    raidtlm::testbench::random_source rng(5);
    const int64_t rows = sr.capacity_sectors() / (128 * sr.columns());
    std::vector<chunk> chunks;
    auto random_request = [&](uint64_t id) {
        const int64_t lbn = int64_t(rng.below(uint64_t(rows))) * 128 * sr.columns() + int64_t(rng.below(128));
        sr.map(lbn, 1, chunks);
        queued_request r;
        r.id = id;
        r.placements = placements_on_disk(chunks[0], 0, predictor.geometry());
        return r;
    };
    std::vector<queued_request> queue;
    uint64_t next_id = 0;
    for (int i = 0; i < depth; ++i) queue.push_back(random_request(next_id++));
    disk_scheduler scheduler({scheduling_policy::rsatf, 0.2, spec.cylinders});
    const double command_overhead_ms = 0.1;
    double now = 0;
    // Calibration: reads of LBN 0 at start-up and on the schedule tell the firmware the phase
    // (and the period); their status comes 0-20 us later than the datasheet says.
    const physical_address reference = predictor.geometry().to_physical(0);
    spindle_calibration calibration(cfg.calibration, predictor.latency());
    raidtlm::testbench::random_source jitter(3);
    auto calibrate = [&] {
        placement p;
        p.first = p.last = reference;
        p.sectors = 1;
        std::vector<double> passes;
        for (int k = 0; k < calibration.reads_in_next_burst(); ++k) {
            const double pass = drive.serve(p, false, now + command_overhead_ms).media_end_ms;
            const reference_sample s{now, pass + predictor.latency().read_after_media_ms(1) + 0.02 * jitter.uniform()};
            if (const auto seen = calibration.pass_ms(s, command_overhead_ms)) passes.push_back(*seen);
            now = s.status_ms;
        }
        predictor.observe_reference_read(
            reference, spindle_calibration::least_delayed(passes, predictor.sector_end_angle(reference), predictor.period_ms()));
        calibration.burst_done(now);
    };
    calibrate();
    prediction_statistics stats;
    for (int i = 0; i < requests; ++i) {
        if (calibration.due(now)) calibrate();
        const double start = now + command_overhead_ms;
        const auto d = scheduler.choose(queue, predictor.at(start));
        const placement &p = queue[d->request].placements[d->placement];
        const access_prediction predicted = predictor.predict(p.first, false, start);
        const auto actual = drive.serve(p, false, start);
        stats.add(predicted.access_ms(), actual.access_ms, drive.mech().period_ms());
        // The firmware sees only the status time, a little late now and then.
        const double status = actual.media_end_ms + predictor.latency().read_after_media_ms(1) + 0.002 * std::fabs(jitter.normal());
        predictor.record_outcome(predictor.is_miss(status - predictor.expected_status_ms(p.first, p.last, 1, false, predicted)));
        predictor.command_ended_on(p.last);
        now = actual.media_end_ms;
        queue[d->request] = random_request(next_id++);
    }
    return {stats.since(uint64_t(requests / 2)), predictor.slack_sectors()};
}

head_position_predictor::config feedback_config(bool feedback, double initial_slack) {
    head_position_predictor::config cfg;
    cfg.slack.feedback = feedback;
    cfg.slack.initial_sectors = initial_slack;
    cfg.error.phase_turns = 0.2;  // calibration's reference reads correct this
    cfg.error.period_ppm = 50;    // and this, as they space out
    return cfg;
}

}  // namespace

TEST(head_position_predictor, an_exact_model_predicts_the_drive_exactly) {
    const auto &spec = raidtlm::test::cheetah9lp();
    head_position_predictor predictor(spec, {});
    true_drive drive(spec, 0.37, 0.0, 1);
    raidtlm::testbench::random_source rng(2);
    const auto &geo = predictor.geometry();
    double now = reference_pass(predictor, drive, 0.0);
    prediction_statistics stats;
    for (int i = 0; i < 2000; ++i) {
        placement p;
        p.first = geo.to_physical(int64_t(rng.below(uint64_t(spec.block_count))));
        p.last = p.first;
        p.sectors = 1;
        const bool write = i % 3 == 0;
        const double start = now + 0.05;
        const double predicted = predictor.predict(p.first, write, start).access_ms();
        const auto actual = drive.serve(p, write, start);
        ASSERT_NEAR(predicted, actual.access_ms, 1e-6) << i;
        stats.add(predicted, actual.access_ms, drive.mech().period_ms());
        predictor.command_ended_on(p.last);
        now = actual.media_end_ms;
    }
    EXPECT_EQ(stats.misses(), 0u);
    EXPECT_NEAR(stats.mean_error_ms(), 0.0, 1e-9);
    EXPECT_NEAR(stats.demerit_ms(), 0.0, 1e-9);
}

// Write-back: the drive acknowledges a write from its cache and then writes it to the media; a
// read sent meanwhile starts when that media write ends, from where it left the head. Expecting
// the media write predicts the read exactly; without it the firmware's belief is off (asserted
// over many random pairs, so the check can fail).
TEST(head_position_predictor, an_expected_write_back_media_write_predicts_the_next_read) {
    const auto &spec = raidtlm::test::cheetah9lp();
    head_position_predictor expecting(spec, {}), blind(spec, {});
    true_drive drive(spec, 0.37, 0.0, 1);
    reference_pass(blind, drive, reference_pass(expecting, drive, 0.0));
    raidtlm::testbench::random_source rng(4);
    const auto &geo = expecting.geometry();
    auto random_sector = [&] {
        placement p;
        p.first = geo.to_physical(int64_t(rng.below(uint64_t(spec.block_count))));
        p.last = p.first;
        p.sectors = 1;
        return p;
    };
    double now = 0;
    int blind_off = 0;
    const int pairs = 200;
    for (int i = 0; i < pairs; ++i) {
        const placement w = random_sector(), r = random_sector();
        const double write_start = now + 0.05;
        const auto wo = drive.serve(w, true, write_start);
        expecting.expect_media_write(w.first, w.last, 1, write_start);
        ASSERT_NEAR(expecting.busy_until_ms(), wo.media_end_ms, 1e-6) << i;
        // The read reaches the drive while the write is still on its way to the media.
        const double read_start = write_start + 0.5;
        const auto ro = drive.serve(r, false, std::max(read_start, wo.media_end_ms));
        ASSERT_NEAR(expecting.predict(r.first, false, read_start).access_ms(), ro.access_ms, 1e-6) << i;
        if (std::abs(blind.predict(r.first, false, read_start).access_ms() - ro.access_ms) > 0.1) ++blind_off;
        expecting.command_ended_on(r.last);
        blind.command_ended_on(r.last);
        EXPECT_LT(expecting.busy_until_ms(), 0.0);  // the read shows the mechanism was free again
        now = ro.media_end_ms;
    }
    EXPECT_GT(blind_off, pairs * 9 / 10);
}

TEST(head_position_predictor, the_drive_command_overhead_follows_the_spec_and_the_previous_command) {
    const auto &spec = raidtlm::test::cheetah9lp();
    head_position_predictor p(spec, {});
    const auto &o = spec.overheads;
    ASSERT_GE(spec.cache.fast_write_level, 2);  // the spec's drive acknowledges writes from its cache
    EXPECT_DOUBLE_EQ(p.command_overhead_ms(false), (o.per_request_ms + o.read_miss_after_read_ms) * o.time_scale);
    EXPECT_DOUBLE_EQ(p.command_overhead_ms(true), (o.per_request_ms + o.write_hit_after_read_ms) * o.time_scale);
    p.command_done(true);
    EXPECT_DOUBLE_EQ(p.command_overhead_ms(false), (o.per_request_ms + o.read_miss_after_write_ms) * o.time_scale);
    EXPECT_DOUBLE_EQ(p.command_overhead_ms(true), (o.per_request_ms + o.write_hit_after_write_ms) * o.time_scale);
    EXPECT_NE(o.read_miss_after_write_ms, o.read_miss_after_read_ms);
    const physical_address far{spec.cylinders - 1, 0, 0};
    EXPECT_DOUBLE_EQ(p.predict_command(far, false, 1.0).access_ms(),
                     p.predict(far, false, 1.0 + p.command_overhead_ms(false)).access_ms());
}

TEST(head_position_predictor, model_error_scales_and_biases_predicted_positioning) {
    const auto &spec = raidtlm::test::cheetah9lp();
    head_position_predictor::config cfg;
    cfg.error.seek_scale = 1.1;
    cfg.error.seek_bias_ms = 0.05;
    head_position_predictor wrong(spec, cfg);
    head_position_predictor right(spec, {});
    const physical_address far{3000, 4, 10}, same_track{0, 0, 100};
    EXPECT_NEAR(wrong.predict(far, false, 0).positioning_ms, 1.1 * right.predict(far, false, 0).positioning_ms + 0.05, 1e-12);
    EXPECT_EQ(wrong.predict(same_track, false, 0).positioning_ms, 0.0);  // no motion, no error
}

TEST(head_position_predictor, knows_no_phase_until_a_reference_read) {
    const auto &spec = raidtlm::test::cheetah9lp();
    head_position_predictor predictor(spec, {});
    true_drive drive(spec, 0.37, 0.0, 1);
    EXPECT_FALSE(predictor.calibrated());
    EXPECT_GT(std::fabs(predictor.angle_at(10.0) - drive.mech().angle_at(10.0)), 0.1);
    const double now = reference_pass(predictor, drive, 3.0);
    EXPECT_TRUE(predictor.calibrated());
    EXPECT_NEAR(predictor.angle_at(now + 100.0), drive.mech().angle_at(now + 100.0), 1e-9);
}

TEST(head_position_predictor, reference_reads_measure_the_period) {
    const auto &spec = raidtlm::test::cheetah9lp();
    head_position_predictor::config cfg;
    cfg.error.period_ppm = 300;
    head_position_predictor predictor(spec, cfg);
    true_drive drive(spec, 0.81, 0.0, 1);
    const double true_period = drive.mech().period_ms();
    EXPECT_GT(std::fabs(predictor.period_ms() - true_period), 1e-4);
    placement p;
    p.first = p.last = predictor.geometry().to_physical(0);
    p.sectors = 1;
    predictor.observe_reference_read(p.first, drive.serve(p, false, 0).media_end_ms);
    // Spaced out as the period becomes known: 300 ppm is half a revolution after ~1700 turns.
    for (double t : {50.0, 500.0, 5000.0, 50000.0})
        predictor.observe_reference_read(p.first, drive.serve(p, false, t).media_end_ms);
    EXPECT_NEAR(predictor.period_ms(), true_period, 1e-9);
    EXPECT_NEAR(predictor.angle_at(12345.6), drive.mech().angle_at(12345.6), 1e-6);
}

TEST(head_position_predictor, slack_pushes_a_placement_it_would_barely_reach_a_revolution_later) {
    const auto &spec = raidtlm::test::cheetah9lp();
    head_position_predictor::config cfg;
    cfg.slack.initial_sectors = 3;
    head_position_predictor predictor(spec, cfg);
    const auto &geo = predictor.geometry();
    const double sector_ms = predictor.period_ms() / geo.sectors_per_track(0);
    // On the current track (no positioning), 2 sectors ahead of the head: inside a 3-sector slack.
    const double a = predictor.angle_at(0.0);
    const int spt = geo.sectors_per_track(0);
    int slot = 0;
    while (std::fabs(geo.slot_angle(0, 0, slot) - std::fmod(a + 2.0 / spt, 1.0)) > 0.5 / spt) ++slot;
    const auto near = predictor.predict({0, 0, slot}, false, 0.0);
    EXPECT_TRUE(near.within_slack);
    EXPECT_NEAR(near.ranking_ms(), near.access_ms() + predictor.period_ms(), 1e-9);
    EXPECT_LT(near.access_ms(), 3 * sector_ms);
    const auto far = predictor.predict({0, 0, (slot + 10) % spt}, false, 0.0);
    EXPECT_FALSE(far.within_slack);
    EXPECT_EQ(far.ranking_ms(), far.access_ms());
}

TEST(head_position_predictor, feedback_keeps_more_than_99_percent_of_requests_on_target) {
    // 50 us of positioning error (about 2 sectors), a wrong initial phase and period.
    const auto with_loop = run_closed_queue(feedback_config(true, 0), 0.050, 16000);
    EXPECT_LT(with_loop.late.miss_rate(), 0.01);
    EXPECT_GE(with_loop.final_slack, 1.0);
    EXPECT_LT(std::fabs(with_loop.late.mean_error_ms()), 0.005);
    EXPECT_LT(with_loop.late.stddev_error_ms(), 0.02);
    EXPECT_LT(with_loop.late.relative_demerit(), 0.05);
    // Without the loop and with no slack, RSATF keeps choosing placements it barely reaches.
    const auto without = run_closed_queue(feedback_config(false, 0), 0.050, 16000);
    EXPECT_GT(without.late.miss_rate(), 0.015);
    EXPECT_GT(without.late.miss_rate(), 5 * with_loop.late.miss_rate());
    std::printf("miss rate with feedback %.4f (slack %.0f sectors), without %.4f; error mean %.4f ms sd %.4f ms, "
                "demerit %.1f%% of %.3f ms\n",
                with_loop.late.miss_rate(), with_loop.final_slack, without.late.miss_rate(), with_loop.late.mean_error_ms(),
                with_loop.late.stddev_error_ms(), 100 * with_loop.late.relative_demerit(), with_loop.late.mean_access_ms());
}

TEST(prediction_statistics, separates_misses_from_the_error_of_requests_on_target) {
    prediction_statistics s;
    s.add(1.0, 1.01, 6.0);
    s.add(2.0, 1.99, 6.0);
    s.add(1.0, 7.0, 6.0);  // a revolution late: a miss
    EXPECT_EQ(s.count(), 3u);
    EXPECT_EQ(s.misses(), 1u);
    EXPECT_NEAR(s.miss_rate(), 1.0 / 3, 1e-12);
    EXPECT_NEAR(s.mean_error_ms(), 0.0, 1e-12);
    EXPECT_NEAR(s.stddev_error_ms(), std::sqrt(0.0002), 1e-9);
    EXPECT_NEAR(s.mean_access_ms(), 10.0 / 3, 1e-12);
    EXPECT_GT(s.demerit_ms(), 0.0);
    EXPECT_EQ(s.since(2).count(), 1u);
    EXPECT_EQ(s.since(2).misses(), 1u);
}

TEST(rotation_slack, widens_on_misses_and_narrows_after_a_long_run_of_hits) {
    rotation_slack s({2, true, 0.01, 5});
    s.record(true);
    EXPECT_EQ(s.sectors(), 3);
    for (int i = 0; i < 399; ++i) s.record(false);
    EXPECT_EQ(s.sectors(), 3);
    s.record(false);
    EXPECT_EQ(s.sectors(), 2);
    for (int i = 0; i < 10; ++i) s.record(true);
    EXPECT_EQ(s.sectors(), 5);  // capped
    rotation_slack fixed({2, false, 0.01, 5});
    fixed.record(true);
    EXPECT_EQ(fixed.sectors(), 2);
}
