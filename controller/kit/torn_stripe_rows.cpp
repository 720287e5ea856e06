#include "controller/kit/torn_stripe_rows.h"

#include <algorithm>

namespace raidtlm::controller {

void add_run(std::vector<sector_run> &runs, uint64_t first, uint64_t count) {
    if (count == 0) return;
    uint64_t end = first + count;
    std::vector<sector_run> out;
    out.reserve(runs.size() + 1);
    bool placed = false;
    for (const sector_run &r : runs) {
        const uint64_t r_end = r.first + r.count;
        if (r_end < first) {
            out.push_back(r);
        } else if (r.first > end) {
            if (!placed) out.push_back({first, end - first}), placed = true;
            out.push_back(r);
        } else {  // overlapping or touching: merged
            first = std::min(first, r.first);
            end = std::max(end, r_end);
        }
    }
    if (!placed) out.push_back({first, end - first});
    runs = std::move(out);
}

void torn_stripe_rows::add_write(int64_t lbn, int64_t sectors) {
    const int64_t unit = m_layout.unit_sectors();
    for (int64_t at = lbn, end = lbn + sectors; at < end;) {
        const int64_t stripe = m_layout.stripe_of(at);
        const int64_t base = m_layout.stripe_first_lbn(stripe);
        const int j = int((at - base) / unit);
        const int64_t row = (at - base) % unit;
        const int64_t n = std::min(unit - row, end - at);
        add_run(m_written[stripe][j], uint64_t(row), uint64_t(n));
        at += n;
    }
}

std::vector<int64_t> torn_stripe_rows::stripes() const {
    std::vector<int64_t> out;
    for (const auto &[stripe, units] : m_written) out.push_back(stripe);
    return out;
}

std::vector<sector_run> torn_stripe_rows::written(int64_t stripe, int unit) const {
    const auto s = m_written.find(stripe);
    if (s == m_written.end()) return {};
    const auto u = s->second.find(unit);
    return u == s->second.end() ? std::vector<sector_run>{} : u->second;
}

std::vector<sector_run> torn_stripe_rows::rows_lost(int64_t stripe, const std::vector<int> &missing) const {
    std::vector<sector_run> lost;
    const auto s = m_written.find(stripe);
    if (s == m_written.end() || missing.empty()) return lost;
    for (const auto &[unit, runs] : s->second) {
        // With one unit missing, its own writes leave it old or new; with more, nothing tells them apart.
        if (missing.size() == 1 && unit == missing.front() && !m_checks_may_hold_stand_ins) continue;
        for (const sector_run &r : runs) add_run(lost, r.first, r.count);
    }
    return lost;
}

}  // namespace raidtlm::controller
