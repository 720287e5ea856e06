#include "controller/families/bricks/brick_firmware.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

namespace raidtlm::controller {

using protocol::message_kind;
using protocol::network_message;

namespace {
const char *msg_type = "/raidtlm/controller/brick_firmware";
// A claim for a read this brick never sees again is forgotten after this long: far beyond any
// network delay of the configurations run (the latency is swept to 5 ms).
constexpr double forget_claims_after_ms = 1000;
}  // namespace

brick_firmware::brick_firmware(firmware_platform &platform, distribution_policy policy)
    : kit_firmware(platform), m_platform(platform), m_role(platform.config().brick),
      m_distribution(policy, std::max(1, m_role.replicas()), std::max(1u, m_role.cache_page_sectors),
                     policy == distribution_policy::weighted_hashing ? m_role.replica_weights : std::vector<double>{}),
      m_claims(m_role.is_brick() ? m_role.group_ports.at(size_t(m_role.replica_index)) : 0),
      m_cache(m_role.cache_bytes, std::max(1u, m_role.cache_page_sectors), m_role.replica_index,
              std::max(1, m_role.replicas())) {
    if (!m_role.is_brick())
        throw std::invalid_argument(fmt::format("firmware '{}' runs on a storage brick (the bricks topology, "
                                                "bricks.count > 0), not behind a host",
                                                to_string(policy)));
    if (platform.disk_count() != 1)
        throw std::invalid_argument("a storage brick has one disk (disks.count: 1 per brick)");
    m_capacity = platform.drive_info(0).capacity_blocks;
    // Prescheduling ranks the queue for the moment its pick reaches the disk, two one-way
    // latencies on; latency scheduling and post abort issue the pick at once.
    if (uses_claims() && m_role.protocol == claim_protocol::prescheduling)
        m_kit.queues.state(0).issue_delay_ms = 2 * m_role.one_way_latency_ms;
    m_kit.queues.state(0).random_state ^= uint64_t(m_role.replica_index + 1) * 0x2545f4914f6cdd1dULL;
    m_stats.since_s = 0;
    if (policy == distribution_policy::lard && m_role.replica_index == 0)
        m_lard = std::make_unique<lard_dispatcher>(m_role.replicas(), std::max(1u, m_role.cache_page_sectors),
                                                   m_role.lard_low, m_role.lard_high);
    m_kit.queues.on_idle = [this](int) { try_destage(); };
    platform.spawn("brick_receiver", [this] { receive_loop(); });
}

brick_firmware::~brick_firmware() = default;

void brick_firmware::receive_loop() {
    m_net = m_platform.network();
    if (!m_net)
        SC_REPORT_FATAL(msg_type, "a storage brick without a network interface (controller_top::attach_network)");
    network_message m;
    uint64_t handled = 0;
    for (;;) {
        while (m_net->receive(m)) {
            switch (m.kind) {
            case message_kind::client_read:
                ++m_stats.client_reads;
                on_read(m, true);
                break;
            case message_kind::forward_read: on_read(m, false); break;
            case message_kind::client_write:
                ++m_stats.client_writes;
                m_platform.run_background([this, m] { entry_write(m); });
                break;
            case message_kind::forward_write: m_platform.run_background([this, m] { replica_write(m); }); break;
            case message_kind::claim: on_claim(m); break;
            case message_kind::write_ack: {
                auto it = m_writes.find(m.request);
                if (it != m_writes.end() && --it->second->acks_missing == 0)
                    it->second->all_in.notify(sc_core::SC_ZERO_TIME);
                break;
            }
            case message_kind::completion:
                if (m_lard)  // a replica finished a read this brick routed to it
                    for (int r = 0; r < m_role.replicas(); ++r)
                        if (m_role.group_ports[size_t(r)] == m.source)
                            m_lard->completed(r);
                break;
            }
            if ((++handled & 1023) == 0)
                m_claims.forget_claims_before(m_platform.now_ms() - forget_claims_after_ms);
        }
        sc_core::wait(m_net->arrived());
    }
}

void brick_firmware::on_read(const network_message &m, bool from_client) {
    if (m_lard && from_client) {
        const int target = m_lard->route(m.lbn);
        if (target != m_role.replica_index) {
            m_platform.run_background([this, m, target] {
                send(message_kind::forward_read, m_role.group_ports[size_t(target)], m, 0);
            });
            return;
        }
    }
    if (m_cache.read_hit(m.lbn, m.sectors)) {
        ++m_stats.read_cache_hits;
        const bool tell_others = !from_client && m_distribution.forwards_reads();
        m_platform.run_background([this, m, tell_others] {
            m_platform.cpu_run_priced(rtl_models::cpu_task::host_command, 0);
            if (tell_others) {
                network_message c = m;
                c.bid_ms = 0;  // served from cache: nothing beats it
                send_to_others(message_kind::claim, c, 0);
            }
            answer_read(m);
        });
        return;
    }
    if (from_client && !m_lard) {
        if (m_distribution.forwards_reads()) {
            m_platform.run_background([this, m] { send_to_others(message_kind::forward_read, m, 0); });
        } else {
            const int target = m_distribution.hashed_replica(m.lbn);
            if (target != m_role.replica_index) {
                m_platform.run_background([this, m, target] {
                    send(message_kind::forward_read, m_role.group_ports[size_t(target)], m, 0);
                });
                return;
            }
        }
    }
    if (!m_claims.enqueue(m.request))
        return;  // another brick's CLAIM came before the read
    m_platform.run_background([this, m] { serve_read_from_disk(m); });
}

void brick_firmware::on_claim(const network_message &m) {
    const bool was_claiming = m_claims.claiming(m.request);
    const claim_arbiter::verdict v = m_claims.on_remote_claim(m.request, {m.source, m.bid_ms}, m_platform.now_ms());
    if (v == claim_arbiter::verdict::drop) {
        m_kit.queues.cancel(0, m.request + 1);
        // Lumb 4.1.3: the brick that lost the bid schedules another request at once.
        if (was_claiming)
            m_claim_lost.notify(sc_core::SC_ZERO_TIME);
    }
    if (v == claim_arbiter::verdict::duplicate_should_yield && backs_off_at_random(m_role.protocol)) {
        // Served here although the other brick's bid was better: the two heads are near each
        // other and SPTF would pick the same reads again; a random next pick breaks the cycle.
        m_kit.queues.state(0).pick_at_random_once = true;
        ++m_stats.random_backoffs;
    }
    m_trace_claims = int(m_claims.claims_in_flight());
}

void brick_firmware::serve_read_from_disk(network_message m) {
    m_platform.cpu_run_priced(rtl_models::cpu_task::host_command, 0);
    if (!m_claims.holds(m.request))
        return;
    ++m_trace_queue;
    m_read_waiting.notify(sc_core::SC_ZERO_TIME);  // a prescheduling pick may wait for one
    const uint64_t n = m_kit.queues.acquire_tag_unless_cancelled(0, m.lbn, m.sectors, false, m.request + 1);
    --m_trace_queue;
    if (n == 0)
        return;  // claimed by another brick while queued here
    if (!m_claims.holds(m.request)) {  // claimed between the grant and now
        give_up_tag();
        return;
    }
    const claim_protocol protocol = m_role.protocol;
    network_message c = m;
    if (uses_claims()) {
        const double picked_ms = m_platform.now_ms();
        const head_prediction p = predict_access(m.lbn, false);
        c.bid_ms = m_claims.start_claim(m.request, p.access_ms).service_ms;
        m_trace_claims = int(m_claims.claims_in_flight());
        if (claims_before_issue(protocol)) {
            send_to_others(message_kind::claim, c, 0);
            // The deadline on the kernel's own clock: a residue below its resolution must not spin.
            const sc_core::sc_time until =
                sc_core::sc_time((picked_ms + claim_wait_ms(protocol, m_role.one_way_latency_ms, p.spare_rotation_ms)) * 1e-3,
                                 sc_core::SC_SEC);
            while (sc_core::sc_time_stamp() < until && m_claims.claiming(m.request))
                sc_core::wait(until - sc_core::sc_time_stamp(), m_claim_lost);
        }
        const bool won = m_claims.may_issue(m.request);
        m_trace_claims = int(m_claims.claims_in_flight());
        if (!won) {
            ++m_stats.lost_claims;
            give_up_tag();
            return;
        }
    } else {
        m_claims.may_issue(m.request);
    }
    const bool handed_on = disk_io(false, m.lbn, m.sectors, n);
    if (!handed_on)
        m_kit.queues.release_tag(0);
    m_claims.finish(m.request);
    if (uses_claims() && !claims_before_issue(protocol))
        send_to_others(message_kind::claim, c, 0);  // post abort: the others drop their copies now
    ++m_stats.reads_from_disk;
    m_cache.insert_clean(m.lbn, m.sectors);
    answer_read(m);
}

void brick_firmware::answer_read(const network_message &m) {
    send(message_kind::completion, m.client, m, m.sectors * 512);
    if (m_distribution.policy() != distribution_policy::lard)
        return;
    if (m_lard)
        m_lard->completed(m_role.replica_index);
    else
        send(message_kind::completion, m_role.group_ports[0], m, 0);
}

void brick_firmware::give_up_tag() {
    // Prescheduling may have picked this read while the previous command is still at the disk:
    // the tag goes on to a read that comes meanwhile, or is freed once the disk is.
    while (m_disk_busy) {
        if (m_kit.queues.pass_tag(0))
            return;
        sc_core::wait(m_disk_free | m_read_waiting);
    }
    m_kit.queues.release_tag(0);
}

void brick_firmware::entry_write(network_message m) {
    m_platform.cpu_run_priced(rtl_models::cpu_task::host_command, 0);
    pending_write *pw = nullptr;
    if (m_role.replicas() > 1) {
        auto &slot = m_writes[m.request];
        slot = std::make_unique<pending_write>();
        slot->acks_missing = m_role.replicas() - 1;
        pw = slot.get();
        send_to_others(message_kind::forward_write, m, m.sectors * 512);
    }
    store_write(m);
    if (pw) {
        while (pw->acks_missing > 0) sc_core::wait(pw->all_in);
        m_writes.erase(m.request);
    }
    send(message_kind::completion, m.client, m, 0);
}

void brick_firmware::replica_write(network_message m) {
    store_write(m);
    send(message_kind::write_ack, m.source, m, 0);
}

void brick_firmware::store_write(const network_message &m) {
    while (!m_cache.can_hold_dirty(m.lbn, m.sectors)) sc_core::wait(m_destaged);
    m_platform.cpu_run_priced(rtl_models::cpu_task::table_update, 0);
    // The data into NVRAM: timed by the NVRAM's latency and bandwidth (the bytes themselves are
    // not kept: data are timing only on a brick).
    static const std::vector<uint8_t> zeros(1 << 20, 0);
    const uint64_t bytes = std::min<uint64_t>({uint64_t(m.sectors) * 512, m_platform.nvram_capacity_bytes(), zeros.size()});
    m_platform.nvram_write(0, zeros.data(), unsigned(bytes));
    m_cache.insert_dirty(m.lbn, m.sectors);
    note_dirty();
    ++m_stats.writes_stored;
    m_dirty.push_back({m.lbn, m.sectors});
    try_destage();
}

void brick_firmware::try_destage() {
    // The disk's scheduler picks among the queued destages and the reads (Lumb 4.1.2): which
    // dirty data go first is its choice, not this one's, so the queue takes them oldest first.
    while (m_destages_queued < m_role.destage_requests_queued && !m_dirty.empty() &&
           double(m_cache.dirty_pages()) > m_role.destage_above_cache_fraction * double(m_cache.capacity_pages())) {
        const dirty_extent e = m_dirty.front();
        m_dirty.pop_front();
        ++m_destages_queued;
        m_platform.run_background([this, e] { destage(e.lbn, e.sectors); });
    }
}

void brick_firmware::destage(uint64_t lbn, uint32_t sectors) {
    ++m_trace_queue;
    const uint64_t n = m_kit.queues.acquire_tag(0, lbn, sectors, true);
    --m_trace_queue;
    const bool handed_on = disk_io(true, lbn, sectors, n);
    --m_destages_queued;
    m_cache.destaged(lbn, sectors);
    note_dirty();
    ++m_stats.destages;
    m_destaged.notify(sc_core::SC_ZERO_TIME);
    if (!handed_on)
        m_kit.queues.release_tag(0);
    try_destage();
}

void brick_firmware::note_dirty() {
    m_trace_dirty_pages = int(m_cache.dirty_pages());
    m_dirty_level.set(m_platform.now_s(), double(m_cache.dirty_pages()));
}

bool brick_firmware::disk_io(bool write, uint64_t lbn, uint32_t sectors, uint64_t n) {
    while (m_disk_busy) sc_core::wait(m_disk_free);  // a prescheduled pick waits for the disk
    drive_request r;
    r.write = write;
    r.disk = 0;
    r.lbn = lbn;
    r.sectors = sectors;
    m_disk_busy = true;
    auto ahead = std::make_shared<pick_ahead>();
    if (uses_claims() && picks_ahead(m_role.protocol))
        schedule_pick_ahead(ahead, write, lbn, sectors);
    const double t0 = m_platform.now_s();
    m_kit.queues.drive_command(r, n);
    m_stats.disk_busy_s += m_platform.now_s() - t0;
    if (write)  // a brick's only writes are its destages
        m_stats.destage_busy_s += m_platform.now_s() - t0;
    ahead->command_done = true;
    ahead->done.notify(sc_core::SC_ZERO_TIME);
    m_disk_busy = false;
    m_disk_free.notify(sc_core::SC_ZERO_TIME);
    return ahead->handed_on;
}

void brick_firmware::schedule_pick_ahead(const std::shared_ptr<pick_ahead> &ahead, bool write, uint64_t lbn,
                                         uint32_t sectors) {
    disk_queues::disk_state &ds = m_kit.queues.state(0);
    head_position_predictor *predictor = ds.predictor.get();
    // Without a predictor the brick cannot tell when its command ends; a write the drive takes
    // into its cache reports at once and writes the media afterwards (the predictor expects that
    // media write itself): both pick when the status comes.
    if (!predictor || !predictor->calibrated() || (write && predictor->write_back_drive()))
        return;
    // The status time of this command as the brick predicts it, from the same start as the
    // prediction disk_queues makes for it (predictor_feed.cpp): the tag grant is now.
    const disks::physical_address first = ds.geometry->to_physical(int64_t(lbn));
    const disks::physical_address last = ds.geometry->to_physical(int64_t(lbn + sectors) - 1);
    const access_prediction a =
        predictor->predict_command(first, write, m_platform.now_ms() + std::max(0.0, ds.start_offset_ms));
    const double status_ms = predictor->expected_status_ms(first, last, int(sectors), write, a);
    const double pick_ms = pick_ahead_at_ms(m_platform.now_ms(), status_ms, m_role.one_way_latency_ms);
    m_platform.run_background([this, ahead, predictor, last, write, sectors, status_ms, pick_ms] {
        // After disk_queues predicted this command (same instant, an earlier delta): a reference
        // burst before it (calibration) leaves the head where the burst ends, so no pick ahead.
        sc_core::wait(sc_core::SC_ZERO_TIME);
        disk_queues::disk_state &s = m_kit.queues.state(0);
        if (ahead->command_done || s.reference_pending)
            return;
        // The next pick ranks from where this command will leave the head, when its status comes:
        // what the predictor will learn at completion, taken ahead (the same calls).
        predictor->command_ended_on(last);
        if (!write)
            predictor->reading_ahead_from(status_ms - predictor->latency().read_after_media_ms(int(sectors)));
        predictor->command_done(write);
        const double wait_ms = pick_ms - m_platform.now_ms();
        if (wait_ms > 0)
            sc_core::wait(sc_core::sc_time(wait_ms, sc_core::SC_MS), ahead->done);
        while (!ahead->command_done) {
            if (m_kit.queues.pass_tag(0)) {
                ahead->handed_on = true;
                ++m_stats.picks_ahead;
                return;
            }
            sc_core::wait(ahead->done | m_read_waiting);
        }
    });
}

brick_firmware::head_prediction brick_firmware::predict_access(uint64_t lbn, bool write) const {
    const disk_queues::disk_state &ds = m_kit.queues.state(0);
    if (!ds.geometry)
        return {};
    const disks::physical_address first = ds.geometry->to_physical(int64_t(lbn));
    if (!ds.predictor)  // no predictor (sstf, clook): the seek distance is the bid
        return {double(std::abs(first.cyl - ds.head.cylinder)), 0.0};
    const head_position_predictor &predictor = *ds.predictor;
    const access_prediction a = predictor.predict_command(
        first, write, m_platform.now_ms() + std::max(0.0, ds.start_offset_ms) + ds.issue_delay_ms);
    // The rotational wait a brick may spend before issuing without risking a missed revolution:
    // the predictor's slack (the margin its own feedback loop keeps) stays in hand.
    const double slack_ms =
        predictor.slack_sectors() * predictor.period_ms() / predictor.geometry().sectors_per_track(first.cyl);
    return {a.access_ms(), std::max(0.0, a.rotation_ms - slack_ms)};
}

void brick_firmware::send(message_kind kind, int to, const network_message &about, uint32_t data_bytes) {
    network_message m = about;
    m.kind = kind;
    m.destination = to;
    m.bytes = m_role.control_message_bytes + data_bytes;
    m_net->send(m);
}

void brick_firmware::send_to_others(message_kind kind, const network_message &about, uint32_t data_bytes) {
    for (int r = 0; r < m_role.replicas(); ++r)
        if (r != m_role.replica_index)
            send(kind, m_role.group_ports[size_t(r)], about, data_bytes);
}

void brick_firmware::reset_statistics() {
    m_stats = brick_statistics{};
    m_stats.since_s = m_platform.now_s();
    m_dirty_level.restart(m_stats.since_s);
    m_claims.reset_statistics();
    m_cache.reset_statistics();
    m_kit.reset_statistics();
}

void brick_firmware::report(nlohmann::json &out) const {
    m_kit.report(out);
    const claim_arbiter::statistics &c = m_claims.stats();
    const brick_cache::statistics &k = m_cache.stats();
    out["brick"] = {{"policy", to_string(m_distribution.policy())},
                    {"replica_index", m_role.replica_index},
                    {"client_reads", m_stats.client_reads},
                    {"client_writes", m_stats.client_writes},
                    {"reads_from_disk", m_stats.reads_from_disk},
                    {"read_cache_hits", m_stats.read_cache_hits},
                    {"writes_stored", m_stats.writes_stored},
                    {"destages", m_stats.destages},
                    {"destage_disk_busy_s", m_stats.destage_busy_s},
                    {"destages_waiting_at_end", m_dirty.size() + size_t(m_destages_queued)},
                    {"dirty_pages_mean", m_dirty_level.mean(m_platform.now_s())},
                    {"dirty_pages_peak", m_dirty_level.peak()},
                    {"lost_claims", m_stats.lost_claims},
                    {"picks_ahead", m_stats.picks_ahead},
                    {"random_backoffs", m_stats.random_backoffs},
                    {"claim_protocol", to_string(m_role.protocol)},
                    {"disk_busy_s", m_stats.disk_busy_s},
                    {"claims", {{"sent", c.claims_sent},
                                {"received", c.claims_received},
                                {"conflicts_won", c.conflicts_won},
                                {"conflicts_lost", c.conflicts_lost},
                                {"dropped", c.dropped},
                                {"duplicates", c.duplicates}}},
                    {"cache", {{"pages", m_cache.pages()},
                               {"dirty_pages", m_cache.dirty_pages()},
                               {"read_lookups", k.read_lookups},
                               {"read_hits", k.read_hits},
                               {"evictions", k.evictions},
                               {"kept_after_destage", k.kept_after_destage},
                               {"dropped_after_destage", k.dropped_after_destage}}}};
    report_lard(out);
}

void brick_firmware::report_lard(nlohmann::json &out) const {
    if (m_lard)
        out["brick"]["lard"] = {{"reassignments", m_lard->reassignments()}, {"blocks_assigned", m_lard->blocks_assigned()}};
}

void brick_firmware::trace(sc_core::sc_trace_file *tf, const std::string &prefix) {
    waveforms::trace(tf, m_trace_queue, prefix + ".brick.queue_depth");
    waveforms::trace(tf, m_trace_claims, prefix + ".brick.claims_in_flight");
    waveforms::trace(tf, m_trace_dirty_pages, prefix + ".brick.dirty_pages");
}

}  // namespace raidtlm::controller
