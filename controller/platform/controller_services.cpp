// controller_top's services to the firmware (firmware_api.h): the CPU, buffer space, the DRAM's
// CPU port, host DMA, XOR, NVRAM and the drive commands over the SCSI channels, each a transaction
// on one of the platform's initiator sockets (controller_top.h).
#include <cmath>

#include "controller/platform/controller_top.h"
#include "rtl_models/common/sim_time.h"
#include "tlm/annotated_delay.h"

namespace raidtlm::controller {

// ---- services: CPU, DRAM, host link, XOR, NVRAM -------------------------------------------------

void controller_top::cpu_run(std::initializer_list<rtl_models::controller_cpu::step> steps, int affinity) {
    m_cpu_routine->steps = steps.begin();
    m_cpu_routine->count = steps.size();
    m_cpu_routine->affinity = affinity;
    m_cpu_trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    m_to_cpu->b_transport(m_cpu_trans, delay);  // books the routine: delay = until it has run
    protocol::wait_annotated(delay);
    check_power();
}

protocol::buffer_block *controller_top::allocate_buffer(uint64_t bytes, uint64_t token_sectors) {
    tlm::tlm_generic_payload &gp = m_space_payloads.get();
    rtl_models::buffer_request &r = m_space_payloads.extension(gp);
    r.what = rtl_models::buffer_request::action::allocate;
    r.bytes = bytes;
    r.token_sectors = token_sectors;
    r.block = nullptr;
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    m_to_space->b_transport(gp, delay);  // waits while the DRAM is full
    protocol::buffer_block *b = r.block;
    m_space_payloads.put(gp);
    check_power();
    return b;
}

void controller_top::free_buffer(protocol::buffer_block *b) {
    m_free_request->block = b;
    m_free_trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    m_to_space->b_transport(m_free_trans, delay);  // never waits
}

void controller_top::request_table_write(uint32_t bytes) {
    tlm::tlm_generic_payload &gp = m_dma_payloads.get();
    protocol::dma_command &d = m_dma_payloads.extension(gp);
    d = protocol::dma_command{};
    d.bytes = bytes;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_data_length(0);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    m_to_dram->b_transport(gp, delay);
    m_dma_payloads.put(gp);
    check_power();
}

void controller_top::host_dma(const host_command &cmd, protocol::buffer_block *buffer, uint64_t first_sector) {
    const auto &host_trans = *static_cast<const tlm::tlm_generic_payload *>(cmd.platform_handle);
    tlm::tlm_generic_payload &gp = m_dma_payloads.get();
    protocol::dma_command &d = m_dma_payloads.extension(gp);
    d = protocol::dma_command{};
    d.bytes = cmd.bytes();
    d.buffer = buffer;
    d.first_sector = first_sector;
    gp.set_command(host_trans.get_command());
    // A piece of the host's command (firmware_kit::serve_pieces): its own sectors of the host's data.
    const uint64_t token_bytes = host_trans.get_data_length() ? uint64_t(cmd.sectors) * protocol::token_bytes : 0;
    gp.set_data_ptr(host_trans.get_data_ptr() + cmd.host_offset_sectors * protocol::token_bytes);
    gp.set_data_length(unsigned(token_bytes));
    gp.set_streaming_width(unsigned(token_bytes));
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    m_to_link->b_transport(gp, delay);
    m_dma_payloads.put(gp);
    check_power();
}

void controller_top::xor_blocks(const std::vector<protocol::buffer_ref> &inputs, const protocol::buffer_ref &output,
                                uint64_t sectors) {
    gf_blocks(inputs, {}, output, sectors);
}

void controller_top::gf_blocks(const std::vector<protocol::buffer_ref> &inputs, const std::vector<uint8_t> &coefficients,
                               const protocol::buffer_ref &output, uint64_t sectors) {
    tlm::tlm_generic_payload gp;
    protocol::xor_command x;
    x.inputs = inputs;
    x.output = output;
    x.sectors = sectors;
    x.coefficients = coefficients;
    gp.set_extension(&x);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    m_to_xor->b_transport(gp, delay);
    gp.clear_extension(&x);
    check_power();
}

void controller_top::nvram_write(uint64_t address, const void *data, unsigned bytes) {
    nvram_access(tlm::TLM_WRITE_COMMAND, address, const_cast<void *>(data), bytes);
}

void controller_top::nvram_read(uint64_t address, void *data, unsigned bytes) {
    nvram_access(tlm::TLM_READ_COMMAND, address, data, bytes);
}

void controller_top::nvram_access(tlm::tlm_command command, uint64_t address, void *data, unsigned bytes) {
    tlm::tlm_generic_payload gp;
    gp.set_command(command);
    gp.set_address(address);
    gp.set_data_ptr(reinterpret_cast<unsigned char *>(data));
    gp.set_data_length(bytes);
    gp.set_streaming_width(bytes);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    m_to_nvram->b_transport(gp, delay);
    check_power();
}

bool controller_top::nvram_peek(uint64_t address, void *data, unsigned bytes) const {
    auto &socket = const_cast<tlm_utils::simple_initiator_socket<controller_top> &>(m_to_nvram);
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(address);
    gp.set_data_ptr(reinterpret_cast<unsigned char *>(data));
    gp.set_data_length(bytes);
    return socket->transport_dbg(gp) == bytes;
}

std::vector<intent_record> controller_top::intent_log() const {
    std::vector<intent_record> out;
    for (const auto &[addr, r] : write_intent_log::read(*this)) out.push_back(r);
    return out;
}

// ---- services: the SCSI channels ----------------------------------------------------------------

drive_completion controller_top::drive_command(const drive_request &request) {
    const int d = request.disk;
    if (m_drive_gone[size_t(d)] || (m_members.state(d) == member_state::failed && !request.member_metadata)) {
        // The drive is gone: no selection, no data. Failed at once, not after a selection
        // timeout (SCSI-2's recommended 250 ms), which a firmware that knows the member is lost
        // never waits for.
        ++m_stats.commands_to_failed;
        drive_completion gone;
        gone.delivered_ms = gone.status_ms = gone.observed_ms = now_ms();
        return gone;
    }
    const int channel = m_channel[size_t(d)];
    const uint64_t losses_at_start = m_members.losses(d);
    tlm::tlm_generic_payload *gp = m_pool.acquire();
    gp->set_command(request.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    gp->set_address(request.lbn * protocol::sector_bytes);
    // A write's data as they cross the bus: taken from the buffer when the command goes out, so a
    // power loss while the drive still works on it (the buffer DRAM's contents lost) leaves each
    // sector old or new on the drive, never the lost buffer's contents.
    std::vector<uint64_t> data_out;
    if (request.buffer && !request.buffer->tokens.empty()) {
        uint64_t *data = request.buffer->tokens.data() + request.first_sector;
        if (request.write) {
            data_out.assign(data, data + request.sectors);
            data = data_out.data();
        }
        gp->set_data_ptr(reinterpret_cast<unsigned char *>(data));
        gp->set_data_length(request.sectors * protocol::token_bytes);
        gp->set_streaming_width(request.sectors * protocol::token_bytes);
    }
    auto *cmd = gp->get_extension<protocol::scsi_command>();
    cmd->lbn = request.lbn;
    cmd->blocks = request.sectors;
    cmd->read_rotate_write = request.old_tokens != nullptr;
    cmd->old_tokens = request.old_tokens;
    cmd->relocate_lbn = request.old_tokens && request.relocate_lbn >= 0 ? request.relocate_lbn : -1;
    cmd->target_id = m_target[size_t(d)];
    cmd->force_unit_access = !request.write && request.force_unit_access;
    cmd->delivered_at = cmd->status_at = sc_core::SC_ZERO_TIME;
    cmd->host_request = serving_request();
    ++m_stats.physical_commands;

    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    m_to_channel[size_t(channel)]->b_transport(*gp, delay);  // selection, data phases with the DMA, status
    protocol::wait_annotated(delay);
    check_power();
    // The completion interrupt: the CPU takes the status (on the instruction-set simulator the
    // firmware's own completion handling runs instead).
    if (m_config.cpu.model == rtl_models::cpu_model::cost_table)
        cpu_run_priced(rtl_models::cpu_task::completion_interrupt, channel);  // checks the power

    drive_completion done;
    // The member was lost while the command was out: the drive that had it is gone (pulled, dead),
    // so its status never reaches the controller, nor do data it read (the drive model carries on
    // regardless, and a fresh drive may already sit in the slot with other contents).
    const bool lost_in_flight = m_members.losses(d) != losses_at_start;
    if (lost_in_flight) ++m_stats.commands_lost_in_flight;
    done.ok = gp->is_response_ok() && !lost_in_flight;
    done.medium_error = cmd->medium_error && !lost_in_flight;
    if (done.medium_error) ++m_stats.medium_errors;
    cmd->medium_error = false;
    done.delivered_ms = cmd->delivered_at.to_seconds() * 1e3;
    done.status_ms = cmd->status_at.to_seconds() * 1e3;
    done.observed_ms = now_ms();
    const protocol::access_timing &tm = cmd->timing;
    // The prediction probe (measurement, not firmware): predicted vs the drive's seek + rotation.
    if (!std::isnan(request.predicted_access_ms) && done.ok && !tm.write_back && tm.media_accessed)
        m_stats.prediction.add(request.predicted_access_ms, (tm.seek + tm.rotation).to_seconds() * 1e3,
                               request.predicted_period_ms);
    cmd->read_rotate_write = false;
    cmd->old_tokens = nullptr;
    cmd->relocate_lbn = -1;
    cmd->force_unit_access = false;
    gp->release();
    return done;
}

bool controller_top::install_untimed(int d, uint64_t lbn, const uint64_t *tokens, uint32_t sectors) {
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(lbn * protocol::sector_bytes);
    gp.set_data_ptr(reinterpret_cast<unsigned char *>(const_cast<uint64_t *>(tokens)));
    gp.set_data_length(unsigned(sectors * protocol::token_bytes));
    gp.set_streaming_width(unsigned(sectors * protocol::token_bytes));
    return disk[size_t(d)]->transport_dbg(gp) == sectors * protocol::token_bytes;
}

void controller_top::peek_untimed(int d, uint64_t lbn, uint32_t sectors, uint64_t *tokens) {
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(lbn * protocol::sector_bytes);
    gp.set_data_ptr(reinterpret_cast<unsigned char *>(tokens));
    gp.set_data_length(sectors * protocol::token_bytes);
    gp.set_streaming_width(sectors * protocol::token_bytes);
    disk[size_t(d)]->transport_dbg(gp);
}

}  // namespace raidtlm::controller
