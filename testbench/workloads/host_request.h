// A host request: what the workload asks of the host adapter (or, later, the controller).
#pragma once

#include <cstdint>

namespace raidtlm::testbench {

struct host_request {
    uint64_t lbn = 0;      // first host sector (512 bytes)
    uint32_t sectors = 0;
    bool read = true;
};

}  // namespace raidtlm::testbench
