#include "controller/families/raid/read_rotate_undo.h"

#include <algorithm>

namespace raidtlm::controller {

bool write_back_old_units(firmware_kit &kit, const std::vector<overwritten_unit> &units) {
    if (units.empty()) return true;
    uint64_t sectors = 0;
    bool data = false;
    std::vector<uint64_t> first;  // each unit's first sector in the buffer
    for (const overwritten_unit &u : units) {
        first.push_back(sectors);
        sectors += u.sectors;
        data = data || (u.old_tokens && !u.old_tokens->empty());
    }
    protocol::buffer_block *old = kit.platform.allocate_buffer(sectors * protocol::sector_bytes, data ? sectors : 0);
    if (data)
        for (size_t i = 0; i < units.size(); ++i)
            if (units[i].old_tokens)
                std::copy(units[i].old_tokens->begin(), units[i].old_tokens->end(),
                          old->tokens.begin() + int64_t(first[i]));
    const bool ok = kit.parallel(units.size(), [&](size_t i) {
        const overwritten_unit &u = units[i];
        return kit.disk_io(true, u.disk, u.drive_lbn, u.sectors, old, first[i]);
    });
    kit.platform.free_buffer(old);
    return ok;
}

}  // namespace raidtlm::controller
