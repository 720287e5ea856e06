#include "controller/kit/rebuild/rebuild_runner.h"

#include "controller/firmware_api/controller_config.h"

#include <algorithm>

namespace raidtlm::controller {

namespace {
constexpr uint64_t checkpoint_tag = 0x52424c44'43555253ull;  // "RBLDCURS"
struct checkpoint_record {
    uint64_t tag, rebuild_number, next_unit;
};
}  // namespace

rebuild_runner::rebuild_runner(firmware_platform &platform, unit_job job, unit_size size)
    : m_platform(platform), m_job(std::move(job)), m_size(std::move(size)) {}

void rebuild_runner::checkpoint(int disk) {
    const member_rebuild &m = m_members.at(disk);
    if (m.checkpoint_address < 0) return;
    const checkpoint_record r{checkpoint_tag, m.rebuild_number, m.cursor.next()};
    m_platform.nvram_write(uint64_t(m.checkpoint_address), &r, sizeof r);
}

void rebuild_runner::start(int disk, uint64_t units) {
    member_rebuild &m = m_members[disk];
    m.cursor = rebuild_cursor(units);
    ++m.rebuild_number;
    if (m.checkpoint_address < 0) m.checkpoint_address = m_platform.nvram_allocate(sizeof(checkpoint_record));
    const uint64_t generation = ++m.generation;
    ++m_stats.started;
    m_platform.rebuild_progress(disk, 0);
    m_platform.run_background([this, disk, generation] { run(disk, generation); });
}

bool rebuild_runner::present(int disk, uint64_t unit) const {
    switch (m_platform.member_state_of(disk)) {
    case member_state::optimal: return true;
    case member_state::failed: return false;
    case member_state::rebuilding: break;
    }
    // A unit done ahead of the cursor (several in flight, an earlier one still running) is on the
    // new drive: reads and writes must treat it as the member's, or a write left out of it would
    // leave it stale once the cursor passes (the step is not done again).
    const auto it = m_members.find(disk);
    return it != m_members.end() && (it->second.cursor.rebuilt(unit) || it->second.done_ahead.count(unit) > 0);
}

const rebuild_cursor *rebuild_runner::cursor(int disk) const {
    const auto it = m_members.find(disk);
    return it == m_members.end() ? nullptr : &it->second.cursor;
}

void rebuild_runner::restart_all() {
    resume_all();
    start_all();
}

void rebuild_runner::resume_all() {
    for (auto &[disk, m] : m_members) {
        if (m_platform.member_state_of(disk) != member_state::rebuilding) continue;
        // The NVRAM survived: the checkpoint says where this rebuild got to (untimed: a 24-byte
        // read at boot).
        checkpoint_record r{};
        if (m.checkpoint_address >= 0 && m_platform.nvram_peek(uint64_t(m.checkpoint_address), &r, sizeof r) &&
            r.tag == checkpoint_tag && r.rebuild_number == m.rebuild_number) {
            m.cursor.resume_at(r.next_unit);
            ++m_stats.resumed;
            m_stats.units_not_redone += m.cursor.next();
        } else {
            m.cursor.restart();
        }
        m.done_ahead.clear();  // volatile: units done above the cursor are done again
        m_platform.rebuild_progress(disk, m.cursor.fraction());
    }
}

void rebuild_runner::start_all() {
    for (auto &[disk, m] : m_members) {
        if (m_platform.member_state_of(disk) != member_state::rebuilding) continue;
        const uint64_t generation = ++m.generation;
        ++m_stats.restarts;
        const int d = disk;
        m_platform.run_background([this, d, generation] { run(d, generation); });
    }
}

void rebuild_runner::run(int disk, uint64_t generation) {
    member_rebuild &m = m_members.at(disk);
    m.next_claim = m.cursor.next();
    m.done_ahead.clear();
    m.workers = std::max(1, m_platform.config().firmware.rebuild.units_in_flight);
    checkpoint(disk);  // a checkpoint left by an earlier rebuild of the member is not this one's
    m_platform.check_power();
    for (int w = 1; w < m.workers; ++w) m_platform.run_background([this, disk, generation] { work(disk, generation); });
    work(disk, generation);
}

void rebuild_runner::work(int disk, uint64_t generation) {
    const rebuild_pacing &pacing = m_platform.config().firmware.rebuild;
    for (;;) {
        auto it = m_members.find(disk);
        // A newer thread took over, or the new drive was lost too: this one stops.
        if (it == m_members.end() || it->second.generation != generation) return;
        if (m_platform.member_state_of(disk) != member_state::rebuilding) return;
        member_rebuild &m = it->second;
        if (m.next_claim >= m.cursor.units()) {
            // Nothing left to claim; the last worker out finds every unit done.
            if (--m.workers > 0 || !m.cursor.done()) return;
            break;
        }
        const uint64_t unit = m.next_claim++;
        const uint64_t bytes = m_size(disk, unit);
        const double t0 = m_platform.now_ms();
        if (bytes > 0) {
            if (m_job(disk, unit)) {
                ++m_stats.units_rebuilt;
                m_stats.bytes_rebuilt += bytes;
            } else {
                ++m_stats.units_lost;
            }
        }
        m_platform.check_power();
        it = m_members.find(disk);
        if (it->second.generation != generation) return;
        // The cursor moves over the units done in order (with several in flight, a later one can
        // finish first: it waits in done_ahead).
        member_rebuild &n = it->second;
        n.done_ahead.insert(unit);
        while (!n.cursor.done() && n.done_ahead.erase(n.cursor.next()) > 0) n.cursor.advance();
        m_platform.rebuild_progress(disk, n.cursor.fraction());
        if (bytes == 0) continue;  // nothing on this member: redone in no time after a restart
        checkpoint(disk);
        m_platform.check_power();
        const double busy = m_platform.now_ms() - t0;
        const double idle = pacing.idle_after_ms(busy, bytes);
        m_stats.busy_ms += busy;
        m_stats.idle_ms += idle;
        if (idle > 0) sc_core::wait(sc_core::sc_time(idle, sc_core::SC_MS));
        m_platform.check_power();
    }
    ++m_stats.finished;
    m_platform.member_rebuilt(disk);
}

void rebuild_runner::report(nlohmann::json &out) const {
    if (m_stats.started == 0) return;
    nlohmann::json j;
    j["started"] = m_stats.started;
    j["finished"] = m_stats.finished;
    j["restarts_after_power_loss"] = m_stats.restarts;
    j["resumed_from_checkpoint"] = m_stats.resumed;
    j["units_not_redone"] = m_stats.units_not_redone;
    j["units_rebuilt"] = m_stats.units_rebuilt;
    j["units_lost"] = m_stats.units_lost;
    j["mb_rebuilt"] = double(m_stats.bytes_rebuilt) / 1e6;
    j["busy_ms"] = m_stats.busy_ms;
    j["paced_idle_ms"] = m_stats.idle_ms;
    nlohmann::json members = nlohmann::json::object();
    for (const auto &[disk, m] : m_members)
        members[std::to_string(disk)] = {{"units", m.cursor.units()}, {"cursor", m.cursor.next()},
                                         {"state", to_string(m_platform.member_state_of(disk))}};
    j["members"] = members;
    out["rebuild"] = j;
}

}  // namespace raidtlm::controller
