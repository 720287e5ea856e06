#include "testbench/commands/drive_interface_time.h"

#include <fmt/format.h>

namespace raidtlm::testbench {

drive_interface_time choose_drive_interface_time(const scenario &s, double spec_ms) {
    drive_interface_time t;
    const double given = s.disks.bulk_sector_transfer_ms;
    if (given == disks_config::interface_auto) {
        t.bulk_sector_transfer_ms = s.controller.enabled ? 0.0 : spec_ms;
        return t;
    }
    t.bulk_sector_transfer_ms = given == disks_config::interface_spec ? spec_ms : given;
    const rtl_models::scsi_bus_config &bus = s.controller.config.bus;
    // A bus of unlimited rate (0 MT/s) states no rate to contradict.
    if (!s.controller.enabled || bus.mtransfers_per_s <= 0) return t;
    const double bus_ms = bus.sector_us() * 1e-3;
    if (t.bulk_sector_transfer_ms > bus_ms * (1 + 1e-9)) {
        auto mb_per_s = [](double ms_per_sector) { return 512.0 / (ms_per_sector * 1e-3) / 1e6; };
        t.warning = fmt::format(
            "disks.bulk_sector_transfer_ms {}{} ms per sector ({:.1f} MB/s) is slower than the modelled SCSI bus "
            "(controller.bus: {:.1f} MB/s, {:.5f} ms per sector); data cross the bus at the drive's {:.1f} MB/s "
            "(auto: the bus's rate)",
            given == disks_config::interface_spec ? "spec = " : "", t.bulk_sector_transfer_ms,
            mb_per_s(t.bulk_sector_transfer_ms), bus.rate_mb_per_s(), bus_ms, mb_per_s(t.bulk_sector_transfer_ms));
    }
    return t;
}

}  // namespace raidtlm::testbench
