// What every system test needs: run the `raidtlm` binary from the repository root in a scratch
// directory and read what it wrote.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace system_test {

namespace fs = std::filesystem;

inline const std::string binary = RAIDTLM_BINARY;
inline const std::string source_dir = RAIDTLM_SOURCE_DIR;
inline const std::string cheetah_spec = "../shared/reference/disksim/validation/cheetah9LP.diskspecs";

inline std::string read_file(const fs::path &p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// A fresh directory for this test, removed at the end of the test unless it failed.
class scratch_dir {
public:
    scratch_dir() {
        const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
        m_dir = fs::temp_directory_path() / ("raidtlm_system_" + std::to_string(getpid()) + "_" +
                                             info->test_suite_name() + "_" + info->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    ~scratch_dir() {
        std::error_code ec;
        if (!::testing::Test::HasFailure()) fs::remove_all(m_dir, ec);
    }
    operator const fs::path &() const { return m_dir; }
    fs::path operator/(const std::string &name) const { return m_dir / name; }

private:
    fs::path m_dir;
};

inline fs::path write_temp(const fs::path &dir, const std::string &name, const std::string &text) {
    const fs::path p = dir / name;
    std::ofstream(p) << text;
    return p;
}

struct result {
    int code = -1;
    std::string out, err;
};

// A failed run: exit `code` and exactly one short line on stderr ("raidtlm: ..."), mentioning
// every needle.
inline void expect_one_line_error(const result &r, int code, const std::vector<std::string> &needles) {
    EXPECT_EQ(r.code, code) << r.err;
    ASSERT_FALSE(r.err.empty());
    EXPECT_EQ(r.err.back(), '\n');
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line:\n" << r.err.substr(0, 2000);
    EXPECT_EQ(r.err.rfind("raidtlm: ", 0), 0u) << r.err.substr(0, 2000);
    EXPECT_LT(r.err.size(), 2500u) << "a long message: " << r.err.substr(0, 2000);
    for (const auto &n : needles)
        EXPECT_NE(r.err.find(n), std::string::npos) << "missing '" << n << "' in " << r.err.substr(0, 2000);
}

// Under AddressSanitizer (scripts/test --sanitize) a run that throws on a SystemC thread's stack
// gets ASan's one warning that it cannot follow the coroutine stack switch (EXPERIMENTS.md 10):
// exactly these three lines, once per process. They are removed, and nothing else, so the checks
// of raidtlm's own stderr hold in both builds.
inline std::string without_asan_coroutine_warning(const std::string &err) {
    static const std::regex warning(
        "==[0-9]+==WARNING: ASan is ignoring requested __asan_handle_no_return: stack type: [a-z]+ top: 0x[0-9a-f]+; "
        "bottom 0x[0-9a-f]+; size: 0x[0-9a-f]+ \\(-?[0-9]+\\)\n"
        "False positive error reports may follow\n"
        "For details see https://github\\.com/google/sanitizers/issues/189\n");
    return std::regex_replace(err, warning, "", std::regex_constants::format_first_only);
}

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool under_asan = true;
#else
inline constexpr bool under_asan = false;
#endif

// Runs `raidtlm <args>` from the repository root.
inline result raidtlm(const std::string &args, const fs::path &dir) {
    const fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
    const std::string cmd = "cd '" + source_dir + "' && '" + binary + "' " + args + " > '" + out.string() + "' 2> '" +
                            err.string() + "' < /dev/null";
    const int status = std::system(cmd.c_str());
    result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = read_file(out);
    r.err = read_file(err);
    if (under_asan) r.err = without_asan_coroutine_warning(r.err);
    return r;
}

// `raidtlm run <args> --quiet --out <dir>/<name>` and its stats.json (null, with a test failure,
// when the run fails).
inline nlohmann::json run_json(const std::string &args, const fs::path &dir, const std::string &name) {
    const fs::path out = dir / name;
    const result r = raidtlm("run " + args + " --quiet --out '" + out.string() + "'", dir);
    EXPECT_EQ(r.code, 0) << r.err;
    if (r.code != 0) return {};
    return nlohmann::json::parse(read_file(out / "stats.json"));
}

// Opens `gtkw` (in `dir`) in GTKWave under a virtual X server and returns how many signals it
// displays, or -1 if xvfb-run or gtkwave is missing. `log` receives GTKWave's output.
// A run's stats.json `controller` object says nothing was lost: every read checked right (more
// than `min_reads_checked` of them), no host request failed, no sector lost.
inline void expect_nothing_lost(const nlohmann::json &controller, int min_reads_checked) {
    EXPECT_EQ(controller["integrity_errors"].get<int>(), 0);
    EXPECT_GT(controller["reads_checked"].get<int>(), min_reads_checked);
    EXPECT_EQ(controller["failed_requests"]["reads"].get<int>(), 0);
    EXPECT_EQ(controller["failed_requests"]["writes"].get<int>(), 0);
    EXPECT_EQ(controller["firmware"]["lost_sectors"].get<int>(), 0);
}

inline int gtkwave_displayed(const fs::path &dir, const std::string &gtkw, const fs::path &log) {
    if (!fs::exists("/usr/bin/xvfb-run") || !fs::exists("/usr/bin/gtkwave")) return -1;
    const fs::path tcl = write_temp(log.parent_path(), "gtkwave_check.tcl",
                                    "puts \"DISPLAYED: [llength [gtkwave::getDisplayedSignals]]\"\n"
                                    "gtkwave::/File/Quit\n");
    const std::string cmd = "cd '" + dir.string() + "' && timeout 120 xvfb-run -a gtkwave -S '" + tcl.string() + "' '" +
                            gtkw + "' > '" + log.string() + "' 2>&1";
    if (std::system(cmd.c_str()) != 0) return -2;
    const std::string out = read_file(log);
    const auto at = out.find("DISPLAYED: ");
    return at == std::string::npos ? -2 : std::stoi(out.substr(at + 11));
}

}  // namespace system_test
