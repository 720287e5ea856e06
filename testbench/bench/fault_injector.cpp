#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "testbench/bench/fault_injector.h"

#include <fmt/format.h>

namespace raidtlm::testbench {

namespace {
double now_ms() { return sc_core::sc_time_stamp().to_seconds() * 1e3; }
}  // namespace

fault_injector::fault_injector(sc_core::sc_module_name name, std::vector<fault_entry> schedule,
                               controller::controller_top &ctl, std::vector<disks::disk_drive *> drives,
                               workload_driver &workload)
    : sc_module(name), m_ctl(ctl), m_drives(std::move(drives)), m_workload(workload) {
    bool by_request = false;
    for (size_t i = 0; i < schedule.size(); ++i) {
        m_outcomes.push_back({schedule[i]});
        if (schedule[i].at_request >= 0) by_request = true;
        else sc_core::sc_spawn([this, i] { at_time(i); }, sc_core::sc_gen_unique_name("fault"));
    }
    if (by_request) m_ctl.on_host_request = [this](uint64_t sequence) { on_request(sequence); };
}

void fault_injector::at_time(size_t i) {
    sc_core::wait(sc_core::sc_time(m_outcomes[i].fault.at_ms, sc_core::SC_MS));
    apply(i);
}

void fault_injector::on_request(uint64_t sequence) {
    for (size_t i = 0; i < m_outcomes.size(); ++i)
        if (m_outcomes[i].fault.at_request == int64_t(sequence) && m_outcomes[i].happened_ms < 0) apply(i);
}

void fault_injector::apply(size_t i) {
    fault_outcome &o = m_outcomes[i];
    o.happened_ms = now_ms();
    const fault_entry &f = o.fault;
    switch (f.kind) {
    case fault_kind::disk_loss:
        // A controller that is on notices the drive stop answering; one that is off finds the
        // slot empty, or another drive in it, at start-up (controller_top::pull_drive).
        if (m_ctl.powered()) m_ctl.fail_member(f.disk);
        else m_ctl.pull_drive(f.disk);
        if (f.replace_after_ms >= 0)
            sc_core::sc_spawn([this, i] { replace_later(i); }, sc_core::sc_gen_unique_name("replace"));
        break;
    case fault_kind::media_error:
        m_drives.at(size_t(f.disk))->inject_media_error(f.lbn, f.sectors);
        break;
    case fault_kind::silent_corruption:
        m_drives.at(size_t(f.disk))->corrupt_media(f.lbn, f.sectors);
        break;
    case fault_kind::power_loss:
    case fault_kind::controller_loss:
        // From a thread of its own: the outage and the recovery take time. A controller lost and
        // replaced with its NVRAM module is, to the firmware and the drives, a power loss: what
        // survives (NVRAM, the drives) and what is lost (DRAM, volatile state, requests in
        // flight) are the same; only the time to the replacement differs (restore_after_ms).
        sc_core::sc_spawn([this, i] { power_cycle(i); }, sc_core::sc_gen_unique_name("power"));
        break;
    }
}

void fault_injector::power_cycle(size_t i) {
    fault_outcome &o = m_outcomes[i];
    // Outages that overlap are one outage, their union: a power loss while the controller is off
    // changes nothing, and the power comes back only when every outage has ended (restoring it at
    // the end of an inner outage would start the firmware while the outer one still holds, and
    // again at the outer one's end on a controller already running).
    // (controller_top counts the causes of an outage.)
    m_ctl.power_fail();
    sc_core::wait(sc_core::sc_time(o.fault.restore_after_ms, sc_core::SC_MS));
    if (m_ctl.outages_in_force() > 1) {
        m_ctl.power_restore_and_recover();  // one cause fewer; still off
        m_outages_ended_while_off.push_back(i);
        return;
    }
    o.recovered = m_ctl.power_restore_and_recover();
    o.recovered_ms = now_ms();
    o.abandoned = m_workload.abandon_in_flight();
    // The outages that ended inside this one recovered with it.
    for (size_t inner : m_outages_ended_while_off) m_outcomes[inner].recovered_ms = o.recovered_ms;
    m_outages_ended_while_off.clear();
}

void fault_injector::replace_later(size_t i) {
    fault_outcome &o = m_outcomes[i];
    sc_core::wait(sc_core::sc_time(o.fault.replace_after_ms, sc_core::SC_MS));
    if (!m_ctl.powered()) {
        // The controller is off: the fresh drive is in the slot when it starts again, and it is
        // for the firmware to find out (firmware::check_members).
        m_drives.at(size_t(o.fault.disk))->replace_media();
        m_ctl.insert_drive(o.fault.disk);
        o.replaced_ms = now_ms();
        return;
    }
    // Only a slot still failed takes a fresh drive (a second loss entry may have come between).
    if (m_ctl.members().state(o.fault.disk) != controller::member_state::failed) return;
    m_drives.at(size_t(o.fault.disk))->replace_media();
    o.replaced_ms = now_ms();
    o.rebuild_started = m_ctl.replace_member(o.fault.disk);
}

nlohmann::json fault_injector::report() const {
    nlohmann::json list = nlohmann::json::array();
    for (const fault_outcome &o : m_outcomes) {
        const fault_entry &f = o.fault;
        nlohmann::json j = {{"kind", to_string(f.kind)}, {"happened", o.happened_ms >= 0}};
        if (o.happened_ms >= 0) j["at_ms"] = o.happened_ms;
        if (f.at_request >= 0) j["at_request"] = f.at_request;
        if (!stops_controller(f.kind)) j["disk"] = f.disk;
        if (f.kind == fault_kind::media_error) {
            j["lbn"] = f.lbn;
            j["sectors"] = f.sectors;
            j["still_unreadable"] = m_drives.at(size_t(f.disk))->unreadable_blocks();
        }
        if (f.kind == fault_kind::silent_corruption) {
            j["lbn"] = f.lbn;
            j["sectors"] = f.sectors;
        }
        if (f.kind == fault_kind::disk_loss && f.replace_after_ms >= 0) {
            j["replace_after_ms"] = f.replace_after_ms;
            if (o.replaced_ms >= 0) {
                j["replaced_at_ms"] = o.replaced_ms;
                j["rebuild_started"] = o.rebuild_started;
                // The member's rebuild ended when it next became optimal.
                for (const controller::member_change &c : m_ctl.members().history())
                    if (c.disk == f.disk && c.at_ms >= o.replaced_ms && c.state == controller::member_state::optimal) {
                        j["rebuild_done_ms"] = c.at_ms;
                        j["rebuild_duration_ms"] = c.at_ms - o.replaced_ms;
                        break;
                    }
            }
            j["member_state_at_end"] = controller::to_string(m_ctl.members().state(f.disk));
        }
        if (stops_controller(f.kind)) {
            j["restore_after_ms"] = f.restore_after_ms;
            if (o.recovered_ms >= 0) {
                j["recovery_ms"] = o.recovered_ms - o.happened_ms - f.restore_after_ms;
                j["recovered"] = o.recovered;
                j["requests_lost_with_power"] = o.abandoned;
            }
        }
        list.push_back(j);
    }
    return list;
}

}  // namespace raidtlm::testbench
