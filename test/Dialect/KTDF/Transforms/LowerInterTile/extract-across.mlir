// RUN: ktflow-opt %s --ktdf-lower-inter-tile | FileCheck %s

// Two exchanges in a row loop (a softmax cut into 4 column parts): the
// maximum, extracted from the first exchange's result before the second,
// is read again by the normalisation after the second. The scalar is
// computed again after the second exchange, from the first exchange view
// loaded again, as the row is: ktdf-generalize folds its broadcast into
// the compute groups, which must each lie on one side of an exchange.

// CHECK-LABEL: func.func @two_exchanges
// CHECK: scf.for
// CHECK: ktdf.all_reduce %{{.*}} {combiner = "arith.maxnumf"
// CHECK: %[[M1:.*]] = ktdp.load %[[MAXV:.*]] : <1xindex> -> tensor<1xf16>
// CHECK: tensor.extract %[[M1]]
// CHECK: ktdf.all_reduce %{{.*}} {combiner = "arith.addf"
// CHECK: ktdp.load %{{.*}} : <1xindex> -> tensor<1xf32>
// CHECK-DAG: %[[M2:.*]] = ktdp.load %[[MAXV]] : <1xindex> -> tensor<1xf16>
// CHECK-DAG: %[[X2:.*]] = ktdp.load %{{.*}} : <1x256xindex> -> tensor<1x256xf16>
// CHECK: %[[S2:.*]] = tensor.extract %[[M2]]
// CHECK: tensor.splat %[[S2]] : tensor<1x256xf16>
// CHECK: ktdp.store
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#grp = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#to_row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @two_exchanges(%x_ptr: index, %y_ptr: index, %n_rows: index) attributes {grid = [4]} {
    %p = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %col = arith.muli %p, %c256 : index
    %ninf = arith.constant 0xFC00 : f16
    %zero = arith.constant 0.0 : f32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [2, 1024], strides: [1024, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<2x1024xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [2, 1024], strides: [1024, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<2x1024xf16>
    %max_init = tensor.splat %ninf : tensor<1xf16>
    %sum_init = tensor.splat %zero : tensor<1xf32>
    scf.for %r = %c0 to %n_rows step %c1 : index {
      %tx = ktdp.construct_access_tile %X[%r, %col] {access_tile_set = #row, access_tile_order = #id2} : memref<2x1024xf16> -> !ktdp.access_tile<1x256xindex>
      %x = ktdp.load %tx : <1x256xindex> -> tensor<1x256xf16>
      %maxp = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x256xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
      %f1 = ktdp.inter_tile_produce producer_tiles_per_group = #grp -> <(tensor<1xf16>), groups = affine_set<(g) : (g == 0)>> {
      ^bb0(%gid: index):
        ktdp.yield_partial %maxp : tensor<1xf16>
      }
      %max = ktdp.inter_tile_reduce(%f1) consumer_tiles_per_group = #grp, identity(%max_init : tensor<1xf16>) : <(tensor<1xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1xf16> {
      ^bb0(%lhs: tensor<1xf16>, %rhs: tensor<1xf16>):
        %s = arith.maxnumf %lhs, %rhs : tensor<1xf16>
        ktdp.yield_reduced %s : tensor<1xf16>
      }
      %m = tensor.extract %max[%c0] : tensor<1xf16>
      %mb = tensor.splat %m : tensor<1x256xf16>
      %shifted = arith.subf %x, %mb : tensor<1x256xf16>
      %e = math.exp %shifted : tensor<1x256xf16>
      %sump = linalg.generic {indexing_maps = [#id2, #to_row], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<1x256xf16>) outs(%sum_init : tensor<1xf32>) {
      ^bb0(%in: f16, %acc: f32):
        %w = arith.extf %in : f16 to f32
        %a = arith.addf %w, %acc : f32
        linalg.yield %a : f32
      } -> tensor<1xf32>
      %f2 = ktdp.inter_tile_produce producer_tiles_per_group = #grp -> <(tensor<1xf32>), groups = affine_set<(g) : (g == 0)>> {
      ^bb0(%gid: index):
        ktdp.yield_partial %sump : tensor<1xf32>
      }
      %sum = ktdp.inter_tile_reduce(%f2) consumer_tiles_per_group = #grp, identity(%sum_init : tensor<1xf32>) : <(tensor<1xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<1xf32> {
      ^bb0(%lhs: tensor<1xf32>, %rhs: tensor<1xf32>):
        %s = arith.addf %lhs, %rhs : tensor<1xf32>
        ktdp.yield_reduced %s : tensor<1xf32>
      }
      %s = tensor.extract %sum[%c0] : tensor<1xf32>
      %sb = tensor.splat %s : tensor<1x256xf32>
      %ew = arith.extf %e : tensor<1x256xf16> to tensor<1x256xf32>
      %q = arith.divf %ew, %sb : tensor<1x256xf32>
      %y = arith.truncf %q : tensor<1x256xf32> to tensor<1x256xf16>
      %ty = ktdp.construct_access_tile %Y[%r, %col] {access_tile_set = #row, access_tile_order = #id2} : memref<2x1024xf16> -> !ktdp.access_tile<1x256xindex>
      ktdp.store %y, %ty : tensor<1x256xf16>, <1x256xindex>
      scf.yield
    }
    return
  }
}
