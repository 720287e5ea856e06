// The sanitized build's stderr filter (system_harness.h) removes ASan's coroutine warning and
// nothing else: any other sanitizer output must still reach the checks and fail them.
#include "system_harness.h"

using system_test::without_asan_coroutine_warning;

namespace {
// As gcc 12's ASan printed it for an exception thrown on a SystemC 2.3.4 thread (the size is
// negative: the thread's stack lies below the main stack).
const std::string coroutine_warning =
    "==22446==WARNING: ASan is ignoring requested __asan_handle_no_return: stack type: default top: 0x7f8405276000; "
    "bottom 0x7ffcbaff2000; size: 0xffffff874a284000 (-518446891008)\n"
    "False positive error reports may follow\n"
    "For details see https://github.com/google/sanitizers/issues/189\n";
}

TEST(sanitizer_stderr, the_coroutine_warning_is_removed_and_the_error_line_kept) {
    EXPECT_EQ(without_asan_coroutine_warning(coroutine_warning + "raidtlm: TRACE:3: arrival beyond\n"),
              "raidtlm: TRACE:3: arrival beyond\n");
    EXPECT_EQ(without_asan_coroutine_warning("raidtlm: x\n" + coroutine_warning), "raidtlm: x\n");
}

TEST(sanitizer_stderr, other_sanitizer_reports_are_kept) {
    const std::string heap = "==4242==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010\n";
    EXPECT_EQ(without_asan_coroutine_warning(heap), heap);
    const std::string ub = "controller/x.cpp:10:5: runtime error: signed integer overflow\n";
    EXPECT_EQ(without_asan_coroutine_warning(ub), ub);
    // The warning's first line alone (another message after it) is not the warning.
    const std::string partial = coroutine_warning.substr(0, coroutine_warning.find('\n') + 1) + "something else\n";
    EXPECT_EQ(without_asan_coroutine_warning(partial), partial);
}
