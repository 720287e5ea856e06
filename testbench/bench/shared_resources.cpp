#include "testbench/bench/shared_resources.h"

#include <fmt/format.h>

#include "rtl_models/common/sim_time.h"

namespace raidtlm::testbench {

namespace {
// A block's utilisation over its window, as busy ms.
template <class Block>
std::function<double()> from_utilisation(const Block &b) {
    return [&b] { return b.utilisation() * (rtl_models::now_s() - b.statistics().since_s) * 1e3; };
}
}  // namespace

shared_resources::shared_resources(const controller::controller_top &c) {
    const int cores = c.cpu().config().cores;
    m_names.push_back("cpu");
    m_window_busy_ms.push_back([&c, cores] { return c.cpu().busy_s() / cores * 1e3; });
    for (int ch = 0; ch < c.channels(); ++ch) {
        m_names.push_back(fmt::format("ch{}", ch));
        const rtl_models::scsi_bus &bus = c.bus(ch);
        m_window_busy_ms.push_back([&bus] { return bus.busy_s() * 1e3; });
    }
    m_names.push_back("xor");
    m_window_busy_ms.push_back(from_utilisation(c.xor_unit()));
    if (!c.dram().config().unlimited_bandwidth()) {
        m_names.push_back("dram");
        m_window_busy_ms.push_back(from_utilisation(c.dram()));
    }
    m_names.push_back("nvram");
    m_window_busy_ms.push_back(from_utilisation(c.nvram()));
    m_names.push_back("host_link");
    m_window_busy_ms.push_back(from_utilisation(c.link()));
    m_carried_ms.assign(m_names.size(), 0.0);
}

void shared_resources::append_busy_ms(std::vector<double> &out) const {
    for (size_t i = 0; i < m_names.size(); ++i) out.push_back(m_carried_ms[i] + m_window_busy_ms[i]());
}

void shared_resources::carry_over() {
    for (size_t i = 0; i < m_names.size(); ++i) m_carried_ms[i] += m_window_busy_ms[i]();
}

}  // namespace raidtlm::testbench
