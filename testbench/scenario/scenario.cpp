#include "testbench/scenario/scenario.h"

#include <filesystem>

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include "config/shown_text.h"
#include "testbench/scenario/scenario_sections.h"

namespace raidtlm::testbench {

namespace fs = std::filesystem;

std::string scenario::where(const std::string &key) const {
    auto it = origin.find(key);
    if (it != origin.end()) return it->second;
    return file.empty() ? std::string("<scenario>") : file;
}

scenario_error scenario::error(const std::string &key, const std::string &problem,
                               const std::string &expected) const {
    return scenario_error(fmt::format("{}: key '{}': {}; expected {}", where(key), key, problem, expected));
}

nlohmann::json scenario::to_json() const { return scenario_declarations().echo(*this); }

const std::vector<scenario_key_info> &scenario_keys() {
    // Rebuilt when plug-ins registered keys since the last call (registration may follow the
    // first use, e.g. in a test).
    static std::vector<scenario_key_info> keys;
    static size_t generation = size_t(-1);
    if (generation != config::plugin_generation()) {
        keys = scenario_declarations().infos();
        generation = config::plugin_generation();
    }
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
    const scenario_keys_t decls = scenario_declarations();
    const std::vector<config::key_info> keys = decls.infos();
    const std::string map_expected = "a map with sections " + config::join(config::sections_of(keys));
    std::error_code ec;
    if (!fs::exists(path, ec))
        throw scenario_error(fmt::format("{}: scenario file not found; expected a path to a YAML scenario", path));
    if (!fs::is_regular_file(path, ec))
        throw scenario_error(fmt::format("{}: not a regular file; expected a path to a YAML scenario", path));

    // Checked before parsing: yaml-cpp holds ~100 bytes per byte of a list-heavy file (a 100 MB
    // rate_schedule took 9.4 GB and 80 s, issue 13).
    const uintmax_t bytes = fs::file_size(path, ec);
    if (!ec && bytes > max_scenario_bytes)
        throw scenario_error(fmt::format("{}: the scenario file is {} bytes; expected at most {} bytes (scenarios are "
                                         "written by hand; a long request stream belongs in a trace file, trace.file)",
                                         path, bytes, max_scenario_bytes));

    YAML::Node root;
    try {
        root = YAML::LoadFile(path);
    } catch (const YAML::BadFile &) {
        throw scenario_error(fmt::format("{}: cannot read the scenario file; expected a readable YAML file", path));
    } catch (const YAML::ParserException &e) {
        // yaml-cpp's message may quote the offending character, a line break included.
        const bool nesting = dynamic_cast<const YAML::DeepRecursion *>(&e) != nullptr;
        throw scenario_error(config::one_line_message(
            fmt::format("{}: {}{}; expected {}", config::mark_str(path, e.mark), nesting ? "" : "YAML syntax error: ",
                        config::yaml_problem(e), nesting ? config::scenario_nesting_expected : map_expected)));
    }
    if (root.IsNull())
        throw scenario_error(fmt::format("{}:1:1: the scenario is empty; expected {}", path, map_expected));
    if (!root.IsMap())
        throw scenario_error(fmt::format("{}: the scenario is {}; expected {}", config::mark_str(path, root.Mark()),
                                         config::kind_of(root), map_expected));

    const config::given_values given = config::collect_values(keys, root, path, overrides);
    config::require_given(keys, given, path);

    scenario s;
    s.file = path;
    const config::file_context files{fs::absolute(fs::path(path)).parent_path(), repo_root};
    config::read_given(decls, s, given, files, s.origin);

    // Values one block takes from another: the firmware stripes as the host addresses, and a
    // steady-state parity log is filled from the workload's seed.
    controller::firmware_config &fw = s.controller.config.firmware;
    fw.layout = s.host.layout;
    fw.stripe_unit_sectors = s.host.stripe_unit_sectors;
    fw.parity_logging.steady_state_seed = s.workload.seed;
    // A heterogeneous array has as many disks as disks.specs names.
    if (!s.disks.spec_paths.empty() && !s.origin.count("disks.count")) s.disks.count = int(s.disks.spec_paths.size());
    // A firmware plug-in reads its own keys from the controller's configuration.
    s.controller.config.plugins = s.plugins;

    decls.run_checks(s, config::key_checks([&s](const std::string &key) { return s.origin.count(key) != 0; },
                                           [&s](const std::string &key) { return s.where(key); }));
    return s;
}

}  // namespace raidtlm::testbench
