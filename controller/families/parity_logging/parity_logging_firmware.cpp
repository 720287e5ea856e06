#include "controller/families/parity_logging/parity_logging_firmware.h"
#include "controller/families/parity_logging/steady_state_log_fill.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "controller/firmware_api/plugins.h"
#include "controller/layouts/pq_parity.h"
#include "rtl_models/common/sim_time.h"

namespace raidtlm::controller {

namespace {
const char *msg_type = "/raidtlm/controller/parity_logging";
using rtl_models::now_s;
constexpr auto read_cmd = tlm::TLM_READ_COMMAND;
constexpr auto write_cmd = tlm::TLM_WRITE_COMMAND;
}  // namespace

parity_logging_firmware::parity_logging_firmware(firmware_platform &platform)
    : parity_logging_firmware(platform, make_layout(platform), platform.config().firmware.parity_logging) {}

parity_logging_firmware::parity_logging_firmware(firmware_platform &platform, std::unique_ptr<layout> owned,
                                                 const parity_logging_config &config)
    : kit_firmware(platform),
      m_platform(platform),
      m_rebuild(
          platform, [this](int disk, uint64_t unit) { return rebuild_unit(disk, unit); },
          [this](int disk, uint64_t unit) { return rebuild_unit_bytes(disk, unit); }),
      m_owned_layout(std::move(owned)),
      m_layout(dynamic_cast<const parity_logging_layout &>(*m_owned_layout)),
      m_config(config),
      m_pool(m_layout.regions(), m_layout.track_sectors(), config.log_write_tracks,
             config.buffer_tracks > 0 ? config.buffer_tracks : config.log_write_tracks * m_layout.regions(),
             config.policy),
      m_regions(size_t(m_layout.regions())) {
    m_reint_sectors = config.reintegration_buffer_sectors > 0 ? config.reintegration_buffer_sectors
                                                              : m_layout.parity_sectors();
    if (m_reint_sectors < m_layout.parity_sectors())
        throw layout_error(fmt::format("parity logging: the reintegration buffer ({} sectors) must hold a region's "
                                       "parity ({} sectors)",
                                       m_reint_sectors, m_layout.parity_sectors()));
    {
        // Host pieces (host_pieces.h) beside the largest work buffer: the reintegration buffer, a
        // member's check images of a region, or a stripe write's slots.
        const uint64_t unit = uint64_t(m_layout.unit_sectors()), pt = uint64_t(m_layout.parity_unit_sectors());
        const uint64_t disks = uint64_t(platform.disk_count()), checks = uint64_t(m_layout.checks());
        const uint64_t work_sectors =
            std::max({uint64_t(m_reint_sectors), (disks + checks + 1) * pt, (2 * disks + 3) * unit});
        m_kit.plan_host_pieces(0, unit, work_sectors * protocol::sector_bytes);
    }
    const uint64_t track_bytes = uint64_t(m_layout.track_sectors()) * protocol::sector_bytes;
    const uint64_t pool_bytes = uint64_t(m_pool.capacity()) * track_bytes;
    m_nvram_base = platform.nvram_allocate(pool_bytes);
    if (m_nvram_base < 0)
        throw layout_error(fmt::format(
            "parity logging: the log buffer pool ({} tracks of {} KiB = {} KiB) does not fit in the NVRAM "
            "({} KiB, {} KiB free); raise controller.nvram.capacity_kib or lower "
            "controller.parity_logging.buffer_tracks",
            m_pool.capacity(), track_bytes / 1024.0, pool_bytes / 1024.0, platform.nvram_capacity_bytes() / 1024.0,
            (platform.nvram_capacity_bytes() - platform.nvram_used_bytes()) / 1024.0));
    for (region_state &r : m_regions) r.fill.assign(size_t(m_layout.log_stripes()), 0);
    if (config.steady_state_start) {
        const std::vector<log_fill> fills = steady_state_fills(m_layout.regions(), m_layout.log_stripes(),
                                                               m_layout.track_sectors(), m_layout.sublog_sectors(),
                                                               config.steady_state_seed);
        for (size_t i = 0; i < fills.size(); ++i) {
            m_regions[i].fill = fills[i].sublog_sectors;
            m_regions[i].next_sublog = fills[i].next_sublog;
            m_regions[i].committed = fills[i].total_sectors();
        }
    }
}

parity_logging_firmware::~parity_logging_firmware() = default;

// ---- host requests ------------------------------------------------------------------------------

bool parity_logging_firmware::write_once(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity) {
    std::vector<chunk> chunks;
    m_layout.map(int64_t(lbn), int32_t(sectors), chunks);
    std::vector<piece> all;
    for (const chunk &c : chunks) all.push_back({c.lbn, c.sectors, uint64_t(c.lbn - int64_t(lbn))});
    std::map<int64_t, std::vector<piece>> by_stripe;
    for (const piece &p : all) by_stripe[m_layout.stripe_of(p.lbn)].push_back(p);
    std::vector<std::pair<int64_t, std::vector<piece>>> stripes(by_stripe.begin(), by_stripe.end());
    return m_kit.parallel(stripes.size(), [&](size_t i) {
        const std::vector<piece> &ps = stripes[i].second;
        for (const piece &p : ps)
            if (beyond_checks_read(p, false)) {  // recorded lost: never written over as if known
                ++m_stats.lost_requests;
                return false;
            }
        if (logging(m_layout.region_of(ps.front().lbn))) return stripe_write_repairing(stripes[i].first, ps, buffer, affinity);
        return m_kit.parallel(ps.size(), [&](size_t k) { return degraded_write(ps[k], buffer, affinity); });
    });
}

bool parity_logging_firmware::read_once(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity) {
    std::vector<chunk> chunks;
    m_layout.map(int64_t(lbn), int32_t(sectors), chunks);
    return m_kit.parallel(chunks.size(), [&](size_t i) {
        const chunk &c = chunks[i];
        return read_piece(c, {c.lbn, c.sectors, uint64_t(c.lbn - int64_t(lbn))}, buffer, affinity);
    });
}

// ---- the log ------------------------------------------------------------------------------------

bool parity_logging_firmware::log_records(int region, std::vector<log_record> records, int affinity) {
    region_state &r = m_regions[size_t(region)];
    const int64_t n = int64_t(records.size());
    const int64_t buffer_limit = (m_config.policy == buffer_policy::global ? m_pool.capacity() : m_pool.k_tracks()) *
                                 m_layout.track_sectors();
    if (n > log_capacity(region) || n > buffer_limit) {
        SC_REPORT_ERROR(msg_type, fmt::format("a write's {} parity log records exceed the region's log ({} sectors) "
                                              "or the log buffers ({} sectors)",
                                              n, log_capacity(region), buffer_limit)
                                      .c_str());
        return false;
    }
    bool blocked_pool = false, blocked_reint = false;
    for (;;) {
        m_platform.check_power();
        if (r.reintegrating) {
            if (!blocked_reint) ++m_stats.blocked_on_reintegration, blocked_reint = true;
            ++m_blocked;
            sc_core::wait(r.changed);
            --m_blocked;
            continue;
        }
        if (r.committed + n > log_capacity(region)) {
            if (!blocked_reint) ++m_stats.blocked_on_reintegration, blocked_reint = true;
            if (!reintegrate(region, affinity)) return false;
            continue;
        }
        if (!m_pool.can_append(region, n)) {
            if (!blocked_pool) ++m_stats.blocked_on_pool, blocked_pool = true;
            flush(region);
            ++m_blocked;
            sc_core::wait(m_pool_space);
            --m_blocked;
            continue;
        }
        break;
    }
    for (log_record &x : records) {
        x.sequence = m_next_sequence++;
        r.buffered.push_back(x);
    }
    r.committed += n;
    m_pool.append(region, n);
    m_buffers_in_use = m_pool.buffers_in_use();
    // The XOR engine's result copied into the NVRAM log buffer.
    m_platform.cpu_run_priced(rtl_models::cpu_task::table_update, affinity);
    m_platform.check_power();
    const size_t bytes = size_t(n) * protocol::sector_bytes;
    if (m_scratch.size() < bytes) m_scratch.resize(bytes);
    m_platform.nvram_write(uint64_t(m_nvram_base), m_scratch.data(), unsigned(bytes));
    if (m_pool.log_write_due(region) && !r.log_writer_running && !r.reintegrating) {
        r.log_writer_running = true;
        m_platform.run_background([this, region] { log_writer(region); });
    }
    return true;
}

// K-track log writes of a region, one after another, each appended to the next sublog.
void parity_logging_firmware::log_writer(int region) {
    region_state &r = m_regions[size_t(region)];
    const int L = m_layout.log_stripes();
    const int64_t sublog = m_layout.sublog_sectors();
    while (m_platform.powered() && !r.reintegrating &&
           (m_pool.log_write_due(region) || (r.flush && !r.buffered.empty()))) {
        r.flush = false;
        // A sublog on a lost disk counts as full (the region logs on the others).
        auto full = [&](int k) {
            return r.fill[size_t(k)] >= sublog || m_layout.log_disk(region, k) == m_known_failed;
        };
        int i = r.next_sublog;
        for (int k = 0; k < L && full(i); ++k) i = (i + 1) % L;
        if (full(i)) break;  // every sublog full: reintegration takes the records
        const int64_t take = std::min({int64_t(m_pool.k_tracks()) * m_layout.track_sectors(),
                                       sublog - r.fill[size_t(i)], int64_t(r.buffered.size())});
        r.next_sublog = (i + 1) % L;
        logged_write w;
        w.sublog = i;
        w.offset_sectors = r.fill[size_t(i)];
        w.records.assign(r.buffered.begin(), r.buffered.begin() + take);
        r.buffered.erase(r.buffered.begin(), r.buffered.begin() + take);
        // The log buffer's contents as the drive receives them: one record image per sector.
        protocol::buffer_block images;
        if (m_carries_tokens) {
            images.bytes = uint64_t(take) * protocol::sector_bytes;
            for (const log_record &x : w.records) images.tokens.push_back(x.token);
        }
        r.fill[size_t(i)] += take;
        r.writes.push_back(std::move(w));
        ++r.log_writes_in_flight;
        ++m_log_writes;
        m_pool.start_log_write(region, take);
        // Every copy of the sublog (C checks: the log replicated on C distinct disks), together.
        auto append = [&](int copy) {
            const region_extent e = m_layout.sublog_extent(region, i, copy);
            return member_io(true, e.disk, uint64_t(e.drive_lbn + r.fill[size_t(i)] - take), uint32_t(take),
                                 m_carries_tokens ? &images : nullptr, 0);
        };
        const int copies = m_layout.checks();
        const bool ok = copies == 1 ? append(0) : m_kit.parallel(size_t(copies), [&](size_t c) { return append(int(c)); });
        m_platform.cpu_run_priced(rtl_models::cpu_task::table_update, region);
        m_pool.finish_log_write(region, take);
        m_buffers_in_use = m_pool.buffers_in_use();
        m_pool_space.notify(sc_core::SC_ZERO_TIME);
        --r.log_writes_in_flight;
        --m_log_writes;
        m_stats.log_writes += uint64_t(copies);  // drive commands
        m_stats.log_write_sectors += uint64_t(take * copies);
        r.changed.notify(sc_core::SC_ZERO_TIME);
        if (!ok) SC_REPORT_WARNING(msg_type, "a log write failed");
    }
    r.log_writer_running = false;
}

void parity_logging_firmware::flush(int blocked_region) {
    int best = -1;
    if (m_config.policy == buffer_policy::static_per_region) {
        // The region's own K buffers cannot take the batch: write what they hold, partial track
        // included (else a batch straddling the last track boundary would wait forever).
        best = blocked_region;
        const region_state &r = m_regions[size_t(best)];
        if (r.reintegrating || r.log_writer_running || r.buffered.empty()) return;
    } else {
        size_t most = 0;
        for (int i = 0; i < int(m_regions.size()); ++i) {
            const region_state &r = m_regions[size_t(i)];
            if (r.reintegrating || r.log_writer_running || r.buffered.size() <= most) continue;
            best = i;
            most = r.buffered.size();
        }
        if (best < 0) return;
    }
    region_state &r = m_regions[size_t(best)];
    r.flush = true;
    r.log_writer_running = true;
    ++m_stats.partial_log_writes;
    m_platform.run_background([this, best] { log_writer(best); });
}

bool parity_logging_firmware::logging(int region) const { return logs_with(region, m_lost); }

bool parity_logging_firmware::logs_with(int region, const std::vector<int> &lost) const {
    // More checks: after a loss every region updates its checks directly (degraded_write_checks).
    // One check: a region whose one lost disk is one of its L > 1 log disks logs on the others.
    if (lost.empty()) return true;
    return m_layout.checks() == 1 && lost.size() == 1 && m_layout.log_stripes() > 1 &&
           m_layout.is_log_disk(region, lost.front());
}

int64_t parity_logging_firmware::log_capacity(int region) const {
    const bool lost_sublog = m_known_failed >= 0 && m_layout.is_log_disk(region, m_known_failed);
    return int64_t(m_layout.log_stripes() - (lost_sublog ? 1 : 0)) * m_layout.sublog_sectors();
}

// ---- reintegration ------------------------------------------------------------------------------

void parity_logging_firmware::wait_region_idle(int region) {
    region_state &r = m_regions[size_t(region)];
    // A thread from before a power loss, woken long after it, stops at check_power: the restart
    // reset the region, and going on, the thread claimed it again (reintegrate) and stopped at its
    // first command with the claim held: every later writer of the region waited for ever (the
    // explorer's 141:609, a loss's handling that waited here for a log write when the power went).
    while (r.reintegrating) {
        sc_core::wait(r.changed);
        m_platform.check_power();
    }
    r.reintegrating = true;  // claimed: no log writes start, writers wait
    ++m_reintegrating;
    while (r.log_writes_in_flight > 0) {
        sc_core::wait(r.changed);
        m_platform.check_power();
    }
}

bool parity_logging_firmware::reintegrate(int region, int affinity) {
    region_state &r = m_regions[size_t(region)];
    const double t0 = now_s();
    if (m_first_reintegration_s < 0) m_first_reintegration_s = t0;
    const bool claimed_here = !r.reintegrating;
    if (claimed_here) wait_region_idle(region);
    // A lost member's check run is neither read nor written (nor a rebuilding one's: it holds
    // the member's rows only where its rebuild passed, and its regions do not log meanwhile).
    auto gone = [&](int d) { return m_platform.member_state_of(d) != member_state::optimal; };
    const std::vector<log_record> in_memory(r.buffered.begin(), r.buffered.end());
    for (const log_record &x : in_memory) r.images_being_applied.push_back(x.image_index);
    r.buffered.clear();
    m_pool.take_unwritten(region);
    m_buffers_in_use = m_pool.buffers_in_use();
    m_pool_space.notify(sc_core::SC_ZERO_TIME);
    const reintegration_plan plan =
        plan_reintegration(m_layout.parity_sectors(), m_reint_sectors, r.writes, in_memory);

    const int M = m_layout.members();
    const int L = m_layout.log_stripes();
    const uint64_t pt = uint64_t(m_layout.parity_unit_sectors());
    const uint64_t run = uint64_t(m_layout.checks()) * pt;  // a member's check images, together
    // The reintegration buffer, held from the first read to the last write.
    protocol::buffer_block *work = m_platform.allocate_buffer(uint64_t(m_reint_sectors) * protocol::sector_bytes,
                                                          uint64_t(m_layout.parity_sectors()));
    m_platform.check_power();
    m_platform.cpu_run_priced(rtl_models::cpu_task::table_update, affinity);

    // The sublogs as read from the drives: the record images come from there, not from memory.
    // More than one check: the first copy of each sublog that is not on the lost disk.
    auto copy = [&](int i) {
        for (int c = 0; c < m_layout.checks(); ++c)
            if (!gone(m_layout.sublog_extent(region, i, c).disk)) return c;
        return 0;
    };
    auto log_lost = [&](int i) { return gone(m_layout.sublog_extent(region, i, copy(i)).disk); };
    std::vector<protocol::buffer_block> sublogs(static_cast<size_t>(L));
    bool unreadable_log = false;  // records on a lost disk's sublog: the region's parity is rebuilt
    auto sublog_buffer = [&](int i) { return m_carries_tokens ? &sublogs[size_t(i)] : nullptr; };
    // Which check runs and sublogs answered a read (MEDIUM ERROR: not; repair_stale_checks).
    std::vector<char> run_read(size_t(M), 1), sublog_read(size_t(L), 1);
    auto parity_io = [&](tlm::tlm_command cmd, int m) {
        const region_extent e = m_layout.parity_extent(region, m);
        if (gone(e.disk) || (cmd == write_cmd && !run_read[size_t(m)])) return true;
        const bool done = member_io(cmd == write_cmd, e.disk, uint64_t(e.drive_lbn), uint32_t(run), work,
                                    uint64_t(m_layout.check_run_image_index(m)));
        if (cmd == read_cmd) run_read[size_t(m)] = done;
        return done;
    };
    // A copy that cannot be read: the next copy on a member present (more checks).
    auto read_sublog = [&](int i, int64_t offset, int64_t sectors) {
        for (int c = copy(i); c < m_layout.checks(); ++c) {
            const region_extent e = m_layout.sublog_extent(region, i, c);
            if (gone(e.disk)) continue;
            if (member_io(false, e.disk, uint64_t(e.drive_lbn + offset), uint32_t(sectors), sublog_buffer(i),
                          uint64_t(offset)))
                return true;
        }
        sublog_read[size_t(i)] = 0;
        return false;
    };
    if (!plan.parallel) ++m_stats.serial_reintegrations;
    bool ok;
    // A member lost while the reads are out: they are decided again without it, whether they
    // failed or not. Which sublogs are lost is decided before the reads; one lost meanwhile was
    // skipped by the serial reads (log_lost) yet counted read, and its records applied as
    // zeros (91:227: a log disk lost during the first loss's replay, 56 wrong reads). Nothing
    // is written yet. Before, the reintegration failed and the log was truncated all the same:
    // its records never reached the parity (a disk lost during the power-loss recovery's
    // replay: 511 wrong reads).
    for (;;) {
        const uint64_t losses = m_platform.member_losses();
        unreadable_log = false;
        std::fill(run_read.begin(), run_read.end(), 1);
        std::fill(sublog_read.begin(), sublog_read.end(), 1);
        for (int i = 0; i < L; ++i) {
            if (log_lost(i) && r.fill[size_t(i)] > 0) unreadable_log = true;
            if (!m_carries_tokens) continue;
            sublogs[size_t(i)].bytes = uint64_t(r.fill[size_t(i)]) * protocol::sector_bytes;
            sublogs[size_t(i)].tokens.assign(size_t(r.fill[size_t(i)]), 0);
        }
        if (plan.parallel) {
            ok = m_kit.parallel(size_t(M + L), [&](size_t j) {
                if (j < size_t(M)) return parity_io(read_cmd, int(j));
                const int i = int(j) - M;
                if (r.fill[size_t(i)] == 0 || log_lost(i)) return true;
                return read_sublog(i, 0, r.fill[size_t(i)]);
            });
        } else {
            ok = m_kit.parallel(size_t(M), [&](size_t m) { return parity_io(read_cmd, int(m)); });
            for (const logged_write *w : plan.read_order) {
                if (log_lost(w->sublog) || !sublog_read[size_t(w->sublog)]) continue;
                ok = read_sublog(w->sublog, w->offset_sectors, int64_t(w->records.size())) && ok;
            }
        }
        if (m_platform.member_losses() == losses) break;
    }
    // A read that failed with no member lost (MEDIUM ERROR on a check run or a sublog): the
    // records read are applied to the runs read, and what could not be (the unread runs' rows,
    // the unread sublogs' records) is left stale, repaired from the data once the writes in
    // flight are done (repair_stale_checks). Before, the log was truncated all the same and the
    // writers waiting failed: the records never reached the checks (15:28: 1,632 wrong reads).
    const bool media_error = !ok;
    if (media_error) note_unread_checks(region, run_read, sublog_read);
    ok = ok || media_error;
    if (ok && unreadable_log) {
        // Part of the log is on a lost disk: nothing applied; handle_failure rebuilds the region's
        // parity from its data once the requests in flight are done; the rows the log named are
        // kept (a data member missing by then loses them).
        r.stale_parity = true;
        for (const log_record &x : in_memory) r.stale_images.push_back(x.image_index);
        for (const logged_write &w : r.writes)
            for (const log_record &x : w.records) r.stale_images.push_back(x.image_index);
    } else if (ok) {
        // The XOR engine applies the records (update: XOR in; overwrite: copy) into the buffer.
        uint64_t records = in_memory.size();
        std::vector<uint64_t> check_records(max_log_checks - 1, 0);  // update records of Q, R
        auto count = [&](const log_record &x) {
            for (size_t k = 0; k < check_records.size(); ++k) check_records[k] += x.check_index[k] >= 0 ? 1 : 0;
        };
        for (const log_record &x : in_memory) count(x);
        for (const logged_write &w : r.writes) {
            records += w.records.size();
            for (const log_record &x : w.records) count(x);
        }
        if (records > 0)
            m_kit.xor_blocks({{&m_timing_only, 0}, {&m_timing_only, 0}}, {&m_timing_only, 0}, records, affinity);
        // More checks: check k += g^(k j) (old ^ new) per update record, one command of the
        // engine's GF mode per check (a coefficient other than 0 and 1 stands for the records').
        for (size_t k = 0; k < check_records.size(); ++k)
            if (check_records[k] > 0)
                m_kit.gf_blocks({{&m_timing_only, 0}, {&m_timing_only, 0}}, {1, pq::check_coefficient(int(k) + 1, 1)},
                                {&m_timing_only, 0}, check_records[k], affinity);
        const std::vector<uint64_t> from_disk(work->tokens.begin(), work->tokens.begin() + m_layout.parity_sectors());
        std::vector<uint64_t> updated;
        if (m_carries_tokens) {
            // The log's headers (kind, parity sector, sequence) from the log directory; each
            // record's image from the sector read back from its sublog.
            // More checks: each update record applied to P and, scaled by g^(k j), to Q and R.
            std::vector<logged_write> from_log;
            for (const logged_write &w : r.writes)
                if (sublog_read[size_t(w.sublog)]) from_log.push_back(w);  // else its rows left stale
            for (logged_write &w : from_log) {
                for (size_t k = 0; k < w.records.size(); ++k)
                    w.records[k].token = sublogs[size_t(w.sublog)].tokens[size_t(w.offset_sectors) + k];
                w.records = expand_checks(w.records);
            }
            const std::vector<log_record> memory = expand_checks(in_memory);
            const reintegration_plan read_back =
                plan_reintegration(m_layout.parity_sectors(), m_reint_sectors, from_log, memory);
            updated = controller::reintegrate(from_disk, read_back, memory);
        } else {
            updated = controller::reintegrate(from_disk, plan, in_memory);
        }
        std::copy(updated.begin(), updated.end(), work->tokens.begin());
        ok = m_kit.parallel(size_t(M), [&](size_t m) { return parity_io(write_cmd, int(m)); });
    }
    m_platform.free_buffer(work);
    // Truncate the log.
    r.images_being_applied.clear();
    r.writes.clear();
    std::fill(r.fill.begin(), r.fill.end(), 0);
    r.committed = 0;
    r.next_sublog = 0;
    ++m_stats.reintegrations;
    m_stats.reintegration_s += now_s() - t0;
    if (claimed_here) {
        r.reintegrating = false;
        --m_reintegrating;
        r.changed.notify(sc_core::SC_ZERO_TIME);
    }
    return ok;
}

// Parity of every big row of the region from its data members (the log is lost or stale). A big
// row whose parity member is missing has nothing to make (its rebuild makes it from the data); one
// with a data member missing cannot be made: its stale rows are lost there. With members missing
// (or sectors recorded lost on them) only the rows that can be made are made
// (parity_logging_beyond_checks.cpp).
bool parity_logging_firmware::rebuild_parity(int region, int affinity, const std::vector<int64_t> *stale_images) {
    if (!unavailable_disks().empty() || !m_lost_on_disk.empty()) return rebuild_checks_around_losses(region, affinity, stale_images);
    if (m_layout.checks() > 1) return rebuild_checks(region, affinity, stale_images);
    const int M = m_layout.members();
    const uint64_t pt = uint64_t(m_layout.parity_unit_sectors());
    bool ok = true;
    for (int q = 0; q < M; ++q) {
        const int pm = M - 1 - q;
        std::vector<int> members;
        for (int m = 0; m < M; ++m)
            if (m != pm) members.push_back(m_layout.member_disk(region, m));
        const int pd = m_layout.member_disk(region, pm);
        if (missing(pd, region, m_layout.region_start(region, pd) + int64_t(q) * int64_t(pt))) continue;
        if (data_member_missing(region, q)) {
            lose_rows(region, q, stale_images);
            continue;
        }
        protocol::buffer_block *work =
            m_platform.allocate_buffer(uint64_t(M) * pt * protocol::sector_bytes, uint64_t(M) * pt);
        m_platform.check_power();
        bool made = m_kit.parallel(members.size(), [&](size_t k) {
            const int d = members[k];
            return member_io(false, d, uint64_t(m_layout.region_start(region, d)) + uint64_t(q) * pt, uint32_t(pt),
                             work, k * pt);
        });
        if (made) {
            std::vector<protocol::buffer_ref> inputs;
            for (size_t k = 0; k < members.size(); ++k) inputs.push_back({work, k * pt});
            m_kit.xor_blocks(inputs, {work, uint64_t(M - 1) * pt}, pt, affinity);
            made = member_io(true, pd, uint64_t(m_layout.region_start(region, pd)) + uint64_t(q) * pt, uint32_t(pt),
                             work, uint64_t(M - 1) * pt);
        }
        m_platform.free_buffer(work);
        if (!made && !data_member_missing(region, q)) {
            // A data read met MEDIUM ERROR: the row judged sector by sector, its unreadable
            // sectors repaired from the parity or recorded lost (parity_logging_unreadable_rows.cpp).
            std::set<int64_t> stale_rows;
            if (stale_images)
                for (int64_t image : *stale_images) {
                    const parity_logging_layout::image_row row = m_layout.row_of_image(image);
                    if (row.q == q) stale_rows.insert(row.offset);
                }
            std::vector<region_extent> row = big_row_members(region, q);
            const region_extent parity = row.back();
            row.pop_back();
            made = make_parity_around_unreadable(
                row, parity, [&](int j, int64_t offset) { return m_layout.lbn_at(region, q, offset, j); },
                [&](int64_t offset) { return !stale_images || stale_rows.count(offset) > 0; }, affinity);
        }
        // A member lost during the reads: its stale rows are lost with it.
        if (!made && data_member_missing(region, q)) lose_rows(region, q, stale_images);
        ok = made && ok;
    }
    m_regions[size_t(region)].stale_images.clear();
    ++m_stats.parity_rebuilds;
    return ok;
}

// ---- failures -----------------------------------------------------------------------------------

bool parity_logging_firmware::member_io(bool write, int disk, uint64_t lbn, uint32_t sectors,
                                        protocol::buffer_block *buffer, uint64_t first_sector,
                                        std::vector<uint64_t> *old_tokens) {
    if ((!write || old_tokens) && loss_not_handled(disk)) return false;
    return m_kit.disk_io(write, disk, lbn, sectors, buffer, first_sector, old_tokens);
}

bool parity_logging_firmware::check_failure(int affinity) {
    if (!catch_up(affinity)) return false;
    ++m_active;
    return true;
}

bool parity_logging_firmware::catch_up(int affinity) {
    while (m_recovering) sc_core::wait(m_recovered);
    m_platform.check_power();  // a thread from before a power loss that woke after it stops here
    // A rebuilding member stays among the lost until it is rebuilt (its rows the rebuild has not
    // reached are lost: absent()).
    const std::vector<int> failed = unavailable_disks();
    if (failed != m_lost) {
        const bool fewer = std::includes(m_lost.begin(), m_lost.end(), failed.begin(), failed.end());
        if (fewer) {
            // Members rebuilt (or marked live again: what they missed is not rebuilt). The writes
            // in flight finish first, then with none lost logging resumes: every log is empty
            // (applied at the first loss, nothing logged since, parity_logging_rebuild.cpp).
            m_recovering = true;
            while (m_active > 0) sc_core::wait(m_drained);
            m_platform.check_power();
            m_lost = failed;
            m_known_failed = failed.empty() ? -1 : failed.front();
            m_recovering = false;
            m_recovered.notify(sc_core::SC_ZERO_TIME);
        } else if (m_known_failed >= 0) {
            // Another lost disk, within the checks or beyond them (handle_another_loss).
            if (!handle_another_loss(failed, affinity)) return false;
        } else {
            // The requests in flight finish first (their records land in the logs applied below).
            m_recovering = true;
            while (m_active > 0) sc_core::wait(m_drained);
            m_platform.check_power();
            if (!handle_failure(affinity)) return false;
        }
    }
    if (m_checks_repair_due) {
        // Checks left stale by an unreadable run or sublog: repaired with no write in flight,
        // before this request is served. That includes a reintegration run by the loss's
        // handling just above (the explorer's 91:571: a sublog unreadable while the first loss
        // applied the logs; before, the request that handled the loss went on and rebuilt a
        // lost member's rows from the parity that missed the unread sublog's records).
        m_recovering = true;
        while (m_active > 0) sc_core::wait(m_drained);
        m_platform.check_power();
        repair_stale_checks(affinity);
        m_recovering = false;
        m_recovered.notify(sc_core::SC_ZERO_TIME);
    }
    return true;
}

void parity_logging_firmware::done() {
    if (--m_active == 0) m_drained.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace raidtlm::controller
