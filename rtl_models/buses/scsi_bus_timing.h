// Parallel SCSI bus timing and arbitration as plain C++ (no SystemC): transfer rate presets,
// the phase overheads of a connection, the SCSI ID priority order and the arbiter's choice with
// and without SCSI-3 fairness. The SystemC scsi_bus calls into this.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace raidtlm::rtl_models {

// Transfer rate presets: the SCSI Parallel Interface standards' names for width x rate.
//   fast20    Fast-20 (SPI), 8-bit, 20 MT/s       =  20 MB/s
//   ultra2    Ultra2 (SPI-2), 16-bit, 40 MT/s     =  80 MB/s
//   ultra160  Ultra160 (SPI-3), 16-bit, 80 MT/s   = 160 MB/s (40 MHz, double transition)
//   ultra320  Ultra320 (SPI-4), 16-bit, 160 MT/s  = 320 MB/s (80 MHz, double transition)
//   sata150   Serial ATA 1.0 (1.5 Gb/s, 8b/10b) = 150 MB/s, a point-to-point link: one drive per
//             channel, no arbitration, selection or bus phases (all phase times 0); the few
//             microseconds of FIS exchange per command (Register H2D/D2H FIS, 20 bytes each) are
//             neglected against the drive's own overheads. Timed as 8 bits x 150 MT/s.
//   sas3g     Serial Attached SCSI 1.1 (ANSI INCITS 417-2006), 3 Gb/s per lane, 8b/10b = 300 MB/s
//   sas6g     Serial Attached SCSI 2 (ANSI INCITS 457-2010), 6 Gb/s per lane, 8b/10b = 600 MB/s
//   sas12g    Serial Attached SCSI 3 (ANSI INCITS 519-2014), 12 Gb/s per lane, 8b/10b = 1200 MB/s
//             (SAS-4's 22.5 Gb/s is the first to use 128b/150b). Each is one lane to one drive, a
//             point-to-point link like sata150: no arbitration, selection or bus phases (phase
//             times 0). Neglected, as for SATA: the connection's OPEN address frame and the SSP
//             COMMAND, XFER_RDY and RESPONSE frames (a few dozen bytes each, well under a
//             microsecond at these rates), the 24-byte frame header + CRC per data frame of up to
//             1024 bytes (~3%), and full duplex (one transfer at a time per link). Timed as 8 bits
//             x 300 / 600 / 1200 MT/s.
//   custom    width_bits and mtransfers_per_s as given (0 MT/s: a bus that moves data in no time)
enum class scsi_preset { fast20, ultra2, ultra160, ultra320, sata150, sas3g, sas6g, sas12g, custom };
const char *to_string(scsi_preset p);

// Overheads of the bus phases, in microseconds. Defaults: SCSI-2 (ANSI X3.131-1994, 5.2) timing
// values where the standard gives one, otherwise a documented assumption:
//   arbitration_us 2.4  arbitration delay (standard)
//   bus_free_us    0.8  bus free delay between a release and the next arbitration (standard)
//   selection_us   1.2  bus clear + bus settle delays after winning (0.8 + 0.4, standard); the
//                       target is assumed to answer at once
//   reselection_us 1.2  the same for a target reconnecting (standard delays, same assumption)
//   message_us     0.6  IDENTIFY + SIMPLE QUEUE TAG (3 bytes) at each connection
//   command_us     2.0  a 10-byte CDB (READ(10)/WRITE(10))
//   status_us      0.4  when a target lets the bus go: STATUS + COMMAND COMPLETE at the end of a
//                       command, SAVE DATA POINTER + DISCONNECT otherwise (2 bytes either way)
// Message, command and status bytes move asynchronously; the per-byte figures assume about
// 5 MB/s (0.2 us per byte), a documented assumption (non-packetized SCSI).
struct scsi_phase_costs {
    double arbitration_us = 2.4;
    double bus_free_us = 0.8;
    double selection_us = 1.2;
    double reselection_us = 1.2;
    double message_us = 0.6;
    double command_us = 2.0;
    double status_us = 0.4;

    bool all_zero() const;
};

struct scsi_bus_config {
    scsi_preset preset = scsi_preset::ultra160;
    int width_bits = 16;            // 8 (narrow: IDs 0..7) or 16 (wide: IDs 0..15)
    double mtransfers_per_s = 80;   // data transfers per second, millions; 0 = unlimited
    bool fairness = false;          // SCSI-3 fair arbitration
    scsi_phase_costs phases;

    // The preset's width and rate (custom keeps what is set).
    static scsi_bus_config with_preset(scsi_preset p);
    // One drive per channel, nothing to arbitrate (sata150 and the SAS presets).
    bool point_to_point() const { return is_point_to_point(preset); }
    static bool is_point_to_point(scsi_preset p);
    double rate_mb_per_s() const { return mtransfers_per_s * width_bits / 8.0; }
    // Time to move one 512-byte sector, microseconds (0 when unlimited).
    double sector_us() const { return mtransfers_per_s > 0 ? 512.0 / rate_mb_per_s() : 0.0; }
    int id_count() const { return width_bits; }
    // Initiator: arbitration, selection, IDENTIFY + tag, command.
    double select_us() const;
    // Target reconnecting: arbitration, reselection, IDENTIFY + tag.
    double reselect_us() const;
    // After the owner lets go: its closing messages, then the bus free delay.
    double release_tail_us() const { return phases.status_us + phases.bus_free_us; }
};

// Arbitration priority of a SCSI ID (higher wins): on a wide bus SPI ranks 7, 6, ..., 0, then 15,
// 14, ..., 8; on a narrow bus 7 ... 0. Returns 0..15.
int scsi_priority(int id);

// Chooses arbitration winners. Without fairness the highest-priority requester wins. With fairness
// (SCSI-3 fair arbitration, SPI-3 annex): a device that wins records the devices that were
// arbitrating with it, and does not arbitrate again until each of them has won once; so a waiting
// device wins within (number of devices - 1) rounds whatever the priorities.
class scsi_arbiter {
public:
    explicit scsi_arbiter(bool fairness = false) : m_fair(fairness) {}
    // `requesters`: the SCSI IDs arbitrating in this round (not empty, no duplicates).
    int choose(const std::vector<int> &requesters);
    bool fairness() const { return m_fair; }
    // IDs `id` must let win before it may arbitrate again (bit i = ID i).
    uint16_t deferred_to(int id) const { return m_yield[id & 15]; }

private:
    bool m_fair;
    uint16_t m_yield[16] = {};
};

}  // namespace raidtlm::rtl_models
