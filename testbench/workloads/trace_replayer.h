// Replays a DiskSim validate trace against one drive, one request at a time: request k+1 is issued
// next_interarrival_ms of record k after request k completed. Records each response time (issue to
// completion, ms) and stops the simulation after the last one. The host's bus and controller
// costs are whatever the drive's bus socket is bound to (validate: a private link at the
// validation host's transfer rate).
#pragma once

#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "tlm/payload_pool.h"
#include "testbench/commands/validate_trace.h"

namespace raidtlm::testbench {

using protocol::payload_pool;

class trace_replayer : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<trace_replayer> socket;

    trace_replayer(sc_core::sc_module_name name, std::vector<validate_record> records);

    const std::vector<validate_record> &records() const { return m_records; }
    // Simulated response time of each record, ms (NaN until it completed).
    const std::vector<double> &response_ms() const { return m_response_ms; }
    size_t completed() const { return m_completed; }
    size_t errors() const { return m_errors; }

private:
    SC_HAS_PROCESS(trace_replayer);
    void replay();

    std::vector<validate_record> m_records;
    std::vector<double> m_response_ms;
    size_t m_completed = 0;
    size_t m_errors = 0;
    payload_pool m_pool;
};

}  // namespace raidtlm::testbench
