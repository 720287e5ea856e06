#include "disks/diskspec_loader.h"
#include "disks/diskspec_reading.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <stdexcept>

namespace raidtlm::disks {

namespace {

using namespace spec_reading;

// ---------------------------------------------------------------------------------------------
// dm_layout_g1 and its zones.

zone_spec read_zone(const param_block &b, size_t index, bool layout_in_revolutions,
                    disk_spec &spec) {
    block_reader r(b, zone_kind, spec, zone_param_key(index, ""));
    zone_spec z;
    z.where = b.where;
    z.first_cyl = r.integer("First cylinder number");
    z.last_cyl = r.integer("Last cylinder number");
    z.sectors_per_track = positive(r, "Blocks per track");
    z.empty_front_sectors = non_negative(r, "Empty space at zone front");
    z.spares = non_negative(r, "Number of spares");

    // disk_spec holds sectors, so revolutions are multiplied by the zone's sectors per track.
    double scale = skew_in_revolutions(r, layout_in_revolutions) ? z.sectors_per_track : 1.0;
    z.first_block_offset_sectors = r.real("Offset of first block") * scale;
    z.track_skew_sectors = r.real("Skew for track switch") * scale;
    z.cylinder_skew_sectors = r.real("Skew for cylinder switch") * scale;

    z.slips = integer_list(r, "slips");
    std::vector<int64_t> defects = integer_list(r, "defects");
    if (defects.size() % 2 != 0)
        throw spec_error(r.value("defects").where,
                         "'defects' has " + std::to_string(defects.size()) + " numbers",
                         "(defective, replacement) pairs, an even count");
    for (size_t i = 0; i < defects.size(); i += 2)
        z.defects.emplace_back(defects[i], defects[i + 1]);
    r.finish();
    return z;
}

// Zones must lie within the disk and must not overlap; DiskSim's own files leave cylinders
// between zones unassigned (cheetah9LP: 847, 1644, ...), so gaps are allowed.
void check_zones(const layout_spec &layout, const disk_spec &spec) {
    for (size_t i = 0; i < layout.zones.size(); ++i) {
        const zone_spec &z = layout.zones[i];
        std::string zone = "zone " + std::to_string(i) + " (cylinders " +
                           std::to_string(z.first_cyl) + ".." + std::to_string(z.last_cyl) + ")";
        if (z.first_cyl > z.last_cyl)
            throw spec_error(z.where, zone + " ends before it starts",
                             "'First cylinder number' <= 'Last cylinder number'");
        // DiskSim's layout trusts the zones: the HP C2490A's last zone ends on cylinder 2629 of a
        // disk with 2629 cylinders, and DiskSim validates that drive. Only a negative cylinder is
        // meaningless; read_dm_disk widens the geometry to the zones.
        if (z.first_cyl < 0)
            throw spec_error(z.where, zone + " starts before cylinder 0", "cylinders >= 0");
        if (i > 0 && z.first_cyl <= layout.zones[i - 1].last_cyl)
            throw spec_error(z.where,
                             zone + " overlaps zone " + std::to_string(i - 1) + " (cylinders " +
                                 std::to_string(layout.zones[i - 1].first_cyl) + ".." +
                                 std::to_string(layout.zones[i - 1].last_cyl) + ") at " +
                                 layout.zones[i - 1].where.str(),
                             "zones in ascending cylinder order without overlap");
    }
}

layout_spec read_layout(const param_block &b, disk_spec &spec) {
    block_reader r(b, layout_kind, spec);
    layout_spec l;
    l.mapping = static_cast<lbn_mapping>(int_in_range(
        r, "LBN-to-PBN mapping scheme", 0, 2,
        "0 (conventional), 1 (serpentine per zone) or 2 (serpentine absolute)"));
    l.sparing = static_cast<sparing_scheme>(
        int_in_range(r, "Sparing scheme used", 0, 10, "a sparing scheme from 0 to 10"));
    l.sparing_range_cyl = positive(r, "Rangesize for sparing");
    bool revolutions = skew_in_revolutions(r, false);

    const auto &zones = r.list("Zones");
    if (zones.empty())
        throw spec_error(r.value("Zones").where, "'Zones' is empty",
                         "at least one dm_layout_g1_zone block");
    for (size_t i = 0; i < zones.size(); ++i) {
        const param_value &v = zones[i];
        if (v.type != param_value::kind::block || v.block->type != zone_kind.type)
            throw spec_error(v.where, element_name("Zones", i) + " is " + v.describe(),
                             "a dm_layout_g1_zone block");
        l.zones.push_back(read_zone(*v.block, i, revolutions, spec));
    }
    r.finish();
    return l;
}

// ---------------------------------------------------------------------------------------------
// dm_mech_g1.

void check_hpl(const block_reader &r, const std::array<double, 6> &v) {
    const param_value &list = r.value("HPL seek equation values");
    auto fail = [&](size_t i, const std::string &expected) {
        throw spec_error(list.list[i].where,
                         "HPL value V" + std::to_string(i + 1) + " is " + list.list[i].describe(),
                         expected);
    };
    if (v[0] < 0 || v[0] != std::floor(v[0]))
        fail(0, "V1 to be a non-negative whole number of cylinders");
    for (size_t i = 1; i <= 4; ++i)
        if (v[i] < 0) fail(i, "V2..V5 to be non-negative milliseconds");
    if (v[5] < 0 && v[5] != -1) fail(5, "V6 to be non-negative milliseconds or -1");
}

void read_seek(const block_reader &r, seek_spec &s) {
    static const std::vector<std::pair<std::string, seek_type>> types = {
        {"constant", seek_type::constant}, {"linear", seek_type::linear},
        {"curve", seek_type::curve},       {"hpl", seek_type::hpl},
        {"hplplus10", seek_type::hplplus10}, {"extracted", seek_type::extracted}};
    std::string name = r.word("Seek type");
    auto it = std::find_if(types.begin(), types.end(), [&](auto &t) { return t.first == name; });
    if (it == types.end())
        bad_value(r, "Seek type", "constant, linear, curve, hpl, hplplus10 or extracted");
    s.type = it->second;
    std::string because = " (needed by Seek type = " + name + ")";

    s.single_cylinder_ms = r.real("Single cylinder seek time");
    s.average_ms = r.real("Average seek time");
    s.full_strobe_ms = r.real("Full strobe seek time");
    s.constant_ms = r.real("Constant seek time");
    switch (s.type) {
    case seek_type::constant: r.value("Constant seek time", because); break;
    case seek_type::linear:
    case seek_type::curve:
        r.value("Single cylinder seek time", because);
        r.value("Average seek time", because);
        r.value("Full strobe seek time", because);
        break;
    case seek_type::hplplus10: r.value("First ten seek times", because); [[fallthrough]];
    case seek_type::hpl: r.value("HPL seek equation values", because); break;
    case seek_type::extracted: r.value("Full seek curve", because); break;
    default: break;
    }
    // Lists given for another seek type are still checked, so a mangled one never slips through.
    if (r.has("HPL seek equation values")) {
        auto v = number_list(r, "HPL seek equation values", 6);
        std::copy(v.begin(), v.end(), s.hpl.begin());
        check_hpl(r, s.hpl);
    }
    if (r.has("First ten seek times")) {
        auto v = number_list(r, "First ten seek times", 10);
        std::copy(v.begin(), v.end(), s.first_ten_ms.begin());
    }
    if (r.has("Full seek curve")) {
        const param_entry &e = r.entry("Full seek curve");
        // Relative to the file that names it, like `source`.
        s.curve = load_seek_curve(resolve_source_path(e.where.file, e.value.text), e.value.where);
    }
}

mech_spec read_mech(const param_block &b, disk_spec &spec) {
    block_reader r(b, mech_kind, spec);
    mech_spec m;
    std::string access = r.word("Access time type");
    m.constant_access_ms = r.real("Constant access time");
    if (access == "constant") {
        m.access = access_time_type::constant;
        r.value("Constant access time", " (needed by Access time type = constant)");
    } else if (access == "averageRotation") {
        m.access = access_time_type::average_rotation;
    } else if (access == "trackSwitchPlusRotation") {
        m.access = access_time_type::track_switch_plus_rotation;
    } else {
        bad_value(r, "Access time type", "constant, averageRotation or trackSwitchPlusRotation");
    }
    read_seek(r, m.seek);
    m.write_settle_ms = r.real("Add. write settling delay");
    m.head_switch_ms = r.real("Head switch time");
    m.rpm = positive(r, "Rotation speed (in rpms)");
    // diskmodel draws each disk's speed at random within this band; raidtlm's spindles are exact.
    if (r.real("Percent error in rpms") != 0)
        throw spec_error(r.value("Percent error in rpms").where,
                         "'Percent error in rpms' = " + r.word("Percent error in rpms") +
                             " is not supported",
                         "0");
    r.finish();
    return m;
}

// ---------------------------------------------------------------------------------------------
// dm_disk, disksim_ioqueue, disksim_disk.

void read_dm_disk(const param_block &b, disk_spec &spec) {
    block_reader r(b, dm_disk_kind, spec);
    spec.surfaces = positive(r, "Number of data surfaces");
    spec.cylinders = positive(r, "Number of cylinders");
    spec.block_count = r.integer64("Block count");
    if (spec.block_count < 0) bad_value(r, "Block count", "a non-negative integer");
    spec.layout = read_layout(r.block("Layout Model"), spec);
    check_zones(spec.layout, spec);
    spec.mech = read_mech(r.block("Mechanical Model"), spec);
    // Seek curves that interpolate over the disk use "Number of cylinders" as given; the layout
    // spans every cylinder a zone names.
    spec.mech.seek.cylinders = spec.cylinders;
    for (const zone_spec &z : spec.layout.zones) spec.cylinders = std::max(spec.cylinders, z.last_cyl + 1);
    r.finish();
}

void read_ioqueue(const param_block &b, disk_spec &spec) {
    block_reader r(b, ioqueue_kind, spec);
    int64_t policy = r.integer64("Scheduling policy");
    if (policy < 1 || policy > 27)
        throw spec_error(r.value("Scheduling policy").where,
                         "'Scheduling policy' = " + std::to_string(policy) + " is not a DiskSim ioqueue policy",
                         "a number from DiskSim's Table 1, 1 to 27");
    // The drive's own queue implements FCFS, ELEVATOR_LBN, CYCLE_LBN and SSTF_LBN; any other
    // policy is kept so that check_supported can refuse it where commands do queue in the drive.
    spec.other_params["Scheduling policy"] = double(policy);
    spec.interface.scheduling = policy <= 4 ? static_cast<drive_scheduling>(policy) : drive_scheduling::fcfs;
    r.finish();
}

void read_disk(const param_block &b, disk_spec &spec) {
    block_reader r(b, disk_kind, spec);
    spec.name = b.name;

    read_dm_disk(r.block("Model"), spec);
    read_ioqueue(r.block("Scheduler"), spec);

    interface_spec &i = spec.interface;
    i.bulk_sector_transfer_ms = r.real("Bulk sector transfer time");
    i.hold_bus_entire_read = r.flag("Hold bus entire read xfer");
    i.hold_bus_entire_write = r.flag("Hold bus entire write xfer");
    i.never_disconnect = r.flag("Never disconnect");
    i.preseeking_level = r.integer("Preseeking level");
    // DiskSim accepts 0 (no limit it would advertise); check_supported refuses it where commands
    // queue in the drive.
    i.max_queue_length = non_negative(r, "Max queue length");

    cache_spec &c = spec.cache;
    // DiskSim accepts 0 to 2 and treats every non-zero value as "caching on".
    c.enabled = int_in_range(r, "Enable caching in buffer", 0, 2, "0, 1 or 2 (DiskSim: non-zero enables caching)") != 0;
    c.segments = r.integer("Number of buffer segments");
    c.segment_blocks = r.integer("Segment size (in blks)");
    c.max_write_segments = r.integer("Maximum number of write segments");
    c.separate_write_segment = r.flag("Use separate write segment");
    c.low_water_mark = r.real("Low (write) water mark");
    c.high_water_mark = r.real("High (read) water mark");
    c.watermark_by_request_size = r.flag("Set watermark by reqsize");
    c.continuous_read = static_cast<prefetch_scheme>(int_in_range(
        r, "Buffer continuous read", 0, 4,
        "0 (none), 1 (to track end), 2 (to cylinder end), 3 (to segment full) or "
        "4 (next track if sequential)"));
    c.min_read_ahead_blocks = r.integer("Minimum read-ahead (blks)");
    c.max_read_ahead_blocks = r.integer("Maximum read-ahead (blks)");
    // DiskSim accepts -1 to 1. 1 lets read-ahead overwrite the data just returned; -1 erases them
    // from the segment when the read completes. Either way a re-read of those data misses, which
    // is what the drive models for both (the returned data count as free once read-ahead starts).
    c.read_ahead_over_requested =
        int_in_range(r, "Read-ahead over requested", -1, 1, "-1, 0 or 1 (DiskSim's range)") != 0;
    c.read_ahead_on_idle_hit = r.flag("Read-ahead on idle hit");
    c.read_any_free_blocks = r.flag("Read any free blocks");
    c.fast_write_level = r.integer("Fast write level");
    // DiskSim accepts 0 to 2; diskmodel's access-time code tests only for non-zero.
    c.immediate_buffer_read = int_in_range(r, "Immediate buffer read", 0, 2, "0, 1 or 2 (DiskSim's range)") != 0;
    c.immediate_buffer_write = int_in_range(r, "Immediate buffer write", 0, 2, "0, 1 or 2 (DiskSim's range)") != 0;
    c.combine_seq_writes = r.flag("Combine seq writes");
    c.stop_prefetch_in_sector = r.flag("Stop prefetch in sector");
    c.disconnect_write_if_seek = r.flag("Disconnect write if seek");
    c.write_hit_stop_prefetch = r.flag("Write hit stop prefetch");
    c.read_directly_to_buffer = r.flag("Read directly to buffer");
    c.immediate_transfer_partial_hit = r.flag("Immed transfer partial hit");
    c.read_hits_on_write_data = r.flag("Allow read hits on write data");
    c.allow_almost_read_hits = r.flag("Allow almost read hits");
    c.allow_sneaky_full_read_hits = r.flag("Allow sneaky full read hits");
    c.allow_sneaky_partial_read_hits = r.flag("Allow sneaky partial read hits");
    c.allow_sneaky_intermediate_read_hits = r.flag("Allow sneaky intermediate read hits");
    c.allow_write_prebuffering = r.flag("Allow write prebuffering");

    overhead_spec &o = spec.overheads;
    o.per_request_ms = r.real("Per-request overhead time");
    o.time_scale = r.real("Time scale for overheads");
    o.read_hit_after_read_ms = r.real("Read hit over. after read");
    o.read_hit_after_write_ms = r.real("Read hit over. after write");
    o.read_miss_after_read_ms = r.real("Read miss over. after read");
    o.read_miss_after_write_ms = r.real("Read miss over. after write");
    o.write_hit_after_read_ms = r.real("Write hit over. after read");
    o.write_hit_after_write_ms = r.real("Write hit over. after write");
    o.write_miss_after_read_ms = r.real("Write miss over. after read");
    o.write_miss_after_write_ms = r.real("Write miss over. after write");
    o.read_completion_ms = r.real("Read completion overhead");
    o.write_completion_ms = r.real("Write completion overhead");
    o.data_preparation_ms = r.real("Data preparation overhead");
    o.first_reselect_ms = r.real("First reselect overhead");
    o.other_reselect_ms = r.real("Other reselect overhead");
    o.read_disconnect_after_read_ms = r.real("Read disconnect afterread");
    o.read_disconnect_after_write_ms = r.real("Read disconnect afterwrite");
    o.write_disconnect_ms = r.real("Write disconnect overhead");
    o.extra_write_disconnect = r.flag("Extra write disconnect");
    o.extradisc_command_ms = r.real("Extradisc command overhead");
    o.extradisc_disconnect_ms = r.real("Extradisc disconnect overhead");
    o.extradisc_inter_disconnect_ms = r.real("Extradisc inter-disconnect delay");
    o.extradisc_2nd_disconnect_ms = r.real("Extradisc 2nd disconnect overhead");
    o.extradisc_seek_delta_ms = r.real("Extradisc seek delta");
    o.minimum_seek_delay_ms = r.real("Minimum seek delay");
    r.finish();
}

const param_block &choose_disk(const param_file &f, const std::string &path,
                               const std::string &disk_name) {
    std::vector<const param_block *> disks;
    for (const auto &b : f.blocks)
        if (b.type == disk_kind.type) disks.push_back(&b);
    std::string names;
    for (const auto *d : disks) names += (names.empty() ? "" : ", ") + d->name;
    if (disks.empty())
        throw spec_error(path, "no disksim_disk block", "a `disksim_disk NAME { ... }` block");
    if (!disk_name.empty()) {
        for (const auto *d : disks)
            if (d->name == disk_name) return *d;
        throw spec_error(path, "no disksim_disk block named '" + disk_name + "'",
                         "one of: " + names);
    }
    if (disks.size() > 1)
        throw spec_error(disks[1]->where,
                         std::to_string(disks.size()) + " disksim_disk blocks (" + names +
                             ") and no disk name given",
                         "a disk name to choose one of them");
    return *disks[0];
}

std::string trim(const std::string &s) {
    size_t b = s.find_first_not_of(" \t\r\f\v");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t\r\f\v") - b + 1);
}

}  // namespace

std::string zone_param_key(std::size_t zone_index, const std::string &param) {
    return "Zones[" + std::to_string(zone_index) + "]." + param;
}

std::vector<std::pair<int, double>> load_seek_curve(const std::string &path,
                                                    const source_location &named_at) {
    std::ifstream in(path);
    if (!in)
        throw spec_error(named_at, "seek curve file '" + path + "' cannot be read",
                         "a readable seek file (a relative name is taken from the directory of "
                         "the file that names it)");
    const std::string header_form = "`Seek distances measured: <count>`";
    std::string line;
    if (!std::getline(in, line))
        throw spec_error(source_location{path, 1}, "seek file is empty",
                         header_form + " on line 1");
    const std::string prefix = "Seek distances measured:";
    std::string header = trim(line);
    long long count = -1;
    if (header.compare(0, prefix.size(), prefix) == 0) {
        std::istringstream rest(header.substr(prefix.size()));
        std::string extra;
        if (!(rest >> count) || (rest >> extra)) count = -1;
    }
    if (count < 1)
        throw spec_error(source_location{path, 1}, "seek file header is '" + header + "'",
                         header_form + " with a positive count");

    std::vector<std::pair<int, double>> curve;
    for (int number = 2; std::getline(in, line); ++number) {
        std::string text = trim(line);
        if (text.empty()) continue;
        std::replace(text.begin(), text.end(), ',', ' ');
        std::istringstream fields(text);
        long long distance = 0;
        double ms = 0;
        std::string extra;
        if (!(fields >> distance >> ms) || (fields >> extra) || distance < 0 ||
            distance > INT_MAX || !(ms >= 0))
            throw spec_error(source_location{path, number}, "seek line is '" + trim(line) + "'",
                             "`<distance>, <time>`: a non-negative cylinder count and "
                             "milliseconds");
        if (!curve.empty() && distance <= curve.back().first)
            throw spec_error(source_location{path, number},
                             "seek distance " + std::to_string(distance) +
                                 " does not ascend (previous line has " +
                                 std::to_string(curve.back().first) + ")",
                             "distances in ascending order");
        curve.emplace_back(static_cast<int>(distance), ms);
    }
    if (static_cast<long long>(curve.size()) != count)
        throw spec_error(source_location{path, 1},
                         "header says " + std::to_string(count) +
                             " seek distances but the file has " + std::to_string(curve.size()),
                         std::to_string(count) + " lines `<distance>, <time>` after the header");
    return curve;
}

disk_spec load_diskspec(const std::string &path, const std::string &disk_name) {
    param_file f = parse_param_file(path);
    disk_spec spec;
    read_disk(choose_disk(f, path, disk_name), spec);
    return spec;
}

}  // namespace raidtlm::disks
