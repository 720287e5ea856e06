#include "controller/reintegration_plan.h"

#include <algorithm>

namespace raidtlm::controller {

namespace {
std::vector<log_record> all_records(const std::vector<const logged_write *> &order,
                                    const std::vector<log_record> &in_memory) {
    std::vector<log_record> all;
    for (const logged_write *w : order) all.insert(all.end(), w->records.begin(), w->records.end());
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
        bool any = false;
        for (const auto &s : per)
            if (t < s.size()) {
                plan.read_order.push_back(s[t]);
                any = true;
            }
        if (!any) break;
    }
    const std::vector<log_record> all = all_records(plan.read_order, in_memory);
    parity_reintegrator r(parity_sectors, all);
    for (const log_record &x : all) r.record(x);
    plan.held_sectors = r.peak_held();
    if (parity_sectors + plan.held_sectors <= buffer_sectors) return plan;
    plan.parallel = false;
    plan.held_sectors = 0;
    plan.read_order.clear();
    for (const logged_write &w : writes) plan.read_order.push_back(&w);
    return plan;
}

std::vector<uint64_t> reintegrate(const std::vector<uint64_t> &parity_from_disk, const reintegration_plan &plan,
                                  const std::vector<log_record> &in_memory) {
    const std::vector<log_record> all = all_records(plan.read_order, in_memory);
    parity_reintegrator r(int64_t(parity_from_disk.size()), all);
    for (size_t i = 0; i < parity_from_disk.size(); ++i) r.parity_block(int64_t(i), parity_from_disk[i]);
    for (const log_record &x : all) r.record(x);
    return r.image();
}

}  // namespace raidtlm::controller
