// Where a member's rebuild stands (plain C++): the member is rebuilt unit by unit in order
// (a unit: what one rebuild step reconstructs, e.g. the member's stripe unit of one stripe), so
// one number, the first unit not yet rebuilt, says which parts of the new drive hold the member's
// data. Foreground reads of a unit below the cursor go to the new drive; at or above it they are
// rebuilt from the other members, and writes there keep the new drive's rows right as well.
//
// A second loss before the cursor reaches the end loses exactly the units at or above it whose
// stripe needs both members: lost_units() names them as half-open [first, end) runs.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace raidtlm::controller {

class rebuild_cursor {
public:
    rebuild_cursor() = default;
    explicit rebuild_cursor(uint64_t units) : m_units(units) {}

    uint64_t units() const { return m_units; }
    uint64_t next() const { return m_next; }  // the first unit not yet rebuilt
    bool done() const { return m_next >= m_units; }
    bool rebuilt(uint64_t unit) const { return unit < m_next; }
    // Unit `next()` is rebuilt (throws std::logic_error when done).
    void advance();
    // From the start again (a restart that lost the cursor).
    void restart() { m_next = 0; }
    // From unit `next` (a restart that found the cursor's checkpoint), at most the end.
    void resume_at(uint64_t next) { m_next = next < m_units ? next : m_units; }
    double fraction() const { return m_units ? double(m_next) / double(m_units) : 1.0; }

    // The units not yet rebuilt for which `needs_both(unit)` is true, as [first, end) runs.
    std::vector<std::pair<uint64_t, uint64_t>> lost_units(const std::function<bool(uint64_t)> &needs_both) const;

private:
    uint64_t m_units = 0;
    uint64_t m_next = 0;
};

}  // namespace raidtlm::controller
