#include "testbench/bench/host_adapter.h"
#include "tlm/annotated_delay.h"


#include <algorithm>

namespace raidtlm::testbench {

namespace {
std::vector<uint64_t> checked(const std::vector<uint64_t> &c) {
    if (c.empty()) SC_REPORT_FATAL("/raidtlm/testbench/host_adapter", "no disks");
    return c;
}
}  // namespace

host_adapter::host_adapter(sc_core::sc_module_name name, const host_adapter_config &config,
                           const std::vector<uint64_t> &disk_capacities)
    : sc_module(name),
      host("host"),
      disk("disk", checked(disk_capacities).size()),
      m_map(config.layout, config.stripe_unit_sectors, disk_capacities) {
    host.register_b_transport(this, &host_adapter::b_transport);
}

host_adapter::~host_adapter() = default;

void host_adapter::trace(sc_core::sc_trace_file *tf, const std::string &prefix) const {
    waveforms::trace(tf, m_outstanding, prefix + ".outstanding");
}

void host_adapter::b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
    protocol::wait_annotated(delay);
    auto *cmd = trans.get_extension<protocol::scsi_command>();
    if (!cmd) {
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    if (cmd->blocks == 0 || cmd->lbn >= m_map.capacity_sectors() ||
        cmd->blocks > m_map.capacity_sectors() - cmd->lbn) {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    if (trans.get_data_length() != 0 &&
        trans.get_data_length() != static_cast<uint64_t>(cmd->blocks) * protocol::token_bytes) {
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    ++m_requests;
    m_peak_outstanding = std::max<int>(m_peak_outstanding, ++m_outstanding);
    m_map.map(cmd->lbn, cmd->blocks, m_scratch);
    bool ok;
    if (m_scratch.size() == 1) {
        const disk_fragment f = m_scratch.front();
        ok = issue(trans, f, true);
    } else {
        const std::vector<disk_fragment> pieces = m_scratch;
        controller::worker_pool::group g;
        bool all_ok = true;
        for (size_t i = 1; i < pieces.size(); ++i)
            m_workers.run(g, [this, &trans, &all_ok, f = pieces[i]] { all_ok = issue(trans, f, false) && all_ok; });
        ok = issue(trans, pieces.front(), false);
        g.wait();
        ok = ok && all_ok;
    }
    --m_outstanding;
    trans.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_GENERIC_ERROR_RESPONSE);
}

bool host_adapter::issue(tlm::tlm_generic_payload &host_trans, const disk_fragment &f, bool copy_timing) {
    tlm::tlm_generic_payload *gp = m_pool.acquire();
    gp->set_command(host_trans.get_command());
    gp->set_address(f.lbn * protocol::sector_bytes);
    if (host_trans.get_data_length() != 0) {
        gp->set_data_ptr(host_trans.get_data_ptr() + static_cast<size_t>(f.host_offset) * protocol::token_bytes);
        gp->set_data_length(f.sectors * protocol::token_bytes);
        gp->set_streaming_width(f.sectors * protocol::token_bytes);
    }
    auto *cmd = gp->get_extension<protocol::scsi_command>();
    cmd->lbn = f.lbn;
    cmd->blocks = f.sectors;
    cmd->target_id = f.disk;
    cmd->host_request = host_trans.get_extension<protocol::scsi_command>()->host_request;
    ++m_disk_commands;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    disk[f.disk]->b_transport(*gp, delay);
    if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
    const bool ok = gp->is_response_ok();
    if (copy_timing) host_trans.get_extension<protocol::scsi_command>()->timing = cmd->timing;
    gp->release();
    return ok;
}

}  // namespace raidtlm::testbench
