#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "testbench/commands/validate_trace.h"
#include "testbench/commands/validation_report.h"

using namespace raidtlm::testbench;
namespace fs = std::filesystem;

namespace {
std::string write_temp(const std::string &name, const std::string &text) {
    const fs::path dir = fs::temp_directory_path() / ("raidtlm_unit_" + std::to_string(getpid()));
    fs::create_directories(dir);
    const fs::path p = dir / name;
    std::ofstream(p) << text;
    return p.string();
}
}  // namespace

TEST(validate_trace, parses_fields_and_converts_to_ms) {
    const validate_record r = parse_validate_line("W Doub 1194877    15     17221.000     21894.380", "x:1");
    EXPECT_FALSE(r.read);
    EXPECT_EQ(r.lbn, 1194877u);
    EXPECT_EQ(r.blocks, 15u);
    EXPECT_DOUBLE_EQ(r.measured_service_ms, 17.221);
    EXPECT_DOUBLE_EQ(r.next_interarrival_ms, 21.89438);
}

TEST(validate_trace, loads_a_file_skipping_blanks_and_comments) {
    const std::string p = write_temp("ok.trace", "# comment\nR Hit 10 4 500 1000\n\nW Miss 20 8 1500.5 0\r\n");
    const auto v = load_validate_trace(p);
    ASSERT_EQ(v.size(), 2u);
    EXPECT_TRUE(v[0].read);
    EXPECT_EQ(v[0].line, 2);
    EXPECT_EQ(v[1].line, 4);
    EXPECT_DOUBLE_EQ(v[1].measured_service_ms, 1.5005);
}

TEST(validate_trace, malformed_lines_name_file_line_and_form) {
    const struct {
        const char *text;
        const char *needle;
    } cases[] = {
        {"R Hit 10 4 500\n", "5 fields"},
        {"X Hit 10 4 500 100\n", "direction 'X'"},
        {"R Hit -10 4 500 100\n", "lbn '-10'"},
        {"R Hit 10 four 500 100\n", "blocks 'four'"},
        {"R Hit 10 0 500 100\n", "blocks is 0"},
        {"R Hit 10 4 5x0 100\n", "measured service time '5x0'"},
        {"R Hit 10 4 500 -1\n", "interarrival time '-1' is negative"},
    };
    for (const auto &c : cases) {
        const std::string p = write_temp("bad.trace", std::string("R Hit 1 1 1 1\n") + c.text);
        try {
            load_validate_trace(p);
            FAIL() << "no error for " << c.text;
        } catch (const trace_error &e) {
            const std::string m = e.what();
            EXPECT_EQ(m.rfind(p + ":2: ", 0), 0u) << m;
            EXPECT_NE(m.find(c.needle), std::string::npos) << m;
            EXPECT_NE(m.find("; expected 'R|W FLAG LBN BLOCKS"), std::string::npos) << m;
            EXPECT_EQ(m.find('\n'), std::string::npos) << m;
        }
    }
}

TEST(validate_trace, empty_or_missing_file_is_an_error) {
    EXPECT_THROW(load_validate_trace(write_temp("empty.trace", "\n# nothing\n")), trace_error);
    EXPECT_THROW(load_validate_trace("/nonexistent/dir/x.trace"), trace_error);
}

TEST(validation_report, compares_means_and_ends_with_demerit_line) {
    std::vector<validate_record> recs(4);
    recs[0].read = true;
    recs[0].measured_service_ms = 10;
    recs[1].read = true;
    recs[1].measured_service_ms = 20;
    recs[2].read = false;
    recs[2].measured_service_ms = 1;
    recs[3].read = false;
    recs[3].measured_service_ms = 3;
    const std::vector<double> sim = {11, 21, 2, 4};
    const validation_result v = compare_validation(recs, sim);
    EXPECT_EQ(v.simulated_reads.count, 2u);
    EXPECT_DOUBLE_EQ(v.simulated_reads.mean_ms, 16.0);
    EXPECT_DOUBLE_EQ(v.measured_writes.mean_ms, 2.0);
    EXPECT_DOUBLE_EQ(v.simulated_all.mean_ms, 9.5);
    EXPECT_DOUBLE_EQ(v.demerit_ms, 1.0);
    const std::string text = validation_text(v, "disk", "d.diskspecs", "t.trace");
    const auto last = text.substr(text.rfind('\n', text.size() - 2) + 1);
    EXPECT_EQ(last, "demerit_ms: 1.0000\n");
}

TEST(validate_trace, times_beyond_their_physical_range_are_refused_with_the_line_and_the_range) {
    // 1e300 us once went through and wrapped the kernel's clock (issue 27).
    try {
        parse_validate_line("R Miss 0 8 10000 1e300", "t:4");
        FAIL() << "an interarrival of 1e300 us accepted";
    } catch (const trace_error &e) {
        const std::string m = e.what();
        EXPECT_EQ(m.rfind("t:4: interarrival time '1e300' us is out of range; expected 0 to 3.6e+09 us", 0), 0u) << m;
    }
    EXPECT_THROW(parse_validate_line("R Miss 0 8 60000001 5", "t:1"), trace_error);  // over 60 s of service
    EXPECT_NO_THROW(parse_validate_line("R Miss 0 8 60000000 3600000000", "t:1"));  // both at their bound
    // Lines each within range whose times add up beyond what the clock represents.
    const std::string p = write_temp("long.trace", "R Miss 0 8 1000 3000000000\nR Miss 8 8 1000 3000000000\n");
    EXPECT_NO_THROW(load_validate_trace(p, 7e6));
    try {
        load_validate_trace(p, 5e6);
        FAIL() << "a trace longer than the clock's range accepted";
    } catch (const trace_error &e) {
        EXPECT_NE(std::string(e.what()).find("long.trace:2: the trace's service and interarrival times add up"),
                  std::string::npos)
            << e.what();
    }
}
