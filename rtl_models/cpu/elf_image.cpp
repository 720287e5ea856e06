#include "rtl_models/cpu/elf_image.h"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace raidtlm::rtl_models {

namespace {

template <class T>
T read_at(const std::vector<uint8_t> &file, uint64_t offset, const std::string &path, const char *what) {
    if (offset + sizeof(T) > file.size())
        throw std::runtime_error(path + ": truncated ELF file (" + what + " past its end)");
    T value;
    std::memcpy(&value, file.data() + offset, sizeof(T));
    return value;
}

}  // namespace

elf_image elf_image::load(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot open the firmware image");
    const std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (file.size() < SELFMAG || std::memcmp(file.data(), ELFMAG, SELFMAG) != 0)
        throw std::runtime_error(path + ": not an ELF file (expected a firmware image built by arm-none-eabi-gcc)");
    const auto header = read_at<Elf32_Ehdr>(file, 0, path, "header");
    if (header.e_ident[EI_CLASS] != ELFCLASS32 || header.e_ident[EI_DATA] != ELFDATA2LSB || header.e_machine != EM_ARM)
        throw std::runtime_error(path + ": expected a 32-bit little-endian ARM ELF executable");

    elf_image image;
    image.m_path = path;
    image.m_entry = header.e_entry;
    for (unsigned i = 0; i < header.e_phnum; ++i) {
        const auto ph = read_at<Elf32_Phdr>(file, header.e_phoff + uint64_t(i) * header.e_phentsize, path, "program header");
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
        if (uint64_t(ph.p_offset) + ph.p_filesz > file.size())
            throw std::runtime_error(path + ": truncated ELF file (a segment past its end)");
        segment s;
        s.address = ph.p_paddr;
        s.bytes.assign(file.begin() + ph.p_offset, file.begin() + ph.p_offset + ph.p_filesz);
        s.bytes.resize(ph.p_memsz, 0);
        image.m_segments.push_back(std::move(s));
    }
    if (image.m_segments.empty()) throw std::runtime_error(path + ": the ELF file has no loadable segment");

    // Function symbols from .symtab (names in its linked string table).
    for (unsigned i = 0; i < header.e_shnum; ++i) {
        const auto sh = read_at<Elf32_Shdr>(file, header.e_shoff + uint64_t(i) * header.e_shentsize, path, "section header");
        if (sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0) continue;
        const auto strings = read_at<Elf32_Shdr>(file, header.e_shoff + uint64_t(sh.sh_link) * header.e_shentsize, path,
                                                 "string table header");
        for (uint32_t k = 0; k < sh.sh_size / sh.sh_entsize; ++k) {
            const auto sym = read_at<Elf32_Sym>(file, sh.sh_offset + uint64_t(k) * sh.sh_entsize, path, "symbol");
            if (ELF32_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_name >= strings.sh_size) continue;
            const char *name = reinterpret_cast<const char *>(file.data() + strings.sh_offset + sym.st_name);
            const size_t max_len = strings.sh_size - sym.st_name;
            image.m_functions.push_back({sym.st_value & ~1u, sym.st_size, std::string(name, strnlen(name, max_len))});
        }
    }
    std::sort(image.m_functions.begin(), image.m_functions.end(),
              [](const function &a, const function &b) { return a.address < b.address; });
    return image;
}

int elf_image::function_at(uint32_t address) const {
    auto it = std::upper_bound(m_functions.begin(), m_functions.end(), address,
                               [](uint32_t a, const function &f) { return a < f.address; });
    if (it == m_functions.begin()) return -1;
    --it;
    if (address >= it->address + std::max<uint32_t>(it->bytes, 1)) return -1;
    return int(it - m_functions.begin());
}

}  // namespace raidtlm::rtl_models
