// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// One case per check-supported message not covered by an example kernel.

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @computed(%x: index) attributes {grid = [1]} {
  %c64 = arith.constant 64 : index
  %a = arith.muli %x, %c64 : index
  // expected-error @+1 {{memory views at computed addresses are supported by the scheduler only as a kernel argument plus an offset}}
  %X = ktdp.construct_memory_view %a, sizes: [64, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  return
}

// -----

#inner = affine_set<(d0, d1) : (d0 - 8 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @offset_set(%x: index) attributes {grid = [1]} {
  // expected-error @+1 {{memory views whose coordinate set does not start at the origin are not supported yet}}
  %X = ktdp.construct_memory_view %x, sizes: [56, 64], strides: [64, 1] {coordinate_set = #inner, memory_space = #ktdp.memory_space<global>} : memref<56x64xf16>
  return
}

// -----

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @strided(%x: index) attributes {grid = [1]} {
  // expected-error @+1 {{views whose innermost dimension is not contiguous (stride 1) are not supported yet}}
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [1, 64] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  return
}

// -----

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @col_out_of_view() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %X = ktdp.construct_memory_view %c0, sizes: [64, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<ct_local>} : memref<64x64xf16>
  // expected-error @+1 {{the access tile may leave its scratchpad view along dimension 1}}
  %t = ktdp.construct_access_tile %X[0, 32] {access_tile_set = #t, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
  return
}

// -----

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#skew = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 - d0 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @skewed(%x: index) attributes {grid = [1]} {
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  // expected-error @+1 {{access tiles over non-box coordinate sets are not supported yet}}
  %t = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #skew, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
  return
}

// -----

func.func @extract(%t: tensor<8x64xf16>) -> tensor<4x64xf16> attributes {grid = [1]} {
  // expected-error @+1 {{tensor.extract_slice is compiled only as a load of the window (constant sizes and unit strides, of a ktdp.load through a box access tile or of element-wise arithmetic on such loads): its source is a block argument, not loaded}}
  %s = tensor.extract_slice %t[0, 0] [4, 64] [1, 1] : tensor<8x64xf16> to tensor<4x64xf16>
  return %s : tensor<4x64xf16>
}

// -----

func.func @transpose(%t: tensor<8x64xf16>, %o: tensor<64x8xf16>) -> tensor<64x8xf16> attributes {grid = [1]} {
  // expected-error @+1 {{the scheduler compiles linalg.transpose only as permuted access tiles (transposed DMAs): its input must be computed element-wise from loads of tiles in device memory, or its only uses be stores (here its input is not computed in the kernel)}}
  %r = linalg.transpose ins(%t : tensor<8x64xf16>) outs(%o : tensor<64x8xf16>) permutation = [1, 0]
  return %r : tensor<64x8xf16>
}

// -----

// A scratchpad view's bytes are reserved before the scheduler's buffers, so
// they must be known at compile time.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @scratchpad_stride(%n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{scratchpad (ct_local) views need a literal, non-negative address and static sizes and strides}}
  %X = ktdp.construct_memory_view %c0, sizes: [16, 64], strides: [%n, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<ct_local>} : memref<16x64xf16>
  return
}
