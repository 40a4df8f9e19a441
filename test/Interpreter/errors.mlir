// Every error class of the interpreter names the op (with its location), the
// tile and the offending coordinate, and exits with status 1. Each kernel
// below triggers one error; `--func` picks it.
//
// RUN: sh -c 'ktflow interp %s --func index_out_of_range --input idx=value:9; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=INDEX
// INDEX: errors.mlir:[[@LINE+53]]:10: error: 'ktdp.load' op tile 0: index value 9 read from the index view at (0) is out of range [0, 7] of dimension 0 of the view
// INDEX: exit=1
// RUN: sh -c 'ktflow interp %s --func outside_view; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=VIEW
// VIEW: errors.mlir:[[@LINE+61]]:10: error: 'ktdp.load' op tile 2: coordinate (4, 0) is in the coordinate_set of a view but outside its sizes (4, 4)
// VIEW: exit=1
// RUN: sh -c 'ktflow interp %s --func consumed_twice; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: errors.mlir:[[@LINE+73]]:12: error: 'ktdp.inter_tile_consume' op tile 0: future consumed twice: the tile future of the inter_tile_produce at {{.*}}errors.mlir:80:10 was already delivered on this tile
// TWICE: exit=1
// RUN: sh -c 'ktflow interp %s --func deadlock; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// DEADLOCK: errors.mlir:[[@LINE+86]]:12: error: 'ktdp.inter_tile_consume' op deadlock: 1 unfinished tile waits for tile futures that no tile can produce any more
// DEADLOCK: note: tile 0 waits in 'ktdp.inter_tile_consume' for producer tiles 1
// DEADLOCK: exit=1
// RUN: sh -c 'ktflow interp %s --func scratchpad_overflow --scratchpad-bytes 1024; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=SCRATCH
// SCRATCH: errors.mlir:[[@LINE+90]]:10: error: 'ktdp.construct_memory_view' op tile 0: scratchpad overflow: the view needs bytes [0, 2048) of the scratchpad of tile 0, whose capacity is 1024 bytes
// SCRATCH: exit=1
// The default capacity (2 MiB) holds it.
// RUN: ktflow interp %s --func scratchpad_overflow
// RUN: sh -c 'ktflow interp %s --func type_mismatch; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: errors.mlir:[[@LINE+93]]:10: error: 'ktdp.load' op tile 0: type mismatch: the result has element type f32 but the access tile's view holds f16
// TYPE: exit=1
// RUN: sh -c 'ktflow interp %s --func unknown_op; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: errors.mlir:[[@LINE+95]]:10: error: 'memref.alloc' op tile 0: unknown op 'memref.alloc': the interpreter does not implement it
// UNKNOWN: exit=1
// RUN: sh -c 'ktflow interp %s --func unknown_body_op; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=BODY
// BODY: errors.mlir:[[@LINE+101]]:16: error: 'arith.addui_extended' op tile 0: in the body of 'linalg.generic': unknown op 'arith.addui_extended': the interpreter does not support it in a linalg body
// BODY: exit=1
// RUN: sh -c 'ktflow interp %s --func divide_by_zero; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=DIV
// DIV: errors.mlir:[[@LINE+107]]:10: error: 'arith.divsi' op tile 0: integer division by zero at element (2)
// DIV: exit=1
// RUN: sh -c 'ktflow interp %s --func extract_out_of_bounds; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=EXTRACT
// EXTRACT: errors.mlir:[[@LINE+111]]:10: error: 'tensor.extract' op tile 0: index (7) is out of bounds for a tensor of shape 4
// EXTRACT: exit=1
// RUN: sh -c 'ktflow interp %s --func consume_many; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=MANY
// MANY: errors.mlir:[[@LINE+119]]:10: error: 'ktdp.inter_tile_consume' op tile 0: the consumer depends on 2 producer tiles of group 0; a consume delivers exactly one producer's values (add a producer_dependency_per_consumer set)
// MANY: exit=1

#x8x4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#v2 = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#var2x4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#t2x4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#v4 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#all2 = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0, g == 0)>
#tile0 = affine_set<(i)[g] : (i == 0, g == 0)>
#tile1 = affine_set<(i)[g] : (i - 1 == 0, g == 0)>
#one = affine_set<(g) : (g == 0)>
module {
  // Gathers rows Idx[0], Idx[1] of X (8 rows).
  func.func @index_out_of_range(%x: index, %idx: index) attributes {grid = [2]} {
    %X = ktdp.construct_memory_view %x, sizes: [8, 4], strides: [4, 1] {coordinate_set = #x8x4, memory_space = #ktdp.memory_space<global>} : memref<8x4xf32>
    %I = ktdp.construct_memory_view %idx, sizes: [2], strides: [1] {coordinate_set = #v2, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
    %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %X[ind(%I[%i]), (%j)] {variables_space_set = #var2x4, variables_space_order = #id2} : memref<8x4xf32>, memref<2xi32> -> !ktdp.access_tile<2x4xindex>
    %v = ktdp.load %t : !ktdp.access_tile<2x4xindex> -> tensor<2x4xf32>
    return
  }

  // Rows 0..7 are in the coordinate set but the view has only 4 rows.
  func.func @outside_view(%x: index) attributes {grid = [4]} {
    %id = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %row = arith.muli %id, %c2 : index
    %X = ktdp.construct_memory_view %x, sizes: [4, 4], strides: [4, 1] {coordinate_set = #x8x4, memory_space = #ktdp.memory_space<global>} : memref<4x4xf32>
    %t = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #t2x4, access_tile_order = #id2} : memref<4x4xf32> -> !ktdp.access_tile<2x4xindex>
    %v = ktdp.load %t : !ktdp.access_tile<2x4xindex> -> tensor<2x4xf32>
    return
  }

  // The future is produced once but consumed in every loop iteration.
  func.func @consumed_twice() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %z = arith.constant dense<1.0> : tensor<4xf32>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #tile0 -> <(tensor<4xf32>), groups = #one> {
    ^bb0(%g: index):
      ktdp.yield_partial %z : tensor<4xf32>
    }
    scf.for %i = %c0 to %c2 step %c1 {
      %v = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #all2 : <(tensor<4xf32>), groups = #one> -> tensor<4xf32>
    }
    return
  }

  // Tile 1 is the only producer, but only tile 0 reaches the produce.
  func.func @deadlock() attributes {grid = [2]} {
    %id = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %is0 = arith.cmpi eq, %id, %c0 : index
    %z = arith.constant dense<1.0> : tensor<4xf32>
    scf.if %is0 {
      %f = ktdp.inter_tile_produce producer_tiles_per_group = #tile1 -> <(tensor<4xf32>), groups = #one> {
      ^bb0(%g: index):
        ktdp.yield_partial %z : tensor<4xf32>
      }
      %v = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #tile0 : <(tensor<4xf32>), groups = #one> -> tensor<4xf32>
    }
    return
  }

  // 1024 f16 = 2048 bytes of scratchpad.
  func.func @scratchpad_overflow() attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %L = ktdp.construct_memory_view %c0, sizes: [1024], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<1024xf16>
    return
  }

  func.func @type_mismatch(%x: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %X = ktdp.construct_memory_view %x, sizes: [4], strides: [1] {coordinate_set = #v4, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
    %t = ktdp.construct_access_tile %X[%c0] {access_tile_set = #v4, access_tile_order = #id1} : memref<4xf16> -> !ktdp.access_tile<4xindex>
    %v = ktdp.load %t : !ktdp.access_tile<4xindex> -> tensor<4xf32>
    return
  }

  func.func @unknown_op() attributes {grid = [1]} {
    %m = memref.alloc() : memref<4xf32>
    return
  }

  func.func @unknown_body_op() attributes {grid = [1]} {
    %a = arith.constant dense<1> : tensor<4xi32>
    %e = tensor.empty() : tensor<4xi32>
    %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%a : tensor<4xi32>) outs(%e : tensor<4xi32>) {
    ^bb0(%in: i32, %out: i32):
      %s, %o = arith.addui_extended %in, %in : i32, i1
      linalg.yield %s : i32
    } -> tensor<4xi32>
    return
  }

  func.func @divide_by_zero() attributes {grid = [1]} {
    %a = arith.constant dense<[4, 5, 6, 7]> : tensor<4xi32>
    %b = arith.constant dense<[1, 2, 0, 3]> : tensor<4xi32>
    %q = arith.divsi %a, %b : tensor<4xi32>
    return
  }

  func.func @extract_out_of_bounds() attributes {grid = [1]} {
    %a = arith.constant dense<[4, 5, 6, 7]> : tensor<4xi32>
    %c7 = arith.constant 7 : index
    %v = tensor.extract %a[%c7] : tensor<4xi32>
    return
  }

  // Both tiles produce for group 0 and no dependency set picks one.
  func.func @consume_many() attributes {grid = [2]} {
    %z = arith.constant dense<1.0> : tensor<4xf32>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all2 -> <(tensor<4xf32>), groups = #one> {
    ^bb0(%g: index):
      ktdp.yield_partial %z : tensor<4xf32>
    }
    %v = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #all2 : <(tensor<4xf32>), groups = #one> -> tensor<4xf32>
    return
  }
}
