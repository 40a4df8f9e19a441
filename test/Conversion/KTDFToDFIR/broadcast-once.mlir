// RUN: ktflow-opt %s --ktdf-compile | FileCheck %s

// A row value read by every chunk of a later pass (softmax's maximum in the
// exp-and-sum pass, and the sum in the normalising pass) is broadcast to
// the chunk once, right after the pass that computes it, not in every
// chunk: the chunks only receive, map and send. (The exp has two users,
// the sum and the division: ktdf-generalize keeps it one op, and
// ktdf-tile-streams holds its two chunks of 128 in the SFP, so those two
// passes are unrolled and the normalising pass divides the held chunks.)

// CHECK-LABEL: dfir.unit "core[0]/corelet[0]/SFP"
// CHECK: %[[MAX:[0-9]+]] = scf.for {{.*}} -> (vector<1xf16>)
// CHECK: dfir.reduce max
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[BMAX:.*]] = dfir.broadcast %[[MAX]] : vector<1xf16> -> vector<128xf16>
// CHECK-NOT: dfir.broadcast
// CHECK: %[[E0:.*]] = dfir.map %{{.*}}, %[[BMAX]]
// CHECK-NOT: dfir.broadcast
// CHECK: %[[E1:.*]] = dfir.map %{{.*}}, %[[BMAX]]
// CHECK: dfir.reduce add %[[E1]]
// CHECK: %[[SUM:.*]] = dfir.map {{.*}} accumulator 1
// CHECK: %[[BSUM:.*]] = dfir.broadcast %[[SUM]] : vector<1xf16> -> vector<128xf16>
// CHECK-NEXT: dfir.map %[[E0]], %[[BSUM]]
// CHECK-NOT: dfir.broadcast
// CHECK: dfir.map %[[E1]], %[[BSUM]]

ktdf_arch.target @spyre_like from "../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @softmax_rows(%x: index, %y: index) attributes {grid = [64]} {
  %r = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0x0000 : f16
  %X = ktdp.construct_memory_view %x, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
  %v = ktdp.load %tx : <1x256xindex> -> tensor<1x256xf16>
  %max_init = tensor.splat %ninf : tensor<1xf16>
  %max = linalg.reduce { arith.maxnumf } ins(%v : tensor<1x256xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
  %m = tensor.extract %max[%c0] : tensor<1xf16>
  %mb = tensor.splat %m : tensor<1x256xf16>
  %shifted = arith.subf %v, %mb : tensor<1x256xf16>
  %e = math.exp %shifted : tensor<1x256xf16>
  %sum_init = tensor.splat %zero : tensor<1xf16>
  %sum = linalg.reduce { arith.addf } ins(%e : tensor<1x256xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
  %s = tensor.extract %sum[%c0] : tensor<1xf16>
  %sb = tensor.splat %s : tensor<1x256xf16>
  %o = arith.divf %e, %sb : tensor<1x256xf16>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
  ktdp.store %o, %ty : tensor<1x256xf16>, <1x256xindex>
  return
}
