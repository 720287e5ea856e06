#include "controller/kit/write_intent_log.h"

#include <cstddef>

namespace raidtlm::controller {

int64_t write_intent_log::record(uint64_t lbn, uint32_t sectors, uint64_t sequence, int affinity) {
    m_platform.cpu_run_priced(rtl_models::cpu_task::table_update, affinity);
    int64_t addr;
    while ((addr = m_platform.nvram_allocate(sizeof(intent_record))) < 0) sc_core::wait(m_space);
    intent_record r;
    r.lbn = lbn;
    r.sectors = sectors;
    r.sequence = sequence;
    m_platform.nvram_write(uint64_t(addr), &r, sizeof r);
    return addr;
}

void write_intent_log::clear(int64_t address) {
    uint32_t invalid = 0;
    m_platform.nvram_write(uint64_t(address) + offsetof(intent_record, valid), &invalid, sizeof invalid);
    m_platform.nvram_release(address);
    m_space.notify(sc_core::SC_ZERO_TIME);
}

std::vector<std::pair<int64_t, intent_record>> write_intent_log::read(const firmware_platform &platform) {
    std::vector<std::pair<int64_t, intent_record>> out;
    for (const auto &[addr, size] : platform.nvram_allocations()) {
        if (size != sizeof(intent_record)) continue;
        intent_record r;
        if (platform.nvram_peek(uint64_t(addr), &r, sizeof r) && r.magic == intent_record::magic_value && r.valid)
            out.emplace_back(addr, r);
    }
    return out;
}

}  // namespace raidtlm::controller
