// RUN: ktflow-opt %s --ktdf-sink-into-loops -split-input-file | FileCheck %s

// Loop-invariant tensors used inside a loop are recomputed at the start of
// its body, back to their loads, so that every compute group lies in one
// block: RoPE's cos chunk loaded in the position loop and used in the head
// loop, and a row's maximum extracted and splat before the column loop. A
// loop of a few constant trips that would recompute arithmetic is unrolled
// instead.

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @invariant_load
// CHECK: scf.for %[[S:.*]] = 
// CHECK-NEXT: %[[TC:.*]] = ktdp.construct_access_tile %{{.*}}[%[[S]], 0]
// CHECK-NOT: ktdp.load
// CHECK: scf.for
// CHECK-NEXT: %[[C:.*]] = ktdp.load %[[TC]]
// CHECK: %[[TX:.*]] = ktdp.construct_access_tile
// CHECK: %[[X:.*]] = ktdp.load %[[TX]]
// CHECK: arith.mulf %[[X]], %[[C]]
func.func @invariant_load(%cos: index, %x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %COS = ktdp.construct_memory_view %cos, sizes: [64, 16], strides: [16, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
  %X = ktdp.construct_memory_view %x, sizes: [64, 16], strides: [16, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 16], strides: [16, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
  scf.for %s = %c0 to %c64 step %c8 {
    %tc = ktdp.construct_access_tile %COS[%s, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<64x16xf16> -> !ktdp.access_tile<8x16xindex>
    %cv = ktdp.load %tc : <8x16xindex> -> tensor<8x16xf16>
    scf.for %h = %c0 to %c4 step %c1 {
      %tx = ktdp.construct_access_tile %X[%s, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<64x16xf16> -> !ktdp.access_tile<8x16xindex>
      %xv = ktdp.load %tx : <8x16xindex> -> tensor<8x16xf16>
      %p = arith.mulf %xv, %cv : tensor<8x16xf16>
      %ty = ktdp.construct_access_tile %Y[%s, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<64x16xf16> -> !ktdp.access_tile<8x16xindex>
      ktdp.store %p, %ty : tensor<8x16xf16>, <8x16xindex>
    }
  }
  return
}

// -----

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// The whole chain behind the splat (load, reduction, extract) is cloned
// into the column loop, whose trip count is known only at run time; the
// constant it uses stays outside (ktir-to-ktdf captures constants), and the
// originals, left without uses, are erased.
// CHECK-LABEL: func.func @invariant_splat
// CHECK: %[[NINF:.*]] = arith.constant dense<0xFC00>
// CHECK: scf.for %[[R:.*]] =
// CHECK-NOT: arith.constant
// CHECK-NOT: linalg.reduce
// CHECK: scf.for %[[C:.*]] =
// CHECK-NEXT: %[[V:.*]] = ktdp.load
// CHECK-NEXT: %[[M:.*]] = linalg.reduce
// CHECK-SAME: ins(%[[V]] : tensor<1x128xf16>) outs(%[[NINF]] : tensor<1xf16>)
// CHECK-NEXT: %[[S:.*]] = tensor.extract %[[M]]
// CHECK-NEXT: %[[B:.*]] = tensor.splat %[[S]]
// CHECK: arith.subf %{{.*}}, %[[B]]
func.func @invariant_splat(%x: index, %y: index, %n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %ninf = arith.constant dense<0xFC00> : tensor<1xf16>
  %X = ktdp.construct_memory_view %x, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  scf.for %r = %c0 to %c64 step %c1 {
    %t0 = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x128xindex>
    %v0 = ktdp.load %t0 : <1x128xindex> -> tensor<1x128xf16>
    %m = linalg.reduce { arith.maxnumf } ins(%v0 : tensor<1x128xf16>) outs(%ninf : tensor<1xf16>) dimensions = [1]
    %s = tensor.extract %m[%c0] : tensor<1xf16>
    %b = tensor.splat %s : tensor<1x128xf16>
    scf.for %c = %c0 to %n step %c128 {
      %tx = ktdp.construct_access_tile %X[%r, %c] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x128xindex>
      %v = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %d = arith.subf %v, %b : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%r, %c] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %d, %ty : tensor<1x128xf16>, <1x128xindex>
    }
  }
  return
}

// -----

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// The same row statistic before a column loop of two constant trips: the
// loop is unrolled instead of sinking (which would compute the reduction
// once per trip), so the reduction stays, once per row, and both column
// blocks use it. The first block's load repeats the statistic's load of
// the same tile of X, which nothing stores: it uses that one.
// CHECK-LABEL: func.func @few_trips_unrolled
// CHECK: scf.for %[[R:.*]] =
// CHECK: %[[V0:.*]] = ktdp.load
// CHECK-NEXT: %[[M:.*]] = linalg.reduce
// CHECK-SAME: ins(%[[V0]]
// CHECK-NOT: linalg.reduce
// CHECK-NOT: scf.for
// CHECK: %[[S:.*]] = tensor.extract %[[M]]
// CHECK-NEXT: %[[B:.*]] = tensor.splat %[[S]]
// CHECK-NOT: ktdp.load
// CHECK: arith.subf %[[V0]], %[[B]]
// CHECK: ktdp.store
// CHECK: %[[V1:.*]] = ktdp.load
// CHECK-NEXT: arith.subf %[[V1]], %[[B]]
// CHECK: ktdp.store
// CHECK-NOT: linalg.reduce
// CHECK-NOT: ktdp.load
func.func @few_trips_unrolled(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %ninf = arith.constant dense<0xFC00> : tensor<1xf16>
  %X = ktdp.construct_memory_view %x, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  scf.for %r = %c0 to %c64 step %c1 {
    %t0 = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x128xindex>
    %v0 = ktdp.load %t0 : <1x128xindex> -> tensor<1x128xf16>
    %m = linalg.reduce { arith.maxnumf } ins(%v0 : tensor<1x128xf16>) outs(%ninf : tensor<1xf16>) dimensions = [1]
    %s = tensor.extract %m[%c0] : tensor<1xf16>
    %b = tensor.splat %s : tensor<1x128xf16>
    scf.for %c = %c0 to %c256 step %c128 {
      %tx = ktdp.construct_access_tile %X[%r, %c] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x128xindex>
      %v = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %d = arith.subf %v, %b : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%r, %c] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %d, %ty : tensor<1x128xf16>, <1x128xindex>
    }
  }
  return
}

// -----

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// A tile of a tensor the loop stores to: reloading it inside would read
// what the loop wrote, so the load stays where it is (ktir-to-ktdf refuses
// the capture).
// CHECK-LABEL: func.func @stored_tensor
// CHECK: %[[V:.*]] = ktdp.load
// CHECK-NEXT: scf.for
// CHECK-NOT: ktdp.load
// CHECK: arith.addf %[[V]], %[[V]]
func.func @stored_tensor(%x: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 16], strides: [16, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
  %t = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<64x16xf16> -> !ktdp.access_tile<8x16xindex>
  %v = ktdp.load %t : <8x16xindex> -> tensor<8x16xf16>
  scf.for %i = %c0 to %c4 step %c1 {
    %w = arith.addf %v, %v : tensor<8x16xf16>
    ktdp.store %w, %t : tensor<8x16xf16>, <8x16xindex>
  }
  return
}

// -----

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// A tile loaded twice in one block from a tensor the kernel stores to: the
// store between may change it, so both loads stay.
// CHECK-LABEL: func.func @reload_after_store
// CHECK: ktdp.load
// CHECK: ktdp.store
// CHECK: ktdp.load
func.func @reload_after_store(%x: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 16], strides: [16, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
  %t = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<64x16xf16> -> !ktdp.access_tile<8x16xindex>
  %v = ktdp.load %t : <8x16xindex> -> tensor<8x16xf16>
  %w = arith.addf %v, %v : tensor<8x16xf16>
  ktdp.store %w, %t : tensor<8x16xf16>, <8x16xindex>
  %t2 = ktdp.construct_access_tile %X[%c0, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<64x16xf16> -> !ktdp.access_tile<8x16xindex>
  %u = ktdp.load %t2 : <8x16xindex> -> tensor<8x16xf16>
  %z = arith.mulf %u, %u : tensor<8x16xf16>
  ktdp.store %z, %t2 : tensor<8x16xf16>, <8x16xindex>
  return
}
