// SCSI-like command carried as a TLM-2.0 generic-payload extension.
//
// The generic payload's command (TLM_READ_COMMAND / TLM_WRITE_COMMAND) says the direction; this
// extension adds what a block device needs: the logical block range, and on the way back the
// timing breakdown the drive measured. Data are 64-bit tokens, one per 512-byte sector: when the
// payload's data_length is blocks*8 its data_ptr holds the tokens (write: to store, read: filled
// in); a data_length of 0 means "timing only", so benchmarks carry no data.
#pragma once

#include <cstdint>
#include <vector>
#include <systemc>
#include <tlm>

namespace raidtlm::protocol {

enum class cache_outcome : uint8_t { miss, partial_hit, full_hit };

inline const char *to_string(cache_outcome c) {
    switch (c) {
    case cache_outcome::miss: return "miss";
    case cache_outcome::partial_hit: return "partial_hit";
    case cache_outcome::full_hit: return "full_hit";
    }
    return "?";
}

// Where a request's time went, as measured by the drive. Components may overlap in a real drive
// (bus transfer during media transfer); each is charged once, in the order the drive saw them, so
// they add up to the drive's service time.
struct access_timing {
    sc_core::sc_time queue;       // arrival at the drive until the drive started on it
    sc_core::sc_time overhead;    // command processing, completion and reselection overheads
    sc_core::sc_time seek;        // seek, head switch and write settle
    sc_core::sc_time rotation;    // rotational latency before the first media sector
    sc_core::sc_time transfer;    // media and bus transfer not hidden by the above
    sc_core::sc_time bus_wait;    // waiting to own the bus for reselection
    cache_outcome cache = cache_outcome::miss;
    bool write_back = false;      // write acknowledged from the drive's cache before reaching media
    uint32_t seek_distance_cyl = 0;
    // Where the media work of this command ended: the absolute time its last sector passed under
    // the head, and that track. Drive-internal: for statistics and waves, never for firmware.
    // Zero/none when the command needed no media access (a cache hit).
    sc_core::sc_time media_end;
    bool media_accessed = false;
    uint32_t end_cylinder = 0;
    uint32_t end_head = 0;

    sc_core::sc_time service() const { return overhead + seek + rotation + transfer + bus_wait; }
};

struct scsi_command : tlm::tlm_extension<scsi_command> {
    uint64_t lbn = 0;
    uint32_t blocks = 0;
    // The SCSI ID the initiator selects: a bus routes the command to the target socket of that ID.
    int target_id = 0;
    // Read-rotate-write (a WRITE): read the sectors, let the platter come round, write the new
    // data in the same revolution slot - the RAID 5 small-write primitive of the parity-logging
    // paper, as one atomic drive operation. The sectors' previous tokens go to old_tokens when set.
    bool read_rotate_write = false;
    std::vector<uint64_t> *old_tokens = nullptr;
    // Read-rotate-write only: >= 0 writes the new data at this LBN instead (floating data and
    // parity: read the old block, then write the new one to a free slot of the same cylinder as
    // soon as the head reaches it, in the same access). -1: in place.
    int64_t relocate_lbn = -1;
    // READ with FUA (Force Unit Access, SCSI READ(10) byte 1 bit 3): the drive reads the media
    // even when its cache holds the sectors. The firmware's reference reads need the media.
    bool force_unit_access = false;
    // Set by the target: CHECK CONDITION with sense key MEDIUM ERROR (a read of sectors the drive
    // cannot read back; the response is then TLM_GENERIC_ERROR_RESPONSE and no data moved).
    bool medium_error = false;
    // The host request this command serves, as its initiator numbers them (the host's issue
    // number; a controller's own command: the host command's sequence, firmware_api.h; -1: none,
    // e.g. a write-back destage). For waves only: a target never acts on it.
    int64_t host_request = -1;
    // The initiator's own observations (its chip's clock), stamped on the way: when selection
    // and the CDB were done, i.e. the command was delivered to the target (the bus stamps it),
    // and when the status phase ended (the channel stamps it). Not the drive's timing.
    sc_core::sc_time delivered_at = sc_core::SC_ZERO_TIME;
    sc_core::sc_time status_at = sc_core::SC_ZERO_TIME;
    access_timing timing;

    tlm::tlm_extension_base *clone() const override { return new scsi_command(*this); }
    void copy_from(const tlm::tlm_extension_base &other) override {
        *this = static_cast<const scsi_command &>(other);
    }
};

constexpr unsigned token_bytes = 8;  // per 512-byte sector
constexpr unsigned sector_bytes = 512;

}  // namespace raidtlm::protocol
