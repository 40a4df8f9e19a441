// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// Views at a launch scalar times a constant past their tensor's start
// (`%x + %n * 64`, the second of two halves of n rows of 64) are accepted
// when every view of the tensor declares the scalar times a constant
// elements at such a displacement, none overlapping another: the tensor is
// then that scalar times a constant elements (RecordTensorExtents
// scaled.mlir). Anything else is refused at the view that keeps it from
// being one; a displacement of two scalars is unbounded as before.

#top = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @halves(%x: index, %n_i32: i32) attributes {grid = [1]} {
  %c64 = arith.constant 64 : index
  %n = arith.index_cast %n_i32 : i32 to index
  %off = arith.muli %n, %c64 : index
  %x1 = arith.addi %x, %off : index
  %X0 = ktdp.construct_memory_view %x, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  return
}

// -----

// The second half at x + 32n overlaps the first, [0, 64n).
#top = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @overlap(%x: index, %n_i32: i32) attributes {grid = [1]} {
  %c32 = arith.constant 32 : index
  %n = arith.index_cast %n_i32 : i32 to index
  %off = arith.muli %n, %c32 : index
  %x1 = arith.addi %x, %off : index
  %X0 = ktdp.construct_memory_view %x, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  // expected-error @+1 {{views at a launch scalar times a constant past their tensor's start (`%ptr + %n * 64`) must each declare that scalar times a constant elements and not overlap: its elements [32 * s, 96 * s) overlap those of another view, [0 * s, 64 * s), s the launch scalar}}
  %X1 = ktdp.construct_memory_view %x1, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  return
}

// -----

// A tile's row at x + pid * 64 beside a half at x + 64n.
#top = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @tile_offset(%x: index, %n_i32: i32) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c64 = arith.constant 64 : index
  %n = arith.index_cast %n_i32 : i32 to index
  %off = arith.muli %c64, %n : index
  %x1 = arith.addi %x, %off : index
  %X1 = ktdp.construct_memory_view %x1, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %roff = arith.muli %pid, %c64 : index
  %xr = arith.addi %x, %roff : index
  // expected-error @+1 {{its displacement is not the launch scalar of the others times a constant}}
  %XR = ktdp.construct_memory_view %xr, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  return
}

// -----

// A static 1x64 view at x + 64n ends at 64n + 64, not at a multiple of n.
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @static_sizes(%x: index, %n: index) attributes {grid = [1]} {
  %c64 = arith.constant 64 : index
  %off = arith.muli %n, %c64 : index
  %x1 = arith.addi %x, %off : index
  // expected-error @+1 {{its sizes must have the launch scalar of the displacements as their one dynamic size}}
  %X1 = ktdp.construct_memory_view %x1, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  return
}

// -----

// The first half is m rows, the second starts at x + 64n.
#top = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @other_size(%x: index, %n: index, %m: index) attributes {grid = [1]} {
  %c64 = arith.constant 64 : index
  %off = arith.muli %n, %c64 : index
  %x1 = arith.addi %x, %off : index
  // expected-error @+1 {{its sizes must have the launch scalar of the displacements as their one dynamic size}}
  %X0 = ktdp.construct_memory_view %x, sizes: [%m, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  return
}

// -----

// A displacement of two launch scalars, n * m * 64, is unbounded as before.
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @two_scalars(%x: index, %n: index, %m: index) attributes {grid = [1]} {
  %c64 = arith.constant 64 : index
  %nm = arith.muli %n, %m : index
  %off = arith.muli %nm, %c64 : index
  %x1 = arith.addi %x, %off : index
  // expected-error @+1 {{the offset of a view at a computed address must follow from tile ids, loop bounds and constants, and not be negative}}
  %X1 = ktdp.construct_memory_view %x1, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  return
}
