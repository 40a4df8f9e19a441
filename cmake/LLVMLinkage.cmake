# How ktflow's executables link LLVM and MLIR.
#
# By default everything links the shared libLLVM.so and libMLIR.so Debian
# ships. An executable whose KTFLOW_STATIC_LLVM property is ON links
# Debian's static archives (lib*.a in llvm-22-dev and libmlir-22-dev)
# instead: the two shared libraries cost a process about 60-70 ms of
# loading and relocation before main, which dominates a `ktflow check` or
# `ktflow interp` of a small kernel (docs/cpu-jit.md, "Start-up"). The
# `ktflow` driver is linked that way unless KTFLOW_STATIC_DRIVER is OFF.
#
# The libraries name the interface targets below instead of LLVM or MLIR;
# their link interface picks, per executable, the shared libraries or the
# archives, so no process ever holds two copies of LLVM's globals:
#   ktflow_mlir_libs  MLIR (and through it LLVM), or the archives
#   ktflow_llvm_libs  LLVM alone, or the archives
# Only the choice's BUILD_INTERFACE side names the archives: an installed
# ktflow:: library links the shared libraries.

option(KTFLOW_STATIC_DRIVER
  "Link the ktflow driver against LLVM's and MLIR's static archives" ON)

file(GLOB ktflow_mlir_archives "${LLVM_LIBRARY_DIR}/libMLIR*.a")
file(GLOB ktflow_llvm_archives "${LLVM_LIBRARY_DIR}/libLLVM*.a")
# Archives that define main() or duplicate other archives' symbols.
list(FILTER ktflow_mlir_archives EXCLUDE REGEX
  "libMLIR(CAPI|Python|TableGen|Tblgen|.*Test|.*Main)[^/]*\\.a$")
list(FILTER ktflow_llvm_archives EXCLUDE REGEX
  "libLLVM(TableGen|.*Test|FuzzMutate|Exegesis)[^/]*\\.a$")

# The system libraries LLVM's archives call into. Debian ships some only as
# runtime libraries (libzstd.so.1 without libzstd-dev), so they are found by
# file name; --as-needed drops any the linked code never calls.
set(ktflow_archive_system_libs)
foreach(name z zstd tinfo)
  find_library(KTFLOW_LIB_${name} NAMES ${name} lib${name}.so.1 lib${name}.so.6)
  if(KTFLOW_LIB_${name})
    list(APPEND ktflow_archive_system_libs ${KTFLOW_LIB_${name}})
  endif()
endforeach()

add_library(ktflow_llvm_archives INTERFACE)
target_link_libraries(ktflow_llvm_archives INTERFACE
  -Wl,--as-needed
  -Wl,--start-group ${ktflow_mlir_archives} ${ktflow_llvm_archives}
  -Wl,--end-group
  ${ktflow_archive_system_libs} ${CMAKE_DL_LIBS} pthread rt m)

# One generator expression per library: a list separator inside $<IF:...>
# would split it.
set(ktflow_static "$<BOOL:$<TARGET_PROPERTY:KTFLOW_STATIC_LLVM>>")
set(ktflow_shared "$<NOT:${ktflow_static}>")
add_library(ktflow_llvm_libs INTERFACE)
target_link_libraries(ktflow_llvm_libs INTERFACE
  "$<${ktflow_static}:$<BUILD_INTERFACE:ktflow_llvm_archives>>"
  "$<${ktflow_shared}:LLVM>")
add_library(ktflow_mlir_libs INTERFACE)
target_link_libraries(ktflow_mlir_libs INTERFACE
  "$<${ktflow_shared}:MLIR>" ktflow_llvm_libs)
install(TARGETS ktflow_mlir_libs ktflow_llvm_libs EXPORT MLIRTargets)

# MLIR's ExecutionEngine ships only as archives whose interface names the
# shared LLVM and MLIR; route it through the same choice.
foreach(target MLIRExecutionEngine MLIRExecutionEngineUtils)
  if(TARGET ${target})
    set_property(TARGET ${target}
      PROPERTY INTERFACE_LINK_LIBRARIES ktflow_mlir_libs)
  endif()
endforeach()

# Marks `target` as linked against the archives. Its add_llvm_executable
# must pass DISABLE_LLVM_LINK_LLVM_DYLIB, or AddLLVM links libLLVM.so too.
function(ktflow_link_llvm_statically target)
  set_property(TARGET ${target} PROPERTY KTFLOW_STATIC_LLVM ON)
endfunction()

# add_mlir_library puts the shared LLVM into every library's link interface
# (it always adds the Support component, and Debian's LLVM links components
# as libLLVM.so). Called once every library exists, this routes those
# entries through ktflow_llvm_libs.
function(ktflow_route_llvm_links)
  get_property(libraries GLOBAL PROPERTY MLIR_EXPORTS)
  foreach(library ${libraries})
    get_property(interface TARGET ${library} PROPERTY INTERFACE_LINK_LIBRARIES)
    string(REGEX REPLACE "(^|;|:)LLVM(;|>|$)" "\\1ktflow_llvm_libs\\2"
      interface "${interface}")
    set_property(TARGET ${library} PROPERTY INTERFACE_LINK_LIBRARIES
      "${interface}")
  endforeach()
endfunction()
