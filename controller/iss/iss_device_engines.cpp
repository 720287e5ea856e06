// iss_device (iss_device.h): the engines behind the firmware's submission queues: completions
// posted to the completion queues (held back while a queue is full), the doorbells, and each
// descriptor started (buffer allocation, host DMA and completion, XOR, SCSI commands), with the
// firmware errors a malformed descriptor raises.
#include "controller/iss/iss_device.h"

#include <fmt/format.h>

#include "controller/firmware_api/controller_config.h"
#include "tlm/scsi_command.h"

namespace raidtlm::controller {

void iss_device::post(unsigned q, const completion &c) {
    queue &r = m_queues[q];
    if ((r.cq_tail + 1) % RT_QUEUE_DEPTH == r.cq_head || !r.waiting.empty()) {
        r.waiting.push_back(c);
    } else {
        r.cq[r.cq_tail] = c;
        r.cq_tail = (r.cq_tail + 1) % RT_QUEUE_DEPTH;
    }
    update_lines();
}

void iss_device::ring_doorbell(unsigned q, uint32_t tail, const sc_core::sc_time &at) {
    queue &r = m_queues[q];
    r.sq_tail = tail;
    while (r.sq_head != r.sq_tail) {
        const auto d = r.sq[r.sq_head];
        r.sq_head = (r.sq_head + 1) % RT_QUEUE_DEPTH;
        ++m_descriptors[q];
        start(q, d, at);
    }
}

protocol::buffer_block *iss_device::buffer_of(uint32_t handle, const char *what) const {
    if (handle == 0 || handle >= m_buffers.size() || !m_buffers[handle])
        firmware_error(fmt::format("{}: buffer handle {} is not allocated", what, handle));
    return m_buffers[handle];
}

protocol::buffer_ref iss_device::ref_of(uint32_t address, uint32_t sectors, const char *what) const {
    protocol::buffer_block *b = buffer_of(address >> 16, what);
    const uint32_t first = address & 0xFFFFu;
    if (uint64_t(first + sectors) * protocol::sector_bytes > b->bytes)
        firmware_error(fmt::format("{}: sectors [{}, {}) leave buffer {} of {} sectors", what, first, first + sectors,
                                   address >> 16, b->bytes / protocol::sector_bytes));
    return {b, first};
}

void iss_device::start(unsigned q, const std::array<uint32_t, RT_SQ_WORDS> &d, const sc_core::sc_time &at) {
    // The core runs ahead of the kernel by `at`: each engine job starts then (the core's time of
    // the doorbell) without making the core's thread wait for the kernel.
    const uint32_t op = d[0], tag = d[1];
    auto now_us = [] { return uint32_t(uint64_t(sc_core::sc_time_stamp().to_seconds() * 1e6)); };
    if (q == RT_Q_HOST && op == RT_OP_HOST_COMPLETE) {
        if (d[2] >= m_slots.size() || !m_slots[d[2]].cmd)
            firmware_error(fmt::format("host completion for slot {}, which holds no command", d[2]));
        host_slot &slot = m_slots[d[2]];
        slot.ok = d[3] == RT_STATUS_OK;
        slot.done = true;
        slot.finished.notify(at);
        return;
    }
    if (q == RT_Q_BUFFER && op == RT_OP_BUF_ALLOC) {
        const uint32_t sectors = d[2];
        if (sectors == 0 || sectors > 0xFFFF) firmware_error(fmt::format("buffer of {} sectors", sectors));
        uint32_t handle;
        if (!m_free_handles.empty()) {
            handle = m_free_handles.back();
            m_free_handles.pop_back();
        } else {
            handle = uint32_t(m_buffers.size());
            if (handle > 0xFFFF) firmware_error("more than 65535 buffers allocated");
            m_buffers.push_back(nullptr);
        }
        m_platform.run_background([this, q, tag, sectors, handle, now_us, at, epoch = m_platform.power_epoch()] {
            sc_core::wait(at);
            // Waits while the buffer DRAM is full.
            protocol::buffer_block *b = m_platform.allocate_buffer(uint64_t(sectors) * protocol::sector_bytes, sectors);
            if (m_platform.power_epoch() != epoch) return;  // the handle belongs to no one now
            m_buffers[handle] = b;
            m_buffers_peak = std::max(m_buffers_peak, ++m_buffers_live);
            post(q, {tag, RT_STATUS_OK, handle, now_us()});
        });
        return;
    }
    if (q == RT_Q_BUFFER && op == RT_OP_BUF_FREE) {
        m_platform.free_buffer(buffer_of(d[2], "buffer free"));
        m_buffers[d[2]] = nullptr;
        m_free_handles.push_back(d[2]);
        --m_buffers_live;
        return;
    }
    if (q == RT_Q_DMA && op == RT_OP_HOST_DMA) {
        if (d[2] >= m_slots.size() || !m_slots[d[2]].cmd)
            firmware_error(fmt::format("host DMA for slot {}, which holds no command", d[2]));
        const host_command *cmd = m_slots[d[2]].cmd;
        protocol::buffer_block *b = buffer_of(d[3], "host DMA");
        if (b->bytes < cmd->bytes()) firmware_error("host DMA: the buffer is smaller than the host command");
        m_platform.run_background([this, q, tag, cmd, b, now_us, at] {
            sc_core::wait(at);
            m_platform.host_dma(*cmd, b);
            post(q, {tag, RT_STATUS_OK, 0, now_us()});
        });
        return;
    }
    if (q == RT_Q_XOR && op == RT_OP_XOR) {
        const uint32_t sectors = d[2];
        std::vector<protocol::buffer_ref> inputs;
        for (unsigned i = 0; i < RT_MAX_XOR_INPUTS; ++i)
            if (d[4 + i]) inputs.push_back(ref_of(d[4 + i], sectors, "XOR input"));
        if (inputs.empty()) firmware_error("XOR descriptor without inputs");
        const protocol::buffer_ref out = ref_of(d[3], sectors, "XOR output");
        m_platform.run_background([this, q, tag, inputs = std::move(inputs), out, sectors, now_us, at] {
            sc_core::wait(at);
            m_platform.xor_blocks(inputs, out, sectors);
            post(q, {tag, RT_STATUS_OK, 0, now_us()});
        });
        return;
    }
    if (q >= RT_Q_SCSI0 && q < RT_Q_SCSI0 + unsigned(m_platform.config().channels) &&
        (op == RT_OP_SCSI_READ || op == RT_OP_SCSI_WRITE)) {
        drive_request r;
        r.write = op == RT_OP_SCSI_WRITE;
        r.disk = int(d[2]);
        if (r.disk >= m_platform.disk_count()) firmware_error(fmt::format("SCSI command to disk {}", r.disk));
        if (m_platform.channel_of(r.disk) != int(q - RT_Q_SCSI0))
            firmware_error(fmt::format("SCSI command to disk {} on channel {}; it is on channel {}", r.disk,
                                       q - RT_Q_SCSI0, m_platform.channel_of(r.disk)));
        r.lbn = d[3];
        r.sectors = d[4];
        if (r.sectors == 0) firmware_error("SCSI command of 0 sectors");
        const protocol::buffer_ref ref = ref_of(d[5], r.sectors, "SCSI data");
        r.buffer = ref.block;
        r.first_sector = ref.first_sector;
        r.member_metadata = (d[6] & RT_SCSI_METADATA) != 0;
        m_platform.run_background([this, q, tag, r, now_us, at] {
            sc_core::wait(at);
            const drive_completion c = m_platform.drive_command(r);
            // The sense key reaches the firmware: a MEDIUM ERROR is the drive's own unreadable
            // sectors, any other failure a drive that stopped answering.
            post(q, {tag, c.ok ? RT_STATUS_OK : c.medium_error ? RT_STATUS_MEDIUM_ERROR : RT_STATUS_ERROR, 0, now_us()});
        });
        return;
    }
    firmware_error(fmt::format("opcode {} on queue {}", op, q));
}

}  // namespace raidtlm::controller
