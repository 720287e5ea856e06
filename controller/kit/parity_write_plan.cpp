#include "controller/kit/parity_write_plan.h"

#include <algorithm>

namespace raidtlm::controller {

std::string to_string(write_path p) {
    switch (p) {
    case write_path::full_stripe: return "full-stripe";
    case write_path::reconstruct_write: return "reconstruct-write";
    case write_path::read_modify_write: return "read-modify-write";
    }
    return "?";
}

const disk_op &stripe_write_plan::parity_write() const {
    for (const auto &op : ops)
        if (op.parity && op.kind != disk_op_kind::read) return op;
    throw std::logic_error("stripe write plan without a parity write");
}

namespace {

struct unit_range {
    int j;
    int64_t lo, hi;  // offsets within the unit
};

stripe_write_plan plan_stripe(const parity_stripe_layout &l, int64_t stripe, int64_t a, int64_t b,
                              const parity_write_policy &policy) {
    const int64_t unit = l.unit_sectors();
    const int data_units = l.stripe_data_units(stripe);
    const int64_t base = l.stripe_first_lbn(stripe);
    const unit_place parity = l.parity_unit(stripe);
    const int checks = l.check_units();

    std::vector<unit_range> written;
    for (int64_t at = a; at < b;) {
        const int j = int((at - base) / unit);
        const int64_t lo = (at - base) % unit;
        const int64_t hi = std::min<int64_t>(unit, lo + (b - at));
        written.push_back({j, lo, hi});
        at += hi - lo;
    }
    int64_t lo = unit, hi = 0;
    for (const auto &w : written) lo = std::min(lo, w.lo), hi = std::max(hi, w.hi);

    stripe_write_plan plan;
    plan.stripe = stripe;
    plan.lbn = a;
    plan.sectors = int32_t(b - a);
    // [from, to) within the unit at `u`.
    auto op = [&](disk_op_kind k, const unit_place &u, int64_t from, int64_t to, bool is_parity, bool is_q = false,
                  bool is_r = false) {
        if (to > from) plan.ops.push_back({k, u.disk, u.drive_lbn + from, int32_t(to - from), is_parity, is_q, is_r});
    };
    // The checks beyond P (Q, and R with three), over P's rows.
    auto q_op = [&](disk_op_kind k) {
        for (int c = 1; c < checks; ++c) op(k, l.check_unit(stripe, c), lo, hi, false, c == 1, c == 2);
    };
    auto data = [&](int j) { return l.data_unit(stripe, j); };

    if (b - a == data_units * unit) {
        plan.path = write_path::full_stripe;
    } else if (double(written.size()) >= policy.reconstruct_write_fraction * data_units) {
        plan.path = write_path::reconstruct_write;
    } else {
        plan.path = write_path::read_modify_write;
    }

    switch (plan.path) {
    case write_path::full_stripe:
        break;
    case write_path::reconstruct_write: {
        size_t w = 0;
        for (int j = 0; j < data_units; ++j) {
            const unit_place u = data(j);
            if (w < written.size() && written[w].j == j) {
                op(disk_op_kind::read, u, lo, written[w].lo, false);
                op(disk_op_kind::read, u, written[w].hi, hi, false);
                ++w;
            } else {
                op(disk_op_kind::read, u, lo, hi, false);
            }
        }
        break;
    }
    case write_path::read_modify_write:
        if (policy.read_rotate_write) {
            for (const auto &w : written) op(disk_op_kind::read_rotate_write, data(w.j), w.lo, w.hi, false);
            op(disk_op_kind::read_rotate_write, parity, lo, hi, true);
            q_op(disk_op_kind::read_rotate_write);
            return plan;
        }
        for (const auto &w : written) op(disk_op_kind::read, data(w.j), w.lo, w.hi, false);
        op(disk_op_kind::read, parity, lo, hi, true);
        q_op(disk_op_kind::read);
        break;
    }
    for (const auto &w : written) op(disk_op_kind::write, data(w.j), w.lo, w.hi, false);
    op(disk_op_kind::write, parity, lo, hi, true);
    q_op(disk_op_kind::write);
    return plan;
}

}  // namespace

void plan_degraded_read(const parity_stripe_layout &layout, int64_t lbn, int32_t sectors, int failed_disk,
                        std::vector<disk_op> &out) {
    std::vector<chunk> chunks;
    layout.map(lbn, sectors, chunks);
    out.clear();
    for (const chunk &c : chunks) {
        const replica &data = c.replicas.front();
        const disk_extent &e = data.extents.front();
        if (data.disk != failed_disk) {
            out.push_back({disk_op_kind::read, data.disk, e.drive_lbn, e.sectors, false});
            continue;
        }
        const int64_t stripe = layout.stripe_of(c.lbn);
        const int64_t offset = layout.offset_in_unit(e.drive_lbn);
        const int parity = layout.parity_unit(stripe).disk;
        // RAID 6: rebuilt from P alone, Q and R not read.
        auto other_check = [&](int disk) {
            for (int k = 1; k < layout.check_units(); ++k)
                if (layout.check_unit(stripe, k).disk == disk) return true;
            return false;
        };
        for (const unit_place &u : layout.units_by_disk(stripe))
            if (u.disk != failed_disk && !other_check(u.disk))
                out.push_back({disk_op_kind::read, u.disk, u.drive_lbn + offset, e.sectors, u.disk == parity});
    }
}

void plan_parity_write(const parity_stripe_layout &layout, int64_t lbn, int32_t sectors,
                       const parity_write_policy &policy, std::vector<stripe_write_plan> &out) {
    layout.check_range(lbn, sectors);
    out.clear();
    for (int64_t at = lbn, end = lbn + sectors; at < end;) {
        const int64_t stripe = layout.stripe_of(at);
        const int64_t stop = std::min(end, layout.stripe_first_lbn(stripe) + layout.stripe_data_sectors_of(stripe));
        out.push_back(plan_stripe(layout, stripe, at, stop, policy));
        at = stop;
    }
}

}  // namespace raidtlm::controller
