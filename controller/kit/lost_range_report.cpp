#include "controller/kit/lost_range_report.h"

#include <algorithm>
#include <stdexcept>

namespace raidtlm::controller {

void lost_range_report::add(int64_t first, int64_t end) {
    if (first >= end) return;
    if (m_first < m_end && first < m_first) throw std::logic_error("lost_range_report: ranges out of order");
    if (m_first < m_end && first <= m_end) {
        m_end = std::max(m_end, end);
        return;
    }
    close_open_range();
    m_first = first;
    m_end = end;
}

void lost_range_report::close_open_range() {
    if (m_first >= m_end) return;
    ++m_count;
    m_sectors += m_end - m_first;
    if (m_listed.size() < max_listed) m_listed.push_back(nlohmann::json::array({m_first, m_end - m_first}));
    m_first = m_end = 0;
}

void lost_range_report::write(nlohmann::json &out) {
    close_open_range();
    out["lost_sectors"] = m_sectors;
    out["lost_range_count"] = m_count;
    out["lost_ranges_left_out"] = m_count - uint64_t(m_listed.size());
    out["lost_ranges"] = std::move(m_listed);
    m_listed = nlohmann::json::array();
}

}  // namespace raidtlm::controller
