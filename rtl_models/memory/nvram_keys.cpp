// controller.nvram.*: the battery-backed NVRAM.
#include "rtl_models/memory/nvram_keys.h"

namespace raidtlm::rtl_models {

void declare_keys(config::declarations<nvram_config> &k) {
    // Defaults: nvram.h (battery-backed SRAM on an I/O processor's peripheral bus).
    // Given in KiB, kept in bytes.
    k.custom(
         "capacity_kib", "512", "",
         [](nvram_config &n, const config::value_ref &v, const config::key_use &u) {
             n.capacity_bytes = uint64_t(config::read_integer(v, u, 1, 1 << 20)) << 10;
         },
         [](const nvram_config &n) { return nlohmann::json(double(n.capacity_bytes) / 1024.0); })
        .form("an integer in [1, 1048576]")
        .unit("KiB");
    k.number("latency_ns", &nvram_config::latency_ns, "150").min(0).cap(1e9).unit("ns");
    k.number("mb_per_s", &nvram_config::mb_per_s, "100").min(0).cap(1e9).unit("MB/s").note("0 = unlimited");
}

}  // namespace raidtlm::rtl_models
