//===- TileSchedulerTest.cpp - Tile scheduling and memory visibility ------===//
//
// This file tests the interpreter's tile schedule: a store that precedes a
// load in program order is visible to the other tiles' loads (tiles yield
// before every load), scratchpads are per tile, and blocked tiles are
// reported as a deadlock rather than hanging; and, in a build with
// AddressSanitizer, that ASan knows which tile stack runs.
//
//===----------------------------------------------------------------------===//

#include "TileScheduler.h"
#include "KernelTestSupport.h"

#include "llvm/Support/Compiler.h"
#include "gtest/gtest.h"

#include <csetjmp>

using namespace ktflow::testing;
using ktflow::host::DType;
using ktflow::host::Tensor;

namespace {

// Tile t writes t + 1 into element 0 of its own scratchpad, then every tile
// reads element 0 of all four scratchpads through a distributed view and
// stores the four values into row t of the output.
const char *kExchange = R"(
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#p0 = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#p1 = affine_set<(d0) : (d0 - 1 >= 0, -d0 + 1 >= 0)>
#p2 = affine_set<(d0) : (d0 - 2 >= 0, -d0 + 2 >= 0)>
#p3 = affine_set<(d0) : (d0 - 3 >= 0, -d0 + 3 >= 0)>
#four = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @exchange(%y: index) attributes {grid = [4]} {
    %id = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : index
    %idp1 = arith.addi %id, %one : index
    %v = arith.index_cast %idp1 : index to i32
    %vt = tensor.from_elements %v : tensor<1xi32>
    %mine = ktdp.construct_memory_view %c0, sizes: [1], strides: [1] {coordinate_set = #one, memory_space = #ktdp.memory_space<ct_local>} : memref<1xi32>
    %tm = ktdp.construct_access_tile %mine[%c0] {access_tile_set = #one, access_tile_order = #id1} : memref<1xi32> -> !ktdp.access_tile<1xindex>
    ktdp.store %vt, %tm : tensor<1xi32>, !ktdp.access_tile<1xindex>
    %l0 = ktdp.construct_memory_view %c0, sizes: [1], strides: [1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1xi32>
    %l1 = ktdp.construct_memory_view %c0, sizes: [1], strides: [1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<1xi32>
    %l2 = ktdp.construct_memory_view %c0, sizes: [1], strides: [1] {coordinate_set = #p2, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<1xi32>
    %l3 = ktdp.construct_memory_view %c0, sizes: [1], strides: [1] {coordinate_set = #p3, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<1xi32>
    %all = ktdp.construct_distributed_memory_view(%l0, %l1, %l2, %l3 : memref<1xi32>, memref<1xi32>, memref<1xi32>, memref<1xi32>) : memref<4xi32>
    %ta = ktdp.construct_access_tile %all[%c0] {access_tile_set = #four, access_tile_order = #id1} : memref<4xi32> -> !ktdp.access_tile<4xindex>
    %got = ktdp.load %ta : !ktdp.access_tile<4xindex> -> tensor<4xi32>
    %got2 = tensor.expand_shape %got [[0, 1]] output_shape [1, 4] : tensor<4xi32> into tensor<1x4xi32>
    %Y = ktdp.construct_memory_view %y, sizes: [4, 4], strides: [4, 1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<4x4xi32>
    %ty = ktdp.construct_access_tile %Y[%id, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x4xi32> -> !ktdp.access_tile<1x4xindex>
    ktdp.store %got2, %ty : tensor<1x4xi32>, !ktdp.access_tile<1x4xindex>
    return
  }
}
)";

TEST(TileScheduler, StoresBeforeALoadAreVisibleToEveryTile) {
  auto run = KernelRun::fromText(kExchange);
  ASSERT_TRUE(run->ok()) << run->errors;
  ASSERT_TRUE(run->run()) << run->errors;
  Tensor y = run->output("y");
  EXPECT_EQ(y.dtype, DType::I32);
  std::vector<double> ref;
  for (int t = 0; t < 4; ++t)
    for (int k = 1; k <= 4; ++k)
      ref.push_back(k);
  expectClose(y, ref, Tolerance::exact(), "Y");
}

TEST(TileScheduler, ScratchpadsArePerTileAndBounded) {
  // With 2 bytes per tile, the 4-byte i32 does not fit.
  ktflow::interp::InterpreterOptions options;
  options.scratchpadBytes = 2;
  auto run = KernelRun::fromText(kExchange, "", options);
  ASSERT_TRUE(run->ok()) << run->errors;
  EXPECT_FALSE(run->run());
  EXPECT_NE(run->errors.find("'ktdp.construct_memory_view' op tile 0: "
                             "scratchpad overflow"),
            std::string::npos)
      << run->errors;
}

TEST(TileScheduler, ReportsDeadlockInsteadOfHanging) {
  // Each tile consumes the other's future before producing its own.
  auto run = KernelRun::fromText(R"(
#t0 = affine_set<(i)[g] : (i == 0, g == 0)>
#t1 = affine_set<(i)[g] : (i - 1 == 0, g == 0)>
#g = affine_set<(g) : (g == 0)>
module {
  func.func @cycle() attributes {grid = [2]} {
    %id = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %z = arith.constant dense<1.0> : tensor<2xf32>
    %is0 = arith.cmpi eq, %id, %c0 : index
    scf.if %is0 {
      %f1 = ktdp.inter_tile_produce producer_tiles_per_group = #t1 -> <(tensor<2xf32>), groups = #g> {
      ^bb0(%gid: index):
        ktdp.yield_partial %z : tensor<2xf32>
      }
      %a = ktdp.inter_tile_consume(%f1) consumer_tiles_per_group = #t0 : <(tensor<2xf32>), groups = #g> -> tensor<2xf32>
    } else {
      %f0 = ktdp.inter_tile_produce producer_tiles_per_group = #t0 -> <(tensor<2xf32>), groups = #g> {
      ^bb0(%gid: index):
        ktdp.yield_partial %z : tensor<2xf32>
      }
      %b = ktdp.inter_tile_consume(%f0) consumer_tiles_per_group = #t1 : <(tensor<2xf32>), groups = #g> -> tensor<2xf32>
    }
    return
  }
}
)");
  ASSERT_TRUE(run->ok()) << run->errors;
  EXPECT_FALSE(run->run());
  EXPECT_NE(run->errors.find("deadlock: 2 unfinished tiles wait"),
            std::string::npos)
      << run->errors;
  EXPECT_NE(run->errors.find("tile 0 waits in 'ktdp.inter_tile_consume' for "
                             "producer tiles 1"),
            std::string::npos)
      << run->errors;
  EXPECT_NE(run->errors.find("tile 1 waits in 'ktdp.inter_tile_consume' for "
                             "producer tiles 0"),
            std::string::npos)
      << run->errors;
}

/// Jumps back to `target`: a noreturn call, for which ASan unpoisons the
/// running stack from the stack pointer to the top it believes in.
[[noreturn]] __attribute__((noinline)) void jumpBack(std::jmp_buf &target) {
  volatile char frame[64];
  frame[0] = 1;
  std::longjmp(target, frame[0]);
}

TEST(TileScheduler, AddressSanitizerKnowsTheTileStacks) {
#if !LLVM_ADDRESS_SANITIZER_BUILD
  GTEST_SKIP() << "needs a build with AddressSanitizer";
#else
  // Without the fiber annotations ASan warns about swapcontext and, at the
  // longjmp on a tile stack, about an absurd stack range ("ignoring
  // requested __asan_handle_no_return"). Each test case runs in its own
  // process, so this run is the process's first switch.
  ktflow::interp::TileScheduler scheduler;
  int jumps = 0;
  ::testing::internal::CaptureStderr();
  mlir::LogicalResult result = scheduler.run(4, 4, [&](int64_t) {
    for (int round = 0; round < 3; ++round) {
      std::jmp_buf target;
      if (!setjmp(target))
        jumpBack(target);
      ++jumps;
      if (mlir::failed(scheduler.yield()))
        return mlir::failure();
    }
    return mlir::success();
  });
  std::string errors = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(mlir::succeeded(result));
  EXPECT_EQ(jumps, 12);
  EXPECT_EQ(scheduler.peakLiveTiles(), 4);
  EXPECT_EQ(errors, "");
#endif
}

} // namespace
