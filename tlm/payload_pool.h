// A memory manager for generic payloads that carry a protocol::scsi_command: payloads are
// recycled through a free list (no new/delete per request once the pool has grown to the peak
// number in flight). Usage, as in the Accellera TLM examples:
//   tlm::tlm_generic_payload *gp = pool.acquire();   // reference count 1, extension attached
//   ... socket->b_transport(*gp, delay) ...
//   gp->release();                                    // back to the pool
#pragma once

#include <memory>
#include <vector>

#include <tlm>

#include "tlm/scsi_command.h"

namespace raidtlm::protocol {

class payload_pool final : public tlm::tlm_mm_interface {
public:
    payload_pool() = default;
    payload_pool(const payload_pool &) = delete;
    payload_pool &operator=(const payload_pool &) = delete;

    // A payload in its initial state (read, address 0, no data, incomplete response) with a
    // zeroed scsi_command extension, already acquired once.
    tlm::tlm_generic_payload *acquire() {
        tlm::tlm_generic_payload *gp;
        if (m_free.empty()) {
            m_all.push_back(std::make_unique<tlm::tlm_generic_payload>(this));
            gp = m_all.back().get();
            gp->set_extension(new protocol::scsi_command);
        } else {
            gp = m_free.back();
            m_free.pop_back();
        }
        gp->set_command(tlm::TLM_READ_COMMAND);
        gp->set_address(0);
        gp->set_data_ptr(nullptr);
        gp->set_data_length(0);
        gp->set_streaming_width(0);
        gp->set_byte_enable_ptr(nullptr);
        gp->set_byte_enable_length(0);
        gp->set_dmi_allowed(false);
        gp->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        if (auto *cmd = gp->get_extension<protocol::scsi_command>())
            *cmd = protocol::scsi_command{};
        else
            gp->set_extension(new protocol::scsi_command);
        gp->acquire();
        return gp;
    }

    // Called by tlm_generic_payload::release() when the reference count drops to zero.
    void free(tlm::tlm_generic_payload *gp) override { m_free.push_back(gp); }

    size_t allocated() const { return m_all.size(); }
    size_t in_use() const { return m_all.size() - m_free.size(); }

private:
    std::vector<std::unique_ptr<tlm::tlm_generic_payload>> m_all;  // owns payloads and extensions
    std::vector<tlm::tlm_generic_payload *> m_free;
};

}  // namespace raidtlm::protocol
