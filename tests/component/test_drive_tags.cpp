// More controller tags than a drive's queue holds: Cheetah 9LP drives ("Max queue length = 1") on a
// shared SCSI bus, behind an initiator that keeps 2-3 commands per drive outstanding, as a
// controller with tags_per_disk > 1 does. The drive holds the extra command (as after QUEUE FULL)
// and disconnects; every held command must still be served. A write held that way once reselected
// on a bus it already owned and the whole bus stalled, so the benches mix writes (write-back
// filling the cache segments) with reads, and assert that every command came back.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "../unit/disk_fixtures.h"
#include "component_support.h"
#include "disks/disk_drive.h"
#include "rtl_models/buses/scsi_bus.h"

using namespace raidtlm;
using sc_core::sc_time;
using sc_core::SC_MS;

namespace {

constexpr int initiator_id = 7;

// The controller's side of the bus: issues commands through the bus's from_initiator socket.
struct initiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<initiator> socket{"socket"};
    explicit initiator(sc_core::sc_module_name n) : sc_module(n) {}

    tlm::tlm_response_status command(bool write, uint64_t lbn, uint32_t blocks, int target_id) {
        tlm::tlm_generic_payload p;
        protocol::scsi_command cmd;
        cmd.lbn = lbn;
        cmd.blocks = blocks;
        cmd.target_id = target_id;
        p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        p.set_extension(&cmd);
        sc_time delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(p, delay);
        p.clear_extension(&cmd);
        return p.get_response_status();
    }
};

struct tagged_bench {
    initiator host{"host"};
    rtl_models::scsi_bus bus;
    std::vector<std::unique_ptr<disks::disk_drive>> drives;

    explicit tagged_bench(int drive_count)
        : bus("bus", rtl_models::scsi_bus_config::with_preset(rtl_models::scsi_preset::ultra160), initiator_id,
              ids(drive_count)) {
        host.socket.bind(bus.from_initiator);
        for (int id : ids(drive_count)) {
            auto &d = drives.emplace_back(std::make_unique<disks::disk_drive>(
                sc_core::sc_gen_unique_name("drive"), test::cheetah9lp(), disks::drive_options{0.1 * id, id}));
            bus.to_target(id).bind(d->target);
            d->bus.bind(bus.from_target(id));
        }
    }
    static std::vector<int> ids(int n) {
        std::vector<int> v;
        for (int i = 0; i < n; ++i) v.push_back(i);
        return v;
    }
};

// `tags` threads per drive, each issuing `commands` commands back to back (random LBNs, sizes,
// `write_fraction` of them writes); returns how many completed with an OK status.
int run_tagged(int drive_count, int tags, int commands, double write_fraction, unsigned seed) {
    tagged_bench b(drive_count);
    EXPECT_EQ(b.drives[0]->spec().interface.max_queue_length, 1);  // the point of the bench
    int ok = 0;
    for (int d = 0; d < drive_count; ++d)
        for (int tag = 0; tag < tags; ++tag)
            sc_core::sc_spawn([&, d, tag] {
                std::mt19937_64 rng(seed + 1000u * unsigned(d) + unsigned(tag));
                const int64_t capacity = b.drives[size_t(d)]->capacity_blocks();
                std::uniform_int_distribution<int64_t> lbn(0, capacity - 64);
                std::uniform_int_distribution<uint32_t> blocks(1, 64);
                std::bernoulli_distribution write(write_fraction);
                for (int i = 0; i < commands; ++i)
                    ok += b.host.command(write(rng), uint64_t(lbn(rng)), blocks(rng), d) == tlm::TLM_OK_RESPONSE;
            });
    sc_core::sc_start();
    uint64_t served = 0;
    for (const auto &d : b.drives) served += d->statistics().requests;
    EXPECT_EQ(served, uint64_t(drive_count * tags * commands));
    // The bus is let go at the end: no target holds it once everything is done.
    EXPECT_EQ(b.bus.owner(), -1);
    return ok;
}

// A target that takes a command only to disconnect at once (as a busy drive does).
struct disconnecting_target : component_test::bus_target_stub {
    int commands = 0;
    disconnecting_target(sc_core::sc_module_name n, int scsi_id) : bus_target_stub(n, scsi_id) {}
    void command(tlm::tlm_generic_payload &t) override {
        ++commands;
        request(protocol::scsi_bus_request::disconnect);
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

}  // namespace

TEST(drive_tags, two_tags_of_writes_on_a_one_command_drive_all_complete) {
    const int tags = 2, commands = 150;
    EXPECT_EQ(run_tagged(1, tags, commands, 1.0, 11), tags * commands);
}

TEST(drive_tags, three_tags_of_mixed_commands_on_a_one_command_drive_all_complete) {
    const int tags = 3, commands = 100;
    EXPECT_EQ(run_tagged(1, tags, commands, 0.5, 23), tags * commands);
}

TEST(drive_tags, two_drives_with_two_tags_each_share_the_bus_and_all_complete) {
    const int drives = 2, tags = 2, commands = 100;
    EXPECT_EQ(run_tagged(drives, tags, commands, 0.5, 37), drives * tags * commands);
}

TEST(scsi_bus_ownership, a_target_reselecting_while_the_initiator_selects_it_waits_for_the_bus) {
    // The initiator wins the bus for target 0 at time 0; target 0 asks to reselect (for a command
    // it already has) while that selection is under way. That is no error: it waits until the new
    // command has arrived and it has disconnected, then wins the next round.
    rtl_models::scsi_bus bus("bus", rtl_models::scsi_bus_config::with_preset(rtl_models::scsi_preset::ultra160),
                             initiator_id, {0});
    initiator host("host");
    disconnecting_target t0("t0", 0);
    host.socket.bind(bus.from_initiator);
    bus.to_target(0).bind(t0.target);
    t0.bus_port.bind(bus.from_target(0));
    double reselected_us = -1;
    sc_core::sc_spawn([&] { EXPECT_EQ(host.command(false, 0, 1, 0), tlm::TLM_OK_RESPONSE); });
    sc_core::sc_spawn([&] {
        sc_core::wait(sc_time(0.5, sc_core::SC_US));  // within arbitration + selection
        EXPECT_EQ(bus.owner(), 0);
        t0.request(protocol::scsi_bus_request::reselect);
        reselected_us = sc_core::sc_time_stamp().to_seconds() * 1e6;
        t0.request(protocol::scsi_bus_request::disconnect);
    });
    sc_core::sc_start();
    EXPECT_EQ(t0.commands, 1);
    EXPECT_GT(reselected_us, 0.5);
    EXPECT_EQ(bus.owner(), -1);
}

TEST(scsi_bus_ownership, a_target_reselecting_on_the_bus_it_holds_is_reported) {
    // Such a target would wait for its own release forever; the bus names it instead.
    rtl_models::scsi_bus bus("bus", rtl_models::scsi_bus_config::with_preset(rtl_models::scsi_preset::ultra160),
                             initiator_id, {0, 3});
    initiator host("host");
    disconnecting_target t0("t0", 0), t3("t3", 3);
    host.socket.bind(bus.from_initiator);
    for (disconnecting_target *t : {&t0, &t3}) {
        bus.to_target(t->id).bind(t->target);
        t->bus_port.bind(bus.from_target(t->id));
    }
    static std::vector<std::string> reports;
    reports.clear();
    const auto previous = sc_core::sc_report_handler::get_handler();
    sc_core::sc_report_handler::set_handler([](const sc_core::sc_report &r, const sc_core::sc_actions &) {
        if (r.get_severity() >= sc_core::SC_ERROR) reports.push_back(r.get_msg());
    });
    sc_core::sc_spawn([&] {
        t3.request(protocol::scsi_bus_request::reselect);
        t3.request(protocol::scsi_bus_request::reselect);  // never released: reported, then it waits
    });
    sc_core::sc_start();
    sc_core::sc_report_handler::set_handler(previous);
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_NE(reports[0].find("SCSI ID 3"), std::string::npos);
    EXPECT_NE(reports[0].find("already holds"), std::string::npos);
}
