// The pieces every firmware family in this tree is built from, on the firmware API: the per-disk
// queues (disk_queues.h), stripe locks, write-intent records, the steps every host command
// takes (CPU, buffer, intent record, host DMA, request table) and one drive command on a tag
// (disk_io). A family owns one kit; nothing here chooses between families.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "controller/firmware_api/controller_config.h"
#include "controller/kit/queues/disk_queues.h"
#include "controller/firmware_api/firmware_api.h"
#include "controller/kit/host_address_map.h"
#include "controller/kit/identity/member_metadata.h"
#include "controller/kit/host_pieces.h"
#include "controller/kit/stripe_locks.h"
#include "controller/kit/write_intent_log.h"

namespace raidtlm::controller {

class firmware_kit {
public:
    explicit firmware_kit(firmware_platform &platform);

    firmware_platform &platform;
    disk_queues queues;
    stripe_locks locks;
    write_intent_log intents;
    // Where a drive LBN of the array's map lies on the drive now (floating data); unset: as is.
    std::function<uint64_t(int disk, uint64_t lbn, uint32_t sectors)> translate_lbn;
    // Called once the drive command sent to a translated LBN (translate_lbn's answer) is done.
    std::function<void(int disk, uint64_t translated_lbn)> translation_done;

    // A host command's first steps: the CPU's host_command task, its buffer (waits while the
    // DRAM is full), and for a write its intent record and the host DMA into the buffer.
    struct host_request {
        protocol::buffer_block *buffer = nullptr;
        int64_t intent = -1;
    };
    host_request begin(const host_command &cmd);
    // After the drives: a successful read's data DMA'd to the host.
    void return_data(const host_command &cmd, const host_request &r, bool ok);
    // The last steps: the intent record cleared, the request table updated (the buffer is the
    // family's to free or keep).
    void finish(const host_command &cmd, const host_request &r);

    // ---- a host command moved in bounded pieces (host_pieces.h)
    // From the family's constructor: its preferred piece boundary (a full stripe's data; 0: none),
    // its stripe unit and the largest work buffer one stripe's I/O allocates. Throws
    // host_piece_error naming the keys when the buffer DRAM cannot hold a piece beside it.
    void plan_host_pieces(uint64_t alignment_sectors, uint64_t unit_sectors, uint64_t work_bytes);
    uint64_t host_piece_sectors() const { return m_piece_limits.piece_sectors; }
    // One piece's work: its range (a host_command of its own, whose data lie at
    // host_offset_sectors in the host's transfer) and its buffer, holding the data of a write.
    using piece_server = std::function<bool(const host_command &piece, protocol::buffer_block *buffer)>;
    // A piece the host path is done with: its buffer freed (or kept by the family, which then
    // frees it with free_host_buffer).
    using piece_release = std::function<void(const host_command &piece, protocol::buffer_block *buffer)>;
    // begin, the drives' work and return_data, piece by piece in address order: the CPU's
    // host_command once; per piece its buffer (within the host staging budget, then the DRAM),
    // for a write its intent record and the host DMA into it, `serve`, for a read that succeeded
    // the DMA to the host. Stops at the first piece that fails (*ok false). A command of several
    // pieces has each piece's intent cleared and `release` called (default: the buffer freed)
    // here, so it holds no buffer afterwards, while the family waits on its fences (which could
    // otherwise wait for a request that needs that DRAM for its next piece). A command of one
    // piece returns it, as begin did: the family's finish clears its intent, and it frees the
    // buffer (free_host_buffer) or keeps it; of several, the request returned is empty.
    host_request serve_pieces(const host_command &cmd, const piece_server &serve, bool *ok,
                              const piece_release &release = {});
    // Whether the command is served as one piece.
    bool one_piece(const host_command &cmd) const {
        return m_piece_limits.piece_sectors == 0 || cmd.sectors <= m_piece_limits.piece_sectors;
    }
    // A host buffer freed, and its bytes back in the staging budget (nullptr: nothing).
    void free_host_buffer(protocol::buffer_block *buffer);
    // The host bytes held now (tests: 0 once every request has completed).
    uint64_t host_bytes_held() const { return m_staging.held_bytes(); }

    // The CPU's dma_setup and the host DMA.
    void host_dma(const host_command &cmd, protocol::buffer_block *buffer, int affinity, uint64_t first_sector = 0);
    // The CPU's table_update task and its request-table write to the DRAM.
    void table_update(int affinity);
    // The CPU's xor_setup and the XOR engine's work.
    void xor_blocks(const std::vector<protocol::buffer_ref> &inputs, const protocol::buffer_ref &output,
                    uint64_t sectors, int affinity);
    // The same in the engine's GF multiply-accumulate mode; all coefficients 0 or 1: an XOR
    // command (the cheaper mode), inputs with coefficient 0 left out.
    void gf_blocks(const std::vector<protocol::buffer_ref> &inputs, const std::vector<uint8_t> &coefficients,
                   const protocol::buffer_ref &output, uint64_t sectors, int affinity);
    bool parallel(size_t n, const std::function<bool(size_t)> &job) { return platform.parallel(n, job); }

    // One drive command: a tag for the disk, the command, the tag released. `choices` set: any of
    // these placements (the one picked to *chosen). `old_tokens`: a WRITE as one
    // read-rotate-write (previous tokens returned there); relocate_lbn >= 0: its write goes there.
    // `raw`: `lbn` is a drive LBN as it is (not translated).
    bool disk_io(bool write, int disk, uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer,
                 uint64_t first_sector, std::vector<uint64_t> *old_tokens = nullptr,
                 const std::vector<placement> *choices = nullptr, size_t *chosen = nullptr, int64_t relocate_lbn = -1,
                 bool raw = false);
    // The command on a tag already granted (`n`: entries its decision examined).
    bool drive_command(bool write, int disk, uint64_t n, uint64_t lbn, uint32_t sectors,
                       protocol::buffer_block *buffer, uint64_t first_sector, std::vector<uint64_t> *old_tokens = nullptr,
                       int64_t relocate_lbn = -1);

    // Layouts without parity: a host range -> drive commands (reads: the first live replica;
    // writes: every live replica). Empty when every copy of a piece is lost.
    void fragments_of(const layout &l, bool write, uint64_t lbn, uint32_t sectors,
                      std::vector<disk_fragment> &out) const;
    bool run_fragments(bool write, const std::vector<disk_fragment> &pieces, protocol::buffer_block *buffer);

    bool maintenance_io(bool read, int disk, uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer);
    // After a power loss: queues and locks empty.
    void restart();
    // controller.firmware: tag_wait, and with a predictor the prediction figures it owns.
    void report(nlohmann::json &out) const;
    void reset_statistics() { queues.reset_statistics(); }

private:
    protocol::buffer_block *allocate_host_buffer(const host_command &piece);
    host_piece_limits m_piece_limits;
    host_staging m_staging;
};

// stats.json's firmware.lost_sectors, lost_range_count, lost_ranges ([first logical sector,
// sectors] pairs, sorted and merged, the first lost_range_report::max_listed) and
// lost_ranges_left_out: what faults beyond the layout's redundancy destroyed.
void report_lost_ranges(const std::vector<std::pair<int64_t, int32_t>> &ranges, nlohmann::json &out);

// A firmware family built on a kit of these pieces: the kit, and maintenance access through it.
class kit_firmware : public firmware {
public:
    explicit kit_firmware(firmware_platform &platform) : m_kit(platform), m_identity(platform, m_kit) {}
    // Member identity on the drives (member_metadata.h); a family whose layout uses the drives'
    // last sectors turns it off (keeps_member_identity false).
    void create_members_before_run() override {
        if (keeps_member_identity()) m_identity.create_before_run();
    }
    void members_changed() override {
        if (keeps_member_identity()) m_identity.record_change();
    }
    std::vector<member_verdict> check_members() override {
        return keeps_member_identity() ? m_identity.check() : std::vector<member_verdict>{};
    }
    void report_member_identity(nlohmann::json &out) const override {
        if (m_identity.statistics().updates + m_identity.statistics().checks > 0) m_identity.report(out["member_identity"]);
    }
    virtual bool keeps_member_identity() const {
        return layout_keeps_member_identity(m_kit.platform.config().firmware.array);
    }
    const member_metadata &identity() const { return m_identity; }
    bool maintenance_io(bool read, int disk, uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer) override {
        return m_kit.maintenance_io(read, disk, lbn, sectors, buffer);
    }
    const firmware_kit &kit() const { return m_kit; }
    void trace_queues(sc_core::sc_trace_file *tf, const std::string &prefix) override { m_kit.queues.trace(tf, prefix); }

protected:
    firmware_kit m_kit;
    member_metadata m_identity;
};

}  // namespace raidtlm::controller
