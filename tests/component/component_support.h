// What the component benches share: the Cheetah 9LP drive spec and a host that runs test code in
// SC_THREADs and sends host commands (with or without data tokens) through one initiator socket.
#pragma once

#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <functional>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "disks/disk_spec.h"
#include "disks/diskspec_loader.h"
#include "rtl_models/buses/scsi_bus.h"
#include "tlm/payload_pool.h"
#include "tlm/scsi_bus_phase.h"
#include "tlm/scsi_command.h"
#include <tlm_utils/simple_target_socket.h>

namespace component_test {

// A target on a SCSI bus wired by its two sockets, speaking only the protocol of
// tlm/scsi_bus_phase.h: what a command does is the test's (command()); request() asks the bus for
// a reselect, a disconnect or a release and returns the bus's answer.
struct bus_target_stub : sc_core::sc_module {
    int id;
    tlm_utils::simple_target_socket<bus_target_stub> target{"target"};
    tlm_utils::simple_initiator_socket<bus_target_stub> bus_port{"bus_port"};
    tlm::tlm_generic_payload trans;
    raidtlm::protocol::scsi_bus_phase phase;

    bus_target_stub(sc_core::sc_module_name n, int scsi_id) : sc_module(n), id(scsi_id) {
        target.register_b_transport(this, &bus_target_stub::transport);
        trans.set_extension(&phase);
    }
    ~bus_target_stub() override { trans.clear_extension(&phase); }
    void plug_into(raidtlm::rtl_models::scsi_bus &bus) {
        bus.to_target(id).bind(target);
        bus_port.bind(bus.from_target(id));
    }
    tlm::tlm_response_status request(raidtlm::protocol::scsi_bus_request r) {
        phase.request = r;
        trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        bus_port->b_transport(trans, d);
        return trans.get_response_status();
    }

protected:
    virtual void command(tlm::tlm_generic_payload &t) { t.set_response_status(tlm::TLM_OK_RESPONSE); }

private:
    void transport(tlm::tlm_generic_payload &t, sc_core::sc_time &) { command(t); }
};

inline const raidtlm::disks::disk_spec &cheetah() {
    static const raidtlm::disks::disk_spec s = raidtlm::disks::load_diskspec(
        std::string(RAIDTLM_SHARED_DIR) + "/reference/disksim/validation/cheetah9LP.diskspecs");
    return s;
}

class host_tester : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<host_tester> socket;
    explicit host_tester(sc_core::sc_module_name n) : sc_module(n), socket("socket") {}

    // Runs `body` in its own thread, started at time 0.
    void spawn(std::function<void()> body) { sc_core::sc_spawn(std::move(body)); }

    // A blocking host command; returns the response status. `host_request`: its id, as the
    // workload numbers them (a write's tokens are then make_token(lbn, host_request)).
    tlm::tlm_response_status send(bool read, uint64_t lbn, uint32_t blocks, uint64_t *tokens = nullptr,
                                  int64_t host_request = -1) {
        tlm::tlm_generic_payload *gp = m_pool.acquire();
        gp->set_command(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
        if (tokens) {
            gp->set_data_ptr(reinterpret_cast<unsigned char *>(tokens));
            gp->set_data_length(blocks * raidtlm::protocol::token_bytes);
            gp->set_streaming_width(blocks * raidtlm::protocol::token_bytes);
        }
        auto *cmd = gp->get_extension<raidtlm::protocol::scsi_command>();
        cmd->lbn = lbn;
        cmd->blocks = blocks;
        cmd->host_request = host_request;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(*gp, delay);
        const auto status = gp->get_response_status();
        gp->release();
        return status;
    }
    size_t payloads_allocated() const { return m_pool.allocated(); }

private:
    raidtlm::protocol::payload_pool m_pool;
};

}  // namespace component_test
