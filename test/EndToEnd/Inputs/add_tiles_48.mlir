// A 16x1024 f16 add tile at each of 48 grid points: more points than
// spyre_like's 32 cores, fewer than its 64 lanes (uneven-memory-shares.test).
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 767 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#tset = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add(%a: index, %b: index, %c: index) attributes {grid = [48]} {
    %id = ktdp.get_compute_tile_id : index
    %c3 = arith.constant 16 : index
    %row = arith.muli %id, %c3 : index
    %A = ktdp.construct_memory_view %a, sizes: [768, 1024], strides: [1024, 1] {coordinate_set = #set, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<768x1024xf16>
    %B = ktdp.construct_memory_view %b, sizes: [768, 1024], strides: [1024, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<768x1024xf16>
    %C = ktdp.construct_memory_view %c, sizes: [768, 1024], strides: [1024, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<768x1024xf16>
    %ta = ktdp.construct_access_tile %A[%row, 0] {access_tile_set = #tset, access_tile_order = #map} : memref<768x1024xf16> -> !ktdp.access_tile<16x1024xindex>
    %tb = ktdp.construct_access_tile %B[%row, 0] {access_tile_set = #tset, access_tile_order = #map} : memref<768x1024xf16> -> !ktdp.access_tile<16x1024xindex>
    %tc = ktdp.construct_access_tile %C[%row, 0] {access_tile_set = #tset, access_tile_order = #map} : memref<768x1024xf16> -> !ktdp.access_tile<16x1024xindex>
    %x = ktdp.load %ta : !ktdp.access_tile<16x1024xindex> -> tensor<16x1024xf16>
    %y = ktdp.load %tb : <16x1024xindex> -> tensor<16x1024xf16>
    %e = tensor.empty() : tensor<16x1024xf16>
    %z = linalg.add ins(%x, %y : tensor<16x1024xf16>, tensor<16x1024xf16>) outs(%e : tensor<16x1024xf16>) -> tensor<16x1024xf16>
    ktdp.store %z, %tc : tensor<16x1024xf16>, !ktdp.access_tile<16x1024xindex>
    return
  }
}
