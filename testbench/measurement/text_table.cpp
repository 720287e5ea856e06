#include "testbench/measurement/text_table.h"

#include <algorithm>
#include <stdexcept>

namespace raidtlm::testbench {

text_table::text_table(std::vector<column> columns, int min_gap, std::string indent)
    : m_columns(std::move(columns)), m_min_gap(min_gap), m_indent(std::move(indent)) {}

void text_table::add_row(std::vector<std::string> cells) {
    if (cells.size() > m_columns.size()) throw std::invalid_argument("text_table: more cells than columns");
    cells.resize(m_columns.size());
    m_rows.push_back(std::move(cells));
}

std::string text_table::render() const {
    std::vector<size_t> width(m_columns.size());
    for (size_t c = 0; c < m_columns.size(); ++c) {
        width[c] = m_columns[c].header.size();
        for (const auto &row : m_rows) width[c] = std::max(width[c], row[c].size());
    }
    auto line = [&](auto cell_of) {
        std::string out = m_indent;
        for (size_t c = 0; c < m_columns.size(); ++c) {
            const std::string &text = cell_of(c);
            const std::string pad(width[c] - text.size(), ' ');
            if (c > 0) out += std::string(size_t(m_min_gap), ' ');
            out += m_columns[c].alignment == align::left ? text + pad : pad + text;
        }
        out.erase(out.find_last_not_of(' ') + 1);
        return out + "\n";
    };
    std::string out = line([&](size_t c) -> const std::string & { return m_columns[c].header; });
    for (const auto &row : m_rows) out += line([&](size_t c) -> const std::string & { return row[c]; });
    return out;
}

}  // namespace raidtlm::testbench
