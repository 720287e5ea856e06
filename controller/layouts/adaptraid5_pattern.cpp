#include "controller/layouts/adaptraid5_pattern.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "controller/layouts/layout.h"

namespace raidtlm::controller {

namespace {

std::vector<int> disks_with_room(const std::vector<int64_t> &used, const std::vector<int64_t> &budget) {
    std::vector<int> out;
    for (size_t d = 0; d < used.size(); ++d)
        if (used[d] < budget[d]) out.push_back(int(d));
    return out;
}

// The widest stripe (at most `disks` wide) whose data count divides the reference stripe's.
int phase_width(int disks, int reference_data_blocks, bool divisible) {
    int w = disks;
    if (divisible)
        while (w > 2 && reference_data_blocks % (w - 1) != 0) --w;
    return w;
}

}  // namespace

adaptraid5_pattern::adaptraid5_pattern(const std::vector<int64_t> &budget_blocks, int max_stripes,
                                       adaptraid5_steps steps) {
    const int d_count = int(budget_blocks.size());
    if (d_count < 2)
        throw layout_error("AdaptRaid5 needs at least 2 disks; the array has " + std::to_string(d_count));
    for (int d = 0; d < d_count; ++d)
        if (budget_blocks[size_t(d)] < 1)
            throw layout_error("AdaptRaid5: disk " + std::to_string(d) + " gets " +
                               std::to_string(budget_blocks[size_t(d)]) + " blocks per pattern; expected at least 1");
    m_reference_data_blocks = d_count - 1;  // phase 1 uses every disk

    // used[d]: the next free position of disk d (with holes below it when fill_holes is off).
    std::vector<int64_t> used(size_t(d_count), 0);
    int64_t next_data_block = 0;
    auto room_for_more_stripes = [&] { return max_stripes <= 0 || int(m_stripes.size()) < max_stripes; };
    while (room_for_more_stripes()) {
        const std::vector<int> phase_disks = disks_with_room(used, budget_blocks);
        const int a = int(phase_disks.size());
        if (a < 2) break;  // a stripe needs a data and a parity block
        const int w = phase_width(a, m_reference_data_blocks, steps.divisible_widths);
        int placed_in_phase = 0;
        bool phase_over = false;
        for (int k = 0; !phase_over && room_for_more_stripes(); ++k) {
            // Stripe k starts k disks to the left of the phase's first disk.
            const int start = (a - k % a) % a;
            std::vector<int> on;
            for (int i = 0; i < w; ++i) on.push_back(phase_disks[size_t((start + i) % a)]);
            std::vector<int64_t> pos;
            int64_t row = 0;
            for (int disk : on) row = std::max(row, used[size_t(disk)]);
            bool fits = true;
            for (int disk : on) {
                pos.push_back(steps.fill_holes ? used[size_t(disk)] : row);
                fits = fits && pos.back() < budget_blocks[size_t(disk)];
            }
            if (!fits) break;
            pattern_stripe s;
            s.first_data_block = next_data_block;
            s.data_blocks = w - 1;
            for (int i = 0; i < w; ++i) {
                const pattern_place p{on[size_t(i)], pos[size_t(i)]};
                used[size_t(p.disk)] = p.pos + 1;
                if (i + 1 < w)
                    s.data.push_back(p);
                else
                    s.parity = p;
                phase_over = phase_over || used[size_t(p.disk)] >= budget_blocks[size_t(p.disk)];
            }
            next_data_block += s.data_blocks;
            m_stripes.push_back(std::move(s));
            ++placed_in_phase;
        }
        if (placed_in_phase == 0) break;  // only without fill_holes: rows above a short disk
    }

    if (steps.whole_reference_stripes) {
        // Trailing stripes are the topmost blocks of their disks, so dropping them leaves no hole.
        while (next_data_block % m_reference_data_blocks != 0) {
            next_data_block -= m_stripes.back().data_blocks;
            m_stripes.pop_back();
        }
    }

    m_blocks_per_disk.assign(size_t(d_count), 0);
    for (int si = 0; si < int(m_stripes.size()); ++si) {
        const pattern_stripe &s = m_stripes[size_t(si)];
        for (const pattern_place &p : s.data) {
            m_location.push_back(p);
            m_stripe_of_block.push_back(si);
        }
        auto extend = [&](const pattern_place &p) {
            m_blocks_per_disk[size_t(p.disk)] = std::max(m_blocks_per_disk[size_t(p.disk)], p.pos + 1);
        };
        for (const pattern_place &p : s.data) extend(p);
        extend(s.parity);
    }
    m_slots.resize(size_t(d_count));
    for (int d = 0; d < d_count; ++d) m_slots[size_t(d)].resize(size_t(m_blocks_per_disk[size_t(d)]));
    for (int si = 0; si < int(m_stripes.size()); ++si) {
        const pattern_stripe &s = m_stripes[size_t(si)];
        for (int j = 0; j < s.data_blocks; ++j) m_slots[size_t(s.data[size_t(j)].disk)][size_t(s.data[size_t(j)].pos)] = {si, j};
        m_slots[size_t(s.parity.disk)][size_t(s.parity.pos)] = {si, pattern_slot::parity_unit};
    }
}

adaptraid5_pattern adaptraid5_pattern::from_utilisation(const std::vector<double> &uf, int sip, adaptraid5_steps steps) {
    if (uf.size() < 2)
        throw layout_error("AdaptRaid5 needs at least 2 disks; the array has " + std::to_string(uf.size()));
    if (sip < 1) throw layout_error("AdaptRaid5 stripes in pattern (SIP) is " + std::to_string(sip) + "; expected >= 1");
    std::vector<int64_t> budget;
    for (size_t d = 0; d < uf.size(); ++d) {
        if (!(uf[d] > 0.0 && uf[d] <= 1.0))
            throw layout_error("AdaptRaid5 utilisation factor of disk " + std::to_string(d) + " is " +
                               std::to_string(uf[d]) + "; expected a value in (0, 1]");
        // The smaller array keeps the disks' proportions: UF * SIP blocks, the most loaded disk SIP.
        // The epsilon keeps 0.4 * 5 from flooring to 1 through rounding.
        budget.push_back(int64_t(std::floor(uf[d] * sip + 1e-9)));
        if (budget.back() < 1)
            throw layout_error("AdaptRaid5 stripes in pattern (SIP) " + std::to_string(sip) +
                               " is too small: disk " + std::to_string(d) + " (UF " + std::to_string(uf[d]) +
                               ") would hold no block; expected SIP >= " +
                               std::to_string(int(std::ceil(1.0 / uf[d] - 1e-9))));
    }
    return adaptraid5_pattern(budget, sip, steps);
}

std::vector<pattern_place> adaptraid5_pattern::parity() const {
    std::vector<pattern_place> out;
    for (const pattern_stripe &s : m_stripes) out.push_back(s.parity);
    return out;
}

int64_t adaptraid5_pattern::pos_of(int64_t block) const {
    const pattern_place &p = m_location[size_t(block % data_blocks())];
    return p.pos + (block / data_blocks()) * m_blocks_per_disk[size_t(p.disk)];
}

std::string adaptraid5_pattern::picture() const {
    const int64_t rows = *std::max_element(m_blocks_per_disk.begin(), m_blocks_per_disk.end());
    std::vector<std::vector<std::string>> cell(size_t(rows), std::vector<std::string>(size_t(disks()), "."));
    for (int si = 0; si < stripes(); ++si) {
        const pattern_stripe &s = m_stripes[size_t(si)];
        for (int j = 0; j < s.data_blocks; ++j)
            cell[size_t(s.data[size_t(j)].pos)][size_t(s.data[size_t(j)].disk)] =
                std::to_string(s.first_data_block + j) + "-" + std::to_string(si);
        cell[size_t(s.parity.pos)][size_t(s.parity.disk)] = "P" + std::to_string(si);
    }
    std::ostringstream out;
    for (const auto &row : cell) {
        for (size_t d = 0; d < row.size(); ++d) out << (d ? " " : "") << row[d];
        out << '\n';
    }
    return out.str();
}

}  // namespace raidtlm::controller
