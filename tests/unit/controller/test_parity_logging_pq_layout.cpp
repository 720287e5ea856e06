// Parity logging over P+Q and P+Q+R (parity_logging_params::checks = 2, 3; the parity logging
// paper's Section 9 at f = 2, 3): the layout's RAID 6 (and triple-check) big rows, the log copies
// on distinct disks, each member's check images lying together, Q's and R's records applied with
// g^j and g^2j; one check stays as before.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <utility>

#include "controller/families/parity_logging/parity_log_records.h"
#include "controller/layouts/parity_logging_layout.h"
#include "controller/layouts/pq_parity.h"
#include "rtl_models/xor/gf256.h"

using namespace raidtlm::controller;

namespace {

// The paper's array (Fig 12): 22 IBM 0661 disks, 949 cylinders x 14 heads x 48 sectors, 2 KB unit,
// L = 6 (Section 8), 100 regions (reproduce_parity_logging_failures).
parity_logging_params paper_pq() {
    parity_logging_params p;
    p.track_sectors = 48;
    p.unit_sectors = 4;
    p.log_stripes = 6;
    p.regions_per_disk = 100;
    p.checks = 2;
    return p;
}
const std::vector<int64_t> ibm_disks(22, int64_t(949) * 14 * 48);

}  // namespace

TEST(parity_logging_pq_layout, two_copies_of_l_sublogs_leave_n_minus_2l_members) {
    const parity_logging_layout l(ibm_disks, paper_pq());
    EXPECT_EQ(l.checks(), 2);
    EXPECT_EQ(l.log_disks(), 12);
    EXPECT_EQ(l.members(), 10);
    EXPECT_EQ(l.data_columns(), 8);
    EXPECT_EQ(l.parity_sectors(), 2 * 10 * l.parity_unit_sectors());
    EXPECT_EQ(l.region_data_sectors(), 10 * 8 * l.parity_unit_sectors());
    for (int r = 0; r < l.regions(); ++r) {
        std::set<int> logs;
        for (int copy = 0; copy < 2; ++copy)
            for (int i = 0; i < l.log_stripes(); ++i) {
                const region_extent e = l.sublog_extent(r, i, copy);
                EXPECT_EQ(l.member_of(r, e.disk), -1);
                logs.insert(e.disk);
            }
        EXPECT_EQ(logs.size(), 12u) << "region " << r;  // every copy of every sublog on a disk of its own
    }
}

TEST(parity_logging_pq_layout, refuses_arrays_too_small_for_the_log_copies) {
    parity_logging_params p = paper_pq();
    p.log_stripes = 10;  // 20 log disks: 2 members, no room for P, Q and a datum
    try {
        parity_logging_layout l(ibm_disks, p);
        FAIL() << "laid out " << l.describe();
    } catch (const layout_error &e) {
        EXPECT_NE(std::string(e.what()).find("at least 23 disks"), std::string::npos) << e.what();
    }
    p.log_stripes = 9;  // 18 log disks, 4 members: P, Q and 2 data columns
    EXPECT_EQ(parity_logging_layout(ibm_disks, p).data_columns(), 2);
    p.checks = 3;  // 27 log disks
    EXPECT_THROW(parity_logging_layout(ibm_disks, p), layout_error);
    p.log_stripes = 7;  // 21 log disks, 1 member: no room for P, Q, R and a datum
    try {
        parity_logging_layout l(ibm_disks, p);
        FAIL() << "laid out " << l.describe();
    } catch (const layout_error &e) {
        EXPECT_NE(std::string(e.what()).find("at least 25 disks (3 copies of the log on distinct disks, then P, Q, R "
                                             "and a data member)"),
                  std::string::npos)
            << e.what();
    }
    p.checks = 4;
    p.log_stripes = 1;
    EXPECT_THROW(parity_logging_layout(ibm_disks, p), layout_error);
}

// Three checks: 3 copies of the L sublogs on 3L distinct non-member disks. At the paper's L = 6
// that leaves 4 members: P, Q, R and one data column (every coefficient g^0 = 1: each check is a
// copy of the datum); at L = 2, 16 members and 13 data columns.
TEST(parity_logging_pq_layout, three_copies_of_l_sublogs_leave_n_minus_3l_members) {
    parity_logging_params p = paper_pq();
    p.checks = 3;
    for (int L : {6, 2}) {
        p.log_stripes = L;
        const parity_logging_layout l(ibm_disks, p);
        EXPECT_EQ(l.log_disks(), 3 * L);
        EXPECT_EQ(l.members(), 22 - 3 * L);
        EXPECT_EQ(l.data_columns(), 22 - 3 * L - 3);
        EXPECT_EQ(l.parity_sectors(), 3 * l.members() * l.parity_unit_sectors());
        EXPECT_EQ(l.parity_extent(0, 0).sectors, 3 * l.parity_unit_sectors());
        EXPECT_NE(l.describe().find("over P+Q+R"), std::string::npos) << l.describe();
        for (int r = 0; r < l.regions(); ++r) {
            std::set<int> logs;
            for (int copy = 0; copy < 3; ++copy)
                for (int i = 0; i < L; ++i) {
                    const region_extent e = l.sublog_extent(r, i, copy);
                    EXPECT_EQ(l.member_of(r, e.disk), -1);
                    logs.insert(e.disk);
                }
            EXPECT_EQ(logs.size(), size_t(3 * L)) << "region " << r;
        }
    }
}

// Every logical sector of a region has one place on a member; its row's C checks are on C other
// members, at the row's offset inside the member's check run (P image, then Q's, then R's), and
// the image index names that place; no two sectors, data or check, share a drive sector.
void expect_data_and_checks_distinct_and_together(int C, int log_stripes) {
    parity_logging_params p = paper_pq();
    p.track_sectors = 4;  // small regions: every sector checked
    p.regions_per_disk = 2000;
    p.checks = C;
    p.log_stripes = log_stripes;
    const parity_logging_layout l(std::vector<int64_t>(22, 400000), p);
    ASSERT_EQ(l.parity_unit_sectors(), 4 * l.parity_tracks());
    std::map<std::pair<int, int64_t>, int64_t> used;  // (disk, drive LBN) -> owner
    std::map<std::pair<int, int64_t>, int64_t> checks;
    std::set<int64_t> images;
    for (int region : {0, 1, 7}) {
        for (int64_t x = 0; x < l.region_data_sectors(); ++x) {
            const int64_t lbn = int64_t(region) * l.region_data_sectors() + x;
            const region_extent d = l.data_location(lbn);
            EXPECT_TRUE(used.emplace(std::make_pair(d.disk, d.drive_lbn), lbn).second) << "lbn " << lbn;
            const parity_location pl = l.check_of(lbn, 0);
            EXPECT_LT(pl.column, l.data_columns());
            EXPECT_EQ(l.parity_of(lbn).image_index, pl.image_index);
            std::set<int> disks{d.disk};
            for (int k = 0; k < C; ++k) {
                const parity_location c = l.check_of(lbn, k);
                EXPECT_TRUE(disks.insert(c.disk).second) << "lbn " << lbn << " check " << k;
                EXPECT_EQ(c.column, pl.column);
                const int m = l.member_of(region, c.disk);
                ASSERT_GE(m, 0);
                const region_extent run = l.parity_extent(region, m);
                EXPECT_EQ(run.sectors, C * l.parity_unit_sectors());
                ASSERT_GE(c.drive_lbn, run.drive_lbn);
                ASSERT_LT(c.drive_lbn, run.drive_lbn + run.sectors);
                // Check k in the run's k-th part; the image index follows the run.
                EXPECT_EQ((c.drive_lbn - run.drive_lbn) / l.parity_unit_sectors(), k);
                EXPECT_EQ(c.image_index, l.check_run_image_index(m) + (c.drive_lbn - run.drive_lbn));
                checks[{c.disk, c.drive_lbn}] = c.image_index;
                images.insert(int64_t(region) * l.parity_sectors() + c.image_index);
            }
        }
    }
    for (const auto &[place, image] : checks) EXPECT_EQ(used.count(place), 0u) << "check over data";
    // The region's check image is covered exactly: C checks x M members x P tracks each.
    EXPECT_EQ(images.size(), 3u * size_t(l.parity_sectors()));
}

TEST(parity_logging_pq_layout, data_p_and_q_are_distinct_and_each_member_s_checks_lie_together) {
    expect_data_and_checks_distinct_and_together(2, 6);
}

TEST(parity_logging_pq_layout, data_p_q_and_r_are_distinct_and_each_member_s_checks_lie_together) {
    expect_data_and_checks_distinct_and_together(3, 6);  // 4 members, 1 data column
    expect_data_and_checks_distinct_and_together(3, 2);  // 16 members, 13 data columns
}

// An update record with a Q index updates Q by g^j (old ^ new), as raid6's read-modify-write.
TEST(parity_logging_pq_layout, expanded_records_update_p_and_q_as_a_read_modify_write) {
    const std::vector<uint64_t> before{0x0102030405060708ull, 0x1111111111111111ull, 0xa5a5a5a5a5a5a5a5ull};
    std::vector<uint64_t> after = before;
    after[2] = 0x0f0e0d0c0b0a0908ull;
    std::vector<uint64_t> checks{pq::p_of(before), pq::q_of(before)};  // P at 0, Q at 1
    log_record r{record_kind::update, 4, 0, before[2] ^ after[2]};
    r.check_index[0] = 1;
    r.check_coefficient[0] = pq::q_coefficient(2);
    const std::vector<log_record> expanded = expand_checks({r});
    ASSERT_EQ(expanded.size(), 2u);
    EXPECT_EQ(expanded[1].sequence, 4u);
    apply_in_order(checks, expanded);
    EXPECT_EQ(checks[0], pq::p_of(after));
    EXPECT_EQ(checks[1], pq::q_of(after));
    // A P-only record (one check) stays one record.
    EXPECT_EQ(expand_checks({log_record{record_kind::update, 1, 0, 5}}).size(), 1u);
}

// An update record with Q and R indices updates Q by g^j (old ^ new) and R by g^2j (old ^ new).
TEST(parity_logging_pq_layout, expanded_records_update_p_q_and_r_as_a_read_modify_write) {
    namespace gf = raidtlm::rtl_models::gf256;
    const std::vector<uint64_t> before{0x0102030405060708ull, 0x1111111111111111ull, 0xa5a5a5a5a5a5a5a5ull,
                                       0x0badf00d0badf00dull};
    std::vector<uint64_t> after = before;
    after[3] = 0x0f0e0d0c0b0a0908ull;
    auto check = [](int k, const std::vector<uint64_t> &data) {
        uint64_t c = 0;
        for (size_t j = 0; j < data.size(); ++j) c ^= gf::scale_token(pq::check_coefficient(k, int(j)), data[j]);
        return c;
    };
    std::vector<uint64_t> checks{check(0, before), check(1, before), check(2, before)};  // P, Q, R at 0, 1, 2
    EXPECT_EQ(checks[0], pq::p_of(before));
    EXPECT_EQ(checks[1], pq::q_of(before));
    log_record r{record_kind::update, 9, 0, before[3] ^ after[3]};
    for (int k = 1; k < 3; ++k) {
        r.check_index[size_t(k - 1)] = k;
        r.check_coefficient[size_t(k - 1)] = pq::check_coefficient(k, 3);
    }
    const std::vector<log_record> expanded = expand_checks({r});
    ASSERT_EQ(expanded.size(), 3u);
    for (const log_record &x : expanded) EXPECT_EQ(x.sequence, 9u);
    apply_in_order(checks, expanded);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(checks[size_t(k)], check(k, after)) << "check " << k;
}

// The lost-row accounting (parity_logging_lost_sectors.cpp) goes from a check image sector named
// by a log record back to its row, and from a row's data column to its logical sector: the
// inverses of check_of and data_location, at every number of checks.
TEST(parity_logging_pq_layout, a_rows_logical_sectors_and_check_image_sectors_map_back_to_it) {
    for (int checks = 1; checks <= 3; ++checks) {
        parity_logging_params p;
        p.track_sectors = 16;
        p.unit_sectors = 4;
        p.log_stripes = 2;
        p.regions_per_disk = 3;
        p.log_to_parity = 0.25;
        p.checks = checks;
        const parity_logging_layout l(std::vector<int64_t>(6 + 2 * checks, 4096), p);
        ASSERT_GT(l.capacity_sectors(), 0);
        for (int64_t lbn = 0; lbn < l.capacity_sectors(); ++lbn) {
            const parity_location first = l.check_of(lbn, 0);
            for (int k = 0; k < checks; ++k) {
                const parity_location c = l.check_of(lbn, k);
                const parity_logging_layout::image_row row = l.row_of_image(c.image_index);
                // Every check of the row names the same big row and offset, and from them the
                // sector itself comes back.
                ASSERT_EQ(l.lbn_at(c.region, row.q, row.offset, first.column), lbn) << "checks " << checks << " k " << k;
            }
        }
    }
}
