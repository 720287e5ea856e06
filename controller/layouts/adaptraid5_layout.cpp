#include "controller/layouts/adaptraid5_layout.h"

#include <limits>
#include <sstream>

#include "controller/layouts/raid10_layout.h"

namespace raidtlm::controller {

namespace {

adaptraid5_pattern checked_pattern(const std::vector<int64_t> &disk_sectors, const std::vector<double> &utilisation,
                                   int sip) {
    if (utilisation.size() != disk_sectors.size())
        throw layout_error("AdaptRaid5 has " + std::to_string(utilisation.size()) + " utilisation factors; expected " +
                           std::to_string(disk_sectors.size()) + ", one per disk");
    return adaptraid5_pattern::from_utilisation(utilisation, sip);
}

}  // namespace

adaptraid5_layout::adaptraid5_layout(const std::vector<int64_t> &disk_sectors, int64_t unit_sectors,
                                     const std::vector<double> &utilisation, int stripes_in_pattern)
    : m_pattern(checked_pattern(disk_sectors, utilisation, stripes_in_pattern)),
      m_utilisation(utilisation),
      m_sip(stripes_in_pattern),
      m_unit(unit_sectors) {
    check_stripe_unit(unit_sectors, smallest_disk_sectors(disk_sectors, 2, "AdaptRaid5"));
    m_repetitions = std::numeric_limits<int64_t>::max();
    int limiting_disk = 0;
    for (int d = 0; d < disks(); ++d) {
        const int64_t fit = disk_sectors[size_t(d)] / unit_sectors / m_pattern.blocks_per_disk()[size_t(d)];
        if (fit < m_repetitions) m_repetitions = fit, limiting_disk = d;
    }
    if (m_repetitions == 0)
        throw layout_error("AdaptRaid5: disk " + std::to_string(limiting_disk) + " holds " +
                           std::to_string(disk_sectors[size_t(limiting_disk)] / unit_sectors) +
                           " stripe units; one pattern needs " +
                           std::to_string(m_pattern.blocks_per_disk()[size_t(limiting_disk)]));
    m_capacity = m_repetitions * m_pattern.data_blocks() * m_unit;
}

std::string adaptraid5_layout::describe() const {
    std::ostringstream s;
    s << "AdaptRaid5, " << disks() << " disks, UF [";
    for (size_t d = 0; d < m_utilisation.size(); ++d) s << (d ? " " : "") << m_utilisation[d];
    s << "], SIP " << m_sip << " (" << m_pattern.stripes() << " stripes, " << m_pattern.data_blocks()
      << " data units per pattern), " << m_unit << "-sector stripe unit";
    return s.str();
}

unit_place adaptraid5_layout::place(pattern_place p, int64_t repetition) const {
    const pattern_place r = m_pattern.repeated(p, repetition);
    return {r.disk, r.pos * m_unit};
}

int64_t adaptraid5_layout::stripe_of(int64_t lbn) const {
    const int64_t block = lbn / m_unit;
    const int64_t n = m_pattern.data_blocks();
    return (block / n) * m_pattern.stripes() + m_pattern.stripe_of_block(block % n);
}

int64_t adaptraid5_layout::stripe_first_lbn(int64_t stripe) const {
    const int64_t repetition = stripe / m_pattern.stripes();
    return (repetition * m_pattern.data_blocks() + pattern_stripe_of(stripe).first_data_block) * m_unit;
}

unit_place adaptraid5_layout::data_unit(int64_t stripe, int j) const {
    return place(pattern_stripe_of(stripe).data.at(size_t(j)), stripe / m_pattern.stripes());
}

unit_place adaptraid5_layout::parity_unit(int64_t stripe) const {
    return place(pattern_stripe_of(stripe).parity, stripe / m_pattern.stripes());
}

pattern_slot adaptraid5_layout::unit_at(int disk, int64_t drive_lbn) const {
    const int64_t per_pattern = m_pattern.blocks_per_disk().at(size_t(disk));
    const int64_t pos = drive_lbn / m_unit;
    const int64_t repetition = pos / per_pattern;
    if (drive_lbn < 0 || repetition >= m_repetitions) return {};
    pattern_slot s = m_pattern.slot(disk, pos % per_pattern);
    if (s.stripe >= 0) s.stripe += int(repetition * m_pattern.stripes());
    return s;
}

void adaptraid5_layout::map(int64_t lbn, int32_t sectors, std::vector<chunk> &out) const {
    check_range(lbn, sectors);
    out.clear();
    for_each_unit_piece(lbn, sectors, m_unit, [&](int64_t block, int64_t offset, int64_t at, int32_t n) {
        // Section 4.2: disk(B) and pos(B) from the location and Blks_per_disk_in_pattern tables.
        const int disk = m_pattern.disk_of(block);
        out.push_back({at, n, {{disk, 0, {{m_pattern.pos_of(block) * m_unit + offset, n, false}}}}});
    });
}

}  // namespace raidtlm::controller
