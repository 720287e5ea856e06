// A user's firmware, built outside raidtlm's tree against the installed package: RAID 5 behind a
// write-back cache in the controller's buffer DRAM.
//
//   write: CPU host_command, a buffer, the host DMA in -> the data join the cache -> acknowledged
//          (the buffer stays with the cache; the host waits only while the cache is full)
//   read:  under the locks of the stripes it touches, held until its data have gone to the host:
//          every sector cached -> copied from the cache by the XOR engine (used as a copy
//          engine); else read from the disks and the cached (newer) sectors laid over them -> the
//          host DMA out
//   destager thread: the oldest cached write, stripe by stripe under the stripe's lock, as a
//          read-modify-write (old data and old parity read, parity ^= old ^ new on the XOR engine,
//          data and parity written) or, for a whole stripe, parity from the new data alone
//
// It assumes a battery-backed buffer DRAM (the cache survives a power loss as real controllers'
// BBU caches do); the model's buffer DRAM does not, so this firmware does not claim to recover
// from a power loss (restart_after_power_loss drops the cache and says so).
//
// Everything it does goes through raidtlm's firmware API (controller/firmware_api/firmware_api.h) and the
// in-tree firmware pieces (controller/kit/firmware_kit.h): the per-disk queues order each disk's
// commands with controller.scheduler, which may be this example's own aged_sstf.
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "config/plugin_keys.h"
#include "controller/kit/firmware_kit.h"
#include "controller/layouts/parity_layout.h"
#include "controller/kit/parity_write_plan.h"
#include "controller/firmware_api/plugins.h"

#include "write_back_cache.h"

namespace write_back_raid5 {

namespace rc = raidtlm::controller;
namespace rp = raidtlm::protocol;

// Its scenario keys: controller.write_back_raid5.*
struct cache_config {
    uint64_t max_dirty_sectors = 8192;  // 4 MiB of dirty data: a documented default, not a datasheet's
    int destagers = 4;                  // destages in flight at once: a documented default
};

const bool keys_registered = raidtlm::config::register_plugin_keys<cache_config>(
    "controller.write_back_raid5", "firmware write_back_raid5", [](raidtlm::config::declarations<cache_config> &k) {
        k.integer("max_dirty_sectors", &cache_config::max_dirty_sectors, "8192", 1, 1u << 30)
            .note("dirty sectors the cache holds before host writes wait for the destager");
        k.integer("destagers", &cache_config::destagers, "4", 1, 256).note("cached writes destaged at once");
    });

class write_back_raid5_firmware final : public rc::kit_firmware {
public:
    explicit write_back_raid5_firmware(rc::firmware_platform &p)
        : kit_firmware(p),
          m_platform(p),
          m_cfg(p.config().plugins.get<cache_config>("controller.write_back_raid5")) {
        m_layout = rc::make_array_layout(p);
        m_parity = dynamic_cast<const rc::parity_layout *>(m_layout.get());
        if (!m_parity) throw std::invalid_argument("write_back_raid5 needs a RAID 5 layout");
        const uint64_t dram = p.config().dram.capacity_bytes;
        // The destager needs buffers of its own while the cache holds its dirty data.
        if (dram != 0 && m_cfg.max_dirty_sectors * rp::sector_bytes > dram / 2)
            throw std::invalid_argument(fmt::format(
                "controller.write_back_raid5.max_dirty_sectors ({}) holds more than half the buffer DRAM ({} bytes)",
                m_cfg.max_dirty_sectors, dram));
        for (int i = 0; i < m_cfg.destagers; ++i) p.spawn(fmt::format("destager{}", i), [this] { destager(); });
    }

    uint64_t capacity_sectors() const override { return uint64_t(m_layout->capacity_sectors()); }
    const rc::layout *array_layout() const override { return m_layout.get(); }

    bool serve(const rc::host_command &cmd) override { return cmd.write ? write(cmd) : read(cmd); }

    size_t restart_after_power_loss() override {
        m_kit.restart();
        m_cache = write_back_cache{};  // a DRAM cache without a battery is gone
        return 0;
    }
    void reset_statistics() override {
        m_kit.reset_statistics();
        m_stats = statistics{};
    }
    void report(nlohmann::json &out) const override {
        m_kit.report(out);
        out["layout"] = m_layout->describe();
        out["write_back_cache"] = {{"read_hits", m_stats.read_hits},
                                   {"partial_read_hits", m_stats.partial_read_hits},
                                   {"read_misses", m_stats.read_misses},
                                   {"writes_waited_for_space", m_stats.writes_waited},
                                   {"destaged_writes", m_stats.destaged},
                                   {"destaged_full_stripes", m_stats.full_stripes},
                                   {"destaged_read_modify_writes", m_stats.read_modify_writes},
                                   {"coalesced_writes", m_cache.coalesced_writes()},
                                   {"superseded_sectors", m_cache.superseded_sectors()},
                                   {"dirty_sectors_now", m_cache.dirty_sectors()},
                                   {"peak_dirty_sectors", m_stats.peak_dirty}};
    }
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix) override {
        sc_core::sc_trace(tf, m_dirty_traced, prefix + ".dirty_sectors");
    }

private:
    struct statistics {
        uint64_t read_hits = 0, partial_read_hits = 0, read_misses = 0, writes_waited = 0;
        uint64_t destaged = 0, full_stripes = 0, read_modify_writes = 0, peak_dirty = 0;
    };

    bool write(const rc::host_command &cmd) {
        // Room for the data is reserved before the host DMA, which takes time others may use.
        if (!has_room(cmd.sectors)) ++m_stats.writes_waited;
        while (!has_room(cmd.sectors)) sc_core::wait(m_space);
        m_reserved_sectors += cmd.sectors;
        const rc::firmware_kit::host_request r = m_kit.begin(cmd);
        m_kit.finish(cmd, r);
        // The data join the cache last, with no wait before the acknowledgement, so overlapping
        // writes are acknowledged in the order the cache holds them. Under the stripes' locks: a
        // read still using an older copy finishes before that copy is freed.
        lock_range(cmd.lbn, cmd.sectors);
        std::vector<void *> to_free;
        m_cache.insert(cmd.lbn, cmd.sectors, r.buffer, to_free);
        for (void *b : to_free) m_platform.free_buffer(static_cast<rp::buffer_block *>(b));
        m_reserved_sectors -= cmd.sectors;
        unlock_range(cmd.lbn, cmd.sectors);
        note_dirty();
        m_work.notify(sc_core::SC_ZERO_TIME);
        return true;
    }

    bool read(const rc::host_command &cmd) {
        const rc::firmware_kit::host_request r = m_kit.begin(cmd);
        lock_range(cmd.lbn, cmd.sectors);
        uint32_t cached = 0;
        for (uint64_t s = cmd.lbn; s < cmd.lbn + cmd.sectors; ++s) cached += m_cache.find(s) ? 1 : 0;
        bool ok = true;
        if (cached < cmd.sectors) {
            std::vector<raidtlm::controller::disk_fragment> pieces;
            m_kit.fragments_of(*m_layout, false, cmd.lbn, cmd.sectors, pieces);
            ok = !pieces.empty() && m_kit.run_fragments(false, pieces, r.buffer);
        }
        if (ok && cached > 0) copy_cached(cmd, r.buffer);
        (cached == cmd.sectors ? m_stats.read_hits : cached > 0 ? m_stats.partial_read_hits : m_stats.read_misses)++;
        // The stripes stay pinned until the data have gone to the host: a write acknowledged
        // meanwhile would make this read's (older) data look stale to the host.
        m_kit.return_data(cmd, r, ok);
        m_kit.finish(cmd, r);
        unlock_range(cmd.lbn, cmd.sectors);
        m_platform.free_buffer(r.buffer);
        return ok;
    }

    bool has_room(uint32_t sectors) const {
        return m_cache.dirty_sectors() + m_reserved_sectors + sectors <= m_cfg.max_dirty_sectors;
    }

    // Every stripe of a logical range, locked in ascending order (so two ranges never deadlock).
    void lock_range(uint64_t lbn, uint32_t sectors) {
        for (int64_t s = m_parity->stripe_of(int64_t(lbn)); s <= m_parity->stripe_of(int64_t(lbn + sectors - 1)); ++s)
            m_kit.locks.lock(s);
    }
    void unlock_range(uint64_t lbn, uint32_t sectors) {
        for (int64_t s = m_parity->stripe_of(int64_t(lbn)); s <= m_parity->stripe_of(int64_t(lbn + sectors - 1)); ++s)
            m_kit.locks.unlock(s);
    }

    // The cached sectors of the command, run by run, from the cache into its buffer.
    void copy_cached(const rc::host_command &cmd, rp::buffer_block *into) {
        uint64_t s = cmd.lbn;
        const uint64_t end = cmd.lbn + cmd.sectors;
        while (s < end) {
            const auto at = m_cache.find(s);
            if (!at) {
                ++s;
                continue;
            }
            uint32_t n = 1;
            while (s + n < end) {
                const auto next = m_cache.find(s + n);
                if (!next || next->holder != at->holder) break;
                ++n;
            }
            auto *from = static_cast<rp::buffer_block *>(at->holder->buffer);
            m_kit.xor_blocks({{from, at->offset}}, {into, s - cmd.lbn}, n, cmd.affinity);
            s += n;
        }
    }

    void destager() {
        for (;;) {
            const write_back_cache::entry *e = m_cache.start_destage();
            if (!e) {
                sc_core::wait(m_work);
                continue;
            }
            const uint64_t id = e->id, lbn = e->lbn;
            const uint32_t sectors = e->sectors;
            auto *buffer = static_cast<rp::buffer_block *>(e->buffer);
            std::vector<rc::stripe_write_plan> plans;
            // Never reconstruct-write: the cache has only the new data (a documented choice).
            rc::plan_parity_write(*m_parity, int64_t(lbn), int32_t(sectors), {2.0, false}, plans);
            m_kit.parallel(plans.size(), [&](size_t i) { return destage_stripe(plans[i], lbn, buffer); });
            // Under the entry's stripe locks: no read is copying from its buffer.
            lock_range(lbn, sectors);
            m_platform.free_buffer(static_cast<rp::buffer_block *>(m_cache.finish_destage(id)));
            unlock_range(lbn, sectors);
            ++m_stats.destaged;
            note_dirty();
            m_space.notify(sc_core::SC_ZERO_TIME);
            m_work.notify(sc_core::SC_ZERO_TIME);  // an entry that waited for this one may go now
        }
    }

    // Sector offset in the cached write's buffer of a data op's first sector.
    uint64_t buffer_offset(const rc::stripe_write_plan &plan, const rc::disk_op &op, uint64_t entry_lbn) const {
        const int j = m_parity->data_unit_on_disk(plan.stripe, op.disk);
        const int64_t in_unit = op.drive_lbn - plan.stripe * m_parity->unit_sectors();
        return uint64_t(m_parity->logical_lbn(plan.stripe, j, in_unit)) - entry_lbn;
    }

    bool destage_stripe(const rc::stripe_write_plan &plan, uint64_t entry_lbn, rp::buffer_block *data) {
        m_kit.locks.lock(plan.stripe);
        const rc::disk_op &parity = plan.parity_write();
        const uint64_t rows = uint64_t(parity.sectors);
        const bool tokens = !data->tokens.empty();
        rp::buffer_block *parity_buf = m_platform.allocate_buffer(rows * rp::sector_bytes, tokens ? rows : 0);
        bool ok = true;
        if (plan.path == rc::write_path::full_stripe) {
            std::vector<rp::buffer_ref> units;
            for (const rc::disk_op &op : plan.ops)
                if (!op.parity) units.push_back({data, buffer_offset(plan, op, entry_lbn)});
            m_kit.xor_blocks(units, {parity_buf, 0}, rows, 0);
            ++m_stats.full_stripes;
        } else {
            // old data -> one zeroed slot per data disk at its rows; slot ^= new data; parity ^= slots.
            std::vector<const rc::disk_op *> reads;
            for (const rc::disk_op &op : plan.ops)
                if (op.kind == rc::disk_op_kind::read && !op.parity) reads.push_back(&op);
            std::vector<rp::buffer_block *> slots;
            for (size_t i = 0; i < reads.size(); ++i)
                slots.push_back(m_platform.allocate_buffer(rows * rp::sector_bytes, tokens ? rows : 0));
            ok = m_kit.parallel(reads.size() + 1, [&](size_t i) {
                if (i == reads.size()) return m_kit.disk_io(false, parity.disk, uint64_t(parity.drive_lbn), uint32_t(rows),
                                                            parity_buf, 0);
                const rc::disk_op &op = *reads[i];
                return m_kit.disk_io(false, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), slots[i],
                                     uint64_t(op.drive_lbn - parity.drive_lbn));
            });
            std::vector<rp::buffer_ref> inputs{{parity_buf, 0}};
            for (size_t i = 0; i < reads.size() && ok; ++i) {
                const rc::disk_op &op = *reads[i];
                const rp::buffer_ref slot{slots[i], uint64_t(op.drive_lbn - parity.drive_lbn)};
                m_kit.xor_blocks({slot, {data, buffer_offset(plan, op, entry_lbn)}}, slot, uint64_t(op.sectors), 0);
                inputs.push_back({slots[i], 0});
            }
            if (ok) m_kit.xor_blocks(inputs, {parity_buf, 0}, rows, 0);
            for (rp::buffer_block *s : slots) m_platform.free_buffer(s);
            ++m_stats.read_modify_writes;
        }
        if (ok) {
            std::vector<const rc::disk_op *> writes;
            for (const rc::disk_op &op : plan.ops)
                if (op.kind == rc::disk_op_kind::write) writes.push_back(&op);
            ok = m_kit.parallel(writes.size(), [&](size_t i) {
                const rc::disk_op &op = *writes[i];
                if (op.parity)
                    return m_kit.disk_io(true, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), parity_buf, 0);
                return m_kit.disk_io(true, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), data,
                                     buffer_offset(plan, op, entry_lbn));
            });
        }
        m_platform.free_buffer(parity_buf);
        m_kit.locks.unlock(plan.stripe);
        return ok;
    }

    void note_dirty() {
        m_dirty_traced = int(m_cache.dirty_sectors());
        m_stats.peak_dirty = std::max<uint64_t>(m_stats.peak_dirty, m_cache.dirty_sectors());
    }

    rc::firmware_platform &m_platform;
    cache_config m_cfg;
    std::unique_ptr<rc::layout> m_layout;
    const rc::parity_layout *m_parity = nullptr;
    write_back_cache m_cache;
    uint64_t m_reserved_sectors = 0;  // writes admitted, their data not yet in the cache
    statistics m_stats;
    sc_core::sc_event m_work;   // a write joined the cache
    sc_core::sc_event m_space;  // the destager freed cache space
    int m_dirty_traced = 0;
};

// The registration: a new firmware family serving the raid5 layout.
const raidtlm::controller::registration<raidtlm::controller::firmware_factory> registered{
    "write_back_raid5",
    {"RAID 5 behind a write-back cache in buffer DRAM (examples/write_back_raid5)",
     {"raid5"},
     [](raidtlm::controller::firmware_platform &p) { return std::make_unique<write_back_raid5_firmware>(p); }}};

}  // namespace write_back_raid5
