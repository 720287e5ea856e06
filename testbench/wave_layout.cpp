// The GTKWave save file of a run (waves.gtkw) and the value-name files of its enum signals: one
// group per disk, and with the controller one per block and channel.
#include "testbench/wave_layout.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "testbench/commands.h"
#include "controller/replicated_firmware.h"
#include "controller/parity_logging_firmware.h"
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
    };
    return s;
}

}  // namespace

void write_wave_layout(const fs::path &out_dir, const run_bench &bench, double end_ms) {
    using namespace waveforms;
    gtkw_layout layout;
    layout.dump_file = "waves.vcd";
    // Open on the first 200 ms (about a hundred requests on the default scenario): zoom out for more.
    layout.view_time = static_cast<uint64_t>(std::min(end_ms, 200.0) * 1e6);  // ns
    std::map<std::string, std::string> filters;
    for (const auto &sig : drive_signals()) {
        if (sig.values.empty()) continue;
        const fs::path f = out_dir / fmt::format("waves_{}.txt", sig.name);
        write_translate_filter(f.string(), sig.values);
        // Beside waves.gtkw: the writer records both so GTKWave finds them wherever the folder goes.
        filters[sig.name] = f.filename().string();
    }
    for (int i = 0; i < bench.disk_count(); ++i) {
        gtkw_group g;
        g.name = bench.disk_name(i);
        for (const auto &sig : drive_signals()) {
            gtkw_signal s;
            s.name = vcd_tracer::gtkwave_name(bench.disk_name(i) + "." + sig.name);
            if (!sig.values.empty()) s.translate_file = filters[sig.name];
            g.signals.push_back(s);
        }
        layout.groups.push_back(g);
    }
    const controller::controller_top *ctl = bench.controller();
    if (!ctl) {
        gtkw_group host;
        host.name = "host";
        host.signals.push_back({vcd_tracer::gtkwave_name("host.outstanding"), gtkw_format::decimal, ""});
        host.signals.push_back({vcd_tracer::gtkwave_name("workload.in_flight"), gtkw_format::decimal, ""});
        layout.groups.push_back(host);
    } else {
        // The controller's blocks, one group each, then one group per SCSI channel with the command
        // state of the drives on it; the per-disk groups above start collapsed.
        for (auto &g : layout.groups) g.closed = true;
        auto named = [&](const std::string &sig, const std::map<int, std::string> &values) {
            const fs::path f = out_dir / fmt::format("waves_{}.txt", sig);
            write_translate_filter(f.string(), values);
            return f.filename().string();
        };
        std::map<int, std::string> tasks;
        for (int k = 0; k < rtl_models::cpu_task_kinds; ++k) tasks[k] = rtl_models::to_string(rtl_models::cpu_task(k));
        std::map<int, std::string> phases;
        for (int k = 0; k <= int(rtl_models::scsi_phase::closing); ++k)
            phases[k] = rtl_models::to_string(rtl_models::scsi_phase(k));
        std::map<int, std::string> owners{{rtl_models::scsi_bus::no_owner, "free"}};
        for (int id = 0; id < 16; ++id) owners[id] = fmt::format("ID {}", id);
        const std::string task_filter = named("cpu_task", tasks), phase_filter = named("bus_phase", phases),
                          owner_filter = named("bus_owner", owners);
        auto sig = [](const std::string &n, const std::string &filter = "") {
            return gtkw_signal{vcd_tracer::gtkwave_name("controller." + n), gtkw_format::decimal, filter};
        };
        gtkw_group top{"controller", {sig("outstanding"), {vcd_tracer::gtkwave_name("workload.in_flight"),
                                                            gtkw_format::decimal, ""}}};
        gtkw_group cpu{"cpu", {}};
        for (int c = 0; c < ctl->cpu().config().cores; ++c) {
            cpu.signals.push_back(sig(fmt::format("cpu.core{}_busy", c)));
            cpu.signals.push_back(sig(fmt::format("cpu.core{}_task", c), task_filter));
        }
        cpu.signals.push_back(sig("cpu.run_queue"));
        if (ctl->config().cpu.model == rtl_models::cpu_model::iss) {
            // The firmware's core: the function it is in (named from the image's symbols, which the
            // firmware's report lists), asleep in WFI, and the interrupt lines.
            nlohmann::json fw;
            ctl->report_firmware(fw);
            std::map<int, std::string> functions{{-1, "(no symbol)"}};
            int k = 0;
            for (const auto &name : fw["iss"]["function_names"]) functions[k++] = name.get<std::string>();
            cpu.signals.push_back(sig("iss.function", named("iss_function", functions)));
            cpu.signals.push_back({vcd_tracer::gtkwave_name("controller.iss.asleep", 1), gtkw_format::binary, ""});
            cpu.signals.push_back({vcd_tracer::gtkwave_name("controller.iss.irq_pending"), gtkw_format::hex, ""});
        }
        gtkw_group dram{"dram", {sig("dram.occupancy_kib"), sig("dram.alloc_waiting")}};
        for (int p = 0; p < ctl->dram().port_count(); ++p)
            dram.signals.push_back(sig(fmt::format("dram.grant_{}", ctl->dram().port_info(p).name)));
        gtkw_group link{"host_link", {sig("host_link.to_controller"), sig("host_link.to_host"), sig("host_link.waiting")}};
        gtkw_group xr{"xor", {sig("xor.busy"), sig("xor.queue_depth")}};
        gtkw_group nv{"nvram", {sig("nvram.occupancy_bytes"), sig("nvram.busy")}};
        const auto *replicated = ctl->firmware_as<controller::replicated_firmware>();
        if (replicated && replicated->delayed_writes()) nv.signals.push_back(sig("nvram.delayed_entries"));
        layout.groups.insert(layout.groups.begin(), {top, cpu, dram, link, xr, nv});
        for (int ch = 0; ch < ctl->channels(); ++ch) {
            gtkw_group g{fmt::format("ch{}", ch),
                         {sig(fmt::format("ch{}.owner", ch), owner_filter), sig(fmt::format("ch{}.phase", ch), phase_filter),
                          sig(fmt::format("ch{}.waiting", ch))}};
            for (int i = 0; i < bench.disk_count(); ++i)
                if (ctl->channel_of(i) == ch)
                    g.signals.push_back({vcd_tracer::gtkwave_name(bench.disk_name(i) + ".cmd_state"),
                                         gtkw_format::decimal, filters["cmd_state"]});
            layout.groups.insert(layout.groups.begin() + 6 + ch, g);
        }
        if (const auto *pl = ctl->firmware_as<controller::parity_logging_firmware>()) {
            // Open on the first reintegration (from 50 ms before) when there was one: 1.5 s wide,
            // or two mean reintegrations when they are longer (the paper array's unstriped sublog
            // reads take ~2 s, a reintegration ~3 s), so the long reads show whole.
            if (pl->first_reintegration_s() >= 0) {
                layout.view_start = static_cast<uint64_t>(std::max(0.0, pl->first_reintegration_s() - 0.05) * 1e9);
                const auto &st = pl->statistics();
                const double mean_s = st.reintegrations > 0 ? st.reintegration_s / double(st.reintegrations) : 0.0;
                layout.view_time = static_cast<uint64_t>(std::max(1.5, 2.0 * mean_s) * 1e9);
            }
            // Reintegrations and log writes next to the drives' states: the convoy effect.
            gtkw_group plog{"parity_logging", {sig("plog.reintegrating"), sig("plog.log_writes"),
                                               sig("plog.buffers_in_use"), sig("plog.blocked_writers")}};
            layout.groups.insert(layout.groups.begin() + 1, plog);
        }
    }
    try {
        write_gtkw((out_dir / "waves.gtkw").string(), layout);
    } catch (const std::runtime_error &e) {
        throw output_error(std::string(e.what()) + "; expected a writable output directory");
    }
}


}  // namespace raidtlm::testbench
