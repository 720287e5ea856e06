#include "testbench/scenario/parv_scenario.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "disks/diskspec_loader.h"
#include "disks/diskspec_parser.h"
#include "disks/validation_system.h"

namespace raidtlm::testbench {

namespace {

using disks::param_block;
using disks::param_entry;
using disks::param_file;
using disks::param_value;
using disks::source_location;
using disks::spec_error;

const param_entry &entry(const param_block &b, const std::string &key) {
    if (const param_entry *e = b.find(key)) return *e;
    throw spec_error(b.where, b.type + " block '" + b.name + "' has no '" + key + "'",
                     "`" + key + " = ...` (DiskSim 4.0 manual)");
}

double number(const param_block &b, const std::string &key) {
    const param_entry &e = entry(b, key);
    if (!e.value.is_number()) throw spec_error(e.value.where, "'" + key + "' is " + e.value.describe(), "a number");
    return e.value.real;
}

[[noreturn]] void refuse(const source_location &where, const std::string &feature, const std::string &why) {
    throw spec_error(where, "not supported by `raidtlm run`: " + feature + " (" + why + ")",
                     "a system raidtlm models (see `raidtlm run --help`, DiskSim .parv files)");
}

void refuse_nonzero(const param_block &b, const std::string &key, const std::string &why) {
    if (const param_entry *e = b.find(key); e && e->value.is_number() && e->value.real != 0)
        refuse(e->where, "'" + key + " = " + e->value.text + "'", why);
}

// Names in a device list (the parser expands `disk0 .. disk8`).
std::vector<std::string> names_in(const param_entry &e) {
    if (e.value.type != param_value::kind::list)
        throw spec_error(e.value.where, "'" + e.key + "' is " + e.value.describe(), "a list of names, e.g. [ disk0 ]");
    std::vector<std::string> out;
    for (const auto &v : e.value.list) out.push_back(v.text);
    return out;
}

struct distribution {
    std::string kind;
    std::vector<double> p;
    source_location where;
};

distribution distribution_of(const param_block &b, const std::string &key) {
    const param_entry &e = entry(b, key);
    const auto &l = e.value.list;
    if (e.value.type != param_value::kind::list || l.empty() || l[0].type != param_value::kind::word)
        throw spec_error(e.value.where, "'" + key + "' is " + e.value.describe(),
                         "[ uniform|normal|exponential|poisson|twovalue, numbers... ]");
    distribution d{l[0].text, {}, e.value.where};
    for (size_t i = 1; i < l.size(); ++i) {
        if (!l[i].is_number()) throw spec_error(l[i].where, "a distribution parameter " + l[i].describe(), "a number");
        d.p.push_back(l[i].real);
    }
    const std::map<std::string, size_t> arity = {
        {"uniform", 2}, {"normal", 2}, {"exponential", 2}, {"poisson", 2}, {"twovalue", 3}};
    const auto it = arity.find(d.kind);
    if (it == arity.end() || d.p.size() != it->second)
        throw spec_error(e.value.where, "'" + key + "' = [" + d.kind + ", ...] with " + std::to_string(d.p.size()) +
                                            " numbers",
                         "uniform, normal, exponential or poisson with 2 numbers, twovalue with 3");
    return d;
}

const param_block *top_block(const param_file &f, const std::string &type, const std::string &name = "") {
    for (const auto &b : f.blocks)
        if (b.type == type && (name.empty() || b.name == name)) return &b;
    return nullptr;
}

std::string block_type_of_instance(const param_file &f, const std::string &name) {
    for (const auto &i : f.instances)
        if (std::find(i.names.begin(), i.names.end(), name) != i.names.end()) return i.type;
    return "";
}

// The generator parameters that must agree between the processes modelled as one workload.
bool same_law(const param_block &a, const param_block &b) {
    for (const char *k : {"Blocking factor", "Probability of sequential access", "Probability of local access",
                          "Probability of read access", "Probability of time-critical request",
                          "Probability of time-limited request", "Storage capacity per device"})
        if (number(a, k) != number(b, k)) return false;
    for (const char *k : {"General inter-arrival times", "Sizes"}) {
        const distribution x = distribution_of(a, k), y = distribution_of(b, k);
        if (x.kind != y.kind || x.p != y.p) return false;
    }
    return true;
}

std::string num(double x) { return fmt::format("{}", x); }

}  // namespace

parv_translation translate_parv(const std::string &path) {
    const param_file f = disks::parse_param_file(path);
    parv_translation t;
    const param_block *synthio = top_block(f, "disksim_synthio");
    if (!synthio) {
        const source_location at = f.blocks.empty() ? source_location{path, 1} : f.blocks.front().where;
        refuse(at, "a system without a `disksim_synthio` workload",
               "`raidtlm run FILE.parv` runs DiskSim's synthetic generator; a trace-driven system is "
               "`raidtlm validate` (one drive) or a scenario with workload.arrival trace");
    }
    const double requests = number(*synthio, "Number of I/O requests to generate");
    refuse_nonzero(*synthio, "System call/return with each request",
                   "system-call events around each request are not modelled");
    const param_entry &gens_entry = entry(*synthio, "Generators");
    std::vector<const param_block *> gens;
    for (const auto &v : gens_entry.value.list) {
        if (v.type != param_value::kind::block || v.block->type != "disksim_synthgen")
            throw spec_error(v.where, "a generator that is " + v.describe(), "a disksim_synthgen { ... } block");
        gens.push_back(v.block.get());
    }
    if (gens.empty()) throw spec_error(gens_entry.where, "no generators", "at least one disksim_synthgen block");

    // Processes and processors (disksim_pfsim.c): a process leaves its CPU only when it sleeps.
    const param_block *pf = top_block(f, "disksim_pf");
    const int cpus = pf ? static_cast<int>(number(*pf, "Number of processors")) : static_cast<int>(gens.size());
    if (pf && number(*pf, "Process-Flow Time Scale") != 1.0)
        refuse(entry(*pf, "Process-Flow Time Scale").where, "'Process-Flow Time Scale' other than 1",
               "scaled think times are not modelled");
    auto blocks = [](const param_block &g) {
        return number(g, "Probability of time-critical request") > 0 || number(g, "Probability of time-limited request") > 0;
    };
    // pf_new_process puts each new process at the head of the start list and pf_dispatcher_init
    // queues that list in order, so the last generator is dispatched first.
    std::vector<const param_block *> act(gens.rbegin(), gens.rend());
    if (cpus < static_cast<int>(gens.size())) {
        for (const param_block *g : gens)
            if (blocks(*g))
                refuse(entry(*g, "Probability of time-critical request").where,
                       fmt::format("{} generators sharing {} processors with requests that block", gens.size(), cpus),
                       "processes taking turns on a processor are not modelled");
        act.resize(static_cast<size_t>(std::max(cpus, 1)));
        t.notes.push_back(fmt::format(
            "{} generators on {} processor(s), none of which ever blocks: DiskSim's process flow keeps a "
            "process on its processor until it sleeps and dispatches the last generator first, so only "
            "generator(s) {}..{} (counting from 0) issue requests",
            gens.size(), cpus, gens.size() - act.size(), gens.size() - 1));
    }
    const size_t active = act.size();
    const param_block &g = *act.front();
    for (size_t i = 1; i < active; ++i)
        if (!same_law(g, *act[i]))
            refuse(act[i]->where, "generators with different parameters",
                   "raidtlm's workload is one law for every client; the processes must agree except in devices");

    // Request class: closed (every request time-critical) or open (none blocks).
    const double critical = number(g, "Probability of time-critical request");
    const double limited = number(g, "Probability of time-limited request");
    if (limited > 0)
        refuse(entry(g, "Probability of time-limited request").where, "time-limited requests",
               "a process that blocks on a request only after a time limit is not modelled");
    if (critical > 0 && critical < 1)
        refuse(entry(g, "Probability of time-critical request").where, "a mix of time-critical and other requests",
               "raidtlm's workload is closed (every request blocks) or open (none does)");
    for (const char *k : {"Probability of sequential access", "Probability of local access"})
        refuse_nonzero(g, k, "DiskSim's sequential and local address streams are not modelled; expected 0");

    const distribution gap = distribution_of(g, "General inter-arrival times");
    if (gap.kind != "exponential" || gap.p[0] != 0)
        refuse(gap.where, "'General inter-arrival times' other than [exponential, 0, mean]",
               "only exponential inter-arrival and think times without a base are modelled");
    const distribution sizes = distribution_of(g, "Sizes");
    if (sizes.kind != "exponential" || sizes.p[0] != 0 || !(sizes.p[1] > 0))
        refuse(sizes.where, "'Sizes' other than [exponential, 0, mean > 0]",
               "only DiskSim's exponential size law without a base is modelled");
    const double blocking = number(g, "Blocking factor");
    const double capacity_per_device = number(g, "Storage capacity per device");

    // Devices: a Parts logorg's drives, or one Array logorg.
    std::vector<std::string> devices = names_in(entry(g, "devices"));
    for (size_t i = 1; i < active; ++i)
        if (names_in(entry(*act[i], "devices")) != devices)
            refuse(entry(*act[i], "devices").where, "generators addressing different devices",
                   "raidtlm's workload addresses one host space; the processes must share their devices");
    std::string layout = "jbod";
    double stripe_unit = 64;
    std::vector<std::string> drives;
    for (const auto &b : f.blocks) {
        if (b.type != "disksim_logorg") continue;
        const std::vector<std::string> members = names_in(entry(b, "devices"));
        const bool named = std::find(devices.begin(), devices.end(), b.name) != devices.end();
        const bool holds = std::any_of(members.begin(), members.end(), [&](const std::string &m) {
            return std::find(devices.begin(), devices.end(), m) != devices.end();
        });
        if (!named && !holds) continue;
        const param_entry &mode = entry(b, "Addressing mode");
        const param_entry &scheme = entry(b, "Distribution scheme");
        const param_entry &redundancy = entry(b, "Redundancy scheme");
        if (redundancy.value.text != "Noredun")
            refuse(redundancy.where, "'Redundancy scheme = " + redundancy.value.text + "'",
                   "mirrored and parity organisations run in raidtlm's controller firmware, which `run FILE.parv` "
                   "does not map DiskSim's logorg onto yet");
        if (named) {
            if (mode.value.text != "Array" || scheme.value.text != "Striped")
                refuse(scheme.where, "a generator addressing logorg '" + b.name + "' (" + mode.value.text + ", " +
                                         scheme.value.text + ")",
                       "an Array logorg must be Striped");
            layout = "stripe";
            stripe_unit = number(b, "Stripe unit");
            drives = members;
        } else {
            if (mode.value.text != "Parts" || scheme.value.text != "Asis")
                refuse(mode.where, "a generator addressing member drives of an '" + mode.value.text + "' logorg",
                       "devices of a Parts/Asis logorg, or the name of an Array logorg");
            for (const auto &m : members)
                if (std::find(devices.begin(), devices.end(), m) != devices.end() &&
                    std::find(drives.begin(), drives.end(), m) == drives.end())
                    drives.push_back(m);
        }
    }
    if (layout == "stripe" && devices.size() != 1)
        refuse(entry(g, "devices").where, "a generator addressing an Array logorg together with other devices",
               "one Array logorg, or drives of Parts logorgs");
    if (drives.empty())
        refuse(entry(g, "devices").where, "devices in no logorg", "each device in a disksim_logorg");

    // The drives: one model, each with its host path.
    std::string model;
    disks::validation_system first;
    for (const auto &d : drives) {
        const disks::validation_system sys = disks::load_validation_system(path, d);
        const std::string type = block_type_of_instance(f, d);
        if (model.empty()) {
            model = type;
            first = sys;
        } else if (type != model) {
            refuse(entry(g, "devices").where, "drives of different models ('" + model + "', '" + type + "')",
                   "raidtlm's array holds drives of one model");
        }
        if (sys.read_sector_ms != first.read_sector_ms || sys.write_sector_ms != first.write_sector_ms)
            refuse(sys.buses.empty() ? entry(g, "devices").where : sys.buses.back().where,
                   "drives behind host paths of different speeds", "one host path speed for the array");
        if (sys.arbitration_ms > 0)
            refuse(sys.buses.front().where, "a bus 'Arbitration time' above 0",
                   "`run` moves data over a per-sector host path and does not arbitrate it");
    }
    if (first.read_sector_ms != first.write_sector_ms)
        refuse(first.buses.empty() ? entry(g, "devices").where : first.buses.back().where,
               "different read and write block transfer times on the host path",
               "`run` has one interface time per sector");
    const double drive_sector_ms = std::max(first.disk.interface.bulk_sector_transfer_ms, first.read_sector_ms);
    const int64_t drive_blocks = first.disk.block_count;
    const double expected = layout == "stripe"
                                ? std::floor(double(drive_blocks) / stripe_unit) * stripe_unit * double(drives.size())
                                : double(drive_blocks);
    if (std::fabs(capacity_per_device - expected) >= blocking)
        refuse(entry(g, "Storage capacity per device").where,
               fmt::format("'Storage capacity per device = {}' unlike the device's {} blocks", capacity_per_device,
                           expected),
               "the workload addresses the whole device");

    // The iodriver: with "Use queueing in subsystem" 1 it passes requests down while the drive
    // takes them ("Max queue length") and orders the rest by its own ioqueue policy.
    std::string host_policy = "fcfs";
    for (const auto &b : f.blocks) {
        if (b.type != "disksim_iodriver") continue;
        const param_entry &sched = entry(b, "Scheduler");
        if (sched.value.type != param_value::kind::block)
            throw spec_error(sched.value.where, "'Scheduler' is " + sched.value.describe(), "a disksim_ioqueue block");
        const param_block &q = *sched.value.block;
        const param_entry &policy = entry(q, "Scheduling policy");
        const std::map<double, std::string> policies = {
            {1, "fcfs"}, {2, "elevator_lbn"}, {3, "cycle_lbn"}, {4, "sstf_lbn"}};
        const auto it = policies.find(policy.value.real);
        if (!policy.value.is_number() || it == policies.end())
            refuse(policy.where, "iodriver 'Scheduling policy = " + policy.value.text + "'",
                   "the host queue orders by 1 FCFS, 2 ELEVATOR_LBN, 3 CYCLE_LBN or 4 SSTF_LBN");
        host_policy = it->second;
        for (const char *k : {"Read initiation delay", "Write initiation delay"})
            refuse_nonzero(q, k, "the iodriver's initiation delays are not modelled");
        refuse_nonzero(q, "Scheduling timeout scheme", "request timeouts in the iodriver queue are not modelled");
        refuse_nonzero(q, "Scheduling priority scheme", "priority queues in the iodriver are not modelled");
        refuse_nonzero(q, "Sequential stream scheme", "the iodriver's sequential stream handling is not modelled");
        if (const param_entry *q = b.find("Use queueing in subsystem"); q && q->value.real == 0 && critical < 1)
            refuse(q->where, "'Use queueing in subsystem = 0' (the iodriver's own queue)",
                   "raidtlm's host passes every request to the drive's queue");
        if (const param_entry *q = b.find("Use queueing in subsystem"); q && q->value.real == 0 && critical >= 1 &&
                                                                          active / drives.size() > 1)
            refuse(q->where, "'Use queueing in subsystem = 0' with several requests per drive",
                   "the iodriver's own queue is not modelled");
    }
    bool synchronised = false;
    for (const auto &b : f.blocks) {
        if (b.type != "disksim_syncset") continue;
        const auto members = names_in(entry(b, "devices"));
        synchronised = synchronised || std::all_of(drives.begin(), drives.end(), [&](const std::string &d) {
                           return std::find(members.begin(), members.end(), d) != members.end();
                       });
    }
    // DiskSim stops at the request count or at "Maximum time of trace generated" (seconds),
    // whichever comes first; raidtlm stops on the count, so the time must not be what ends it.
    const double max_time_s = number(*synthio, "Maximum time of trace generated");
    if (critical < 1 && requests * gap.p[1] / double(active) > 0.9 * max_time_s * 1000.0)
        refuse(entry(*synthio, "Maximum time of trace generated").where,
               fmt::format("a run that 'Maximum time of trace generated = {} s' would end before its {} requests",
                           max_time_s, requests),
               "raidtlm ends a run on its request count");
    if (critical >= 1)
        t.notes.push_back(fmt::format("the run ends after {} requests; DiskSim also stops at {} s simulated",
                                      requests, max_time_s));
    double seed = 1;
    if (const param_block *global = top_block(f, "disksim_global"); global && global->find("Init Seed"))
        seed = number(*global, "Init Seed");

    const std::string where = [&] {
        std::string s = std::filesystem::absolute(path).lexically_normal().string();
        return s;
    }();
    std::string y = fmt::format("# Translated by `raidtlm run` from the DiskSim system configuration\n# {}\n", where);
    y += "disks:\n";
    y += fmt::format("  spec: {}\n  name: {}\n  count: {}\n  spindle_sync: {}\n", where, model, drives.size(),
                     synchronised ? "true" : "false");
    y += fmt::format("  bulk_sector_transfer_ms: {}   # slowest of the drive and its host path\n", num(drive_sector_ms));
    y += fmt::format("  host_queue_policy: {}   # the iodriver's ioqueue policy\n", host_policy);
    y += fmt::format("host:\n  layout: {}\n", layout);
    if (layout == "stripe") y += fmt::format("  stripe_unit_sectors: {}\n", num(stripe_unit));
    y += "workload:\n";
    if (critical >= 1) {
        y += fmt::format("  arrival: closed\n  outstanding: {}\n", active);
        y += gap.p[1] > 0 ? fmt::format("  think_time_ms: {}\n  think_time_distribution: exponential\n", num(gap.p[1]))
                          : std::string("  think_time_ms: 0\n");
    } else {
        y += fmt::format("  arrival: open\n  mean_interarrival_ms: {}\n", num(gap.p[1] / double(active)));
    }
    y += fmt::format("  read_fraction: {}\n", num(number(g, "Probability of read access")));
    y += fmt::format("  size_distribution: exponential\n  size_mean_sectors: {}\n  size_max_sectors: 65536\n",
                     num(sizes.p[1]));
    y += fmt::format("  alignment_sectors: {}\n  address: uniform\n", num(blocking));
    y += fmt::format("  requests: {}\n  warmup_requests: 0\n  seed: {}\n", num(requests), num(seed));
    y += "output:\n  waves: false\n  histogram_max_ms: 2000\n";
    t.yaml = y;
    t.per_device_equals_logical = layout == "jbod";
    if (drives.size() > 1)
        t.notes.push_back("drives sharing a bus each get the host path's per-sector time; bus contention between "
                          "them is not modelled");
    return t;
}

}  // namespace raidtlm::testbench
