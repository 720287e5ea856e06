// Generic payloads that each carry an extension of type Ext (created with the payload, owned by
// it), reused: no allocation per transaction once grown to the peak in flight. The platform's
// initiator sockets take their payloads from these.
#pragma once

#include <memory>
#include <vector>

#include <tlm>

namespace raidtlm::controller {

template <class Ext>
class extended_payloads {
public:
    tlm::tlm_generic_payload &get() {
        if (m_idle.empty()) {
            m_all.push_back(std::make_unique<tlm::tlm_generic_payload>());
            m_all.back()->set_extension(new Ext);
            m_all.back()->set_command(tlm::TLM_IGNORE_COMMAND);
            return *m_all.back();
        }
        tlm::tlm_generic_payload *gp = m_idle.back();
        m_idle.pop_back();
        return *gp;
    }
    void put(tlm::tlm_generic_payload &gp) { m_idle.push_back(&gp); }
    static Ext &extension(tlm::tlm_generic_payload &gp) { return *gp.get_extension<Ext>(); }

private:
    std::vector<std::unique_ptr<tlm::tlm_generic_payload>> m_all;
    std::vector<tlm::tlm_generic_payload *> m_idle;
};

}  // namespace raidtlm::controller
