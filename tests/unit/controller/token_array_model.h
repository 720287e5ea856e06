// A functional model of a parity array's contents for unit tests: one token per (disk, drive LBN),
// 0 if never written. It executes write plans the way the RAID 5 firmware does (the plan's reads,
// the new parity from parity_tokens, the writes) over any parity_stripe_layout (RAID 4/5,
// AdaptRaid5), and reads as plan_degraded_read says, so a test can check parity and rebuilds.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <utility>
#include <vector>

#include "controller/kit/data_token.h"
#include "controller/layouts/parity_stripe_layout.h"
#include "controller/kit/parity_tokens.h"
#include "controller/kit/parity_write_plan.h"
#include "controller/platform/scoreboard.h"

namespace raidtlm::controller::testing {

class token_array {
public:
    explicit token_array(const parity_stripe_layout &l) : m_layout(l) {}

    uint64_t at(int disk, int64_t lbn) const {
        auto it = m_tokens.find({disk, lbn});
        return it == m_tokens.end() ? 0 : it->second;
    }
    void set(int disk, int64_t lbn, uint64_t token) { m_tokens[{disk, lbn}] = token; }

    // Writes logical [lbn, lbn + n) with fresh tokens, acknowledges them on the scoreboard.
    void write(int64_t lbn, int32_t n, const parity_write_policy &policy, scoreboard &sb) {
        std::vector<stripe_write_plan> plans;
        plan_parity_write(m_layout, lbn, n, policy, plans);
        std::map<int64_t, uint64_t> fresh;
        for (int64_t l = lbn; l < lbn + n; ++l) fresh[l] = make_token(l, ++m_sequence);
        int64_t covered = 0;
        for (const auto &plan : plans) {
            covered += plan.sectors;
            std::map<std::pair<int, int64_t>, uint64_t> read;
            for (const auto &op : plan.ops)
                if (op.kind != disk_op_kind::write)
                    for (int i = 0; i < op.sectors; ++i) read[{op.disk, op.drive_lbn + i}] = at(op.disk, op.drive_lbn + i);
            const auto parity = new_parity_tokens(
                m_layout, plan, [&](int64_t l) { return fresh.at(l); },
                [&](int disk, int64_t dl) {
                    auto it = read.find({disk, dl});
                    if (it == read.end()) ADD_FAILURE() << "parity needs disk " << disk << " lbn " << dl << " it did not read";
                    return it == read.end() ? 0 : it->second;
                });
            for (const auto &op : plan.ops) {
                if (op.kind == disk_op_kind::read) continue;
                for (int i = 0; i < op.sectors; ++i) {
                    const int64_t dl = op.drive_lbn + i;
                    set(op.disk, dl,
                        op.parity ? parity[size_t(dl - plan.parity_write().drive_lbn)]
                                  : fresh.at(m_layout.logical_lbn_on_disk(plan.stripe, op.disk, dl)));
                }
            }
        }
        EXPECT_EQ(covered, n);
        for (const auto &[l, t] : fresh) sb.write_acknowledged(l, t);
    }

    // Reads logical lbn with `failed` disk lost (-1: none), as plan_degraded_read says; a rebuild
    // reads every other unit of the stripe.
    uint64_t read(int64_t lbn, int failed) const {
        std::vector<disk_op> ops;
        plan_degraded_read(m_layout, lbn, 1, failed, ops);
        if (ops.size() == 1) return at(ops[0].disk, ops[0].drive_lbn);
        EXPECT_EQ(int(ops.size()), m_layout.stripe_data_units(m_layout.stripe_of(lbn)));
        std::vector<uint64_t> survivors;
        for (const auto &op : ops) {
            EXPECT_NE(op.disk, failed);
            EXPECT_EQ(m_layout.offset_in_unit(op.drive_lbn), m_layout.offset_in_unit(ops[0].drive_lbn));  // one row
            survivors.push_back(at(op.disk, op.drive_lbn));
        }
        return reconstruct_token(survivors);
    }

    // Every stripe's units XOR to zero, row by row.
    bool stripes_consistent(int64_t stripes) const {
        for (int64_t s = 0; s < stripes; ++s)
            for (int64_t off = 0; off < m_layout.unit_sectors(); ++off) {
                uint64_t x = 0;
                for (const unit_place &u : m_layout.units_by_disk(s)) x ^= at(u.disk, u.drive_lbn + off);
                if (x != 0) return false;
            }
        return true;
    }

private:
    const parity_stripe_layout &m_layout;
    std::map<std::pair<int, int64_t>, uint64_t> m_tokens;
    uint64_t m_sequence = 0;
};

}  // namespace raidtlm::controller::testing
