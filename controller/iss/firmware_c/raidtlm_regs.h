/* The register-level controller's memory map, as the firmware on the instruction-set simulator
 * sees it. One header for both sides: the C firmware (controller/iss/firmware_c/) and the C++
 * register block (controller/iss_device.*) include this file, so the two cannot disagree.
 * docs/REGISTER_MAP.md explains every register and descriptor. Plain C (C99 and C++17). */
#ifndef RAIDTLM_REGS_H
#define RAIDTLM_REGS_H

/* ---- the address space ------------------------------------------------------------------- */
#define RT_IMAGE_BASE 0x00000000u   /* code, data, stack: the core's tightly coupled memory */
#define RT_IMAGE_BYTES 0x00100000u  /* 1 MiB; the stack starts at its top */
#define RT_DEVICE_BASE 0x40000000u  /* every register block; loads/stores become TLM transactions */
#define RT_DEVICE_BYTES 0x02000000u

/* ---- system block: identity and the array's facts (read-only unless said) ---------------- */
#define RT_SYS_BASE (RT_DEVICE_BASE + 0x0000u)
#define RT_SYS_ID 0x00u                /* reads RT_ID_VALUE */
#define RT_SYS_DISKS 0x04u
#define RT_SYS_CHANNELS 0x08u
#define RT_SYS_LAYOUT 0x0Cu            /* RT_LAYOUT_RAID0 or RT_LAYOUT_RAID5 */
#define RT_SYS_STRIPE_UNIT 0x10u       /* sectors */
#define RT_SYS_DISK_SECTORS 0x14u      /* the smallest drive's capacity, sectors (32 bits) */
#define RT_SYS_TAGS_PER_DISK 0x18u     /* commands the firmware may keep queued at one drive */
#define RT_SYS_HOST_SLOTS 0x1Cu        /* host commands in flight at most */
#define RT_SYS_ARRAY_SECTORS 0x20u     /* written by the firmware at boot: its array's capacity */
#define RT_SYS_READY 0x24u             /* written 1 by the firmware when it takes host commands */
#define RT_SYS_CONSOLE 0x28u           /* write: one character to the simulator's log */
#define RT_SYS_PANIC 0x2Cu             /* write: the firmware gives up with this code */
#define RT_SYS_NVRAM_BYTES 0x30u       /* size of the NVRAM window */
#define RT_SYS_FAILED_DISK 0x34u       /* the drive the controller has marked failed; RT_NO_DISK: none */
#define RT_NO_DISK 0xFFFFFFFFu
#define RT_SYS_RECOVERED 0x38u         /* written by the firmware at boot: stripes it resynchronised
                                        * from the write-intent records a power loss left */
#define RT_SYS_LOST_LBN 0x3Cu          /* write: the first array sector of a range the firmware lost */
#define RT_SYS_LOST_SECTORS 0x40u      /* write: its length; records [LOST_LBN, +n) in the statistics */
#define RT_SYS_REBUILD_DISK 0x44u      /* read: the member with a fresh drive to rebuild onto (RT_NO_DISK:
                                        * none); write: the firmware took it (line RT_IRQ_REBUILD falls) */
#define RT_SYS_REBUILD_PROGRESS 0x48u  /* write: stripe units of that member rebuilt so far */
#define RT_SYS_REBUILD_DONE 0x4Cu      /* write the member: rebuilt, the controller marks it optimal */
#define RT_SYS_REBUILD_SHARE 0x50u     /* read: the rebuild's share of its own time busy, per mille */
#define RT_SYS_REBUILD_RATE 0x54u      /* read: the rebuild's cap, kB (10^3 bytes) per second; 0: none */
#define RT_SYS_REPAIRED 0x58u          /* write: sectors rewritten after a MEDIUM ERROR (statistics) */
/* The buffer window: the core's view of one sector of buffer DRAM, the 64-bit word the model's
 * sectors carry (the firmware builds and reads its member superblocks here: members.c). */
#define RT_SYS_WINDOW 0x5Cu            /* write: the buffer address (RT_BUFFER_ADDRESS) of the sector */
#define RT_SYS_WINDOW_LO 0x60u         /* read/write: that sector's word, low 32 bits */
#define RT_SYS_WINDOW_HI 0x64u         /* read/write: its high 32 bits */
/* Member identity at start-up (members.c): the firmware reads every member's superblock, writes
 * one verdict per member, then MEMBERS_CHECKED; the controller fails the members not current and
 * sets MEMBERS_CHECKED to 1 (line RT_IRQ_MEMBERS) before the firmware goes on to its recovery. */
#define RT_SYS_MEMBER_VERDICT 0x68u    /* write: (disk << 8) | RT_MEMBER_* */
#define RT_SYS_MEMBERS_CHECKED 0x6Cu   /* write: every verdict written; read: 1 once they are applied */
#define RT_SYS_MEMBERS_TAKEN 0x70u     /* write: the firmware took a change of the members' states
                                        * (line RT_IRQ_MEMBERS falls until the next change) */
#define RT_MEMBER_CURRENT 0u           /* this array's, this member, as fresh as the freshest: served */
#define RT_MEMBER_ABSENT 1u            /* no drive answered */
#define RT_MEMBER_MISSING 2u           /* a drive without a superblock (blank): failed, rebuilt */
#define RT_MEMBER_FOREIGN 3u           /* another array's or another member's: failed, rebuilt */
#define RT_MEMBER_STALE 4u             /* this member's, older than the freshest: failed, rebuilt */
#define RT_SYS_CHANNEL_OF 0x100u       /* + 4*disk: the disk's SCSI channel */
#define RT_SYS_MEMBER_STATE 0x180u     /* + 4*disk: the member's state as the controller marks it:
                                        * RT_STATE_OPTIMAL, RT_STATE_FAILED, RT_STATE_REBUILDING */
#define RT_STATE_OPTIMAL 0u
#define RT_STATE_FAILED 1u
#define RT_STATE_REBUILDING 2u
#define RT_ID_VALUE 0x4D4C5452u        /* "RTLM" */
#define RT_LAYOUT_RAID0 0u
#define RT_LAYOUT_RAID5 5u
#define RT_MAX_DISKS 32u

/* ---- interrupt controller: one line per source, level-sensitive --------------------------- */
#define RT_IRQ_BASE (RT_DEVICE_BASE + 0x1000u)
#define RT_IRQ_PENDING 0x00u  /* bit q: queue q has completions; bit RT_IRQ_TIMER: timer expired */
#define RT_IRQ_ENABLE 0x04u
#define RT_IRQ_WFI 0x08u      /* write: the core sleeps until (PENDING & ENABLE) != 0 */
#define RT_IRQ_TIMER 31u
#define RT_IRQ_REBUILD 30u /* pending while REBUILD_DISK names a member the firmware has not taken */
#define RT_IRQ_MEMBERS 29u /* pending while the members' states changed since MEMBERS_TAKEN, and at
                            * start-up once MEMBERS_CHECKED reads 1 */

/* ---- timer: the controller's clock in microseconds ---------------------------------------- */
#define RT_TIMER_BASE (RT_DEVICE_BASE + 0x2000u)
#define RT_TIMER_NOW_US 0x00u      /* low 32 bits */
#define RT_TIMER_COMPARE_US 0x04u  /* write: line RT_IRQ_TIMER rises when NOW reaches it */
#define RT_TIMER_CONTROL 0x08u     /* write 1: armed; write 0: disarmed and the line cleared */

/* ---- queues: a submission ring (firmware -> engine) and a completion ring (engine -> firmware)
 * per engine. The firmware writes descriptors at SQ entry SQ_TAIL, then the new SQ_TAIL (the
 * doorbell); it reads completions from CQ_HEAD up to CQ_TAIL and writes the new CQ_HEAD. */
#define RT_QUEUE_BASE(q) (RT_DEVICE_BASE + 0x10000u + (unsigned)(q) * 0x4000u)
#define RT_Q_SQ_TAIL 0x000u
#define RT_Q_SQ_HEAD 0x004u
#define RT_Q_CQ_HEAD 0x008u
#define RT_Q_CQ_TAIL 0x00Cu
#define RT_Q_DEPTH 0x010u
#define RT_Q_CQ_ENTRY(i) (0x0400u + (unsigned)(i) * 16u)  /* 4 words */
#define RT_Q_SQ_ENTRY(i) (0x2000u + (unsigned)(i) * 32u)  /* 8 words */
#define RT_QUEUE_DEPTH 128u
#define RT_SQ_WORDS 8u
#define RT_CQ_WORDS 4u

#define RT_Q_HOST 0u    /* CQ: new host commands {slot, flags, lbn, sectors}; SQ: host completions */
#define RT_Q_BUFFER 1u  /* buffer manager: allocate / free buffer DRAM */
#define RT_Q_DMA 2u     /* host DMA: a host command's data into or out of a buffer */
#define RT_Q_XOR 3u     /* XOR engine */
#define RT_Q_SCSI0 4u   /* + channel: one SCSI channel's commands */
#define RT_MAX_CHANNELS 8u
#define RT_QUEUES (RT_Q_SCSI0 + RT_MAX_CHANNELS)

/* Submission descriptor word 0: the opcode; word 1: the firmware's tag (echoed in the
 * completion's word 0). Other words per opcode: */
#define RT_OP_HOST_COMPLETE 1u /* w2 slot, w3 status (0: success)                      no completion */
#define RT_OP_BUF_ALLOC 2u     /* w2 sectors                         completion: w2 buffer handle */
#define RT_OP_BUF_FREE 3u      /* w2 buffer handle                                    no completion */
#define RT_OP_HOST_DMA 4u      /* w2 slot, w3 buffer handle (direction: the host command's) */
#define RT_OP_XOR 5u           /* w2 sectors, w3 output address, w4.. w7 inputs (0: unused) */
#define RT_OP_SCSI_READ 6u     /* w2 disk, w3 drive LBN, w4 sectors, w5 buffer address, w6 flags */
#define RT_OP_SCSI_WRITE 7u    /* as READ; w6 flags (RT_SCSI_*) */
#define RT_SCSI_METADATA 1u    /* the firmware's member metadata: sent to the drive in the slot even
                                * when the controller has failed its member (a new drive may be there) */
/* Completion: w0 tag, w1 status (0: success), w2 result, w3 the controller clock (us) at completion.
 * New host command (RT_Q_HOST CQ): w0 slot, w1 flags (RT_HOST_WRITE), w2 array LBN, w3 sectors. */
#define RT_HOST_WRITE 1u
#define RT_STATUS_OK 0u
#define RT_STATUS_ERROR 1u
#define RT_STATUS_MEDIUM_ERROR 2u /* SCSI: CHECK CONDITION, sense key MEDIUM ERROR (the sectors are unreadable) */

/* A buffer address: the buffer handle in the high 16 bits, a sector offset in the low 16. */
#define RT_BUFFER_ADDRESS(handle, sector) (((unsigned)(handle) << 16) | ((unsigned)(sector) & 0xFFFFu))
#define RT_MAX_XOR_INPUTS 4u

/* ---- NVRAM window: loads and stores reach the controller's NVRAM (timed, the core stalls) ---- */
#define RT_NVRAM_BASE (RT_DEVICE_BASE + 0x01000000u)

#endif
