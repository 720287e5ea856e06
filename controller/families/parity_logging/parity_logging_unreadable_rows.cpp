// Parity logging with one check: the parity of some rows made from their data when a data read
// answers MEDIUM ERROR (no member lost). The parity is made from the data where a log was dropped
// (a torn reintegration or a lost controller state at a restart: rebuild_parity; with members
// missing or sectors recorded lost elsewhere: rebuild_checks_around_losses) or a host write was
// torn by the loss (resync_stripe). Before, a row whose data read failed was left as it was
// and nothing was recorded: the dropped log's records never reached its parity, and a later read
// of the unreadable sectors rebuilt them from that stale parity and served the result (the
// explorer's 97:572, a sublog unreadable during a controller loss's recovery and a data sector
// unreadable right after: 4 wrong reads, XOR garbage). Now the unreadable sectors are narrowed
// as firmware narrows them (unreadable_sectors.h: reads in halves, one status per command), and
// each row is judged alone:
//   - every data sector read: the parity is made from them;
//   - one data sector unreadable and the row's parity still describes it (the dropped log did not
//     name it, the torn write did not touch it) and readable: the sector rebuilt from the parity
//     and the row's other data, and written back (the drive reallocates it), the parity kept;
//   - otherwise (a stale or torn row, two unreadable sectors, the parity unreadable too): the
//     unreadable data sectors are lost (recorded on their member, so every later decision counts
//     them gone and their reads fail until rewritten); the parity is made from what was read.
// The slot's parity is then written whole, so no row is left with a parity nobody knows is stale.
#include "controller/families/parity_logging/parity_logging_firmware.h"

#include "controller/kit/torn_stripe_rows.h"
#include "controller/kit/unreadable_sectors.h"

namespace raidtlm::controller {

bool parity_logging_firmware::make_parity_around_unreadable(const std::vector<region_extent> &data,
                                                            const region_extent &parity,
                                                            const std::function<int64_t(int, int64_t)> &lbn_of,
                                                            const std::function<bool(int64_t)> &stale, int affinity) {
    const size_t D = data.size();
    const uint64_t n = uint64_t(parity.sectors);
    const uint64_t new_parity = uint64_t(D) * n, old_parity = new_parity + n;
    protocol::buffer_block *work =
        m_platform.allocate_buffer((D + 2) * n * protocol::sector_bytes, (D + 2) * n);
    m_platform.check_power();
    const uint64_t losses = m_platform.member_losses();
    std::vector<std::vector<sector_run>> bad(D);
    bool any_bad = false;
    for (size_t j = 0; j < D; ++j) {
        const region_extent &e = data[j];
        if (member_io(false, e.disk, uint64_t(e.drive_lbn), uint32_t(n), work, j * n)) continue;
        bad[j] = narrow_unreadable(n, [&](uint64_t at, uint64_t count) {
            return member_io(false, e.disk, uint64_t(e.drive_lbn) + at, uint32_t(count), work, j * n + at);
        });
        any_bad = any_bad || !bad[j].empty();
    }
    std::vector<sector_run> parity_bad;
    bool ok = m_platform.member_losses() == losses;  // a member lost meanwhile: the caller's case
    if (ok && any_bad &&
        !member_io(false, parity.disk, uint64_t(parity.drive_lbn), uint32_t(n), work, old_parity))
        parity_bad = narrow_unreadable(n, [&](uint64_t at, uint64_t count) {
            return member_io(false, parity.disk, uint64_t(parity.drive_lbn) + at, uint32_t(count), work,
                             old_parity + at);
        });
    ok = ok && m_platform.member_losses() == losses;
    if (ok) {
        std::vector<protocol::buffer_ref> inputs;
        for (size_t j = 0; j < D; ++j) inputs.push_back({work, j * n});
        m_kit.xor_blocks(inputs, {work, new_parity}, n, affinity);
        std::vector<std::vector<sector_run>> repaired(D);
        auto &tokens = work->tokens;
        for (uint64_t o = 0; o < n && any_bad; ++o) {
            std::vector<size_t> unreadable;
            for (size_t j = 0; j < D; ++j)
                if (in_runs(bad[j], o)) unreadable.push_back(j);
            if (unreadable.empty()) continue;
            if (unreadable.size() == 1 && !stale(int64_t(o)) && !in_runs(parity_bad, o)) {
                // The parity describes the row: the sector is the parity XOR the other data.
                const size_t j = unreadable.front();
                uint64_t value = tokens[size_t(old_parity + o)];
                for (size_t k = 0; k < D; ++k)
                    if (k != j) value ^= tokens[size_t(k * n + o)];
                tokens[size_t(j * n + o)] = value;
                tokens[size_t(new_parity + o)] = tokens[size_t(old_parity + o)];
                add_run(repaired[j], o, 1);
                continue;
            }
            for (size_t j : unreadable)
                record_lost({data[j].disk, data[j].drive_lbn + int64_t(o), 1}, lbn_of(int(j), int64_t(o)), 0);
        }
        ok = member_io(true, parity.disk, uint64_t(parity.drive_lbn), uint32_t(n), work, new_parity);
        for (size_t j = 0; j < D && ok; ++j)
            for (const sector_run &r : repaired[j]) {
                ok = member_io(true, data[j].disk, uint64_t(data[j].drive_lbn) + r.first, uint32_t(r.count), work,
                               j * n + r.first) && ok;
                ++m_stats.media_repairs;
            }
    }
    m_platform.free_buffer(work);
    return ok;
}

}  // namespace raidtlm::controller
