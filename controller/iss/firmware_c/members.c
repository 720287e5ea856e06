/* members.h. The superblock's words (controller/firmware_api/member_superblock.cpp, encode_superblock):
 * [0] magic, [1] array id, [2] member index | member count << 32, [3] event count, [4] flags
 * (bit 0: some member not optimal), [5..] the members' states two bits each, 32 a word, then the
 * check word: FNV-1a over the words before it, never 0. */
#include "members.h"

#include "elevator.h"
#include "hw.h"
#include "jobs.h"
#include "rebuild.h"

#define SB_MAGIC 0x52544C4D53423031ull /* "RTLMSB01" */
#define SB_FIXED_WORDS 5u
#define STATES_PER_WORD 32u
#define MAX_SB_WORDS (SB_FIXED_WORDS + (RT_MAX_DISKS + STATES_PER_WORD - 1) / STATES_PER_WORD + 1)

static const struct array_map *array;
static const uint8_t *channels_of;
static uint32_t sb_sectors;  /* words (sectors) of one superblock */
static uint64_t array_id;
static uint64_t events;      /* the event count of the superblocks last written (or found) */

static struct {
    uint8_t writing, again;
    uint32_t buffer, pending;
} writer;

static uint64_t check_word(const uint64_t *words, uint32_t count) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t i = 0; i < count; ++i)
        for (uint32_t b = 0; b < 8; ++b) {
            h ^= (words[i] >> (8 * b)) & 0xFF;
            h *= 0x100000001b3ull;
        }
    return h == 0 ? 1 : h;
}

static uint32_t state_words(void) { return (array->disks + STATES_PER_WORD - 1) / STATES_PER_WORD; }

void members_init(const struct array_map *m, const uint8_t *channel_of) {
    array = m;
    channels_of = channel_of;
    sb_sectors = SB_FIXED_WORDS + state_words() + 1;
    /* The array's identity from its shape (member_superblock.h: array_identity), with the
     * register map's layout code. */
    const uint64_t shape[] = {SB_MAGIC, m->layout, m->disks, m->unit, REG(RT_SYS_BASE, RT_SYS_DISK_SECTORS)};
    array_id = check_word(shape, sizeof shape / sizeof shape[0]);
}

static uint32_t sb_lbn(void) { return REG(RT_SYS_BASE, RT_SYS_DISK_SECTORS); }
static uint32_t slot_of(uint32_t buffer, uint32_t disk) { return RT_BUFFER_ADDRESS(buffer, disk * sb_sectors); }

/* The buffer window: one sector's word of buffer DRAM. */
static void window_put(uint32_t address, uint64_t word) {
    REG(RT_SYS_BASE, RT_SYS_WINDOW) = address;
    REG(RT_SYS_BASE, RT_SYS_WINDOW_LO) = (uint32_t)word;
    REG(RT_SYS_BASE, RT_SYS_WINDOW_HI) = (uint32_t)(word >> 32);
}

static uint64_t window_get(uint32_t address) {
    REG(RT_SYS_BASE, RT_SYS_WINDOW) = address;
    const uint32_t lo = REG(RT_SYS_BASE, RT_SYS_WINDOW_LO);
    return (uint64_t)REG(RT_SYS_BASE, RT_SYS_WINDOW_HI) << 32 | lo;
}

/* ---- the start-up check ------------------------------------------------------------------- */

struct read_back {
    uint8_t answered, valid;
    uint64_t events;
    uint64_t states[MAX_SB_WORDS - SB_FIXED_WORDS - 1];
};

static struct read_back reads[RT_MAX_DISKS];
static uint32_t boot_done, boot_buffer;

static void on_boot_scsi(const struct completion *c) {
    /* A drive that answers, even MEDIUM ERROR, is there: an unreadable superblock is none. */
    if (c->tag >= RT_MAX_DISKS) hw_panic(0x700);
    reads[c->tag].answered = c->status != RT_STATUS_ERROR;
    reads[c->tag].valid = c->status == RT_STATUS_OK;
    ++boot_done;
}

static void on_boot_buffer(const struct completion *c) {
    boot_buffer = c->result;
    ++boot_done;
}

static void boot_await(uint32_t n, uint32_t channels, uint32_t lines) {
    static const struct queue_handlers handlers = {on_boot_scsi, 0, 0, on_boot_buffer, 0, 0};
    while (boot_done < n) hw_serve(lines, channels, &handlers);
}

enum { NO_SUPERBLOCK, FOREIGN, OURS };

/* Member d's words read back: no superblock (blank, damaged), another array's or member's, or
 * this array's member d. */
static int decode(uint32_t d) {
    struct read_back *r = &reads[d];
    if (!r->valid) return NO_SUPERBLOCK;
    uint64_t w[MAX_SB_WORDS];
    for (uint32_t i = 0; i < MAX_SB_WORDS; ++i)  /* (no C library: no memset for an initialiser) */
        w[i] = i < sb_sectors ? window_get(RT_BUFFER_ADDRESS(boot_buffer, d * sb_sectors + i)) : 0;
    const uint32_t n = sb_sectors - 1;
    if (w[0] != SB_MAGIC || w[n] != check_word(w, n)) return NO_SUPERBLOCK;
    if (w[1] != array_id || (uint32_t)w[2] != d || (uint32_t)(w[2] >> 32) != array->disks) return FOREIGN;
    r->events = w[3];
    for (uint32_t k = 0; k < state_words(); ++k) r->states[k] = w[SB_FIXED_WORDS + k];
    return OURS;
}

static uint32_t recorded_state(const struct read_back *r, uint32_t member) {
    return (uint32_t)(r->states[member / STATES_PER_WORD] >> (2 * (member % STATES_PER_WORD))) & 3u;
}

void members_check_at_boot(uint32_t channels, uint32_t lines) {
    const uint32_t n = array->disks;
    if (array->layout == RT_LAYOUT_RAID5) {
        boot_done = 0;
        hw_submit(RT_Q_BUFFER, RT_OP_BUF_ALLOC, 0, n * sb_sectors, 0, 0, 0, 0, 0);
        boot_await(1, channels, lines);
        boot_done = 0;
        for (uint32_t d = 0; d < n; ++d) {
            reads[d].answered = reads[d].valid = 0;
            hw_submit(RT_Q_SCSI0 + channels_of[d], RT_OP_SCSI_READ, d, d, sb_lbn(), sb_sectors, slot_of(boot_buffer, d),
                      RT_SCSI_METADATA, 0);
        }
        boot_await(n, channels, lines);
        uint8_t found[RT_MAX_DISKS];
        int freshest = -1;
        for (uint32_t d = 0; d < n; ++d) {
            found[d] = (uint8_t)decode(d);
            if (found[d] == OURS && (freshest < 0 || reads[d].events > reads[freshest].events)) freshest = (int)d;
        }
        hw_submit(RT_Q_BUFFER, RT_OP_BUF_FREE, 0, boot_buffer, 0, 0, 0, 0, 0);
        events = freshest >= 0 ? reads[freshest].events : 0;
        for (uint32_t d = 0; d < n; ++d) {
            uint32_t verdict;
            if (!reads[d].answered) verdict = RT_MEMBER_ABSENT;
            else if (found[d] == NO_SUPERBLOCK) verdict = RT_MEMBER_MISSING;
            else if (found[d] == FOREIGN) verdict = RT_MEMBER_FOREIGN;
            else {
                /* md accepts one event behind: an update the power cut wrote to some members only. */
                const int failed = recorded_state(&reads[freshest], d) == RT_STATE_FAILED;
                const int fresh = reads[d].events == events || reads[d].events + 1 == events;
                verdict = fresh && !failed ? RT_MEMBER_CURRENT : RT_MEMBER_STALE;
            }
            if (verdict == RT_MEMBER_CURRENT) continue;
            REG(RT_SYS_BASE, RT_SYS_MEMBER_VERDICT) = d << 8 | verdict;
            rebuild_forget(d);  /* a rebuild of it starts again from its first stripe */
            member_failed(d);   /* known failed from here on, whatever FAILED_DISK names (jobs.h) */
        }
    }
    REG(RT_SYS_BASE, RT_SYS_MEMBERS_CHECKED) = 1;
    /* The controller fails the members not current before anything is read from them. */
    REG(RT_IRQ_BASE, RT_IRQ_ENABLE) = 1u << RT_IRQ_MEMBERS;
    while (!REG(RT_SYS_BASE, RT_SYS_MEMBERS_CHECKED)) REG(RT_IRQ_BASE, RT_IRQ_WFI) = 1;
    REG(RT_SYS_BASE, RT_SYS_MEMBERS_TAKEN) = 1;
}

/* ---- the superblocks rewritten on a change ------------------------------------------------- */

static void write_round(void) {
    writer.writing = 1;
    writer.again = 0;
    hw_submit(RT_Q_BUFFER, RT_OP_BUF_ALLOC, MEMBERS_JOB, array->disks * sb_sectors, 0, 0, 0, 0, 0);
}

void members_events(void) {
    REG(RT_SYS_BASE, RT_SYS_MEMBERS_TAKEN) = 1;
    if (array->layout != RT_LAYOUT_RAID5) return;
    if (writer.writing) writer.again = 1;
    else write_round();
}

void members_on_buffer(uint32_t handle) {
    const uint32_t n = array->disks;
    writer.buffer = handle;
    ++events;
    /* The states as the controller marks them now (a later change starts another round). */
    uint64_t w[MAX_SB_WORDS];
    uint8_t served[RT_MAX_DISKS];
    uint32_t degraded = 0;
    for (uint32_t k = 0; k < state_words(); ++k) w[SB_FIXED_WORDS + k] = 0;
    for (uint32_t d = 0; d < n; ++d) {
        const uint32_t s = REG(RT_SYS_BASE, RT_SYS_MEMBER_STATE + 4 * d);
        served[d] = s != RT_STATE_FAILED;
        degraded |= s != RT_STATE_OPTIMAL;
        w[SB_FIXED_WORDS + d / STATES_PER_WORD] |= (uint64_t)s << (2 * (d % STATES_PER_WORD));
    }
    w[0] = SB_MAGIC;
    w[1] = array_id;
    w[3] = events;
    w[4] = degraded;
    writer.pending = 1;  /* held until every write is queued */
    for (uint32_t d = 0; d < n; ++d) {
        if (!served[d]) continue;
        w[2] = (uint64_t)d | (uint64_t)n << 32;
        w[sb_sectors - 1] = check_word(w, sb_sectors - 1);
        for (uint32_t i = 0; i < sb_sectors; ++i) window_put(RT_BUFFER_ADDRESS(handle, d * sb_sectors + i), w[i]);
        ++writer.pending;
        elevator_add(MEMBERS_JOB, d, 1, sb_lbn(), sb_sectors, slot_of(handle, d));
    }
    members_on_scsi();
}

/* A member's write back (a failure: the drive is gone, the next change records it). */
void members_on_scsi(void) {
    if (--writer.pending) return;
    hw_submit(RT_Q_BUFFER, RT_OP_BUF_FREE, 0, writer.buffer, 0, 0, 0, 0, 0);
    writer.writing = 0;
    if (writer.again) write_round();
}
