// The link of a drive that shares it with no one: a drive wired directly to a host adapter, or a
// DiskSim-style validation where the host side is folded into the drive. Bound to the drive's bus
// socket, it answers negotiate with its per-sector time (zero by default: it stands for the host
// bus and controller rate) and says it never contends and wants no data transactions, so the
// drive sends it nothing else. A drive whose bus socket is left unbound behaves as if bound to a
// zero-cost private link.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace raidtlm::rtl_models {

class private_scsi_link : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<private_scsi_link> from_target;

    explicit private_scsi_link(sc_core::sc_module_name name, sc_core::sc_time sector_time = sc_core::SC_ZERO_TIME);

private:
    void b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);

    sc_core::sc_time m_sector_time;
};

}  // namespace raidtlm::rtl_models
