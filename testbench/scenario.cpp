#include "testbench/scenario.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <set>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace raidtlm::testbench {

namespace fs = std::filesystem;

const char *to_string(arrival_process v) { return v == arrival_process::open ? "open" : "closed"; }
const char *to_string(address_pattern v) {
    switch (v) {
    case address_pattern::uniform: return "uniform";
    case address_pattern::sequential: return "sequential";
    case address_pattern::local: return "local";
    }
    return "?";
}

std::string scenario::where(const std::string &key) const {
    auto it = origin.find(key);
    if (it != origin.end()) return it->second;
    return file.empty() ? std::string("<scenario>") : file;
}

scenario_error scenario::error(const std::string &key, const std::string &problem,
                               const std::string &expected) const {
    return scenario_error(fmt::format("{}: key '{}': {}; expected {}", where(key), key, problem, expected));
}

nlohmann::json scenario::to_json() const {
    nlohmann::json j;
    j["disks"] = {{"spec", disks.spec_path},
                  {"name", disks.spec_name},
                  {"count", disks.count},
                  {"spindle_sync", disks.spindle_sync}};
    j["host"] = {{"layout", to_string(host.layout)}, {"stripe_unit_sectors", host.stripe_unit_sectors}};
    const auto &w = workload;
    j["workload"] = {{"arrival", to_string(w.arrival)},
                     {"mean_interarrival_ms", w.mean_interarrival_ms},
                     {"outstanding", w.outstanding},
                     {"think_time_ms", w.think_time_ms},
                     {"read_fraction", w.read_fraction},
                     {"request_sectors", w.request_sectors},
                     {"alignment_sectors", w.alignment_sectors},
                     {"address", to_string(w.address)},
                     {"local_stddev_sectors", w.local_stddev_sectors},
                     {"requests", w.requests},
                     {"warmup_requests", w.warmup_requests},
                     {"seed", w.seed}};
    j["output"] = {{"histogram_bucket_ms", output.histogram_bucket_ms},
                   {"histogram_max_ms", output.histogram_max_ms},
                   {"waves", output.waves}};
    return j;
}

namespace {

// A value to read, and where it came from.
struct value_ref {
    YAML::Node node;
    std::string where;
    bool from_set = false;
};

struct load_context {
    fs::path scenario_dir;
    std::string repo_root;
};

[[noreturn]] void fail(const value_ref &v, const std::string &key, const std::string &problem,
                       const std::string &expected) {
    throw scenario_error(fmt::format("{}: key '{}': {}; expected {}", v.where, key, problem, expected));
}

const char *kind_of(const YAML::Node &n) {
    switch (n.Type()) {
    case YAML::NodeType::Map: return "a map";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Null: return "empty";
    default: return "a scalar";
    }
}

std::string scalar(const value_ref &v, const std::string &key, const std::string &expected) {
    if (v.node.IsNull()) fail(v, key, "missing value", expected);
    if (!v.node.IsScalar()) fail(v, key, fmt::format("value is {}", kind_of(v.node)), expected);
    return v.node.Scalar();
}

double get_double(const value_ref &v, const std::string &key, const std::string &expected, double lo,
                  bool lo_open, double hi) {
    const std::string s = scalar(v, key, expected);
    char *end = nullptr;
    errno = 0;
    const double d = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(d))
        fail(v, key, fmt::format("'{}' is not a number", s), expected);
    if (d < lo || (lo_open && d == lo) || d > hi) fail(v, key, fmt::format("{} is out of range", s), expected);
    return d;
}

int64_t get_int(const value_ref &v, const std::string &key, const std::string &expected, int64_t lo,
                int64_t hi) {
    const std::string s = scalar(v, key, expected);
    char *end = nullptr;
    errno = 0;
    const long long i = std::strtoll(s.c_str(), &end, 10);
    if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE)
        fail(v, key, fmt::format("'{}' is not an integer", s), expected);
    if (i < lo || i > hi) fail(v, key, fmt::format("{} is out of range", s), expected);
    return i;
}

uint64_t get_uint64(const value_ref &v, const std::string &key, const std::string &expected) {
    const std::string s = scalar(v, key, expected);
    char *end = nullptr;
    errno = 0;
    const unsigned long long i = std::strtoull(s.c_str(), &end, 10);
    if (s.empty() || s[0] == '-' || s[0] == '+' || end != s.c_str() + s.size() || errno == ERANGE)
        fail(v, key, fmt::format("'{}' is not a non-negative integer", s), expected);
    return i;
}

bool get_bool(const value_ref &v, const std::string &key, const std::string &expected) {
    const std::string s = scalar(v, key, expected);
    if (s == "true" || s == "True" || s == "TRUE") return true;
    if (s == "false" || s == "False" || s == "FALSE") return false;
    fail(v, key, fmt::format("'{}' is not a boolean", s), expected);
}

template <class E>
E get_enum(const value_ref &v, const std::string &key, const std::string &expected,
           std::initializer_list<std::pair<const char *, E>> choices) {
    const std::string s = scalar(v, key, expected);
    for (const auto &c : choices)
        if (s == c.first) return c.second;
    fail(v, key, fmt::format("'{}' is not a valid choice", s), expected);
}

using apply_fn = std::function<void(scenario &, const value_ref &, const load_context &)>;

struct key_def {
    scenario_key_info info;
    apply_fn apply;
};

std::string resolve_spec(const std::string &given, const value_ref &v, const std::string &key,
                         const std::string &expected, const load_context &ctx) {
    const fs::path p(given);
    std::vector<fs::path> tries;
    if (p.is_absolute()) {
        tries.push_back(p);
    } else {
        if (v.from_set) tries.push_back(fs::current_path() / p);
        tries.push_back(ctx.scenario_dir / p);
        if (!ctx.repo_root.empty()) tries.push_back(fs::path(ctx.repo_root) / p);
    }
    std::string tried;
    std::set<std::string> seen;
    for (const auto &t : tries) {
        std::error_code ec;
        const std::string norm = t.lexically_normal().string();
        if (fs::is_regular_file(t, ec)) return norm;
        if (seen.insert(norm).second) tried += (tried.empty() ? "" : ", ") + norm;
    }
    fail(v, key, fmt::format("file '{}' not found (tried {})", given, tried), expected);
}

const std::vector<key_def> &key_defs() {
    static const std::vector<key_def> defs = [] {
        std::vector<key_def> d;
        auto add = [&d](const char *key, const char *fallback, const char *expected, apply_fn fn) {
            d.push_back({{key, fallback, expected}, std::move(fn)});
        };
        add("disks.spec", "", "a path to a DiskSim .diskspecs file, relative to the scenario file or the repo root",
            [](scenario &s, const value_ref &v, const load_context &ctx) {
                const std::string k = "disks.spec", e = "a path to a DiskSim .diskspecs file, relative to the "
                                                       "scenario file or the repo root";
                s.disks.spec_path = resolve_spec(scalar(v, k, e), v, k, e, ctx);
            });
        add("disks.name", "\"\"", "the name of a disksim_disk block in the spec file, or \"\" when it holds one",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.disks.spec_name = v.node.IsNull() ? std::string()
                                                    : scalar(v, "disks.name", "a disk name or \"\"");
            });
        add("disks.count", "4", "an integer in [1, 256]", [](scenario &s, const value_ref &v, const load_context &) {
            s.disks.count = static_cast<int>(get_int(v, "disks.count", "an integer in [1, 256]", 1, 256));
        });
        add("disks.spindle_sync", "false", "true or false", [](scenario &s, const value_ref &v, const load_context &) {
            s.disks.spindle_sync = get_bool(v, "disks.spindle_sync", "true or false");
        });
        add("host.layout", "stripe", "jbod or stripe", [](scenario &s, const value_ref &v, const load_context &) {
            s.host.layout = get_enum<host_layout>(v, "host.layout", "jbod or stripe",
                                                  {{"jbod", host_layout::jbod}, {"stripe", host_layout::stripe}});
        });
        add("host.stripe_unit_sectors", "64", "an integer in [1, 2^31)",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.host.stripe_unit_sectors = static_cast<uint64_t>(
                    get_int(v, "host.stripe_unit_sectors", "an integer in [1, 2^31)", 1, INT32_MAX));
            });
        add("workload.arrival", "closed", "open or closed", [](scenario &s, const value_ref &v, const load_context &) {
            s.workload.arrival = get_enum<arrival_process>(
                v, "workload.arrival", "open or closed",
                {{"open", arrival_process::open}, {"closed", arrival_process::closed}});
        });
        add("workload.mean_interarrival_ms", "10", "a number > 0",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.workload.mean_interarrival_ms =
                    get_double(v, "workload.mean_interarrival_ms", "a number > 0", 0, true, 1e12);
            });
        add("workload.outstanding", "8", "an integer in [1, 100000]",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.workload.outstanding =
                    static_cast<int>(get_int(v, "workload.outstanding", "an integer in [1, 100000]", 1, 100000));
            });
        add("workload.think_time_ms", "0", "a number >= 0", [](scenario &s, const value_ref &v, const load_context &) {
            s.workload.think_time_ms = get_double(v, "workload.think_time_ms", "a number >= 0", 0, false, 1e12);
        });
        add("workload.read_fraction", "0.67", "a number in [0, 1]",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.workload.read_fraction = get_double(v, "workload.read_fraction", "a number in [0, 1]", 0, false, 1);
            });
        add("workload.request_sectors", "8", "an integer in [1, 65536]",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.workload.request_sectors = static_cast<uint32_t>(
                    get_int(v, "workload.request_sectors", "an integer in [1, 65536]", 1, 65536));
            });
        add("workload.alignment_sectors", "8", "an integer in [1, 2^31)",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.workload.alignment_sectors = static_cast<uint32_t>(
                    get_int(v, "workload.alignment_sectors", "an integer in [1, 2^31)", 1, INT32_MAX));
            });
        add("workload.address", "uniform", "uniform, sequential or local",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.workload.address = get_enum<address_pattern>(v, "workload.address", "uniform, sequential or local",
                                                               {{"uniform", address_pattern::uniform},
                                                                {"sequential", address_pattern::sequential},
                                                                {"local", address_pattern::local}});
            });
        add("workload.local_stddev_sectors", "10000", "a number >= 0",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.workload.local_stddev_sectors =
                    get_double(v, "workload.local_stddev_sectors", "a number >= 0", 0, false, 1e15);
            });
        add("workload.requests", "20000", "an integer in [1, 10^12]",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.workload.requests = static_cast<uint64_t>(
                    get_int(v, "workload.requests", "an integer in [1, 10^12]", 1, 1000000000000LL));
            });
        add("workload.warmup_requests", "500", "an integer in [0, 10^12]",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.workload.warmup_requests = static_cast<uint64_t>(
                    get_int(v, "workload.warmup_requests", "an integer in [0, 10^12]", 0, 1000000000000LL));
            });
        add("workload.seed", "1", "a non-negative integer", [](scenario &s, const value_ref &v, const load_context &) {
            s.workload.seed = get_uint64(v, "workload.seed", "a non-negative integer");
        });
        add("output.histogram_bucket_ms", "0.5", "a number > 0",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.output.histogram_bucket_ms = get_double(v, "output.histogram_bucket_ms", "a number > 0", 0, true, 1e9);
            });
        add("output.histogram_max_ms", "200", "a number > 0, at most 100000 buckets",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.output.histogram_max_ms =
                    get_double(v, "output.histogram_max_ms", "a number > 0, at most 100000 buckets", 0, true, 1e12);
            });
        add("output.waves", "true", "true or false", [](scenario &s, const value_ref &v, const load_context &) {
            s.output.waves = get_bool(v, "output.waves", "true or false");
        });
        return d;
    }();
    return defs;
}

const key_def *find_key(const std::string &key) {
    for (const auto &d : key_defs())
        if (d.info.key == key) return &d;
    return nullptr;
}

std::vector<std::string> sections() {
    std::vector<std::string> out;
    for (const auto &d : key_defs()) {
        const std::string sec = d.info.key.substr(0, d.info.key.find('.'));
        if (out.empty() || out.back() != sec) out.push_back(sec);
    }
    return out;
}

std::string join(const std::vector<std::string> &v, const char *sep = ", ") {
    std::string s;
    for (const auto &x : v) s += (s.empty() ? "" : sep) + x;
    return s;
}

std::vector<std::string> keys_of_section(const std::string &sec) {
    std::vector<std::string> out;
    for (const auto &d : key_defs())
        if (d.info.key.compare(0, sec.size() + 1, sec + ".") == 0) out.push_back(d.info.key.substr(sec.size() + 1));
    return out;
}

std::string mark_str(const std::string &file, const YAML::Mark &m) {
    if (m.is_null()) return file + ":1:1";
    return fmt::format("{}:{}:{}", file, m.line + 1, m.column + 1);
}

// The mark of a value, or of its key when the value carries none (an empty value).
std::string where_of(const std::string &file, const YAML::Node &key, const YAML::Node &value) {
    const YAML::Mark m = value.Mark();
    return mark_str(file, m.is_null() ? key.Mark() : m);
}

}  // namespace

const std::vector<scenario_key_info> &scenario_keys() {
    static const std::vector<scenario_key_info> keys = [] {
        std::vector<scenario_key_info> k;
        for (const auto &d : key_defs()) k.push_back(d.info);
        return k;
    }();
    return keys;
}

scenario_override parse_override(const std::string &text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw scenario_error(fmt::format("--set {}: not a key=value pair; expected e.g. --set workload.read_fraction=1.0",
                                         text));
    return {text.substr(0, eq), text.substr(eq + 1)};
}

scenario load_scenario(const std::string &path, const std::vector<scenario_override> &overrides,
                       const std::string &repo_root) {
    const std::string map_expected = "a map with sections " + join(sections());
    std::error_code ec;
    if (!fs::exists(path, ec))
        throw scenario_error(fmt::format("{}: scenario file not found; expected a path to a YAML scenario", path));
    if (!fs::is_regular_file(path, ec))
        throw scenario_error(fmt::format("{}: not a regular file; expected a path to a YAML scenario", path));

    YAML::Node root;
    try {
        root = YAML::LoadFile(path);
    } catch (const YAML::BadFile &) {
        throw scenario_error(fmt::format("{}: cannot read the scenario file; expected a readable YAML file", path));
    } catch (const YAML::ParserException &e) {
        throw scenario_error(fmt::format("{}: YAML syntax error: {}; expected {}", mark_str(path, e.mark), e.msg,
                                         map_expected));
    }
    if (root.IsNull())
        throw scenario_error(fmt::format("{}:1:1: the scenario is empty; expected {}", path, map_expected));
    if (!root.IsMap())
        throw scenario_error(fmt::format("{}: the scenario is {}; expected {}", mark_str(path, root.Mark()),
                                         kind_of(root), map_expected));

    std::map<std::string, value_ref> found;
    std::map<std::string, std::string> section_where;
    const auto known_sections = sections();
    for (const auto &sec_it : root) {
        const YAML::Node &sk = sec_it.first;
        const YAML::Node &sv = sec_it.second;
        const std::string sec = sk.IsScalar() ? sk.Scalar() : std::string("?");
        const std::string sec_where = mark_str(path, sk.Mark());
        if (std::find(known_sections.begin(), known_sections.end(), sec) == known_sections.end())
            throw scenario_error(fmt::format("{}: key '{}': unknown section; expected one of: {}", sec_where, sec,
                                             join(known_sections)));
        if (section_where.count(sec))
            throw scenario_error(fmt::format("{}: key '{}': section given twice (first at {}); expected it once",
                                             sec_where, sec, section_where[sec]));
        section_where[sec] = sec_where;
        if (!sv.IsMap())
            throw scenario_error(fmt::format("{}: key '{}': section is {}; expected a map of keys: {}",
                                             where_of(path, sk, sv), sec, kind_of(sv), join(keys_of_section(sec))));
        for (const auto &it : sv) {
            const std::string name = it.first.IsScalar() ? it.first.Scalar() : std::string("?");
            const std::string dotted = sec + "." + name;
            const std::string key_where = mark_str(path, it.first.Mark());
            if (!find_key(dotted))
                throw scenario_error(fmt::format("{}: key '{}': unknown key; expected one of: {}", key_where, dotted,
                                                 join(keys_of_section(sec))));
            if (found.count(dotted))
                throw scenario_error(fmt::format("{}: key '{}': given twice (first at {}); expected it once",
                                                 key_where, dotted, found[dotted].where));
            found[dotted] = value_ref{it.second, where_of(path, it.first, it.second), false};
        }
    }

    for (const auto &o : overrides) {
        const std::string where = fmt::format("--set {}={}", o.key, o.value);
        if (!find_key(o.key)) {
            std::vector<std::string> all;
            for (const auto &d : key_defs()) all.push_back(d.info.key);
            const bool is_section =
                std::find(known_sections.begin(), known_sections.end(), o.key) != known_sections.end();
            throw scenario_error(fmt::format("{}: key '{}': {}; expected one of: {}", where, o.key,
                                             is_section ? "is a section, not a key" : "unknown key", join(all)));
        }
        YAML::Node node;
        try {
            node = YAML::Load(o.value);
        } catch (const YAML::ParserException &e) {
            throw scenario_error(fmt::format("{}: key '{}': not a YAML value ({}); expected {}", where, o.key, e.msg,
                                             find_key(o.key)->info.expected));
        }
        found[o.key] = value_ref{node, where, true};
    }

    scenario s;
    s.file = path;
    load_context ctx{fs::absolute(fs::path(path)).parent_path(), repo_root};
    for (const auto &d : key_defs()) {
        auto it = found.find(d.info.key);
        if (it == found.end()) {
            if (d.info.fallback.empty()) {
                const std::string sec = d.info.key.substr(0, d.info.key.find('.'));
                const std::string where = section_where.count(sec) ? section_where[sec] : path + ":1:1";
                throw scenario_error(
                    fmt::format("{}: key '{}': missing; expected {}", where, d.info.key, d.info.expected));
            }
            continue;
        }
        d.apply(s, it->second, ctx);
        s.origin[d.info.key] = it->second.where;
    }

    // Checks across keys.
    const double buckets = s.output.histogram_max_ms / s.output.histogram_bucket_ms;
    if (buckets > 100000)
        throw s.error("output.histogram_max_ms",
                      fmt::format("{} ms in buckets of {} ms is {:.0f} buckets", s.output.histogram_max_ms,
                                  s.output.histogram_bucket_ms, buckets),
                      "at most 100000 buckets (raise output.histogram_bucket_ms)");
    if (s.output.histogram_max_ms < s.output.histogram_bucket_ms)
        throw s.error("output.histogram_max_ms", "smaller than output.histogram_bucket_ms",
                      "a number >= output.histogram_bucket_ms");
    return s;
}

}  // namespace raidtlm::testbench
