// A main() for the fuzz targets built without libFuzzer (the normal gcc build): runs the target
// on every file of the directories or files given, so the seed corpus is a regression test.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

// A target linked with the model library gets SystemC's main(), which calls sc_main.
#ifdef RAIDTLM_REPLAY_AS_SC_MAIN
extern "C" int sc_main(int argc, char **argv) {
#else
int main(int argc, char **argv) {
#endif
    namespace fs = std::filesystem;
    int files = 0;
    for (int i = 1; i < argc; ++i) {
        std::vector<fs::path> paths;
        if (fs::is_directory(argv[i])) {
            for (const auto &e : fs::directory_iterator(argv[i]))
                if (e.is_regular_file()) paths.push_back(e.path());
        } else {
            paths.push_back(argv[i]);
        }
        for (const auto &p : paths) {
            std::ifstream in(p, std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
            ++files;
        }
    }
    std::printf("%d inputs ran without a crash\n", files);
    return files > 0 ? 0 : 1;
}
