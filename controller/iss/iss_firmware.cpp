#include "controller/iss/iss_firmware.h"

#include <stdexcept>

#ifdef RAIDTLM_HAVE_ISS
#include <sstream>

#include "controller/firmware_api/controller_config.h"
#include "controller/kit/firmware_kit.h"
#include "controller/iss/iss_device.h"
#include "controller/firmware_api/plugins.h"
#include "rtl_models/cpu/elf_image.h"
#include "rtl_models/cpu/iss_cpu.h"
#endif

namespace raidtlm::controller {

#ifdef RAIDTLM_HAVE_ISS
namespace {

iss_array_facts facts_of(firmware_platform &p, const layout &array) {
    const firmware_config &fw = p.config().firmware;
    if (layout_name(fw) != "raid0" && layout_name(fw) != "raid5")  // its own C layouts, not a plug-in's
        throw std::invalid_argument("controller.cpu.model iss: the C firmware serves controller.layout raid0 and raid5");
    if (fw.rebuild.units_in_flight != 1)
        throw std::invalid_argument("controller.cpu.model iss: the C firmware rebuilds one stripe at a time "
                                    "(controller.rebuild_units_in_flight must be 1)");
    if (fw.array == array_kind::raid5 && fw.parity_rotation != parity_placement::left_symmetric)
        throw std::invalid_argument("controller.cpu.model iss: the C firmware's RAID 5 is left-symmetric");
    if (fw.layout == host_layout::jbod)
        throw std::invalid_argument("controller.cpu.model iss: host.layout jbod is not served by the C firmware");
    if (p.disk_count() > int(RT_MAX_DISKS) || p.config().channels > int(RT_MAX_CHANNELS))
        throw std::invalid_argument("controller.cpu.model iss: at most 32 disks on 8 channels");
    iss_array_facts f;
    f.layout = fw.array == array_kind::raid5 ? RT_LAYOUT_RAID5 : RT_LAYOUT_RAID0;
    f.stripe_unit_sectors = uint32_t(fw.stripe_unit_sectors);
    uint64_t smallest = UINT64_MAX;
    int queue = 1 << 30;
    for (int d = 0; d < p.disk_count(); ++d) {
        smallest = std::min<uint64_t>(smallest, p.drive_info(d).capacity_blocks);
        queue = std::min(queue, p.drive_info(d).max_queue_length);
    }
    if (smallest > UINT32_MAX || uint64_t(array.capacity_sectors()) > UINT32_MAX)
        throw std::invalid_argument("controller.cpu.model iss: the C firmware addresses 32-bit sector numbers (2 TiB)");
    // A redundant layout's members keep their superblocks in their last sectors (member_superblock.h):
    // the array's data end before them. RAID 0 keeps none (controller_config.h).
    f.disk_sectors = uint32_t(layout_keeps_member_identity(fw.array) ? member_data_sectors(smallest) : smallest);
    f.tags_per_disk = uint32_t(fw.tags_per_disk > 0 ? fw.tags_per_disk : std::max(queue, 1));
    f.host_slots = 64;
    f.array_sectors = uint64_t(array.capacity_sectors());
    return f;
}

class iss_firmware : public firmware {
public:
    explicit iss_firmware(firmware_platform &p)
        : m_platform(p), m_layout(make_array_layout(p)), m_facts(facts_of(p, *m_layout)),
          m_image(rtl_models::elf_image::load(image_path(p.config().cpu))),
          m_device("iss_registers", p, m_facts, p.config().cpu.register_access_ns),
          m_cpu("iss_cpu", cpu_config(p.config().cpu), m_image, RT_DEVICE_BASE, RT_DEVICE_BYTES, m_device) {
        m_cpu.bus.bind(m_device.socket);
    }

    uint64_t capacity_sectors() const override { return uint64_t(m_layout->capacity_sectors()); }
    const layout *array_layout() const override { return m_layout.get(); }
    bool serve(const host_command &cmd) override { return m_device.serve(cmd); }
    // The C firmware rebuilds a RAID 5 member stripe by stripe (controller/iss/firmware_c/rebuild.c).
    bool start_rebuild(int disk) override {
        if (m_platform.config().firmware.array != array_kind::raid5) return false;
        m_device.request_rebuild(disk);
        return true;
    }

    bool maintenance_io(bool read, int disk, uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer) override {
        drive_request r;
        r.write = !read;
        r.disk = disk;
        r.lbn = lbn;
        r.sectors = sectors;
        r.buffer = buffer;
        return m_platform.drive_command(r).ok;
    }
    // Member identity (controller/iss/firmware_c/members.c). The array's creation before the run
    // places each member's superblock (as the C++ families' member_metadata does: no time passes
    // before the run); from then on the firmware alone writes them, through its queues, and reads
    // them back at every boot.
    void create_members_before_run() override {
        if (m_facts.layout != RT_LAYOUT_RAID5) return;
        const int n = m_platform.disk_count();
        member_superblock sb;
        sb.array_id = array_identity(int(RT_LAYOUT_RAID5), n, m_facts.stripe_unit_sectors, m_facts.disk_sectors);
        sb.members = n;
        sb.events = 1;
        for (int d = 0; d < n; ++d) {
            sb.states.push_back(m_platform.member_state_of(d));
            if (sb.states.back() != member_state::optimal) sb.degraded = true;
        }
        for (int d = 0; d < n; ++d) {
            sb.member_index = d;
            const std::vector<uint64_t> words = encode_superblock(sb);
            // On every member right after the array's data (the smallest drive's end reserve).
            m_platform.install_untimed(d, m_facts.disk_sectors, words.data(), uint32_t(words.size()));
        }
    }
    void members_changed() override {
        if (m_facts.layout == RT_LAYOUT_RAID5) m_device.members_changed();
    }
    // The start-up: the controller's blocks come back empty and the core boots the image again;
    // the firmware reads every member's superblock and posts its verdicts, which are returned
    // here; it goes on (restart_after_power_loss) once the platform has failed the members not
    // current.
    std::vector<member_verdict> check_members() override {
        m_device.power_reset();
        m_cpu.restart();
        m_booted_for_check = true;
        std::vector<member_verdict> v = m_device.await_member_check();
        ++m_checks;
        for (member_verdict m : v) m_not_current += m != member_verdict::current ? 1 : 0;
        return v;
    }
    // The firmware replays its write-intent records before it sets READY
    // (controller/iss/firmware_c/recovery.c).
    size_t restart_after_power_loss() override {
        if (!m_booted_for_check) {  // a restart without the start-up check (tests)
            m_device.power_reset();
            m_cpu.restart();
        }
        m_booted_for_check = false;
        m_device.apply_member_check();
        while (!m_device.ready()) sc_core::wait(m_device.ready_event());
        return m_device.recovered();
    }
    void report_member_identity(nlohmann::json &out) const override {
        if (m_checks == 0) return;
        out["member_identity"] = {{"checks", m_checks}, {"members_not_current", m_not_current}};
    }
    void reset_statistics() override {
        m_cpu.reset_statistics();
        m_device.reset_statistics();
    }
    void report(nlohmann::json &out) const override {
        out["family"] = "iss";
        report_lost_ranges(m_device.lost_ranges(), out);
        m_device.report_repairs(out);
        nlohmann::json &cpu = out["iss"];
        m_cpu.report(cpu);
        m_device.report(cpu["register_block"]);
        cpu["console"] = m_device.console();
        if (m_platform.config().cpu.firmware_profile) {
            std::ostringstream profile;
            m_cpu.write_profile(profile);
            cpu["profile"] = profile.str();
        }
    }
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix) override {
        m_cpu.trace(tf, prefix + ".iss");
        m_device.trace(tf, prefix + ".iss");
    }

private:
    static std::string image_path(const rtl_models::cpu_config &c) {
        return c.firmware_image.empty() ? std::string(RAIDTLM_ISS_DEFAULT_IMAGE) : c.firmware_image;
    }
    static rtl_models::iss_cpu_config cpu_config(const rtl_models::cpu_config &c) {
        rtl_models::iss_cpu_config i;
        i.mhz = c.mhz;
        i.cycles_per_instruction = c.cycles_per_instruction;
        i.quantum_us = c.quantum_us;
        i.profile = c.firmware_profile;
        i.gdb_port = c.gdb_port;
        return i;
    }

    firmware_platform &m_platform;
    std::unique_ptr<layout> m_layout;
    iss_array_facts m_facts;
    rtl_models::elf_image m_image;
    iss_device m_device;
    rtl_models::iss_cpu m_cpu;
    bool m_booted_for_check = false;
    uint64_t m_checks = 0, m_not_current = 0;
};

}  // namespace

std::unique_ptr<firmware> make_iss_firmware(firmware_platform &platform) {
    return std::make_unique<iss_firmware>(platform);
}
#else
std::unique_ptr<firmware> make_iss_firmware(firmware_platform &) {
    throw std::invalid_argument(
        "controller.cpu.model iss: this raidtlm was built without the instruction-set simulator "
        "(libunicorn-dev or gcc-arm-none-eabi was missing at configure time; scripts/setup installs them)");
}
#endif

}  // namespace raidtlm::controller
