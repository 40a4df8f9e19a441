// loop_triangular.mlir - a row loop dealt over a [4, 1] grid whose inner
// loop runs i + 1 trips (triangular), carrying a row: Y[i] = f16 running sum
// of X[0..i] for i < min(n, 32). Y keeps its contents past min(n, 32).
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @loop_triangular(%x_ptr: index, %y_ptr: index, %n_i: i32) attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %n0 = arith.index_cast %n_i : i32 to index
    %n = arith.minsi %n0, %c32 : index
    %zeros = arith.constant dense<0.0> : tensor<1x64xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    scf.for %i = %pid to %n step %c4 : index {
      %ip1 = arith.addi %i, %c1 : index
      %acc = scf.for %j = %c0 to %ip1 step %c1 iter_args(%a = %zeros) -> tensor<1x64xf16> {
        %tx = ktdp.construct_access_tile %X[%j, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
        %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
        %a2 = arith.addf %a, %x : tensor<1x64xf16>
        scf.yield %a2 : tensor<1x64xf16>
      }
      %ty = ktdp.construct_access_tile %Y[%i, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %acc, %ty : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
