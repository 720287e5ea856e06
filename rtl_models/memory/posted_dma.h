// A DMA posted ahead of time, as a TLM-2.0 generic-payload extension beside protocol::dma_command
// on a transaction to a buffer DRAM port: the transfer starts at the annotated time (now + delay)
// and b_transport returns at once, without waiting for it; `tracker` counts it until it is done.
// A SCSI channel's DMA follows a data phase the drive planned, possibly ahead of now, so it posts
// its transfers this way and waits for the tracker when the command's status is in.
#pragma once

#include <tlm>
#include <systemc>

namespace raidtlm::rtl_models {

// DMAs posted ahead of time: pending counts those not yet done.
struct dma_tracker {
    int pending = 0;
    sc_core::sc_event done;
    void wait_all() {
        while (pending > 0) sc_core::wait(done);
    }
};

struct posted_dma : tlm::tlm_extension<posted_dma> {
    dma_tracker *tracker = nullptr;  // nullptr: an ordinary, blocking transfer

    tlm::tlm_extension_base *clone() const override { return new posted_dma(*this); }
    void copy_from(const tlm::tlm_extension_base &other) override { *this = static_cast<const posted_dma &>(other); }
};

}  // namespace raidtlm::rtl_models
