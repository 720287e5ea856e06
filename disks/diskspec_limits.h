// Physical ranges of the DiskSim drive parameters whose absurd values would make the model
// allocate without bound, overflow or run for ever (issue 13: "Number of data surfaces =
// 2000000000" and "Segment size = 2e9" were accepted). A value outside its range is a spec_error
// naming file, line and the range. The ranges are wide on purpose: each upper bound sits one to
// two orders of magnitude above any drive built so far, so that no real drive is refused; the
// reason is given beside each. Lower bounds stay where the loader's own checks put them
// (negative overheads and settle times occur in DiskSim's validated specs).
#pragma once

#include <string>

namespace raidtlm::disks {

struct physical_range {
    const char *parameter;  // DiskSim's name
    double lo, hi;  // lo -infinity: below, the loader's own check of the parameter applies
    const char *why;  // the source of the bound, shown in the error
};

// The range of a DiskSim parameter, or nullptr when it has none here.
const physical_range *physical_range_of(const std::string &parameter);

// "a value from 0 to 4096 (why)" or "a value of at most 256 (why)", for errors.
std::string describe_range(const physical_range &r);

}  // namespace raidtlm::disks
