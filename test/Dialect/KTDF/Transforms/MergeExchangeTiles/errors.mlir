// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-lower-inter-tile --ktdf-merge-exchange-tiles -verify-diagnostics

// What cannot run several tiles per lane around an all-reduce is refused
// at the op, with the reason. 16 tiles on sample_device's 8 lanes, each.

// Groups of i mod 2: every run of consecutive tiles mixes the groups.
ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#odd_even = affine_set<(i)[g] : ((i - g) mod 2 == 0, i - g >= 0, -i + g + 14 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @interleaved(%x_ptr: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %tx = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #odd_even
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  // expected-error @+1 {{a lane runs several tiles (16 tiles on 8 lanes): no grid dimension splits into runs of at least 2 tiles, each inside one group (or with one source), that leave the runs that exchange on different cores}}
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #odd_even, identity(%zero : tensor<1x64xf16>)
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %t = arith.addf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %t : tensor<1x64xf16>
  }
  ktdp.store %s, %tx : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// Two all-reduces: the tiles are merged at one exchange.
ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(i)[g] : (i >= 0, -i + 15 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @twice(%x_ptr: index, %y_ptr: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
  %tx = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all, identity(%zero : tensor<1x64xf16>)
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %t = arith.addf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %t : tensor<1x64xf16>
  }
  %y = arith.mulf %s, %x : tensor<1x64xf16>
  %f2 = ktdp.inter_tile_produce producer_tiles_per_group = #all
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %y : tensor<1x64xf16>
  }
  // expected-error @+1 {{a lane runs several tiles (16 tiles on 8 lanes): they are merged at one inter-tile exchange, this kernel has 2}}
  %s2 = ktdp.inter_tile_reduce(%f2) consumer_tiles_per_group = #all, identity(%zero : tensor<1x64xf16>)
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %t = arith.addf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %t : tensor<1x64xf16>
  }
  ktdp.store %s2, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// A scratchpad view of the kernel's own: the merged tiles would share it.
ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#v = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(i)[g] : (i >= 0, -i + 15 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @scratchpad(%x_ptr: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  // expected-error @+1 {{a lane runs several tiles (16 tiles on 8 lanes): the merged tiles share one scratchpad, so only the exchange's views may be scratchpad (ct_local) views}}
  %L = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #v, memory_space = #ktdp.memory_space<ct_local>} : memref<1x64xf16, #ktdp.memory_space<ct_local>>
  %tx = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
  %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16, #ktdp.memory_space<ct_local>> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  ktdp.store %x, %tl : tensor<1x64xf16>, <1x64xindex>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all, identity(%zero : tensor<1x64xf16>)
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %t = arith.addf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %t : tensor<1x64xf16>
  }
  %y = ktdp.load %tl : <1x64xindex> -> tensor<1x64xf16>
  %z = arith.addf %s, %y : tensor<1x64xf16>
  ktdp.store %z, %tx : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// A ring shift: tile c consumes tile c - 1's row, so no two tiles that
// would share a lane take their value from the same tile.
ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(i)[g] : (i >= 0, -i + 15 >= 0, g == 0)>
#prev = affine_set<(p)[c] : (p - (c + 15) mod 16 == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @shift(%x_ptr: index, %y_ptr: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %tx = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  // expected-error @+1 {{a lane runs several tiles (16 tiles on 8 lanes): no grid dimension splits into runs of at least 2 tiles, each inside one group (or with one source), that leave the runs that exchange on different cores}}
  %h = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #all, producer_dependency_per_consumer = #prev
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16>
  ktdp.store %h, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// A reduce-scatter (each of the 16 tiles reads only its row of the sum,
// ScatterAttr.h): a merged tile would keep one row for the two tiles it
// runs.
ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(i)[g] : (i >= 0, -i + 15 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @scattered(%x_ptr: index, %y_ptr: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<16x64xindex>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %tx : <16x64xindex> -> tensor<16x64xf16>
  %p = arith.addf %x, %x : tensor<16x64xf16>
  %zero = arith.constant dense<0.0> : tensor<16x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all
      : tensor<16x64xf16> -> !ktdp.tile_future<tensor<16x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %p : tensor<16x64xf16>
  }
  // expected-error @+1 {{a lane runs several tiles (16 tiles on 8 lanes): each tile of a reduce-scatter keeps a chunk of its own, so its tiles are not merged}}
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all, identity(%zero : tensor<16x64xf16>) {ktdf.scatter}
      : !ktdp.tile_future<tensor<16x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<16x64xf16> {
  ^bb0(%a: tensor<16x64xf16>, %b: tensor<16x64xf16>):
    %t = arith.addf %a, %b : tensor<16x64xf16>
    ktdp.yield_reduced %t : tensor<16x64xf16>
  }
  %mine = tensor.extract_slice %s[%pid, 0] [1, 64] [1, 1] : tensor<16x64xf16> to tensor<1x64xf16>
  ktdp.store %mine, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}
