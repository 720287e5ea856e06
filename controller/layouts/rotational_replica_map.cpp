#include "controller/layouts/rotational_replica_map.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace raidtlm::controller {

namespace {

double turn(double x) { return x - std::floor(x); }

const disks::zone_spec *zone_of(const disks::disk_spec &spec, int cyl, int &index) {
    for (size_t i = 0; i < spec.layout.zones.size(); ++i) {
        const auto &z = spec.layout.zones[i];
        if (cyl >= z.first_cyl && cyl <= z.last_cyl) {
            index = int(i);
            return &z;
        }
    }
    return nullptr;
}

// The first LBN of track (cyl, head) when every slot holds the next LBN and all are exported.
std::optional<int64_t> clean_track(const disks::disk_layout &l, const disks::disk_spec &spec, const disks::zone_spec &z,
                                   int cyl, int head) {
    const int spt = z.sectors_per_track;
    const auto first = l.to_lbn({cyl, head, 0});
    const auto last = l.to_lbn({cyl, head, spt - 1});
    if (!first || !last || *last - *first != spt - 1 || l.lbns_on_track(cyl, head) != spt) return std::nullopt;
    if (*last >= spec.block_count) return std::nullopt;
    if (!z.defects.empty()) {
        for (int j = 0; j < spt; ++j) {
            const auto lbn = l.to_lbn({cyl, head, j});
            if (!lbn || *lbn != *first + j || !(l.to_physical(*lbn) == disks::physical_address{cyl, head, j}))
                return std::nullopt;
        }
    }
    return first;
}

}  // namespace

rotational_replica_map::rotational_replica_map(const disks::disk_spec &spec, int replicas, int cylinder_limit)
    : m_layout(spec),
      m_replicas(replicas),
      m_surfaces(spec.surfaces),
      m_tracks_per_replica(replicas > 0 ? spec.surfaces / replicas : 0),
      m_cylinder_limit(cylinder_limit) {
    if (replicas < 1) throw layout_error("Dr = " + std::to_string(replicas) + " rotational replicas; expected at least 1");
    if (replicas > m_surfaces)
        throw layout_error("Dr = " + std::to_string(replicas) + " rotational replicas need " + std::to_string(replicas) +
                           " tracks per cylinder; the disk has " + std::to_string(m_surfaces) + " surfaces");
    if (cylinder_limit < 1 || cylinder_limit > spec.cylinders)
        throw layout_error("the outer " + std::to_string(cylinder_limit) + " cylinders of a disk with " +
                           std::to_string(spec.cylinders) + " cylinders; expected 1 to " + std::to_string(spec.cylinders));

    std::vector<std::pair<int64_t, int>> tracks(static_cast<size_t>(m_surfaces));  // (first LBN, head)
    int prev_zone = -1;
    for (int c = 0; c < cylinder_limit; ++c) {
        int zone_index = -1;
        const disks::zone_spec *z = zone_of(spec, c, zone_index);
        if (!z) continue;
        bool clean = true;
        for (int h = 0; h < m_surfaces && clean; ++h) {
            const auto first = clean_track(m_layout, spec, *z, c, h);
            clean = first.has_value();
            if (clean) tracks[size_t(h)] = {*first, h};
        }
        if (!clean) continue;
        std::sort(tracks.begin(), tracks.end());  // the drive's own track order within the cylinder
        used_cylinder u;
        u.cyl = c;
        u.spt = z->sectors_per_track;
        u.first_dbn = m_data_sectors;
        u.track_skew_turn = z->track_skew_sectors / u.spt;
        if (!m_cylinders.empty() && m_cylinders.back().cyl == c - 1 && prev_zone == zone_index) {
            const used_cylinder &p = m_cylinders.back();
            u.anchor_turn = turn(p.anchor_turn + (m_tracks_per_replica - 1) * p.track_skew_turn +
                                 z->cylinder_skew_sectors / u.spt);
        } else {
            u.anchor_turn = m_layout.slot_angle(c, tracks[0].second, 0);
        }
        for (const auto &[lbn, head] : tracks) {
            m_track_first_lbn.push_back(lbn);
            m_track_head.push_back(head);
        }
        m_cylinders.push_back(u);
        m_data_sectors += int64_t(m_tracks_per_replica) * u.spt;
        prev_zone = zone_index;
    }
    if (m_cylinders.empty())
        throw layout_error("no defect-free cylinder among the outer " + std::to_string(cylinder_limit) + " of " +
                           std::to_string(spec.cylinders));
}

rotational_replica_map::position rotational_replica_map::find(int64_t dbn, int r, double extra_turn) const {
    if (dbn < 0 || dbn >= m_data_sectors)
        throw std::out_of_range("data sector " + std::to_string(dbn) + " beyond the disk's " +
                                std::to_string(m_data_sectors));
    if (r < 0 || r >= m_replicas) throw std::out_of_range("replica " + std::to_string(r));
    auto it = std::upper_bound(m_cylinders.begin(), m_cylinders.end(), dbn,
                               [](int64_t d, const used_cylinder &u) { return d < u.first_dbn; });
    const size_t k = size_t(it - m_cylinders.begin()) - 1;
    const used_cylinder &u = m_cylinders[k];
    const int64_t offset = dbn - u.first_dbn;
    const int g = int(offset / u.spt);
    const int s = int(offset % u.spt);
    position p;
    p.k = k;
    p.track = r * m_tracks_per_replica + g;
    p.head = m_track_head[k * size_t(m_surfaces) + size_t(p.track)];
    const double target = u.anchor_turn + g * u.track_skew_turn + double(r) / m_replicas + extra_turn;
    const double slot0 = m_layout.slot_angle(u.cyl, p.head, 0);
    const int start = int(std::llround(turn(target - slot0) * u.spt) % u.spt);
    p.slot = (start + s) % u.spt;
    p.slots_left = u.spt - s;
    return p;
}

disks::physical_address rotational_replica_map::locate(int64_t dbn, int r, double extra_turn) const {
    const position p = find(dbn, r, extra_turn);
    return {m_cylinders[p.k].cyl, p.head, p.slot};
}

void rotational_replica_map::extents(int64_t dbn, int32_t n, int r, double extra_turn,
                                     std::vector<disk_extent> &out) const {
    while (n > 0) {
        const position p = find(dbn, r, extra_turn);
        const int spt = m_cylinders[p.k].spt;
        const int64_t track_lbn = m_track_first_lbn[p.k * size_t(m_surfaces) + size_t(p.track)];
        const int32_t on_track = std::min<int32_t>(n, p.slots_left);
        const int32_t before_wrap = std::min<int32_t>(on_track, spt - p.slot);
        out.push_back({track_lbn + p.slot, before_wrap, false});
        if (on_track > before_wrap) out.push_back({track_lbn, on_track - before_wrap, true});
        dbn += on_track;
        n -= on_track;
    }
}

}  // namespace raidtlm::controller
