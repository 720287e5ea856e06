#include "controller/kit/queues/disk_queues.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "controller/kit/queues/mirror_read_router.h"
#include "controller/firmware_api/plugins.h"
#include "controller/kit/queues/predictor_feed.h"

namespace raidtlm::controller {

namespace {
const char *msg_type = "/raidtlm/controller/disk_queues";
}

disk_queues::disk_queues(firmware_platform &platform) : m_platform(platform) {
    const controller_config &config = platform.config();
    const firmware_config &fw = config.firmware;
    const scheduler_factory &sched = scheduler_plugin(fw);
    m_disk.resize(size_t(platform.disk_count()));
    for (size_t i = 0; i < m_disk.size(); ++i) {
        disk_state &d = m_disk[i];
        const disk_info &info = platform.drive_info(int(i));
        d.channel = platform.channel_of(int(i));
        d.tags = fw.tags_per_disk > 0 ? fw.tags_per_disk : std::max(1, info.max_queue_length);
        if (!sched.make) continue;  // fcfs: the queue's own order
        if (!info.geometry)
            SC_REPORT_FATAL(msg_type, fmt::format("scheduler {} needs the drives' geometry (disk_info::geometry)",
                                                  scheduler_name(fw))
                                          .c_str());
        if (i == 0 || info.geometry != platform.drive_info(int(i) - 1).geometry)
            m_geometries.push_back(std::make_unique<disks::disk_layout>(*info.geometry));
        d.geometry = m_geometries.back().get();
        disk_scheduler::config sc;
        sc.policy = fw.scheduler;
        sc.cvscan_r = fw.cvscan_r;
        sc.cylinders = d.geometry->to_physical(d.geometry->lbn_count() - 1).cyl + 1;
        d.scheduler = sched.make(sc);
        if (sched.needs_predictor) {
            const predictor_factory *pf = predictor_registry::instance().find(fw.predictor_plugin);
            if (!pf)
                SC_REPORT_FATAL(msg_type, fmt::format("no head-position predictor '{}' (registered: {})", fw.predictor_plugin,
                                                      join_names(predictor_registry::instance().names()))
                                              .c_str());
            // The firmware knows the drive's datasheet and its own channel, not the spindle's
            // phase: that comes from reference reads before the disk's first command, so the
            // calibration holds every tag of the disk from the start (run_reference_reader).
            const head_position_predictor::config &pc = fw.predictor;
            const drive_latency latency(*info.geometry, config.bus);
            d.predictor = pf->make(*info.geometry, pc, latency);
            d.calibration = std::make_unique<spindle_calibration>(pc.calibration, latency);
            if (fw.tags_per_disk == 0) d.tags = 1;
            d.in_use = d.tags;
        }
    }
}

disk_queues::~disk_queues() = default;

void disk_queues::restart() {
    for (disk_state &ds : m_disk) {
        ds.queue.clear();
        ds.in_use = 0;
        note_traced(ds);
    }
    m_dups = duplicate_request_tracker{};
}

uint64_t disk_queues::acquire_tag(int d, uint64_t lbn, uint32_t sectors, bool write,
                                  const std::vector<placement> *choices, size_t *chosen) {
    return acquire(d, lbn, sectors, write, choices, chosen, 0);
}

uint64_t disk_queues::acquire_tag_unless_cancelled(int d, uint64_t lbn, uint32_t sectors, bool write, uint64_t key) {
    return acquire(d, lbn, sectors, write, nullptr, nullptr, key);
}

bool disk_queues::cancel(int d, uint64_t key) {
    auto &q = m_disk[size_t(d)].queue;
    for (auto it = q.begin(); it != q.end(); ++it)
        if ((*it)->cancel_key == key) {
            waiter *w = *it;
            q.erase(it);
            w->cancelled = true;
            w->granted = true;
            w->go.notify(sc_core::SC_ZERO_TIME);
            return true;
        }
    return false;
}

uint64_t disk_queues::acquire(int d, uint64_t lbn, uint32_t sectors, bool write, const std::vector<placement> *choices,
                              size_t *chosen, uint64_t cancel_key) {
    disk_state &ds = m_disk[size_t(d)];
    const bool several = choices && choices->size() > 1;
    if (ds.in_use < ds.tags && ds.queue.empty() && !(ds.scheduler && several)) {
        ++ds.in_use;
        note_traced(ds);
        m_stats.tag_wait.add(0);
        if (chosen) *chosen = 0;
        return 1;
    }
    const double t0 = m_platform.now_s();
    waiter w;
    if (ds.scheduler) {
        w.request.id = ds.next_id++;
        w.request.arrival_ms = t0 * 1e3;
        w.request.write = write;
        if (choices) {
            w.request.placements = *choices;
        } else {
            placement p;
            p.extents = {{int64_t(lbn), int32_t(sectors), false}};
            p.sectors = int32_t(sectors);
            p.first = ds.geometry->to_physical(int64_t(lbn));
            p.last = ds.geometry->to_physical(int64_t(lbn + sectors) - 1);
            w.request.placements.push_back(std::move(p));
        }
    }
    if (ds.in_use < ds.tags && ds.queue.empty()) {
        ++ds.in_use;
        note_traced(ds);
        m_stats.tag_wait.add(0);
        if (chosen) *chosen = 0;
        if (several) {
            // Several replicas and nothing queued: the scheduler picks among them alone.
            ds.snapshot.assign(1, w.request);
            const scheduling_decision pick = choose(ds);
            if (chosen) *chosen = pick.placement;
            return std::max<uint64_t>(1, pick.entries_examined);
        }
        return 1;
    }
    w.queued_s = t0;
    w.cancel_key = cancel_key;
    ds.queue.push_back(&w);
    note_traced(ds);
    while (!w.granted) sc_core::wait(w.go);
    if (w.cancelled) return 0;
    m_stats.tag_wait.add(m_platform.now_s() - t0);
    if (chosen) *chosen = w.placement;
    return w.n;
}

scheduling_decision disk_queues::choose(disk_state &ds) {
    return ds.predictor
               ? *ds.scheduler->choose(ds.snapshot, ds.predictor->at_command(m_platform.now_ms() +
                                                                             std::max(0.0, ds.start_offset_ms) +
                                                                             ds.issue_delay_ms))
               : *ds.scheduler->choose(ds.snapshot, ds.head);
}

void disk_queues::release_tag(int d) {
    disk_state &ds = m_disk[size_t(d)];
    if (ds.queue.empty()) {
        --ds.in_use;
        note_traced(ds);
        if (on_idle) on_idle(d);  // the foreground queue is empty: delayed work may have the tag
        return;
    }
    grant_next(d, ds);
}

bool disk_queues::pass_tag(int d) {
    disk_state &ds = m_disk[size_t(d)];
    if (ds.queue.empty())
        return false;
    grant_next(d, ds);
    return true;
}

void disk_queues::grant_next(int d, disk_state &ds) {
    waiter *w;
    const bool at_random = std::exchange(ds.pick_at_random_once, false) && ds.queue.size() > 1;
    if (at_random) {
        // xorshift64: a fixed, reproducible sequence per disk.
        uint64_t &x = ds.random_state;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const auto it = ds.queue.begin() + int64_t(x % ds.queue.size());
        w = *it;
        w->placement = 0;
        w->n = ds.queue.size();
        ds.queue.erase(it);
    } else if (!ds.scheduler) {
        // The tag goes to the next command in the firmware's queue (first come, first served); the
        // decision looked at every entry queued.
        w = ds.queue.front();
        w->n = ds.queue.size();
        ds.queue.pop_front();
    } else {
        ds.snapshot.clear();
        for (const waiter *q : ds.queue) ds.snapshot.push_back(q->request);
        const scheduling_decision pick = choose(ds);
        const auto it = ds.queue.begin() + int64_t(pick.request);
        w = *it;
        w->placement = pick.placement;
        w->n = std::max<uint64_t>(1, pick.entries_examined);
        ds.queue.erase(it);
    }
    if (w->primary) {
        // A duplicated request: this disk won; its copies in the other holders' queues go.
        const duplicate_request_tracker::claim c = m_dups.scheduled(w->dup, d);
        for (int other : c.cancel_on) {
            auto &q = m_disk[size_t(other)].queue;
            for (auto it = q.begin(); it != q.end(); ++it)
                if ((*it)->dup == w->dup) {
                    q.erase(it);
                    note_traced(m_disk[size_t(other)]);
                    ++m_stats.cancelled_duplicates;
                    break;
                }
            m_dups.cancelled(w->dup, other);
        }
        waiter *p = w->primary;
        p->placement = w->placement;
        p->n = w->n;
        p->granted_holder = w->holder;
        w = p;
    }
    note_traced(ds);
    w->granted = true;
    w->go.notify(sc_core::SC_ZERO_TIME);
}

void disk_queues::note_traced(disk_state &ds) {
    if (!m_traced) return;
    ds.traced_queue_depth = int(ds.queue.size());
    ds.traced_tags_in_use = ds.in_use;
    ds.traced_tag_wait = !ds.queue.empty();
    if (ds.traced_tag_wait && m_first_tag_wait_s < 0) m_first_tag_wait_s = m_platform.now_s();
    double oldest_s = m_platform.now_s();
    for (const waiter *w : ds.queue) oldest_s = std::min(oldest_s, w->queued_s);
    ds.traced_oldest_wait_us = int(std::lround((m_platform.now_s() - oldest_s) * 1e6));
}

void disk_queues::trace(sc_core::sc_trace_file *tf, const std::string &prefix) {
    m_traced = true;
    for (size_t i = 0; i < m_disk.size(); ++i) {
        disk_state &ds = m_disk[i];
        const std::string p = fmt::format("{}.disk{}.", prefix, i);
        waveforms::trace(tf, ds.traced_queue_depth, p + "queue_depth");
        waveforms::trace(tf, ds.traced_tags_in_use, p + "tags_in_use");
        waveforms::trace(tf, ds.traced_oldest_wait_us, p + "oldest_wait_us");
        waveforms::trace(tf, ds.traced_tag_wait, p + "tag_wait");
        note_traced(ds);
    }
}

void disk_queues::holders_of(const chunk &c, int failed, std::vector<holder> &out) const {
    out.clear();
    for (const replica &r : c.replicas) {
        if (r.disk == failed) continue;
        bool seen = false;
        for (const holder &h : out) seen = seen || h.disk == r.disk;
        if (seen) continue;
        holder h;
        h.disk = r.disk;
        const disk_state &ds = m_disk[size_t(r.disk)];
        if (ds.geometry) {
            h.choices = placements_on_disk(c, r.disk, *ds.geometry);
        } else {  // fcfs: the replicas on the disk, unpositioned
            for (const replica &q : c.replicas)
                if (q.disk == r.disk) {
                    placement p;
                    p.copy = q.copy;
                    p.extents = q.extents;
                    p.sectors = q.sectors();
                    h.choices.push_back(std::move(p));
                }
        }
        out.push_back(std::move(h));
    }
}

disk_queues::grant disk_queues::acquire_any(const std::vector<holder> &hs, bool write) {
    auto queued_or_busy = [this](int d) { return size_t(m_disk[size_t(d)].in_use) + m_disk[size_t(d)].queue.size(); };
    auto go_to = [&](size_t i) {
        grant g;
        g.holder = i;
        g.n = acquire_tag(hs[i].disk, 0, 0, write, &hs[i].choices, &g.placement);
        return g;
    };
    if (hs.size() == 1) return go_to(0);
    // Closest idle holder: the predicted access time when the firmware predicts heads, else the
    // seek distance from where the disk's last command ended, else none (the first idle one).
    std::vector<replica> reps(hs.size());
    for (size_t i = 0; i < hs.size(); ++i) reps[i].disk = int(i);  // index into hs
    const mirror_read_route route = route_mirror_read(
        reps, [&](int i) { return queued_or_busy(hs[size_t(i)].disk) == 0; },
        [&](const replica &r) {
            const holder &h = hs[size_t(r.disk)];
            const disk_state &ds = m_disk[size_t(h.disk)];
            double best = std::numeric_limits<double>::infinity();
            for (const placement &p : h.choices) {
                if (ds.predictor)
                    best = std::min(best, ds.predictor
                                              ->predict_command(p.first, write,
                                                                m_platform.now_ms() + std::max(0.0, ds.start_offset_ms))
                                              .access_ms());
                else if (ds.geometry)
                    best = std::min(best, double(std::abs(p.first.cyl - ds.head.cylinder)));
                else
                    best = 0;
            }
            return best;
        });
    if (!route.duplicate) return go_to(route.replica);
    // None idle: one with a free tag and nothing queued takes it now (the least loaded).
    size_t best = hs.size();
    for (size_t i = 0; i < hs.size(); ++i) {
        const disk_state &ds = m_disk[size_t(hs[i].disk)];
        if (ds.in_use < ds.tags && ds.queue.empty() &&
            (best == hs.size() || queued_or_busy(hs[i].disk) < queued_or_busy(hs[best].disk)))
            best = i;
    }
    if (best < hs.size()) return go_to(best);
    // Every holder busy: duplicate into every holder's queue; the first to schedule it wins.
    const double t0 = m_platform.now_s();
    std::vector<waiter> ws(hs.size());
    const uint64_t dup = m_next_dup++;
    std::vector<int> disks;
    for (size_t i = 0; i < hs.size(); ++i) {
        disk_state &ds = m_disk[size_t(hs[i].disk)];
        waiter &w = ws[i];
        w.request.id = ds.next_id++;
        w.request.arrival_ms = t0 * 1e3;
        w.request.write = write;
        w.request.placements = hs[i].choices;
        w.dup = dup;
        w.holder = i;
        w.primary = &ws[0];
        w.queued_s = t0;
        ds.queue.push_back(&w);
        note_traced(ds);
        disks.push_back(hs[i].disk);
    }
    m_dups.add(dup, disks);
    ++m_stats.duplicated_requests;
    while (!ws[0].granted) sc_core::wait(ws[0].go);
    m_stats.tag_wait.add(m_platform.now_s() - t0);
    return {ws[0].granted_holder, ws[0].placement, ws[0].n};
}

bool disk_queues::drive_command(drive_request request, uint64_t n) {
    disk_state &ds = m_disk[size_t(request.disk)];
    calibrate_if_due(*this, request.disk);
    const pending_prediction predicted = predict_before_command(ds, request, m_platform.now_ms());
    const rtl_models::cpu_cost_table &c = m_platform.cpu_costs();
    m_platform.cpu_run({{rtl_models::cpu_task::schedule, c.schedule_cycles(n)},
                        {rtl_models::cpu_task::physical_command, c.physical_command_cycles},
                        {rtl_models::cpu_task::dma_setup, c.dma_setup_cycles}},
                       ds.channel);
    if (request.old_tokens) ++m_stats.read_rotate_writes;
    const drive_completion done = m_platform.drive_command(request);
    if (ds.geometry) ds.head.cylinder = ds.geometry->to_physical(int64_t(request.lbn + request.sectors) - 1).cyl;
    m_activity.notify(sc_core::SC_ZERO_TIME);
    learn_after_command(ds, request, done, predicted, m_stats);
    return done.ok;
}

}  // namespace raidtlm::controller
