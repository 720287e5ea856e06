// A storage brick's firmware (Lumb chapters 4-5): one controller platform with its disk, its
// non-volatile cache and its network interface, serving the reads and writes of its replica
// group that clients send over the network. Registered as three families (plugins.h):
//   dsptf                    reads queued at every replica, CLAIM protocol (claim_arbiter),
//                            prescheduling: the brick's SPTF picks the next read and sends
//                            CLAIM two one-way latencies before its current command is
//                            predicted to end (its own predictor), ranking from where that
//                            command leaves the head; the disk command two latencies after the
//                            pick, once the disk is free (Lumb 4.1.3, Fig 4.3)
//   brick_hashing            a read goes to the replica hash(block) mod replicas, no claims
//   brick_weighted_hashing   the same, cut in proportion to brick_role::replica_weights
//   brick_lard               the group's clients send everything to replica 0, which routes each
//                            read (lard_dispatcher); a replica that serves a routed read tells
//                            replica 0 when it is done (a completion message)
// Writes under every policy: the entry brick forwards to every other replica; each stores the
// data in its NVRAM (timed) and acknowledges; the entry brick answers the client when all
// have. Each replica destages a stored write "by placing a write request in the brick's disk
// queue" (Lumb 4.1.2), where the scheduler serves it with the reads: at most
// brick_role::destage_requests_queued at once, oldest first, once dirty data exceed
// brick_role::destage_above_cache_fraction of the cache (0: at once). A write waits for room
// when the cache is full of dirty data. After its destage a replica keeps the data cached only
// if hash(address) mod replicas is its index (brick_cache).
//
// It sees only what a brick's firmware sees: messages, its own drive's completions and times,
// and its predictor's view of the head (disk_queues with the controller's scheduler: satf).
// A read hit in this brick's cache is answered at once (a forwarded read that hits also sends
// CLAIMs so the others drop it).
//
// Data on the network and to the disks are timing only (no tokens).
// The CLAIM timing is brick_role::protocol (claim_protocol.h): prescheduling (the default),
// latency scheduling, latency scheduling with random backoff, post abort (chapter 7).
// Not modelled: LARD.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include "controller/families/bricks/brick_cache.h"
#include "controller/families/bricks/claim_arbiter.h"
#include "controller/kit/firmware_kit.h"
#include "rtl_models/network/network_interface.h"
#include "controller/families/bricks/lard_dispatcher.h"
#include "controller/families/bricks/request_distribution.h"
#include "rtl_models/common/resource_stats.h"
#include "waveforms/traced_value.h"

namespace raidtlm::controller {

struct brick_statistics {
    uint64_t client_reads = 0, client_writes = 0;  // received from clients (entry brick)
    uint64_t reads_from_disk = 0, read_cache_hits = 0;
    uint64_t writes_stored = 0, destages = 0;
    double destage_busy_s = 0;  // of disk_busy_s: destage writes
    uint64_t lost_claims = 0;  // reads this brick picked and then lost to a better bid
    uint64_t picks_ahead = 0;  // prescheduling: reads picked while the previous command ran
    uint64_t random_backoffs = 0;  // latency_random_backoff: random picks after a duplicate
    double disk_busy_s = 0;    // the brick's own view: command issued to completion seen
    double since_s = 0;
};

class brick_firmware : public kit_firmware {
public:
    brick_firmware(firmware_platform &platform, distribution_policy policy);
    ~brick_firmware() override;

    uint64_t capacity_sectors() const override { return m_capacity; }
    // A brick is a single drive (its replicas are other bricks'): every sector is data, no superblock.
    bool keeps_member_identity() const override { return false; }
    const layout *array_layout() const override { return nullptr; }
    // Bricks serve the network, not a host socket.
    bool serve(const host_command &cmd) override { return false; }
    size_t restart_after_power_loss() override { return 0; }
    void reset_statistics() override;
    void report(nlohmann::json &out) const override;
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix) override;

    const brick_statistics &statistics() const { return m_stats; }
    const claim_arbiter &claims() const { return m_claims; }
    const brick_cache &cache() const { return m_cache; }
    int replica_index() const { return m_role.replica_index; }

private:
    void receive_loop();
    void on_read(const protocol::network_message &m, bool from_client);
    // The read is served (from disk or cache): the client, and LARD's dispatcher, learn it.
    void answer_read(const protocol::network_message &m);
    void report_lard(nlohmann::json &out) const;
    void on_claim(const protocol::network_message &m);
    void serve_read_from_disk(protocol::network_message m);
    void entry_write(protocol::network_message m);
    void replica_write(protocol::network_message m);
    void store_write(const protocol::network_message &m);
    // Stored writes into the disk queue, oldest first, up to brick_role::destage_requests_queued.
    void try_destage();
    void destage(uint64_t lbn, uint32_t sectors);
    void note_dirty();  // the dirty pages' trace and level
    void send(protocol::message_kind kind, int to, const protocol::network_message &about, uint32_t data_bytes);
    void send_to_others(protocol::message_kind kind, const protocol::network_message &about, uint32_t data_bytes);
    // The SPTF prediction for a command to lbn reaching the disk issue_delay_ms from now: the
    // bid (positioning, ms) and how long issuing it may wait inside its rotational latency.
    struct head_prediction {
        double access_ms = 0, spare_rotation_ms = 0;
    };
    head_prediction predict_access(uint64_t lbn, bool write) const;
    // Whether reads go through the CLAIM protocol (D-SPTF with more than one replica).
    bool uses_claims() const { return m_distribution.forwards_reads() && m_role.replicas() > 1; }
    // The drive command on a granted tag, once the disk is free (one command at a time). True:
    // prescheduling handed the tag on to the next read while this command ran (the caller must
    // not release it).
    bool disk_io(bool write, uint64_t lbn, uint32_t sectors, uint64_t n);
    struct pick_ahead {
        bool command_done = false, handed_on = false;
        sc_core::sc_event done;
    };
    // Prescheduling: picks the next read two one-way latencies before this command's predicted
    // status (or when a read comes after that), from where it will leave the head.
    void schedule_pick_ahead(const std::shared_ptr<pick_ahead> &ahead, bool write, uint64_t lbn, uint32_t sectors);
    // A picked read was lost to another brick: the tag goes on, or is freed once the disk is.
    void give_up_tag();

    firmware_platform &m_platform;
    brick_role m_role;
    request_distribution m_distribution;
    std::unique_ptr<lard_dispatcher> m_lard;  // brick_lard, replica 0 only
    uint64_t m_capacity = 0;
    rtl_models::network_port *m_net = nullptr;
    claim_arbiter m_claims;
    brick_cache m_cache;
    // Writes this brick forwarded: acknowledgements still to come.
    struct pending_write {
        int acks_missing = 0;
        sc_core::sc_event all_in;
    };
    std::unordered_map<uint64_t, std::unique_ptr<pending_write>> m_writes;
    sc_core::sc_event m_destaged;  // room in the cache for dirty data
    struct dirty_extent {
        uint64_t lbn;
        uint32_t sectors;
    };
    std::deque<dirty_extent> m_dirty;  // stored writes not yet in the disk queue, oldest first
    int m_destages_queued = 0;         // destage writes in the disk queue or at the disk
    rtl_models::level_meter m_dirty_level;  // dirty pages over time
    bool m_disk_busy = false;  // a command of this brick is at the disk
    sc_core::sc_event m_disk_free;
    sc_core::sc_event m_read_waiting;  // a read joined the disk queue
    sc_core::sc_event m_claim_lost;    // a better bid took a read this brick was claiming
    brick_statistics m_stats;
    waveforms::traced_int m_trace_queue = 0;   // requests waiting for the disk (reads and destages)
    waveforms::traced_int m_trace_claims = 0;  // CLAIMs this brick has out (prescheduling waits)
    waveforms::traced_int m_trace_dirty_pages = 0;
};

}  // namespace raidtlm::controller
