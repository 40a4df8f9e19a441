// RUN: ktflow-opt %s --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams --ktdf-order-grid --ktdf-distribute --ktdf-buffer --ktdf-allocate-scratchpad --ktdf-schedule-all-reduce -verify-diagnostics

// One all-reduce over all eight tiles of a [2, 4] grid on sample_device's
// four cores: in every order two of them share a core, so the parallel
// keeps its order and the refusal names the kernel's tiles.

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(i)[g] : (i >= 0, -i + 7 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @all_eight(%x_ptr: index, %y_ptr: index) attributes {grid = [2, 4]} {
  %px, %py = ktdp.get_compute_tile_id : index, index
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %col = arith.muli %px, %c64 : index
  %row = arith.muli %py, %c2 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [8, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #row, access_tile_order = #id2} : memref<8x128xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %Y[%row, %col] {access_tile_set = #row, access_tile_order = #id2} : memref<8x128xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  // expected-error @+1 {{tiles 0 and 1 of a group run on core 0; the ring sends between the scratchpads of different cores}}
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all, identity(%zero : tensor<1x64xf16>)
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %r = arith.addf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %r : tensor<1x64xf16>
  }
  ktdp.store %s, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}

