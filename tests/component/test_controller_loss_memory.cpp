// What a run keeps about data it lost stays bounded by the array, not by the requests nor by the
// units lost (EXPERIMENTS.md 19.11): a RAID 5 that lost two disks keeps its lost stripes as one
// run, stats.json lists a bounded number of lost ranges with their exact count and sectors, and
// the scoreboard keeps nothing per failed write of the workload (tokens named by request id).
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "controller/platform/controller_top.h"
#include "controller/kit/data_token.h"
#include "controller/platform/firmware_families.h"
#include "controller/kit/lost_range_report.h"
#include "controller/layouts/parity_stripe_layout.h"
#include "controller/families/raid/raid_firmware.h"

using namespace raidtlm;
using component_test::controller_bench;

namespace {

constexpr uint64_t unit_sectors = 16;
// 64 Ki blocks a member: ~4,000 stripes, so the lost units form more ranges than the report lists.
constexpr uint64_t member_blocks = 64 * 1024;

// A host request as the workload makes it: tokens make_token(lbn, id).
tlm::tlm_response_status send_named(controller_bench &b, bool read, uint64_t lbn, uint32_t n, int64_t id) {
    std::vector<uint64_t> t(n);
    if (!read)
        for (uint32_t i = 0; i < n; ++i) t[i] = controller::make_token(int64_t(lbn + i), uint64_t(id));
    return b.host.send(read, lbn, n, t.data(), id);
}

}  // namespace

TEST(controller_loss_memory, raid5_two_losses_keep_bounded_bookkeeping_of_the_loss_and_the_failed_writes) {
    controller::controller_config config;
    config.firmware.array = controller::array_kind::raid5;
    config.firmware.stripe_unit_sectors = unit_sectors;
    controller_bench b(4, config, component_test::cheetah(), member_blocks);
    const uint64_t capacity = b.ctl->capacity_sectors();
    int64_t id = 0;
    int failed_writes = 0, failed_reads = 0, ok_writes = 0;
    const int requests = 600;
    component_test::run_clean(b, [&] {
        // Some data, then two members lost: every stripe has lost two units.
        for (uint64_t lbn = 0; lbn < 64 * unit_sectors; lbn += 8)
            ASSERT_EQ(send_named(b, false, lbn, 8, id++), tlm::TLM_OK_RESPONSE);
        b.ctl->fail_member(1);
        b.ctl->fail_member(2);
        // Writes and reads over the whole array, a hot region among them (its sectors see many
        // failed writes): all fail.
        for (int k = 0; k < requests; ++k) {
            const uint64_t lbn = k % 3 == 0 ? uint64_t(k % 8) * 8 : (uint64_t(k) * 7919 * 8) % (capacity - 8);
            const bool read = k % 2 == 1;
            const bool ok = send_named(b, read, lbn, 8, id++) == tlm::TLM_OK_RESPONSE;
            if (ok) ++ok_writes;
            else ++(read ? failed_reads : failed_writes);
        }
    });
    EXPECT_EQ(ok_writes, 0);
    EXPECT_EQ(failed_writes + failed_reads, requests);

    // The scoreboard: nothing kept per failed write (before: 8 tokens each).
    EXPECT_EQ(b.ctl->integrity().writes_pending(), 0u);
    EXPECT_EQ(b.ctl->integrity().watermarks_kept(), 0u);

    // The firmware: the lost stripes as one run, nothing noted range by range.
    const auto &fw = *b.ctl->firmware_as<controller::raid_firmware>();
    const auto &layout = dynamic_cast<const controller::parity_stripe_layout &>(*fw.array_layout());
    const int64_t stripes = layout.stripe_of(int64_t(capacity) - 1) + 1;
    EXPECT_EQ(fw.lost_stripes().stripes(), stripes);
    EXPECT_EQ(fw.lost_stripes().runs(), 1u);
    EXPECT_TRUE(fw.lost_sectors().empty());

    // stats.json: the exact sectors and range count, the list bounded.
    int64_t expected_sectors = 0;
    for (int64_t s = 0; s < stripes; ++s)
        for (int d : {1, 2}) expected_sectors += layout.unit_on_disk(s, d) >= 0 ? int64_t(unit_sectors) : 0;
    const auto merged = fw.lost_ranges();
    int64_t listed_sectors = 0;
    for (const auto &[first, n] : merged) listed_sectors += n;
    EXPECT_EQ(listed_sectors, expected_sectors);
    nlohmann::json out;
    b.ctl->report_firmware(out);
    EXPECT_EQ(out["lost_sectors"].get<int64_t>(), expected_sectors);
    ASSERT_GT(merged.size(), controller::lost_range_report::max_listed) << "the array is too small to show the bound";
    EXPECT_EQ(out["lost_range_count"].get<uint64_t>(), merged.size());
    ASSERT_EQ(out["lost_ranges"].size(), controller::lost_range_report::max_listed);
    EXPECT_EQ(out["lost_ranges_left_out"].get<uint64_t>(), merged.size() - controller::lost_range_report::max_listed);
    for (size_t i = 0; i < out["lost_ranges"].size(); ++i) {
        EXPECT_EQ(out["lost_ranges"][i][0].get<int64_t>(), merged[i].first);
        EXPECT_EQ(out["lost_ranges"][i][1].get<int64_t>(), merged[i].second);
    }
}
