// DiskSim validation configurations (.parv): all ten of DiskSim 4.0's load, the host path's
// transfer times come from their buses, and values DiskSim accepts are taken (or refused naming
// file, line and why).
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "disks/diskspec_loader.h"
#include "disks/diskspec_parser.h"
#include "disks/supported_parameters.h"
#include "disks/validation_system.h"

namespace fs = std::filesystem;
using namespace raidtlm::disks;

namespace {

const std::string validation_dir = std::string(RAIDTLM_SHARED_DIR) + "/reference/disksim/validation/";

std::string read_text(const std::string &path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const std::exception &e) {
        return e.what();
    }
    ADD_FAILURE() << "nothing thrown";
    return "";
}

#define EXPECT_CONTAINS(text, part) \
    EXPECT_NE((text).find(part), std::string::npos) << "missing: " << (part) << "\nin: " << (text)

// A private copy of one drive's validation files, to edit.
class parv_copy {
public:
    explicit parv_copy(const std::string &drive, std::vector<std::string> files) : m_drive(drive) {
        static std::atomic<int> counter{0};
        m_dir = fs::temp_directory_path() / ("raidtlm_parv_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
        fs::create_directories(m_dir);
        files.push_back(drive + ".parv");
        for (const auto &f : files) fs::copy_file(validation_dir + f, m_dir / f);
    }
    ~parv_copy() {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }
    std::string path(const std::string &name) const { return (m_dir / name).string(); }
    std::string parv() const { return path(m_drive + ".parv"); }
    void edit(const std::string &name, const std::string &from, const std::string &to) const {
        std::string text = read_text(path(name));
        const size_t pos = text.find(from);
        ASSERT_NE(pos, std::string::npos) << "'" << from << "' not in " << name;
        text.replace(pos, from.size(), to);
        std::ofstream(path(name), std::ios::trunc) << text;
    }
    int line_of(const std::string &name, const std::string &needle) const {
        const std::string text = read_text(path(name));
        const size_t pos = text.find(needle);
        return pos == std::string::npos ? 0 : 1 + int(std::count(text.begin(), text.begin() + long(pos), '\n'));
    }

private:
    std::string m_drive;
    fs::path m_dir;
};

struct expected_drive {
    const char *parv;
    const char *disk_block;
    double read_sector_ms, write_sector_ms;  // BUS1's block transfer times in the file
};

}  // namespace

TEST(validation_system, all_ten_disksim_configurations_load) {
    const expected_drive drives[] = {
        {"atlas10k", "QUANTUM_TORNADO_validate", 0, 0},
        {"atlas_III", "QUANTUM_QM39100TD-SW", 0, 0},
        {"barracuda", "SEAGATE_ST32171W", 0, 0},
        {"cheetah4LP", "SEAGATE_ST34501N_validate", 0, 0},
        {"cheetah9LP", "SEAGATE_ST39102LW_validate", 0, 0},
        {"ibm18es", "IBM_DNES-309170W_validate", 0, 0},
        {"hp_c2247a", "HP_C2247A_validate", 0.17010, 0.18686},
        {"hp_c2490a", "HP_C2490A_validate", 0.14841, 0.14841},
        {"hp_c3323a", "HP_C3323A_validate", 0.14550, 0.14550},
        {"dec_rz26", "DEC_RZ26_validate", 0.07069, 0.07069},
    };
    for (const auto &d : drives) {
        SCOPED_TRACE(d.parv);
        validation_system sys;
        ASSERT_NO_THROW(sys = load_validation_system(validation_dir + d.parv + ".parv"));
        EXPECT_EQ(sys.disk_instance, "disk0");
        EXPECT_EQ(sys.disk.name, d.disk_block);
        ASSERT_EQ(sys.buses.size(), 2u);  // driver -> bus0 -> ctlr0 -> bus1 -> disk0
        EXPECT_EQ(sys.buses[1].instance, "bus1");
        EXPECT_DOUBLE_EQ(sys.read_sector_ms, d.read_sector_ms);
        EXPECT_DOUBLE_EQ(sys.write_sector_ms, d.write_sector_ms);
        EXPECT_NO_THROW(check_supported(sys.disk, drive_use::one_command_at_a_time));
        EXPECT_TRUE(is_system_configuration(validation_dir + d.parv + ".parv"));
    }
    EXPECT_FALSE(is_system_configuration(validation_dir + "cheetah9LP.diskspecs"));
}

TEST(validation_system, the_parser_keeps_instances_and_topology) {
    const param_file f = parse_param_file(validation_dir + "hp_c2247a.parv");
    ASSERT_EQ(f.topology.size(), 1u);
    const topology_node &driver = f.topology[0];
    EXPECT_EQ(driver.type, "disksim_iodriver");
    EXPECT_EQ(driver.name, "driver0");
    ASSERT_EQ(driver.children.size(), 1u);
    EXPECT_EQ(driver.children[0].children[0].type, "disksim_ctlr");
    bool disk_found = false;
    for (const auto &i : f.instances)
        if (i.type == "HP_C2247A_validate") disk_found = i.names == std::vector<std::string>{"disk0"};
    EXPECT_TRUE(disk_found);
}

TEST(validation_system, instance_ranges_expand) {
    parv_copy c("cheetah9LP", {"cheetah9LP.diskspecs", "cheetah9LP.model", "cheetah9LP.seek"});
    c.edit("cheetah9LP.parv", "instantiate [ disk0 ] as", "instantiate [ disk0 .. disk2 ] as");
    const param_file f = parse_param_file(c.parv());
    bool found = false;
    for (const auto &i : f.instances)
        if (i.type == "SEAGATE_ST39102LW_validate") found = i.names == std::vector<std::string>{"disk0", "disk1", "disk2"};
    EXPECT_TRUE(found);
}

TEST(validation_system, refuses_what_the_validation_does_not_model_naming_file_and_line) {
    const std::vector<std::string> files = {"cheetah9LP.diskspecs", "cheetah9LP.model", "cheetah9LP.seek"};
    {
        // Arbitration is modelled: each bus's time is paid per ownership (summed over the path).
        parv_copy c("cheetah9LP", files);
        c.edit("cheetah9LP.parv", "Arbitration time = 0.0", "Arbitration time = 0.02");
        EXPECT_DOUBLE_EQ(load_validation_system(c.parv()).arbitration_ms, 0.02);
    }
    {
        parv_copy c("cheetah9LP", files);
        c.edit("cheetah9LP.parv", "Scale for delays = 0.0", "Scale for delays = 1.0");
        const std::string e = error_of([&] { load_validation_system(c.parv()); });
        EXPECT_CONTAINS(e, c.parv() + ":" + std::to_string(c.line_of("cheetah9LP.parv", "Scale for delays")));
        EXPECT_CONTAINS(e, "message overheads are not modelled");
    }
    {
        parv_copy c("cheetah9LP", files);
        c.edit("cheetah9LP.parv", "Read block transfer time = 0.0", "Read block transfer time = -1");
        const std::string e = error_of([&] { load_validation_system(c.parv()); });
        EXPECT_CONTAINS(e, "'Read block transfer time' is '-1'; expected a number >= 0 (DiskSim's range)");
    }
    {
        parv_copy c("cheetah9LP", files);
        c.edit("cheetah9LP.parv", "Arbitration type = 1", "Arbitration typo = 1");
        const std::string e = error_of([&] { load_validation_system(c.parv()); });
        EXPECT_CONTAINS(e, "unknown parameter 'Arbitration typo'");
    }
    {
        parv_copy c("cheetah9LP", files);
        c.edit("cheetah9LP.parv", "instantiate [ disk0 ] as", "instantiate [ diskX ] as");
        const std::string e = error_of([&] { load_validation_system(c.parv()); });
        EXPECT_CONTAINS(e, "instance 'disk0' is never instantiated");
    }
}

// Values DiskSim's own parameter tables accept (src/modules/disk.modspec) load, with DiskSim's
// meaning; values beyond them are refused with DiskSim's range.
TEST(validation_system, disksim_value_ranges_are_accepted) {
    const std::vector<std::string> files = {"cheetah9LP.diskspecs", "cheetah9LP.model", "cheetah9LP.seek"};
    parv_copy c("cheetah9LP", files);
    c.edit("cheetah9LP.diskspecs", "Enable caching in buffer = 1", "Enable caching in buffer = 2");
    c.edit("cheetah9LP.diskspecs", "Read-ahead over requested = 1", "Read-ahead over requested = -1");
    c.edit("cheetah9LP.diskspecs", "Immediate buffer read = 0", "Immediate buffer read = 2");
    c.edit("cheetah9LP.diskspecs", "Max queue length = 1", "Max queue length = 0");
    const disk_spec s = load_diskspec(c.path("cheetah9LP.diskspecs"));
    EXPECT_TRUE(s.cache.enabled);
    EXPECT_TRUE(s.cache.read_ahead_over_requested);
    EXPECT_TRUE(s.cache.immediate_buffer_read);
    EXPECT_NO_THROW(check_supported(s, drive_use::one_command_at_a_time));
    // A drive that queues commands needs a limit to advertise.
    EXPECT_CONTAINS(error_of([&] { check_supported(s, drive_use::queued_commands); }), "'Max queue length' = 0");

    c.edit("cheetah9LP.diskspecs", "Enable caching in buffer = 2", "Enable caching in buffer = 3");
    EXPECT_CONTAINS(error_of([&] { load_diskspec(c.path("cheetah9LP.diskspecs")); }),
                    "'Enable caching in buffer' is '3'; expected 0, 1 or 2");
}
