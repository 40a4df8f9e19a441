// RUN: ktflow-opt %s --ktdf-lift-slices --ktdf-check-supported -split-input-file -verify-diagnostics

// What ktdf-lift-slices leaves, ktdf-check-supported refuses at the op with
// the reason.

#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @strided(%x_ptr: index, %y_ptr: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %row = arith.muli %pid, %c4 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  %v = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf16>
  // expected-error @below {{tensor.extract_slice is compiled only as a load of the window (constant sizes and unit strides, of a ktdp.load through a box access tile or of element-wise arithmetic on such loads): its strides are not all 1}}
  %s = tensor.extract_slice %v[0, 0] [4, 64] [1, 2] : tensor<4x128xf16> to tensor<4x64xf16>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x64xindex>
  ktdp.store %s, %ty : tensor<4x64xf16>, <4x64xindex>
  return
}

// -----

// A window of a reduction's result is not a window of loads.

#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#v = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#two = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @slice_of_sums(%x_ptr: index, %y_ptr: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %row = arith.muli %pid, %c4 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  %v = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf16>
  %zero = arith.constant dense<0.0> : tensor<4xf16>
  %sums = linalg.reduce ins(%v : tensor<4x128xf16>) outs(%zero : tensor<4xf16>) dimensions = [1]
    (%a: f16, %b: f16) {
      %s = arith.addf %a, %b : f16
      linalg.yield %s : f16
    }
  // expected-error @below {{its source is computed by linalg.reduce, not loaded: only a window of a ktdp.load (or of element-wise arithmetic on loads) becomes a load of the window}}
  %first = tensor.extract_slice %sums[0] [2] [1] : tensor<4xf16> to tensor<2xf16>
  %ty = ktdp.construct_access_tile %Y[%row] {access_tile_set = #two, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<2xindex>
  ktdp.store %first, %ty : tensor<2xf16>, <2xindex>
  return
}

// -----

// Pieces that leave a gap in the tensor.empty: the gap would be stored
// undefined.

#y = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @gap(%a: tensor<4x64xf16>, %y_ptr: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %row = arith.muli %pid, %c4 : index
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #y, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %e = tensor.empty() : tensor<4x128xf16>
  // expected-error @below {{the tensor built by tensor.insert_slice is not stored piece by piece: its pieces overlap or leave elements of the tensor.empty unwritten (which would be stored undefined)}}
  %out = tensor.insert_slice %a into %e[0, 64] [4, 64] [1, 1] : tensor<4x64xf16> into tensor<4x128xf16>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  ktdp.store %out, %ty : tensor<4x128xf16>, <4x128xindex>
  return
}

// -----

// Writing into a loaded block: its other elements would be stored over by
// the piece; and a concat that is computed on, not stored.

#y = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @into_loaded(%a: tensor<4x64xf16>, %y_ptr: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %row = arith.muli %pid, %c4 : index
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #y, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  %old = ktdp.load %ty : <4x128xindex> -> tensor<4x128xf16>
  // expected-error @below {{the tensor built by tensor.insert_slice is not stored piece by piece: it is built from a tensor.insert_slice into a tensor that is neither a tensor.empty nor built from pieces (its other elements would be stored over by the pieces)}}
  %out = tensor.insert_slice %a into %old[0, 64] [4, 64] [1, 1] : tensor<4x64xf16> into tensor<4x128xf16>
  ktdp.store %out, %ty : tensor<4x128xf16>, <4x128xindex>
  // expected-error @below {{tensor.concat is compiled only as the stores of its pieces: its result is used by math.exp, not stored}}
  %both = tensor.concat dim(1) %a, %a : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x128xf16>
  %exp = math.exp %both : tensor<4x128xf16>
  return
}

// -----

// A piece inserted at a run-time offset, refused at the tensor stored.

#y = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @dynamic_piece(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>, %y_ptr: index) attributes {grid = [2]} {
  %pid = ktdp.get_compute_tile_id : index
  %c64 = arith.constant 64 : index
  %col = arith.muli %pid, %c64 : index
  %c4 = arith.constant 4 : index
  %row = arith.muli %pid, %c4 : index
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #y, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %e = tensor.empty() : tensor<4x128xf16>
  // expected-error @below {{the tensor built by tensor.insert_slice is not stored piece by piece: it is built from a tensor.insert_slice (its offsets are not constants)}}
  %lo = tensor.insert_slice %a into %e[0, %col] [4, 64] [1, 1] : tensor<4x64xf16> into tensor<4x128xf16>
  // expected-error @below {{the tensor built by tensor.insert_slice is not stored piece by piece: it is built from a tensor.insert_slice (its offsets are not constants)}}
  %out = tensor.insert_slice %b into %lo[0, 64] [4, 64] [1, 1] : tensor<4x64xf16> into tensor<4x128xf16>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  ktdp.store %out, %ty : tensor<4x128xf16>, <4x128xindex>
  return
}
