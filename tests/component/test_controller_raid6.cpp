// Component benches for the RAID 6 firmware (raid6_firmware.h): every write path keeps P and Q
// of every row right (checked from the drives' raw contents with pq_parity), read-rotate-write
// too, Q is built by the XOR engine's GF mode, reads survive a lost disk and a MEDIUM ERROR
// (repaired from P or Q), and writes with a disk lost keep the array readable. Real Cheetah 9LP
// drives, 6 disks: 4 data units, P and Q per stripe.
#include <map>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "controller/controller_top.h"
#include "controller/firmware_families.h"
#include "controller/pq_parity.h"
#include "controller/raid6_firmware.h"
#include "controller/raid6_layout.h"

using namespace raidtlm;

namespace {

constexpr uint64_t unit = 16;
constexpr int array_disks = 6;

struct raid6_bench : component_test::controller_bench {
    explicit raid6_bench(const controller::controller_config &config) : controller_bench(array_disks, config) {}
    const controller::raid6_layout &layout() const {
        return dynamic_cast<const controller::raid6_layout &>(*ctl->array_layout());
    }
    const controller::raid6_firmware &firmware() const { return *ctl->firmware_as<controller::raid6_firmware>(); }
    // Rows of stripe s whose stored P or Q differ from the P and Q of its stored data, read raw;
    // `lost`: a disk whose unit is taken from `expect` (the host's data) instead.
    int bad_rows(int64_t s, int lost = -1, const std::map<uint64_t, uint64_t> *expect = nullptr) {
        const auto &l = layout();
        const int n = l.stripe_data_units(s);
        int bad = 0;
        std::vector<std::vector<uint64_t>> member(size_t(n + 2), std::vector<uint64_t>(unit));
        for (int m = 0; m < n + 2; ++m) {
            const controller::unit_place u = m < n ? l.data_unit(s, m) : m == n ? l.parity_unit(s) : l.q_unit(s);
            if (u.disk == lost) {
                if (m >= n) return 0;  // a lost check: nothing to compare
                for (uint64_t r = 0; r < unit; ++r) {
                    const uint64_t lbn = uint64_t(l.stripe_first_lbn(s)) + uint64_t(m) * unit + r;
                    member[size_t(m)][r] = expect->count(lbn) ? expect->at(lbn) : 0;
                }
                continue;
            }
            EXPECT_TRUE(ctl->raw_disk_io(true, u.disk, uint64_t(u.drive_lbn), uint32_t(unit), member[size_t(m)].data()));
        }
        for (uint64_t r = 0; r < unit; ++r) {
            std::vector<uint64_t> row;
            for (int j = 0; j < n; ++j) row.push_back(member[size_t(j)][r]);
            if (controller::pq::p_of(row) != member[size_t(n)][r] || controller::pq::q_of(row) != member[size_t(n + 1)][r])
                ++bad;
        }
        return bad;
    }
};

controller::controller_config raid6_config(bool read_rotate_write = false) {
    controller::controller_config c;
    c.channels = 2;
    c.firmware.stripe_unit_sectors = unit;
    c.firmware.array = controller::array_kind::raid6;
    c.firmware.parity_writes.read_rotate_write = read_rotate_write;
    return c;
}

using writer = component_test::host_writer<raid6_bench>;

// Writes of every path over stripes 0..7 (64 data sectors per stripe).
void write_every_path(writer &w) {
    w.write(5, 3);      // stripe 0, one unit: read-modify-write
    w.write(16, 40);    // stripe 0 units 1-3: reconstruct-write
    w.write(128, 64);   // stripe 2 whole: full-stripe
    w.write(200, 250);  // stripes 3-7: partial, full ..., partial
    w.write(6, 20);     // over earlier data
    w.write(70, 2);     // stripe 1: read-modify-write of unwritten rows
}

}  // namespace

TEST(controller_raid6, writes_of_every_path_read_back_and_keep_p_and_q) {
    raid6_bench b(raid6_config());
    run_clean(b, [&] {
        writer w{b, {}};
        write_every_path(w);
        w.check(0, 500);
        for (int64_t s = 0; s < 8; ++s) EXPECT_EQ(b.bad_rows(s), 0) << "stripe " << s;
    });
    const auto &sw = b.firmware().statistics().stripe_writes;
    EXPECT_GT(sw[size_t(controller::write_path::full_stripe)], 0u);
    EXPECT_GT(sw[size_t(controller::write_path::reconstruct_write)], 0u);
    EXPECT_GT(sw[size_t(controller::write_path::read_modify_write)], 0u);
    // Q on the engine's GF mode (a Q over data unit 0 alone, coefficient g^0 = 1, is an XOR).
    EXPECT_GE(b.ctl->xor_unit().statistics().gf_commands, 5u);
    EXPECT_EQ(b.ctl->xor_unit().statistics().gf_commands, b.firmware().raid6_stats().q_commands);
    EXPECT_EQ(b.ctl->outstanding(), 0);
}

TEST(controller_raid6, a_small_write_reads_and_writes_data_p_and_q) {
    raid6_bench b(raid6_config());
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(3, 2);
    });
    uint64_t reads = 0, writes = 0;
    for (const auto &d : b.drives) {
        reads += d->statistics().reads;
        writes += d->statistics().writes;
    }
    EXPECT_EQ(reads, 3u);
    EXPECT_EQ(writes, 3u);
}

TEST(controller_raid6, read_rotate_write_keeps_p_and_q) {
    raid6_bench b(raid6_config(true));
    run_clean(b, [&] {
        writer w{b, {}};
        write_every_path(w);
        w.check(0, 500);
        for (int64_t s = 0; s < 8; ++s) EXPECT_EQ(b.bad_rows(s), 0) << "stripe " << s;
    });
    EXPECT_GT(b.firmware().kit().queues.statistics().read_rotate_writes, 0u);
}

namespace {

// Everything written, `lost` lost, everything read back, every path written again degraded.
void one_lost_disk(int lost) {
    raid6_bench b(raid6_config());
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(0, 520);
        b.ctl->set_failed_disk(lost);
        w.check(0, 520);
        write_every_path(w);
        w.check(0, 520);
        for (int64_t s = 0; s < 8; ++s) EXPECT_EQ(b.bad_rows(s, lost, &w.expect), 0) << "stripe " << s;
    });
    EXPECT_GT(b.firmware().statistics().rebuilt_reads, 0u);
    EXPECT_GT(b.firmware().statistics().degraded_stripe_writes, 0u);
}

}  // namespace

TEST(controller_raid6, reads_and_writes_with_disk_0_lost_keep_the_array_readable) { one_lost_disk(0); }
TEST(controller_raid6, reads_and_writes_with_disk_4_lost_keep_the_array_readable) { one_lost_disk(4); }

TEST(controller_raid6, a_medium_error_is_repaired_from_the_stripe) {
    raid6_bench b(raid6_config());
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(0, 256);
        const auto &l = b.layout();
        const controller::unit_place u = l.data_unit(1, 2);  // logical 64 + 32 ..
        b.drives[size_t(u.disk)]->inject_media_error(u.drive_lbn + 3, 4);
        w.check(96, 16);  // rebuilt and rewritten
        w.check(96, 16);  // read directly now
        // A write over a stripe whose read meets a MEDIUM ERROR repairs the rows too.
        const controller::unit_place v = l.parity_unit(2);
        b.drives[size_t(v.disk)]->inject_media_error(v.drive_lbn + 2, 2);  // the rows the write reads
        w.write(130, 2);
        w.check(128, 64);
        EXPECT_EQ(b.bad_rows(1), 0);
        EXPECT_EQ(b.bad_rows(2), 0);
    });
    EXPECT_EQ(b.firmware().statistics().media_repairs, 2u);
}

// controller.old_data cached (the parity logging paper's "data cache hit"): the data disks only
// write (their old tokens taken as cached), P and Q still read-rotate-write; both stay right.
TEST(controller_raid6, read_rotate_write_with_cached_old_data_keeps_p_and_q) {
    controller::controller_config c = raid6_config(true);
    c.firmware.old_data_cached = true;
    raid6_bench b(c);
    run_clean(b, [&] {
        writer w{b, {}};
        write_every_path(w);
        w.check(0, 500);
        for (int64_t s = 0; s < 8; ++s) EXPECT_EQ(b.bad_rows(s), 0) << "stripe " << s;
    });
    EXPECT_GT(b.firmware().kit().queues.statistics().read_rotate_writes, 0u);
}
