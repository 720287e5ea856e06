// Parity logging address map (Stodolsky, Holland, Courtright, Gibson, "Parity logging", sec. 2):
// the array is cut into B regions; each region is a miniature array on every disk.
//
// Region b: its L log disks are disks (b*L + i) % N, i < L (log and parity rotate from region to
// region); the other M = N - L disks ("members", m = 0..M-1 starting after the log disks) hold
// the region's data and parity and never its log (a sublog must not share a disk with data it
// protects). On a member the region occupies M*P whole tracks: M slots of P tracks; slot q of
// every member forms big row q, a RAID 5 row with unit P tracks whose parity is member M-1-q
// (left-symmetric), so each member's parity is one contiguous P-track run (read in one sequential
// access). Inside a big row the data are striped over its M-1 data members with the stripe unit
// u, so a logical stripe of (M-1)*u sectors shares u parity sectors (a large write). On a log
// disk the region occupies S = ceil(A*M*P/L) whole tracks: that disk's sublog, one contiguous
// run. A = C_L/C_P, the paper's log-to-parity ratio; the space overhead is (1+A)/(N-L+A), the
// paper's formula. A disk's regions lie one after another from drive LBN 0; since a disk's share
// depends on whether it is a log disk, the regions start at different LBNs on different disks.
//
// Whole-track sizing (sec. 2.4): P is the largest number of tracks for which every disk holds its
// B regions, with P*track a multiple of u, searched downwards from tracks / (B*M) + 1, the size at
// which a disk that is a member of every region would be full. Log disks hold less, so a larger P
// can fit and is not found (22 IBM 0661, B = 100, L = 6: P = 9 where 10 fits at one check, 14
// where 24 fits at two, 14 where 22 fits at three with L = 4); the region images then are V/B-sized
// as the paper's model takes them.
// Kept so: the single-check results in EXPERIMENTS.md come from this sizing. B = 0 asks for the paper's search: the regions count
// B_opt = sqrt(T*V/K) (T*V = tracks per disk, K = tracks buffered per region) and every B within
// +-10% of it; the one that leaves the least unused space wins (ties: the closest to B_opt).
// A "track" is `track_sectors` sectors for every disk (the firmware's idea of a track; on a zoned
// drive, the caller's choice, normally the outermost zone's).
//
// C checks (checks = C = 2 or 3; the paper's Section 9 at f = C): a region has C*L log disks,
// copy c of sublog i on its log disk c*L + i (the log replicated on C distinct disks, an
// (f-1)-tolerant log); M = N - C*L members; big row q holds check k (0 = P, 1 = Q, 2 = R) on
// member (M-1-q+k) % M and data column j on member (M-1-q+C+j) % M; check k = sum g^(k j) D_j
// (pq_parity.h's check_coefficient: a RAID 6 row at C = 2, P+Q+R at C = 3). So that a member's
// C check images lie together (one sequential pass at reintegration, as the paper's model
// charges), member m keeps big row q in slot (q + m + 1) % M: its P row in slot 0, its Q row in
// slot 1, its R row in slot 2. With one check every member keeps row q in slot q, as before. A
// region's check image (parity_sectors) is the members' check runs one after another: member m's
// run at image sector (M-1-m)*checks*P*T, its P image first.
//
// Pure C++. Throws layout_error saying why when the configuration cannot be laid out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "controller/layouts/layout.h"

namespace raidtlm::controller {

struct parity_logging_params {
    int64_t track_sectors = 0;     // sectors per track (> 0)
    int64_t unit_sectors = 4;      // data stripe unit u
    int log_stripes = 4;           // L
    double log_to_parity = 1.0;    // A
    int regions_per_disk = 0;      // B; 0 = the paper's search around sqrt(T*V/K)
    int log_write_tracks = 1;      // K (only for the search)
    int checks = 1;                // check images per big row and log copies (1, 2 or 3)
};

// Where a logical sector's parity lives: region, member disk, drive LBN, and its index in the
// region's parity image (0 .. parity_sectors() - 1; big row q's parity is [q*P*T, (q+1)*P*T)).
struct parity_location {
    int region = 0;
    int disk = 0;
    int64_t drive_lbn = 0;
    int64_t image_index = 0;
    int column = 0;  // the sector's data column j in its big row (check k's coefficient g^(k j))
};

// A contiguous run of one disk.
struct region_extent {
    int disk = 0;
    int64_t drive_lbn = 0;
    int64_t sectors = 0;
};

class parity_logging_layout final : public layout {
public:
    parity_logging_layout(const std::vector<int64_t> &disk_sectors, const parity_logging_params &params);

    std::string describe() const override;
    int disks() const override { return m_n; }
    int64_t capacity_sectors() const override { return m_regions * region_data_sectors(); }
    int copies() const override { return 1; }
    void map(int64_t lbn, int32_t sectors, std::vector<chunk> &out) const override;

    int regions() const { return m_regions; }
    int log_stripes() const { return m_l; }
    int checks() const { return m_c; }
    int log_disks() const { return m_c * m_l; }  // per region: checks copies of L sublogs
    int members() const { return m_n - log_disks(); }
    int data_columns() const { return members() - m_c; }
    int64_t track_sectors() const { return m_track; }
    int64_t unit_sectors() const { return m_unit; }
    int64_t parity_tracks() const { return m_p; }   // P: per member per region
    int64_t sublog_tracks() const { return m_s; }   // S: per log disk per region
    int64_t parity_unit_sectors() const { return m_p * m_track; }
    int64_t region_data_sectors() const { return int64_t(members()) * data_columns() * parity_unit_sectors(); }
    // The region's check images (all checks), per region.
    int64_t parity_sectors() const { return int64_t(m_c) * members() * parity_unit_sectors(); }
    int64_t sublog_sectors() const { return m_s * m_track; }
    int64_t log_sectors() const { return int64_t(m_l) * sublog_sectors(); }  // per region
    // Fraction of all disk space holding neither data nor redundancy (the search minimises it).
    double unused_fraction() const { return m_unused; }
    double b_optimum() const { return m_b_opt; }

    int region_of(int64_t lbn) const { return int(lbn / region_data_sectors()); }
    // Log disk i of the region (i < log_disks(); copy c of sublog s is i = c*L + s).
    int log_disk(int region, int i) const { return int((int64_t(region) * log_disks() + i) % m_n); }
    bool is_log_disk(int region, int disk) const;
    // Member m's disk (m = 0 .. M-1).
    int member_disk(int region, int m) const {
        return int((int64_t(region) * log_disks() + log_disks() + m) % m_n);
    }
    // Member holding check k (0 = P, 1 = Q, 2 = R) of big row q, and the slot of big row q on member m.
    int check_member(int q, int k) const { return (members() - 1 - q + k) % members(); }
    int slot(int q, int m) const { return m_c == 1 ? q : (q + m + 1) % members(); }
    // Member index of a disk, or -1 for a log disk of the region.
    int member_of(int region, int disk) const;
    // First drive LBN of the region on the disk.
    int64_t region_start(int region, int disk) const { return m_start[size_t(region) * size_t(m_n) + size_t(disk)]; }
    // The region's check images on member m (one run of checks*P tracks) and copy `copy` of its
    // sublog i (one S-track run).
    region_extent parity_extent(int region, int m) const;
    region_extent sublog_extent(int region, int i, int copy = 0) const;
    // Image sector of member m's check run start in the region's check image.
    int64_t check_run_image_index(int m) const { return int64_t(members() - 1 - m) * m_c * parity_unit_sectors(); }

    // The data disk and drive LBN of logical sector lbn, and where its parity is.
    region_extent data_location(int64_t lbn) const;  // sectors = 1
    parity_location parity_of(int64_t lbn) const { return check_of(lbn, 0); }
    // Where check k (0 = P, 1 = Q, 2 = R) of lbn's row is.
    parity_location check_of(int64_t lbn, int k) const;
    // Logical sectors protected with lbn by the same parity sector (the other data of its row),
    // and the disk/drive LBN of each; excludes lbn itself.
    std::vector<region_extent> row_partners(int64_t lbn) const;
    // The logical sector of data column `column` in big row q of the region, at sector `offset` of
    // the row's P-track slots (the inverse of data_location's placement).
    int64_t lbn_at(int region, int q, int64_t offset, int column) const;
    // Big row and slot offset of a sector of the region's check image (parity_location::image_index).
    struct image_row {
        int q = 0;
        int64_t offset = 0;
    };
    image_row row_of_image(int64_t image_index) const;
    // Logical stripe (M-1 units sharing u parity sectors) of lbn, and its size.
    int64_t stripe_of(int64_t lbn) const { return lbn / stripe_data_sectors(); }
    int64_t stripe_data_sectors() const { return int64_t(data_columns()) * m_unit; }

private:
    struct coords {
        int region;
        int q;           // big row
        int member;      // data member
        int column;      // its data column j
        int64_t offset;  // sector inside the P-track slot
    };
    coords locate(int64_t lbn) const;
    // Lays out B regions with the largest P; returns false when P < 1 would be needed.
    bool try_regions(int b, const std::vector<int64_t> &disk_tracks);

    int m_n = 0, m_l = 0, m_c = 1, m_regions = 0;
    int64_t m_track = 0, m_unit = 0, m_p = 0, m_s = 0;
    double m_a = 1;
    double m_unused = 0, m_b_opt = 0;
    std::vector<int64_t> m_start;  // [region * N + disk]
};

}  // namespace raidtlm::controller
