// The forward interface of a target that serves blocking calls only (b_transport): a module that
// is its own socket's target (bound with `socket.bind(*this)`, no simple_target_socket callback
// between) inherits this and implements b_transport. Non-blocking calls are refused, there is no
// direct memory interface and no debug access.
#pragma once

#include <tlm>

namespace raidtlm::rtl_models {

class blocking_target : public tlm::tlm_fw_transport_if<> {
public:
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload &gp, tlm::tlm_phase &, sc_core::sc_time &) override {
        gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return tlm::TLM_COMPLETED;
    }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload &, tlm::tlm_dmi &) override { return false; }
    unsigned int transport_dbg(tlm::tlm_generic_payload &) override { return 0; }
};

}  // namespace raidtlm::rtl_models
