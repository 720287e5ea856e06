// How the DiskSim spec loader reads a parameter block (internal to disks/diskspec_loader.cpp, not
// part of the library's interface): DiskSim's parameter tables,
// written out so that a misspelled name is caught and every name is accounted for; a reader that
// checks one block against its table; value checks shared by several parameters.
#pragma once

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "disks/diskspec_limits.h"
#include "disks/diskspec_loader.h"
#include "disks/diskspec_parser.h"

namespace raidtlm::disks::spec_reading {

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

inline constexpr need req = need::required;
inline constexpr need opt = need::optional;

inline const block_kind disk_kind{
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

inline const block_kind ioqueue_kind{
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

inline const block_kind dm_disk_kind{
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

inline const block_kind layout_kind{
    "dm_layout_g1",
    "diskmodel manual section 1.4.2",
    {
        {"LBN-to-PBN mapping scheme", ptype::integer, req},
        {"Sparing scheme used", ptype::integer, req},
        {"Rangesize for sparing", ptype::integer, req},
        {"Skew units", ptype::word, opt},
        {"Zones", ptype::list, req},
    }};

inline const block_kind zone_kind{
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

inline const block_kind mech_kind{
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

inline std::string expectation(const param_def &d) {
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

inline std::string placeholder(const param_def &d) {
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
inline size_t edit_distance(const std::string &a, const std::string &b) {
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
            check_physical_range(e);
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

    // Absurd magnitudes (diskspec_limits.h) are refused before anything is sized by them.
    static void check_physical_range(const param_entry &e) {
        const physical_range *range = physical_range_of(e.key);
        if (!range || !e.value.is_number()) return;
        if (!(e.value.real >= range->lo && e.value.real <= range->hi))
            throw spec_error(e.value.where, "'" + e.key + "' is " + e.value.describe() + ", physically absurd",
                             describe_range(*range));
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

inline int int_in_range(const block_reader &r, const std::string &name, int lo, int hi,
                 const std::string &expected) {
    int v = r.integer(name);
    if (v < lo || v > hi) bad_value(r, name, expected);
    return v;
}

inline int positive(const block_reader &r, const std::string &name) {
    return int_in_range(r, name, 1, INT_MAX, "a positive integer");
}

inline int non_negative(const block_reader &r, const std::string &name) {
    return int_in_range(r, name, 0, INT_MAX, "a non-negative integer");
}

inline std::string element_name(const std::string &list, size_t i) {
    return "element " + std::to_string(i + 1) + " of '" + list + "'";
}

inline std::vector<int64_t> integer_list(const block_reader &r, const std::string &name) {
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

inline std::vector<double> number_list(const block_reader &r, const std::string &name, size_t count) {
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
inline bool skew_in_revolutions(const block_reader &r, bool inherited) {
    if (!r.has("Skew units")) return inherited;
    std::string units = r.word("Skew units");
    if (units == "sectors") return false;
    if (units == "revolutions") return true;
    bad_value(r, "Skew units", "sectors or revolutions");
}


}  // namespace raidtlm::disks::spec_reading
