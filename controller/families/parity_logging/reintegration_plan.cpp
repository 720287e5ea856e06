#include "controller/families/parity_logging/reintegration_plan.h"

#include <algorithm>

namespace raidtlm::controller {

namespace {
std::vector<log_record> with(std::vector<log_record> all, const std::vector<log_record> &in_memory) {
    all.insert(all.end(), in_memory.begin(), in_memory.end());
    return all;
}
}  // namespace

reintegration_plan plan_reintegration(int64_t parity_sectors, int64_t buffer_sectors,
                                      const std::vector<logged_write> &writes, const std::vector<log_record> &in_memory) {
    reintegration_plan plan;
    // Parallel order: the t-th log write of every sublog in round t.
    int sublogs = 0;
    for (const logged_write &w : writes) sublogs = std::max(sublogs, w.sublog + 1);
    std::vector<std::vector<const logged_write *>> per(static_cast<size_t>(sublogs));
    for (const logged_write &w : writes) per[size_t(w.sublog)].push_back(&w);
    for (size_t t = 0;; ++t) {
        std::vector<const logged_write *> round;
        for (const auto &s : per)
            if (t < s.size()) round.push_back(s[t]);
        if (round.empty()) break;
        plan.read_order.insert(plan.read_order.end(), round.begin(), round.end());
        for (size_t k = 0;; ++k) {  // the round's writes stream in side by side, sector by sector
            bool any = false;
            for (const logged_write *w : round)
                if (k < w->records.size()) {
                    plan.arrival.push_back(w->records[k]);
                    any = true;
                }
            if (!any) break;
        }
    }
    const std::vector<log_record> all = with(plan.arrival, in_memory);
    parity_reintegrator r(parity_sectors, all);
    for (const log_record &x : all) r.record(x);
    plan.held_sectors = r.peak_held();
    if (parity_sectors + plan.held_sectors <= buffer_sectors) return plan;
    plan.parallel = false;
    plan.held_sectors = 0;
    plan.read_order.clear();
    plan.arrival.clear();
    for (const logged_write &w : writes) {
        plan.read_order.push_back(&w);
        plan.arrival.insert(plan.arrival.end(), w.records.begin(), w.records.end());
    }
    return plan;
}

std::vector<uint64_t> reintegrate(const std::vector<uint64_t> &parity_from_disk, const reintegration_plan &plan,
                                  const std::vector<log_record> &in_memory) {
    const std::vector<log_record> all = with(plan.arrival, in_memory);
    parity_reintegrator r(int64_t(parity_from_disk.size()), all);
    for (size_t i = 0; i < parity_from_disk.size(); ++i) r.parity_block(int64_t(i), parity_from_disk[i]);
    for (const log_record &x : all) r.record(x);
    return r.image();
}

}  // namespace raidtlm::controller
