#include "disks/diskspec_loader.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <stdexcept>

namespace raidtlm::disks {

namespace {

// ---------------------------------------------------------------------------------------------
// What each block may hold: DiskSim's parameter tables, written out so that a misspelled name is
// caught and every name is accounted for.

enum class ptype { integer, real, flag, word, block, list };
enum class need { required, optional };
// Whether a parameter has its own disk_spec field (read by the code below) or is recognised
// only and kept in disk_spec::other_params.
enum class keep { field, other };

struct param_def {
    const char *name;
    ptype type;
    need presence;
    keep store = keep::field;
    const char *block_type = nullptr;  // ptype::block: the block type required
};

struct block_kind {
    const char *type;
    const char *manual;  // where a user finds the parameter list
    std::vector<param_def> params;
};

constexpr need req = need::required;
constexpr need opt = need::optional;

const block_kind disk_kind{
    "disksim_disk",
    "DiskSim 4.0 manual section 3.4.5",
    {
        {"Model", ptype::block, req, keep::field, "dm_disk"},
        {"Scheduler", ptype::block, req, keep::field, "disksim_ioqueue"},
        {"Max queue length", ptype::integer, req},
        {"Bulk sector transfer time", ptype::real, req},
        {"Segment size (in blks)", ptype::integer, req},
        {"Number of buffer segments", ptype::integer, req},
        {"Print stats", ptype::flag, req, keep::other},
        {"Per-request overhead time", ptype::real, req},
        {"Time scale for overheads", ptype::real, req},
        {"Hold bus entire read xfer", ptype::flag, req},
        {"Hold bus entire write xfer", ptype::flag, req},
        {"Allow almost read hits", ptype::flag, req},
        {"Allow sneaky full read hits", ptype::flag, req},
        {"Allow sneaky partial read hits", ptype::flag, req},
        {"Allow sneaky intermediate read hits", ptype::flag, req},
        {"Allow read hits on write data", ptype::flag, req},
        {"Allow write prebuffering", ptype::flag, req},
        {"Preseeking level", ptype::integer, req},
        {"Never disconnect", ptype::flag, req},
        {"Avg sectors per cylinder", ptype::integer, req, keep::other},
        {"Maximum number of write segments", ptype::integer, req},
        {"Use separate write segment", ptype::flag, req},
        {"Low (write) water mark", ptype::real, req},
        {"High (read) water mark", ptype::real, req},
        {"Set watermark by reqsize", ptype::flag, req},
        {"Calc sector by sector", ptype::flag, req, keep::other},
        {"Enable caching in buffer", ptype::integer, req},
        {"Buffer continuous read", ptype::integer, req},
        {"Minimum read-ahead (blks)", ptype::integer, req},
        {"Maximum read-ahead (blks)", ptype::integer, req},
        {"Read-ahead over requested", ptype::integer, req},
        {"Read-ahead on idle hit", ptype::flag, req},
        {"Read any free blocks", ptype::flag, req},
        {"Fast write level", ptype::integer, req},
        {"Combine seq writes", ptype::flag, req},
        {"Stop prefetch in sector", ptype::flag, req},
        {"Disconnect write if seek", ptype::flag, req},
        {"Write hit stop prefetch", ptype::flag, req},
        {"Read directly to buffer", ptype::flag, req},
        {"Immed transfer partial hit", ptype::flag, req},
        {"Read hit over. after read", ptype::real, req},
        {"Read hit over. after write", ptype::real, req},
        {"Read miss over. after read", ptype::real, req},
        {"Read miss over. after write", ptype::real, req},
        {"Write hit over. after read", ptype::real, req},
        {"Write hit over. after write", ptype::real, req},
        {"Write miss over. after read", ptype::real, req},
        {"Write miss over. after write", ptype::real, req},
        {"Read completion overhead", ptype::real, req},
        {"Write completion overhead", ptype::real, req},
        {"Data preparation overhead", ptype::real, req},
        {"First reselect overhead", ptype::real, req},
        {"Other reselect overhead", ptype::real, req},
        {"Read disconnect afterread", ptype::real, req},
        {"Read disconnect afterwrite", ptype::real, req},
        {"Write disconnect overhead", ptype::real, req},
        {"Extra write disconnect", ptype::flag, req},
        {"Extradisc command overhead", ptype::real, req},
        {"Extradisc disconnect overhead", ptype::real, req},
        {"Extradisc inter-disconnect delay", ptype::real, req},
        {"Extradisc 2nd disconnect overhead", ptype::real, req},
        {"Extradisc seek delta", ptype::real, req},
        {"Minimum seek delay", ptype::real, req},
        {"Immediate buffer read", ptype::integer, req},
        {"Immediate buffer write", ptype::integer, req},
    }};

const block_kind ioqueue_kind{
    "disksim_ioqueue",
    "DiskSim 4.0 manual section 3.4.7",
    {
        {"Scheduling policy", ptype::integer, req},
        {"Cylinder mapping strategy", ptype::integer, req, keep::other},
        {"Write initiation delay", ptype::real, req, keep::other},
        {"Read initiation delay", ptype::real, req, keep::other},
        {"Sequential stream scheme", ptype::integer, req, keep::other},
        {"Maximum concat size", ptype::integer, req, keep::other},
        {"Overlapping request scheme", ptype::integer, req, keep::other},
        {"Sequential stream diff maximum", ptype::integer, req, keep::other},
        {"Scheduling timeout scheme", ptype::integer, req, keep::other},
        {"Timeout time/weight", ptype::integer, req, keep::other},
        {"Timeout scheduling", ptype::integer, req, keep::other},
        {"Scheduling priority scheme", ptype::integer, req, keep::other},
        {"Priority scheduling", ptype::integer, req, keep::other},
    }};

const block_kind dm_disk_kind{
    "dm_disk",
    "diskmodel manual section 1.4.1",
    {
        {"Block count", ptype::integer, req},
        {"Number of data surfaces", ptype::integer, req},
        {"Number of cylinders", ptype::integer, req},
        // Optional in diskmodel, but a drive without mechanics has no timing: required here.
        {"Mechanical Model", ptype::block, req, keep::field, "dm_mech_g1"},
        {"Layout Model", ptype::block, req, keep::field, "dm_layout_g1"},
    }};

const block_kind layout_kind{
    "dm_layout_g1",
    "diskmodel manual section 1.4.2",
    {
        {"LBN-to-PBN mapping scheme", ptype::integer, req},
        {"Sparing scheme used", ptype::integer, req},
        {"Rangesize for sparing", ptype::integer, req},
        {"Skew units", ptype::word, opt},
        {"Zones", ptype::list, req},
    }};

const block_kind zone_kind{
    "dm_layout_g1_zone",
    "diskmodel manual section 1.4.2",
    {
        {"First cylinder number", ptype::integer, req},
        {"Last cylinder number", ptype::integer, req},
        {"Blocks per track", ptype::integer, req},
        {"Offset of first block", ptype::real, req},
        {"Skew units", ptype::word, opt},
        {"Empty space at zone front", ptype::integer, req},
        {"Skew for track switch", ptype::real, opt},
        {"Skew for cylinder switch", ptype::real, opt},
        {"Number of spares", ptype::integer, req},
        {"slips", ptype::list, req},
        {"defects", ptype::list, req},
    }};

const block_kind mech_kind{
    "dm_mech_g1",
    "diskmodel manual section 1.4.3",
    {
        {"Access time type", ptype::word, req},
        {"Constant access time", ptype::real, opt},
        {"Seek type", ptype::word, req},
        {"Average seek time", ptype::real, opt},
        {"Constant seek time", ptype::real, opt},
        {"Single cylinder seek time", ptype::real, opt},
        {"Full strobe seek time", ptype::real, opt},
        {"Full seek curve", ptype::word, opt},
        {"Add. write settling delay", ptype::real, req},
        {"Head switch time", ptype::real, req},
        {"Rotation speed (in rpms)", ptype::integer, req},
        {"Percent error in rpms", ptype::real, req},
        {"First ten seek times", ptype::list, opt},
        {"HPL seek equation values", ptype::list, opt},
    }};

// ---------------------------------------------------------------------------------------------
// Reading one block against its table.

std::string expectation(const param_def &d) {
    switch (d.type) {
    case ptype::integer: return "an integer";
    case ptype::real: return "a number";
    case ptype::flag: return "0 or 1";
    case ptype::word: return "a word";
    case ptype::block:
        return "`source FILE` or an inline " + std::string(d.block_type) + " block";
    case ptype::list: return "a list `[ ... ]`";
    }
    return "";
}

std::string placeholder(const param_def &d) {
    switch (d.type) {
    case ptype::integer: return "<integer>";
    case ptype::real: return "<number>";
    case ptype::flag: return "<0 or 1>";
    case ptype::word: return "<word>";
    case ptype::block: return std::string(d.block_type) + " { ... }";
    case ptype::list: return "[ ... ]";
    }
    return "";
}

// Case-insensitive edit distance, to suggest the intended name for a misspelled one.
size_t edit_distance(const std::string &a, const std::string &b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t above = row[j];
            bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

class block_reader {
public:
    // Checks names, duplicates, value types and required parameters; records every parameter's
    // location in spec.origin under `origin_prefix + name`, and the untyped ones' values in
    // spec.other_params.
    block_reader(const param_block &block, const block_kind &kind, disk_spec &spec,
                 std::string origin_prefix = "")
        : m_block(block), m_kind(kind) {
        for (const auto &e : block.entries) {
            const param_def *d = lookup(e.key);
            if (!d) throw unknown(e);
            if (const param_entry *first = m_block.find(e.key); first != &e)
                throw spec_error(e.where, "parameter '" + e.key + "' is given twice (first at " +
                                              first->where.str() + ")",
                                 "each parameter once per " + std::string(kind.type) + " block");
            check_type(e, *d);
            spec.origin[origin_prefix + e.key] = e.where;
            if (d->store == keep::other) {
                spec.other_params[e.key] = e.value.real;
                m_used.insert(e.key);
            }
        }
        for (const auto &d : kind.params)
            if (d.presence == need::required && !m_block.find(d.name)) throw missing(d, "");
    }

    bool has(const std::string &name) const {
        def(name);
        return m_block.find(name) != nullptr;
    }

    // The entry of a parameter that must be present; `because` says why when it is optional in
    // general but needed here (e.g. " (needed by Seek type = constant)").
    const param_entry &entry(const std::string &name, const std::string &because = "") const {
        const param_def &d = def(name);
        const param_entry *e = m_block.find(name);
        if (!e) throw missing(d, because);
        m_used.insert(name);
        return *e;
    }
    const param_value &value(const std::string &name, const std::string &because = "") const {
        return entry(name, because).value;
    }

    int integer(const std::string &name) const {
        const param_value &v = value(name);
        if (v.integer < INT_MIN || v.integer > INT_MAX)
            throw spec_error(v.where, "'" + name + "' is " + v.describe() + ", out of range",
                             "an integer between " + std::to_string(INT_MIN) + " and " +
                                 std::to_string(INT_MAX));
        return static_cast<int>(v.integer);
    }
    int64_t integer64(const std::string &name) const { return value(name).integer; }
    bool flag(const std::string &name) const { return value(name).integer != 0; }
    std::string word(const std::string &name) const { return value(name).text; }
    const param_block &block(const std::string &name) const { return *value(name).block; }
    const std::vector<param_value> &list(const std::string &name) const {
        return value(name).list;
    }
    // Optional numbers: the value if given, else `absent`.
    double real(const std::string &name, double absent = 0) const {
        return has(name) ? value(name).real : absent;
    }

    const param_block &block_itself() const { return m_block; }

    // A parameter the code forgot to read would be silently dropped; make that a loud bug.
    void finish() const {
        for (const auto &e : m_block.entries)
            if (!m_used.count(e.key))
                throw std::logic_error("diskspec_loader: parameter '" + e.key + "' of " +
                                       m_kind.type + " at " + e.where.str() + " was not read");
    }

private:
    const param_def *lookup(const std::string &name) const {
        for (const auto &d : m_kind.params)
            if (name == d.name) return &d;
        return nullptr;
    }
    const param_def &def(const std::string &name) const {
        const param_def *d = lookup(name);
        if (!d)
            throw std::logic_error("diskspec_loader: '" + name + "' is not a " + m_kind.type +
                                   " parameter");
        return *d;
    }

    std::string label() const {
        return std::string(m_kind.type) + " block" +
               (m_block.name.empty() ? "" : " '" + m_block.name + "'");
    }

    spec_error unknown(const param_entry &e) const {
        const param_def *best = nullptr;
        size_t best_distance = SIZE_MAX;
        for (const auto &d : m_kind.params) {
            size_t dist = edit_distance(e.key, d.name);
            if (dist < best_distance) {
                best_distance = dist;
                best = &d;
            }
        }
        std::string kind = std::string(m_kind.type) + " parameter (" + m_kind.manual + ")";
        // Close enough to be a typo of that name rather than a different idea.
        bool typo = best && best_distance <= std::max<size_t>(3, e.key.size() / 4);
        std::string expected = typo ? "'" + std::string(best->name) + "' or another " + kind
                                    : "a " + kind;
        return spec_error(e.where, "unknown parameter '" + e.key + "' in " + label(), expected);
    }

    spec_error missing(const param_def &d, const std::string &because) const {
        return spec_error(m_block.where,
                          label() + " has no '" + d.name + "'" + because,
                          "`" + std::string(d.name) + " = " + placeholder(d) + "`");
    }

    static void check_type(const param_entry &e, const param_def &d) {
        const param_value &v = e.value;
        bool ok = false;
        switch (d.type) {
        case ptype::integer: ok = v.type == param_value::kind::integer; break;
        case ptype::real: ok = v.is_number(); break;
        case ptype::flag:
            ok = v.type == param_value::kind::integer && (v.integer == 0 || v.integer == 1);
            break;
        // A word may look like a number (a seek file named "1234"); the text is what counts.
        case ptype::word:
            ok = v.type != param_value::kind::block && v.type != param_value::kind::list;
            break;
        case ptype::block: ok = v.type == param_value::kind::block; break;
        case ptype::list: ok = v.type == param_value::kind::list; break;
        }
        if (!ok) throw spec_error(v.where, "'" + e.key + "' is " + v.describe(), expectation(d));
        if (d.type == ptype::block && v.block->type != d.block_type)
            throw spec_error(v.where, "'" + e.key + "' is " + v.describe(),
                             "a " + std::string(d.block_type) + " block");
    }

    const param_block &m_block;
    const block_kind &m_kind;
    mutable std::set<std::string> m_used;
};

// ---------------------------------------------------------------------------------------------
// Value checks shared by several parameters.

[[noreturn]] void bad_value(const block_reader &r, const std::string &name,
                            const std::string &expected) {
    const param_value &v = r.value(name);
    throw spec_error(v.where, "'" + name + "' is " + v.describe(), expected);
}

int int_in_range(const block_reader &r, const std::string &name, int lo, int hi,
                 const std::string &expected) {
    int v = r.integer(name);
    if (v < lo || v > hi) bad_value(r, name, expected);
    return v;
}

int positive(const block_reader &r, const std::string &name) {
    return int_in_range(r, name, 1, INT_MAX, "a positive integer");
}

int non_negative(const block_reader &r, const std::string &name) {
    return int_in_range(r, name, 0, INT_MAX, "a non-negative integer");
}

std::string element_name(const std::string &list, size_t i) {
    return "element " + std::to_string(i + 1) + " of '" + list + "'";
}

std::vector<int64_t> integer_list(const block_reader &r, const std::string &name) {
    std::vector<int64_t> out;
    const auto &items = r.list(name);
    for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].type != param_value::kind::integer)
            throw spec_error(items[i].where, element_name(name, i) + " is " + items[i].describe(),
                             "an integer");
        out.push_back(items[i].integer);
    }
    return out;
}

std::vector<double> number_list(const block_reader &r, const std::string &name, size_t count) {
    const auto &items = r.list(name);
    const param_value &v = r.value(name);
    if (items.size() != count)
        throw spec_error(v.where, "'" + name + "' has " + std::to_string(items.size()) + " values",
                         "exactly " + std::to_string(count) + " numbers");
    std::vector<double> out;
    for (size_t i = 0; i < items.size(); ++i) {
        if (!items[i].is_number())
            throw spec_error(items[i].where, element_name(name, i) + " is " + items[i].describe(),
                             "a number");
        out.push_back(items[i].real);
    }
    return out;
}

// "Skew units": skews and the first-block offset may be written in revolutions instead of
// sectors, set for the whole layout and overridden per zone. Returns whether they are revolutions.
bool skew_in_revolutions(const block_reader &r, bool inherited) {
    if (!r.has("Skew units")) return inherited;
    std::string units = r.word("Skew units");
    if (units == "sectors") return false;
    if (units == "revolutions") return true;
    bad_value(r, "Skew units", "sectors or revolutions");
}

// ---------------------------------------------------------------------------------------------
// dm_layout_g1 and its zones.

zone_spec read_zone(const param_block &b, size_t index, bool layout_in_revolutions,
                    disk_spec &spec) {
    block_reader r(b, zone_kind, spec, zone_param_key(index, ""));
    zone_spec z;
    z.where = b.where;
    z.first_cyl = r.integer("First cylinder number");
    z.last_cyl = r.integer("Last cylinder number");
    z.sectors_per_track = positive(r, "Blocks per track");
    z.empty_front_sectors = non_negative(r, "Empty space at zone front");
    z.spares = non_negative(r, "Number of spares");

    // disk_spec holds sectors, so revolutions are multiplied by the zone's sectors per track.
    double scale = skew_in_revolutions(r, layout_in_revolutions) ? z.sectors_per_track : 1.0;
    z.first_block_offset_sectors = r.real("Offset of first block") * scale;
    z.track_skew_sectors = r.real("Skew for track switch") * scale;
    z.cylinder_skew_sectors = r.real("Skew for cylinder switch") * scale;

    z.slips = integer_list(r, "slips");
    std::vector<int64_t> defects = integer_list(r, "defects");
    if (defects.size() % 2 != 0)
        throw spec_error(r.value("defects").where,
                         "'defects' has " + std::to_string(defects.size()) + " numbers",
                         "(defective, replacement) pairs, an even count");
    for (size_t i = 0; i < defects.size(); i += 2)
        z.defects.emplace_back(defects[i], defects[i + 1]);
    r.finish();
    return z;
}

// Zones must lie within the disk and must not overlap; DiskSim's own files leave cylinders
// between zones unassigned (cheetah9LP: 847, 1644, ...), so gaps are allowed.
void check_zones(const layout_spec &layout, const disk_spec &spec) {
    for (size_t i = 0; i < layout.zones.size(); ++i) {
        const zone_spec &z = layout.zones[i];
        std::string zone = "zone " + std::to_string(i) + " (cylinders " +
                           std::to_string(z.first_cyl) + ".." + std::to_string(z.last_cyl) + ")";
        if (z.first_cyl > z.last_cyl)
            throw spec_error(z.where, zone + " ends before it starts",
                             "'First cylinder number' <= 'Last cylinder number'");
        // DiskSim's layout trusts the zones: the HP C2490A's last zone ends on cylinder 2629 of a
        // disk with 2629 cylinders, and DiskSim validates that drive. Only a negative cylinder is
        // meaningless; read_dm_disk widens the geometry to the zones.
        if (z.first_cyl < 0)
            throw spec_error(z.where, zone + " starts before cylinder 0", "cylinders >= 0");
        if (i > 0 && z.first_cyl <= layout.zones[i - 1].last_cyl)
            throw spec_error(z.where,
                             zone + " overlaps zone " + std::to_string(i - 1) + " (cylinders " +
                                 std::to_string(layout.zones[i - 1].first_cyl) + ".." +
                                 std::to_string(layout.zones[i - 1].last_cyl) + ") at " +
                                 layout.zones[i - 1].where.str(),
                             "zones in ascending cylinder order without overlap");
    }
}

layout_spec read_layout(const param_block &b, disk_spec &spec) {
    block_reader r(b, layout_kind, spec);
    layout_spec l;
    l.mapping = static_cast<lbn_mapping>(int_in_range(
        r, "LBN-to-PBN mapping scheme", 0, 2,
        "0 (conventional), 1 (serpentine per zone) or 2 (serpentine absolute)"));
    l.sparing = static_cast<sparing_scheme>(
        int_in_range(r, "Sparing scheme used", 0, 10, "a sparing scheme from 0 to 10"));
    l.sparing_range_cyl = positive(r, "Rangesize for sparing");
    bool revolutions = skew_in_revolutions(r, false);

    const auto &zones = r.list("Zones");
    if (zones.empty())
        throw spec_error(r.value("Zones").where, "'Zones' is empty",
                         "at least one dm_layout_g1_zone block");
    for (size_t i = 0; i < zones.size(); ++i) {
        const param_value &v = zones[i];
        if (v.type != param_value::kind::block || v.block->type != zone_kind.type)
            throw spec_error(v.where, element_name("Zones", i) + " is " + v.describe(),
                             "a dm_layout_g1_zone block");
        l.zones.push_back(read_zone(*v.block, i, revolutions, spec));
    }
    r.finish();
    return l;
}

// ---------------------------------------------------------------------------------------------
// dm_mech_g1.

void check_hpl(const block_reader &r, const std::array<double, 6> &v) {
    const param_value &list = r.value("HPL seek equation values");
    auto fail = [&](size_t i, const std::string &expected) {
        throw spec_error(list.list[i].where,
                         "HPL value V" + std::to_string(i + 1) + " is " + list.list[i].describe(),
                         expected);
    };
    if (v[0] < 0 || v[0] != std::floor(v[0]))
        fail(0, "V1 to be a non-negative whole number of cylinders");
    for (size_t i = 1; i <= 4; ++i)
        if (v[i] < 0) fail(i, "V2..V5 to be non-negative milliseconds");
    if (v[5] < 0 && v[5] != -1) fail(5, "V6 to be non-negative milliseconds or -1");
}

void read_seek(const block_reader &r, seek_spec &s) {
    static const std::vector<std::pair<std::string, seek_type>> types = {
        {"constant", seek_type::constant}, {"linear", seek_type::linear},
        {"curve", seek_type::curve},       {"hpl", seek_type::hpl},
        {"hplplus10", seek_type::hplplus10}, {"extracted", seek_type::extracted}};
    std::string name = r.word("Seek type");
    auto it = std::find_if(types.begin(), types.end(), [&](auto &t) { return t.first == name; });
    if (it == types.end())
        bad_value(r, "Seek type", "constant, linear, curve, hpl, hplplus10 or extracted");
    s.type = it->second;
    std::string because = " (needed by Seek type = " + name + ")";

    s.single_cylinder_ms = r.real("Single cylinder seek time");
    s.average_ms = r.real("Average seek time");
    s.full_strobe_ms = r.real("Full strobe seek time");
    s.constant_ms = r.real("Constant seek time");
    switch (s.type) {
    case seek_type::constant: r.value("Constant seek time", because); break;
    case seek_type::linear:
    case seek_type::curve:
        r.value("Single cylinder seek time", because);
        r.value("Average seek time", because);
        r.value("Full strobe seek time", because);
        break;
    case seek_type::hplplus10: r.value("First ten seek times", because); [[fallthrough]];
    case seek_type::hpl: r.value("HPL seek equation values", because); break;
    case seek_type::extracted: r.value("Full seek curve", because); break;
    default: break;
    }
    // Lists given for another seek type are still checked, so a mangled one never slips through.
    if (r.has("HPL seek equation values")) {
        auto v = number_list(r, "HPL seek equation values", 6);
        std::copy(v.begin(), v.end(), s.hpl.begin());
        check_hpl(r, s.hpl);
    }
    if (r.has("First ten seek times")) {
        auto v = number_list(r, "First ten seek times", 10);
        std::copy(v.begin(), v.end(), s.first_ten_ms.begin());
    }
    if (r.has("Full seek curve")) {
        const param_entry &e = r.entry("Full seek curve");
        // Relative to the file that names it, like `source`.
        s.curve = load_seek_curve(resolve_source_path(e.where.file, e.value.text), e.value.where);
    }
}

mech_spec read_mech(const param_block &b, disk_spec &spec) {
    block_reader r(b, mech_kind, spec);
    mech_spec m;
    std::string access = r.word("Access time type");
    m.constant_access_ms = r.real("Constant access time");
    if (access == "constant") {
        m.access = access_time_type::constant;
        r.value("Constant access time", " (needed by Access time type = constant)");
    } else if (access == "averageRotation") {
        m.access = access_time_type::average_rotation;
    } else if (access == "trackSwitchPlusRotation") {
        m.access = access_time_type::track_switch_plus_rotation;
    } else {
        bad_value(r, "Access time type", "constant, averageRotation or trackSwitchPlusRotation");
    }
    read_seek(r, m.seek);
    m.write_settle_ms = r.real("Add. write settling delay");
    m.head_switch_ms = r.real("Head switch time");
    m.rpm = positive(r, "Rotation speed (in rpms)");
    // diskmodel draws each disk's speed at random within this band; raidtlm's spindles are exact.
    if (r.real("Percent error in rpms") != 0)
        throw spec_error(r.value("Percent error in rpms").where,
                         "'Percent error in rpms' = " + r.word("Percent error in rpms") +
                             " is not supported",
                         "0");
    r.finish();
    return m;
}

// ---------------------------------------------------------------------------------------------
// dm_disk, disksim_ioqueue, disksim_disk.

void read_dm_disk(const param_block &b, disk_spec &spec) {
    block_reader r(b, dm_disk_kind, spec);
    spec.surfaces = positive(r, "Number of data surfaces");
    spec.cylinders = positive(r, "Number of cylinders");
    spec.block_count = r.integer64("Block count");
    if (spec.block_count < 0) bad_value(r, "Block count", "a non-negative integer");
    spec.layout = read_layout(r.block("Layout Model"), spec);
    check_zones(spec.layout, spec);
    spec.mech = read_mech(r.block("Mechanical Model"), spec);
    // Seek curves that interpolate over the disk use "Number of cylinders" as given; the layout
    // spans every cylinder a zone names.
    spec.mech.seek.cylinders = spec.cylinders;
    for (const zone_spec &z : spec.layout.zones) spec.cylinders = std::max(spec.cylinders, z.last_cyl + 1);
    r.finish();
}

void read_ioqueue(const param_block &b, disk_spec &spec) {
    block_reader r(b, ioqueue_kind, spec);
    int64_t policy = r.integer64("Scheduling policy");
    if (policy < 1 || policy > 27)
        throw spec_error(r.value("Scheduling policy").where,
                         "'Scheduling policy' = " + std::to_string(policy) + " is not a DiskSim ioqueue policy",
                         "a number from DiskSim's Table 1, 1 to 27");
    // The drive's own queue implements FCFS, ELEVATOR_LBN, CYCLE_LBN and SSTF_LBN; any other
    // policy is kept so that check_supported can refuse it where commands do queue in the drive.
    spec.other_params["Scheduling policy"] = double(policy);
    spec.interface.scheduling = policy <= 4 ? static_cast<drive_scheduling>(policy) : drive_scheduling::fcfs;
    r.finish();
}

void read_disk(const param_block &b, disk_spec &spec) {
    block_reader r(b, disk_kind, spec);
    spec.name = b.name;

    read_dm_disk(r.block("Model"), spec);
    read_ioqueue(r.block("Scheduler"), spec);

    interface_spec &i = spec.interface;
    i.bulk_sector_transfer_ms = r.real("Bulk sector transfer time");
    i.hold_bus_entire_read = r.flag("Hold bus entire read xfer");
    i.hold_bus_entire_write = r.flag("Hold bus entire write xfer");
    i.never_disconnect = r.flag("Never disconnect");
    i.preseeking_level = r.integer("Preseeking level");
    // DiskSim accepts 0 (no limit it would advertise); check_supported refuses it where commands
    // queue in the drive.
    i.max_queue_length = non_negative(r, "Max queue length");

    cache_spec &c = spec.cache;
    // DiskSim accepts 0 to 2 and treats every non-zero value as "caching on".
    c.enabled = int_in_range(r, "Enable caching in buffer", 0, 2, "0, 1 or 2 (DiskSim: non-zero enables caching)") != 0;
    c.segments = r.integer("Number of buffer segments");
    c.segment_blocks = r.integer("Segment size (in blks)");
    c.max_write_segments = r.integer("Maximum number of write segments");
    c.separate_write_segment = r.flag("Use separate write segment");
    c.low_water_mark = r.real("Low (write) water mark");
    c.high_water_mark = r.real("High (read) water mark");
    c.watermark_by_request_size = r.flag("Set watermark by reqsize");
    c.continuous_read = static_cast<prefetch_scheme>(int_in_range(
        r, "Buffer continuous read", 0, 4,
        "0 (none), 1 (to track end), 2 (to cylinder end), 3 (to segment full) or "
        "4 (next track if sequential)"));
    c.min_read_ahead_blocks = r.integer("Minimum read-ahead (blks)");
    c.max_read_ahead_blocks = r.integer("Maximum read-ahead (blks)");
    // DiskSim accepts -1 to 1. 1 lets read-ahead overwrite the data just returned; -1 erases them
    // from the segment when the read completes. Either way a re-read of those data misses, which
    // is what the drive models for both (the returned data count as free once read-ahead starts).
    c.read_ahead_over_requested =
        int_in_range(r, "Read-ahead over requested", -1, 1, "-1, 0 or 1 (DiskSim's range)") != 0;
    c.read_ahead_on_idle_hit = r.flag("Read-ahead on idle hit");
    c.read_any_free_blocks = r.flag("Read any free blocks");
    c.fast_write_level = r.integer("Fast write level");
    // DiskSim accepts 0 to 2; diskmodel's access-time code tests only for non-zero.
    c.immediate_buffer_read = int_in_range(r, "Immediate buffer read", 0, 2, "0, 1 or 2 (DiskSim's range)") != 0;
    c.immediate_buffer_write = int_in_range(r, "Immediate buffer write", 0, 2, "0, 1 or 2 (DiskSim's range)") != 0;
    c.combine_seq_writes = r.flag("Combine seq writes");
    c.stop_prefetch_in_sector = r.flag("Stop prefetch in sector");
    c.disconnect_write_if_seek = r.flag("Disconnect write if seek");
    c.write_hit_stop_prefetch = r.flag("Write hit stop prefetch");
    c.read_directly_to_buffer = r.flag("Read directly to buffer");
    c.immediate_transfer_partial_hit = r.flag("Immed transfer partial hit");
    c.read_hits_on_write_data = r.flag("Allow read hits on write data");
    c.allow_almost_read_hits = r.flag("Allow almost read hits");
    c.allow_sneaky_full_read_hits = r.flag("Allow sneaky full read hits");
    c.allow_sneaky_partial_read_hits = r.flag("Allow sneaky partial read hits");
    c.allow_sneaky_intermediate_read_hits = r.flag("Allow sneaky intermediate read hits");
    c.allow_write_prebuffering = r.flag("Allow write prebuffering");

    overhead_spec &o = spec.overheads;
    o.per_request_ms = r.real("Per-request overhead time");
    o.time_scale = r.real("Time scale for overheads");
    o.read_hit_after_read_ms = r.real("Read hit over. after read");
    o.read_hit_after_write_ms = r.real("Read hit over. after write");
    o.read_miss_after_read_ms = r.real("Read miss over. after read");
    o.read_miss_after_write_ms = r.real("Read miss over. after write");
    o.write_hit_after_read_ms = r.real("Write hit over. after read");
    o.write_hit_after_write_ms = r.real("Write hit over. after write");
    o.write_miss_after_read_ms = r.real("Write miss over. after read");
    o.write_miss_after_write_ms = r.real("Write miss over. after write");
    o.read_completion_ms = r.real("Read completion overhead");
    o.write_completion_ms = r.real("Write completion overhead");
    o.data_preparation_ms = r.real("Data preparation overhead");
    o.first_reselect_ms = r.real("First reselect overhead");
    o.other_reselect_ms = r.real("Other reselect overhead");
    o.read_disconnect_after_read_ms = r.real("Read disconnect afterread");
    o.read_disconnect_after_write_ms = r.real("Read disconnect afterwrite");
    o.write_disconnect_ms = r.real("Write disconnect overhead");
    o.extra_write_disconnect = r.flag("Extra write disconnect");
    o.extradisc_command_ms = r.real("Extradisc command overhead");
    o.extradisc_disconnect_ms = r.real("Extradisc disconnect overhead");
    o.extradisc_inter_disconnect_ms = r.real("Extradisc inter-disconnect delay");
    o.extradisc_2nd_disconnect_ms = r.real("Extradisc 2nd disconnect overhead");
    o.extradisc_seek_delta_ms = r.real("Extradisc seek delta");
    o.minimum_seek_delay_ms = r.real("Minimum seek delay");
    r.finish();
}

const param_block &choose_disk(const param_file &f, const std::string &path,
                               const std::string &disk_name) {
    std::vector<const param_block *> disks;
    for (const auto &b : f.blocks)
        if (b.type == disk_kind.type) disks.push_back(&b);
    std::string names;
    for (const auto *d : disks) names += (names.empty() ? "" : ", ") + d->name;
    if (disks.empty())
        throw spec_error(path, "no disksim_disk block", "a `disksim_disk NAME { ... }` block");
    if (!disk_name.empty()) {
        for (const auto *d : disks)
            if (d->name == disk_name) return *d;
        throw spec_error(path, "no disksim_disk block named '" + disk_name + "'",
                         "one of: " + names);
    }
    if (disks.size() > 1)
        throw spec_error(disks[1]->where,
                         std::to_string(disks.size()) + " disksim_disk blocks (" + names +
                             ") and no disk name given",
                         "a disk name to choose one of them");
    return *disks[0];
}

std::string trim(const std::string &s) {
    size_t b = s.find_first_not_of(" \t\r\f\v");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t\r\f\v") - b + 1);
}

}  // namespace

std::string zone_param_key(std::size_t zone_index, const std::string &param) {
    return "Zones[" + std::to_string(zone_index) + "]." + param;
}

std::vector<std::pair<int, double>> load_seek_curve(const std::string &path,
                                                    const source_location &named_at) {
    std::ifstream in(path);
    if (!in)
        throw spec_error(named_at, "seek curve file '" + path + "' cannot be read",
                         "a readable seek file (a relative name is taken from the directory of "
                         "the file that names it)");
    const std::string header_form = "`Seek distances measured: <count>`";
    std::string line;
    if (!std::getline(in, line))
        throw spec_error(source_location{path, 1}, "seek file is empty",
                         header_form + " on line 1");
    const std::string prefix = "Seek distances measured:";
    std::string header = trim(line);
    long long count = -1;
    if (header.compare(0, prefix.size(), prefix) == 0) {
        std::istringstream rest(header.substr(prefix.size()));
        std::string extra;
        if (!(rest >> count) || (rest >> extra)) count = -1;
    }
    if (count < 1)
        throw spec_error(source_location{path, 1}, "seek file header is '" + header + "'",
                         header_form + " with a positive count");

    std::vector<std::pair<int, double>> curve;
    for (int number = 2; std::getline(in, line); ++number) {
        std::string text = trim(line);
        if (text.empty()) continue;
        std::replace(text.begin(), text.end(), ',', ' ');
        std::istringstream fields(text);
        long long distance = 0;
        double ms = 0;
        std::string extra;
        if (!(fields >> distance >> ms) || (fields >> extra) || distance < 0 ||
            distance > INT_MAX || !(ms >= 0))
            throw spec_error(source_location{path, number}, "seek line is '" + trim(line) + "'",
                             "`<distance>, <time>`: a non-negative cylinder count and "
                             "milliseconds");
        if (!curve.empty() && distance <= curve.back().first)
            throw spec_error(source_location{path, number},
                             "seek distance " + std::to_string(distance) +
                                 " does not ascend (previous line has " +
                                 std::to_string(curve.back().first) + ")",
                             "distances in ascending order");
        curve.emplace_back(static_cast<int>(distance), ms);
    }
    if (static_cast<long long>(curve.size()) != count)
        throw spec_error(source_location{path, 1},
                         "header says " + std::to_string(count) +
                             " seek distances but the file has " + std::to_string(curve.size()),
                         std::to_string(count) + " lines `<distance>, <time>` after the header");
    return curve;
}

disk_spec load_diskspec(const std::string &path, const std::string &disk_name) {
    param_file f = parse_param_file(path);
    disk_spec spec;
    read_disk(choose_disk(f, path, disk_name), spec);
    return spec;
}

}  // namespace raidtlm::disks
