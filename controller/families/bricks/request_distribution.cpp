#include "controller/families/bricks/request_distribution.h"

#include <stdexcept>

#include "controller/families/bricks/brick_cache.h"

namespace raidtlm::controller {

const char *to_string(distribution_policy p) {
    switch (p) {
    case distribution_policy::dsptf: return "dsptf";
    case distribution_policy::hashing: return "hashing";
    case distribution_policy::weighted_hashing: return "weighted_hashing";
    case distribution_policy::lard: return "lard";
    }
    return "?";
}

request_distribution::request_distribution(distribution_policy policy, int replicas, uint32_t block_sectors,
                                           std::vector<double> weights)
    : m_policy(policy), m_replicas(replicas), m_block_sectors(block_sectors) {
    if (replicas < 1 || block_sectors == 0)
        throw std::invalid_argument("request_distribution: replicas >= 1 and block_sectors > 0");
    if (weights.empty())
        weights.assign(size_t(replicas), 1.0);
    if (int(weights.size()) != replicas)
        throw std::invalid_argument("request_distribution: one weight per replica");
    double total = 0;
    for (double w : weights) {
        if (!(w > 0))
            throw std::invalid_argument("request_distribution: weights must be > 0");
        total += w;
    }
    double sum = 0;
    for (double w : weights)
        m_cumulative.push_back((sum += w) / total);
    m_cumulative.back() = 1.0;
}

int request_distribution::hashed_replica(uint64_t lbn) const {
    const uint64_t block = lbn / m_block_sectors;
    if (m_policy != distribution_policy::weighted_hashing)
        return exclusive_cache_owner(block, m_replicas);
    // The same hash, finer: a point in [0, 1) falls in one replica's share.
    constexpr int resolution = 1 << 20;
    const double x = (exclusive_cache_owner(block, resolution) + 0.5) / resolution;
    for (int r = 0; r < m_replicas; ++r)
        if (x < m_cumulative[size_t(r)])
            return r;
    return m_replicas - 1;
}

std::vector<int> request_distribution::read_queuers(uint64_t lbn) const {
    if (m_policy == distribution_policy::dsptf) {
        std::vector<int> all(static_cast<size_t>(m_replicas), 0);
        for (int r = 0; r < m_replicas; ++r)
            all[size_t(r)] = r;
        return all;
    }
    return {hashed_replica(lbn)};
}

}  // namespace raidtlm::controller
