#include "testbench/commands/bricks_command.h"

#include <chrono>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <systemc>

#include "testbench/bricks/bricks_bench.h"
#include "waveforms/vcd_tracer.h"

namespace raidtlm::testbench {

int run_bricks(const run_options &o, const scenario &s, const disks::disk_spec &spec,
               const std::filesystem::path &out_dir) {
    const auto wall_start = std::chrono::steady_clock::now();
    if (s.workload.arrival != arrival_process::closed)
        throw s.error("workload.arrival", "the bricks topology runs closed loops only",
                      "closed (bricks.outstanding_per_group requests per replica group)");
    if (s.workload.requests == 0)
        throw s.error("workload.requests", "0 with bricks", "a number of measured requests > 0");
    bricks_measurement m;
    m.warmup = s.workload.warmup_requests;
    m.requests = s.workload.requests;
    bricks_bench bench("bricks", s, spec, m);
    std::unique_ptr<waveforms::vcd_tracer> vcd;
    if (s.output.waves) {
        vcd = std::make_unique<waveforms::vcd_tracer>((out_dir / "waves.vcd").string());
        bench.trace(vcd->file());
    }
    sc_core::sc_start();
    if (vcd) vcd->close();
    if (!m.done())
        throw std::runtime_error(fmt::format("the bricks simulation ended after {} of {} measured requests",
                                             m.measured, m.requests));
    nlohmann::json stats;
    stats["scenario"] = s.to_json();
    stats["bricks"] = bench.report();
    const double wall_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    stats["simulated_s"] = sc_core::sc_time_stamp().to_seconds();
    stats["wall_s"] = wall_s;
    {
        std::ofstream out(out_dir / "stats.json");
        out << stats.dump(2) << "\n";
        if (!out)
            throw output_error((out_dir / "stats.json").string() + ": cannot write; expected a writable directory");
    }
    const nlohmann::json &b = stats["bricks"];
    std::cout << fmt::format("bricks: {} x {} ({}), {} per group outstanding\n", b["groups"].get<int>(),
                             b["replicas"].get<int>(), b["distribution"].get<std::string>(),
                             s.bricks.outstanding_per_group);
    std::cout << fmt::format("  throughput            {:10.1f} IO/s ({:.1f} per replica)\n",
                             b["throughput_iops"].get<double>(), b["throughput_per_replica_iops"].get<double>());
    std::cout << fmt::format("  mean response         {:10.3f} ms (Little's law {:.3f} ms)\n",
                             b["mean_response_ms"].get<double>(), b["littles_law_response_ms"].get<double>());
    std::cout << fmt::format("  disk idle             {:10.2f} %\n", 100 * b["disk_idle_fraction_mean"].get<double>());
    if (b.contains("network")) {
        std::cout << fmt::format("  messages per request  {:10.3f}\n", b["network"]["messages_per_request"].get<double>());
        std::cout << fmt::format("  conflicts             {:10.3f} % of requests\n",
                                 100 * b["conflicts_per_request"].get<double>());
        const nlohmann::json &d = b["destages"];
        std::cout << fmt::format("  destages              {:10} of {} writes stored ({:.1f} % of disk time); dirty pages "
                                 "mean {:.0f}, peak {:.0f}\n",
                                 d["destaged"].get<uint64_t>(), d["writes_stored"].get<uint64_t>(),
                                 100 * d["disk_time_fraction"].get<double>(), d["dirty_pages_mean"].get<double>(),
                                 d["dirty_pages_peak"].get<double>());
    }
    std::cout << fmt::format("  measured              {} requests in {:.2f} s simulated; wall {:.1f} s\n",
                             b["measured_requests"].get<uint64_t>(), b["measured_s"].get<double>(), wall_s);
    std::cout << fmt::format("  outputs               {}\n", (out_dir / "stats.json").string()) << std::flush;
    return 0;
}

}  // namespace raidtlm::testbench
