#include "testbench/workloads/trace_replayer.h"

#include <limits>

namespace raidtlm::testbench {

trace_replayer::trace_replayer(sc_core::sc_module_name name, std::vector<validate_record> records)
    : sc_module(name),
      socket("socket"),
      m_records(std::move(records)),
      m_response_ms(m_records.size(), std::numeric_limits<double>::quiet_NaN()) {
    SC_THREAD(replay);
}

void trace_replayer::replay() {
    for (size_t k = 0; k < m_records.size(); ++k) {
        const validate_record &r = m_records[k];
        tlm::tlm_generic_payload *gp = m_pool.acquire();
        gp->set_command(r.read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
        gp->set_address(r.lbn * protocol::sector_bytes);
        auto *cmd = gp->get_extension<protocol::scsi_command>();
        cmd->lbn = r.lbn;
        cmd->blocks = r.blocks;
        const sc_core::sc_time issued = sc_core::sc_time_stamp();
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(*gp, delay);
        if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
        m_response_ms[k] = (sc_core::sc_time_stamp() - issued).to_seconds() * 1e3;
        if (!gp->is_response_ok()) ++m_errors;
        gp->release();
        ++m_completed;
        if (k + 1 < m_records.size() && r.next_interarrival_ms > 0)
            sc_core::wait(sc_core::sc_time(r.next_interarrival_ms, sc_core::SC_MS));
    }
    sc_core::sc_stop();
}

}  // namespace raidtlm::testbench
