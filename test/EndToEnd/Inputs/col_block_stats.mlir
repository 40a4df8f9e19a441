// Triton's column-block reduction spelling, as the field guide writes it
// (section 3: `scf.for ... iter_args(%acc = %z) -> tensor<1xBxf16>`,
// element-wise bodies in `linalg.generic`): each row of X, 32x512 f16, is
// walked in four 1x128 blocks (the offset carried as Triton's pointer
// increment) and three running values are carried block by block in
// f16: their sum, maximum and minimum. After the loop, per row:
//   S[r, j] = f16 running sum of X[r, 128b + j]     (b = 0..3 in order)
//   R[r, j] = max_b X[r, 128b + j] - min_b X[r, 128b + j]
// Rows grid-strided over 16 programs.
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @col_block_stats(%x_ptr: index, %s_ptr: index, %r_ptr: index) attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c1 = arith.constant 1 : index
    %BLOCK_SIZE = arith.constant 128 : index
    %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
    %ninf = arith.constant dense<0xFC00> : tensor<1x128xf16>
    %pinf = arith.constant dense<0x7C00> : tensor<1x128xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [32, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x512xf16>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [32, 128], strides: [128, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
    %R = ktdp.construct_memory_view %r_ptr, sizes: [32, 128], strides: [128, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
    scf.for %row = %pid to %c32 step %c16 : index {
      %sum, %hi, %lo, %end = scf.for %i = %c0 to %c4 step %c1 iter_args(%s = %zeros, %m = %ninf, %n = %pinf, %off = %c0) -> (tensor<1x128xf16>, tensor<1x128xf16>, tensor<1x128xf16>, index) {
        %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x512xf16> -> !ktdp.access_tile<1x128xindex>
        %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
        %e = tensor.empty() : tensor<1x128xf16>
        %s2, %m2, %n2 = linalg.generic {indexing_maps = [#id2, #id2, #id2, #id2, #id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%s, %m, %n, %x : tensor<1x128xf16>, tensor<1x128xf16>, tensor<1x128xf16>, tensor<1x128xf16>) outs(%e, %e, %e : tensor<1x128xf16>, tensor<1x128xf16>, tensor<1x128xf16>) {
        ^bb0(%a: f16, %b: f16, %c: f16, %v: f16, %o1: f16, %o2: f16, %o3: f16):
          %add = arith.addf %a, %v : f16
          %max = arith.maximumf %b, %v : f16
          %min = arith.minimumf %c, %v : f16
          linalg.yield %add, %max, %min : f16, f16, f16
        } -> (tensor<1x128xf16>, tensor<1x128xf16>, tensor<1x128xf16>)
        %next = arith.addi %off, %BLOCK_SIZE : index
        scf.yield %s2, %m2, %n2, %next : tensor<1x128xf16>, tensor<1x128xf16>, tensor<1x128xf16>, index
      }
      %range = arith.subf %hi, %lo : tensor<1x128xf16>
      %ts = ktdp.construct_access_tile %S[%row, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x128xf16> -> !ktdp.access_tile<1x128xindex>
      %tr = ktdp.construct_access_tile %R[%row, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %sum, %ts : tensor<1x128xf16>, <1x128xindex>
      ktdp.store %range, %tr : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
