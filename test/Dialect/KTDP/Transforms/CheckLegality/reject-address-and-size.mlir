// RUN: ktflow-opt %s --ktir-check-legality -split-input-file -verify-diagnostics

// A kernel argument is either a tensor's start address (the base of a view
// offset) or a size (scaled into a view offset, `ptr + n * 64`), never
// both: %n starts one view and is scaled into the offset of another.

#v = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @both(%x: index, %n: index) {
  %c64 = arith.constant 64 : index
  %off = arith.muli %n, %c64 : index
  %x1 = arith.addi %x, %off : index
  // expected-error @+1 {{kernel argument #1 enters this view's offset scaled, as a size, but is the start address of another view: an argument is either a tensor or a size}}
  %X = ktdp.construct_memory_view %x1, sizes: [64], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  // expected-note @+1 {{the view that starts at kernel argument #1}}
  %N = ktdp.construct_memory_view %n, sizes: [64], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  return
}

// -----

// Also through a helper the kernel calls: %p is the base inside @view_at,
// and the kernel scales it into another offset.

#v = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @view_at(%p: index) {
  // expected-note @+1 {{the view that starts at kernel argument #0}}
  %V = ktdp.construct_memory_view %p, sizes: [64], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  return
}
func.func @k(%p: index, %q: index) {
  func.call @view_at(%p) : (index) -> ()
  %s = affine.apply affine_map<(d0)[s0] -> (d0 + s0 * 2)>(%q)[%p]
  // expected-error @+1 {{kernel argument #0 enters this view's offset scaled}}
  %W = ktdp.construct_memory_view %s, sizes: [64], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  return
}
