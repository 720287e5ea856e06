#include "controller/kit/predict/drive_latency.h"

#include <algorithm>

namespace raidtlm::controller {

namespace {
rtl_models::scsi_bus_config free_bus() {
    rtl_models::scsi_bus_config b = rtl_models::scsi_bus_config::with_preset(rtl_models::scsi_preset::custom);
    b.mtransfers_per_s = 0;
    b.phases = {0, 0, 0, 0, 0, 0, 0};
    return b;
}
}  // namespace

drive_latency::drive_latency(const disks::disk_spec &spec, const rtl_models::scsi_bus_config &bus)
    : m_overheads(spec.overheads),
      m_never_disconnect(spec.interface.never_disconnect),
      m_sector_bus_ms(std::max(spec.interface.bulk_sector_transfer_ms, bus.sector_us() * 1e-3)),
      m_reselect_ms(bus.reselect_us() * 1e-3),
      m_status_ms(bus.phases.status_us * 1e-3) {}

drive_latency::drive_latency(const disks::disk_spec &spec) : drive_latency(spec, free_bus()) {}

double drive_latency::read_after_media_ms(int sectors) const {
    (void)sectors;  // the bus outpaces the media: only the last sector's transfer is left over
    const double reconnect =
        m_never_disconnect ? 0.0 : scaled(m_overheads.first_reselect_ms) + m_reselect_ms + scaled(m_overheads.data_preparation_ms);
    return reconnect + m_sector_bus_ms + scaled(m_overheads.read_completion_ms) + m_status_ms;
}

double drive_latency::write_after_media_ms() const {
    return scaled(m_overheads.first_reselect_ms) + m_reselect_ms + scaled(m_overheads.write_completion_ms) + m_status_ms;
}

double drive_latency::read_reconnect_floor_ms(double arrive_ms, double command_overhead_ms) const {
    if (m_never_disconnect) return arrive_ms + command_overhead_ms + scaled(m_overheads.data_preparation_ms);
    const double disconnect =
        scaled(std::max(m_overheads.read_disconnect_after_read_ms, m_overheads.read_disconnect_after_write_ms));
    return arrive_ms + command_overhead_ms + disconnect;
}

}  // namespace raidtlm::controller
