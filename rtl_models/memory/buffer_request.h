// Buffer space of the buffer DRAM, as a TLM-2.0 generic-payload extension on a transaction to
// buffer_dram::space (command TLM_IGNORE_COMMAND, no data). `allocate`: `bytes` of buffer space
// with `token_sectors` tokens (0 for timing only); b_transport blocks while the DRAM is full (FIFO
// behind earlier requests) and answers the block in `block`. `free`: gives `block` back (never
// waits; waiting requests that now fit are granted).
#pragma once

#include <cstdint>

#include <tlm>

#include "tlm/dma_command.h"

namespace raidtlm::rtl_models {

struct buffer_request : tlm::tlm_extension<buffer_request> {
    enum class action { allocate, free };
    action what = action::allocate;
    uint64_t bytes = 0;
    uint64_t token_sectors = 0;
    protocol::buffer_block *block = nullptr;  // allocate: the answer; free: the block given back

    tlm::tlm_extension_base *clone() const override { return new buffer_request(*this); }
    void copy_from(const tlm::tlm_extension_base &other) override {
        *this = static_cast<const buffer_request &>(other);
    }
};

}  // namespace raidtlm::rtl_models
