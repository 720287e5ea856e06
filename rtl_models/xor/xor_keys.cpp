// controller.xor.*: the XOR engine.
#include "rtl_models/xor/xor_keys.h"

namespace raidtlm::rtl_models {

void declare_keys(config::declarations<xor_config> &k) {
    // Defaults: xor_logic.h (an IOP321-generation application accelerator).
    k.number("mhz", &xor_config::mhz, "200").above(0).cap(1e6).unit("MHz");
    k.number("bytes_per_cycle", &xor_config::bytes_per_cycle, "8").above(0).cap(1e6);
    // The GF multiply-accumulate (RAID 6 Q) mode; default: xor_logic.h (Intel 81341/81342 ADMA).
    k.number("gf_bytes_per_cycle", &xor_config::gf_bytes_per_cycle, "8").above(0).cap(1e6);
    k.integer("setup_cycles", &xor_config::setup_cycles, "100", 0, 1000000000).unit("cycles");
    k.integer("queue_depth", &xor_config::queue_depth, "8", 1, 1024);
}

}  // namespace raidtlm::rtl_models
