#include "controller/families/bricks/lard_dispatcher.h"

#include <stdexcept>

namespace raidtlm::controller {

lard_dispatcher::lard_dispatcher(int replicas, uint32_t block_sectors, int low, int high)
    : m_load(size_t(replicas), 0), m_block_sectors(block_sectors), m_low(low), m_high(high) {
    if (replicas < 1 || block_sectors == 0 || low < 0 || high < low)
        throw std::invalid_argument("lard_dispatcher: replicas >= 1, block_sectors > 0, 0 <= low <= high");
}

int lard_dispatcher::least_loaded() const {
    int best = 0;  // ties: the lowest index
    for (int r = 1; r < int(m_load.size()); ++r)
        if (m_load[size_t(r)] < m_load[size_t(best)])
            best = r;
    return best;
}

int lard_dispatcher::route(uint64_t lbn) {
    const uint64_t block = lbn / m_block_sectors;
    auto it = m_owner.find(block);
    int target;
    if (it == m_owner.end()) {
        target = least_loaded();
        m_owner.emplace(block, target);
    } else {
        target = it->second;
        const int least = least_loaded();
        const int load = m_load[size_t(target)];
        if ((load > m_high && m_load[size_t(least)] < m_low) || load >= 2 * m_high) {
            if (least != target)
                ++m_reassignments;
            target = it->second = least;
        }
    }
    ++m_load[size_t(target)];
    return target;
}

void lard_dispatcher::completed(int replica) {
    int &load = m_load.at(size_t(replica));
    if (load > 0)
        --load;
}

}  // namespace raidtlm::controller
