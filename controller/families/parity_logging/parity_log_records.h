// Parity log records and their application to a region's parity (paper sec. 2.1, 2.5). A small
// write logs, per sector, an update record: the parity update image old ^ new (XORed into the
// parity at reintegration). A large write (a whole logical stripe) logs overwrite records: the new
// parity itself (copied in, discarding everything earlier). Records carry the write's sequence
// number, so reintegration can respect the order overwrites impose.
//
// parity_reintegrator applies records in whatever order the parallel reads deliver them, with the
// paper's algorithm: each block of the reintegration buffer starts zeroed and "non-overwrite"; a
// parity block read from disk is XORed in unless the block is overwritten; an update is XORed in
// unless an overwrite later than it has been applied, and held (extra buffer) until every earlier
// record has arrived, in case an earlier overwrite still comes; an overwrite later than the
// block's mark replaces the block by its image XOR the held updates later than it. The result
// equals applying the records in sequence order. Pure C++ on tokens.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace raidtlm::controller {

enum class record_kind { update, overwrite };

// Check images a region's records may update: P, Q and R (parity_logging.checks <= 3).
constexpr int max_log_checks = 3;

struct log_record {
    record_kind kind = record_kind::update;
    uint64_t sequence = 0;    // order of the writes that made the records
    int64_t image_index = 0;  // sector of the region's parity image (parity_location::image_index)
    uint64_t token = 0;       // update: old ^ new; overwrite: the new parity
    // More than one check (parity_logging.checks 2: P+Q, 3: P+Q+R): an update record also
    // updates check k = 1, 2 (Q, R) at image sector check_index[k-1] with g^(k j) (old ^ new), j
    // the data column (Q' = Q + g^j (old + new), R' = R + g^2j (old + new); pq_parity.h's
    // check_coefficient); -1: no such check. The log holds the one image; the coefficients come
    // from the log directory, as the indices.
    std::array<int64_t, max_log_checks - 1> check_index{-1, -1};
    std::array<uint8_t, max_log_checks - 1> check_coefficient{0, 0};
};

// The records as the reintegrator applies them: an update with check indices becomes one update
// per check, of the same sequence: P's image, then Q's and R's (the token scaled by g^(k j) in
// GF(2^8), byte lane by lane).
std::vector<log_record> expand_checks(const std::vector<log_record> &records);

// The reference semantics: records applied one by one in sequence order (stable for equal ones).
void apply_in_order(std::vector<uint64_t> &parity, std::vector<log_record> records);

class parity_reintegrator {
public:
    // `parity_sectors`: the region's parity image size. `expected`: every record that will be
    // delivered (only their sequence numbers are used: an update is held until all earlier
    // records have arrived). Without overwrite records nothing is ever held.
    parity_reintegrator(int64_t parity_sectors, const std::vector<log_record> &expected);

    // The parity sector read from disk.
    void parity_block(int64_t index, uint64_t token);
    void record(const log_record &r);

    const std::vector<uint64_t> &image() const { return m_value; }
    // Update records held at once at the worst moment (extra reintegration buffer, in sectors).
    int64_t peak_held() const { return m_peak_held; }

private:
    void release_settled();

    std::vector<uint64_t> m_value;
    std::vector<int64_t> m_mark;  // sequence of the overwrite applied, or -1
    bool m_hold;
    std::multiset<uint64_t> m_pending;  // sequences not yet delivered
    std::multimap<int64_t, std::pair<uint64_t, uint64_t>> m_held;  // block -> (sequence, token)
    int64_t m_held_count = 0;
    int64_t m_peak_held = 0;
};

}  // namespace raidtlm::controller
