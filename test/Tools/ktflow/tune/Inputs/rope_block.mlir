// One 256-position block of bench/kernels/rope_163840x128.mlir for two
// heads, on one tile: the same 256x64 f16 halves per buffer, so buffered
// four deep they need more than mesh_device's 512 KiB SPM, but it
// simulates in moments.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#cs_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rope_block(%x_ptr: index, %cos_ptr: index, %sin_ptr: index,
                        %out_ptr: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c256 = arith.constant 256 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [512, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<512x128xf16>
    %COS = ktdp.construct_memory_view %cos_ptr, sizes: [256, 64], strides: [64, 1] {coordinate_set = #cs_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %SIN = ktdp.construct_memory_view %sin_ptr, sizes: [256, 64], strides: [64, 1] {coordinate_set = #cs_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [512, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<512x128xf16>
    %tcos = ktdp.construct_access_tile %COS[%c0, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<256x64xindex>
    %tsin = ktdp.construct_access_tile %SIN[%c0, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<256x64xindex>
    %cos = ktdp.load %tcos : <256x64xindex> -> tensor<256x64xf16>
    %sin = ktdp.load %tsin : <256x64xindex> -> tensor<256x64xf16>
    scf.for %h = %c0 to %c2 step %c1 : index {
      %row = arith.muli %h, %c256 : index
      %t1 = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<512x128xf16> -> !ktdp.access_tile<256x64xindex>
      %t2 = ktdp.construct_access_tile %X[%row, 64] {access_tile_set = #half, access_tile_order = #id2} : memref<512x128xf16> -> !ktdp.access_tile<256x64xindex>
      %x1 = ktdp.load %t1 : <256x64xindex> -> tensor<256x64xf16>
      %x2 = ktdp.load %t2 : <256x64xindex> -> tensor<256x64xf16>
      %x1c = arith.mulf %x1, %cos : tensor<256x64xf16>
      %x2s = arith.mulf %x2, %sin : tensor<256x64xf16>
      %o1 = arith.subf %x1c, %x2s : tensor<256x64xf16>
      %x2c = arith.mulf %x2, %cos : tensor<256x64xf16>
      %x1s = arith.mulf %x1, %sin : tensor<256x64xf16>
      %o2 = arith.addf %x2c, %x1s : tensor<256x64xf16>
      %u1 = ktdp.construct_access_tile %OUT[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<512x128xf16> -> !ktdp.access_tile<256x64xindex>
      %u2 = ktdp.construct_access_tile %OUT[%row, 64] {access_tile_set = #half, access_tile_order = #id2} : memref<512x128xf16> -> !ktdp.access_tile<256x64xindex>
      ktdp.store %o1, %u1 : tensor<256x64xf16>, <256x64xindex>
      ktdp.store %o2, %u2 : tensor<256x64xf16>, <256x64xindex>
      scf.yield
    }
    return
  }
}
