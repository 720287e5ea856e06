// libsystemc defines main() and calls sc_main(), so GoogleTest runs from here.
// SystemC warnings, errors and fatals become test failures (errors still throw as usual).
#include <gtest/gtest.h>
#include <systemc>

namespace {
void report_to_gtest(const sc_core::sc_report &report, const sc_core::sc_actions &actions) {
    if (report.get_severity() >= sc_core::SC_WARNING)
        ADD_FAILURE() << "SystemC " << (report.get_severity() == sc_core::SC_WARNING ? "warning" : "error") << " "
                      << report.get_msg_type() << ": " << report.get_msg() << " (" << report.get_file_name()
                      << ":" << report.get_line_number() << ")";
    sc_core::sc_report_handler::default_handler(report, actions);
}
}  // namespace

int sc_main(int argc, char **argv) {
    ::testing::InitGoogleTest(&argc, argv);
    sc_core::sc_report_handler::set_handler(report_to_gtest);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    return RUN_ALL_TESTS();
}
