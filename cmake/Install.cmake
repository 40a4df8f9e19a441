# What `cmake --install` puts under the prefix, and the Debian package CPack
# builds from it:
#   bin/                          ktflow, ktflow-opt, ktflow-lsp-server
#   include/ktflow/               the public headers, generated .inc included
#   lib/                          the KTFLOW* static libraries
#   lib/cmake/ktflow/             ktflowConfig.cmake: find_package(ktflow)
#   lib/python3/dist-packages/    the Python package (KTFLOW_PYTHON_INSTALL_DIR)
#   share/ktflow/                 shipped devices, example kernels and docs
# ktflow-opt, ktflow-lsp-server and the Python extension link Debian's
# libMLIR.so and libLLVM.so, found through their run path in
# ${LLVM_LIBRARY_DIR}; the ktflow driver links the static archives
# (cmake/LLVMLinkage.cmake).
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(ktflow_tools ktflow ktflow-opt ktflow-lsp-server)
foreach(tool ${ktflow_tools})
  set_property(TARGET ${tool} APPEND PROPERTY INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
endforeach()
install(TARGETS ${ktflow_tools}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT ktflow)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ktflow
                  ${PROJECT_BINARY_DIR}/include/ktflow
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT ktflow
  FILES_MATCHING PATTERN "*.h" PATTERN "*.inc" PATTERN "*.td"
  PATTERN CMakeFiles EXCLUDE)

# add_mlir_library already installs every library into the export set
# MLIRTargets (AddMLIR's add_mlir_library_install); in this project that set
# holds only ktflow's libraries, exported here under the ktflow:: namespace.
# Consumers include the headers installed above.
get_property(ktflow_libraries GLOBAL PROPERTY MLIR_EXPORTS)
foreach(library ${ktflow_libraries})
  target_include_directories(${library} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()
set(KTFLOW_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/ktflow)
install(EXPORT MLIRTargets
  NAMESPACE ktflow::
  FILE ktflowTargets.cmake
  DESTINATION ${KTFLOW_INSTALL_CMAKEDIR}
  COMPONENT ktflow)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/ktflowConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/ktflowConfig.cmake
  INSTALL_DESTINATION ${KTFLOW_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/ktflowConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/ktflowConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/ktflowConfigVersion.cmake
  DESTINATION ${KTFLOW_INSTALL_CMAKEDIR} COMPONENT ktflow)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/devices
                  ${PROJECT_SOURCE_DIR}/examples/kernels
  DESTINATION ${CMAKE_INSTALL_DATADIR}/ktflow/examples COMPONENT ktflow)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/ktflow COMPONENT ktflow)

# CPack: `cpack -G DEB` in the build directory writes ktflow_VERSION_amd64.deb.
set(CPACK_PACKAGE_NAME ktflow)
set(CPACK_PACKAGE_VENDOR "ktflow")
set(CPACK_PACKAGE_CONTACT "ktflow developers <ktflow@users.noreply.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "MLIR compiler, simulator and reference interpreter for KTIR kernels")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The libraries the binaries link (libMLIR/libLLVM 22) and what the Python
# package imports; the headers need Debian's MLIR headers to compile against.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libmlir-22, libllvm22, python3, python3-numpy")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libmlir-22-dev, llvm-22-dev")
include(CPack)
