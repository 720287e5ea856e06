#include "controller/families/floating/floating_map.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "controller/layouts/layout.h"

namespace raidtlm::controller {

floating_map::floating_map(const disks::disk_layout &geometry, int unit_sectors, double head_switch_ms,
                           double period_ms, int64_t usable_sectors)
    : m_geometry(geometry), m_unit_sectors(unit_sectors), m_head_switch_revolutions(head_switch_ms / period_ms) {
    if (unit_sectors <= 0 || period_ms <= 0) throw layout_error("floating: stripe unit and period must be positive");
    m_tracks = geometry.surfaces();
    m_cylinders = geometry.cylinders();
    if (m_tracks < 2) throw layout_error("floating: needs at least two tracks per cylinder (one is kept free)");
    const int spt = geometry.sectors_per_track(0);
    if (spt % unit_sectors != 0)
        throw layout_error("floating: " + std::to_string(spt) + " sectors per track is not a multiple of the " +
                           std::to_string(unit_sectors) + "-sector stripe unit");
    for (int c = 0; c < m_cylinders; ++c)
        for (int h = 0; h < m_tracks; ++h)
            if (geometry.sectors_per_track(c) != spt || geometry.lbns_on_track(c, h) != spt)
                throw layout_error("floating: cylinder " + std::to_string(c) + " head " + std::to_string(h) +
                                   " is not a full track of " + std::to_string(spt) +
                                   " sectors (floating needs one zone and no spares or slips)");
    if (usable_sectors >= 0)
        m_cylinders = int(std::min<int64_t>(m_cylinders, usable_sectors / (int64_t(spt) * m_tracks)));
    m_units_per_track = spt / unit_sectors;
    if (m_units_per_track * m_tracks > 65535) throw layout_error("floating: too many units per cylinder");
    m_units_per_cylinder = m_units_per_track * (m_tracks - 1);
    // Initially unit i of a cylinder is in slot i: the last track of every cylinder is the free one.
    m_location.resize(size_t(logical_units()));
    for (int64_t u = 0; u < logical_units(); ++u) m_location[size_t(u)] = uint16_t(u % m_units_per_cylinder);
    m_used.assign(size_t(m_cylinders), std::vector<bool>(size_t(m_units_per_track * m_tracks), false));
    for (auto &c : m_used)
        for (int s = 0; s < m_units_per_cylinder; ++s) c[size_t(s)] = true;
}

int floating_map::slot_of(int64_t u) const {
    if (u < 0 || u >= logical_units()) throw std::out_of_range("floating: logical unit out of range");
    return m_location[size_t(u)];
}

int64_t floating_map::drive_lbn(int64_t u) const {
    const int cyl = int(u / m_units_per_cylinder);
    const int slot = slot_of(u);
    const auto lbn = m_geometry.to_lbn({cyl, slot / m_units_per_track, (slot % m_units_per_track) * m_unit_sectors});
    return *lbn;  // every slot is mapped (checked in the constructor)
}

double floating_map::slot_start(int cyl, int slot) const {
    return m_geometry.slot_angle(cyl, slot / m_units_per_track, double((slot % m_units_per_track) * m_unit_sectors));
}

std::optional<floating_map::move> floating_map::begin_move(int64_t u) {
    const int cyl = int(u / m_units_per_cylinder);
    const int old_slot = slot_of(u);
    const int old_track = old_slot / m_units_per_track;
    const double unit_revolutions = double(m_unit_sectors) / m_geometry.sectors_per_track(cyl);
    const double read_end = slot_start(cyl, old_slot) + unit_revolutions;
    std::optional<move> best;
    auto &used = m_used[size_t(cyl)];
    for (int s = 0; s < int(used.size()); ++s) {
        if (used[size_t(s)] || m_holds.count({cyl, s})) continue;
        const bool other_track = s / m_units_per_track != old_track;
        const double ready = read_end + (other_track ? m_head_switch_revolutions : 0.0);
        // Turns from when the head is ready to the slot's start; a slot starting within 1e-9 of
        // a revolution before "ready" (rounding) counts as reachable at once.
        double wait = slot_start(cyl, s) - ready;
        wait -= std::floor(wait);
        if (wait > 1.0 - 1e-9) wait = 0.0;
        if (!best || wait < best->wait_revolutions) best = move{u, old_slot, s, 0, wait, other_track};
    }
    if (!best) return std::nullopt;
    used[size_t(best->new_slot)] = true;
    best->new_drive_lbn = *m_geometry.to_lbn(
        {cyl, best->new_slot / m_units_per_track, (best->new_slot % m_units_per_track) * m_unit_sectors});
    return best;
}

void floating_map::finish_move(const move &m) {
    const int cyl = int(m.logical_unit / m_units_per_cylinder);
    if (m_location[size_t(m.logical_unit)] != m.old_slot)
        throw std::logic_error("floating: unit moved by another write meanwhile");
    m_location[size_t(m.logical_unit)] = uint16_t(m.new_slot);
    m_used[size_t(cyl)][size_t(m.old_slot)] = false;
}

void floating_map::cancel_move(const move &m) {
    const int cyl = int(m.logical_unit / m_units_per_cylinder);
    if (m_location[size_t(m.logical_unit)] == m.new_slot) throw std::logic_error("floating: a finished move cancelled");
    m_used[size_t(cyl)][size_t(m.new_slot)] = false;
}

std::pair<int, int> floating_map::slot_at(int64_t drive_lbn) const {
    const disks::physical_address p = m_geometry.to_physical(drive_lbn);
    return {p.cyl, p.head * m_units_per_track + p.slot / m_unit_sectors};
}

void floating_map::hold(int64_t drive_lbn) { ++m_holds[slot_at(drive_lbn)]; }

void floating_map::release(int64_t drive_lbn) {
    const auto it = m_holds.find(slot_at(drive_lbn));
    if (it == m_holds.end()) throw std::logic_error("floating: a slot released that was not held");
    if (--it->second == 0) m_holds.erase(it);
}

int floating_map::holds(int64_t drive_lbn) const {
    const auto it = m_holds.find(slot_at(drive_lbn));
    return it == m_holds.end() ? 0 : it->second;
}

void floating_map::forget_moves_in_flight() {
    for (auto &c : m_used) std::fill(c.begin(), c.end(), false);
    for (int64_t u = 0; u < logical_units(); ++u) m_used[size_t(u / m_units_per_cylinder)][m_location[size_t(u)]] = true;
}

int floating_map::free_slots(int cyl) const {
    int n = 0;
    for (bool b : m_used.at(size_t(cyl))) n += b ? 0 : 1;
    return n;
}

int64_t floating_map::bitmask_bits() const { return int64_t(m_cylinders) * m_units_per_track * m_tracks; }

int64_t floating_map::location_table_bits() const {
    const int bits = int(std::ceil(std::log2(double(m_units_per_track * m_tracks))));
    return int64_t(m_cylinders) * m_units_per_cylinder * bits;
}

}  // namespace raidtlm::controller
