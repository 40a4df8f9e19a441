//===- IndirectRooflineTest.cpp - Gathers the roofline counts -------------===//
//
// Tests, against hand arithmetic, the memory bound of kernels whose
// indirect tiles gather through index tensors the roofline reads from the
// launch: index tensors at literal addresses
// (examples/kernels/realworld/gather2d_literal.mlir), not only those of
// arguments; and the count of helpers a kernel calls, which the walk
// follows as if inlined: their operations, and the views, tiles and
// addresses passed in and returned (a scatter tile a helper builds, as in
// test/EndToEnd/Inputs/scatter_tile_helper.mlir).
//
//===----------------------------------------------------------------------===//

#include "DemandTestSupport.h"

using namespace ktflow;
using mlir::ktdf_arch::OpClass;

namespace {

class IndirectRooflineTest : public analysis_testing::DemandTest {};

TEST_F(IndirectRooflineTest, LiteralIndexTensorsSelectTheElementsGathered) {
  // OUT[m, k] = SRC[ROWS[m, k], COLS[m, k]], m, k < 32, with ROWS at @4096
  // and COLS at @8192 (32x32 i32 each), SRC at @0 (64x64 f16), OUT at
  // @32768 (32x32 f16). Here ROWS[m, k] = m floordiv 2 and COLS[m, k] =
  // 63 - k: 16 rows x 32 columns of SRC, 512 distinct f16 (1024 bytes),
  // each read once although every element is gathered twice. The index
  // tensors are read whole (2 x 4096 bytes) and OUT written whole (2048
  // bytes).
  auto values = [](TensorLocation tensor,
                   int64_t element) -> std::optional<int64_t> {
    if (!tensor.literal || element < 0 || element >= 32 * 32)
      return std::nullopt;
    int64_t m = element / 32, k = element % 32;
    if (tensor.position == 4096)
      return m / 2;
    if (tensor.position == 8192)
      return 63 - k;
    return std::nullopt;
  };
  std::string path = std::string(KTFLOW_EXAMPLES_DIR) +
                     "/kernels/realworld/gather2d_literal.mlir";
  device::KernelDemand demand = countFile(path, ScalarArgs(), values);
  EXPECT_TRUE(demand.gaps.empty());
  EXPECT_EQ(demand.bytesRead, 16u * 32 * 2 + 2 * 32 * 32 * 4);
  EXPECT_EQ(demand.bytesWritten, 32u * 32 * 2);

  // spyre_like's DDR moves 1024 bytes a cycle: (9216 + 2048) / 1024.
  device::RooflineBound spyre = bound(demand, "spyre_like", "DDR");
  EXPECT_DOUBLE_EQ(spyre.memory.cycles, 11264 / 1024.0);

  // The argument at position 4096 is not the literal tensor there: values
  // known only for arguments leave the gather a gap, as before.
  auto argumentsOnly = [&](TensorLocation tensor, int64_t element) {
    return tensor.literal ? std::nullopt
                          : values({true, tensor.position}, element);
  };
  demand = countFile(path, ScalarArgs(), argumentsOnly);
  ASSERT_EQ(demand.gaps.size(), 1u);
  EXPECT_NE(demand.gaps.front().find("indirect access tiles"),
            std::string::npos);
  EXPECT_EQ(demand.bytesRead, 2u * 32 * 32 * 4);
}

TEST_F(IndirectRooflineTest, HelpersCountAsIfInlined) {
  // Four grid points each load 8 rows of X (32x64 f16), double them in
  // @twice and store them to the Cache rows Slot[8t .. 8t + 7] name,
  // through a tile @slot_rows builds on a view of the Cache pointer it is
  // passed, at the Slot view and row it is passed. With Slot[i] = 2i: reads
  // X whole (4096 bytes) and Slot whole (128), writes 32 distinct rows of
  // 64 f16 (4096); 4 x 8 x 64 f16 additions.
  device::KernelDemand demand = countText(
      R"mlir(
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#slot = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#cache = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func private @slot_rows(%cache: index, %Slot: memref<32xi32>, %r0: index) -> !ktdp.access_tile<8x64xindex> {
    %Cache = ktdp.construct_memory_view %cache, sizes: [64, 64], strides: [64, 1] {coordinate_set = #cache, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %Cache[ind(%Slot[%r0 + %i]), (%j)] {variables_space_set = #block, variables_space_order = #id2} : memref<64x64xf16>, memref<32xi32> -> !ktdp.access_tile<8x64xindex>
    return %t : !ktdp.access_tile<8x64xindex>
  }
  func.func private @twice(%v: tensor<8x64xf16>) -> tensor<8x64xf16> {
    %d = arith.addf %v, %v : tensor<8x64xf16>
    return %d : tensor<8x64xf16>
  }
  func.func @k(%x: index, %slot: index, %cache: index) attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %r0 = arith.muli %pid, %c8 : index
    %X = ktdp.construct_memory_view %x, sizes: [32, 64], strides: [64, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %Slot = ktdp.construct_memory_view %slot, sizes: [32], strides: [1] {coordinate_set = #slot, memory_space = #ktdp.memory_space<global>} : memref<32xi32>
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<8x64xindex>
    %rows = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
    %d = func.call @twice(%rows) : (tensor<8x64xf16>) -> tensor<8x64xf16>
    %tc = func.call @slot_rows(%cache, %Slot, %r0) : (index, memref<32xi32>, index) -> !ktdp.access_tile<8x64xindex>
    ktdp.store %d, %tc : tensor<8x64xf16>, <8x64xindex>
    return
  }
}
)mlir",
      ScalarArgs(),
      [](TensorLocation tensor, int64_t element) -> std::optional<int64_t> {
        if (tensor.literal || tensor.position != 1 || element < 0 ||
            element >= 32)
          return std::nullopt;
        return 2 * element;
      });
  EXPECT_TRUE(demand.gaps.empty());
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f16()), 4 * 8 * 64.0);
  EXPECT_EQ(demand.bytesRead, 32u * 64 * 2 + 32 * 4);
  EXPECT_EQ(demand.bytesWritten, 32u * 64 * 2);
  // spyre_like's DDR moves 1024 bytes a cycle: (4224 + 4096) / 1024.
  EXPECT_DOUBLE_EQ(bound(demand, "spyre_like", "DDR").memory.cycles,
                   8320 / 1024.0);
}

TEST_F(IndirectRooflineTest, RecursiveAndBodilessCallsAreGaps) {
  // A function without a body has nothing to count; a recursive one would
  // walk forever: both are named, not followed.
  device::KernelDemand demand = countText(R"mlir(
func.func private @external(%v: f32) -> f32
func.func private @loop(%v: f32) -> f32 {
  %w = func.call @loop(%v) : (f32) -> f32
  return %w : f32
}
func.func @k(%a: f32) attributes {grid = [1]} {
  %b = func.call @external(%a) : (f32) -> f32
  %c = func.call @loop(%b) : (f32) -> f32
  return
}
)mlir");
  ASSERT_EQ(demand.gaps.size(), 2u);
  EXPECT_NE(demand.gaps[0].find("without a one-block body"), std::string::npos);
  EXPECT_NE(demand.gaps[1].find("recursive calls"), std::string::npos);
}

} // namespace
