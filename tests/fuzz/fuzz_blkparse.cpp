// libFuzzer target: the blkparse trace parser (see fuzz_trace.h; run by scripts/fuzz).
#include "fuzz_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    return raidtlm::fuzz::fuzz_trace(data, size, raidtlm::testbench::trace_format::blkparse);
}
