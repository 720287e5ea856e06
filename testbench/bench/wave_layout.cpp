// The GTKWave save file of a run (waves.gtkw) and the value-name files of its enum signals: one
// group per disk, and with the controller one per block and channel.
#include "testbench/bench/wave_layout.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "testbench/commands/commands.h"
#include "controller/families/replicated/replicated_firmware.h"
#include "controller/kit/firmware_kit.h"
#include "controller/families/parity_logging/parity_logging_firmware.h"
#include "controller/families/streams/stream_firmware.h"
#include "waveforms/gtkw_writer.h"
#include "waveforms/vcd_tracer.h"

namespace raidtlm::testbench {

namespace fs = std::filesystem;

namespace {

// The drive signals of disk_drive::trace, with their value names.
struct drive_signal {
    const char *name;
    std::map<int, std::string> values;
};
const std::vector<drive_signal> &drive_signals() {
    static const std::vector<drive_signal> s = {
        {"mech_state", {{0, "idle"}, {1, "seek"}, {2, "rotate"}, {3, "transfer"}}},
        {"cmd_state", {{0, "idle"}, {1, "overhead"}, {2, "media"}, {3, "bus"}}},
        {"cylinder", {}},
        {"head", {}},
        {"queue_depth", {}},
        {"request", {}},  // the host request served (signed: -1 none)
    };
    return s;
}

// Where the view opens and how wide: from the first wait for a bus or a tag (where contention
// starts; the window's start when nothing waited), about one request's life wide (the mean
// response), so single transfers and arbitrations are readable rather than a hash.
void place_view(waveforms::gtkw_layout &layout, const run_bench &bench, const wave_files &waves, double time_unit_s) {
    double first_wait_ms = -1;
    auto earliest = [&](double s) {
        if (s >= 0 && (first_wait_ms < 0 || s * 1e3 < first_wait_ms)) first_wait_ms = s * 1e3;
    };
    if (const controller::controller_top *ctl = bench.controller()) {
        for (int ch = 0; ch < ctl->channels(); ++ch) earliest(ctl->bus(ch).first_wait_s());
        if (const auto *kit = ctl->firmware_as<controller::kit_firmware>()) earliest(kit->kit().queues.first_tag_wait_s());
    }
    const double mean_response_ms =
        bench.workload().completed() ? bench.workload().response_sum_ms() / double(bench.workload().completed()) : 10.0;
    const double span_ms = std::clamp(mean_response_ms, 0.5, 200.0);
    double start_ms = waves.from_ms;
    if (first_wait_ms > start_ms && first_wait_ms < waves.to_ms) start_ms = std::max(start_ms, first_wait_ms - 0.1 * span_ms);
    layout.view_start = static_cast<uint64_t>(start_ms * 1e-3 / time_unit_s);
    layout.view_time = static_cast<uint64_t>(std::min(span_ms, std::max(0.0, waves.to_ms - start_ms)) * 1e-3 / time_unit_s);
}

}  // namespace

void write_wave_layout(const fs::path &out_dir, const run_bench &bench, const wave_files &waves,
                       const waveforms::wave_groups &groups, double time_unit_s) {
    using namespace waveforms;
    gtkw_layout layout;
    layout.dump_file = waves.dump;
    place_view(layout, bench, waves, time_unit_s);
    auto named = [&](const std::string &sig, const std::map<int, std::string> &values) {
        const fs::path f = out_dir / fmt::format("waves_{}.txt", sig);
        write_translate_filter(f.string(), values);
        // Beside waves.gtkw: the writer records both so GTKWave finds them wherever the folder goes.
        return f.filename().string();
    };
    std::map<std::string, std::string> filters;
    std::vector<gtkw_group> disk_groups;
    if (groups.has("disks")) {
        for (const auto &sig : drive_signals())
            if (!sig.values.empty()) filters[sig.name] = named(sig.name, sig.values);
        for (int i = 0; i < bench.disk_count(); ++i) {
            gtkw_group g;
            g.name = bench.disk_name(i);
            for (const auto &sig : drive_signals())
                g.signals.push_back({vcd_tracer::gtkwave_name(bench.disk_name(i) + "." + sig.name),
                                     std::string(sig.name) == "request" ? gtkw_format::signed_decimal
                                                                        : gtkw_format::decimal,
                                     sig.values.empty() ? "" : filters[sig.name], ""});
            disk_groups.push_back(g);
        }
    }
    const gtkw_signal in_flight{vcd_tracer::gtkwave_name("workload.in_flight"), gtkw_format::decimal, "", ""};
    const controller::controller_top *ctl = bench.controller();
    if (!ctl) {
        gtkw_group host{"host", {in_flight}};
        if (groups.has("host"))
            host.signals.insert(host.signals.begin(), {vcd_tracer::gtkwave_name("host.outstanding"), gtkw_format::decimal, "", ""});
        layout.groups.push_back(host);
    } else {
        auto sig = [](const std::string &n, const std::string &filter = "") {
            return gtkw_signal{vcd_tracer::gtkwave_name("controller." + n), gtkw_format::decimal, filter, ""};
        };
        auto flag = [](const std::string &n) {
            return gtkw_signal{vcd_tracer::gtkwave_name("controller." + n, 1), gtkw_format::binary, "", ""};
        };
        layout.groups.push_back({"controller", {sig("outstanding"), in_flight}});
        if (ctl->firmware_as<controller::stream_firmware>()) {
            // The stream engine beside the controller: who reads ahead, what is staged, the memory.
            layout.groups.push_back({"stream_engine", {sig("dispatch_set"), sig("buffered_set"), sig("streams"),
                                                       sig("memory_kib"), sig("hits"), sig("waits"), sig("bypassed")}});
        }
        const auto *pl = ctl->firmware_as<controller::parity_logging_firmware>();
        if (pl && groups.has("parity_logging")) {
            // Open on the first reintegration (from 50 ms before) when there was one: 1.5 s wide,
            // or two mean reintegrations when they are longer (the paper array's unstriped sublog
            // reads take ~2 s, a reintegration ~3 s), so the long reads show whole.
            if (pl->first_reintegration_s() >= 0) {
                layout.view_start = static_cast<uint64_t>(std::max(0.0, pl->first_reintegration_s() - 0.05) / time_unit_s);
                const auto &st = pl->statistics();
                const double mean_s = st.reintegrations > 0 ? st.reintegration_s / double(st.reintegrations) : 0.0;
                layout.view_time = static_cast<uint64_t>(std::max(1.5, 2.0 * mean_s) / time_unit_s);
            }
            // Reintegrations and log writes next to the drives' states: the convoy effect.
            layout.groups.push_back({"parity_logging", {sig("plog.reintegrating"), sig("plog.log_writes"),
                                                        sig("plog.buffers_in_use"), sig("plog.blocked_writers")}});
        }
        if (groups.has("cpu")) {
            std::map<int, std::string> tasks;
            for (int k = 0; k < rtl_models::cpu_task_kinds; ++k) tasks[k] = rtl_models::to_string(rtl_models::cpu_task(k));
            const std::string task_filter = named("cpu_task", tasks);
            gtkw_group cpu{"cpu", {}};
            const bool iss = ctl->config().cpu.model == rtl_models::cpu_model::iss;
            // With the ISS the firmware runs on its core, not on the cost table's cores (idle
            // throughout: left in the VCD, out of the view).
            if (!iss) {
                for (int c = 0; c < ctl->cpu().config().cores; ++c) {
                    cpu.signals.push_back(flag(fmt::format("cpu.core{}_busy", c)));
                    cpu.signals.push_back(sig(fmt::format("cpu.core{}_task", c), task_filter));
                }
                cpu.signals.push_back(sig("cpu.run_queue"));
            } else {
                // The firmware's core: the function it is in (named from the image's symbols, which the
                // firmware's report lists), asleep in WFI, and the interrupt lines.
                nlohmann::json fw;
                ctl->report_firmware(fw);
                std::map<int, std::string> functions{{-1, "(no symbol)"}};
                int k = 0;
                for (const auto &name : fw["iss"]["function_names"]) functions[k++] = name.get<std::string>();
                cpu.signals.push_back(sig("iss.function", named("iss_function", functions)));
                cpu.signals.push_back({vcd_tracer::gtkwave_name("controller.iss.asleep", 1), gtkw_format::binary, "", ""});
                cpu.signals.push_back({vcd_tracer::gtkwave_name("controller.iss.irq_pending"), gtkw_format::hex, "", ""});
            }
            layout.groups.push_back(cpu);
        }
        if (groups.has("dram")) {
            gtkw_group dram{"dram", {sig("dram.occupancy_kib"), sig("dram.alloc_waiting")}};
            for (int p = 0; p < ctl->dram().port_count(); ++p)
                dram.signals.push_back(flag(fmt::format("dram.grant_{}", ctl->dram().port_info(p).name)));
            layout.groups.push_back(dram);
        }
        if (groups.has("host_link"))
            layout.groups.push_back(
                {"host_link", {flag("host_link.to_controller"), flag("host_link.to_host"), sig("host_link.waiting")}});
        if (groups.has("xor")) layout.groups.push_back({"xor", {flag("xor.busy"), flag("xor.gf_busy"), sig("xor.queue_depth")}});
        if (groups.has("nvram")) {
            gtkw_group nv{"nvram", {sig("nvram.occupancy_bytes"), flag("nvram.busy")}};
            const auto *replicated = ctl->firmware_as<controller::replicated_firmware>();
            if (replicated && replicated->delayed_writes()) nv.signals.push_back(sig("nvram.delayed_entries"));
            layout.groups.push_back(nv);
        }
        if (groups.has("channels")) {
            std::map<int, std::string> phases;
            for (int k = 0; k < rtl_models::scsi_phase_count; ++k)
                phases[k] = rtl_models::to_string(rtl_models::scsi_phase(k));
            const std::string phase_filter = named("bus_phase", phases);
            for (int ch = 0; ch < ctl->channels(); ++ch) {
                // The owner by name: the drives on this channel, "ctrl" while the controller selects.
                std::map<int, std::string> owners{{rtl_models::scsi_bus::no_owner, "free"},
                                                  {ctl->config().initiator_id, "ctrl"}};
                std::vector<int> on_channel;
                for (int i = 0; i < bench.disk_count(); ++i)
                    if (ctl->channel_of(i) == ch) {
                        on_channel.push_back(i);
                        owners[ctl->target_id_of(i)] = bench.disk_name(i);
                    }
                const std::string c = fmt::format("ch{}", ch);
                gtkw_group g{c, {sig(c + ".owner", named(c + "_owner", owners)), sig(c + ".phase", phase_filter),
                                 sig(c + ".waiting")}};
                // The host request of the connection on the bus (-1: none or the controller's own).
                g.signals.insert(g.signals.begin() + 1, sig(c + ".request"));
                g.signals[1].format = gtkw_format::signed_decimal;
                // Who waits for the bus, one 1-bit row each, then what each drive is doing.
                g.signals.push_back(flag(c + ".ctrl_waiting"));
                for (int i : on_channel) g.signals.push_back(flag(c + "." + bench.disk_name(i) + "_waiting"));
                if (groups.has("disks"))
                    for (int i : on_channel)
                        g.signals.push_back({vcd_tracer::gtkwave_name(bench.disk_name(i) + ".cmd_state"),
                                             gtkw_format::decimal, filters["cmd_state"], ""});
                layout.groups.push_back(g);
            }
        }
        if (groups.has("queues") && ctl->firmware_as<controller::kit_firmware>()) {
            // The firmware's per-disk queues: where requests wait before a drive sees them.
            gtkw_group q{"firmware_queues", {}};
            for (int i = 0; i < bench.disk_count(); ++i) {
                const std::string d = "fw." + bench.disk_name(i) + ".";
                q.signals.push_back(sig(d + "queue_depth"));
                q.signals.push_back(flag(d + "tag_wait"));
                q.signals.push_back(sig(d + "oldest_wait_us"));
                q.signals.push_back(sig(d + "tags_in_use"));
            }
            layout.groups.push_back(q);
        }
    }
    layout.groups.insert(layout.groups.end(), disk_groups.begin(), disk_groups.end());
    // Every row says whose it is: GTKWave shows only a signal's leaf name ("queue_depth"), so
    // each row is labelled with its path below the controller ("fw disk0 queue_depth").
    for (auto &g : layout.groups)
        for (auto &s : g.signals) {
            std::string path = s.name.substr(0, s.name.find('['));
            for (const char *prefix : {"SystemC.", "controller."})
                if (path.rfind(prefix, 0) == 0) path = path.substr(std::string(prefix).size());
            std::replace(path.begin(), path.end(), '.', ' ');
            s.alias = path;
        }
    try {
        write_gtkw((out_dir / "waves.gtkw").string(), layout);
    } catch (const std::runtime_error &e) {
        throw output_error(std::string(e.what()) + "; expected a writable output directory");
    }
}


}  // namespace raidtlm::testbench
