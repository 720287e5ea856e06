#include "controller/layouts/layout.h"

namespace raidtlm::controller {

void layout::check_range(int64_t lbn, int32_t sectors) const {
    if (lbn < 0 || sectors < 0 || lbn + sectors > capacity_sectors())
        throw std::out_of_range("logical range [" + std::to_string(lbn) + ", " + std::to_string(lbn + sectors) +
                                ") leaves the array's " + std::to_string(capacity_sectors()) + " sectors");
}

}  // namespace raidtlm::controller
