// controller.dram.*: the buffer DRAM and its port arbitration.
#include "rtl_models/memory/dram_keys.h"

namespace raidtlm::rtl_models {

namespace {
const config::names<dram_arbitration> arbitration_names = {{"round_robin", dram_arbitration::round_robin},
                                                           {"fixed_priority", dram_arbitration::fixed_priority}};
}  // namespace

void declare_keys(config::declarations<dram_config> &k) {
    // Defaults: dram_arbiter.h (the IOP321's 64-bit DDR at 200 MT/s, 32-byte bursts).
    k.integer("width_bits", &dram_config::width_bits, "64", 8, 1024);
    k.number("mtransfers_per_s", &dram_config::mtransfers_per_s, "200")
        .min(0)
        .cap(1e6)
        .unit("MT/s")
        .note("0 = unlimited bandwidth");
    k.integer("burst_bytes", &dram_config::burst_bytes, "32", 0, 4096).note("0: byte granularity");
    // Given in MiB, kept in bytes.
    k.custom(
         "capacity_mib", "128", "",
         [](dram_config &d, const config::value_ref &v, const config::key_use &u) {
             d.capacity_bytes = uint64_t(config::read_integer(v, u, 0, 1 << 20)) << 20;
         },
         [](const dram_config &d) { return nlohmann::json(double(d.capacity_bytes) / double(1 << 20)); })
        .form("an integer in [0, 1048576]")
        .unit("MiB")
        .note("0 = unlimited");
    k.choice("arbitration", &dram_config::arbitration, "round_robin", arbitration_names);
}

}  // namespace raidtlm::rtl_models
