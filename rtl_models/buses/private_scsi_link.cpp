#include "rtl_models/buses/private_scsi_link.h"

#include "tlm/scsi_bus_phase.h"

namespace raidtlm::rtl_models {

private_scsi_link::private_scsi_link(sc_core::sc_module_name name, sc_core::sc_time sector_time)
    : sc_module(name), from_target("from_target"), m_sector_time(sector_time) {
    from_target.register_b_transport(this, &private_scsi_link::b_transport);
}

void private_scsi_link::b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &) {
    auto *phase = trans.get_extension<protocol::scsi_bus_phase>();
    if (!phase) {
        trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
    }
    if (phase->request == protocol::scsi_bus_request::negotiate) {
        phase->sector_time = m_sector_time;
        phase->contended = false;
        phase->observes_data = false;
    }
    // Nothing else costs anything: no one else wants this link.
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace raidtlm::rtl_models
