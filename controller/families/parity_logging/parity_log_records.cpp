#include "controller/families/parity_logging/parity_log_records.h"

#include <algorithm>
#include <stdexcept>

#include "rtl_models/xor/gf256.h"

namespace raidtlm::controller {

void apply_in_order(std::vector<uint64_t> &parity, std::vector<log_record> records) {
    std::stable_sort(records.begin(), records.end(),
                     [](const log_record &a, const log_record &b) { return a.sequence < b.sequence; });
    for (const log_record &r : records) {
        uint64_t &p = parity.at(size_t(r.image_index));
        p = r.kind == record_kind::update ? p ^ r.token : r.token;
    }
}

std::vector<log_record> expand_checks(const std::vector<log_record> &records) {
    std::vector<log_record> out;
    out.reserve(records.size());
    for (const log_record &r : records) {
        log_record p = r;
        p.check_index.fill(-1);
        out.push_back(p);
        for (size_t k = 0; k < r.check_index.size(); ++k) {
            if (r.check_index[k] < 0) continue;
            log_record c = p;
            c.image_index = r.check_index[k];
            c.token = rtl_models::gf256::scale_token(r.check_coefficient[k], r.token);
            out.push_back(c);
        }
    }
    return out;
}

parity_reintegrator::parity_reintegrator(int64_t parity_sectors, const std::vector<log_record> &expected)
    : m_value(size_t(parity_sectors), 0), m_mark(size_t(parity_sectors), -1), m_hold(false) {
    for (const log_record &r : expected) {
        m_pending.insert(r.sequence);
        if (r.kind == record_kind::overwrite) m_hold = true;
    }
}

void parity_reintegrator::parity_block(int64_t index, uint64_t token) {
    if (m_mark.at(size_t(index)) < 0) m_value[size_t(index)] ^= token;
}

void parity_reintegrator::record(const log_record &r) {
    const size_t b = size_t(r.image_index);
    if (b >= m_value.size()) throw std::out_of_range("parity log record outside the region's parity");
    const auto delivered = m_pending.find(r.sequence);
    if (delivered != m_pending.end()) m_pending.erase(delivered);
    const int64_t seq = int64_t(r.sequence);
    if (r.kind == record_kind::update) {
        if (m_mark[b] < seq) {
            m_value[b] ^= r.token;
            if (m_hold) {
                m_held.emplace(int64_t(b), std::make_pair(r.sequence, r.token));
                m_peak_held = std::max(m_peak_held, ++m_held_count);
            }
        }
    } else if (m_mark[b] < seq) {
        m_mark[b] = seq;
        uint64_t v = r.token;
        auto [lo, hi] = m_held.equal_range(int64_t(b));
        for (auto it = lo; it != hi;) {
            if (int64_t(it->second.first) > seq) {
                v ^= it->second.second;
                ++it;
            } else {
                it = m_held.erase(it);  // before the overwrite: superseded
                --m_held_count;
            }
        }
        m_value[b] = v;
    }
    release_settled();
}

// A held update whose earlier records have all arrived can no longer be undone by an overwrite.
void parity_reintegrator::release_settled() {
    if (m_held.empty()) return;
    const uint64_t watermark = m_pending.empty() ? UINT64_MAX : *m_pending.begin();
    for (auto it = m_held.begin(); it != m_held.end();) {
        if (it->second.first < watermark) {
            it = m_held.erase(it);
            --m_held_count;
        } else {
            ++it;
        }
    }
}

}  // namespace raidtlm::controller
