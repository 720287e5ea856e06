#include "controller/kit/parity_tokens.h"

#include "controller/kit/data_token.h"

namespace raidtlm::controller {

std::vector<uint64_t> new_parity_tokens(const parity_stripe_layout &layout, const stripe_write_plan &plan,
                                        const new_data_tokens &new_data, const read_tokens &read) {
    const disk_op &target = plan.parity_write();
    const int64_t end = plan.lbn + plan.sectors;
    std::vector<uint64_t> out;
    out.reserve(size_t(target.sectors));
    const int64_t first = layout.stripe_first_lbn(plan.stripe), unit = layout.unit_sectors();
    for (int64_t row = target.drive_lbn; row < target.drive_lbn + target.sectors; ++row) {
        const int64_t offset = layout.offset_in_unit(row);
        uint64_t p = plan.path == write_path::read_modify_write ? read(target.disk, row) : 0;
        for (int j = 0, n = layout.stripe_data_units(plan.stripe); j < n; ++j) {
            const int64_t lbn = first + j * unit + offset;
            const bool written = lbn >= plan.lbn && lbn < end;
            const unit_place u = layout.data_unit(plan.stripe, j);
            const int64_t at = u.drive_lbn + offset;  // the unit's sector in this row
            if (plan.path == write_path::read_modify_write) {
                if (written) p = read_modify_write_parity(p, read(u.disk, at), new_data(lbn));
            } else {
                p ^= written ? new_data(lbn) : read(u.disk, at);
            }
        }
        out.push_back(p);
    }
    return out;
}

}  // namespace raidtlm::controller
