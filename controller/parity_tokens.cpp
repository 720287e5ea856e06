#include "controller/parity_tokens.h"

#include "controller/data_token.h"

namespace raidtlm::controller {

std::vector<uint64_t> new_parity_tokens(const parity_layout &layout, const stripe_write_plan &plan,
                                        const new_data_tokens &new_data, const read_tokens &read) {
    const disk_op &target = plan.parity_write();
    const int64_t unit = layout.unit_sectors();
    const int64_t row0 = plan.stripe * unit;
    const int64_t end = plan.lbn + plan.sectors;
    std::vector<uint64_t> out;
    out.reserve(size_t(target.sectors));
    for (int64_t row = target.drive_lbn; row < target.drive_lbn + target.sectors; ++row) {
        const int64_t offset = row - row0;
        uint64_t p = plan.path == write_path::read_modify_write ? read(target.disk, row) : 0;
        for (int j = 0; j < layout.data_units_per_stripe(); ++j) {
            const int64_t lbn = layout.logical_lbn(plan.stripe, j, offset);
            const bool written = lbn >= plan.lbn && lbn < end;
            const int disk = layout.data_disk(plan.stripe, j);
            if (plan.path == write_path::read_modify_write) {
                if (written) p = read_modify_write_parity(p, read(disk, row), new_data(lbn));
            } else {
                p ^= written ? new_data(lbn) : read(disk, row);
            }
        }
        out.push_back(p);
    }
    return out;
}

}  // namespace raidtlm::controller
