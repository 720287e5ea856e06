// A user's per-disk scheduler plug-in: shortest seek first with a starvation guard. SSTF keeps
// the head near where it is, which can leave a request at the far edge waiting indefinitely under
// load; here a request passed over `max_passes` times is served next, oldest first.
// Select it with `controller.scheduler: aged_sstf`.
#include <cstdlib>
#include <memory>
#include <unordered_map>

#include "controller/firmware_api/plugins.h"

namespace write_back_raid5 {

namespace rc = raidtlm::controller;

class aged_sstf_scheduler final : public rc::disk_scheduler {
public:
    // 16 passes: a documented default, about two full sweeps of a queue of 8.
    static constexpr int max_passes = 16;

    explicit aged_sstf_scheduler(const config &cfg) : disk_scheduler(cfg) {}

    std::optional<rc::scheduling_decision> choose(const std::vector<rc::queued_request> &queue,
                                                  const rc::access_time_oracle &oracle) override {
        if (queue.empty()) return std::nullopt;
        rc::scheduling_decision best;
        best.entries_examined = queue.size();
        int best_distance = -1;
        for (size_t i = 0; i < queue.size(); ++i) {
            const int passes = m_passes[queue[i].id];
            if (passes >= max_passes) {  // the oldest starving request (the queue is in arrival order)
                best.request = i;
                break;
            }
            const int distance = std::abs(queue[i].placements.front().first.cyl - oracle.head_cylinder());
            if (best_distance < 0 || distance < best_distance) {
                best_distance = distance;
                best.request = i;
            }
        }
        for (size_t i = 0; i < queue.size(); ++i)
            if (i != best.request) ++m_passes[queue[i].id];
        m_passes.erase(queue[best.request].id);
        return best;
    }

private:
    std::unordered_map<uint64_t, int> m_passes;
};

const rc::registration<rc::scheduler_factory> registered{
    "aged_sstf",
    {"shortest seek first, a request passed over 16 times served next (examples/write_back_raid5)", false, false,
     [](const rc::disk_scheduler::config &c) { return std::make_unique<aged_sstf_scheduler>(c); }}};

}  // namespace write_back_raid5
