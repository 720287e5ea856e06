// A minimal host adapter: no controller, no cache, no cost. It takes host READ/WRITE commands
// (generic payload + protocol::scsi_command with a host LBN range) on its target socket, lays
// them onto its disks with a host_address_map (JBOD or striping) and sends each piece to its
// disk's initiator socket as a SCSI command; the drives' bus sockets stay unbound (a private zero-cost link each).
//
// b_transport blocks the caller's SC_THREAD until every piece has completed. A one-piece request
// (the usual case) runs in the caller's thread; the other pieces of a multi-piece request run in
// parallel on a pool of helper threads that grows to the peak demand and is reused.
// The response is TLM_OK_RESPONSE when every piece succeeded; a range beyond the host capacity
// gets TLM_ADDRESS_ERROR_RESPONSE, a payload without scsi_command TLM_GENERIC_ERROR_RESPONSE.
// Host data (data_length = sectors * protocol::token_bytes) is passed through to the pieces.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "controller/kit/host_address_map.h"
#include "controller/platform/worker_pool.h"
#include "tlm/payload_pool.h"
#include "waveforms/traced_value.h"

namespace raidtlm::testbench {

using controller::disk_fragment;
using controller::host_layout;
using controller::host_address_map;
using protocol::payload_pool;

struct host_adapter_config {
    host_layout layout = host_layout::stripe;
    uint64_t stripe_unit_sectors = 64;
};

class host_adapter : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<host_adapter> host;
    sc_core::sc_vector<tlm_utils::simple_initiator_socket<host_adapter>> disk;

    // One initiator socket per entry of disk_capacities (blocks of each disk).
    host_adapter(sc_core::sc_module_name name, const host_adapter_config &config,
                 const std::vector<uint64_t> &disk_capacities);
    ~host_adapter() override;

    const host_address_map &address_map() const { return m_map; }
    uint64_t capacity_sectors() const { return m_map.capacity_sectors(); }
    int outstanding() const { return m_outstanding; }
    int peak_outstanding() const { return m_peak_outstanding; }
    uint64_t requests() const { return m_requests; }
    uint64_t disk_commands() const { return m_disk_commands; }
    // Traces "<prefix>.outstanding": host requests inside the adapter.
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix) const;

private:
    void b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    bool issue(tlm::tlm_generic_payload &host_trans, const disk_fragment &f, bool copy_timing);

    host_address_map m_map;
    payload_pool m_pool;
    std::vector<disk_fragment> m_scratch;  // used between blocking calls only
    controller::worker_pool m_workers;
    waveforms::traced_int m_outstanding = 0;  // traced
    int m_peak_outstanding = 0;
    uint64_t m_requests = 0;
    uint64_t m_disk_commands = 0;
};

}  // namespace raidtlm::testbench
