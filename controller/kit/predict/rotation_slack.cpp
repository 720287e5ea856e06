#include "controller/kit/predict/rotation_slack.h"

#include <algorithm>
#include <cmath>

namespace raidtlm::controller {

rotation_slack::rotation_slack(const config &cfg)
    : m_cfg(cfg),
      m_sectors(cfg.initial_sectors),
      m_relax_after_hits(uint64_t(std::ceil(4.0 / std::max(1e-6, cfg.target_miss_rate)))) {}

void rotation_slack::record(bool missed) {
    if (!m_cfg.feedback) return;
    if (missed) {
        m_sectors = std::min(m_cfg.max_sectors, m_sectors + 1);
        m_hits_in_a_row = 0;
    } else if (++m_hits_in_a_row >= m_relax_after_hits) {
        m_sectors = std::max(0.0, m_sectors - 1);
        m_hits_in_a_row = 0;
    }
}

}  // namespace raidtlm::controller
