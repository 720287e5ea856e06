#include "controller/layouts/sr_mirror_layout.h"

#include "controller/layouts/raid10_layout.h"

namespace raidtlm::controller {

namespace {
std::string shape_name(const sr_mirror_shape &s) {
    return std::to_string(s.ds) + "×" + std::to_string(s.dr) + "×" + std::to_string(s.dm);
}
}  // namespace

const sr_mirror_shape &sr_mirror_layout::checked(const sr_mirror_shape &s, int disks, const disks::disk_spec &spec) {
    if (s.ds < 1 || s.dr < 1 || s.dm < 1)
        throw layout_error("SR-Mirror " + shape_name(s) + ": Ds, Dr and Dm must be at least 1");
    const int need = s.ds * s.dr * s.dm;
    if (need != disks)
        throw layout_error("SR-Mirror " + shape_name(s) + " needs Ds×Dr×Dm = " + std::to_string(need) +
                           " disks; the array has " + std::to_string(disks));
    if (s.cylinders == 0 && spec.cylinders / s.ds < 1)
        throw layout_error("SR-Mirror " + shape_name(s) + ": Ds = " + std::to_string(s.ds) +
                           " leaves no cylinder of the disk's " + std::to_string(spec.cylinders));
    return s;
}

sr_mirror_layout::sr_mirror_layout(const disks::disk_spec &spec, int disks, const sr_mirror_shape &shape)
    : m_shape(checked(shape, disks, spec)),
      m_map(spec, shape.dr, shape.cylinders ? shape.cylinders : spec.cylinders / shape.ds) {
    check_stripe_unit(shape.unit_sectors, m_map.data_sectors());
    m_capacity = columns() * (m_map.data_sectors() / shape.unit_sectors) * shape.unit_sectors;
}

std::string sr_mirror_layout::kind() const {
    const auto &s = m_shape;
    if (s.dr == 1 && s.dm == 1) return "striping";
    if (s.ds == 1 && s.dr == 1) return std::to_string(s.dm) + "-way mirror";
    if (s.dm == 1) return "SR-Array";
    if (s.dr == 1) return "striped mirror";
    return "SR-Mirror";
}

std::string sr_mirror_layout::describe() const {
    return "SR-Mirror " + shape_name(m_shape) + " (" + kind() + "), " + std::to_string(disks()) + " disks, " +
           std::to_string(m_shape.unit_sectors) + "-sector stripe unit, " + std::to_string(m_map.used_cylinders()) +
           " defect-free cylinders of the outer " + std::to_string(m_map.cylinder_limit());
}

void sr_mirror_layout::map(int64_t lbn, int32_t sectors, std::vector<chunk> &out) const {
    check_range(lbn, sectors);
    out.clear();
    const int64_t unit_sectors = m_shape.unit_sectors;
    for_each_unit_piece(lbn, sectors, unit_sectors, [&](int64_t unit, int64_t offset, int64_t at, int32_t n) {
        chunk c;
        c.lbn = at;
        c.sectors = n;
        const int column = int(unit % columns());
        const int64_t dbn = (unit / columns()) * unit_sectors + offset;
        c.replicas.resize(size_t(copies()));
        for (int m = 0; m < m_shape.dm; ++m) {
            for (int r = 0; r < m_shape.dr; ++r) {
                replica &rep = c.replicas[size_t(m * m_shape.dr + r)];
                rep.disk = column * m_shape.dm + m;
                rep.copy = m * m_shape.dr + r;
                m_map.extents(dbn, n, r, mirror_turn(m), rep.extents);
            }
        }
        out.push_back(std::move(c));
    });
}

}  // namespace raidtlm::controller
