// The summary's text pieces (issue 27): tables whose columns fit their widest value, and the
// DATA INTEGRITY FAILURE box and line of a run whose reads returned wrong data.
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "testbench/measurement/integrity_verdict.h"
#include "testbench/measurement/text_table.h"

using namespace raidtlm::testbench;

namespace {
std::vector<std::string> lines_of(const std::string &text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}
}  // namespace

TEST(text_table, columns_are_as_wide_as_their_widest_cell_and_never_touch) {
    text_table t({{"name", text_table::align::left}, {"count"}, {"mean"}});
    t.add_row({"all", "3", "1050005.269"});
    t.add_row({"reads", "12345678901", "4.5"});
    const std::vector<std::string> l = lines_of(t.render());
    ASSERT_EQ(l.size(), 3u);
    EXPECT_EQ(l[0], "  name         count         mean");
    EXPECT_EQ(l[1], "  all              3  1050005.269");
    EXPECT_EQ(l[2], "  reads  12345678901          4.5");
}

TEST(text_table, a_short_row_is_padded_and_trailing_blanks_are_dropped) {
    text_table t({{"a", text_table::align::left}, {"b", text_table::align::left}}, 1, "");
    t.add_row({"x"});
    EXPECT_EQ(t.render(), "a b\nx\n");
    EXPECT_THROW(t.add_row({"1", "2", "3"}), std::invalid_argument);
}

TEST(integrity_verdict, the_box_is_framed_and_names_the_count_the_first_reads_and_stats_json) {
    integrity_counts c{37, 5012, {{1234, 0x5, 0x9}, {1235, 0, 0x5a5a}, {7, 1, 2}, {8, 1, 2}}};
    const std::string box = integrity_failure_box(c, "out/x/stats.json");
    const std::vector<std::string> l = lines_of(box);
    ASSERT_GE(l.size(), 6u);
    for (const auto &line : l) EXPECT_EQ(line.size(), l.front().size()) << box;  // a closed frame
    EXPECT_EQ(l.front().find_first_not_of(' '), l.front().find('#'));
    EXPECT_NE(box.find("DATA INTEGRITY FAILURE: 37 of 5012 sector reads checked returned wrong data"), std::string::npos);
    EXPECT_NE(box.find("out/x/stats.json controller.first_integrity_errors"), std::string::npos) << box;
    EXPECT_NE(box.find("logical sector 1234: expected token 0x5, got 0x9"), std::string::npos) << box;
    EXPECT_NE(box.find("expected token 0x0 (never written), got 0x5a5a"), std::string::npos) << box;
    EXPECT_NE(box.find("... 1 more listed there"), std::string::npos) << box;

    const std::string line = integrity_failure_line(c, "out/x/stats.json");
    EXPECT_EQ(line.find('\n'), std::string::npos);
    EXPECT_EQ(line.rfind("DATA INTEGRITY FAILURE: 37 of 5012", 0), 0u) << line;
    EXPECT_NE(line.find("(first: logical sector 1234"), std::string::npos) << line;
    EXPECT_NE(line.find("see out/x/stats.json controller.first_integrity_errors"), std::string::npos) << line;
    EXPECT_EQ(exit_wrong_data, 3);
}
