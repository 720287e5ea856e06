// Member identity on the drives: the superblock each member of an array carries, where it sits on
// the drive, and the start-up verdict on every member from what the firmware read back (plain
// C++; the C firmware on the ISS reads and writes the same words: controller/iss/firmware_c/members.c).
//
// Real arrays keep, on every member, which array it belongs to, which member it is and an event
// count bumped on every change of the members' states (Linux md's superblock: set_uuid,
// dev_number, events, dev_roles[]; SNIA DDF's header and physical disk records). After a restart
// the member with the highest event count tells the array's state, and a drive whose superblock
// is missing, of another array or older than that is not the drive the firmware wrote: it is not
// served (md "kicks" a non-fresh member and rebuilds it when it is re-added).
//
// Placement: md's v1.0 superblock, at the end of the drive: its first sector at
// (capacity - 16) rounded down to a multiple of 8 sectors (drivers/md/md.c, super_1_load:
// sb_start = size - 8*2; sb_start &= ~(4*2-1)), the array's data before it. Each member thus
// gives up its last 16 to 23 sectors; a layout takes member_data_sectors() as the member's size.
//
// Format: the model's sectors carry one 64-bit token each (data_token.h), so the superblock is a
// run of sectors, one word each: magic, array id, member index and count, event count, flags
// (bit 0: degraded), the members' states two bits each (32 a word), and a check word. A blank drive
// (every sector 0) or any damaged word reads as no superblock.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "controller/firmware_api/member_states.h"

namespace raidtlm::controller {

// md v1.0's reserve at the end of a member (sectors) and the superblock's alignment.
constexpr uint64_t superblock_end_reserve_sectors = 16;
constexpr uint64_t superblock_alignment_sectors = 8;
// "RTLMSB01": the first word of every superblock.
constexpr uint64_t superblock_magic = 0x52544C4D53423031ull;

// The first sector of the superblock on a member of `capacity_sectors` (the drive's, or the part
// of it the array is given); also the member's data sectors: the array's data end before it.
uint64_t superblock_lbn(uint64_t capacity_sectors);
inline uint64_t member_data_sectors(uint64_t capacity_sectors) { return superblock_lbn(capacity_sectors); }
// Sectors of a superblock of an array of `members` (fits the reserve for up to 320 members).
uint32_t superblock_sectors(int members);

struct member_superblock {
    uint64_t array_id = 0;
    int member_index = 0;
    int members = 0;
    uint64_t events = 0;  // bumped on each change of the members' states
    // A member failed or rebuilding when written. md's clean/dirty bit (writes in flight, parity
    // maybe torn) is not here: the NVRAM's write-intent records say which stripes to resync.
    bool degraded = false;
    std::vector<member_state> states;  // every member's, as this superblock's writer knew them
};

// The array's identity from its shape (md draws a random UUID at creation; a shape-derived id
// tells arrays of different shapes apart, which is all a run of this model has).
uint64_t array_identity(int layout_code, int members, uint64_t unit_sectors, uint64_t member_data_sectors);

std::vector<uint64_t> encode_superblock(const member_superblock &sb);
// nullopt: not a superblock (blank, damaged, or the words do not fit together).
std::optional<member_superblock> decode_superblock(const uint64_t *words, size_t count);

// What start-up makes of one member.
enum class member_verdict {
    current,   // this array's, this member, and as fresh as the freshest: served
    absent,    // the drive did not answer: failed (nothing to rebuild onto)
    missing,   // a drive answered without a superblock (a blank drive): failed, rebuilt
    foreign,   // another array's or another member's superblock: failed, rebuilt
    stale,     // this member's, but older than the freshest (or the freshest says failed): failed, rebuilt
};
const char *to_string(member_verdict v);

struct member_read {
    bool answered = false;  // the drive completed the read
    std::optional<member_superblock> superblock;
};

struct identity_verdict {
    std::vector<member_verdict> members;
    uint64_t events = 0;  // the freshest superblock's event count (0: none found)
    // The states the freshest superblock recorded (empty: none found).
    std::vector<member_state> recorded_states;
    // Members not served (every verdict but current).
    std::vector<int> not_current() const;
};

// The verdict on every member from what was read, md's assembly rule: the freshest superblock
// of this array (highest events) is the reference; a member whose superblock is this array's
// and this member's is current when its events are the reference's, or one behind (md accepts
// one: an update the power cut may have written to some members and not others) while the
// reference does not record it as failed.
identity_verdict judge_members(uint64_t array_id, const std::vector<member_read> &reads);

}  // namespace raidtlm::controller
