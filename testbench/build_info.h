// What this build of raidtlm is: its version (CMakeLists.txt's project version) and the git commit
// it was built from ("<sha>-dirty" when tracked files differed from it, "unknown" outside git),
// written at build time by cmake/build_info.cmake.
#pragma once

namespace raidtlm::testbench {

const char *raidtlm_version();
const char *build_commit();

}  // namespace raidtlm::testbench
