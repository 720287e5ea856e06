// DMA requests between controller blocks, as TLM-2.0 generic-payload extensions.
//
// dma_command rides on a generic payload sent to the buffer DRAM (directly on one of its port
// sockets, or through the host link): the payload's command is the direction seen from the buffer
// (TLM_WRITE_COMMAND: data go into the buffer, TLM_READ_COMMAND: data come out of it), `bytes` the
// size that costs time, and `buffer` + `first_sector` where in buffer memory the sectors are. The
// payload's data pointer, when data_length is non-zero, holds the other side's tokens (one 64-bit
// token per sector): the DRAM copies them into or out of the buffer. A data_length of 0 means
// timing only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include <tlm>

namespace raidtlm::protocol {

// A piece of buffer memory (allocated from the buffer DRAM) and the tokens it holds.
struct buffer_block {
    uint64_t bytes = 0;
    std::vector<uint64_t> tokens;  // one per sector when data are carried; empty for timing only
};

struct dma_command : tlm::tlm_extension<dma_command> {
    uint64_t bytes = 0;
    buffer_block *buffer = nullptr;
    uint64_t first_sector = 0;
    double cap_bytes_per_s = 0;  // the rate the other side can sustain (0: no limit)

    tlm::tlm_extension_base *clone() const override { return new dma_command(*this); }
    void copy_from(const tlm::tlm_extension_base &other) override {
        *this = static_cast<const dma_command &>(other);
    }
};

// Copies a DMA's tokens between the payload and the buffer, as the command's direction says.
inline void move_dma_tokens(tlm::tlm_generic_payload &gp, const dma_command &d) {
    if (gp.get_data_length() == 0 || !d.buffer || d.buffer->tokens.empty()) return;
    if (d.first_sector >= d.buffer->tokens.size()) return;
    const uint64_t n = std::min<uint64_t>(gp.get_data_length() / 8, d.buffer->tokens.size() - d.first_sector);
    uint64_t *b = d.buffer->tokens.data() + d.first_sector;
    if (gp.is_write()) std::memcpy(b, gp.get_data_ptr(), n * 8);
    else std::memcpy(gp.get_data_ptr(), b, n * 8);
}

}  // namespace raidtlm::protocol

namespace raidtlm::protocol {

// Where some sectors sit in buffer memory.
struct buffer_ref {
    buffer_block *block = nullptr;
    uint64_t first_sector = 0;
};

// An XOR engine command (on a generic payload sent to the XOR engine): output = XOR of the inputs,
// sector by sector, over `sectors` sectors. With `coefficients` (one per input) the engine's GF(2^8)
// multiply-accumulate mode: output = sum of coefficient x input (rtl_models/xor/gf256.h), RAID 6's Q
// and two-erasure recovery. The payload's command and data fields are unused.
struct xor_command : tlm::tlm_extension<xor_command> {
    std::vector<buffer_ref> inputs;
    buffer_ref output;
    uint64_t sectors = 0;
    std::vector<uint8_t> coefficients;  // empty: plain XOR (the P mode)

    tlm::tlm_extension_base *clone() const override { return new xor_command(*this); }
    void copy_from(const tlm::tlm_extension_base &other) override {
        *this = static_cast<const xor_command &>(other);
    }
};

}  // namespace raidtlm::protocol
