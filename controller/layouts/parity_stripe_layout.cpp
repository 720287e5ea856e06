#include "controller/layouts/parity_stripe_layout.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace raidtlm::controller {

unit_place parity_stripe_layout::q_unit(int64_t) const {
    throw std::logic_error("a layout without a Q unit (" + describe() + ") was asked for one");
}

unit_place parity_stripe_layout::check_unit(int64_t stripe, int k) const {
    if (k == 0) return parity_unit(stripe);
    if (k == 1) return q_unit(stripe);
    throw std::logic_error("a layout with " + std::to_string(check_units()) + " check units (" + describe() +
                           ") was asked for check " + std::to_string(k));
}

int parity_stripe_layout::unit_on_disk(int64_t stripe, int disk) const {
    for (int k = 0, m = check_units(); k < m; ++k)
        if (check_unit(stripe, k).disk == disk) return check_on_disk(k);
    for (int j = 0, n = stripe_data_units(stripe); j < n; ++j)
        if (data_unit(stripe, j).disk == disk) return j;
    return -2;
}

int64_t parity_stripe_layout::logical_lbn_on_disk(int64_t stripe, int disk, int64_t drive_lbn) const {
    const int j = unit_on_disk(stripe, disk);
    if (j < 0)
        throw std::logic_error("disk " + std::to_string(disk) + " holds no data of stripe " + std::to_string(stripe));
    return stripe_first_lbn(stripe) + j * unit_sectors() + offset_in_unit(drive_lbn);
}

std::vector<unit_place> parity_stripe_layout::units_by_disk(int64_t stripe) const {
    std::vector<unit_place> units;
    for (int j = 0, n = stripe_data_units(stripe); j < n; ++j) units.push_back(data_unit(stripe, j));
    for (int k = 0, m = check_units(); k < m; ++k) units.push_back(check_unit(stripe, k));
    std::sort(units.begin(), units.end(), [](const unit_place &a, const unit_place &b) { return a.disk < b.disk; });
    return units;
}

}  // namespace raidtlm::controller
