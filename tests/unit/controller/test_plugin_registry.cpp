// The plug-in registries: names, duplicates, the default firmware family of a layout, a
// mismatch as an error, and a user's family registered from outside the library.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>

#include "controller/firmware_api/plugins.h"

using namespace raidtlm::controller;

namespace {

// A user's family, registered the way an out-of-tree executable does it (never constructed here).
registration<firmware_factory> user_family{
    "test_user_raid5", {"a test family serving raid5", {"raid5"}, [](firmware_platform &) {
                            return std::unique_ptr<firmware>();
                        }}};

firmware_config with_layout(array_kind k, const std::string &family = "") {
    firmware_config fw;
    fw.array = k;
    fw.firmware = family;
    return fw;
}

}  // namespace

TEST(plugin_registry, a_name_is_registered_once) {
    struct thing {
        int value;
    };
    registry<thing> &r = registry<thing>::instance();
    r.add("one", {1});
    EXPECT_EQ(r.find("one")->value, 1);
    EXPECT_EQ(r.find("two"), nullptr);
    EXPECT_THROW(r.add("one", {2}), std::invalid_argument);
    EXPECT_EQ(r.names(), std::vector<std::string>{"one"});
}

TEST(plugin_registry, every_layout_has_its_builtin_family_by_default) {
    EXPECT_EQ(firmware_name(with_layout(array_kind::raid0)), "raid");
    EXPECT_EQ(firmware_name(with_layout(array_kind::raid4)), "raid");
    EXPECT_EQ(firmware_name(with_layout(array_kind::raid5)), "raid");  // not the user's family
    EXPECT_EQ(firmware_name(with_layout(array_kind::raid1)), "replicated");
    EXPECT_EQ(firmware_name(with_layout(array_kind::raid10)), "replicated");
    EXPECT_EQ(firmware_name(with_layout(array_kind::sr_array)), "replicated");
    EXPECT_EQ(firmware_name(with_layout(array_kind::parity_logging)), "parity_logging");
    EXPECT_EQ(firmware_name(with_layout(array_kind::floating)), "floating");
}

TEST(plugin_registry, a_family_is_chosen_by_name_and_must_serve_the_layout) {
    EXPECT_EQ(firmware_name(with_layout(array_kind::raid5, "test_user_raid5")), "test_user_raid5");
    try {
        firmware_name(with_layout(array_kind::raid1, "test_user_raid5"));
        ADD_FAILURE() << "a family that does not serve the layout";
    } catch (const std::invalid_argument &e) {
        EXPECT_NE(std::string(e.what()).find("does not serve controller.layout raid1 (it serves raid5)"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(firmware_name(with_layout(array_kind::raid5, "no_such_family")), std::invalid_argument);
}

TEST(plugin_registry, builtin_schedulers_say_what_they_need) {
    firmware_config fw;
    fw.scheduler = scheduling_policy::fcfs;
    EXPECT_FALSE(scheduler_plugin(fw).make);  // the queue's own order
    fw.scheduler = scheduling_policy::satf;
    EXPECT_TRUE(scheduler_plugin(fw).needs_predictor);
    EXPECT_FALSE(scheduler_plugin(fw).replica_aware);
    fw.scheduler = scheduling_policy::rsatf;
    EXPECT_TRUE(scheduler_plugin(fw).replica_aware);
    fw.scheduler = scheduling_policy::look;
    EXPECT_FALSE(scheduler_plugin(fw).needs_predictor);
    EXPECT_NE(predictor_registry::instance().find("head_position"), nullptr);
}
