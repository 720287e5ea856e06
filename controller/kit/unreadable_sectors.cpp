#include "controller/kit/unreadable_sectors.h"

namespace raidtlm::controller {

namespace {
// [first, first + count) has failed as one read: its halves are tried.
void narrow(uint64_t first, uint64_t count, const std::function<bool(uint64_t, uint64_t)> &read,
            std::vector<sector_run> &out) {
    if (count == 1) {
        if (!out.empty() && out.back().first + out.back().count == first) ++out.back().count;
        else out.push_back({first, 1});
        return;
    }
    const uint64_t half = count / 2;
    for (const auto &[at, n] : {std::pair{first, half}, std::pair{first + half, count - half}})
        if (!read(at, n)) narrow(at, n, read, out);
}
}  // namespace

std::vector<sector_run> narrow_unreadable(uint64_t sectors, const std::function<bool(uint64_t, uint64_t)> &read) {
    std::vector<sector_run> out;
    if (sectors > 0) narrow(0, sectors, read, out);
    return out;
}

bool in_runs(const std::vector<sector_run> &runs, uint64_t offset) {
    for (const sector_run &r : runs)
        if (offset >= r.first && offset < r.first + r.count) return true;
    return false;
}

}  // namespace raidtlm::controller
