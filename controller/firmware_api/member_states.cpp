#include "controller/firmware_api/member_states.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace raidtlm::controller {

const char *to_string(member_state s) {
    switch (s) {
    case member_state::optimal: return "optimal";
    case member_state::failed: return "failed";
    case member_state::rebuilding: return "rebuilding";
    }
    return "?";
}

member_states::member_states(int disks)
    : m_state(size_t(std::max(disks, 0)), member_state::optimal), m_progress(size_t(std::max(disks, 0)), 0.0),
      m_losses(size_t(std::max(disks, 0)), 0) {}

void member_states::check(int disk) const {
    if (disk < 0 || disk >= count())
        throw std::invalid_argument("member disk " + std::to_string(disk) + " of " + std::to_string(count()));
}

std::vector<int> member_states::failed() const {
    std::vector<int> out;
    for (int d = 0; d < count(); ++d)
        if (m_state[size_t(d)] == member_state::failed) out.push_back(d);
    return out;
}

int member_states::first_failed() const {
    for (int d = 0; d < count(); ++d)
        if (m_state[size_t(d)] == member_state::failed) return d;
    return -1;
}

bool member_states::all_optimal() const {
    return std::all_of(m_state.begin(), m_state.end(), [](member_state s) { return s == member_state::optimal; });
}

bool member_states::any(member_state s) const { return std::find(m_state.begin(), m_state.end(), s) != m_state.end(); }

void member_states::set(int disk, member_state s, double now_ms) {
    check(disk);
    if (m_state[size_t(disk)] == s) return;
    m_state[size_t(disk)] = s;
    if (s == member_state::failed) ++m_losses[size_t(disk)];
    if (s != member_state::rebuilding) m_progress[size_t(disk)] = 0.0;
    m_history.push_back({disk, s, now_ms});
}

void member_states::set_only_failed(int disk, double now_ms) {
    if (disk != -1) check(disk);
    for (int d = 0; d < count(); ++d) set(d, d == disk ? member_state::failed : member_state::optimal, now_ms);
}

void member_states::set_progress(int disk, double fraction) {
    check(disk);
    m_progress[size_t(disk)] = std::clamp(fraction, 0.0, 1.0);
}

}  // namespace raidtlm::controller
