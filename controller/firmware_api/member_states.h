// The state of each member disk of the array, as the controller platform keeps it (plain C++):
// optimal, failed (the drive is gone: its commands fail) or rebuilding (a fresh drive sits in the
// slot and the firmware is reconstructing the member onto it). The three states are SNIA DDF's
// physical-disk states for a member ("Online", "Failed", "Rebuilding"; DDF 2.0, 5.7.2).
//
// Every change is kept with its time, so stats.json can say when a member was lost, when its
// rebuild began and ended; the firmware's rebuild progress (0..1 of the member) is kept beside it
// for the waves and the statistics only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace raidtlm::controller {

enum class member_state : uint8_t { optimal = 0, failed = 1, rebuilding = 2 };
const char *to_string(member_state s);

struct member_change {
    int disk = 0;
    member_state state = member_state::optimal;
    double at_ms = 0;
};

class member_states {
public:
    explicit member_states(int disks = 0);

    int count() const { return int(m_state.size()); }
    member_state state(int disk) const { return m_state.at(size_t(disk)); }
    // Members in state `failed`, ascending (not the rebuilding ones).
    std::vector<int> failed() const;
    // The lowest failed member, -1: none.
    int first_failed() const;
    bool all_optimal() const;
    bool any(member_state s) const;

    // Throws std::invalid_argument for a disk out of range.
    void set(int disk, member_state s, double now_ms);
    // Every member optimal, then `disk` failed (-1: none): the single-failure setter of old.
    void set_only_failed(int disk, double now_ms);

    // The firmware's rebuild progress of `disk`, 0..1 (0 when not rebuilding).
    void set_progress(int disk, double fraction);
    double progress(int disk) const { return m_progress.at(size_t(disk)); }

    const std::vector<member_change> &history() const { return m_history; }
    // How many times `disk` has been lost (entered failed) so far: a command sent, or a plan made,
    // before the count moved was about a drive that has gone since.
    uint64_t losses(int disk) const { return m_losses.at(size_t(disk)); }

private:
    void check(int disk) const;
    std::vector<member_state> m_state;
    std::vector<double> m_progress;
    std::vector<member_change> m_history;
    std::vector<uint64_t> m_losses;
};

}  // namespace raidtlm::controller
