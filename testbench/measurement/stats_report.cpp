#include "testbench/measurement/stats_report.h"

#include "testbench/bench/fault_injector.h"

#include <cmath>

#include <fmt/format.h>

#include "testbench/build_info.h"
#include "testbench/measurement/text_table.h"

namespace raidtlm::testbench {

disks::drive_statistics difference(const disks::drive_statistics &a, const disks::drive_statistics &b) {
    disks::drive_statistics d;
    d.requests = a.requests - b.requests;
    d.reads = a.reads - b.reads;
    d.writes = a.writes - b.writes;
    d.full_hits = a.full_hits - b.full_hits;
    d.partial_hits = a.partial_hits - b.partial_hits;
    d.write_backs = a.write_backs - b.write_backs;
    d.seeks = a.seeks - b.seeks;
    d.seek_distance_cyl_sum = a.seek_distance_cyl_sum - b.seek_distance_cyl_sum;
    d.seek_ms_sum = a.seek_ms_sum - b.seek_ms_sum;
    d.rotation_ms_sum = a.rotation_ms_sum - b.rotation_ms_sum;
    d.transfer_ms_sum = a.transfer_ms_sum - b.transfer_ms_sum;
    d.overhead_ms_sum = a.overhead_ms_sum - b.overhead_ms_sum;
    d.queue_ms_sum = a.queue_ms_sum - b.queue_ms_sum;
    d.busy_ms = a.busy_ms - b.busy_ms;
    return d;
}

namespace {

double per(double sum, uint64_t n) { return n ? sum / static_cast<double>(n) : 0.0; }

nlohmann::json disk_json(const disk_report &d, double window_ms) {
    const auto &s = d.window;
    return {{"name", d.name},
            {"spindle_phase", d.spindle_phase},
            {"requests", s.requests},
            {"reads", s.reads},
            {"writes", s.writes},
            {"seeks", s.seeks},
            {"mean_seek_distance_cyl", per(s.seek_distance_cyl_sum, s.requests)},
            {"mean_seek_ms", per(s.seek_ms_sum, s.requests)},
            {"mean_rotation_ms", per(s.rotation_ms_sum, s.requests)},
            {"mean_transfer_ms", per(s.transfer_ms_sum, s.requests)},
            {"mean_overhead_ms", per(s.overhead_ms_sum, s.requests)},
            {"mean_queue_ms", per(s.queue_ms_sum, s.requests)},
            {"cache_full_hit_ratio", per(static_cast<double>(s.full_hits), s.requests)},
            {"cache_partial_hit_ratio", per(static_cast<double>(s.partial_hits), s.requests)},
            {"write_back_ratio", per(static_cast<double>(s.write_backs), s.requests)},
            {"busy_ms", s.busy_ms},
            {"utilisation", window_ms > 0 ? s.busy_ms / window_ms : 0.0}};
}

nlohmann::json wait_json(const rtl_models::wait_stats &w) {
    return {{"count", w.count}, {"mean_ms", w.mean_s() * 1e3}, {"max_ms", w.max_s * 1e3}};
}

double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

// Infinity (too few batches) is written as null.
nlohmann::json finite_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

nlohmann::json measurement_json(const run_measurement &m) {
    const stopping_rule &rule = m.rule();
    return {{"stopped_by", to_string(m.stopped_by())},
            {"stopping_rule",
             {{"ci_target", rule.ci_target}, {"ci_level", rule.ci_level}, {"min_requests", rule.min_requests}}},
            {"ci",
             {{"level", rule.ci_level},
              {"half_width_ms", finite_or_null(m.ci_half_width_ms())},
              {"relative", finite_or_null(m.ci_relative())},
              {"batches", m.ci().batches()},
              {"batch_size", m.ci().batch_size()},
              {"lag1_autocorrelation", m.ci().lag1_autocorrelation()},
              {"method", "batch means"}}}};
}

}  // namespace

nlohmann::json controller_json(const controller::controller_top &c) {
    const double now = sc_core::sc_time_stamp().to_seconds();
    nlohmann::json j;
    // CPU
    {
        const auto &cpu = c.cpu();
        const auto &st = cpu.statistics();
        const double window = now - st.since_s;
        nlohmann::json per_core = nlohmann::json::array();
        for (int core = 0; core < cpu.config().cores; ++core) per_core.push_back(ratio(cpu.core_busy_s(core), window));
        nlohmann::json tasks;
        for (int k = 1; k < rtl_models::cpu_task_kinds; ++k)
            tasks[rtl_models::to_string(rtl_models::cpu_task(k))] = {{"count", st.tasks[size_t(k)]},
                                                                      {"cycles", st.cycles[size_t(k)]}};
        j["cpu"] = {{"mhz", cpu.config().mhz},
                    {"cores", cpu.config().cores},
                    {"utilisation", ratio(cpu.busy_s(), window * cpu.config().cores)},
                    {"per_core_utilisation", per_core},
                    {"wait", wait_json(st.wait)},
                    {"tasks", tasks}};
    }
    // Buffer DRAM
    {
        const auto &dram = c.dram();
        const auto &st = dram.statistics();
        const double window = now - st.since_s;
        const double bw = dram.config().unlimited_bandwidth() ? 0.0 : dram.config().bandwidth_bytes_per_s();
        nlohmann::json ports;
        for (int p = 0; p < dram.port_count(); ++p) {
            const auto &ps = st.ports[size_t(p)];
            ports[dram.port_info(p).name] = {{"utilisation", ratio(ps.bytes, bw * window)},
                                             {"busy_fraction", ratio(ps.busy_s, window)},
                                             {"mb_per_s", ratio(ps.bytes, window) / 1e6},
                                             {"transfers", ps.transfers},
                                             {"wait", wait_json(ps.wait)}};
        }
        j["dram"] = {{"bandwidth_mb_per_s", bw / 1e6},
                     {"utilisation", dram.utilisation()},
                     {"mb_per_s", ratio(st.bytes, window) / 1e6},
                     {"ports", ports},
                     {"buffer",
                      {{"capacity_mib", double(dram.config().capacity_bytes) / double(1 << 20)},
                       {"peak_kib", st.occupancy_bytes.peak() / 1024.0},
                       {"mean_kib", st.occupancy_bytes.mean(now) / 1024.0},
                       {"utilisation", dram.config().capacity_bytes
                                           ? st.occupancy_bytes.mean(now) / double(dram.config().capacity_bytes)
                                           : 0.0},
                       {"allocations", st.allocations},
                       {"wait", wait_json(st.alloc_wait)}}}};
    }
    // NVRAM, XOR engine, host link
    {
        const auto &st = c.nvram().statistics();
        j["nvram"] = {{"utilisation", c.nvram().utilisation()},
                      {"reads", st.reads},
                      {"writes", st.writes},
                      {"peak_occupancy_bytes", st.occupancy_bytes.peak()},
                      {"mean_occupancy_bytes", st.occupancy_bytes.mean(now)},
                      {"wait", wait_json(st.wait)}};
    }
    {
        const auto &st = c.xor_unit().statistics();
        j["xor"] = {{"utilisation", c.xor_unit().utilisation()},
                    {"commands", st.commands},
                    {"mb_per_s", ratio(st.result_bytes, now - st.since_s) / 1e6},
                    {"wait", wait_json(st.wait)},
                    // Of these, the GF multiply-accumulate mode's (RAID 6's Q and recovery).
                    {"gf_commands", st.gf_commands},
                    {"gf_mb_per_s", ratio(st.gf_result_bytes, now - st.since_s) / 1e6},
                    {"gf_utilisation", ratio(st.gf_busy_s, now - st.since_s)}};
    }
    {
        const auto &link = c.link();
        const auto &st = link.statistics();
        const double window = now - st.since_s;
        j["host_link"] = {{"description", link.config().describe()},
                          {"utilisation", link.utilisation()},
                          {"to_controller_mb_per_s", ratio(st.bytes[0], window) / 1e6},
                          {"to_host_mb_per_s", ratio(st.bytes[1], window) / 1e6},
                          {"wait", wait_json(st.wait)}};
    }
    // SCSI channels
    j["channels"] = nlohmann::json::array();
    for (int ch = 0; ch < c.channels(); ++ch) {
        const auto &bus = c.bus(ch);
        const auto &st = bus.statistics();
        const double window = now - st.since_s;
        nlohmann::json by_id;
        nlohmann::json owned = nlohmann::json::object();  // ms each SCSI ID held the bus (the initiator while it selects)
        for (int id = 0; id < 16; ++id) {
            if (st.wait_by_id[size_t(id)].count) by_id[std::to_string(id)] = wait_json(st.wait_by_id[size_t(id)]);
            if (bus.owned_s(id) > 0) owned[std::to_string(id)] = bus.owned_s(id) * 1e3;
        }
        j["channels"].push_back({{"name", fmt::format("ch{}", ch)},
                                 {"rate_mb_per_s", bus.config().rate_mb_per_s()},
                                 {"targets", bus.targets()},
                                 {"utilisation", bus.utilisation()},
                                 {"busy_ms", bus.busy_s() * 1e3},
                                 {"owned_ms_by_scsi_id", owned},
                                 {"data_utilisation", ratio(st.data_s, window)},
                                 {"data_mb_per_s", ratio(st.data_bytes, window) / 1e6},
                                 {"selections", st.selections},
                                 {"reselections", st.reselections},
                                 {"arbitration_wait", wait_json(st.wait)},
                                 {"wait_by_scsi_id", by_id}});
    }
    const auto &fw = c.statistics();
    j["firmware"] = {{"requests", fw.requests},
                     {"physical_commands", fw.physical_commands},
                     {"peak_outstanding", fw.peak_outstanding}};
    // The firmware family's own figures (tag_wait, layout, per-family counters).
    c.report_firmware(j["firmware"]);
    if (j["firmware"].contains("prediction")) {
        // The platform's prediction probe: predicted vs actual access time (positioning +
        // rotational latency) of every predicted command, as Yu et al.'s Table 2.
        const controller::prediction_statistics &p = fw.prediction;
        auto &pj = j["firmware"]["prediction"];
        pj["requests"] = p.count();
        pj["misses"] = p.misses();
        pj["miss_rate"] = p.miss_rate();
        pj["mean_error_ms"] = p.mean_error_ms();
        pj["stddev_error_ms"] = p.stddev_error_ms();
        pj["mean_access_ms"] = p.mean_access_ms();
        pj["demerit_ms"] = p.demerit_ms();
        pj["relative_demerit"] = p.relative_demerit();
    }
    // The scoreboard's counts cover the whole run (warm-up included): a wrong token is never forgiven.
    j["integrity_errors"] = c.integrity().integrity_errors();
    j["reads_checked"] = c.integrity().reads_checked();
    // The first wrong reads, to start debugging from: the logical sector, the token the scoreboard
    // expected (the last acknowledged write's) and the one the read returned (data_token.h).
    nlohmann::json wrong = nlohmann::json::array();
    for (const auto &m : c.integrity().first_mismatches())
        wrong.push_back({{"lbn", m.lbn}, {"expected", m.expected}, {"got", m.got}});
    j["first_integrity_errors"] = std::move(wrong);
    // Host requests the firmware failed (whole run); what the faults cost is in firmware's lost_ranges.
    j["failed_requests"] = {{"reads", fw.failed_reads}, {"writes", fw.failed_writes}};
    j["medium_errors"] = fw.medium_errors;
    j["commands_to_failed_members"] = fw.commands_to_failed;
    j["commands_lost_in_flight"] = fw.commands_lost_in_flight;
    // Each member's state at the end and every change with its time (member_states.h).
    const controller::member_states &ms = c.members();
    nlohmann::json members = nlohmann::json::array(), history = nlohmann::json::array();
    for (int d = 0; d < ms.count(); ++d)
        members.push_back({{"disk", d}, {"state", controller::to_string(ms.state(d))}, {"rebuild_pct", ms.progress(d) * 100}});
    for (const controller::member_change &m : ms.history())
        history.push_back({{"disk", m.disk}, {"state", controller::to_string(m.state)}, {"at_ms", m.at_ms}});
    j["members"] = members;
    j["member_changes"] = history;
    // Host response times by the array's state at arrival (measured window): what a loss and a
    // rebuild cost the foreground.
    const char *phase[3] = {"optimal", "degraded", "rebuilding"};
    for (size_t k = 0; k < 3; ++k)
        j["response_by_array_state"][phase[k]] = {
            {"requests", fw.responses[k]},
            {"mean_ms", fw.responses[k] ? fw.response_ms_sum[k] / double(fw.responses[k]) : 0.0}};
    return j;
}

integrity_counts integrity_of(const controller::controller_top &c) {
    integrity_counts out{c.integrity().integrity_errors(), c.integrity().reads_checked(), {}};
    for (const auto &m : c.integrity().first_mismatches()) out.first.push_back({m.lbn, m.expected, m.got});
    return out;
}

nlohmann::json build_json() {
    return {{"version", raidtlm_version()}, {"commit", build_commit()}};
}

nlohmann::json make_stats_json(const run_report &r) {
    const run_measurement &m = *r.measurement;
    nlohmann::json j;
    j["raidtlm"] = build_json();
    j["scenario"] = r.config->to_json();
    j["disk_model"] = r.disk_model;
    j["requests"] = {{"measured", m.measured()},
                     {"warmup", m.warmup_requests()},
                     {"completed_total", m.completed_total()},
                     {"errors", m.errors()},
                     {"reads", m.reads().count()},
                     {"writes", m.writes().count()},
                     {"mean_sectors", m.all().count() ? double(m.measured_sectors()) / m.all().count() : 0.0}};
    j["window"] = {{"start_ms", m.window_start_ms()}, {"end_ms", m.window_end_ms()}, {"duration_ms", m.window_ms()}};
    j["response_time"] = m.all().to_json();
    j["read_response_time"] = m.reads().to_json();
    j["write_response_time"] = m.writes().to_json();
    j["throughput"] = {{"iops", m.iops()}, {"mb_per_s", m.mb_per_s()}};
    j["host"] = {{"peak_outstanding", r.host_peak_outstanding}, {"disk_commands", r.host_disk_commands}};
    if (r.controller) j["controller"] = controller_json(*r.controller);
    j["disks"] = nlohmann::json::array();
    for (const auto &d : r.disks) j["disks"].push_back(disk_json(d, m.window_ms()));
    j["measurement"] = measurement_json(m);
    if (r.think)
        j["think_time"] = {{"distribution", to_string(r.config->workload.think_time_distribution)},
                           {"target_iops", r.config->workload.target_iops},
                           {"mean_ms", r.think->drawn_mean_ms()},
                           {"final_mean_ms", r.think->mean_ms()},
                           {"zero_mean_fraction", r.think->zero_mean_fraction()}};
    if (r.trace) {
        const trace_reader &t = r.trace->reader();
        j["trace"] = {{"file", t.name()},
                      {"format", to_string(t.format())},
                      {"time_scale", r.config->trace.time_scale},
                      {"lines", t.lines()},
                      {"requests", t.requests()},
                      {"skipped_lines", t.skipped()},
                      {"wrapped", r.trace->wrapped()},
                      {"skipped_beyond_capacity", r.trace->skipped_beyond()},
                      {"devices", t.device_names()}};
    }
    if (r.samples) j["timeline"] = r.samples->to_json();
    if (r.faults) j["faults"] = r.faults->report();
    j["simulation"] = {{"end_ms", r.sim_end_ms},
                       {"wall_s", r.wall_s},
                       {"requests_per_wall_s", r.wall_s > 0 ? static_cast<double>(m.completed_total()) / r.wall_s : 0.0}};
    return j;
}

namespace {
std::string workload_text(const scenario &s) {
    const workload_config &w = s.workload;
    if (w.arrival == arrival_process::trace)
        return fmt::format("trace {} ({}), time scale {}", s.trace.file, to_string(s.trace.format), s.trace.time_scale);
    std::string arrival;
    if (w.arrival == arrival_process::closed)
        arrival = fmt::format("closed, {} outstanding, think {}{}", w.outstanding,
                              w.target_iops > 0 ? fmt::format("tuned for {} IO/s", w.target_iops)
                                                : fmt::format("{} ms", w.think_time_ms),
                              w.think_time_distribution != think_dist::constant
                                  ? fmt::format(" ({})", to_string(w.think_time_distribution))
                                  : std::string());
    else if (!w.rate_schedule.empty())
        arrival = fmt::format("open, a schedule of {} rates", w.rate_schedule.size());
    else
        arrival = fmt::format("open, mean interarrival {} ms", w.mean_interarrival_ms);
    std::string size;
    switch (w.size_distribution) {
    case size_dist::constant: size = fmt::format("{} sectors", w.request_sectors); break;
    case size_dist::uniform: size = fmt::format("{}-{} sectors", w.size_min_sectors, w.size_max_sectors); break;
    case size_dist::table: size = "sizes from a table"; break;
    case size_dist::zipf: size = fmt::format("Zipf sizes, mean {} sectors", w.size_mean_sectors); break;
    case size_dist::exponential:
        size = fmt::format("exponential sizes ({} sectors mean, in units of {})", w.size_mean_sectors,
                           w.alignment_sectors ? w.alignment_sectors : 1);
        break;
    }
    bool table_directions = w.size_distribution == size_dist::table;
    for (const auto &row : w.size_table) table_directions = table_directions && row.direction >= 0;
    const std::string reads = table_directions ? std::string("directions from the table")
                                               : fmt::format("{:.0f}% reads", w.read_fraction * 100);
    return fmt::format("{}; {}, {}, {} addresses, seed {}", arrival, reads, size, to_string(w.address), w.seed);
}

std::string stop_text(const run_measurement &m) {
    switch (m.stopped_by()) {
    case stop_reason::ci:
        return fmt::format("; stopped: CI within {:.1f}% of the mean", 100 * m.rule().ci_target);
    case stop_reason::requests:
        return m.rule().ci_target > 0
                   ? fmt::format("; stopped at the cap of {} requests, CI target {:.1f}% NOT reached",
                                 m.target_requests(), 100 * m.rule().ci_target)
                   : std::string();
    case stop_reason::source_end: return "; stopped: end of the trace";
    case stop_reason::running: return "";
    }
    return "";
}
}  // namespace

std::string summary_table(const run_report &r) {
    const scenario &s = *r.config;
    const run_measurement &m = *r.measurement;
    std::string out;
    auto line = [&out](const std::string &t) { out += t + "\n"; };

    const std::string layout = s.host.layout == host_layout::stripe
                                   ? fmt::format("stripe unit {} sectors", s.host.stripe_unit_sectors)
                                   : std::string("jbod");
    line(fmt::format("raidtlm run {}", s.file));
    line(fmt::format("  {} x {} ({}), {}", s.disks.count, r.disk_model,
                     s.disks.spindle_sync ? "spindles synchronized" : "free spindles", layout));
    if (s.controller.enabled) {
        const auto &c = s.controller.config;
        auto mbs = [](double v) { return v > 0 ? fmt::format("{:.0f} MB/s", v) : std::string("unlimited"); };
        line(fmt::format("  controller: {} x {} bus ({}), CPU {} MHz x {}, DRAM {}, host link {}", c.channels,
                         rtl_models::to_string(c.bus.preset), mbs(c.bus.rate_mb_per_s()), c.cpu.mhz, c.cpu.cores,
                         mbs(c.dram.bandwidth_bytes_per_s() / 1e6), c.host_link.describe()));
    }
    line("  " + workload_text(s));
    line(fmt::format("  measured {} requests after {} warm-up, over {:.3f} s simulated{}", m.measured(),
                     m.warmup_requests(), m.window_ms() / 1000.0,
                     m.errors() ? fmt::format(" ({} ERRORS)", m.errors()) : std::string()));
    if (r.controller && (!s.faults.empty() || s.controller.config.firmware.fail_disk >= 0)) {
        // What the faults cost: requests failed, sectors lost, integrity.
        const auto &cs = r.controller->statistics();
        nlohmann::json fw;
        r.controller->report_firmware(fw);
        line(fmt::format("  faults: {} scheduled; failed requests {} reads, {} writes; lost sectors {}; medium errors {}; "
                         "integrity errors {} in {} reads checked",
                         s.faults.size() + (s.controller.config.firmware.fail_disk >= 0 ? 1 : 0), cs.failed_reads,
                         cs.failed_writes, fw.value("lost_sectors", int64_t(0)), cs.medium_errors,
                         r.controller->integrity().integrity_errors(), r.controller->integrity().reads_checked()));
        if (fw.contains("rebuild")) {
            const nlohmann::json &rb = fw["rebuild"];
            auto mean = [&](size_t k) {
                return cs.responses[k] ? fmt::format("{:.3f} ms", cs.response_ms_sum[k] / double(cs.responses[k]))
                                       : std::string("-");
            };
            line(fmt::format("  rebuild: {} started, {} finished, {:.1f} MB rebuilt, {} units lost; mean response "
                             "optimal {}, degraded {}, rebuilding {}",
                             rb.value("started", 0), rb.value("finished", 0), rb.value("mb_rebuilt", 0.0),
                             rb.value("units_lost", 0), mean(0), mean(1), mean(2)));
        }
    }
    line("");
    // Columns as wide as their content: a huge request's response times must not run together.
    text_table responses({{"response time (ms)", text_table::align::left}, {"count"}, {"mean"}, {"stddev"}, {"p50"},
                          {"p90"}, {"p99"}, {"max"}});
    auto ms = [](double v) { return fmt::format("{:.3f}", v); };
    auto rt = [&](const char *name, const response_statistics &st) {
        responses.add_row({name, std::to_string(st.count()), ms(st.mean_ms()), ms(st.stddev_ms()),
                           ms(st.percentile_ms(0.5)), ms(st.percentile_ms(0.9)), ms(st.percentile_ms(0.99)),
                           ms(st.max_ms())});
    };
    rt("all", m.all());
    rt("reads", m.reads());
    rt("writes", m.writes());
    out += responses.render();
    line("");
    const double hw = m.ci_half_width_ms();
    line(fmt::format("  mean response {:.3f} ms +- {} ({:.0f}% CI, batch means: {} batches of {}){}", m.all().mean_ms(),
                     std::isfinite(hw) ? fmt::format("{:.3f} ms ({:.2f}%)", hw, 100 * m.ci_relative())
                                       : std::string("? (too few requests)"),
                     100 * m.rule().ci_level, m.ci().batches(), m.ci().batch_size(), stop_text(m)));
    if (r.think)
        line(fmt::format("  think time {} mean {:.3f} ms{}", to_string(s.workload.think_time_distribution),
                         r.think->drawn_mean_ms(),
                         s.workload.target_iops > 0
                             ? fmt::format(", tuned for {} IO/s{}", s.workload.target_iops,
                                           r.think->zero_mean_fraction() > 0.5 ? " (saturated: driven to 0)" : "")
                             : std::string()));
    line(fmt::format("  throughput {:.1f} IO/s, {:.3f} MB/s", m.iops(), m.mb_per_s()));
    line("");
    text_table disk_table({{"disk", text_table::align::left}, {"requests"}, {"seek_cyl"}, {"seek_ms"}, {"rot_ms"},
                           {"xfer_ms"}, {"hit%"}, {"util%"}});
    for (const auto &d : r.disks) {
        const auto &w = d.window;
        disk_table.add_row({d.name, std::to_string(w.requests), fmt::format("{:.1f}", per(w.seek_distance_cyl_sum, w.requests)),
                            ms(per(w.seek_ms_sum, w.requests)), ms(per(w.rotation_ms_sum, w.requests)),
                            ms(per(w.transfer_ms_sum, w.requests)),
                            fmt::format("{:.1f}", 100.0 * per(static_cast<double>(w.full_hits), w.requests)),
                            fmt::format("{:.1f}", m.window_ms() > 0 ? 100.0 * w.busy_ms / m.window_ms() : 0.0)});
    }
    out += disk_table.render();
    if (r.controller) {
        auto mbs = [](double v) { return v > 0 ? fmt::format("{:.0f} MB/s", v) : std::string("unlimited"); };
        const nlohmann::json c = controller_json(*r.controller);
        line("");
        text_table blocks({{"controller block", text_table::align::left}, {"util%"}, {"mean wait ms"}, {"max wait ms"}});
        auto row = [&](const std::string &name, double util, const nlohmann::json &wait) {
            blocks.add_row({name, fmt::format("{:.1f}", 100 * util), fmt::format("{:.4f}", wait["mean_ms"].get<double>()),
                            fmt::format("{:.4f}", wait["max_ms"].get<double>())});
        };
        row("cpu", c["cpu"]["utilisation"], c["cpu"]["wait"]);
        if (c.contains("firmware") && c["firmware"].contains("iss"))  // the firmware's own core
            row("iss core (firmware)", c["firmware"]["iss"]["utilization"], {{"mean_ms", 0.0}, {"max_ms", 0.0}});
        row("dram bandwidth", c["dram"]["utilisation"], c["dram"]["ports"]["host"]["wait"]);
        row("dram buffer space", c["dram"]["buffer"]["utilisation"], c["dram"]["buffer"]["wait"]);
        row("host link", c["host_link"]["utilisation"], c["host_link"]["wait"]);
        row("xor engine", c["xor"]["utilisation"], c["xor"]["wait"]);
        row("nvram", c["nvram"]["utilisation"], c["nvram"]["wait"]);
        for (const auto &ch : c["channels"])
            row(fmt::format("{} bus ({})", ch["name"].get<std::string>(), mbs(ch["rate_mb_per_s"].get<double>())),
                ch["utilisation"], ch["arbitration_wait"]);
        // Where requests wait before a drive sees them: the firmware's per-disk queues (tags).
        const nlohmann::json &fw = c["firmware"];
        if (fw.contains("tag_wait"))
            blocks.add_row({"firmware tag wait", "", fmt::format("{:.4f}", fw["tag_wait"]["mean_ms"].get<double>()),
                            fmt::format("{:.4f}", fw["tag_wait"]["max_ms"].get<double>())});
        out += blocks.render();
        line(fmt::format("  (dram bandwidth wait: host port; per-port waits in stats.json)"));
        // The firmware's own counters (every number it reports at the top level of its object).
        std::string counters;
        for (const auto &[key, value] : fw.items())
            if (value.is_number())
                counters += fmt::format("{}{} {}", counters.empty() ? "" : ", ", key,
                                        value.is_number_integer() ? fmt::format("{}", value.get<int64_t>())
                                                                  : fmt::format("{:.4g}", value.get<double>()));
        if (!counters.empty()) line("  firmware: " + counters);
    }
    line("");
    line(fmt::format("  wall {:.2f} s, {:.0f} requests/s", r.wall_s,
                     r.wall_s > 0 ? static_cast<double>(m.completed_total()) / r.wall_s : 0.0));
    for (const auto &o : r.outputs) line("  wrote " + o);
    return out;
}

}  // namespace raidtlm::testbench
