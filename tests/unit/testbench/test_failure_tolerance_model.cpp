// The parity logging paper's Section 9 extension of its model to f failures
// (testbench/models/failure_tolerance_model.h), checked against the paper's stated claims about
// Figure 30 as properties, on its Figure 12 array.
#include <gtest/gtest.h>

#include <stdexcept>

#include "testbench/models/failure_tolerance_model.h"

using namespace raidtlm::controller::plog_model;

namespace {

const tolerant_row &row(const std::vector<tolerant_row> &rows, const std::string &scheme) {
    for (const auto &r : rows)
        if (r.scheme == scheme) return r;
    throw std::logic_error("no row " + scheme);
}

const char *redundant[] = {"mirroring", "parity", "floating", "parity_logging"};

}  // namespace

TEST(FailureToleranceModel, WithoutFailuresToleratedEverySchemeIsNonredundant) {
    const parameters p = figure12();
    const auto rows = tolerant_schemes(p, 0);
    ASSERT_EQ(rows.size(), 5u);
    for (const auto &r : rows) {
        EXPECT_DOUBLE_EQ(r.blind_ms, nonredundant_ms(p)) << r.scheme;
        EXPECT_DOUBLE_EQ(r.cached_ms, nonredundant_ms(p)) << r.scheme;
        EXPECT_DOUBLE_EQ(r.storage_overhead, 0) << r.scheme;
    }
}

TEST(FailureToleranceModel, SingleFailureIsSectionsThreeAndFour) {
    for (double log_stripes : {1.0, 6.0}) {
        parameters p = figure12();
        p.log_stripes = log_stripes;
        EXPECT_DOUBLE_EQ(tolerant_mirroring_ms(p, 1), mirroring_ms(p));
        EXPECT_DOUBLE_EQ(tolerant_parity_ms(p, 1, true), raid5_ms(p));
        EXPECT_DOUBLE_EQ(tolerant_floating_ms(p, 1, true), floating_ms(p));
        for (bool preread : {true, false})
            EXPECT_NEAR(tolerant_parity_logging(p, 1, preread).total_ms(), parity_logging(p, preread).total_ms(),
                        1e-9);
    }
}

TEST(FailureToleranceModel, CheckWorkGrowsLinearlyAndThePrereadDoesNot) {
    // Section 9: "The bandwidth needed to preread the old copy of the user's data is independent of
    // the number of failures to be tolerated. Nonpreread bandwidth ... grows linearly".
    const parameters p = figure12();
    for (const char *s : redundant) {
        auto ms = [&](int f, bool pre) {
            const auto r = row(tolerant_schemes(p, f), s);
            return pre ? r.blind_ms : r.cached_ms;
        };
        for (bool pre : {true, false}) {
            const double step = ms(2, pre) - ms(1, pre);
            EXPECT_GT(step, 0) << s;
            EXPECT_NEAR(ms(3, pre) - ms(2, pre), step, 1e-9) << s;
        }
        for (int f = 1; f <= max_failures_modelled; ++f)
            EXPECT_NEAR(ms(f, true) - ms(f, false), ms(1, true) - ms(1, false), 1e-9) << s;
    }
}

TEST(FailureToleranceModel, ParityLoggingDeclinesLeastAboutFifteenPercentPerDegree) {
    // Figure 30: "parity logging declines the least, decreasing in performance by about 15% per
    // degree of failure tolerated" (per degree beyond the first).
    const parameters p = figure12();
    for (bool pre : {true, false}) {
        for (int f = 1; f < max_failures_modelled; ++f) {
            auto rate = [&](const char *s, int k) {
                const auto r = row(tolerant_schemes(p, k), s);
                return pre ? r.blind_rate : r.cached_rate;
            };
            const double plog_decline = 1 - rate("parity_logging", f + 1) / rate("parity_logging", f);
            for (const char *s : {"mirroring", "parity", "floating"})
                EXPECT_LT(plog_decline, 1 - rate(s, f + 1) / rate(s, f)) << s << " f " << f << " preread " << pre;
            EXPECT_GT(plog_decline, 0.10) << f << " " << pre;
            EXPECT_LT(plog_decline, 0.20) << f << " " << pre;
        }
    }
}

TEST(FailureToleranceModel, TripleToleranceAgainstNonredundant) {
    const parameters p = figure12();
    const double nonredundant = saturation_rate_per_disk(nonredundant_ms(p));
    const auto rows = tolerant_schemes(p, 3);
    // "quadruplicated storage (triple failure tolerating mirroring disk arrays) will sustain only 25%"
    EXPECT_NEAR(row(rows, "mirroring").blind_rate / nonredundant, 0.25, 1e-12);
    // "triple failure tolerating parity logging arrays should sustain about 35%" of nonredundant:
    // more than mirroring's quarter even when the old data must be preread.
    EXPECT_GT(row(rows, "parity_logging").blind_rate / nonredundant, 0.25);
    EXPECT_LT(row(rows, "parity_logging").blind_rate / nonredundant, 0.5);
    // "RAID level 5 ... achieving less than 10 user writes per second in the triple failure
    // tolerating case" (per disk, as Figure 15's rates), cached or not.
    EXPECT_LT(row(rows, "parity").blind_rate, 10);
    EXPECT_LT(row(rows, "parity").cached_rate, 10);
    // Parity logging is the fastest redundant scheme at every f >= 1 when the data is cached, and
    // from f = 2 also when it is preread (at f = 1 mirroring's 24.26 edges out its 24.08).
    for (int f = 1; f <= max_failures_modelled; ++f) {
        const auto r = tolerant_schemes(p, f);
        for (const char *s : {"mirroring", "parity", "floating"}) {
            EXPECT_GT(row(r, "parity_logging").cached_rate, row(r, s).cached_rate) << s << " f " << f;
            if (f >= 2) {
                EXPECT_GT(row(r, "parity_logging").blind_rate, row(r, s).blind_rate) << s << " f " << f;
            }
        }
    }
}

TEST(FailureToleranceModel, StorageOverheads) {
    parameters p = figure12();
    // Figure 30: mirroring needs "3 or 4 disks per disk of user data in the double and triple failure
    // tolerating cases".
    for (int f : {2, 3}) EXPECT_NEAR(1 / (1 - storage_overhead("mirroring", p, f)), f + 1, 1e-12);
    // Figure 10: parity logging's overhead is 2/(N+1-L) (C_L = C_P) for single tolerance.
    for (double l : {1.0, 4.0, 6.0}) {
        p.log_stripes = l;
        EXPECT_NEAR(storage_overhead("parity_logging", p, 1), 2 / (p.disks + 1 - l), 1e-12);
    }
    // Footnote 6: floating's (T+N-1)/(TN) for single tolerance.
    EXPECT_NEAR(storage_overhead("floating", p, 1), (14.0 + 22 - 1) / (14 * 22), 1e-12);
    // Non-binary codes: f check disks' worth, far below mirroring; so is parity logging with an
    // unstriped log.
    EXPECT_NEAR(storage_overhead("parity", p, 2), 2 / 22.0, 1e-12);
    p.log_stripes = 1;
    for (int f = 1; f <= max_failures_modelled; ++f)
        for (const char *s : {"parity", "floating", "parity_logging"})
            EXPECT_LT(storage_overhead(s, p, f), storage_overhead("mirroring", p, f)) << s << " f " << f;
    // But f copies of a log striped over L = 6 disks take 18 of 22 disks from a region at f = 3:
    // 6/7 of the space is log and check, more than quadruplicated storage's 3/4.
    p.log_stripes = 6;
    EXPECT_NEAR(storage_overhead("parity_logging", p, 3), 6.0 / 7, 1e-12);
    EXPECT_GT(storage_overhead("parity_logging", p, 3), storage_overhead("mirroring", p, 3));
}

TEST(FailureToleranceModel, RefusesImpossibleArrays) {
    parameters p = figure12();
    EXPECT_THROW(tolerant_schemes(p, -1), std::invalid_argument);
    p.log_stripes = 6;
    p.disks = 20;  // f = 3: 18 log disks leave 2 members for 3 check images and data
    EXPECT_THROW(tolerant_parity_logging(p, 3, true), std::invalid_argument);
    EXPECT_NO_THROW(tolerant_parity_logging(p, 2, true));
}
