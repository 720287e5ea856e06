// PLACEHOLDER until the drive engine lands: constant 5 ms service, FCFS, no data.
#include "disks/disk_drive.h"

namespace raidtlm::disks {

class drive_engine {
public:
    explicit drive_engine(const disk_spec &s) : spec(s) {}
    disk_spec spec;
};

struct disk_drive::pending {
    tlm::tlm_generic_payload *trans;
    sc_core::sc_event done;
    sc_core::sc_time arrival;
};

disk_drive::disk_drive(sc_core::sc_module_name name, const disk_spec &spec, const drive_options &options)
    : sc_module(name), target("target"), m_engine(std::make_unique<drive_engine>(spec)), m_options(options) {
    target.register_b_transport(this, &disk_drive::b_transport);
    SC_THREAD(service_thread);
}
disk_drive::~disk_drive() = default;
const disk_spec &disk_drive::spec() const { return m_engine->spec; }
int64_t disk_drive::capacity_blocks() const { return m_engine->spec.block_count; }

void disk_drive::trace(sc_core::sc_trace_file *tf, const std::string &prefix) const {
    sc_core::sc_trace(tf, m_state, prefix + ".state");
    sc_core::sc_trace(tf, m_cylinder, prefix + ".cylinder");
    sc_core::sc_trace(tf, m_head, prefix + ".head");
    sc_core::sc_trace(tf, m_queue_depth, prefix + ".queue_depth");
}

void disk_drive::b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
    sc_core::wait(delay);
    delay = sc_core::SC_ZERO_TIME;
    pending p{&trans, {}, sc_core::sc_time_stamp()};
    m_queue.push_back(&p);
    ++m_queue_depth;
    m_arrival.notify();
    sc_core::wait(p.done);
}

void disk_drive::service_thread() {
    for (;;) {
        while (m_queue.empty()) sc_core::wait(m_arrival);
        pending *p = m_queue.front();
        m_queue.pop_front();
        serve(*p);
        --m_queue_depth;
        p->done.notify();
    }
}

void disk_drive::serve(pending &p) {
    sc_core::wait(5, sc_core::SC_MS);
    auto *cmd = p.trans->get_extension<protocol::scsi_command>();
    if (cmd) cmd->timing.transfer = sc_core::sc_time(5, sc_core::SC_MS);
    ++m_stats.requests;
    p.trans->set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace raidtlm::disks
