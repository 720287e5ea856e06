# Installing raidtlm as a CMake package, so that firmware written by users builds outside this tree:
#
#   find_package(raidtlm REQUIRED)
#   add_executable(my_raidtlm my_firmware.cpp)
#   target_link_libraries(my_raidtlm PRIVATE raidtlm::raidtlm raidtlm::main)
#
# raidtlm::raidtlm is the static model library with its headers (include/raidtlm/<folder>/*.h, the
# same include paths as inside the tree). raidtlm::main adds the `raidtlm` command's sc_main
# (testbench/main.cpp, installed as a source and compiled in the user's project): the user's
# executable is the whole raidtlm command plus whatever firmware and plug-ins it registers.
# A static library drops objects nothing refers to, so user plug-ins are linked as sources of the
# executable, where their registration objects always run.
include(CMakePackageConfigHelpers)

set(RAIDTLM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/raidtlm)
set(RAIDTLM_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/raidtlm)

set_target_properties(raidtlm_core PROPERTIES EXPORT_NAME raidtlm OUTPUT_NAME raidtlm)
add_library(raidtlm::raidtlm ALIAS raidtlm_core)

add_library(raidtlm_main INTERFACE)
set_target_properties(raidtlm_main PROPERTIES EXPORT_NAME main)
target_sources(raidtlm_main INTERFACE
               $<INSTALL_INTERFACE:$<INSTALL_PREFIX>/${RAIDTLM_INSTALL_DATADIR}/raidtlm_main.cpp>)
target_link_libraries(raidtlm_main INTERFACE raidtlm_core CLI11::CLI11)
# Scenario disk spec paths may be relative to the installed data folder (scenarios/disks).
target_compile_definitions(raidtlm_main INTERFACE
                           $<INSTALL_INTERFACE:RAIDTLM_SOURCE_DIR="$<INSTALL_PREFIX>/${RAIDTLM_INSTALL_DATADIR}">)

install(TARGETS raidtlm_core raidtlm_main EXPORT raidtlmTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/raidtlm)
foreach(folder config tlm rtl_models disks controller testbench waveforms)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${folder} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/raidtlm
          FILES_MATCHING PATTERN "*.h" PATTERN "traces" EXCLUDE)
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/testbench/main.cpp DESTINATION ${RAIDTLM_INSTALL_DATADIR} RENAME raidtlm_main.cpp)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/scenarios DESTINATION ${RAIDTLM_INSTALL_DATADIR})
install(TARGETS raidtlm RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT raidtlmTargets NAMESPACE raidtlm:: DESTINATION ${RAIDTLM_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/raidtlmConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/raidtlmConfig.cmake
                              INSTALL_DESTINATION ${RAIDTLM_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/raidtlmConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/raidtlmConfig.cmake ${PROJECT_BINARY_DIR}/raidtlmConfigVersion.cmake
        DESTINATION ${RAIDTLM_INSTALL_CMAKEDIR})
