// Floating units (floating_units.h): the per-disk maps, the translation of every drive command,
// one unit's relocating read-rotate-write and its table update. Moved here from
// floating_firmware.cpp unchanged so that floating over RAID 6 shares it.
#include "controller/families/floating/floating_units.h"

#include <fmt/format.h>

#include "controller/firmware_api/member_superblock.h"

namespace raidtlm::controller {

namespace {
constexpr const char *msg_type = "/raidtlm/controller/floating";

std::unique_ptr<disks::disk_layout> firmware_geometry(const disk_info &disk) {
    if (!disk.geometry) SC_REPORT_FATAL(msg_type, "floating needs the drives' geometry (disk_info::geometry)");
    return std::make_unique<disks::disk_layout>(*disk.geometry);
}

floating_map make_map(const disks::disk_layout &g, const disk_info &disk, int unit_sectors) {
    try {
        // `disk`'s capacity is the member's data sectors (its superblock after them): whole cylinders below.
        return floating_map(g, unit_sectors, disk.geometry->mech.head_switch_ms, 60000.0 / disk.geometry->mech.rpm,
                            int64_t(disk.capacity_blocks));
    } catch (const layout_error &e) {
        SC_REPORT_FATAL(msg_type, e.what());
        throw;
    }
}
}  // namespace

int64_t floating_logical_sectors(const disk_info &disk, int unit_sectors) {
    const auto g = firmware_geometry(disk);
    return make_map(*g, disk, unit_sectors).logical_sectors();
}

floating_units::floating_units(firmware_platform &platform, firmware_kit &kit) : m_platform(platform), m_kit(kit) {
    m_unit_sectors = int(platform.config().firmware.stripe_unit_sectors);
    m_geometry = firmware_geometry(platform.drive_info(0));
    for (int i = 0; i < platform.disk_count(); ++i) {
        if (platform.drive_info(i).geometry != platform.drive_info(0).geometry)
            SC_REPORT_FATAL(msg_type, "floating needs drives of one model");
        disk_info member = platform.drive_info(i);
        member.capacity_blocks = member_data_sectors(member.capacity_blocks);  // as make_array_layout gives it
        m_maps.push_back(std::make_unique<floating_map>(make_map(*m_geometry, member, m_unit_sectors)));
        m_stats.table_bits += uint64_t(m_maps.back()->bitmask_bits() + m_maps.back()->location_table_bits());
    }
    // Every drive command of the array's map goes to where its unit is now; the slot is held
    // while the command is in flight.
    m_kit.translate_lbn = [this](int d, uint64_t lbn, uint32_t sectors) {
        const uint64_t at = drive_lbn(d, lbn, sectors);
        m_maps[size_t(d)]->hold(int64_t(at));
        return at;
    };
    m_kit.translation_done = [this](int d, uint64_t at) { m_maps[size_t(d)]->release(int64_t(at)); };
}

floating_units::~floating_units() = default;

uint64_t floating_units::drive_lbn(int d, uint64_t lbn, uint32_t sectors) const {
    const uint64_t unit = uint64_t(m_unit_sectors);
    if (sectors == 0 || lbn / unit != (lbn + sectors - 1) / unit)
        SC_REPORT_FATAL(msg_type, fmt::format("a drive command of {} sectors at {} spans stripe units", sectors, lbn)
                                      .c_str());
    return uint64_t(m_maps[size_t(d)]->drive_lbn(int64_t(lbn / unit))) + lbn % unit;
}

std::optional<floating_units::move> floating_units::begin_move(int disk, uint64_t lbn) {
    return m_maps[size_t(disk)]->begin_move(int64_t(lbn) / m_unit_sectors);
}

uint64_t floating_units::destination(int disk, uint64_t lbn, const std::optional<move> &m) const {
    if (m) return uint64_t(m->new_drive_lbn);
    return uint64_t(m_maps[size_t(disk)]->drive_lbn(int64_t(lbn) / m_unit_sectors));
}

bool floating_units::read_rotate_write(int disk, uint64_t lbn, const std::optional<move> &m,
                                       protocol::buffer_block *buffer, uint64_t standin, uint64_t own_slot,
                                       std::vector<uint64_t> *old_tokens) {
    const uint64_t unit = uint64_t(m_unit_sectors);
    const uint64_t first = lbn / unit * unit;  // the whole unit moves
    uint64_t carried = standin;
    if (!m && !buffer->tokens.empty()) {
        // Untimed: the stripe is locked, so the unit holds what the drive will read.
        m_platform.peek_untimed(disk, drive_lbn(disk, first, uint32_t(unit)), uint32_t(unit),
                                buffer->tokens.data() + own_slot);
        carried = own_slot;
    }
    return m_kit.disk_io(true, disk, first, uint32_t(unit), buffer, carried, old_tokens, nullptr, nullptr,
                         m ? m->new_drive_lbn : -1);
}

void floating_units::settle(int disk, const std::optional<move> &m, bool ok, int affinity) {
    if (!m) {
        ++m_stats.in_place;
        return;
    }
    if (!ok) {
        m_maps[size_t(disk)]->cancel_move(*m);
        return;
    }
    m_maps[size_t(disk)]->finish_move(*m);
    ++m_stats.moves;
    m_stats.wait_revolutions += m->wait_revolutions;
    m_stats.head_switches += m->head_switch ? 1 : 0;
    m_kit.table_update(affinity);
}

void floating_units::restart_after_power_loss() {
    for (auto &m : m_maps) {
        m->clear_holds();
        m->forget_moves_in_flight();
    }
}

void floating_units::reset_statistics() {
    floating_statistics fresh;
    fresh.table_bits = m_stats.table_bits;  // a size, not a count
    m_stats = fresh;
}

void floating_units::report(nlohmann::json &out) const {
    // Units moved to a free slot of their cylinder, the mean rotational wait from the end of the
    // old unit's read to the new slot (revolutions), and the mapping tables' size (all disks).
    const floating_statistics &f = m_stats;
    out["floating"] = {{"moves", f.moves},
                       {"in_place", f.in_place},
                       {"head_switches", f.head_switches},
                       {"mean_wait_revolutions", f.moves ? f.wait_revolutions / double(f.moves) : 0.0},
                       {"table_bits", f.table_bits},
                       {"table_kib", double(f.table_bits) / 8 / 1024}};
}

}  // namespace raidtlm::controller
