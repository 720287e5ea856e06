#include "controller/kit/identity/member_metadata.h"

#include <algorithm>

#include "controller/kit/firmware_kit.h"

namespace raidtlm::controller {

member_metadata::member_metadata(firmware_platform &platform, firmware_kit &kit)
    : m_platform(platform), m_kit(kit), m_sectors(superblock_sectors(platform.disk_count())) {
    const firmware_config &fw = platform.config().firmware;
    m_array_id = array_identity(int(fw.array), platform.disk_count(), uint64_t(fw.stripe_unit_sectors),
                                member_data_sectors(platform.drive_info(0).capacity_blocks));
}

uint64_t member_metadata::superblock_lbn_of(int disk) const {
    return superblock_lbn(m_platform.drive_info(disk).capacity_blocks);
}

member_superblock member_metadata::superblock_of(int disk) const {
    member_superblock sb;
    sb.array_id = m_array_id;
    sb.member_index = disk;
    sb.members = m_platform.disk_count();
    sb.events = m_events;
    for (int d = 0; d < sb.members; ++d) {
        sb.states.push_back(m_platform.member_state_of(d));
        if (sb.states.back() != member_state::optimal) sb.degraded = true;
    }
    return sb;
}

void member_metadata::create_before_run() {
    m_events = 1;
    for (int d = 0; d < m_platform.disk_count(); ++d) {
        const std::vector<uint64_t> words = encode_superblock(superblock_of(d));
        m_platform.install_untimed(d, superblock_lbn_of(d), words.data(), uint32_t(words.size()));
    }
}

void member_metadata::record_change() {
    m_pending = true;
    // A writer of an epoch the power ended is gone (its flag with it).
    if (m_writing && m_writer_epoch == m_platform.power_epoch()) return;
    m_writing = true;
    m_writer_epoch = m_platform.power_epoch();
    m_platform.run_background([this] {
        while (m_pending) {
            m_pending = false;
            write_all();
        }
        m_writing = false;
    });
}

void member_metadata::write_all() {
    ++m_events;
    ++m_stats.updates;
    const int n = m_platform.disk_count();
    std::vector<int> served;
    for (int d = 0; d < n; ++d)
        if (m_platform.member_state_of(d) != member_state::failed) served.push_back(d);
    const uint64_t sectors = uint64_t(m_sectors) * uint64_t(n);
    protocol::buffer_block *b = m_platform.allocate_buffer(sectors * protocol::sector_bytes, sectors);
    // The CPU builds each member's superblock in the buffer (as it writes the request table).
    for (int d : served) {
        const std::vector<uint64_t> words = encode_superblock(superblock_of(d));
        std::copy(words.begin(), words.end(), b->tokens.begin() + long(uint64_t(d) * m_sectors));
        m_platform.cpu_run_priced(rtl_models::cpu_task::table_update, 0);
        m_platform.request_table_write(m_sectors * uint32_t(protocol::sector_bytes));
    }
    m_kit.parallel(served.size(), [&](size_t k) {
        const int d = served[k];
        const bool ok = m_kit.disk_io(true, d, superblock_lbn_of(d), m_sectors, b, uint64_t(d) * m_sectors, nullptr,
                                      nullptr, nullptr, -1, true);
        if (ok) ++m_stats.superblocks_written;
        return ok;
    });
    m_platform.free_buffer(b);
}

std::vector<member_verdict> member_metadata::check() {
    ++m_stats.checks;
    m_writing = false;  // a writer from before the loss is gone
    m_pending = false;
    const int n = m_platform.disk_count();
    const uint64_t sectors = uint64_t(m_sectors) * uint64_t(n);
    protocol::buffer_block *b = m_platform.allocate_buffer(sectors * protocol::sector_bytes, sectors);
    std::vector<member_read> reads(static_cast<size_t>(n));
    m_platform.parallel(size_t(n), [&](size_t d) {
        m_platform.cpu_run_priced(rtl_models::cpu_task::physical_command, int(d));
        drive_request r;
        r.disk = int(d);
        r.lbn = superblock_lbn_of(int(d));
        r.sectors = m_sectors;
        r.buffer = b;
        r.first_sector = d * m_sectors;
        r.member_metadata = true;
        reads[d].answered = m_platform.drive_command(r).ok;
        if (reads[d].answered) reads[d].superblock = decode_superblock(b->tokens.data() + d * m_sectors, m_sectors);
        return true;
    });
    m_platform.free_buffer(b);
    const identity_verdict v = judge_members(m_array_id, reads);
    m_events = v.events;  // the count in volatile memory was lost with the power
    m_stats.not_current += v.not_current().size();
    return v.members;
}

void member_metadata::report(nlohmann::json &out) const {
    out = {{"array_id", m_array_id},
           {"events", m_events},
           {"updates", m_stats.updates},
           {"superblocks_written", m_stats.superblocks_written},
           {"checks", m_stats.checks},
           {"members_not_current", m_stats.not_current}};
}

}  // namespace raidtlm::controller
