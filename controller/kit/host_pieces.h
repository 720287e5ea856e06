// A host request moved through the buffer DRAM in bounded pieces, as real controllers stage a
// command's data: a request larger than a piece is split in address order, and each piece gets
// its own buffer, is moved across the host link, written or read, and freed before the next one
// (firmware_kit::serve_pieces). The host sees one command, completed once every piece is done.
//
// Sizes (plan_host_pieces, plain logic):
//  - a piece holds at most a quarter of the buffer DRAM (host_piece_dram_fraction), so other
//    requests and the stripes' work buffers share the rest; rounded down to a whole number of
//    the family's alignment (a full stripe's data for RAID 4/5/6: each piece is then written as
//    whole stripes), else of a stripe unit, else any number of sectors;
//  - the host pieces held at once (all requests together) stay within the DRAM minus the largest
//    work buffer one stripe's I/O takes (host_staging): a request holding a piece can always get
//    the work buffer its stripes need, one after the other, so no request waits for itself and
//    none for another's piece. Work buffers are allocated and freed around drive commands and
//    never held while waiting for another allocation, so among themselves they always progress.
// A request no larger than a piece is one piece, wherever it lies (fault-free runs of ordinary
// sizes are served exactly as before). A DRAM of unlimited size (capacity 0) bounds nothing.
#pragma once

#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <utility>

#include <systemc>

namespace raidtlm::controller {

// A piece holds at most this fraction of the buffer DRAM.
constexpr uint64_t host_piece_dram_divisor = 4;

struct host_piece_limits {
    uint64_t piece_sectors = 0;  // 0: unbounded (a DRAM without a size)
    uint64_t staging_bytes = 0;  // host pieces held at once at most (0: unbounded)
};

// A scenario whose buffer DRAM cannot hold a piece beside one stripe's work buffer; `key` names
// the key to change (the testbench reports it before the run).
class host_piece_error : public std::invalid_argument {
public:
    host_piece_error(const std::string &key, const std::string &problem, std::string hint)
        : std::invalid_argument(problem), m_key(key), m_hint(std::move(hint)) {}
    const std::string &key() const { return m_key; }
    const std::string &hint() const { return m_hint; }

private:
    std::string m_key, m_hint;
};

// dram_bytes: the buffer DRAM's size (0: unlimited). alignment_sectors: the family's preferred
// piece boundary (0: none); unit_sectors: its stripe unit; work_bytes: the largest buffer one
// stripe's I/O allocates besides the host piece. Throws host_piece_error naming the keys when not
// even one sector's piece and that work buffer fit the DRAM.
host_piece_limits plan_host_pieces(uint64_t dram_bytes, uint64_t alignment_sectors, uint64_t unit_sectors,
                                   uint64_t work_bytes);

// The length of the piece of [lbn, end) that starts at lbn: all of it when the whole request
// (`request_sectors`) fits one piece, else up to the next multiple of piece_sectors.
uint64_t host_piece_length(uint64_t lbn, uint64_t end, uint64_t request_sectors, uint64_t piece_sectors);

// The budget of bytes host pieces may hold at once, handed out in arrival order (SystemC waits).
class host_staging {
public:
    void set_budget(uint64_t bytes) { m_budget = bytes; }
    // Blocks the calling SC_THREAD until `bytes` fit the budget (0 budget: never waits).
    void acquire(uint64_t bytes);
    void release(uint64_t bytes);
    // After a power loss: nothing held, nobody waiting (their threads are gone).
    void clear();
    uint64_t held_bytes() const { return m_used; }

private:
    struct waiter {
        uint64_t bytes;
        sc_core::sc_event granted;
        bool ok = false;
    };
    void grant();
    uint64_t m_budget = 0;
    uint64_t m_used = 0;
    std::deque<waiter *> m_waiting;
};

}  // namespace raidtlm::controller
