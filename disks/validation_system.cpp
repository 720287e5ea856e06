#include "disks/validation_system.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "disks/diskspec_loader.h"
#include "disks/diskspec_parser.h"

namespace raidtlm::disks {

namespace {

// One host-side block checked against DiskSim's parameter table for its type: names known, each
// given at most once, numbers within what DiskSim accepts.
struct number_param {
    const char *name;
    bool required;
    double lo, hi;
    bool integer;
};

class host_block {
public:
    host_block(const param_block &b, const char *manual, std::vector<number_param> numbers,
               std::set<std::string> others = {})
        : m_block(b) {
        for (const auto &e : b.entries) {
            const auto it = std::find_if(numbers.begin(), numbers.end(),
                                         [&](const number_param &p) { return e.key == p.name; });
            if (it == numbers.end() && !others.count(e.key)) {
                std::string names;
                for (const auto &p : numbers) names += std::string(names.empty() ? "" : ", ") + "'" + p.name + "'";
                for (const auto &o : others) names += ", '" + o + "'";
                throw spec_error(e.where, "unknown parameter '" + e.key + "' in " + b.type + " block '" + b.name + "'",
                                 std::string("one of ") + names + " (" + manual + ")");
            }
            if (const param_entry *first = b.find(e.key); first != &e)
                throw spec_error(e.where, "parameter '" + e.key + "' is given twice (first at " + first->where.str() + ")",
                                 "each parameter once per block");
            if (it == numbers.end()) continue;
            const param_value &v = e.value;
            const bool number_ok = it->integer ? v.type == param_value::kind::integer : v.is_number();
            if (!number_ok || v.real < it->lo || v.real > it->hi)
                throw spec_error(v.where, "'" + e.key + "' is " + v.describe(), range_text(*it) + " (DiskSim's range)");
            m_values[e.key] = {v.real, v.where};
        }
        for (const auto &p : numbers)
            if (p.required && !m_values.count(p.name))
                throw spec_error(b.where, b.type + " block '" + b.name + "' has no '" + p.name + "'",
                                 "`" + std::string(p.name) + " = " + range_text(p) + "`");
    }

    double value(const std::string &name) const {
        auto it = m_values.find(name);
        return it == m_values.end() ? 0.0 : it->second.first;
    }
    source_location where(const std::string &name) const {
        auto it = m_values.find(name);
        return it == m_values.end() ? m_block.where : it->second.second;
    }
    // Refuses a value DiskSim accepts but this validation does not model, saying why.
    void refuse_unless(bool ok, const std::string &name, const std::string &why) const {
        if (ok) return;
        const param_entry *e = m_block.find(name);
        throw spec_error(where(name), "'" + name + "' = " + (e ? e->value.text : std::string("?")) +
                                          " is not supported by raidtlm's validation (" + why + ")",
                         "the value DiskSim's validation configurations use");
    }

private:
    static std::string range_text(const number_param &p) {
        auto num = [](double x) {
            if (x == std::floor(x) && std::fabs(x) < 1e15) return std::to_string(static_cast<long long>(x));
            return std::to_string(x);
        };
        const std::string kind = p.integer ? "an integer" : "a number";
        if (p.hi >= 1e300) return kind + " >= " + num(p.lo);
        return kind + " from " + num(p.lo) + " to " + num(p.hi);
    }

    const param_block &m_block;
    std::map<std::string, std::pair<double, source_location>> m_values;
};

constexpr double unbounded = 1e308;

const param_block &block_named(const param_file &f, const std::string &type, const std::string &name,
                               const source_location &used_at) {
    for (const auto &b : f.blocks)
        if (b.type == type && b.name == name) return b;
    throw spec_error(used_at, "no " + type + " block named '" + name + "'",
                     "a `" + type + " " + name + " { ... }` block in the file or a file it sources");
}

// The block type an instance was created from.
const param_instantiation &instance_of(const param_file &f, const std::string &name, const source_location &used_at) {
    for (const auto &i : f.instances)
        if (std::find(i.names.begin(), i.names.end(), name) != i.names.end()) return i;
    throw spec_error(used_at, "instance '" + name + "' is never instantiated",
                     "`instantiate [ " + name + " ] as TYPE`");
}

// Every path from a topology root to a disk.
void find_disks(const topology_node &n, std::vector<const topology_node *> &path,
                std::vector<std::vector<const topology_node *>> &out) {
    path.push_back(&n);
    if (n.type == "disksim_disk") out.push_back(path);
    for (const auto &c : n.children) find_disks(c, path, out);
    path.pop_back();
}

}  // namespace

bool is_system_configuration(const std::string &path) {
    try {
        return !parse_param_file(path).topology.empty();
    } catch (const spec_error &) {
        return false;
    }
}

validation_system load_validation_system(const std::string &path, const std::string &disk_instance) {
    const param_file f = parse_param_file(path);
    validation_system sys;
    sys.file = path;
    if (f.topology.empty())
        throw spec_error(path, "no `topology` statement",
                         "a DiskSim system configuration (.parv) wiring an iodriver, buses, a controller and a "
                         "disk, e.g. `topology disksim_iodriver driver0 [ disksim_bus bus0 [ ... ] ]`");

    std::vector<std::vector<const topology_node *>> disks;
    std::vector<const topology_node *> walk;
    for (const auto &root : f.topology) find_disks(root, walk, disks);
    std::string names;
    for (const auto &p : disks) names += (names.empty() ? "" : ", ") + p.back()->name;
    if (disks.empty())
        throw spec_error(f.topology.front().where, "the topology has no disksim_disk",
                         "a drive to validate, e.g. `disksim_disk disk0 [ ]` under a bus");
    const std::vector<const topology_node *> *chosen = nullptr;
    for (const auto &p : disks)
        if (disk_instance.empty() ? disks.size() == 1 : p.back()->name == disk_instance) chosen = &p;
    if (!chosen)
        throw spec_error(disks.front().back()->where,
                         disk_instance.empty() ? std::to_string(disks.size()) + " disks in the topology (" + names +
                                                     ") and none chosen"
                                               : "no disk '" + disk_instance + "' in the topology",
                         "one of: " + names + " (--disk-name)");

    const topology_node &disk_node = *chosen->back();
    sys.disk_instance = disk_node.name;
    const param_instantiation &disk_inst = instance_of(f, disk_node.name, disk_node.where);
    block_named(f, "disksim_disk", disk_inst.type, disk_inst.where);  // exists, or say where it was named
    sys.disk = load_diskspec(path, disk_inst.type);

    double read_ms = 0, write_ms = 0;
    for (const topology_node *n : *chosen) {
        if (n == &disk_node) break;
        const param_instantiation &inst = instance_of(f, n->name, n->where);
        if (n->type == "disksim_bus") {
            const param_block &b = block_named(f, "disksim_bus", inst.type, inst.where);
            const host_block r(b, "DiskSim 4.0 manual section 3.4.3",
                               {{"type", true, 1, 2, true},
                                {"Arbitration type", true, 1, 2, true},
                                {"Arbitration time", true, 0, unbounded, false},
                                {"Read block transfer time", true, 0, unbounded, false},
                                {"Write block transfer time", true, 0, unbounded, false},
                                {"Print stats", true, -unbounded, unbounded, true}});
            validation_bus bus{n->name, b.name, r.value("Arbitration time"), r.value("Read block transfer time"),
                               r.value("Write block transfer time"), b.where};
            sys.arbitration_ms += bus.arbitration_ms;
            read_ms = std::max(read_ms, bus.read_sector_ms);
            write_ms = std::max(write_ms, bus.write_sector_ms);
            sys.buses.push_back(bus);
        } else if (n->type == "disksim_ctlr") {
            const param_block &b = block_named(f, "disksim_ctlr", inst.type, inst.where);
            const host_block r(b, "DiskSim 4.0 manual section 3.4.4",
                               {{"type", true, 1, 3, true},
                                {"Scale for delays", true, 0, unbounded, false},
                                {"Bulk sector transfer time", true, 0, unbounded, false},
                                {"Maximum queue length", true, 0, unbounded, true},
                                {"Print stats", true, 0, 1, true},
                                {"Max per-disk pending count", false, 0, unbounded, true}},
                               {"Scheduler", "Cache"});
            r.refuse_unless(r.value("type") != 3, "type",
                            "a smart controller (type 3) has its own cache and queue, which are not modelled; "
                            "expected 1 (pass-through) or 2 (53C700)");
            r.refuse_unless(r.value("Scale for delays") == 0, "Scale for delays",
                            "the controller's own message overheads are not modelled; expected 0");
            sys.controller_sector_ms = std::max(sys.controller_sector_ms, r.value("Bulk sector transfer time"));
        } else if (n->type == "disksim_iodriver") {
            const param_block &b = block_named(f, "disksim_iodriver", inst.type, inst.where);
            const host_block r(b, "DiskSim 4.0 manual section 3.4.1",
                               {{"type", true, 0, unbounded, true},
                                {"Constant access time", true, -3, unbounded, false},
                                {"Use queueing in subsystem", true, 0, 1, true}},
                               {"Scheduler"});
            const double c = r.value("Constant access time");
            if (c < 0 && c != -1 && c != -2 && c != -3)
                throw spec_error(r.where("Constant access time"), "'Constant access time' is " + std::to_string(c),
                                 "a number >= 0, or -1, -2 or -3 (DiskSim's range)");
            // Any other value replaces the drive's timing with a constant or the trace's own times.
            r.refuse_unless(c == 0, "Constant access time",
                            "it replaces the simulated drive by a fixed or traced time, leaving nothing to validate; "
                            "expected 0");
        } else {
            throw spec_error(n->where, "'" + n->type + "' on the path to the disk",
                             "disksim_iodriver, disksim_bus or disksim_ctlr above a disksim_disk");
        }
    }
    sys.read_sector_ms = std::max(read_ms, sys.controller_sector_ms);
    sys.write_sector_ms = std::max(write_ms, sys.controller_sector_ms);
    return sys;
}

}  // namespace raidtlm::disks
