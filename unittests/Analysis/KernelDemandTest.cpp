//===- KernelDemandTest.cpp - What a KTIR kernel must do ------------------===//
//
// Tests ktflow/Analysis/KernelDemand.h on small kernels, one rule at a
// time: which ops count and at which class and type, per element produced
// or folded; grid points, loops and branches followed with the scalar
// arguments given; the bytes the launch touches; the smallest tiles and the
// chain.
//
//===----------------------------------------------------------------------===//

#include "DemandTestSupport.h"

using namespace ktflow;
using mlir::ktdf_arch::OpClass;

namespace {

class KernelDemandTest : public analysis_testing::DemandTest {};

TEST_F(KernelDemandTest, ElementwiseOpsCountPerElementProduced) {
  device::KernelDemand demand = countText(R"mlir(
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%x: index, %y: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %row = arith.muli %id, %c2 : index
  %X = ktdp.construct_memory_view %x, sizes: [4, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [4, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #tile, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #tile, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  %h = ktdp.load %tx : <2x64xindex> -> tensor<2x64xf16>
  %f = arith.extf %h : tensor<2x64xf16> to tensor<2x64xf32>
  %m = arith.mulf %f, %f : tensor<2x64xf32>
  %e = math.exp %m : tensor<2x64xf32>
  %d = arith.divf %e, %m : tensor<2x64xf32>
  %c = arith.cmpf ogt, %d, %m : tensor<2x64xf32>
  %s = arith.select %c, %d, %m : tensor<2x64xi1>, tensor<2x64xf32>
  %t = arith.truncf %s : tensor<2x64xf32> to tensor<2x64xf16>
  ktdp.store %t, %ty : tensor<2x64xf16>, <2x64xindex>
  return
}
)mlir");
  EXPECT_TRUE(demand.gaps.empty());
  // extf, mulf, cmpf (at its operands' type) and select produce 128 f32
  // each per tile; 2 tiles. The index muli is not the kernel's arithmetic.
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f32()), 4 * 128.0 * 2);
  // exp and divf.
  EXPECT_EQ(operations(demand, OpClass::Transcendental, f32()), 2 * 128.0 * 2);
  // truncf, at its f16 result.
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f16()), 128.0 * 2);
  EXPECT_EQ(demand.operations.size(), 3u);
  EXPECT_EQ(demand.bytesRead, 4u * 64 * 2);
  EXPECT_EQ(demand.bytesWritten, 4u * 64 * 2);
  EXPECT_EQ(demand.smallestLoad, 256u);
  EXPECT_EQ(demand.smallestStore, 256u);
  // extf, mulf, exp, divf, cmpf, select, truncf.
  EXPECT_EQ(demand.chain, 7u);
}

TEST_F(KernelDemandTest, ReductionsAtTheFoldedTypeAndMatmulPerMac) {
  device::KernelDemand demand = countText(R"mlir(
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#aset = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#bset = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 1 >= 0)>
#cset = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 1 >= 0)>
#vset = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @k(%x: index, %a: index, %b: index, %r: index, %w: index, %c: index) attributes {grid = [1]} {
  %X = ktdp.construct_memory_view %x, sizes: [4, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %A = ktdp.construct_memory_view %a, sizes: [4, 8], strides: [8, 1] {coordinate_set = #aset, memory_space = #ktdp.memory_space<global>} : memref<4x8xf16>
  %B = ktdp.construct_memory_view %b, sizes: [8, 2], strides: [2, 1] {coordinate_set = #bset, memory_space = #ktdp.memory_space<global>} : memref<8x2xf16>
  %R = ktdp.construct_memory_view %r, sizes: [4], strides: [1] {coordinate_set = #vset, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %W = ktdp.construct_memory_view %w, sizes: [4], strides: [1] {coordinate_set = #vset, memory_space = #ktdp.memory_space<global>} : memref<4xf32>
  %C = ktdp.construct_memory_view %c, sizes: [4, 2], strides: [2, 1] {coordinate_set = #cset, memory_space = #ktdp.memory_space<global>} : memref<4x2xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #set, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %ta = ktdp.construct_access_tile %A[0, 0] {access_tile_set = #aset, access_tile_order = #id2} : memref<4x8xf16> -> !ktdp.access_tile<4x8xindex>
  %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #bset, access_tile_order = #id2} : memref<8x2xf16> -> !ktdp.access_tile<8x2xindex>
  %tr = ktdp.construct_access_tile %R[0] {access_tile_set = #vset, access_tile_order = #id1} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %tw = ktdp.construct_access_tile %W[0] {access_tile_set = #vset, access_tile_order = #id1} : memref<4xf32> -> !ktdp.access_tile<4xindex>
  %tc = ktdp.construct_access_tile %C[0, 0] {access_tile_set = #cset, access_tile_order = #id2} : memref<4x2xf16> -> !ktdp.access_tile<4x2xindex>
  %xv = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
  %av = ktdp.load %ta : <4x8xindex> -> tensor<4x8xf16>
  %bv = ktdp.load %tb : <8x2xindex> -> tensor<8x2xf16>
  %zero16 = arith.constant 0.0 : f16
  %zero32 = arith.constant 0.0 : f32
  %e16 = tensor.empty() : tensor<4xf16>
  %i16 = linalg.fill ins(%zero16 : f16) outs(%e16 : tensor<4xf16>) -> tensor<4xf16>
  %sum16 = linalg.reduce { arith.addf } ins(%xv : tensor<4x64xf16>) outs(%i16 : tensor<4xf16>) dimensions = [1]
  %e32 = tensor.empty() : tensor<4xf32>
  %i32 = linalg.fill ins(%zero32 : f32) outs(%e32 : tensor<4xf32>) -> tensor<4xf32>
  %sum32 = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xv : tensor<4x64xf16>) outs(%i32 : tensor<4xf32>) {
    ^bb0(%in: f16, %acc: f32):
      %wide = arith.extf %in : f16 to f32
      %s = arith.addf %wide, %acc : f32
      linalg.yield %s : f32
  } -> tensor<4xf32>
  %ec = tensor.empty() : tensor<4x2xf16>
  %prod = linalg.matmul ins(%av, %bv : tensor<4x8xf16>, tensor<8x2xf16>) outs(%ec : tensor<4x2xf16>) -> tensor<4x2xf16>
  ktdp.store %sum16, %tr : tensor<4xf16>, <4xindex>
  ktdp.store %sum32, %tw : tensor<4xf32>, <4xindex>
  ktdp.store %prod, %tc : tensor<4x2xf16>, <4x2xindex>
  return
}
)mlir");
  EXPECT_TRUE(demand.gaps.empty());
  // linalg.reduce on f16 with an f16 output: 256 f16 folded (the unit's
  // wider accumulator is its own).
  EXPECT_EQ(operations(demand, OpClass::Reduction, f16()), 256.0);
  // The generic widens each input (256 f32 produced) and folds the wide
  // value (256 f32 folded).
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f32()), 256.0);
  EXPECT_EQ(operations(demand, OpClass::Reduction, f32()), 256.0);
  // 4x8 . 8x2: 4 x 2 x 8 multiply-accumulates; fills compute nothing.
  EXPECT_EQ(operations(demand, OpClass::Matrix, f16()), 64.0);
  EXPECT_EQ(demand.operations.size(), 4u);
  // X, A, B read; R, W, C written.
  EXPECT_EQ(demand.bytesRead, 512u + 64u + 32u);
  EXPECT_EQ(demand.bytesWritten, 8u + 16u + 16u);
  EXPECT_EQ(demand.smallestLoad, 32u);
  EXPECT_EQ(demand.smallestStore, 8u);
  // extf then the fold: the generic's chain.
  EXPECT_EQ(demand.chain, 2u);
}

static const char *kControlFlow = R"mlir(
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%x: index, %n: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %X = ktdp.construct_memory_view %x, sizes: [16, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf32>
  scf.for %r = %id to %n step %c4 {
    %t = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf32> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf32>
    %w = arith.negf %v : tensor<1x64xf32>
    ktdp.store %w, %t : tensor<1x64xf32>, <1x64xindex>
  }
  %first = arith.cmpi eq, %id, %c0 : index
  scf.if %first {
    %t = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf32> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf32>
    %w = arith.mulf %v, %v : tensor<1x64xf32>
    ktdp.store %w, %t : tensor<1x64xf32>, <1x64xindex>
  }
  %k = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %c1) -> (index) {
    %next = arith.muli %acc, %c2 : index
    scf.yield %next : index
  }
  scf.for %j = %c0 to %k step %c1 {
    %t = ktdp.construct_access_tile %X[%j, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf32> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf32>
    %w = arith.addf %v, %v : tensor<1x64xf32>
    ktdp.store %w, %t : tensor<1x64xf32>, <1x64xindex>
  }
  return
}
)mlir";

TEST_F(KernelDemandTest, LoopsAndBranchesFollowTheirValues) {
  device::KernelDemand demand = countText(kControlFlow, {{1, 16}});
  EXPECT_TRUE(demand.gaps.empty());
  // Rows id, id + 4, ... < 16: 4 per tile, 64 negf each (4 x 4 x 64);
  // the branch on tile 0 only (64); the last loop runs to the carried
  // 1 * 2 * 2 * 2 = 8 on every tile (4 x 8 x 64).
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f32()),
            4 * 4 * 64.0 + 64 + 4 * 8 * 64);
  // X is loaded and stored: read once and written once.
  EXPECT_EQ(demand.bytesRead, 16u * 64 * 4);
  EXPECT_EQ(demand.bytesWritten, 16u * 64 * 4);
}

TEST_F(KernelDemandTest, UnknownLoopBoundsAreAGap) {
  // Without %n the first loop cannot be followed: it is left out, and
  // said so.
  device::KernelDemand demand = countText(kControlFlow);
  ASSERT_EQ(demand.gaps.size(), 1u);
  EXPECT_NE(demand.gaps.front().find("loops whose bounds are not known"),
            std::string::npos);
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f32()), 64 + 4 * 8 * 64.0);
}

TEST_F(KernelDemandTest, UnsignedLoopsAndMinimaCompareUnsigned) {
  // From %lo = -2 to 3 an unsigned loop runs no trip (-2 is 2^64 - 2),
  // as the interpreter runs it; a signed one would run five. minui(-2, 3)
  // is 3, not -2: three trips; (-2) divui 2 depends on the width: a gap.
  device::KernelDemand demand = countText(R"mlir(
#set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%x: index, %lo: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %X = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<1x64xf32>
  %t = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #set, access_tile_order = #id2} : memref<1x64xf32> -> !ktdp.access_tile<1x64xindex>
  scf.for unsigned %i = %lo to %c3 step %c1 {
    %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf32>
    %w = arith.negf %v : tensor<1x64xf32>
    ktdp.store %w, %t : tensor<1x64xf32>, <1x64xindex>
  }
  scf.for %i = %lo to %c3 step %c1 {
    %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf32>
    %w = arith.addf %v, %v : tensor<1x64xf32>
    ktdp.store %w, %t : tensor<1x64xf32>, <1x64xindex>
  }
  %n = arith.minui %lo, %c3 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf32>
    %w = arith.mulf %v, %v : tensor<1x64xf32>
    ktdp.store %w, %t : tensor<1x64xf32>, <1x64xindex>
  }
  %h = arith.divui %lo, %c2 : index
  scf.for %i = %c0 to %h step %c1 {
    %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf32>
    %w = arith.subf %v, %v : tensor<1x64xf32>
    ktdp.store %w, %t : tensor<1x64xf32>, <1x64xindex>
  }
  return
}
)mlir",
                                          {{1, -2}});
  ASSERT_EQ(demand.gaps.size(), 1u);
  // The signed loop's five addf of 64 and the minui loop's three mulf.
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f32()), (5 + 3) * 64.0);
}

TEST_F(KernelDemandTest, TensorsAtComputedAndLiteralAddresses) {
  device::KernelDemand demand = countText(R"mlir(
#v64 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#v1k = affine_set<(d0) : (d0 >= 0, -d0 + 999 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @k(%a: index, %s: index, %unused: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %off = arith.muli %id, %c64 : index
  %base = arith.addi %a, %off : index
  %A = ktdp.construct_memory_view %base, sizes: [64], strides: [1] {coordinate_set = #v64, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %L = ktdp.construct_memory_view %c4096, sizes: [64], strides: [1] {coordinate_set = #v64, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
  %S = ktdp.construct_memory_view %s, sizes: [64], strides: [1] {coordinate_set = #v64, memory_space = #ktdp.memory_space<ct_local>} : memref<64xf32>
  %U = ktdp.construct_memory_view %unused, sizes: [1000], strides: [1] {coordinate_set = #v1k, memory_space = #ktdp.memory_space<global>} : memref<1000xf16>
  %ta = ktdp.construct_access_tile %A[0] {access_tile_set = #v64, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %tl = ktdp.construct_access_tile %L[0] {access_tile_set = #v64, access_tile_order = #id1} : memref<64xf32> -> !ktdp.access_tile<64xindex>
  %ts = ktdp.construct_access_tile %S[0] {access_tile_set = #v64, access_tile_order = #id1} : memref<64xf32> -> !ktdp.access_tile<64xindex>
  %v = ktdp.load %ta : <64xindex> -> tensor<64xf16>
  %w = arith.extf %v : tensor<64xf16> to tensor<64xf32>
  ktdp.store %w, %tl : tensor<64xf32>, <64xindex>
  ktdp.store %w, %ts : tensor<64xf32>, <64xindex>
  return
}
)mlir");
  EXPECT_TRUE(demand.gaps.empty());
  // A's views start at %a and %a + 64: 128 f16. The literal-address
  // tensor: 64 f32. The scratchpad view and the unused tensor move
  // nothing to or from device memory.
  EXPECT_EQ(demand.bytesRead, 128u * 2);
  EXPECT_EQ(demand.bytesWritten, 64u * 4);
  EXPECT_EQ(demand.smallestLoad, 128u);
  EXPECT_EQ(demand.smallestStore, 256u);
}

TEST_F(KernelDemandTest, BytesAreWhatTheLaunchTouchesOnce) {
  // The views declare 16 rows; the loop runs over the first %n. Both grid
  // points also read row 0 on every iteration.
  device::KernelDemand demand = countText(R"mlir(
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%x: index, %y: index, %n: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %X = ktdp.construct_memory_view %x, sizes: [16, 64], strides: [64, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<16x64xf32>
  %Y = ktdp.construct_memory_view %y, sizes: [16, 64], strides: [64, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<16x64xf32>
  scf.for %r = %id to %n step %c2 {
    %t0 = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf32> -> !ktdp.access_tile<1x64xindex>
    %b = ktdp.load %t0 : <1x64xindex> -> tensor<1x64xf32>
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf32> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf32>
    %s = arith.addf %v, %b : tensor<1x64xf32>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf32> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %s, %ty : tensor<1x64xf32>, <1x64xindex>
  }
  return
}
)mlir",
                                          {{2, 5}});
  EXPECT_TRUE(demand.gaps.empty());
  // Rows 0..4 of X read (row 0 once, however often), rows 0..4 of Y
  // written: 5 x 64 x 4 bytes each, not the 16 rows the views declare.
  EXPECT_EQ(demand.bytesRead, 5u * 64 * 4);
  EXPECT_EQ(demand.bytesWritten, 5u * 64 * 4);
}

TEST_F(KernelDemandTest, MasksAndCoordinateSetsLimitTheBytes) {
  device::KernelDemand demand = countText(R"mlir(
#ten = affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#masked = affine_set<(d0, d1)[s0] : (d0 == 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#col = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%a: index, %b: index, %c: index, %m: index) attributes {grid = [1]} {
  %A = ktdp.construct_memory_view %a, sizes: [16, 64], strides: [64, 1] {coordinate_set = #ten, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %ta = ktdp.construct_access_tile %A[8, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<4x64xindex>
  %va = ktdp.load %ta : <4x64xindex> -> tensor<4x64xf16>
  %B = ktdp.construct_memory_view %b, sizes: [16, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %tb = ktdp.construct_access_tile %B[2, 0] symbols(%m) {access_tile_set = #masked, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
  %vb = ktdp.load %tb : <1x64xindex> -> tensor<1x64xf16>
  %C = ktdp.construct_memory_view %c, sizes: [16, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %tc = ktdp.construct_access_tile %C[0, 3] {access_tile_set = #col, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<16x1xindex>
  %vc = ktdp.load %tc : <16x1xindex> -> tensor<16x1xf16>
  %wc = arith.negf %vc : tensor<16x1xf16>
  ktdp.store %wc, %tc : tensor<16x1xf16>, <16x1xindex>
  return
}
)mlir",
                                          {{3, 40}});
  EXPECT_TRUE(demand.gaps.empty());
  // A: the 4-row tile at row 8 reaches rows 8 and 9 of the view's ten
  // (2 x 64 f16); B: the mask keeps 40 of the row's 64 (40 f16); C: one
  // column, 16 elements 64 apart, read and written (16 f16 each).
  EXPECT_EQ(demand.bytesRead, 2u * 64 * 2 + 40 * 2 + 16 * 2);
  EXPECT_EQ(demand.bytesWritten, 16u * 2);
  EXPECT_EQ(demand.smallestLoad, 32u);
}

TEST_F(KernelDemandTest, IndirectTilesReadTheirIndicesAndGatherAGap) {
  device::KernelDemand demand = countText(R"mlir(
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#idx = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%x: index, %i: index) attributes {grid = [1]} {
  %X = ktdp.construct_memory_view %x, sizes: [100, 8], strides: [8, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<100x8xf16>
  %Idx = ktdp.construct_memory_view %i, sizes: [16], strides: [1] {coordinate_set = #idx, memory_space = #ktdp.memory_space<global>} : memref<16xi32>
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%b, %h) %X[ind(%Idx[%b + 2]), (%h)] {variables_space_set = #space, variables_space_order = #id2} : memref<100x8xf16>, memref<16xi32> -> !ktdp.access_tile<4x8xindex>
  %v = ktdp.load %t : <4x8xindex> -> tensor<4x8xf16>
  return
}
)mlir");
  // Idx[2..5] is read: 4 i32. Which rows of X the gather reads depends on
  // their values: left out, and said so.
  EXPECT_EQ(demand.bytesRead, 4u * 4);
  ASSERT_EQ(demand.gaps.size(), 1u);
  EXPECT_NE(demand.gaps.front().find("indirect access tiles"),
            std::string::npos);
}

TEST_F(KernelDemandTest, IndirectTilesGatherTheRowsTheIndexValuesSelect) {
  // Two tiles gather 4 rows of 8 f16 each through Idx[2..5] and Idx[4..7]
  // (argument 1): rows 7, 7, 50, 120 and 50, 120, 3, 99. Row 120 lies
  // outside X's 100 rows (the run stops there: nothing read); the rows
  // read are 3, 7, 50 and 99, each once: 4 x 8 f16 = 64 bytes, plus the
  // eight i32 of Idx read (32 bytes: the scatter reads Idx[0..1]). The
  // scatter (both tiles) writes rows Idx[0] = 3 and Idx[1] = 99 of Y:
  // 2 x 8 f16 = 32 bytes.
  const char *source = R"mlir(
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#idx = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#two = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%x: index, %i: index, %y: index) attributes {grid = [2]} {
  %g = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x, sizes: [100, 8], strides: [8, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<100x8xf16>
  %Idx = ktdp.construct_memory_view %i, sizes: [16], strides: [1] {coordinate_set = #idx, memory_space = #ktdp.memory_space<global>} : memref<16xi32>
  %Y = ktdp.construct_memory_view %y, sizes: [100, 8], strides: [8, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<100x8xf16>
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%b, %h) %X[ind(%Idx[%g * 2 + %b + 2]), (%h)] {variables_space_set = #space, variables_space_order = #id2} : memref<100x8xf16>, memref<16xi32> -> !ktdp.access_tile<4x8xindex>
  %v = ktdp.load %t : <4x8xindex> -> tensor<4x8xf16>
  %s = ktdp.construct_indirect_access_tile intermediate_variables(%b, %h) %Y[ind(%Idx[%b]), (%h)] {variables_space_set = #two, variables_space_order = #id2} : memref<100x8xf16>, memref<16xi32> -> !ktdp.access_tile<2x8xindex>
  %w = tensor.extract_slice %v[0, 0] [2, 8] [1, 1] : tensor<4x8xf16> to tensor<2x8xf16>
  ktdp.store %w, %s : tensor<2x8xf16>, <2x8xindex>
  return
}
)mlir";
  const int64_t idx[] = {3, 99, 7, 7, 50, 120, 3, 99};
  IndexValues values = [&](TensorLocation tensor,
                           int64_t element) -> std::optional<int64_t> {
    if (tensor.literal || tensor.position != 1 || element < 0 || element >= 8)
      return std::nullopt;
    return idx[element];
  };
  device::KernelDemand demand = countText(source, ScalarArgs(), values);
  EXPECT_EQ(demand.bytesRead, 4u * 8 * 2 + 8 * 4);
  EXPECT_EQ(demand.smallestLoad, 4u * 8 * 2);
  EXPECT_EQ(demand.bytesWritten, 2u * 8 * 2);
  EXPECT_TRUE(demand.gaps.empty());

  // Index values not known (Idx[6..7] here): the rows they select are a
  // gap, the rest still counted.
  IndexValues partial = [&](TensorLocation tensor,
                            int64_t element) -> std::optional<int64_t> {
    if (tensor.literal || tensor.position != 1 || element < 0 || element >= 6)
      return std::nullopt;
    return idx[element];
  };
  demand = countText(source, ScalarArgs(), partial);
  ASSERT_EQ(demand.gaps.size(), 1u);
  EXPECT_NE(demand.gaps.front().find("indirect access tiles"),
            std::string::npos);
}

TEST_F(KernelDemandTest, RegionsItDoesNotFollowAreGaps) {
  // The count follows scf.for, scf.if and linalg bodies; the work inside
  // any other region is left out and named.
  device::KernelDemand demand = countText(R"mlir(
func.func @k(%a: f32) attributes {grid = [2]} {
  %r = scf.execute_region -> f32 {
    %s = arith.addf %a, %a : f32
    scf.yield %s : f32
  }
  %w = arith.mulf %r, %r : f32
  return
}
)mlir");
  ASSERT_EQ(demand.gaps.size(), 1u);
  EXPECT_EQ(demand.gaps.front(),
            "operations inside scf.execute_region regions");
  // The mulf outside, once per tile.
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f32()), 2.0);
}

} // namespace
