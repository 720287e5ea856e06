#include "testbench/bricks/brick_client.h"

#include "tlm/scsi_command.h"

namespace raidtlm::testbench {

using protocol::message_kind;

void bricks_measurement::complete(double response_ms, bool write) {
    ++completed;
    const double now = sc_core::sc_time_stamp().to_seconds();
    if (completed == warmup) {
        start_s = now;
        if (on_warmup_end) on_warmup_end();
        return;
    }
    if (completed < warmup || done())
        return;
    ++measured;
    measured_reads += write ? 0 : 1;
    response_sum_ms += response_ms;
    if (done()) {
        end_s = now;
        sc_core::sc_stop();
    }
}

brick_client::brick_client(sc_core::sc_module_name name, const brick_client_config &config,
                           workload_generator &generator, bricks_measurement &measurement,
                           rtl_models::network_port *nic)
    : sc_module(name), m_config(config), m_generator(generator), m_measurement(measurement), m_nic(nic),
      m_entry(extra_stream_seed(config.seed, 7)), m_next_id(config.seed << 40) {
    if (!nic)
        central = std::make_unique<tlm_utils::simple_initiator_socket<brick_client>>("central");
    for (int i = 0; i < config.outstanding; ++i)
        sc_core::sc_spawn(sc_bind(&brick_client::loop, this), sc_core::sc_gen_unique_name("request_loop"));
    if (nic)
        SC_THREAD(receive);
}

void brick_client::loop() {
    for (;;) {
        const host_request r = m_generator.next();
        const double t0 = sc_core::sc_time_stamp().to_seconds();
        ++m_in_flight;
        if (m_nic)
            request_over_network(m_next_id++, r);
        else
            request_to_controller(r);
        --m_in_flight;
        m_measurement.complete((sc_core::sc_time_stamp().to_seconds() - t0) * 1e3, !r.read);
    }
}

bool brick_client::request_over_network(uint64_t id, const host_request &r) {
    protocol::network_message m;
    m.kind = r.read ? message_kind::client_read : message_kind::client_write;
    m.destination = m_config.one_entry_brick ? m_config.group_ports.front()
                                             : m_config.group_ports[m_entry.below(m_config.group_ports.size())];
    m.request = id;
    m.client = m_nic->address();
    m.entry_brick = m.destination;
    m.lbn = r.lbn;
    m.sectors = r.sectors;
    m.bytes = m_config.control_message_bytes + (r.read ? 0 : r.sectors * 512);
    waiting w;
    m_waiting[id] = &w;
    m_nic->send(m);
    while (!w.done) sc_core::wait(w.event);
    return true;
}

void brick_client::receive() {
    protocol::network_message m;
    for (;;) {
        while (m_nic->receive(m)) {
            if (m.kind != message_kind::completion)
                continue;
            auto it = m_waiting.find(m.request);
            if (it == m_waiting.end()) {
                ++m_measurement.duplicates_squashed;  // another brick served it too
                continue;
            }
            it->second->done = true;
            it->second->event.notify(sc_core::SC_ZERO_TIME);
            m_waiting.erase(it);
        }
        sc_core::wait(m_nic->arrived());
    }
}

bool brick_client::request_to_controller(const host_request &r) {
    auto message_s = [this](uint64_t bytes) {
        return m_config.one_way_latency_ms * 1e-3 +
               (m_config.port_mb_per_s > 0 ? double(bytes) / (m_config.port_mb_per_s * 1e6) : 0.0);
    };
    const uint64_t data = uint64_t(r.sectors) * 512;
    sc_core::wait(sc_core::sc_time(message_s(m_config.control_message_bytes + (r.read ? 0 : data)), sc_core::SC_SEC));
    tlm::tlm_generic_payload gp;
    protocol::scsi_command cmd;
    cmd.lbn = r.lbn;
    cmd.blocks = r.sectors;
    gp.set_extension(&cmd);
    gp.set_command(r.read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    gp.set_data_length(0);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    (*central)->b_transport(gp, delay);
    gp.clear_extension(&cmd);
    sc_core::wait(sc_core::sc_time(message_s(m_config.control_message_bytes + (r.read ? data : 0)), sc_core::SC_SEC));
    return gp.get_response_status() == tlm::TLM_OK_RESPONSE;
}

void brick_client::trace(sc_core::sc_trace_file *tf, const std::string &prefix) {
    sc_core::sc_trace(tf, m_in_flight, prefix + ".in_flight");
}

}  // namespace raidtlm::testbench
