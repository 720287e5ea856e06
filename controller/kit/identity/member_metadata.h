// The firmware's member identity on the drives (member_superblock.h), for the families built on a
// firmware_kit: the superblocks written at the array's creation, rewritten on the members still
// served after every change of the members' states (event count + 1), and read back and judged
// at every start-up. Reads and writes are ordinary timed SCSI commands (the start-up reads go
// straight to the drives: the queues of before the loss are gone; the updates through the
// per-disk queues, beside the host's commands).
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "controller/firmware_api/firmware_api.h"
#include "controller/firmware_api/member_superblock.h"

namespace raidtlm::controller {

class firmware_kit;

struct member_metadata_statistics {
    uint64_t updates = 0;           // superblock updates (one event each)
    uint64_t superblocks_written = 0;
    uint64_t checks = 0;            // start-ups that read the members back
    uint64_t not_current = 0;       // members a check found absent, missing, foreign or stale
};

class member_metadata {
public:
    member_metadata(firmware_platform &platform, firmware_kit &kit);

    // Each member's drive LBN of its superblock (the array's data end before it).
    uint64_t superblock_lbn_of(int disk) const;
    uint64_t array_id() const { return m_array_id; }
    uint64_t events() const { return m_events; }

    // firmware::create_members_before_run: the superblocks placed without time (the array was
    // created before the simulated time begins).
    void create_before_run();
    // firmware::members_changed: a background update of every served member's superblock; changes
    // while one is being written are folded into the next.
    void record_change();
    // firmware::check_members: every member read back and judged; the event count goes on from the
    // freshest superblock.
    std::vector<member_verdict> check();

    const member_metadata_statistics &statistics() const { return m_stats; }
    // controller.firmware.member_identity in stats.json.
    void report(nlohmann::json &out) const;

private:
    member_superblock superblock_of(int disk) const;
    void write_all();

    firmware_platform &m_platform;
    firmware_kit &m_kit;
    uint64_t m_array_id = 0;
    uint64_t m_events = 0;
    uint32_t m_sectors = 0;
    bool m_pending = false;
    bool m_writing = false;
    uint64_t m_writer_epoch = 0;  // the power epoch of the running writer
    member_metadata_statistics m_stats;
};

}  // namespace raidtlm::controller
