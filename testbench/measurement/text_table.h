// A table of text whose columns are as wide as their widest cell, so that no value runs into its
// neighbour however large it is (a 10,000,000-sector request's response of 1050005.269 ms once
// filled a fixed 10-character column and merged with the next). Plain C++.
#pragma once

#include <string>
#include <vector>

namespace raidtlm::testbench {

class text_table {
public:
    enum class align { left, right };
    struct column {
        std::string header;
        align alignment = align::right;
    };

    // `min_gap` spaces at least between two columns; every line starts with `indent`.
    explicit text_table(std::vector<column> columns, int min_gap = 2, std::string indent = "  ");

    // A row of cells, one per column (fewer: the rest are blank; more: an error).
    void add_row(std::vector<std::string> cells);
    // The header line and the rows, each ending in '\n'; no trailing blanks.
    std::string render() const;

private:
    std::vector<column> m_columns;
    std::vector<std::vector<std::string>> m_rows;
    int m_min_gap;
    std::string m_indent;
};

}  // namespace raidtlm::testbench
