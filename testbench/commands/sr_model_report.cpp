#include "testbench/commands/sr_model_report.h"

#include <cmath>
#include <iostream>
#include <stdexcept>

#include "testbench/models/sr_array_model.h"
#include "disks/diskspec_loader.h"
#include "disks/seek_model.h"

namespace raidtlm::testbench {

namespace sm = controller::sr_model;

nlohmann::json sr_model_report(const sr_model_options &o) {
    auto need = [](bool ok, const char *what) {
        if (!ok) throw std::invalid_argument(what);
    };
    need(o.max_seek_ms > 0, "--max-seek-ms: expected a number > 0 (or --disk to take it from a spec)");
    need(o.rotation_ms > 0, "--rotation-ms: expected a number > 0 (or --disk to take it from a spec)");
    need(o.seek_locality >= 1, "--locality: expected a number >= 1");
    need(o.ds >= 1 && o.dr >= 1 && o.dm >= 1, "--ds, --dr, --dm: expected integers >= 1");
    need(o.outstanding >= 1, "--queue: expected a number >= 1");
    need(o.read_fraction >= 0 && o.read_fraction <= 1, "--read-fraction: expected a number in [0, 1]");
    need(o.overhead_ms >= 0, "--overhead-ms: expected a number >= 0");

    const sm::disk_times d{o.max_seek_ms, o.rotation_ms, o.seek_locality};
    const double disks = double(o.ds) * o.dr * o.dm;
    const double p = o.read_fraction;
    // Section 2.5: an SR-Mirror is modelled as an SR-Array with Dr*Dm replicas.
    const double replicas = double(o.dr) * o.dm;
    const double q = o.outstanding / disks;  // per-disk queue, Q = D q
    const double t_read = sm::read_latency_ms(d, o.ds, replicas);
    const double t_write = sm::write_latency_ms(d, o.ds, replicas);
    const double t_mixed = sm::mixed_latency_ms(d, o.ds, replicas, p);
    const double t_stroke = sm::stroke_latency_ms(d, o.ds, replicas, p, q);
    // Section 2.4: Eq 12 "is a good approximation when q > 3"; below, the latency model (Eq 9).
    const bool stroke = q > 3;
    const double t_used = stroke ? t_stroke : t_mixed;
    const double n1 = sm::single_disk_iops(o.overhead_ms, t_used);

    nlohmann::json j;
    j["inputs"] = {{"max_seek_ms", o.max_seek_ms}, {"rotation_ms", o.rotation_ms}, {"seek_locality", o.seek_locality},
                   {"ds", o.ds}, {"dr", o.dr}, {"dm", o.dm}, {"disks", disks}, {"outstanding", o.outstanding},
                   {"read_fraction", p}, {"overhead_ms", o.overhead_ms}};
    j["per_disk_queue"] = q;
    j["eq4_read_latency_ms"] = t_read;
    j["eq4_seek_ms"] = sm::striping_seek_ms(d, o.ds);
    j["eq4_rotation_ms"] = sm::even_replica_read_rotation_ms(d, replicas);
    j["eq7_write_latency_ms"] = t_write;
    j["eq9_mixed_latency_ms"] = t_mixed;
    j["eq12_stroke_latency_ms"] = t_stroke;
    j["throughput_model"] = stroke ? "eq12 (per-disk queue > 3)" : "eq9 (per-disk queue <= 3)";
    j["eq15_single_disk_iops"] = n1;
    j["eq16_array_iops"] = sm::array_iops(disks, o.outstanding, n1);
    // The real-valued optima for this D, p and q (Eq 5/10-11 and Eq 13-14); below p = 1/2
    // replication never pays and the optimum is pure striping.
    const sm::aspect_ratio lat = sm::optimal_aspect_ratio(d, disks, p);
    j["optimum_latency"] = {{"ds", lat.ds}, {"dr", lat.dr}, {"latency_ms", sm::best_latency_ms(d, disks, p)}};
    const sm::aspect_ratio thr = sm::optimal_stroke_aspect_ratio(d, disks, p, q);
    j["optimum_stroke"] = {{"ds", thr.ds}, {"dr", thr.dr}, {"latency_ms", sm::best_stroke_latency_ms(d, disks, p, q)}};
    return j;
}

int run_sr_model(sr_model_options o) {
    if (!o.disk_file.empty() && (o.max_seek_ms < 0 || o.rotation_ms < 0)) {
        const disks::disk_spec spec = disks::load_diskspec(o.disk_file, o.disk_name);
        if (o.max_seek_ms < 0) o.max_seek_ms = disks::seek_model(spec.mech.seek).seek_ms(spec.cylinders - 1);
        if (o.rotation_ms < 0) o.rotation_ms = 60000.0 / spec.mech.rpm;
    }
    std::cout << sr_model_report(o).dump(2) << std::endl;
    return 0;
}

}  // namespace raidtlm::testbench
