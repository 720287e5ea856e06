#include <cmath>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "controller/kit/predict/demerit.h"

using raidtlm::controller::demerit;

TEST(demerit, identical_distributions_give_zero) {
    EXPECT_DOUBLE_EQ(demerit({1, 2, 3}, {3, 1, 2}), 0.0);
}

TEST(demerit, equal_sizes_are_rms_of_sorted_pairwise_differences) {
    // Sorted: a = 1 2 3 4, b = 2 2 5 8; differences 1 0 2 4 -> sqrt(21/4).
    EXPECT_NEAR(demerit({4, 1, 3, 2}, {8, 2, 5, 2}), std::sqrt(21.0 / 4.0), 1e-12);
}

TEST(demerit, a_constant_shift_is_the_shift) {
    std::vector<double> a, b;
    for (int i = 0; i < 100; ++i) {
        a.push_back(i * 0.37);
        b.push_back(i * 0.37 + 2.5);
    }
    EXPECT_NEAR(demerit(a, b), 2.5, 1e-12);
}

TEST(demerit, is_symmetric) {
    EXPECT_DOUBLE_EQ(demerit({1, 5, 9}, {2, 2, 7, 11}), demerit({2, 2, 7, 11}, {1, 5, 9}));
}

TEST(demerit, unequal_sizes_compare_quantiles_on_the_merged_grid) {
    // a = {0, 10}: Q = 0 on (0, 1/2], 10 on (1/2, 1]; b = {0, 0, 10}: 0 on (0, 2/3], 10 after.
    // They differ by 10 on (1/2, 2/3]: demerit = sqrt(100 / 6).
    EXPECT_NEAR(demerit({0, 10}, {0, 0, 10}), std::sqrt(100.0 / 6.0), 1e-12);
    // Repeating every sample k times does not change an empirical distribution.
    EXPECT_NEAR(demerit({1, 4, 9}, {1, 1, 4, 4, 9, 9}), 0.0, 1e-12);
    EXPECT_NEAR(demerit({1, 2, 3, 4}, {2, 2, 5, 8}), demerit({1, 1, 2, 2, 3, 3, 4, 4}, {2, 2, 5, 8}), 1e-12);
}

TEST(demerit, single_sample_each) { EXPECT_DOUBLE_EQ(demerit({3}, {7}), 4.0); }

TEST(demerit, empty_input_is_refused) {
    EXPECT_THROW(demerit({}, {1}), std::invalid_argument);
    EXPECT_THROW(demerit({1}, {}), std::invalid_argument);
}
