//===- AttentionRooflineTest.cpp - The count of a causal attention --------===//
//
// Tests the two rules a causal attention exercises, on small kernels and on
// bench/kernels/attention_1024x1024x128.mlir against hand arithmetic: a
// loop whose trip count follows from the tile id counts each grid point's
// own trips (not the largest at every point), and a matrix product of two
// values extended from a narrower float (f16 -> f32) counts at the narrow
// type, its extensions not at all: a unit that multiplies f16 with an f32
// accumulator computes the same sums, and the scheduler gives Q.K^T to one
// (docs/scheduler.md). Charging it at the f32 rate made mesh_device's bound
// 652688 cycles, which a renumbered schedule of the same kernel beat
// (508715 simulated).
//
//===----------------------------------------------------------------------===//

#include "DemandTestSupport.h"

#include "gmock/gmock.h"

using namespace ktflow;
using ktflow::device::BoundKind;
using mlir::ktdf_arch::OpClass;

namespace {

class AttentionRooflineTest : public analysis_testing::DemandTest {};

TEST_F(AttentionRooflineTest, TripCountsFromTheTileIdCountPerPoint) {
  device::KernelDemand demand = countText(R"mlir(
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%x: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.addi %id, %c1 : index
  %X = ktdp.construct_memory_view %x, sizes: [4, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
  scf.for %i = %c0 to %n step %c1 {
    %t = ktdp.construct_access_tile %X[%i, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x64xf32> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf32>
    %w = arith.addf %v, %v : tensor<1x64xf32>
    ktdp.store %w, %t : tensor<1x64xf32>, <1x64xindex>
  }
  return
}
)mlir");
  EXPECT_TRUE(demand.gaps.empty());
  // Tile t walks rows 0..t: (1 + 2 + 3 + 4) x 64 additions, not 4 x 4 x 64.
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f32()), 10 * 64.0);
}

TEST_F(AttentionRooflineTest, ProductsOfExtendedHalvesAtTheHalfRate) {
  device::KernelDemand demand = countText(R"mlir(
#aset = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#bset = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%a: index, %b: index, %v: index, %o: index) attributes {grid = [1]} {
  %A = ktdp.construct_memory_view %a, sizes: [4, 8], strides: [8, 1] {coordinate_set = #aset, memory_space = #ktdp.memory_space<global>} : memref<4x8xf16>
  %B = ktdp.construct_memory_view %b, sizes: [2, 8], strides: [8, 1] {coordinate_set = #bset, memory_space = #ktdp.memory_space<global>} : memref<2x8xf16>
  %V = ktdp.construct_memory_view %v, sizes: [2, 8], strides: [8, 1] {coordinate_set = #bset, memory_space = #ktdp.memory_space<global>} : memref<2x8xf16>
  %O = ktdp.construct_memory_view %o, sizes: [4, 8], strides: [8, 1] {coordinate_set = #aset, memory_space = #ktdp.memory_space<global>} : memref<4x8xf16>
  %ta = ktdp.construct_access_tile %A[0, 0] {access_tile_set = #aset, access_tile_order = #id2} : memref<4x8xf16> -> !ktdp.access_tile<4x8xindex>
  %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #bset, access_tile_order = #id2} : memref<2x8xf16> -> !ktdp.access_tile<2x8xindex>
  %tv = ktdp.construct_access_tile %V[0, 0] {access_tile_set = #bset, access_tile_order = #id2} : memref<2x8xf16> -> !ktdp.access_tile<2x8xindex>
  %to = ktdp.construct_access_tile %O[0, 0] {access_tile_set = #aset, access_tile_order = #id2} : memref<4x8xf16> -> !ktdp.access_tile<4x8xindex>
  %ah = ktdp.load %ta : <4x8xindex> -> tensor<4x8xf16>
  %bh = ktdp.load %tb : <2x8xindex> -> tensor<2x8xf16>
  %vh = ktdp.load %tv : <2x8xindex> -> tensor<2x8xf16>
  %af = arith.extf %ah : tensor<4x8xf16> to tensor<4x8xf32>
  %bf = arith.extf %bh : tensor<2x8xf16> to tensor<2x8xf32>
  %vf = arith.extf %vh : tensor<2x8xf16> to tensor<2x8xf32>
  %bt_init = tensor.empty() : tensor<8x2xf32>
  %bt = linalg.transpose ins(%bf : tensor<2x8xf32>) outs(%bt_init : tensor<8x2xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %ep = tensor.empty() : tensor<4x2xf32>
  %zp = linalg.fill ins(%zero : f32) outs(%ep : tensor<4x2xf32>) -> tensor<4x2xf32>
  %p = linalg.matmul ins(%af, %bt : tensor<4x8xf32>, tensor<8x2xf32>) outs(%zp : tensor<4x2xf32>) -> tensor<4x2xf32>
  %eq = tensor.empty() : tensor<4x8xf32>
  %zq = linalg.fill ins(%zero : f32) outs(%eq : tensor<4x8xf32>) -> tensor<4x8xf32>
  %q = linalg.matmul ins(%p, %vf : tensor<4x2xf32>, tensor<2x8xf32>) outs(%zq : tensor<4x8xf32>) -> tensor<4x8xf32>
  %oh = arith.truncf %q : tensor<4x8xf32> to tensor<4x8xf16>
  ktdp.store %oh, %to : tensor<4x8xf16>, <4x8xindex>
  return
}
)mlir");
  EXPECT_TRUE(demand.gaps.empty());
  // A . B^T of f16 values extended: 4 x 2 x 8 f16 multiply-accumulates,
  // the two extensions not counted.
  EXPECT_EQ(operations(demand, OpClass::Matrix, f16()), 64.0);
  // P . V: P is computed in f32, so 4 x 8 x 2 at f32, and V's extension
  // (16 f32) counts.
  EXPECT_EQ(operations(demand, OpClass::Matrix, f32()), 64.0);
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f32()), 16.0);
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f16()), 32.0);
  EXPECT_EQ(demand.operations.size(), 4u);
  // A . B^T, P . V, truncf: the uncounted extension is no link.
  EXPECT_EQ(demand.chain, 3u);
}

TEST_F(AttentionRooflineTest, CausalAttention1024x1024x128) {
  device::KernelDemand demand = countFile(
      std::string(KTFLOW_BENCH_KERNELS_DIR) + "/attention_1024x1024x128.mlir");
  EXPECT_TRUE(demand.gaps.empty());
  // Tile t (16 queries) walks min((16t + 143) / 128, 8) = t / 8 + 1 key
  // blocks: 8 x (1 + ... + 8) = 288 blocks over the 64 tiles (512 if every
  // tile walked 8).
  const double blocks = 288, tiles = 64;
  // Per block: Q.K^T and P.V, 16 x 128 x 128 MACs each; Q.K^T of extended
  // f16 at f16 (extf Q and extf K not counted), P.V at f32.
  EXPECT_EQ(operations(demand, OpClass::Matrix, f16()), blocks * 262144);
  EXPECT_EQ(operations(demand, OpClass::Matrix, f32()), blocks * 262144);
  // Per block: extf V 16384; scale mulf, mask select, subf, acc mulf 2048
  // each; maximumf, subf, mulf, addf on the 16 row values.
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f32()),
            blocks * (16384 + 4 * 2048 + 4 * 16));
  // Per tile: the truncf of the 16 x 128 output.
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f16()), tiles * 2048);
  // Per block: exp of P (2048) and of alpha (16); per tile: the divf.
  EXPECT_EQ(operations(demand, OpClass::Transcendental, f32()),
            blocks * 2064 + tiles * 2048);
  // Per block: the max's cmpf and the sum's addf fold 2048 each.
  EXPECT_EQ(operations(demand, OpClass::Reduction, f32()), blocks * 4096);
  // Q, K, V read once and O written once: 1024 x 128 x 2 bytes each.
  EXPECT_EQ(demand.bytesRead, 3u * 262144);
  EXPECT_EQ(demand.bytesWritten, 262144u);

  // The max's select is one reduction step with its cmpf (counted above),
  // not a reduction of the compare's i1 that no unit computes: nothing is
  // left out.
  // 75497472 / 256 (P.V) + 7096320 / 256 + 131072 / 512 + 725504 / 64 +
  // 1179648 / 256 = 294912 + 27720 + 256 + 11336 + 4608; the MXUs take
  // Q.K^T, 75497472 / 2048 = 36864. The renumbered schedule's 508715
  // cycles are above it.
  device::RooflineBound mesh = bound(demand, "mesh_device", "HBM");
  EXPECT_DOUBLE_EQ(mesh.compute.uncomputable, 0);
  EXPECT_DOUBLE_EQ(mesh.compute.cycles, 338832);
  EXPECT_EQ(mesh.compute.bottleneck, "VPU");
  EXPECT_THAT(mesh.compute.perClass,
              ::testing::UnorderedElementsAre(
                  std::pair<std::string, double>("VPU", 338832),
                  std::pair<std::string, double>("MXU", 36864)));
  EXPECT_DOUBLE_EQ(mesh.memory.cycles, 1048576 / 512.0);
  EXPECT_EQ(mesh.binding, BoundKind::Compute);

  // 64 SFPs: 75497472 / 2048 + 7096320 / 2048 + 131072 / 4096 +
  // 725504 / 256 + 1179648 / 2048 = 36864 + 3465 + 32 + 2834 + 576; the
  // PTs 75497472 / 4096 = 18432.
  device::RooflineBound spyre = bound(demand, "spyre_like", "DDR");
  EXPECT_DOUBLE_EQ(spyre.compute.cycles, 43771);
  EXPECT_EQ(spyre.compute.bottleneck, "SFP");

  // 8 SFUs multiply f16 and f32 at 256 MACs per cycle: 2 x 294912 +
  // 27720 + 256 + 11336 + 4608.
  device::RooflineBound sample = bound(demand, "sample_device", "DDR");
  EXPECT_DOUBLE_EQ(sample.compute.cycles, 633744);
  EXPECT_EQ(sample.compute.bottleneck, "SFU");
}

} // namespace
