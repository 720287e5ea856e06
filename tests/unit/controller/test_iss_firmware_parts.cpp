// The parts of the firmware co-simulation that are plain code: the C firmware's array map
// (controller/iss/firmware_c/array_map.c, compiled for the host here) agrees with the C++ layouts the
// platform uses, and the ELF reader reads the cross-compiled image's segments and symbols.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "controller/iss/firmware_c/array_map.h"
#include "controller/iss/firmware_c/raidtlm_regs.h"
#include "controller/layouts/parity_layout.h"
#include "controller/layouts/raid10_layout.h"
#include "rtl_models/cpu/elf_image.h"

using namespace raidtlm;

namespace {

// Every sector of random ranges: the C map's disk and drive LBN equal the C++ layout's.
void expect_same_places(const controller::layout &cpp, const array_map &c, uint32_t seed) {
    ASSERT_EQ(uint64_t(cpp.capacity_sectors()), c.capacity_sectors);
    std::mt19937 rng(seed);
    std::vector<controller::chunk> chunks;
    for (int trial = 0; trial < 2000; ++trial) {
        const int64_t lbn = std::uniform_int_distribution<int64_t>(0, cpp.capacity_sectors() - 200)(rng);
        cpp.map(lbn, 200, chunks);
        for (const auto &ch : chunks)
            for (int32_t k = 0; k < ch.sectors; ++k) {
                const place p = array_data_place(&c, uint32_t(ch.lbn + k));
                ASSERT_EQ(int(p.disk), ch.replicas[0].disk) << "lbn " << ch.lbn + k;
                ASSERT_EQ(int64_t(p.lbn), ch.replicas[0].extents[0].drive_lbn + k) << "lbn " << ch.lbn + k;
            }
    }
}

}  // namespace

TEST(iss_firmware_parts, the_c_raid5_map_is_the_left_symmetric_parity_layout) {
    for (int disks : {3, 6, 7}) {
        const std::vector<int64_t> sizes(size_t(disks), 1000003);
        const controller::parity_layout cpp(sizes, 32, controller::parity_placement::left_symmetric);
        array_map c;
        array_map_init(&c, uint32_t(disks), 32, RT_LAYOUT_RAID5, 1000003);
        expect_same_places(cpp, c, uint32_t(disks));
        for (uint32_t stripe = 0; stripe < 20; ++stripe)
            EXPECT_EQ(int(array_parity_disk(&c, stripe)), cpp.parity_disk(stripe));
    }
}

TEST(iss_firmware_parts, the_c_raid0_map_is_the_striping_layout) {
    const std::vector<int64_t> sizes = {500000, 500007, 499999, 500100};
    const auto cpp = controller::raid10_layout::raid0(sizes, 16);
    array_map c;
    array_map_init(&c, 4, 16, RT_LAYOUT_RAID0, 499999);
    expect_same_places(cpp, c, 4);
}

#ifdef RAIDTLM_ISS_DEFAULT_IMAGE
TEST(iss_firmware_parts, the_elf_reader_finds_the_images_segments_entry_and_functions) {
    const auto image = rtl_models::elf_image::load(RAIDTLM_ISS_DEFAULT_IMAGE);
    ASSERT_FALSE(image.segments().empty());
    EXPECT_EQ(image.segments().front().address, RT_IMAGE_BASE);
    const auto &fns = image.functions();
    auto find = [&](const std::string &name) {
        for (size_t i = 0; i < fns.size(); ++i)
            if (fns[i].name == name) return int(i);
        return -1;
    };
    const int main_index = find("main"), reset = find("reset_handler");
    ASSERT_GE(main_index, 0);
    ASSERT_GE(reset, 0);
    EXPECT_EQ(image.entry() & ~1u, fns[size_t(reset)].address);
    EXPECT_EQ(image.function_at(fns[size_t(main_index)].address + 2), main_index);
    EXPECT_EQ(image.function_at(0x000FFFF0), -1);  // the stack: no function
}
#endif

TEST(iss_firmware_parts, the_elf_reader_refuses_a_file_that_is_not_an_elf_naming_it) {
    const auto path = std::filesystem::temp_directory_path() / "raidtlm_not_an_elf.bin";
    std::ofstream(path) << "#!/bin/sh\necho hello\n";
    try {
        rtl_models::elf_image::load(path.string());
        FAIL() << "expected an error";
    } catch (const std::runtime_error &e) {
        EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("not an ELF file"), std::string::npos) << e.what();
    }
    std::filesystem::remove(path);
}
