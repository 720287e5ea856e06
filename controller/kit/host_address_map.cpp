#include "controller/kit/host_address_map.h"

#include <algorithm>
#include <stdexcept>

namespace raidtlm::controller {

const char *to_string(host_layout v) { return v == host_layout::jbod ? "jbod" : "stripe"; }

host_address_map::host_address_map(host_layout layout, uint64_t stripe_unit_sectors,
                                   std::vector<uint64_t> disk_capacities)
    : m_layout(layout), m_unit(stripe_unit_sectors), m_disk_capacity(std::move(disk_capacities)) {
    if (m_disk_capacity.empty()) throw std::invalid_argument("host_address_map: no disks");
    if (m_layout == host_layout::jbod) {
        for (uint64_t c : m_disk_capacity) {
            m_disk_start.push_back(m_capacity);
            m_capacity += c;
        }
    } else {
        if (m_unit == 0) throw std::invalid_argument("host_address_map: stripe unit 0");
        const uint64_t smallest = *std::min_element(m_disk_capacity.begin(), m_disk_capacity.end());
        m_capacity = smallest / m_unit * m_unit * m_disk_capacity.size();
    }
}

void host_address_map::map(uint64_t lbn, uint32_t sectors, std::vector<disk_fragment> &out) const {
    out.clear();
    uint32_t done = 0;
    while (done < sectors) {
        const uint64_t h = lbn + done;
        disk_fragment f;
        uint64_t run = 0;
        if (m_layout == host_layout::jbod) {
            const auto it = std::upper_bound(m_disk_start.begin(), m_disk_start.end(), h);
            f.disk = static_cast<int>(it - m_disk_start.begin()) - 1;
            f.lbn = h - m_disk_start[f.disk];
            run = m_disk_capacity[f.disk] - f.lbn;
        } else {
            const uint64_t unit = h / m_unit;
            const uint64_t n = m_disk_capacity.size();
            f.disk = static_cast<int>(unit % n);
            f.lbn = unit / n * m_unit + h % m_unit;
            run = m_unit - h % m_unit;
        }
        f.sectors = static_cast<uint32_t>(std::min<uint64_t>(run, sectors - done));
        f.host_offset = done;
        done += f.sectors;
        // Merge pieces contiguous both on the disk and in the request (a one-disk stripe); pieces
        // of a request that wraps round a wider stripe stay separate commands, since their data are
        // not contiguous in the host buffer.
        bool merged = false;
        for (auto &o : out) {
            if (o.disk == f.disk && o.lbn + o.sectors == f.lbn && o.host_offset + o.sectors == f.host_offset) {
                o.sectors += f.sectors;
                merged = true;
                break;
            }
        }
        if (!merged) out.push_back(f);
    }
}

}  // namespace raidtlm::controller
