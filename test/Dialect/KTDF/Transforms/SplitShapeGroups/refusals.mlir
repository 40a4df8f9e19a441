// RUN: ktflow-opt %s --ktdf-import-target --ktdf-split-shape-groups -verify-diagnostics

// Each row minus its maximum over the sum of exp of its left half minus
// that maximum: the window's sum needs the row's maximum and the row's op
// needs the sum, so neither stage can run first; the error says so at the
// window's op, in the kernel's terms (it was the stream planner's "cannot
// be a whole tile" of the 1x64 window).
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#half = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
#first = affine_map<(d0, d1) -> (0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @window_row_cycle(%xp: index, %yp: index) attributes {grid = [1]} {
    %zero = arith.constant dense<0.0> : tensor<1xf16>
    %ninf = arith.constant dense<0xFC00> : tensor<1xf16>
    %X = ktdp.construct_memory_view %xp, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %yp, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %tl = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %l = ktdp.load %tl : <1x64xindex> -> tensor<1x64xf16>
    // expected-note @below {{the whole tile's value it uses}}
    %m = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<1x128xf16>) outs(%ninf : tensor<1xf16>) {
    ^bb0(%in: f16, %acc: f16):
      %a = arith.maximumf %in, %acc : f16
      linalg.yield %a : f16
    } -> tensor<1xf16>
    // expected-error @below {{this computes on a window of a loaded tile ('tensor<1x64xf16>') in the same computation as the whole tile ('tensor<1x128xf16>'): one compute stage works on tiles of one shape, and a window's computation becomes a stage of its own, run before or after the whole tile's, only when the row scalars between them (a reduction's result, one element) go one way, from the stage that ends first in the program; here each uses a result of the other}}
    %s = linalg.generic {indexing_maps = [#id2, #first, #rows], iterator_types = ["parallel", "reduction"]} ins(%l, %m : tensor<1x64xf16>, tensor<1xf16>) outs(%zero : tensor<1xf16>) {
    ^bb0(%in: f16, %mv: f16, %acc: f16):
      %d = arith.subf %in, %mv : f16
      %e = math.exp %d : f16
      %a = arith.addf %e, %acc : f16
      linalg.yield %a : f16
    } -> tensor<1xf16>
    %e2 = tensor.empty() : tensor<1x128xf16>
    %y = linalg.generic {indexing_maps = [#id2, #first, #first, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %m, %s : tensor<1x128xf16>, tensor<1xf16>, tensor<1xf16>) outs(%e2 : tensor<1x128xf16>) {
    ^bb0(%in: f16, %mv: f16, %sv: f16, %out: f16):
      %d = arith.subf %in, %mv : f16
      %q = arith.divf %d, %sv : f16
      linalg.yield %q : f16
    } -> tensor<1x128xf16>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    return
  }
}
