// Reader for DiskSim 4.0 "libparam" parameter files (.diskspecs, .model, .parv): turns the text
// into a generic tree of blocks, entries and values, each carrying the file and line it came from.
// It knows the syntax only; which names a block may hold and what they mean is the loader's job
// (diskspec_loader.h).
//
// Syntax accepted (libparam as DiskSim's own files use it):
//   file   := { TYPE [NAME] '{' body '}' | 'source' FILE | 'instantiate' '[' ... ']' 'as' NAME
//             | 'topology' ... '[' ... ']' }
//   body   := { KEY '=' value [','] }       KEY is the words before '=' on one line, joined by
//                                           single spaces ("Read hit over. after read")
//   value  := INTEGER | REAL | WORD | TYPE [NAME] '{' body '}' | '[' [value {',' value} [',']] ']'
//           | 'source' FILE                 FILE's whole content is the value (like #include)
//   '#' starts a comment to the end of the line.
// A comma may be left out only after a ']' or '}' when the next entry starts on a later line
// (atlas10k.model writes `slips = [ ... ]` then `defects = [ ]` like that); a missing comma after
// a scalar is an error, because there it usually means a mangled line.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "disks/disk_spec.h"

namespace raidtlm::disks {

// Every problem found in a DiskSim input. what() is one line:
//   FILE:LINE: <what is wrong>; expected <what was expected>
class spec_error : public std::runtime_error {
public:
    spec_error(const source_location &where, const std::string &problem,
               const std::string &expected);
    // For a problem that has no line to point at (the top-level file cannot be opened).
    spec_error(const std::string &file, const std::string &problem, const std::string &expected);

    const source_location &where() const { return m_where; }

private:
    source_location m_where;
};

struct param_block;

struct param_value {
    enum class kind { integer, real, word, block, list };

    kind type = kind::word;
    std::string text;       // scalars: the word as written; blocks: the block type; lists: "[...]"
    int64_t integer = 0;    // kind::integer
    double real = 0;        // kind::integer and kind::real
    std::shared_ptr<const param_block> block;  // kind::block
    std::vector<param_value> list;             // kind::list
    source_location where;                     // where the value starts
    source_location sourced_at;                // set if the value came from `source FILE` there

    bool is_number() const { return type == kind::integer || type == kind::real; }
    // How to show the value in an error message: 'text', "a dm_disk block", "a list".
    std::string describe() const;
};

struct param_entry {
    std::string key;
    source_location where;  // where the key is written
    param_value value;
};

struct param_block {
    std::string type;  // "disksim_disk", "dm_layout_g1_zone", ...
    std::string name;  // may be empty for nested blocks
    source_location where;
    std::vector<param_entry> entries;  // in file order

    const param_entry *find(const std::string &key) const;
};

// `instantiate [ NAMES ] as TYPE`: simulation instances of a block type (".." ranges such as
// `disk0 .. disk3` are expanded).
struct param_instantiation {
    std::vector<std::string> names;
    std::string type;
    source_location where;
};

// `topology TYPE NAME [ children ]`: how instances are wired (driver, buses, controllers, disks).
struct topology_node {
    std::string type;  // "disksim_iodriver", "disksim_bus", "disksim_ctlr", "disksim_disk", ...
    std::string name;  // an instance name
    source_location where;
    std::vector<topology_node> children;
};

// Top-level blocks of a file, in order, including those of files it `source`s at top level, and
// the instantiate and topology statements (DiskSim system configurations, .parv).
struct param_file {
    std::vector<param_block> blocks;
    std::vector<param_instantiation> instances;
    std::vector<topology_node> topology;
};

// Parses `path`; relative `source` names are resolved against the including file's directory.
// Throws spec_error.
param_file parse_param_file(const std::string &path);

// A file named inside `including_file` (by `source`, or a seek curve name) is relative to that
// file's directory, as in libparam; absolute names are kept.
std::string resolve_source_path(const std::string &including_file, const std::string &name);

}  // namespace raidtlm::disks
