// AdaptRaid5 (paper 003, Cortes and Labarta): the block distribution of section 4.1, the tables and
// formulas of section 4.2, and the layout built on them.
//
// The paper's Figures 1-4 are pictures absent from its text; their example is rebuilt from what the
// text says of them: five disks, the smallest (disk 4) holding 2 blocks, disk 3 six, the largest
// one block more than the rest. Each figure's test checks every statement the text makes about it.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "controller/layouts/adaptraid5_layout.h"
#include "layout_error_text.h"

using namespace raidtlm::controller;

namespace {

const std::vector<int64_t> figure_disks{7, 6, 6, 6, 2};

std::string cell(const adaptraid5_pattern &p, int disk, int64_t pos) {
    for (int s = 0; s < p.stripes(); ++s) {
        const pattern_stripe &st = p.stripe(s);
        if (st.parity.disk == disk && st.parity.pos == pos) return "P" + std::to_string(s);
        for (int j = 0; j < st.data_blocks; ++j)
            if (st.data[size_t(j)].disk == disk && st.data[size_t(j)].pos == pos)
                return std::to_string(st.first_data_block + j) + "-" + std::to_string(s);
    }
    return ".";
}

int width(const adaptraid5_pattern &p, int s) { return p.stripe(s).data_blocks + 1; }

}  // namespace

TEST(adaptraid5_pattern, figure_1_intuitive_version) {
    const adaptraid5_pattern p(figure_disks, 0, {false, false, false});
    // All five disks while the smallest has room, then the four others.
    ASSERT_EQ(p.stripes(), 6);
    for (int s = 0; s < 2; ++s) EXPECT_EQ(width(p, s), 5);
    for (int s = 2; s < 6; ++s) EXPECT_EQ(width(p, s), 4);
    EXPECT_EQ(cell(p, 0, 2), "8-2");  // "8-2 represents data block 8, which is in stripe 2"
    // Parity where a regular array as wide as the stripe puts it (left-symmetric).
    EXPECT_EQ(cell(p, 4, 0), "P0");
    EXPECT_EQ(cell(p, 3, 1), "P1");
    // The last block of the largest disk is unused: a stripe needs two blocks.
    EXPECT_EQ(cell(p, 0, 6), ".");
    EXPECT_EQ(p.blocks_per_disk(), (std::vector<int64_t>{6, 6, 6, 6, 2}));
}

TEST(adaptraid5_pattern, figure_2_stripe_widths_divide_the_reference_stripe) {
    const adaptraid5_pattern p(figure_disks, 0, {true, false, false});
    EXPECT_EQ(p.reference_data_blocks(), 4);
    EXPECT_EQ(width(p, 2), 3);  // "stripe number 2 becomes a three-block stripe"
    EXPECT_EQ(cell(p, 3, 1), "P1");
    for (int s = 0; s < p.stripes(); ++s) EXPECT_EQ(4 % p.stripe(s).data_blocks, 0) << "stripe " << s;
}

TEST(adaptraid5_pattern, figure_3_each_stripe_starts_one_disk_to_the_left) {
    const adaptraid5_pattern p(figure_disks, 0, {true, false, false});
    // Three-block stripes over four disks: stripes 2 to 5, each on its own row.
    ASSERT_EQ(p.stripes(), 6);
    const std::vector<int> first_disk{0, 3, 2, 1};
    for (int s = 2; s < 6; ++s) {
        EXPECT_EQ(width(p, s), 3);
        EXPECT_EQ(p.stripe(s).data[0].disk, first_disk[size_t(s - 2)]) << "stripe " << s;
        EXPECT_EQ(p.stripe(s).data[0].pos, s) << "stripe " << s;
    }
    // Rotation alone leaves holes: the unused blocks are as many as before.
    int empty = 0;
    for (int d = 0; d < 4; ++d)
        for (int64_t pos = 0; pos < figure_disks[size_t(d)]; ++pos) empty += cell(p, d, pos) == ".";
    EXPECT_EQ(empty, 5);
}

TEST(adaptraid5_pattern, figure_4_pushing_blocks_fills_every_hole) {
    const adaptraid5_pattern rows(figure_disks, 0, {true, false, false});
    const adaptraid5_pattern pushed(figure_disks, 0, {true, true, false});
    for (int d = 0; d < 5; ++d)
        for (int64_t pos = 0; pos < figure_disks[size_t(d)]; ++pos)
            EXPECT_NE(cell(pushed, d, pos), ".") << "disk " << d << " position " << pos;
    // At least one more three-block stripe (2 data blocks and a parity) than with holes.
    int three_wide_rows = 0, three_wide_pushed = 0;
    for (int s = 0; s < rows.stripes(); ++s) three_wide_rows += width(rows, s) == 3;
    for (int s = 0; s < pushed.stripes(); ++s) three_wide_pushed += width(pushed, s) == 3;
    EXPECT_EQ(three_wide_pushed, three_wide_rows + 1);
    EXPECT_GT(pushed.data_blocks(), rows.data_blocks());
}

TEST(adaptraid5_pattern, figure_5_pattern_of_six_stripes) {
    const adaptraid5_pattern p = adaptraid5_pattern::from_utilisation({1, 1, 1, 1, 0.4}, 6);
    ASSERT_EQ(p.stripes(), 6);
    int five = 0, three = 0;
    for (int s = 0; s < 6; ++s) (width(p, s) == 5 ? five : three) += 1;
    EXPECT_EQ(five, 2);
    EXPECT_EQ(three, 4);
    EXPECT_EQ(p.blocks_per_disk(), (std::vector<int64_t>{5, 5, 5, 5, 2}));
    EXPECT_EQ(p.data_blocks(), 16);
    EXPECT_EQ(p.picture(),
              "0-0 1-0 2-0 3-0 P0\n"
              "5-1 6-1 7-1 P1 4-1\n"
              "8-2 9-2 P2 10-3 .\n"
              "11-3 P3 12-4 13-4 .\n"
              "P4 14-5 15-5 P5 .\n");
    // The second repetition starts on a full stripe: block 16 is data unit 0 of a five-wide stripe,
    // on the row after the pattern on every disk.
    std::vector<int> disks_of_16_to_19;
    for (int64_t b = 16; b < 20; ++b) {
        EXPECT_EQ(p.pos_of(b), p.blocks_per_disk()[size_t(p.disk_of(b))]) << "block " << b;
        disks_of_16_to_19.push_back(p.disk_of(b));
    }
    EXPECT_EQ(disks_of_16_to_19, (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(p.disk_of(20), 4);  // 4-1 again, one pattern (2 blocks) further down disk 4
    EXPECT_EQ(p.pos_of(20), 1 + 2);
    EXPECT_EQ(p.disk_of(16 * 10 + 12), 2);  // 12-4 of repetition 10: 10 patterns of 5 blocks down
    EXPECT_EQ(p.pos_of(16 * 10 + 12), 3 + 10 * 5);
}

TEST(adaptraid5_pattern, table_sizes_of_the_papers_nine_disk_array) {
    const adaptraid5_pattern p = adaptraid5_pattern::from_utilisation(std::vector<double>(9, 1.0), 19);
    EXPECT_EQ(p.location().size(), 152u);
    EXPECT_EQ(p.parity().size(), 19u);
    EXPECT_EQ(p.blocks_per_disk().size(), 9u);
}

TEST(adaptraid5_pattern, heterogeneous_nine_disks_keep_whole_reference_stripes) {
    // Section 5's array: UF 1 for the fast disks, 0.46 for the slow, SIP 19.
    for (int fast = 1; fast < 9; ++fast) {
        std::vector<double> uf(9, 0.46);
        for (int d = 0; d < fast; ++d) uf[size_t(d)] = 1.0;
        const adaptraid5_pattern p = adaptraid5_pattern::from_utilisation(uf, 19);
        EXPECT_EQ(p.data_blocks() % 8, 0) << fast << " fast disks";
        // The tables never outgrow the sizes the paper allocates: 152 / 19 / 9 entries.
        EXPECT_LE(p.location().size(), 152u);
        EXPECT_LE(p.stripes(), 19);
        // A slow disk holds floor(0.46 * 19) = 8 blocks at most, a fast one more.
        EXPECT_LE(p.blocks_per_disk()[8], 8);
        if (fast >= 2) {
            EXPECT_GT(p.blocks_per_disk()[0], p.blocks_per_disk()[8]) << fast << " fast disks";
        }
    }
}

TEST(adaptraid5_pattern, every_block_has_one_place_and_every_parity_its_stripe) {
    std::mt19937 rng(20260516);
    for (int trial = 0; trial < 300; ++trial) {
        const int disks = std::uniform_int_distribution<int>(2, 12)(rng);
        std::vector<double> uf(static_cast<size_t>(disks));
        double smallest = 1;
        for (double &u : uf) smallest = std::min(smallest, u = std::uniform_real_distribution<double>(0.05, 1.0)(rng));
        if (trial % 3 == 0) uf[size_t(trial % disks)] = 1.0;
        const int min_sip = int(std::ceil(1.0 / smallest));
        const int sip = std::uniform_int_distribution<int>(min_sip, min_sip + 40)(rng);
        const adaptraid5_pattern p = adaptraid5_pattern::from_utilisation(uf, sip);
        SCOPED_TRACE(p.picture());
        ASSERT_GE(p.stripes(), 1);
        EXPECT_LE(p.stripes(), sip);
        EXPECT_EQ(p.data_blocks() % (disks - 1), 0);
        std::set<std::pair<int, int64_t>> taken;
        auto take = [&](const pattern_place &at) {
            EXPECT_LT(at.pos, p.blocks_per_disk()[size_t(at.disk)]);
            EXPECT_LE(p.blocks_per_disk()[size_t(at.disk)], int64_t(std::floor(uf[size_t(at.disk)] * sip + 1e-9)));
            EXPECT_TRUE(taken.insert({at.disk, at.pos}).second) << "disk " << at.disk << " pos " << at.pos;
        };
        for (int s = 0; s < p.stripes(); ++s) {
            const pattern_stripe &st = p.stripe(s);
            EXPECT_EQ((disks - 1) % st.data_blocks, 0);
            std::set<int> on{st.parity.disk};
            for (const pattern_place &d : st.data) EXPECT_TRUE(on.insert(d.disk).second) << "stripe " << s;
            for (int j = 0; j < st.data_blocks; ++j) {
                EXPECT_EQ(p.stripe_of_block(st.first_data_block + j), s);
                EXPECT_EQ(p.location()[size_t(st.first_data_block + j)].disk, st.data[size_t(j)].disk);
                take(st.data[size_t(j)]);
            }
            take(st.parity);
        }
        for (int d = 0; d < disks; ++d)
            for (int64_t pos = 0; pos < p.blocks_per_disk()[size_t(d)]; ++pos) {
                const pattern_slot at = p.slot(d, pos);
                ASSERT_GE(at.stripe, 0);
                const pattern_place back =
                    at.unit == pattern_slot::parity_unit ? p.stripe(at.stripe).parity : p.stripe(at.stripe).data[size_t(at.unit)];
                EXPECT_EQ(back.disk, d);
                EXPECT_EQ(back.pos, pos);
            }
        // Pushed blocks leave no hole: every disk's share of the pattern is full.
        int64_t blocks = 0;
        for (int64_t n : p.blocks_per_disk()) blocks += n;
        EXPECT_EQ(int64_t(taken.size()), blocks);
    }
}

TEST(adaptraid5_layout, maps_through_the_pattern_tables) {
    const int64_t unit = 8;
    // Disk 4 holds 2 blocks per pattern: 10 repetitions of 16 data units.
    const adaptraid5_layout l({unit * 60, unit * 60, unit * 60, unit * 55, unit * 21}, unit, {1, 1, 1, 1, 0.4}, 6);
    EXPECT_EQ(l.repetitions(), 10);
    EXPECT_EQ(l.capacity_sectors(), 10 * 16 * unit);
    EXPECT_EQ(l.stripes(), 60);
    EXPECT_EQ(l.reference_stripe_data_sectors(), 4 * unit);
    std::vector<chunk> out;
    l.map(20 * unit + 3, 2, out);  // block 20: 4-1 of the second repetition
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].replicas[0].disk, 4);
    EXPECT_EQ(out[0].replicas[0].extents[0].drive_lbn, 3 * unit + 3);
    EXPECT_EQ(l.stripe_of(20 * unit), 7);
    EXPECT_EQ(l.stripe_of(16 * unit), 6);
    EXPECT_EQ(l.stripe_first_lbn(6), 16 * unit);
    EXPECT_EQ(l.stripe_data_units(6), 4);
    EXPECT_EQ(l.stripe_data_units(8), 2);
    EXPECT_EQ(l.parity_unit(7).disk, 3);
    EXPECT_EQ(l.parity_unit(7).drive_lbn, 6 * unit);
    EXPECT_EQ(l.unit_at(4, 20 * unit).stripe, -1);  // past the 10 repetitions disk 4 holds
    EXPECT_EQ(l.unit_at(0, 55 * unit).stripe, -1);  // the unused end of a larger disk
    EXPECT_EQ(l.describe(),
              "AdaptRaid5, 5 disks, UF [1 1 1 1 0.4], SIP 6 (6 stripes, 16 data units per pattern), 8-sector stripe unit");
    EXPECT_THROW(l.map(l.capacity_sectors() - 1, 2, out), std::out_of_range);
}

TEST(adaptraid5_layout, every_sector_in_one_place_and_each_stripe_with_its_parity) {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 40; ++trial) {
        const int disks = std::uniform_int_distribution<int>(2, 9)(rng);
        std::vector<double> uf(static_cast<size_t>(disks));
        for (double &u : uf) u = std::uniform_real_distribution<double>(0.2, 1.0)(rng);
        const int sip = std::uniform_int_distribution<int>(5, 25)(rng);
        const int64_t unit = std::uniform_int_distribution<int64_t>(1, 16)(rng);
        std::vector<int64_t> sizes;
        for (int d = 0; d < disks; ++d) sizes.push_back(unit * std::uniform_int_distribution<int64_t>(60, 200)(rng) + 3);
        const adaptraid5_layout l(sizes, unit, uf, sip);
        SCOPED_TRACE(l.describe());
        std::map<std::pair<int, int64_t>, int64_t> owner;  // (disk, drive unit) -> logical unit, or -1 - stripe
        std::vector<chunk> out;
        l.map(0, int32_t(l.capacity_sectors()), out);
        ASSERT_EQ(int64_t(out.size()), l.capacity_sectors() / unit);
        for (const chunk &c : out) {
            const disk_extent &e = c.replicas[0].extents[0];
            ASSERT_EQ(c.sectors, unit);
            ASSERT_EQ(e.drive_lbn % unit, 0);
            EXPECT_LE(e.drive_lbn + unit, sizes[size_t(c.replicas[0].disk)]);
            EXPECT_TRUE(owner.insert({{c.replicas[0].disk, e.drive_lbn}, c.lbn / unit}).second);
            const pattern_slot back = l.unit_at(c.replicas[0].disk, e.drive_lbn + unit - 1);
            EXPECT_EQ(back.stripe, l.stripe_of(c.lbn));
            EXPECT_EQ(l.stripe_first_lbn(back.stripe) + back.unit * unit, c.lbn);
        }
        for (int64_t s = 0; s < l.stripes(); ++s) {
            const int64_t first = l.stripe_first_lbn(s);
            std::set<int> on;
            for (int j = 0; j < l.stripe_data_units(s); ++j) {
                const int64_t lbn = first + j * unit;
                EXPECT_EQ(l.stripe_of(lbn), s);
                const unit_place u = l.data_unit(s, j);
                EXPECT_EQ(owner.at({u.disk, u.drive_lbn}), lbn / unit);
                on.insert(u.disk);
            }
            const unit_place par = l.parity_unit(s);
            EXPECT_TRUE(on.insert(par.disk).second) << "stripe " << s;
            EXPECT_TRUE(owner.insert({{par.disk, par.drive_lbn}, -1 - s}).second) << "stripe " << s;
            EXPECT_EQ(l.unit_at(par.disk, par.drive_lbn).stripe, s);
            EXPECT_EQ(l.unit_at(par.disk, par.drive_lbn).unit, pattern_slot::parity_unit);
            if (s + 1 < l.stripes()) {
                EXPECT_EQ(l.stripe_first_lbn(s + 1), first + l.stripe_data_sectors(s));
            }
        }
    }
}

TEST(adaptraid5_layout, shapes_that_cannot_be_built_are_one_line_errors) {
    const auto message = [](auto make) { return layout_error_text(make); };
    const std::vector<int64_t> five(5, 1000);
    EXPECT_EQ(message([&] { adaptraid5_layout({1000}, 8, {1.0}, 4); }),
              "AdaptRaid5 needs at least 2 disks; the array has 1");
    EXPECT_NE(message([&] { adaptraid5_layout(five, 8, {1, 1, 1, 1, 0}, 6); }).find("disk 4 is 0.000000; expected a value in (0, 1]"),
              std::string::npos);
    EXPECT_NE(message([&] { adaptraid5_layout(five, 8, {1, 1.5, 1, 1, 1}, 6); }).find("disk 1 is 1.5"), std::string::npos);
    EXPECT_NE(message([&] { adaptraid5_layout(five, 8, {1, 1, 1, 1, std::nan("")}, 6); }).find("expected a value in (0, 1]"),
              std::string::npos);
    EXPECT_EQ(message([&] { adaptraid5_layout(five, 8, {1, 1, 1, 1, 1}, 0); }),
              "AdaptRaid5 stripes in pattern (SIP) is 0; expected >= 1");
    EXPECT_NE(message([&] { adaptraid5_layout(five, 8, {1, 1, 1, 1, 0.1}, 6); })
                  .find("(SIP) 6 is too small: disk 4 (UF 0.100000) would hold no block; expected SIP >= 10"),
              std::string::npos);
    EXPECT_NE(message([&] { adaptraid5_layout(five, 8, {1, 1, 1, 1}, 6); }).find("4 utilisation factors; expected 5"),
              std::string::npos);
    EXPECT_NE(message([&] { adaptraid5_layout({1000, 1000, 1000, 1000, 8}, 8, {1, 1, 1, 1, 0.4}, 6); })
                  .find("disk 4 holds 1 stripe units; one pattern needs 2"),
              std::string::npos);
    for (const std::string &m : {message([&] { adaptraid5_layout(five, 8, {1, 1, 1, 1, 0.1}, 6); })})
        EXPECT_EQ(m.find('\n'), std::string::npos);
}
