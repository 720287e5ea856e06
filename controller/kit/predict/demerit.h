// The Ruemmler-Wilkes demerit figure: the root-mean-square horizontal distance between two
// response-time distributions (CDFs), in the samples' unit. Plain C++.
//
// With Qa, Qb the empirical quantile functions (Q(p) = the ceil(p*n)-th smallest sample),
//   demerit = sqrt( integral over p in (0, 1] of (Qa(p) - Qb(p))^2 dp ).
// With equal sample counts this is the RMS of the pairwise differences of the sorted samples; with
// unequal counts both step functions are compared on the merged grid of their steps {i/na} and
// {j/nb}, which is exact for the empirical CDFs.
#pragma once

#include <vector>

namespace raidtlm::controller {

// Throws std::invalid_argument if either vector is empty. Takes copies (they are sorted).
double demerit(std::vector<double> a, std::vector<double> b);

}  // namespace raidtlm::controller
