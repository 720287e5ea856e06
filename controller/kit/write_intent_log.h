// Write-intent records in NVRAM: before a write goes to the drives the firmware records it (a
// CPU table update and a timed NVRAM write) and clears the record when the write is done, so
// after a power loss the records still valid name the writes that may be torn.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include <systemc>

#include "controller/firmware_api/firmware_api.h"

namespace raidtlm::controller {

// One record as kept in NVRAM.
struct intent_record {
    static constexpr uint32_t magic_value = 0x4e544e49;  // "INTN"
    uint32_t magic = magic_value;
    uint32_t valid = 1;
    uint64_t lbn = 0;
    uint32_t sectors = 0;
    uint32_t reserved = 0;
    uint64_t sequence = 0;
};

class write_intent_log {
public:
    explicit write_intent_log(firmware_platform &platform) : m_platform(platform) {}
    // Records a write (waits for NVRAM space); returns the record's address.
    int64_t record(uint64_t lbn, uint32_t sectors, uint64_t sequence, int affinity);
    void clear(int64_t address);
    // The valid records in NVRAM by address (untimed; also after a power loss).
    static std::vector<std::pair<int64_t, intent_record>> read(const firmware_platform &platform);

private:
    firmware_platform &m_platform;
    sc_core::sc_event m_space;
};

}  // namespace raidtlm::controller
