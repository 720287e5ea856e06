// A firmware image as the instruction-set simulator loads it: the loadable segments and the
// function symbols of a 32-bit little-endian ELF executable (the arm-none-eabi toolchain's
// output). Plain C++, read with <elf.h> (glibc's definitions), no library.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace raidtlm::rtl_models {

class elf_image {
public:
    struct segment {
        uint32_t address = 0;
        std::vector<uint8_t> bytes;  // file contents, zero-filled up to the memory size (.bss)
    };
    struct function {
        uint32_t address = 0;  // Thumb bit cleared
        uint32_t bytes = 0;
        std::string name;
    };

    // Throws std::runtime_error naming the file and what is wrong with it.
    static elf_image load(const std::string &path);

    const std::string &path() const { return m_path; }
    uint32_t entry() const { return m_entry; }
    const std::vector<segment> &segments() const { return m_segments; }
    // Sorted by address.
    const std::vector<function> &functions() const { return m_functions; }
    // The index in functions() of the function holding `address`, or -1.
    int function_at(uint32_t address) const;

private:
    std::string m_path;
    uint32_t m_entry = 0;
    std::vector<segment> m_segments;
    std::vector<function> m_functions;
};

}  // namespace raidtlm::rtl_models
