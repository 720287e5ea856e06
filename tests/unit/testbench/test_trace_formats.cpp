#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "testbench/workloads/trace_formats.h"

using namespace raidtlm::testbench;

namespace {

const std::string traces = std::string(RAIDTLM_SOURCE_DIR) + "/testbench/traces/";

std::string sample_path(trace_format f) { return traces + "sample." + to_string(f); }

std::string read_file(const std::string &p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<trace_record> read_all(trace_reader &r) {
    std::vector<trace_record> out;
    for (trace_record x; r.next(x);) out.push_back(x);
    return out;
}

// Error message of reading `text` in `format`, or "" when it reads without one.
std::string error_of(trace_format format, const std::string &text) {
    std::istringstream in(text);
    trace_reader r(in, "t.trace", format);
    try {
        read_all(r);
    } catch (const trace_error &e) {
        const std::string m = e.what();
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
        EXPECT_NE(m.find(std::string("; expected ") + trace_reader::expected_form(format)), std::string::npos) << m;
        return m;
    }
    return "";
}

void expect_same_requests(const std::vector<trace_record> &a, const std::vector<trace_record> &b, double time_tol_ms) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].lbn, b[i].lbn) << i;
        EXPECT_EQ(a[i].sectors, b[i].sectors) << i;
        EXPECT_EQ(a[i].read, b[i].read) << i;
        EXPECT_EQ(a[i].device, b[i].device) << i;
        EXPECT_NEAR(a[i].time_ms, b[i].time_ms, time_tol_ms) << i;
    }
}

const trace_format all_formats[] = {trace_format::disksim, trace_format::spc, trace_format::msr,
                                    trace_format::blkparse};

}  // namespace

TEST(trace_formats, samples_hold_the_same_sixty_requests) {
    std::vector<std::vector<trace_record>> got;
    for (auto f : all_formats) {
        auto r = trace_reader::open(sample_path(f), f);
        got.push_back(read_all(*r));
        EXPECT_EQ(got.back().size(), 60u) << to_string(f);
        EXPECT_EQ(r->device_names().size(), 2u) << to_string(f);
        EXPECT_EQ(got.back().front().time_ms, 0.0);
    }
    // The formats differ in time resolution: SPC keeps microseconds.
    for (size_t i = 1; i < got.size(); ++i) expect_same_requests(got[0], got[i], 0.0011);
    const trace_record &first = got[0].front();
    EXPECT_EQ(first.lbn, 13289504u);
    EXPECT_EQ(first.sectors, 128u);
    EXPECT_TRUE(first.read);
    EXPECT_EQ(got[2].front().response_ms, 2.257);  // msr carries the measured response time
    EXPECT_EQ(got[0].front().response_ms, -1);
}

TEST(trace_formats, blkparse_replays_the_chosen_action_and_skips_the_rest) {
    auto d = trace_reader::open(sample_path(trace_format::blkparse), trace_format::blkparse, 'D');
    const auto issued = read_all(*d);
    EXPECT_EQ(issued.size(), 60u);
    EXPECT_EQ(d->device_names(), (std::vector<std::string>{"8,0", "8,16"}));
    EXPECT_GT(d->skipped(), 250u);  // Q G I C M P U, the flush, the discard and the summary
    auto q = trace_reader::open(sample_path(trace_format::blkparse), trace_format::blkparse, 'Q');
    EXPECT_EQ(read_all(*q).size(), 66u);  // 60 plus 6 requests that were merged before issue
}

TEST(trace_formats, each_format_round_trips_its_sample) {
    for (auto f : all_formats) {
        auto r = trace_reader::open(sample_path(f), f);
        const auto records = read_all(*r);
        std::ostringstream out;
        trace_writer w(out, f, r->origin(), r->device_names());
        for (const auto &x : records) w.write(x);
        // Byte for byte where the sample is in the writer's form (blkparse's has other events).
        if (f != trace_format::blkparse) {
            EXPECT_EQ(out.str(), read_file(sample_path(f))) << to_string(f);
        }
        std::istringstream back(out.str());
        trace_reader again(back, "written", f);
        const auto reread = read_all(again);
        expect_same_requests(records, reread, 1e-6);
        EXPECT_EQ(again.device_names(), r->device_names()) << to_string(f);
        for (size_t i = 0; i < records.size(); ++i) EXPECT_NEAR(reread[i].response_ms, records[i].response_ms, 1e-4);
    }
}

TEST(trace_formats, malformed_disksim_lines) {
    const auto f = trace_format::disksim;
    EXPECT_EQ(error_of(f, "0.0 0 100 8 1\n1.0 0 200 8\n").rfind("t.trace:2: 4 fields; expected 'ARRIVAL_MS", 0), 0u);
    EXPECT_NE(error_of(f, "x 0 100 8 1\n").find("t.trace:1: arrival time 'x' is not a non-negative number"),
              std::string::npos);
    EXPECT_NE(error_of(f, "-1 0 100 8 1\n").find("arrival time '-1'"), std::string::npos);
    EXPECT_NE(error_of(f, "0 a 100 8 1\n").find("device 'a'"), std::string::npos);
    EXPECT_NE(error_of(f, "0 0 -5 8 1\n").find("block '-5' is not a non-negative integer"), std::string::npos);
    EXPECT_NE(error_of(f, "0 0 5 0 1\n").find("size '0' is not a positive integer"), std::string::npos);
    EXPECT_NE(error_of(f, "0 0 5 8 zz\n").find("flags 'zz' is not a hexadecimal integer"), std::string::npos);
    EXPECT_NE(error_of(f, "5 0 5 8 1\n\n# c\n4 0 5 8 1\n").find("t.trace:4: time"), std::string::npos);
    EXPECT_EQ(error_of(f, "0 0 5 8 0x1\n1e3 0 5 8 3\n\n"), "");
}

TEST(trace_formats, malformed_spc_lines) {
    const auto f = trace_format::spc;
    EXPECT_NE(error_of(f, "0,1,512,r\n").find("t.trace:1: 4 fields"), std::string::npos);
    EXPECT_NE(error_of(f, "a,1,512,r,0\n").find("ASU 'a'"), std::string::npos);
    EXPECT_NE(error_of(f, "0,1.5,512,r,0\n").find("LBA '1.5'"), std::string::npos);
    EXPECT_NE(error_of(f, "0,1,-512,r,0\n").find("size '-512'"), std::string::npos);
    EXPECT_NE(error_of(f, "0,1,512,x,0\n").find("opcode 'x' is not r or w"), std::string::npos);
    EXPECT_NE(error_of(f, "0,1,512,r,now\n").find("timestamp 'now'"), std::string::npos);
    EXPECT_NE(error_of(f, "0,1,512,r,2\n0,1,512,W,1\n").find("t.trace:2: time"), std::string::npos);
    // Extra fields, spaces and size-0 requests are accepted; a partial sector rounds up.
    std::istringstream in("0, 7 ,700,R,0.5,extra\n0,1,0,w,1\n");
    trace_reader r(in, "t", f);
    const auto x = read_all(r);
    ASSERT_EQ(x.size(), 1u);
    EXPECT_EQ(x[0].lbn, 7u);
    EXPECT_EQ(x[0].sectors, 2u);
    EXPECT_EQ(r.skipped(), 1u);
}

TEST(trace_formats, malformed_msr_lines) {
    const auto f = trace_format::msr;
    const std::string ok = "128166372003061629,usr,0,Read,7014609920,24576,41286\n";
    EXPECT_EQ(error_of(f, ok), "");
    EXPECT_NE(error_of(f, "128166372003061629,usr,0,Read,7014609920,24576\n").find("t.trace:1: 6 fields"),
              std::string::npos);
    EXPECT_NE(error_of(f, "1.5,usr,0,Read,0,512,0\n").find("timestamp '1.5'"), std::string::npos);
    EXPECT_NE(error_of(f, "1,,0,Read,0,512,0\n").find("the hostname is empty"), std::string::npos);
    EXPECT_NE(error_of(f, "1,usr,x,Read,0,512,0\n").find("disk number 'x'"), std::string::npos);
    EXPECT_NE(error_of(f, "1,usr,0,Trim,0,512,0\n").find("type 'Trim' is not Read or Write"), std::string::npos);
    EXPECT_NE(error_of(f, "1,usr,0,Read,-1,512,0\n").find("offset '-1'"), std::string::npos);
    EXPECT_NE(error_of(f, "1,usr,0,Read,0,5x,0\n").find("size '5x'"), std::string::npos);
    EXPECT_NE(error_of(f, "1,usr,0,Read,0,512,\n").find("response time ''"), std::string::npos);
    EXPECT_NE(error_of(f, ok + "128166372003061628,usr,0,Read,0,512,0\n").find("t.trace:2: time"), std::string::npos);
}

TEST(trace_formats, malformed_blkparse_lines) {
    const auto f = trace_format::blkparse;
    const std::string ok = "  8,0    3        1     0.000000000  4162  D  RM 1130224 + 8 [jbd2/sda1-8]\n";
    EXPECT_EQ(error_of(f, ok), "");
    EXPECT_NE(error_of(f, "  8,0    3        1     0.000000000  4162  D\n").find("t.trace:1: 6 fields"),
              std::string::npos);
    EXPECT_NE(error_of(f, "  8:0 3 1 0.0 4162 D R 1 + 8 [x]\n").find("device '8:0' is not MAJ,MIN"), std::string::npos);
    EXPECT_NE(error_of(f, "  8,0 c 1 0.0 4162 D R 1 + 8 [x]\n").find("CPU 'c'"), std::string::npos);
    EXPECT_NE(error_of(f, "  8,0 3 -1 0.0 4162 D R 1 + 8 [x]\n").find("sequence number '-1'"), std::string::npos);
    EXPECT_NE(error_of(f, "  8,0 3 1 0:00 4162 D R 1 + 8 [x]\n").find("time '0:00' is not SECONDS.NANOSECONDS"),
              std::string::npos);
    EXPECT_NE(error_of(f, "  8,0 3 1 0.0000000001 4162 D R 1 + 8 [x]\n").find("time '0.0000000001'"),
              std::string::npos);
    EXPECT_NE(error_of(f, "  8,0 3 1 0.0 pid D R 1 + 8 [x]\n").find("PID 'pid'"), std::string::npos);
    EXPECT_NE(error_of(f, "  8,0 3 1 0.0 1 D7 R 1 + 8 [x]\n").find("action 'D7'"), std::string::npos);
    EXPECT_NE(error_of(f, "  8,0 3 1 0.0 1 D RX 1 + 8 [x]\n").find("RWBS 'RX'"), std::string::npos);
    EXPECT_NE(error_of(f, "  8,0 3 1 0.0 1 D R 1 - 8 [x]\n").find("'1 - 8 [x]' after RWBS is not SECTOR + COUNT"),
              std::string::npos);
    EXPECT_NE(error_of(f, "  8,0 3 1 0.0 1 D R 1 +\n").find("after RWBS is not SECTOR + COUNT"), std::string::npos);
    // Not the replayed action, no data, a discard, the summary: skipped, not errors.
    EXPECT_EQ(error_of(f, "  8,0 3 1 0.0 1 Q R 1 + 8 [x]\n  8,0 3 1 0.0 1 D FWS [x]\n  8,0 3 1 0.0 1 D DS 1 + 8 [x]\n"
                          "CPU3 (sda):\n Reads Queued: 1, 4KiB\n"),
              "");
    // Times count in nanoseconds; a short fraction is a decimal fraction.
    std::istringstream in("8,0 0 1 1.5 1 D W 10 + 8 [x]\n8,0 0 2 1.500000250 1 D R 10 + 8 [x]\n");
    trace_reader r(in, "t", f);
    const auto x = read_all(r);
    ASSERT_EQ(x.size(), 2u);
    EXPECT_NEAR(x[1].time_ms, 0.00025, 1e-12);
    EXPECT_FALSE(x[0].read);
}

TEST(trace_formats, overlong_lines_and_unreadable_files) {
    const std::string long_line(5000, '1');
    EXPECT_NE(error_of(trace_format::disksim, "0 0 1 8 1\n" + long_line + "\n").find("t.trace:2: the line is longer"),
              std::string::npos);
    EXPECT_EQ(error_of(trace_format::disksim, "0 0 1 8 1\n" + std::string(4096, ' ') + "\n"), "");
    try {
        trace_reader::open("/nonexistent/x.spc", trace_format::spc);
        FAIL();
    } catch (const trace_error &e) {
        EXPECT_STREQ(e.what(), "/nonexistent/x.spc: cannot open the trace; expected a readable spc trace");
    }
}

TEST(trace_source, time_scale_device_map_and_capacity_policies) {
    const std::string text = "0 0 100 8 1\n10 1 100 8 0\n20 0 995 8 1\n";
    std::vector<std::unique_ptr<std::istringstream>> streams;  // outlive their readers
    auto make = [&](trace_config c, uint64_t capacity) {
        streams.push_back(std::make_unique<std::istringstream>(text));
        return trace_source(std::make_unique<trace_reader>(*streams.back(), "t.trace", c.format), c, capacity);
    };
    trace_config c;
    c.time_scale = 0.5;
    c.beyond_capacity = beyond_capacity_policy::wrap;
    trace_source s = make(c, 1000);
    double at;
    host_request r;
    ASSERT_TRUE(s.next(at, r));
    EXPECT_EQ(at, 0);
    EXPECT_EQ(r.lbn, 100u);
    ASSERT_TRUE(s.next(at, r));
    EXPECT_EQ(at, 5);
    EXPECT_FALSE(r.read);
    ASSERT_TRUE(s.next(at, r));
    EXPECT_EQ(r.lbn, 992u);  // 995 + 8 does not fit in 1000: clamped to the end of the slice
    EXPECT_EQ(s.wrapped(), 1u);
    EXPECT_FALSE(s.next(at, r));

    c.device_map = {{"0", 0}, {"1", 500}};
    c.beyond_capacity = beyond_capacity_policy::skip;
    trace_source m = make(c, 1000);
    ASSERT_TRUE(m.next(at, r));
    EXPECT_EQ(r.lbn, 100u);
    ASSERT_TRUE(m.next(at, r));
    EXPECT_EQ(r.lbn, 600u);
    EXPECT_FALSE(m.next(at, r));  // 995 lies beyond device 0's 500 sectors: skipped
    EXPECT_EQ(m.skipped_beyond(), 1u);

    c.beyond_capacity = beyond_capacity_policy::error;
    trace_source e = make(c, 1000);
    e.next(at, r);
    e.next(at, r);
    try {
        e.next(at, r);
        FAIL();
    } catch (const trace_error &x) {
        EXPECT_NE(std::string(x.what()).find("t.trace:3: sectors 995..1002 of device '0' lie beyond its 500 sectors"),
                  std::string::npos)
            << x.what();
    }

    c.device_map = {{"0", 0}};
    trace_source u = make(c, 1000);
    u.next(at, r);
    try {
        u.next(at, r);
        FAIL();
    } catch (const trace_error &x) {
        EXPECT_NE(std::string(x.what()).find("t.trace:2: device '1' is not in trace.device_map; expected a device of "
                                             "the map (0)"),
                  std::string::npos)
            << x.what();
    }
    c.device_map = {{"0", 1000}};
    EXPECT_THROW(make(c, 1000), scenario_error);
}
