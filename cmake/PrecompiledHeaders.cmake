# Precompiled headers (KTFLOW_PRECOMPILED_HEADERS: on, unless ccache is the
# compiler launcher).
#
# Most of a ktflow compile is clang parsing MLIR's dialect headers and our
# generated .h.inc files, the same in every file: Coarsen.cpp spent 23 of its
# 33 s in the frontend's header parsing (-ftime-trace). The headers below are
# compiled once per flag set into a precompiled header that every C++ target
# includes first (docs/contributing.md, "Building", has the timings).
#
# One PCH serves every target compiled with the same flags (REUSE_FROM);
# clang refuses a PCH whose language options differ, so there is one per
# flag set: the libraries and tools, the libraries and tests whose results
# must round exactly (-ffp-contract=off), and the gtest binaries of each.
# Extra -D and -I options of a target do not matter to a PCH. The python
# module (exceptions and RTTI on) compiles without one.
#
# A file still has to include what it uses: a build with
# -DKTFLOW_PRECOMPILED_HEADERS=OFF shows what the PCH hides.
# With ccache as the compiler launcher (scripts/build.sh uses it when it is
# installed) the default is off: a PCH embeds its checkout's absolute paths,
# so ccache could not share any object between two checkouts any more. On
# with ccache works too, in one checkout: its users are then compiled with
# the sloppiness ccache needs to cache them.
if(CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache")
  set(ktflow_pch_default OFF)
else()
  set(ktflow_pch_default ON)
endif()
option(KTFLOW_PRECOMPILED_HEADERS
  "Precompile the MLIR and dialect headers most ktflow files include"
  ${ktflow_pch_default})

set(ktflow_pch_headers
  <llvm/ADT/DenseMap.h>
  <llvm/ADT/STLExtras.h>
  <llvm/ADT/SmallVector.h>
  <llvm/ADT/StringExtras.h>
  <llvm/ADT/TypeSwitch.h>
  <llvm/Support/Error.h>
  <llvm/Support/FormatVariadic.h>
  <llvm/Support/raw_ostream.h>
  <mlir/Dialect/Affine/IR/AffineOps.h>
  <mlir/Dialect/Arith/IR/Arith.h>
  <mlir/Dialect/Func/IR/FuncOps.h>
  <mlir/Dialect/Linalg/IR/Linalg.h>
  <mlir/Dialect/Math/IR/Math.h>
  <mlir/Dialect/MemRef/IR/MemRef.h>
  <mlir/Dialect/SCF/IR/SCF.h>
  <mlir/Dialect/Tensor/IR/Tensor.h>
  <mlir/Dialect/Vector/IR/VectorOps.h>
  <mlir/IR/Builders.h>
  <mlir/IR/BuiltinOps.h>
  <mlir/IR/Matchers.h>
  <mlir/IR/PatternMatch.h>
  <mlir/Pass/Pass.h>
  <ktflow/Dialect/KTDP/IR/KTDP.h>
  <ktflow/Dialect/KTDF/IR/KTDF.h>
  <ktflow/Dialect/KTDFArch/IR/KTDFArch.h>
  )

# A target that only builds the PCH of one flag set (its source is empty).
function(ktflow_add_pch_donor name)
  cmake_parse_arguments(ARG "" "" "OPTIONS;LIBS;HEADERS" ${ARGN})
  add_library(${name} OBJECT ${PROJECT_SOURCE_DIR}/cmake/pch-donor.cpp)
  llvm_update_compile_flags(${name})
  target_compile_options(${name} PRIVATE ${ARG_OPTIONS}
    # No header mtimes in the PCH, which ccache would see as a change.
    "SHELL:-Xclang -fno-pch-timestamp")
  target_link_libraries(${name} PRIVATE ${ARG_LIBS})
  target_precompile_headers(${name} PRIVATE ${ktflow_pch_headers}
    ${ARG_HEADERS})
  add_dependencies(${name}
    KTFLOWKTDPIncGen KTFLOWKTDFIncGen KTFLOWKTDFArchIncGen)
  ktflow_pch_ccache_sloppiness(${name})
endfunction()

# ccache caches neither a PCH nor its users without this sloppiness.
function(ktflow_pch_ccache_sloppiness target)
  if(CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache")
    set_property(TARGET ${target} PROPERTY CXX_COMPILER_LAUNCHER
      ${CMAKE_COMMAND} -E env CCACHE_SLOPPINESS=pch_defines,time_macros
      ${CMAKE_CXX_COMPILER_LAUNCHER})
  endif()
endfunction()

function(ktflow_collect_targets dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    ktflow_collect_targets(${sub} sub_targets)
    list(APPEND targets ${sub_targets})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

# Called once every target exists: gives each target that compiles C++ the
# PCH of its flag set.
function(ktflow_use_precompiled_headers)
  if(NOT KTFLOW_PRECOMPILED_HEADERS)
    return()
  endif()
  ktflow_add_pch_donor(ktflow_pch)
  ktflow_add_pch_donor(ktflow_pch_exact_fp OPTIONS -ffp-contract=off)
  if(KTFLOW_BUILD_TESTS)
    # unittests/ found it in its own directory scope.
    find_package(GTest REQUIRED)
    # The unit tests' options (-O0 under the sanitizers) must be the PCH's.
    get_property(unittest_options
      GLOBAL PROPERTY KTFLOW_UNITTEST_COMPILE_OPTIONS)
    ktflow_add_pch_donor(ktflow_pch_gtest OPTIONS ${unittest_options}
      LIBS GTest::gtest HEADERS <gtest/gtest.h>)
    ktflow_add_pch_donor(ktflow_pch_gtest_exact_fp
      OPTIONS ${unittest_options} -ffp-contract=off
      LIBS GTest::gtest HEADERS <gtest/gtest.h>)
  endif()
  ktflow_collect_targets(${PROJECT_SOURCE_DIR} targets)
  foreach(target ${targets})
    get_target_property(type ${target} TYPE)
    get_target_property(sources ${target} SOURCES)
    if(type STREQUAL "INTERFACE_LIBRARY" OR type STREQUAL "UTILITY"
        OR target MATCHES "^ktflow_pch" OR target STREQUAL "KTFLOWPython"
        OR NOT sources MATCHES "\\.cpp(;|$)")
      continue()
    endif()
    get_target_property(options ${target} COMPILE_OPTIONS)
    get_target_property(libs ${target} LINK_LIBRARIES)
    set(donor ktflow_pch)
    if(libs MATCHES "GTest::gtest")
      set(donor ${donor}_gtest)
    endif()
    if(options MATCHES "-ffp-contract=off")
      set(donor ${donor}_exact_fp)
    endif()
    target_precompile_headers(${target} REUSE_FROM ${donor})
    ktflow_pch_ccache_sloppiness(${target})
  endforeach()
endfunction()
