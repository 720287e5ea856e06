#include "controller/kit/host_pieces.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "tlm/scsi_command.h"

namespace raidtlm::controller {

host_piece_limits plan_host_pieces(uint64_t dram_bytes, uint64_t alignment_sectors, uint64_t unit_sectors,
                                   uint64_t work_bytes) {
    if (dram_bytes == 0) return {};
    const uint64_t sector = protocol::sector_bytes;
    if (work_bytes + sector > dram_bytes)
        throw host_piece_error(
            "controller.dram.capacity_mib",
            fmt::format("{} bytes cannot hold one stripe's work buffer ({} bytes: host.stripe_unit_sectors {} over the "
                        "array's disks) beside a piece of a host request",
                        dram_bytes, work_bytes, unit_sectors),
            fmt::format("at least {} MiB, or a smaller host.stripe_unit_sectors",
                        (work_bytes + protocol::sector_bytes + (1u << 20) - 1) >> 20));
    const uint64_t most = std::max<uint64_t>(
        1, std::min(dram_bytes / host_piece_dram_divisor / sector, (dram_bytes - work_bytes) / sector));
    uint64_t piece = most;
    if (alignment_sectors > 0 && alignment_sectors <= most) piece = most / alignment_sectors * alignment_sectors;
    else if (unit_sectors > 0 && unit_sectors <= most) piece = most / unit_sectors * unit_sectors;
    return {piece, dram_bytes - work_bytes};
}

uint64_t host_piece_length(uint64_t lbn, uint64_t end, uint64_t request_sectors, uint64_t piece_sectors) {
    if (piece_sectors == 0 || request_sectors <= piece_sectors) return end - lbn;
    return std::min(end, (lbn / piece_sectors + 1) * piece_sectors) - lbn;
}

void host_staging::acquire(uint64_t bytes) {
    if (m_budget == 0) return;
    if (m_waiting.empty() && m_used + bytes <= m_budget) {
        m_used += bytes;
        return;
    }
    waiter w{bytes, {}, false};
    m_waiting.push_back(&w);
    while (!w.ok) sc_core::wait(w.granted);
}

void host_staging::release(uint64_t bytes) {
    if (m_budget == 0) return;
    m_used -= std::min(m_used, bytes);
    grant();
}

void host_staging::grant() {
    // In arrival order while they fit: a large piece is not overtaken for ever by small ones.
    while (!m_waiting.empty() && m_used + m_waiting.front()->bytes <= m_budget) {
        waiter *w = m_waiting.front();
        m_waiting.pop_front();
        m_used += w->bytes;
        w->ok = true;
        w->granted.notify(sc_core::SC_ZERO_TIME);
    }
}

void host_staging::clear() {
    m_used = 0;
    m_waiting.clear();
}

}  // namespace raidtlm::controller
