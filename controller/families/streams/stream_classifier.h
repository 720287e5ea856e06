// The stream engine's classifier (Panagiotakis, "Many sequential streams", section 4.1), plain C++.
//
// Requests are seen in blocks of `block_sectors`. When a request arrives at block B and no
// bitmap covers B, a small bitmap is allocated for the blocks [B - offset, B + offset]; every
// request that falls into a bitmap sets the bits of the blocks it covers. A request that sets at
// least one new bit counts as a distinct request of that region (repeated reads of a block do
// not); when the distinct requests of a region within the last `window_ms` reach `threshold`,
// the region holds a sequential stream and the request is classified as one. Out-of-order
// requests set bits like any other: the rule looks at proximity in time only, as the thesis's.
// Bitmaps idle longer than the window are dropped by collect_garbage().
//
// Limit (named): a stream whose requests are longer than `offset` blocks leaves each bitmap
// with its first request, so it is never detected; offset must be at least the request size in
// blocks (checked where the keys are read: not here, the classifier does not know the sizes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <vector>

namespace raidtlm::controller {

struct stream_classifier_config {
    uint32_t block_sectors = 8;  // Table 3.1's blocking factor (8 sectors = 4 KB)
    uint32_t offset_blocks = 64; // "a few tens" (section 4.1); 64 blocks cover 256 KB each side
    uint32_t threshold = 3;      // distinct requests in a region within the window
    // The time interval the count looks back over. It must exceed (threshold - 1) times a
    // stream's request interval on the plain path, S x a random read (~10 ms): 10 s serves ~500
    // streams a disk.
    double window_ms = 10000;
};

class stream_classifier {
public:
    explicit stream_classifier(const stream_classifier_config &c);

    // A request of `sectors` at logical `lbn`, arriving at `now_ms`: true when it belongs to a
    // sequential stream by the rule above.
    bool classify(uint64_t lbn, uint32_t sectors, double now_ms);

    // Drops bitmaps with no distinct request within the window; returns how many.
    size_t collect_garbage(double now_ms);

    size_t bitmaps() const { return m_regions.size(); }
    // Memory the bitmaps take, bytes (one bit per block, plus the arrival times kept).
    uint64_t bitmap_bytes() const;
    const stream_classifier_config &config() const { return m_config; }

private:
    struct region {
        uint64_t first_block = 0;    // B - offset
        std::vector<bool> bits;      // 2 * offset + 1 blocks
        std::deque<double> arrivals; // distinct requests' times, oldest first
    };

    region &region_for(uint64_t block);
    void forget_old(region &r, double now_ms) const;

    stream_classifier_config m_config;
    std::map<uint64_t, region> m_regions;  // by first_block
};

}  // namespace raidtlm::controller
