// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// Views at computed start addresses: a kernel argument plus an offset that
// follows from tile ids, loop bounds and constants (bounded and not
// negative: the compiler declares the tensor large enough for every view)
// are accepted, at static sizes; anything else is refused at the view. A
// view at a computed address is in its argument's tensor: loading one and
// storing another of the same argument is a hazard like any other.

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @accepted(%x: index, %y: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  // A group's row, pid / 4, inside the writer's branch (lowered to a loop).
  %lane = arith.remui %pid, %c4 : index
  %g = arith.divui %pid, %c4 : index
  %xo = arith.muli %g, %c64 : index
  %xa = arith.addi %x, %xo : index
  %X = ktdp.construct_memory_view %xa, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %tx = ktdp.construct_access_tile %X[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  // A row per iteration, at y + (4 * lane + r) * 64.
  scf.for %r = %c0 to %c4 step %c1 {
    %l4 = arith.muli %lane, %c4 : index
    %i = arith.addi %l4, %r : index
    %yo = arith.muli %i, %c64 : index
    %ya = arith.addi %yo, %y : index
    %Y = ktdp.construct_memory_view %ya, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
    %ty = ktdp.construct_access_tile %Y[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %v, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @scalar_offset(%x: index, %start: index) attributes {grid = [1]} {
  %xa = arith.addi %x, %start : index
  // expected-error @+1 {{memory views at computed addresses are supported by the scheduler only as a kernel argument plus an offset computed from no address (arith.addi %ptr, %offset)}}
  %X = ktdp.construct_memory_view %xa, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  return
}

// -----

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @unbounded_offset(%x: index, %n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %r = %c0 to %n step %c1 {
    %o = arith.muli %r, %c64 : index
    %xa = arith.addi %x, %o : index
    // expected-error @+1 {{the offset of a view at a computed address must follow from tile ids, loop bounds and constants, and not be negative}}
    %X = ktdp.construct_memory_view %xa, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  }
  return
}

// -----

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @negative_offset(%x: index) attributes {grid = [1]} {
  %cm64 = arith.constant -64 : index
  %xa = arith.addi %x, %cm64 : index
  // expected-error @+1 {{the offset of a view at a computed address must follow from tile ids, loop bounds and constants, and not be negative}}
  %X = ktdp.construct_memory_view %xa, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  return
}

// -----

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @two_steps(%x: index) attributes {grid = [1]} {
  %c64 = arith.constant 64 : index
  %a = arith.addi %x, %c64 : index
  %b = arith.addi %a, %c64 : index
  // expected-error @+1 {{memory views at computed addresses are supported by the scheduler only as a kernel argument plus an offset}}
  %X = ktdp.construct_memory_view %b, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  return
}

// -----

// Row 1 of X loaded through a view at x + 64 and stored through a view at
// x: elements 64..127 both times. Storing row 0 instead (elements 0..63) is
// no hazard.
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#rows2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @hazard(%x: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %xa = arith.addi %x, %c64 : index
  %X1 = ktdp.construct_memory_view %xa, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %X0 = ktdp.construct_memory_view %x, sizes: [2, 64], strides: [64, 1] {coordinate_set = #rows2, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %t1 = ktdp.construct_access_tile %X1[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %t0 = ktdp.construct_access_tile %X0[%c1, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  // expected-error @+1 {{loads of a tensor that the kernel also writes are not supported by the scheduler yet}}
  %v = ktdp.load %t1 : <1x64xindex> -> tensor<1x64xf16>
  ktdp.store %v, %t0 : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#rows2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_hazard(%x: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %xa = arith.addi %x, %c64 : index
  %X1 = ktdp.construct_memory_view %xa, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %X0 = ktdp.construct_memory_view %x, sizes: [2, 64], strides: [64, 1] {coordinate_set = #rows2, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %t1 = ktdp.construct_access_tile %X1[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %t0 = ktdp.construct_access_tile %X0[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %t1 : <1x64xindex> -> tensor<1x64xf16>
  ktdp.store %v, %t0 : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// Offsets clamped the way Triton clamps them: min(pid, 3) * 64 lies in
// [0, 192] and max(pid * 64 - 64, 0) in [0, 896]; min(pid, n) * 64 is at
// most 960 but may be negative (n is any index), and so may the select
// that picks the smaller of pid and n.
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @clamped_offsets(%x: index, %n: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %b = arith.minsi %pid, %c3 : index
  %o = arith.muli %b, %c64 : index
  %xa = arith.addi %x, %o : index
  %X = ktdp.construct_memory_view %xa, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %p = arith.muli %pid, %c64 : index
  %q = arith.subi %p, %c64 : index
  %o2 = arith.maxsi %q, %c0 : index
  %xb = arith.addi %x, %o2 : index
  %X2 = ktdp.construct_memory_view %xb, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %m = arith.minsi %pid, %n : index
  %o3 = arith.muli %m, %c64 : index
  %xc = arith.addi %x, %o3 : index
  // expected-error @+1 {{the offset of a view at a computed address must follow from tile ids, loop bounds and constants, and not be negative}}
  %X3 = ktdp.construct_memory_view %xc, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %lt = arith.cmpi slt, %pid, %n : index
  %s = arith.select %lt, %pid, %n : index
  %o4 = arith.muli %s, %c64 : index
  %xd = arith.addi %x, %o4 : index
  // expected-error @+1 {{the offset of a view at a computed address must follow from tile ids, loop bounds and constants, and not be negative}}
  %X4 = ktdp.construct_memory_view %xd, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  return
}
