#include "disks/diskspec_parser.h"

#include "config/shown_text.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

namespace raidtlm::disks {

namespace fs = std::filesystem;

namespace {

// libparam's own limit on nested `source` directives; beyond it we assume a cycle.
constexpr int max_source_depth = 32;
// Lists and blocks inside each other: DiskSim's own specs nest 5 deep (disk, mechanics, layout,
// zone list, zone). The parser recurses per level, so without a bound a crafted file of ~15,000
// brackets overflows the stack (issue 13).
constexpr int max_nesting = 64;

std::string one_line(std::string s) {
    for (char &c : s)
        if (c == '\n' || c == '\r') c = ' ';
    return s;
}

}  // namespace

spec_error::spec_error(const source_location &where, const std::string &problem,
                       const std::string &expected)
    : std::runtime_error(one_line(where.str() + ": " + config::elided_middle(problem) + "; expected " + expected)),
      m_where(where) {}

spec_error::spec_error(const std::string &file, const std::string &problem,
                       const std::string &expected)
    : std::runtime_error(one_line(file + ": " + config::elided_middle(problem) + "; expected " + expected)),
      m_where{file, 0} {}

std::string param_value::describe() const {
    switch (type) {
    case kind::block: return "a " + text + " block";
    case kind::list: return "a list";
    default: return "'" + config::shown_text(text) + "'";
    }
}

const param_entry *param_block::find(const std::string &key) const {
    for (const auto &e : entries)
        if (e.key == key) return &e;
    return nullptr;
}

namespace {

struct token {
    enum class kind { word, quoted, punct, end };
    kind type = kind::end;
    std::string text;
    int line = 0;

    bool is(char c) const { return type == kind::punct && text[0] == c; }
    bool is_word() const { return type == kind::word || type == kind::quoted; }
    std::string shown() const { return type == kind::end ? "end of file" : "'" + config::shown_text(text) + "'"; }
};

bool is_punct(char c) {
    return c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == '=';
}

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

std::vector<token> tokenize(const std::string &file, const std::string &text) {
    std::vector<token> out;
    int line = 1;
    size_t i = 0;
    while (i < text.size()) {
        char c = text[i];
        if (c == '\n') {
            ++line;
            ++i;
        } else if (is_space(c)) {
            ++i;
        } else if (c == '#') {
            while (i < text.size() && text[i] != '\n') ++i;
        } else if (is_punct(c)) {
            out.push_back({token::kind::punct, std::string(1, c), line});
            ++i;
        } else if (c == '"') {
            size_t end = text.find_first_of("\"\n", i + 1);
            if (end == std::string::npos || text[end] != '"')
                throw spec_error(source_location{file, line}, "quoted string is not closed",
                                 "a closing '\"' on the same line");
            out.push_back({token::kind::quoted, text.substr(i + 1, end - i - 1), line});
            i = end + 1;
        } else {
            size_t start = i;
            while (i < text.size() && !is_space(text[i]) && !is_punct(text[i]) && text[i] != '#' &&
                   text[i] != '"')
                ++i;
            out.push_back({token::kind::word, text.substr(start, i - start), line});
        }
    }
    out.push_back({token::kind::end, "", line});
    return out;
}

// Integers as libparam writes them: decimal, optionally signed, or 0x-prefixed hexadecimal.
bool parse_integer(const std::string &s, int64_t &out) {
    const char *b = s.data();
    const char *e = b + s.size();
    bool negative = false;
    if (b != e && (*b == '-' || *b == '+')) negative = (*b++ == '-');
    int base = 10;
    if (e - b > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X')) {
        base = 16;
        b += 2;
    }
    if (b == e) return false;
    uint64_t magnitude = 0;
    auto [p, ec] = std::from_chars(b, e, magnitude, base);
    if (ec != std::errc() || p != e) return false;
    if (magnitude > static_cast<uint64_t>(INT64_MAX)) return false;
    out = negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
    return true;
}

// Reals: what strtod takes, but only in plain decimal notation (no "nan", "inf", hex floats),
// so that a word such as "infinite" stays a word.
bool parse_real(const std::string &s, double &out) {
    if (s.empty()) return false;
    for (char c : s)
        if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+' ||
              c == 'e' || c == 'E'))
            return false;
    errno = 0;
    char *end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return end == s.c_str() + s.size() && errno == 0 && std::isfinite(out);
}

std::string read_file(const std::string &path, const source_location *sourced_at) {
    std::string reason;
    std::error_code ec;
    if (!fs::exists(path, ec))
        reason = "does not exist";
    else if (fs::is_directory(path, ec))
        reason = "is a directory";
    std::ifstream in;
    if (reason.empty()) {
        in.open(path, std::ios::binary);
        if (!in) reason = "cannot be read";
    }
    if (!reason.empty()) {
        if (sourced_at)
            throw spec_error(*sourced_at, "sourced file '" + path + "' " + reason,
                             "a readable DiskSim parameter file (a relative name is taken from the "
                             "sourcing file's directory)");
        throw spec_error(path, "file " + reason, "a readable DiskSim parameter file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

class parser {
public:
    parser(std::string file, const std::string &text, int depth)
        : m_file(std::move(file)), m_tokens(tokenize(m_file, text)), m_depth(depth) {}

    void parse_top_level(param_file &out) {
        while (peek().type != token::kind::end) {
            const token &t = peek();
            if (t.type == token::kind::word && t.text == "source" && peek(1).is_word()) {
                source_location at = here();
                next();
                param_file included =
                    parse_file_at(resolve_source_path(m_file, next().text), &at, m_depth + 1);
                for (auto &b : included.blocks) out.blocks.push_back(std::move(b));
                for (auto &i : included.instances) out.instances.push_back(std::move(i));
                for (auto &n : included.topology) out.topology.push_back(std::move(n));
            } else if (t.type == token::kind::word && t.text == "instantiate") {
                out.instances.push_back(parse_instantiate());
            } else if (t.type == token::kind::word && t.text == "topology") {
                next();
                out.topology.push_back(parse_topology_node());
            } else if (t.type == token::kind::word &&
                       (peek(1).is('{') || (peek(1).is_word() && peek(2).is('{')))) {
                out.blocks.push_back(parse_block("top level"));
            } else {
                throw spec_error(here(), "unexpected " + t.shown() + " at top level",
                                 "`TYPE NAME { ... }`, `source FILE` or "
                                 "`instantiate [ ... ] as NAME`");
            }
        }
    }

    // A sourced value: the whole file is one value, as if pasted where `source` stood.
    param_value parse_sole_value(const std::string &key) {
        if (peek().type == token::kind::end)
            throw spec_error(here(), "sourced file for '" + key + "' is empty",
                             "a value, typically a dm_disk block");
        param_value v = parse_value(key);
        if (peek().type != token::kind::end)
            throw spec_error(here(), "unexpected " + peek().shown() + " after the value of '" +
                                         key + "'",
                             "the sourced file to hold a single value");
        return v;
    }

    static param_file parse_file_at(const std::string &path, const source_location *sourced_at,
                                    int depth) {
        check_depth(path, sourced_at, depth);
        parser p(path, read_file(path, sourced_at), depth);
        param_file out;
        p.parse_top_level(out);
        return out;
    }

private:
    const token &peek(size_t ahead = 0) const {
        size_t i = std::min(m_pos + ahead, m_tokens.size() - 1);
        return m_tokens[i];
    }
    const token &next() {
        const token &t = m_tokens[m_pos];
        if (m_pos + 1 < m_tokens.size()) ++m_pos;
        return t;
    }
    source_location here() const { return {m_file, peek().line}; }
    source_location at(const token &t) const { return {m_file, t.line}; }

    static void check_depth(const std::string &path, const source_location *sourced_at,
                            int depth) {
        if (depth > max_source_depth)
            throw spec_error(sourced_at ? *sourced_at : source_location{path, 0},
                             "`source` nested deeper than " + std::to_string(max_source_depth) +
                                 " files (does '" + path + "' source itself?)",
                             "no circular `source` directives");
    }

    // Does an entry `KEY ... =` start at token `ahead`? Used to tell an unclosed list from a
    // list with a missing comma.
    bool entry_starts_at(size_t ahead) const {
        const token &first = peek(ahead);
        if (first.type != token::kind::word) return false;
        size_t i = ahead;
        while (peek(i).type == token::kind::word && peek(i).line == first.line) ++i;
        return peek(i).is('=');
    }

    param_block parse_block(const std::string &context) {
        param_block b;
        const token &type = next();
        b.type = type.text;
        b.where = at(type);
        if (peek().is_word()) b.name = next().text;
        next();  // '{', checked by the caller
        std::string label = b.name.empty() ? b.type : b.type + " " + b.name;
        for (;;) {
            const token &t = peek();
            if (t.is('}')) {
                next();
                return b;
            }
            if (t.type == token::kind::end)
                throw spec_error(b.where, "block '" + label + "' (" + context +
                                              ") is not closed",
                                 "'}' before the end of the file");
            if (t.type != token::kind::word)
                throw spec_error(here(), "unexpected " + t.shown() + " in block '" + label +
                                             "' opened at line " + std::to_string(b.where.line),
                                 "a parameter name or '}'");
            param_entry e;
            e.where = here();
            int key_line = t.line;
            while (peek().type == token::kind::word && peek().line == key_line) {
                if (!e.key.empty()) e.key += ' ';
                e.key += next().text;
            }
            if (!peek().is('='))
                throw spec_error(e.where, "parameter '" + e.key + "' has no '='",
                                 "`name = value` (before " + peek().shown() + ")");
            next();
            e.value = parse_value(e.key);
            bool compound = e.value.type == param_value::kind::block ||
                            e.value.type == param_value::kind::list;
            const token &after = peek();
            if (after.is(',')) {
                next();
            } else if (after.is('}') || after.type == token::kind::end) {
                // closes the block (or reports it unclosed) on the next turn
            } else if (compound && after.type == token::kind::word && after.line > key_line) {
                // a comma left out after ']' or '}' at a line end; libparam accepts it
            } else {
                throw spec_error(e.value.where,
                                 "no ',' after the value of '" + e.key + "' (found " +
                                     after.shown() + " on line " + std::to_string(after.line) +
                                     ")",
                                 "',' between parameters or '}' to end the block");
            }
            b.entries.push_back(std::move(e));
        }
    }

    param_value parse_list(const std::string &key) {
        param_value v;
        v.type = param_value::kind::list;
        v.text = "[...]";
        v.where = here();
        next();  // '['
        auto unclosed = [&](const token &found) {
            return spec_error(v.where,
                              "list for '" + key + "' is not closed (found " + found.shown() +
                                  (found.type == token::kind::end
                                       ? ""
                                       : " on line " + std::to_string(found.line)) +
                                  ")",
                              "']' to end the list");
        };
        for (;;) {
            const token &t = peek();
            if (t.is(']')) {
                next();
                return v;
            }
            if (t.type == token::kind::end || t.is('}') || t.is('=') || entry_starts_at(0))
                throw unclosed(t);
            v.list.push_back(parse_value(key));
            // `devices = [ disk0 .. disk8 ]` (logorgs, syncsets): a range of names, as in instantiate.
            if (peek().is_word() && peek().text == ".." && v.list.back().type == param_value::kind::word) {
                const source_location range_at = at(next());
                if (!peek().is_word())
                    throw spec_error(range_at, "'..' without a name on each side", "`NAME0 .. NAME9`");
                param_value first = v.list.back();
                v.list.pop_back();
                std::vector<std::string> names{first.text};
                expand_range(first.text, next().text, range_at, names);
                for (auto &n : names) {
                    param_value w = first;
                    w.text = n;
                    v.list.push_back(w);
                }
            }
            const token &after = peek();
            if (after.is(',')) {
                next();
            } else if (after.is(']')) {
                // ends on the next turn
            } else if (after.type == token::kind::end || after.is('}') || after.is('=') ||
                       entry_starts_at(0)) {
                throw unclosed(after);
            } else {
                throw spec_error(here(), "unexpected " + after.shown() + " in the list for '" +
                                             key + "'",
                                 "',' between list elements or ']' to end the list");
            }
        }
    }

    // One more level of lists or blocks for as long as it lives.
    class nesting_guard {
    public:
        explicit nesting_guard(parser &p) : m_parser(p) {
            if (++m_parser.m_nesting > max_nesting)
                throw spec_error(p.here(), "lists and blocks nested deeper than " + std::to_string(max_nesting) + " levels",
                                 "at most " + std::to_string(max_nesting) +
                                     " levels of '[' and '{' inside each other (DiskSim's own specs use 5)");
        }
        ~nesting_guard() { --m_parser.m_nesting; }
        nesting_guard(const nesting_guard &) = delete;
        nesting_guard &operator=(const nesting_guard &) = delete;

    private:
        parser &m_parser;
    };

    param_value parse_value(const std::string &key) {
        const token &t = peek();
        if (t.is('[')) {
            nesting_guard level(*this);
            return parse_list(key);
        }
        if (t.type == token::kind::word && t.text == "source" && peek(1).is_word()) {
            source_location at_source = here();
            next();
            std::string path = resolve_source_path(m_file, next().text);
            check_depth(path, &at_source, m_depth + 1);
            parser p(path, read_file(path, &at_source), m_depth + 1);
            p.m_nesting = m_nesting;  // the sourced value sits at this level
            param_value v = p.parse_sole_value(key);
            v.sourced_at = at_source;
            return v;
        }
        if (t.type == token::kind::word &&
            (peek(1).is('{') || (peek(1).is_word() && peek(2).is('{')))) {
            nesting_guard level(*this);
            param_value v;
            v.type = param_value::kind::block;
            v.text = t.text;
            v.where = here();
            v.block = std::make_shared<const param_block>(parse_block("value of '" + key + "'"));
            return v;
        }
        if (t.is_word()) {
            param_value v;
            v.where = here();
            v.text = t.text;
            if (t.type == token::kind::word && parse_integer(t.text, v.integer)) {
                v.type = param_value::kind::integer;
                v.real = static_cast<double>(v.integer);
            } else if (t.type == token::kind::word && parse_real(t.text, v.real)) {
                v.type = param_value::kind::real;
            } else {
                v.type = param_value::kind::word;
            }
            next();
            return v;
        }
        if (t.is('{'))
            throw spec_error(here(), "block for '" + key + "' has no type",
                             "`TYPE { ... }`, e.g. `dm_layout_g1 { ... }`");
        throw spec_error(here(), "'" + key + "' has no value (found " + t.shown() + ")",
                         "a number, word, block or list after '='");
    }

    // `instantiate [ disk0 .. disk3 ] as NAME`: the list uses `..` ranges without commas.
    param_instantiation parse_instantiate() {
        param_instantiation inst;
        inst.where = here();
        const std::string form = "`instantiate [ NAMES ] as TYPE`";
        next();
        if (!peek().is('['))
            throw spec_error(here(), "'instantiate' is not followed by '['", form);
        next();
        while (!peek().is(']')) {
            const token &t = next();
            if (t.type == token::kind::end)
                throw spec_error(inst.where, "'[' is not closed", "']' before the end of the file");
            if (t.is(',')) continue;
            if (!t.is_word())
                throw spec_error(at(t), "unexpected " + t.shown() + " in the instance list", form);
            if (t.text == "..") {
                if (inst.names.empty() || !peek().is_word())
                    throw spec_error(at(t), "'..' without a name on each side", "`NAME0 .. NAME9`");
                expand_range(inst.names.back(), next().text, at(t), inst.names);
            } else {
                inst.names.push_back(t.text);
            }
        }
        next();  // ']'
        if (!(peek().type == token::kind::word && peek().text == "as") || !peek(1).is_word())
            throw spec_error(here(), "'instantiate [ ... ]' is not followed by 'as NAME'", form);
        next();
        inst.type = next().text;
        return inst;
    }

    // `disk0 .. disk3`: same prefix, numeric suffixes ascending; the first is already listed.
    static void expand_range(const std::string &first, const std::string &last, const source_location &where,
                             std::vector<std::string> &out) {
        auto split = [](const std::string &n) {
            size_t d = n.size();
            while (d > 0 && std::isdigit(static_cast<unsigned char>(n[d - 1]))) --d;
            return std::make_pair(n.substr(0, d), n.substr(d));
        };
        const auto [p1, n1] = split(first);
        const auto [p2, n2] = split(last);
        if (p1 != p2 || n1.empty() || n2.empty() || n1.size() > 9 || n2.size() > 9 || std::stol(n2) < std::stol(n1))
            throw spec_error(where, "range '" + first + " .. " + last + "' is not a numbered range",
                             "two names with the same prefix and ascending numbers, e.g. `disk0 .. disk3`");
        // A system has at most a few thousand devices; a larger range is a typo, not a system.
        constexpr long max_range = 100000;
        if (std::stol(n2) - std::stol(n1) >= max_range)
            throw spec_error(where, "range '" + first + " .. " + last + "' names more than " +
                                        std::to_string(max_range) + " instances",
                             "a range of at most " + std::to_string(max_range) + " names");
        for (long k = std::stol(n1) + 1; k <= std::stol(n2); ++k) out.push_back(p1 + std::to_string(k));
    }

    // `TYPE NAME [ TYPE NAME [ ... ] ... ]` (the keyword `topology` already taken).
    topology_node parse_topology_node(int depth = 0) {
        topology_node n;
        n.where = here();
        // Driver, buses, controllers, disk: a real system is a handful of levels deep.
        constexpr int max_topology_depth = 64;
        if (depth > max_topology_depth)
            throw spec_error(here(), "topology nested deeper than " + std::to_string(max_topology_depth) + " levels",
                             "a topology of iodrivers, buses, controllers and disks");
        const std::string form = "`TYPE NAME [ ... ]` in a topology";
        if (!peek().is_word() || !peek(1).is_word() || !peek(2).is('['))
            throw spec_error(here(), "unexpected " + peek().shown() + " in a topology", form);
        n.type = next().text;
        n.name = next().text;
        next();  // '['
        for (;;) {
            if (peek().is(']')) {
                next();
                return n;
            }
            if (peek().is(',')) {
                next();
                continue;
            }
            if (peek().type == token::kind::end)
                throw spec_error(n.where, "topology of '" + n.name + "' is not closed",
                                 "']' before the end of the file");
            n.children.push_back(parse_topology_node(depth + 1));
        }
    }

    std::string m_file;
    std::vector<token> m_tokens;
    size_t m_pos = 0;
    int m_depth;
    int m_nesting = 0;  // lists and blocks open at the current token
};

}  // namespace

std::string resolve_source_path(const std::string &including_file, const std::string &name) {
    fs::path p(name);
    if (p.is_absolute()) return name;
    fs::path dir = fs::path(including_file).parent_path();
    return dir.empty() ? name : (dir / p).string();
}

param_file parse_param_file(const std::string &path) {
    return parser::parse_file_at(path, nullptr, 0);
}

}  // namespace raidtlm::disks
