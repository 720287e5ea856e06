#include "controller/families/raid/raid_firmware.h"

#include "controller/kit/lost_range_report.h"

#include "controller/firmware_api/plugins.h"

namespace raidtlm::controller {

namespace {
std::vector<uint64_t> capacities(const firmware_platform &p) {
    std::vector<uint64_t> c;
    // A redundant layout's members keep their superblock in their last sectors (member_superblock.h).
    const bool identity = layout_keeps_member_identity(p.config().firmware.array);
    for (int d = 0; d < p.disk_count(); ++d) {
        const uint64_t blocks = p.drive_info(d).capacity_blocks;
        c.push_back(identity ? member_data_sectors(blocks) : blocks);
    }
    return c;
}
}  // namespace

raid_firmware::raid_firmware(firmware_platform &platform)
    : kit_firmware(platform),
      m_rebuild(
          platform, [this](int disk, uint64_t unit) { return rebuild_stripe_unit(disk, int64_t(unit)); },
          [this](int disk, uint64_t unit) { return rebuild_unit_bytes(disk, int64_t(unit)); }),
      m_platform(platform),
      m_layout(make_array_layout(platform)),
      m_map(platform.config().firmware.layout, platform.config().firmware.stripe_unit_sectors, capacities(platform)) {
    m_stripes = dynamic_cast<const parity_stripe_layout *>(m_layout.get());
    m_known_failed = platform.failed_disks();
    m_parity = dynamic_cast<const parity_layout *>(m_layout.get());
    plan_host_pieces();
}

void raid_firmware::plan_host_pieces() {
    const uint64_t unit = m_platform.config().firmware.stripe_unit_sectors;
    const uint64_t disks = uint64_t(m_platform.disk_count());
    // Pieces of whole stripes where every stripe holds as much data (RAID 0/4/5/6; AdaptRaid5's
    // stripes differ in width: pieces of whole units there).
    uint64_t stripe_data = m_layout && !m_stripes ? disks * unit : 0;
    if (m_stripes) {
        const int64_t last = stripe_count() - 1;
        const int64_t width = m_stripes->stripe_data_units(0);
        bool uniform = true;
        for (int64_t s : {int64_t(1), last})
            uniform = uniform && s <= last && m_stripes->stripe_data_units(s) == width &&
                      m_stripes->stripe_first_lbn(s) == s * width * int64_t(unit);
        if (uniform) stripe_data = uint64_t(width) * unit;
    }
    // The largest work buffer one stripe's I/O allocates: a read-modify-write's 1 + 2n slots of
    // a unit (floating: 2n + 1), RAID 6's checks beside them; RAID 0 none.
    const uint64_t work_bytes = m_stripes ? (2 * disks + 3) * unit * protocol::sector_bytes : 0;
    m_kit.plan_host_pieces(stripe_data, unit, work_bytes);
}

raid_firmware::~raid_firmware() = default;

uint64_t raid_firmware::capacity_sectors() const {
    return m_layout ? uint64_t(m_layout->capacity_sectors()) : m_map.capacity_sectors();
}

bool raid_firmware::serve(const host_command &cmd) {
    const int64_t lbn = int64_t(cmd.lbn), sectors = int64_t(cmd.sectors);
    // Overlapping host requests are served in the order they began (host_read_fence.h): a write
    // of two logical stripes locks them one after the other, so an overlapping write begun
    // later could otherwise come first on one and second on the other; a read begun after a
    // write must not return what the write replaces. A read counts as begun once those writes
    // are done, so a write waiting at its acknowledgement for earlier reads never waits for it.
    const uint64_t write_ticket = cmd.write ? m_order.write_begins(lbn, sectors) : 0;
    if (cmd.write)
        m_order.wait_for_earlier_writes(m_platform, write_ticket);
    else
        m_order.wait_for_earlier_writes(m_platform, lbn, sectors);
    const uint64_t read_ticket = cmd.write ? 0 : m_order.read_begins(lbn, sectors);
    // In pieces through a bounded buffer (host_pieces.h); the fences above and below hold for the
    // whole command.
    bool ok = false;
    const firmware_kit::host_request r = m_kit.serve_pieces(
        cmd, [&](const host_command &piece, protocol::buffer_block *buffer) { return serve_range(piece, buffer); }, &ok);
    // Not acknowledged while an overlapping read begun before it may still return the old data
    // (a read served piece by piece: one piece read early, another queued behind a busy disk).
    if (cmd.write) wait_for_earlier_reads(lbn, sectors);
    if (write_ticket) m_order.write_done(write_ticket);
    m_kit.finish(cmd, r);
    m_kit.free_host_buffer(r.buffer);
    if (read_ticket) m_order.read_done(read_ticket);
    return ok;
}

bool raid_firmware::serve_range(const host_command &cmd, protocol::buffer_block *buffer) {
    bool ok;
    std::vector<disk_fragment> pieces;
    if (!m_layout) {
        m_map.map(cmd.lbn, cmd.sectors, pieces);
        ok = m_kit.run_fragments(cmd.write, pieces, buffer);
    } else if (m_stripes && single_parity() && (notice_losses(), touches_lost_stripe(cmd.lbn, cmd.sectors))) {
        ok = false;  // a stripe that lost two members: its data are gone
        ++m_stats.lost_stripe_requests;
    } else if (m_stripes && !cmd.write && overlaps_lost_sectors(cmd.lbn, cmd.sectors)) {
        ok = false;  // sectors lost to a second fault (a torn write with a member lost): never served wrong
        ++m_stats.lost_stripe_requests;
    } else if (m_stripes && cmd.write) {
        const uint64_t mark = m_lost_sectors.mark();
        ok = stripes_write(cmd.lbn, cmd.sectors, buffer, cmd.affinity);
        if (ok) m_lost_sectors.written(int64_t(cmd.lbn), int64_t(cmd.lbn + cmd.sectors), mark);
    } else if (m_stripes) {
        const uint64_t mark = m_lost_sectors.mark();
        ok = stripes_read(cmd.lbn, cmd.sectors, buffer, cmd.affinity);
        if (ok && m_lost_sectors.noted_since(mark, int64_t(cmd.lbn), int64_t(cmd.lbn + cmd.sectors))) {
            ok = false;  // lost while the read was out: what it read is unknown (lost_sector_record.h)
            ++m_stats.lost_stripe_requests;
        }
    } else {
        m_kit.fragments_of(*m_layout, cmd.write, cmd.lbn, cmd.sectors, pieces);
        ok = !pieces.empty() && m_kit.run_fragments(cmd.write, pieces, buffer);
    }
    return ok;
}

bool raid_firmware::stripes_write(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity) {
    return parity_write(lbn, sectors, buffer, affinity);
}

bool raid_firmware::stripes_read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity) {
    if (!all_optimal()) return degraded_read(lbn, sectors, buffer, affinity);
    std::vector<disk_fragment> pieces;
    m_kit.fragments_of(*m_layout, false, lbn, sectors, pieces);
    if (pieces.empty()) return false;
    if (m_kit.run_fragments(false, pieces, buffer)) return true;
    // A drive could not read some sectors (MEDIUM ERROR): rebuilt from the stripe, rewritten.
    if (all_optimal()) return read_repairing(lbn, sectors, buffer, affinity);
    // A disk lost while the read was under way (failed, or already replaced and rebuilding: a
    // fresh drive holds nothing of the stripes its rebuild has not reached): read again around it.
    return degraded_read(lbn, sectors, buffer, affinity);
}

bool raid_firmware::read_rotate_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn,
                                             protocol::buffer_block *buffer, int affinity, int *failed_disk) {
    return rrw_stripe_write(plan, host_lbn, buffer, affinity, failed_disk);
}

void raid_firmware::reset_statistics() {
    m_kit.reset_statistics();
    raid_statistics fresh;  // what faults lost (noted ranges, lost stripes) covers the whole run
    fresh.lost_stripe_requests = m_stats.lost_stripe_requests;
    m_stats = std::move(fresh);
}

void raid_firmware::report(nlohmann::json &out) const {
    m_kit.report(out);
    if (m_layout) out["layout"] = m_layout->describe();
    out["capacity_sectors"] = capacity_sectors();  // what the array exports to the host
    lost_range_report lost;
    for_each_lost_range([&](int64_t first, int64_t end) { lost.add(first, end); });
    lost.write(out);
    if (!m_stripes) return;
    nlohmann::json paths;
    for (auto p : {write_path::full_stripe, write_path::reconstruct_write, write_path::read_modify_write})
        paths[to_string(p)] = m_stats.stripe_writes[size_t(p)];
    out["stripe_writes"] = paths;
    out["rebuilt_reads"] = m_stats.rebuilt_reads;
    out["degraded_stripe_writes"] = m_stats.degraded_stripe_writes;
    out["resynced_stripes"] = m_stats.resynced_stripes;
    out["media_repairs"] = m_stats.media_repairs;
    out["lost_stripes"] = m_lost_stripes.stripes();
    out["lost_stripe_requests"] = m_stats.lost_stripe_requests;
    m_rebuild.report(out);
    out["read_rotate_writes"] = m_kit.queues.statistics().read_rotate_writes;
}

}  // namespace raidtlm::controller
