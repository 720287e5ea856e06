// What the DiskSim spec import tests share (test_diskspec_loader.cpp, test_diskspec_errors.cpp):
// the reference files, a line finder, the one-line error check and a private copy of the
// Cheetah 9LP files to break on purpose.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "disks/diskspec_loader.h"
#include "disks/supported_parameters.h"
#include "disks/diskspec_parser.h"

namespace diskspec_test {

namespace fs = std::filesystem;
using namespace raidtlm::disks;

inline const std::string disksim_dir = std::string(RAIDTLM_SHARED_DIR) + "/reference/disksim/";

inline std::string reference_file(const std::string &relative) { return disksim_dir + relative; }

inline std::string read_text(const std::string &path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// 1-based line of the `nth` (0-based) occurrence of `needle` in the file; 0 if absent.
inline int line_of(const std::string &path, const std::string &needle, int nth = 0) {
    std::string text = read_text(path);
    size_t pos = 0;
    for (int i = 0; i <= nth; ++i) {
        pos = text.find(needle, i == 0 ? 0 : pos + 1);
        if (pos == std::string::npos) return 0;
    }
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + pos, '\n'));
}

inline std::string loc(const std::string &path, int line) { return path + ":" + std::to_string(line); }

#define EXPECT_CONTAINS(text, part) \
    EXPECT_NE((text).find(part), std::string::npos) << "missing: " << (part) << "\nin: " << (text)

// The message of the spec_error that `f` throws; a test failure if it throws nothing.
inline std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const spec_error &e) {
        std::string what = e.what();
        EXPECT_EQ(what.find('\n'), std::string::npos) << "message is not one line: " << what;
        EXPECT_NE(what.find("; expected "), std::string::npos) << what;
        return what;
    }
    ADD_FAILURE() << "no spec_error thrown";
    return "";
}

// A private copy of the Cheetah 9LP files in a fresh temporary directory, to break on purpose.
class cheetah_copy {
public:
    cheetah_copy() {
        static std::atomic<int> counter{0};
        std::string unique = std::to_string(::getpid()) + "_" + std::to_string(counter++);
        m_dir = fs::temp_directory_path() / ("raidtlm_diskspec_" + unique);
        fs::create_directories(m_dir);
        for (const char *f : {"cheetah9LP.diskspecs", "cheetah9LP.model", "cheetah9LP.seek"})
            fs::copy_file(reference_file(std::string("validation/") + f), m_dir / f);
    }
    ~cheetah_copy() {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }

    std::string path(const std::string &name) const { return (m_dir / name).string(); }
    std::string specs() const { return path("cheetah9LP.diskspecs"); }
    std::string model() const { return path("cheetah9LP.model"); }
    std::string seek() const { return path("cheetah9LP.seek"); }

    // Replaces the first occurrence of `from` in file `name`; the test fails if there is none.
    void edit(const std::string &name, const std::string &from, const std::string &to) const {
        std::string text = read_text(path(name));
        size_t pos = text.find(from);
        ASSERT_NE(pos, std::string::npos) << "'" << from << "' not in " << name;
        text.replace(pos, from.size(), to);
        write(name, text);
    }
    void edit_specs(const std::string &from, const std::string &to) const {
        edit("cheetah9LP.diskspecs", from, to);
    }
    void edit_model(const std::string &from, const std::string &to) const {
        edit("cheetah9LP.model", from, to);
    }
    void write(const std::string &name, const std::string &text) const {
        std::ofstream(path(name), std::ios::trunc) << text;
    }

private:
    fs::path m_dir;
};

}  // namespace diskspec_test
