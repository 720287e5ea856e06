// The plug-in kinds of the controller and their registries (registry.h): firmware families,
// array layouts, per-disk schedulers and head-position predictors. A scenario names them
// (controller.firmware, controller.layout, controller.scheduler); builtin_plugins.cpp registers
// raidtlm's own, a user's executable registers its own with a `registration` object.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "controller/firmware_api/controller_config.h"
#include "controller/kit/queues/disk_scheduler.h"
#include "controller/firmware_api/firmware_api.h"
#include "controller/kit/predict/head_position_predictor.h"
#include "controller/layouts/layout.h"
#include "controller/firmware_api/registry.h"

namespace raidtlm::controller {

// A firmware family: the layouts it serves (the first family listing a layout is that layout's
// default when controller.firmware is not given) and how to create it on a platform.
struct firmware_factory {
    std::string help;
    std::vector<std::string> layouts;
    std::function<std::unique_ptr<firmware>(firmware_platform &)> make;
};

// An array layout over the disks; nullptr when the host address map alone does (JBOD).
// `scheme`: the redundancy scheme it implements (controller_config.h: array_kind), which says
// which firmware families serve it (those listing the layout's name or the scheme's) and which
// of the scenario's checks apply. Its own parameters are plug-in keys under
// controller.<its name>.* (config/plugin_keys.h), accepted only while it is the layout.
struct layout_factory {
    std::string help;
    array_kind scheme = array_kind::raid0;
    std::function<std::unique_ptr<layout>(const controller_config &, const std::vector<disk_info> &)> make;
};

// A per-disk scheduler. `needs_predictor`: it ranks by predicted access time (the firmware
// gives each disk a head-position predictor); `replica_aware`: it picks among a request's
// placements (layouts with rotational replicas).
struct scheduler_factory {
    std::string help;
    bool needs_predictor = false;
    bool replica_aware = false;
    std::function<std::unique_ptr<disk_scheduler>(const disk_scheduler::config &)> make;
};

// A head-position predictor for one drive, from its published spec and the datasheet latencies
// between its media and the firmware's channel (drive_latency).
struct predictor_factory {
    std::string help;
    std::function<std::unique_ptr<head_position_predictor>(
        const disks::disk_spec &, const head_position_predictor::config &, const drive_latency &)>
        make;
};

using firmware_registry = registry<firmware_factory>;
using layout_registry = registry<layout_factory>;
using scheduler_registry = registry<scheduler_factory>;
using predictor_registry = registry<predictor_factory>;

// Registers raidtlm's built-in plug-ins (once; later calls do nothing).
void register_builtin_plugins();

// The layout's name in the layout registry (controller.layout).
std::string layout_name(const firmware_config &fw);
// The registered layout of that name, or nullptr.
const layout_factory *find_layout(const std::string &name);
// The firmware family that runs: controller.firmware, else the default of the layout. Throws
// std::invalid_argument naming the registered families when the name is unknown or the
// family does not serve the layout.
std::string firmware_name(const firmware_config &fw);
std::unique_ptr<firmware> make_firmware(firmware_platform &platform);
// Throws layout_error when the layout does not fit the disks.
std::unique_ptr<layout> make_array_layout(const controller_config &c, const std::vector<disk_info> &disks);
// The same, for a firmware: controller.layout over the platform's drives.
std::unique_ptr<layout> make_array_layout(const firmware_platform &platform);
// The name of controller.scheduler: the plug-in's, else the built-in policy's.
std::string scheduler_name(const firmware_config &fw);
// The scheduler of controller.scheduler (its `make` empty for fcfs: the queue's own order);
// throws std::invalid_argument for a name nobody registered.
const scheduler_factory &scheduler_plugin(const firmware_config &fw);

}  // namespace raidtlm::controller
