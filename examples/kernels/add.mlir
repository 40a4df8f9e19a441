#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tset = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add(%a: index, %b: index, %c: index) attributes {grid = [32]} {
    %id = ktdp.get_compute_tile_id : index
    %c3 = arith.constant 3 : index
    %row = arith.muli %id, %c3 : index
    %A = ktdp.construct_memory_view %a, sizes: [96, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<96x64xf16>
    %B = ktdp.construct_memory_view %b, sizes: [96, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %C = ktdp.construct_memory_view %c, sizes: [96, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %ta = ktdp.construct_access_tile %A[%row, 0] {access_tile_set = #tset, access_tile_order = #map} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %tb = ktdp.construct_access_tile %B[%row, 0] {access_tile_set = #tset, access_tile_order = #map} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %tc = ktdp.construct_access_tile %C[%row, 0] {access_tile_set = #tset, access_tile_order = #map} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %x = ktdp.load %ta : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
    %y = ktdp.load %tb : <3x64xindex> -> tensor<3x64xf16>
    %e = tensor.empty() : tensor<3x64xf16>
    %z = linalg.add ins(%x, %y : tensor<3x64xf16>, tensor<3x64xf16>) outs(%e : tensor<3x64xf16>) -> tensor<3x64xf16>
    ktdp.store %z, %tc : tensor<3x64xf16>, !ktdp.access_tile<3x64xindex>
    return
  }
}
