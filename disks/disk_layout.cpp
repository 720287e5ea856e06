#include "disks/disk_layout.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace raidtlm::disks {

namespace {

std::runtime_error layout_error(const source_location &where, const std::string &what) {
    return std::runtime_error(where.str() + ": " + what);
}

bool slips_use_spares(sparing_scheme s) {
    return s != sparing_scheme::sectors_per_cylinder_noslip && s != sparing_scheme::sectors_front_cylinder_noslip &&
           s != sparing_scheme::sectors_per_zone_noslip;
}

}  // namespace

disk_layout::disk_layout(const disk_spec &spec)
    : m_surfaces(spec.surfaces), m_cylinders(spec.cylinders), m_mapping(spec.layout.mapping) {
    if (m_surfaces <= 0) throw layout_error({spec.where("Number of data surfaces")}, "a disk needs at least one surface");
    if (spec.layout.zones.empty()) throw layout_error({spec.where("Zones")}, "the layout has no zones");
    m_zone_by_cyl.assign(std::max(0, m_cylinders), -1);
    int64_t next_lbn = 0;
    for (size_t i = 0; i < spec.layout.zones.size(); ++i) {
        zone z;
        z.spec = spec.layout.zones[i];
        z.first_lbn = next_lbn;
        build_zone(z, spec, i + 1 == spec.layout.zones.size());
        next_lbn += z.lbn_count;
        for (int c = z.spec.first_cyl; c <= z.spec.last_cyl; ++c) {
            if (c < 0 || c >= m_cylinders)
                throw layout_error(z.spec.where, "zone cylinder " + std::to_string(c) + " outside the disk's " +
                                                     std::to_string(m_cylinders) + " cylinders");
            if (m_zone_by_cyl[c] >= 0) throw layout_error(z.spec.where, "zones overlap at cylinder " + std::to_string(c));
            m_zone_by_cyl[c] = int(m_zones.size());
        }
        m_zones.push_back(std::move(z));
    }
    m_lbn_count = next_lbn;
}

void disk_layout::build_zone(zone &z, const disk_spec &spec, bool last_zone) {
    const zone_spec &zs = z.spec;
    if (zs.sectors_per_track <= 0) throw layout_error(zs.where, "Blocks per track must be positive");
    if (zs.last_cyl < zs.first_cyl) throw layout_error(zs.where, "Last cylinder number is below First cylinder number");
    z.spt = zs.sectors_per_track;
    z.cyls = zs.last_cyl - zs.first_cyl + 1;
    z.tracks = int64_t(z.cyls) * m_surfaces;
    z.slots = z.tracks * z.spt;
    const int64_t track_slots = z.spt;
    const int64_t cyl_slots = track_slots * m_surfaces;
    const sparing_scheme scheme = spec.layout.sparing;

    std::vector<std::pair<int64_t, int64_t>> raw;  // (start, length) before merging
    if (zs.empty_front_sectors > 0) raw.emplace_back(0, zs.empty_front_sectors);

    // Slips: whole tracks under track sparing, single slots otherwise.
    const bool track_units = scheme == sparing_scheme::tracks_per_zone;
    std::vector<int64_t> slip_slots;
    for (int64_t s : zs.slips) {
        const int64_t start = track_units ? s * track_slots : s;
        const int64_t len = track_units ? track_slots : 1;
        if (start < 0 || start + len > z.slots)
            throw layout_error(zs.where, "slip " + std::to_string(s) + " lies outside the zone");
        raw.emplace_back(start, len);
        slip_slots.push_back(start);
    }
    std::sort(slip_slots.begin(), slip_slots.end());
    auto slips_in = [&](int64_t b, int64_t e) {
        return int64_t(std::lower_bound(slip_slots.begin(), slip_slots.end(), e) -
                       std::lower_bound(slip_slots.begin(), slip_slots.end(), b));
    };
    // Spare space per sparing region. Where slipped units consume the region's spares, the
    // region still exports (size - spares) slots' worth of LBNs: they run on past each slip into
    // the spare area, so the spare hole starts wherever the region's LBNs end (a slip that lies in
    // the spare area costs nothing). The zone's management area counts against the first region.
    auto reserve = [&](int64_t b, int64_t e, int64_t spare_slots, int64_t unit, bool at_front) {
        spare_slots = std::min(spare_slots, e - b);
        if (spare_slots <= 0) return;
        if (at_front || !slips_use_spares(scheme)) {
            int64_t used = (at_front && slips_use_spares(scheme)) ? slips_in(b, e) * unit : 0;
            int64_t left = std::max<int64_t>(0, spare_slots - used);
            if (left > 0) raw.emplace_back(at_front ? b : e - left, left);
            return;
        }
        int64_t end_of_lbns = e - spare_slots;
        for (int64_t k = -1; k != slips_in(b, end_of_lbns);) {
            k = slips_in(b, end_of_lbns);
            end_of_lbns = std::min(e, e - spare_slots + k * unit);
        }
        if (end_of_lbns < e) raw.emplace_back(end_of_lbns, e - end_of_lbns);
    };
    const int64_t spares = zs.spares;
    switch (scheme) {
    case sparing_scheme::none: break;
    case sparing_scheme::tracks_per_zone: reserve(0, z.slots, spares * track_slots, track_slots, false); break;
    case sparing_scheme::sectors_per_cylinder:
    case sparing_scheme::sectors_per_cylinder_noslip:
        for (int64_t b = 0; b < z.slots; b += cyl_slots) reserve(b, b + cyl_slots, spares, 1, false);
        break;
    case sparing_scheme::sectors_per_track:
        for (int64_t b = 0; b < z.slots; b += track_slots) reserve(b, b + track_slots, spares, 1, false);
        break;
    case sparing_scheme::sectors_front_cylinder:
    case sparing_scheme::sectors_front_cylinder_noslip:
        for (int64_t b = 0; b < z.slots; b += cyl_slots) reserve(b, b + cyl_slots, spares, 1, true);
        break;
    case sparing_scheme::sectors_end_of_disk:
        if (last_zone) reserve(0, z.slots, spares, 1, false);
        break;
    case sparing_scheme::sectors_per_range: {
        const int64_t range = cyl_slots * std::max(1, spec.layout.sparing_range_cyl);
        for (int64_t b = 0; b < z.slots; b += range) reserve(b, std::min(z.slots, b + range), spares, 1, false);
        break;
    }
    case sparing_scheme::sectors_per_zone:
    case sparing_scheme::sectors_per_zone_noslip: reserve(0, z.slots, spares, 1, false); break;
    }

    // Merge into disjoint sorted holes with prefix sums for O(log n) translation.
    std::sort(raw.begin(), raw.end());
    for (auto [s, len] : raw) {
        if (!z.holes.empty() && s <= z.holes.back().start + z.holes.back().length) {
            auto &h = z.holes.back();
            h.length = std::max(h.start + h.length, s + len) - h.start;
        } else {
            z.holes.push_back({s, len, 0});
        }
    }
    int64_t total = 0;
    z.hole_prefix.reserve(z.holes.size() + 1);
    for (auto &h : z.holes) {
        z.hole_prefix.push_back(total);
        h.mapped_before = h.start - total;
        total += h.length;
    }
    z.hole_prefix.push_back(total);
    z.lbn_count = std::max<int64_t>(0, z.slots - total);

    for (auto [bad, good] : zs.defects) {
        const int64_t unit = track_units ? track_slots : 1;
        if (bad == good) continue;  // some extracted specs list a sector remapped onto itself
        for (int64_t k = 0; k < unit; ++k) {
            z.remap[bad * unit + k] = good * unit + k;
            z.unremap[good * unit + k] = bad * unit + k;
        }
    }
    for (const auto &r : z.remap) z.remapped_slots.push_back(r.first);
    std::sort(z.remapped_slots.begin(), z.remapped_slots.end());
}

const disk_layout::zone &disk_layout::zone_of_lbn(int64_t lbn) const {
    if (lbn < 0 || lbn >= m_lbn_count) throw std::out_of_range("LBN " + std::to_string(lbn) + " beyond the disk");
    auto it = std::upper_bound(m_zones.begin(), m_zones.end(), lbn,
                               [](int64_t l, const zone &z) { return l < z.first_lbn; });
    --it;
    while (it->lbn_count == 0) ++it;  // zones that map nothing own no LBN
    return *it;
}

const disk_layout::zone *disk_layout::zone_of_cyl(int cyl) const {
    if (cyl < 0 || cyl >= m_cylinders) return nullptr;
    int i = m_zone_by_cyl[cyl];
    return i < 0 ? nullptr : &m_zones[i];
}

int64_t disk_layout::mapped_slot(const zone &z, int64_t l) const {
    // Holes whose start comes at or before where LBN l would land push it past them.
    auto it = std::upper_bound(z.holes.begin(), z.holes.end(), l,
                               [](int64_t v, const hole &h) { return v < h.mapped_before; });
    return l + z.hole_prefix[size_t(it - z.holes.begin())];
}

int64_t disk_layout::slot_of(const zone &z, int64_t l) const {
    int64_t slot = mapped_slot(z, l);
    if (!z.remap.empty()) {
        auto r = z.remap.find(slot);
        if (r != z.remap.end()) slot = r->second;
    }
    return slot;
}

int64_t disk_layout::holes_before(const zone &z, int64_t slot) const {
    auto it = std::upper_bound(z.holes.begin(), z.holes.end(), slot,
                               [](int64_t v, const hole &h) { return v < h.start; });
    if (it == z.holes.begin()) return 0;
    const auto &h = *(it - 1);
    const size_t i = size_t(it - z.holes.begin()) - 1;
    return z.hole_prefix[i] + std::min(h.length, slot - h.start);
}

int64_t disk_layout::lbns_before(const zone &z, int64_t slot) const { return slot - holes_before(z, slot); }

std::optional<int64_t> disk_layout::lbn_of(const zone &z, int64_t slot) const {
    if (!z.unremap.empty()) {
        auto r = z.unremap.find(slot);
        if (r != z.unremap.end()) slot = r->second;
        else if (z.remap.count(slot)) return std::nullopt;  // defective, its data lives elsewhere
    }
    auto it = std::upper_bound(z.holes.begin(), z.holes.end(), slot,
                               [](int64_t v, const hole &h) { return v < h.start; });
    if (it != z.holes.begin()) {
        const auto &h = *(it - 1);
        if (slot < h.start + h.length) return std::nullopt;
    }
    int64_t l = slot - holes_before(z, slot);
    if (l >= z.lbn_count) return std::nullopt;
    return l;
}

void disk_layout::track_of(const zone &z, int64_t t, int &cyl, int &head) const {
    const int cyl_rel = int(t / m_surfaces);
    const int h = int(t % m_surfaces);
    cyl = z.spec.first_cyl + cyl_rel;
    bool reversed = false;
    if (m_mapping == lbn_mapping::serpentine_zone) reversed = (cyl_rel % 2) == 1;
    if (m_mapping == lbn_mapping::serpentine_absolute) reversed = (cyl % 2) == 1;
    head = reversed ? m_surfaces - 1 - h : h;
}

int64_t disk_layout::track_index(const zone &z, int cyl, int head) const {
    const int cyl_rel = cyl - z.spec.first_cyl;
    bool reversed = false;
    if (m_mapping == lbn_mapping::serpentine_zone) reversed = (cyl_rel % 2) == 1;
    if (m_mapping == lbn_mapping::serpentine_absolute) reversed = (cyl % 2) == 1;
    const int h = reversed ? m_surfaces - 1 - head : head;
    return int64_t(cyl_rel) * m_surfaces + h;
}

physical_address disk_layout::to_physical(int64_t lbn) const {
    const zone &z = zone_of_lbn(lbn);
    const int64_t slot = slot_of(z, lbn - z.first_lbn);
    physical_address p;
    track_of(z, slot / z.spt, p.cyl, p.head);
    p.slot = int(slot % z.spt);
    return p;
}

std::optional<int64_t> disk_layout::to_lbn(const physical_address &p) const {
    const zone *z = zone_of_cyl(p.cyl);
    if (!z || p.head < 0 || p.head >= m_surfaces || p.slot < 0 || p.slot >= z->spt) return std::nullopt;
    auto l = lbn_of(*z, track_index(*z, p.cyl, p.head) * z->spt + p.slot);
    if (!l) return std::nullopt;
    return z->first_lbn + *l;
}

int disk_layout::sectors_per_track(int cyl) const {
    for (int c = std::min(cyl, m_cylinders - 1); c >= 0; --c)
        if (m_zone_by_cyl[c] >= 0) return m_zones[m_zone_by_cyl[c]].spt;
    return m_zones.front().spt;
}

double disk_layout::slot_angle(int cyl, int head, double slot) const {
    const zone *z = zone_of_cyl(cyl);
    if (!z) {
        // Unmapped cylinder (a gap between zones): no data lives there, any angle will do.
        return 0.0;
    }
    const int64_t t = track_index(*z, cyl, head);
    const int64_t cyl_rel = t / m_surfaces;
    const double start = z->spec.first_block_offset_sectors + double(t - cyl_rel) * z->spec.track_skew_sectors +
                         double(cyl_rel) * z->spec.cylinder_skew_sectors;
    const double pos = std::fmod(start + slot, double(z->spt));
    return (pos < 0 ? pos + z->spt : pos) / z->spt;
}

void disk_layout::runs(int64_t lbn, int64_t count, std::vector<track_run> &out) const {
    int64_t end = lbn + count;
    if (lbn < 0 || end > m_lbn_count) throw std::out_of_range("request beyond the disk");
    while (lbn < end) {
        const zone &z = zone_of_lbn(lbn);
        const int64_t zl = lbn - z.first_lbn;
        const int64_t slot = slot_of(z, zl);
        const int64_t t = slot / z.spt;
        track_run r;
        track_of(z, t, r.cyl, r.head);
        r.first_slot = int(slot % z.spt);
        r.first_lbn = lbn;
        int64_t last_slot = slot;
        const int64_t l = run_end(z, zl, slot, std::min(z.lbn_count, end - z.first_lbn), last_slot);
        r.slots = int(last_slot - slot + 1);
        r.lbns = int(z.first_lbn + l - lbn);
        out.push_back(r);
        lbn = z.first_lbn + l;
    }
}

int64_t disk_layout::run_end(const zone &z, int64_t zl, int64_t slot, int64_t limit, int64_t &last_slot) const {
    // The run takes LBNs after zl while each lands on the track further along than the one
    // before (holes are passed over); a remapped LBN may land anywhere and is checked alone.
    // Between remapped slots LBNs fill ascending slots, so a whole stretch up to the next
    // remapped slot or the track's end is taken at once instead of one LBN at a time.
    const int64_t track_end_slot = (slot / z.spt + 1) * z.spt;
    if (z.remapped_slots.empty()) {
        // Nothing remapped: the run is every LBN up to the track's end, one per slot unless a
        // hole lies between.
        auto next_hole = std::upper_bound(z.holes.begin(), z.holes.end(), slot,
                                          [](int64_t v, const hole &h) { return v < h.start; });
        if (next_hole == z.holes.end() || next_hole->start >= track_end_slot) {
            const int64_t l = std::min(limit, zl + (track_end_slot - slot));
            last_slot = slot + (l - 1 - zl);
            return l;
        }
        const int64_t l = std::min(limit, lbns_before(z, track_end_slot));  // > zl: zl's slot lies before it
        last_slot = mapped_slot(z, l - 1);
        return l;
    }
    const int64_t track_end_l = lbns_before(z, track_end_slot);
    last_slot = slot;
    int64_t l = zl + 1;
    while (l < limit) {
        const int64_t raw = mapped_slot(z, l);
        const auto r = z.remap.find(raw);
        if (r != z.remap.end()) {
            if (r->second >= track_end_slot || r->second <= last_slot) break;
            last_slot = r->second;
            ++l;
            continue;
        }
        if (raw >= track_end_slot || raw <= last_slot) break;
        // raw < track_end_slot gives track_end_l > l; a remapped slot past raw has l + 1 or more
        // LBN slots before it: the stretch is never empty.
        int64_t stretch_end = std::min(limit, track_end_l);
        auto next_remapped = std::upper_bound(z.remapped_slots.begin(), z.remapped_slots.end(), raw);
        if (next_remapped != z.remapped_slots.end()) stretch_end = std::min(stretch_end, lbns_before(z, *next_remapped));
        last_slot = mapped_slot(z, stretch_end - 1);
        l = stretch_end;
    }
    return l;
}

int64_t disk_layout::track_end_lbn(int64_t lbn) const {
    const zone &z = zone_of_lbn(lbn);
    const int64_t slot = slot_of(z, lbn - z.first_lbn);
    const int64_t end_slot = (slot / z.spt + 1) * z.spt;
    return z.first_lbn + std::min(z.lbn_count, end_slot - holes_before(z, end_slot));
}

int64_t disk_layout::track_start_lbn(int64_t lbn) const {
    const zone &z = zone_of_lbn(lbn);
    const int64_t slot = slot_of(z, lbn - z.first_lbn);
    const int64_t start_slot = (slot / z.spt) * z.spt;
    return z.first_lbn + std::min(z.lbn_count, start_slot - holes_before(z, start_slot));
}

int disk_layout::blocks_per_track_at(int64_t lbn) const { return zone_of_lbn(lbn).spt; }

int64_t disk_layout::cylinder_end_lbn(int64_t lbn) const {
    const zone &z = zone_of_lbn(lbn);
    const int64_t slot = slot_of(z, lbn - z.first_lbn);
    const int64_t cyl_slots = int64_t(z.spt) * m_surfaces;
    const int64_t end_slot = (slot / cyl_slots + 1) * cyl_slots;
    return z.first_lbn + std::min(z.lbn_count, end_slot - holes_before(z, end_slot));
}

int disk_layout::lbns_on_track(int cyl, int head) const {
    const zone *z = zone_of_cyl(cyl);
    if (!z) return 0;
    const int64_t b = track_index(*z, cyl, head) * z->spt;
    const int64_t e = b + z->spt;
    return int(std::min(z->lbn_count, e - holes_before(*z, e)) - std::min(z->lbn_count, b - holes_before(*z, b)));
}

std::string fit_block_count(disk_spec &spec) {
    const disk_layout layout(spec);
    if (spec.block_count <= layout.lbn_count()) return "";
    const std::string msg = spec.where("Block count") + ": Block count " + std::to_string(spec.block_count) +
                            " exceeds the " + std::to_string(layout.lbn_count()) +
                            " blocks the zones map; the drive exports " + std::to_string(layout.lbn_count());
    spec.block_count = layout.lbn_count();
    return msg;
}

}  // namespace raidtlm::disks
