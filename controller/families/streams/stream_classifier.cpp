#include "controller/families/streams/stream_classifier.h"

#include <algorithm>
#include <stdexcept>

namespace raidtlm::controller {

stream_classifier::stream_classifier(const stream_classifier_config &c) : m_config(c) {
    if (c.block_sectors == 0 || c.threshold == 0 || c.window_ms <= 0)
        throw std::invalid_argument("stream_classifier: block_sectors, threshold and window_ms must be positive");
}

stream_classifier::region &stream_classifier::region_for(uint64_t block) {
    const uint64_t span = 2 * uint64_t(m_config.offset_blocks) + 1;
    // Every bitmap has the same length, so the one starting last at or before the block is the
    // only one that can cover it.
    auto it = m_regions.upper_bound(block);
    if (it != m_regions.begin()) {
        auto before = std::prev(it);
        if (block < before->first + span) return before->second;
    }
    const uint64_t first = block >= m_config.offset_blocks ? block - m_config.offset_blocks : 0;
    region r;
    r.first_block = first;
    r.bits.assign(size_t(span), false);
    return m_regions.emplace(first, std::move(r)).first->second;
}

void stream_classifier::forget_old(region &r, double now_ms) const {
    while (!r.arrivals.empty() && r.arrivals.front() < now_ms - m_config.window_ms) r.arrivals.pop_front();
}

bool stream_classifier::classify(uint64_t lbn, uint32_t sectors, double now_ms) {
    const uint64_t first_block = lbn / m_config.block_sectors;
    const uint64_t last_block = (lbn + std::max<uint32_t>(sectors, 1) - 1) / m_config.block_sectors;
    region &r = region_for(first_block);
    bool new_bit = false;
    for (uint64_t b = first_block; b <= last_block; ++b) {
        if (b < r.first_block || b - r.first_block >= r.bits.size()) break;
        auto bit = r.bits[size_t(b - r.first_block)];
        if (!bit) new_bit = true;
        bit = true;
    }
    forget_old(r, now_ms);
    if (new_bit) r.arrivals.push_back(now_ms);
    return r.arrivals.size() >= m_config.threshold;
}

size_t stream_classifier::collect_garbage(double now_ms) {
    size_t dropped = 0;
    for (auto it = m_regions.begin(); it != m_regions.end();) {
        forget_old(it->second, now_ms);
        if (it->second.arrivals.empty()) {
            it = m_regions.erase(it);
            ++dropped;
        } else {
            ++it;
        }
    }
    return dropped;
}

uint64_t stream_classifier::bitmap_bytes() const {
    uint64_t bytes = 0;
    for (const auto &[first, r] : m_regions) bytes += (r.bits.size() + 7) / 8 + r.arrivals.size() * sizeof(double);
    return bytes;
}

}  // namespace raidtlm::controller
