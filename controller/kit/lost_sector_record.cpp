#include "controller/kit/lost_sector_record.h"

#include <algorithm>

namespace raidtlm::controller {

void lost_sector_record::note(int64_t first, int64_t end) {
    m_current.insert(first, end);
    m_notes.emplace_back(first, end);
}

void lost_sector_record::written(int64_t first, int64_t end, uint64_t mark) {
    m_current.erase(first, end);
    for (size_t i = size_t(mark); i < m_notes.size(); ++i) {
        const int64_t a = std::max(first, m_notes[i].first), b = std::min(end, m_notes[i].second);
        if (a < b) m_current.insert(a, b);
    }
}

bool lost_sector_record::noted_since(uint64_t mark, int64_t first, int64_t end) const {
    for (size_t i = size_t(mark); i < m_notes.size(); ++i)
        if (m_notes[i].first < end && first < m_notes[i].second) return true;
    return false;
}

}  // namespace raidtlm::controller
