#include "testbench/commands/slowed_disk_spec.h"

#include <stdexcept>

namespace raidtlm::testbench {

disks::disk_spec slowed_disk_spec(const disks::disk_spec &spec, double speed) {
    if (!(speed > 0) || speed > 1)
        throw std::invalid_argument("slowed_disk_spec: speed in (0, 1]");
    disks::disk_spec s = spec;
    if (speed == 1)
        return s;
    const double k = 1.0 / speed;
    disks::mech_spec &m = s.mech;
    m.rpm *= speed;
    m.constant_access_ms *= k;
    m.write_settle_ms *= k;
    m.head_switch_ms *= k;
    disks::seek_spec &q = m.seek;
    for (double *t : {&q.single_cylinder_ms, &q.average_ms, &q.full_strobe_ms, &q.constant_ms, &q.a_ms, &q.b_ms,
                      &q.c_ms, &q.short_a_ms, &q.short_b_ms, &q.long_a_ms, &q.long_b_ms})
        *t *= k;
    for (auto &point : q.curve) point.second *= k;
    for (double &t : q.first_ten_ms) t *= k;
    // HPL: V1 is a distance in cylinders; V2..V5 times; V6 a time unless -1 (none).
    for (size_t i = 1; i < 5; ++i) q.hpl[i] *= k;
    if (q.hpl[5] >= 0) q.hpl[5] *= k;
    return s;
}

}  // namespace raidtlm::testbench
