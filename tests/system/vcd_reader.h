// A small VCD reader for tests: the value changes of chosen signals, and the time a condition on
// them holds within a window. Enough for the VCDs SystemC writes (one timescale, integer vectors
// "b<bits> <id>" and scalars "<0|1><id>"); not a general VCD parser.
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace system_test {

struct vcd_signal_changes {
    std::vector<std::pair<uint64_t, int64_t>> changes;  // (time in dump units, value), in time order
};

struct vcd_dump {
    std::string timescale;                          // e.g. "1 ns"
    uint64_t end_time = 0;                          // last time stamp in the file
    std::map<std::string, vcd_signal_changes> signals;  // by full dotted name, e.g. "SystemC.disk0.mech_state"
};

// Reads the changes of the signals whose full names are in `wanted` (all if empty). Throws
// std::runtime_error("FILE:LINE: ...") on what it cannot read.
inline vcd_dump read_vcd(const std::string &path, const std::vector<std::string> &wanted = {}) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open");
    vcd_dump d;
    std::map<std::string, std::vector<std::string>> names_by_id;
    std::vector<std::string> scope;
    std::string line, tok;
    size_t line_no = 0;
    auto fail = [&](const std::string &what) {
        throw std::runtime_error(path + ":" + std::to_string(line_no) + ": " + what);
    };
    bool in_timescale = false;
    while (std::getline(in, line)) {
        ++line_no;
        std::istringstream ws(line);
        std::vector<std::string> t;
        while (ws >> tok) t.push_back(tok);
        if (t.empty()) continue;
        if (in_timescale) {
            if (t[0] == "$end") in_timescale = false;
            else d.timescale += (d.timescale.empty() ? "" : " ") + line.substr(line.find_first_not_of(" \t"));
            continue;
        }
        if (t[0] == "$timescale") {
            if (t.size() >= 3 && t.back() == "$end") d.timescale = t[1] + (t.size() > 3 ? " " + t[2] : "");
            else in_timescale = true;
        } else if (t[0] == "$scope") {
            if (t.size() < 3) fail("expected $scope <kind> <name> $end");
            scope.push_back(t[2]);
        } else if (t[0] == "$upscope") {
            if (scope.empty()) fail("$upscope without $scope");
            scope.pop_back();
        } else if (t[0] == "$var") {
            if (t.size() < 5) fail("expected $var <kind> <bits> <id> <name> ... $end");
            std::string full;
            for (const auto &s : scope) full += s + ".";
            full += t[4];
            if (wanted.empty() || std::find(wanted.begin(), wanted.end(), full) != wanted.end()) {
                names_by_id[t[3]].push_back(full);
                d.signals[full];
            }
        } else if (t[0] == "$enddefinitions") {
            break;
        }
    }
    for (const auto &w : wanted)
        if (!d.signals.count(w)) throw std::runtime_error(path + ": no signal " + w);
    uint64_t now = 0;
    auto record = [&](const std::string &id, int64_t value) {
        auto it = names_by_id.find(id);
        if (it == names_by_id.end()) return;
        for (const auto &n : it->second) {
            auto &c = d.signals[n].changes;
            if (!c.empty() && c.back().first == now) c.back().second = value;  // last one at an instant counts
            else c.emplace_back(now, value);
        }
    };
    bool in_command = false;  // inside a multi-line $comment / $dumpvars ... $end
    while (std::getline(in, line)) {
        ++line_no;
        const auto first = line.find_first_not_of(" \t");
        if (first == std::string::npos) continue;
        line = line.substr(first);
        if (in_command) {
            if (line.find("$end") != std::string::npos) in_command = false;
            continue;
        }
        if (line[0] == '$') {
            // $dumpvars opens the initial values (read as changes at time 0); other commands are skipped.
            const bool opens = line.rfind("$comment", 0) == 0;
            if (opens && line.find("$end") == std::string::npos) in_command = true;
            continue;
        }
        if (line[0] == '#') {
            now = std::stoull(line.substr(1));
            d.end_time = std::max(d.end_time, now);
        } else if (line[0] == 'b' || line[0] == 'B') {
            const auto sp = line.find(' ');
            if (sp == std::string::npos) fail("expected b<bits> <id>");
            const std::string bits = line.substr(1, sp - 1);
            int64_t v = 0;
            for (char c : bits) v = v * 2 + (c == '1');  // x and z bits read as 0
            // A vector with no 0 or 1 bit (all z: nothing driven, as raidtlm writes "no request") reads as -1.
            if (bits.find_first_of("01") == std::string::npos) v = -1;
            record(line.substr(sp + 1), v);
        } else if (line[0] == '0' || line[0] == '1' || line[0] == 'x' || line[0] == 'z') {
            record(line.substr(1), line[0] == '1');
        } else if (line[0] == 'r' || line[0] == 'R') {
            // real values are not read by these tests
        } else {
            fail("unexpected value change '" + line + "'");
        }
    }
    return d;
}

// Time within [from, to) during which holds(values of `names`, in that order) is true; a signal
// counts as 0 before its first change.
inline uint64_t vcd_time_where(const vcd_dump &d, const std::vector<std::string> &names, uint64_t from, uint64_t to,
                               const std::function<bool(const std::vector<int64_t> &)> &holds) {
    std::vector<int64_t> values(names.size(), 0);
    std::vector<size_t> next(names.size(), 0);
    std::vector<const vcd_signal_changes *> sigs;
    for (const auto &n : names) sigs.push_back(&d.signals.at(n));
    uint64_t t = 0, total = 0;
    for (;;) {
        // Apply every change at t, then find the next change time.
        uint64_t t_next = UINT64_MAX;
        for (size_t i = 0; i < sigs.size(); ++i) {
            const auto &c = sigs[i]->changes;
            while (next[i] < c.size() && c[next[i]].first <= t) values[i] = c[next[i]++].second;
            if (next[i] < c.size()) t_next = std::min(t_next, c[next[i]].first);
        }
        const uint64_t seg_end = std::min(t_next, to);
        if (holds(values) && seg_end > std::max(t, from)) total += seg_end - std::max(t, from);
        if (t_next == UINT64_MAX || t_next >= to) break;
        t = t_next;
    }
    return total;
}

}  // namespace system_test
