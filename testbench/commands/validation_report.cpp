#include "testbench/commands/validation_report.h"

#include <stdexcept>

#include <fmt/format.h>

#include "controller/kit/predict/demerit.h"
#include "testbench/measurement/response_statistics.h"

namespace raidtlm::testbench {

namespace {
sample_summary summarise(const response_statistics &s) { return {s.count(), s.mean_ms(), s.stddev_ms()}; }
}  // namespace

validation_result compare_validation(const std::vector<validate_record> &records,
                                     const std::vector<double> &simulated_ms) {
    if (records.size() != simulated_ms.size() || records.empty())
        throw std::invalid_argument("compare_validation: sizes differ or empty");
    response_statistics sr, sw, mr, mw;
    std::vector<double> measured;
    measured.reserve(records.size());
    for (size_t k = 0; k < records.size(); ++k) {
        (records[k].read ? sr : sw).add(simulated_ms[k]);
        (records[k].read ? mr : mw).add(records[k].measured_service_ms);
        measured.push_back(records[k].measured_service_ms);
    }
    validation_result v;
    v.simulated_reads = summarise(sr);
    v.simulated_writes = summarise(sw);
    v.measured_reads = summarise(mr);
    v.measured_writes = summarise(mw);
    response_statistics sa = sr, ma = mr;
    sa.merge(sw);
    ma.merge(mw);
    v.simulated_all = summarise(sa);
    v.measured_all = summarise(ma);
    v.demerit_ms = controller::demerit(simulated_ms, measured);
    return v;
}

std::string validation_text(const validation_result &r, const std::string &disk_name, const std::string &disk_file,
                            const std::string &trace_file) {
    std::string o;
    o += fmt::format("raidtlm validate: {} ({})\n", disk_name, disk_file);
    o += fmt::format("  trace {}: {} requests ({} reads, {} writes), one at a time\n\n", trace_file,
                     r.measured_all.count, r.measured_reads.count, r.measured_writes.count);
    o += fmt::format("  {:<10}{:>20}{:>20}\n", "", "simulated", "measured");
    o += fmt::format("  {:<10}{:>10}{:>10}{:>10}{:>10}\n", "(ms)", "mean", "stddev", "mean", "stddev");
    auto row = [&o](const char *name, const sample_summary &s, const sample_summary &m) {
        o += fmt::format("  {:<10}{:>10.3f}{:>10.3f}{:>10.3f}{:>10.3f}\n", name, s.mean_ms, s.stddev_ms, m.mean_ms,
                         m.stddev_ms);
    };
    row("reads", r.simulated_reads, r.measured_reads);
    row("writes", r.simulated_writes, r.measured_writes);
    row("all", r.simulated_all, r.measured_all);
    o += "\n";
    if (r.measured_all.mean_ms > 0)
        o += fmt::format("  demerit {:.2f}% of the measured mean response time\n",
                         100.0 * r.demerit_ms / r.measured_all.mean_ms);
    o += fmt::format("demerit_ms: {:.4f}\n", r.demerit_ms);
    return o;
}

}  // namespace raidtlm::testbench
