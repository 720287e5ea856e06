#include <gtest/gtest.h>

#include "disk_fixtures.h"
#include "disks/supported_parameters.h"

using namespace raidtlm::disks;

TEST(supported_parameters, every_reference_drive_is_supported) {
    for (const disk_spec *s : {&raidtlm::test::cheetah9lp(), &raidtlm::test::atlas10k(), &raidtlm::test::hp_c2247a(),
                               &raidtlm::test::barracuda(), &raidtlm::test::cheetah4lp()})
        EXPECT_NO_THROW(check_supported(*s)) << s->name;
}

TEST(supported_parameters, queue_only_features_refused_only_where_commands_queue) {
    disk_spec s = raidtlm::test::cheetah9lp();
    s.cache.allow_sneaky_full_read_hits = true;
    s.origin["Allow sneaky full read hits"] = {"x.diskspecs", 17};
    try {
        check_supported(s, drive_use::queued_commands);
        FAIL() << "accepted an unmodelled feature";
    } catch (const unsupported_parameter &e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("x.diskspecs:17"), std::string::npos) << m;
        EXPECT_NE(m.find("Allow sneaky full read hits"), std::string::npos) << m;
    }
    EXPECT_NO_THROW(check_supported(s, drive_use::one_command_at_a_time));
}

TEST(supported_parameters, impossible_values_refused_everywhere) {
    disk_spec s = raidtlm::test::cheetah9lp();
    s.cache.fast_write_level = 3;
    EXPECT_THROW(check_supported(s, drive_use::one_command_at_a_time), unsupported_parameter);
}
