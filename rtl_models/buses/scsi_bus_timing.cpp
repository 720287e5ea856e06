#include "rtl_models/buses/scsi_bus_timing.h"

#include <stdexcept>

namespace raidtlm::rtl_models {

const char *to_string(scsi_preset p) {
    switch (p) {
    case scsi_preset::fast20: return "fast20";
    case scsi_preset::ultra2: return "ultra2";
    case scsi_preset::ultra160: return "ultra160";
    case scsi_preset::ultra320: return "ultra320";
    case scsi_preset::sata150: return "sata150";
    case scsi_preset::sas3g: return "sas3g";
    case scsi_preset::sas6g: return "sas6g";
    case scsi_preset::sas12g: return "sas12g";
    case scsi_preset::custom: return "custom";
    }
    return "?";
}

bool scsi_phase_costs::all_zero() const {
    return arbitration_us == 0 && bus_free_us == 0 && selection_us == 0 && reselection_us == 0 && message_us == 0 &&
           command_us == 0 && status_us == 0;
}

scsi_bus_config scsi_bus_config::with_preset(scsi_preset p) {
    scsi_bus_config c;
    c.preset = p;
    switch (p) {
    case scsi_preset::fast20: c.width_bits = 8; c.mtransfers_per_s = 20; break;
    case scsi_preset::ultra2: c.width_bits = 16; c.mtransfers_per_s = 40; break;
    case scsi_preset::ultra160: c.width_bits = 16; c.mtransfers_per_s = 80; break;
    case scsi_preset::ultra320: c.width_bits = 16; c.mtransfers_per_s = 160; break;
    case scsi_preset::sata150:
        c.width_bits = 8;
        c.mtransfers_per_s = 150;
        c.phases = scsi_phase_costs{0, 0, 0, 0, 0, 0, 0};
        break;
    // SAS: one 8b/10b lane, 10 line bits per byte (scsi_bus_timing.h).
    case scsi_preset::sas3g:
    case scsi_preset::sas6g:
    case scsi_preset::sas12g:
        c.width_bits = 8;
        c.mtransfers_per_s = p == scsi_preset::sas3g ? 300 : p == scsi_preset::sas6g ? 600 : 1200;
        c.phases = scsi_phase_costs{0, 0, 0, 0, 0, 0, 0};
        break;
    case scsi_preset::custom: break;
    }
    return c;
}

bool scsi_bus_config::is_point_to_point(scsi_preset p) {
    switch (p) {
    case scsi_preset::sata150:
    case scsi_preset::sas3g:
    case scsi_preset::sas6g:
    case scsi_preset::sas12g: return true;
    case scsi_preset::fast20:
    case scsi_preset::ultra2:
    case scsi_preset::ultra160:
    case scsi_preset::ultra320:
    case scsi_preset::custom: return false;
    }
    return false;
}

double scsi_bus_config::select_us() const {
    return phases.arbitration_us + phases.selection_us + phases.message_us + phases.command_us;
}

double scsi_bus_config::reselect_us() const {
    return phases.arbitration_us + phases.reselection_us + phases.message_us;
}

int scsi_priority(int id) { return id < 8 ? id + 8 : id - 8; }

int scsi_arbiter::choose(const std::vector<int> &requesters) {
    if (requesters.empty()) throw std::logic_error("scsi_arbiter::choose: no requesters");
    uint16_t present = 0;
    for (int id : requesters) present |= uint16_t(1u << (id & 15));
    int winner = -1;
    for (int pass = 0; pass < 2 && winner < 0; ++pass)
        for (int id : requesters) {
            // With fairness a device sits out while someone it must yield to is still waiting.
            if (pass == 0 && m_fair && (m_yield[id & 15] & present)) continue;
            if (winner < 0 || scsi_priority(id) > scsi_priority(winner)) winner = id;
        }
    const uint16_t bit = uint16_t(1u << (winner & 15));
    for (uint16_t &y : m_yield) y &= uint16_t(~bit);
    if (m_fair) m_yield[winner & 15] = uint16_t(present & ~bit);
    return winner;
}

}  // namespace raidtlm::rtl_models
