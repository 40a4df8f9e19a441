// Inter-tile ops on the compiled tier (docs/cpu-jit.md, "Inter-tile ops"):
// every tile runs on a thread of its own and hands partials over through
// the exchange runtime (lib/CpuJit/InterTile.h); reductions fold in
// ascending tile order from the identity, as the interpreter does, so both
// engines print the same checksums.
//
// RUN: rm -rf %t && mkdir -p %t
//
// An all-reduce inside a loop: one future instance per trip.
// RUN: ktflow interp %s --func loop_allreduce --seed 7 --engine=interp > %t/loop.interp
// RUN: ktflow interp %s --func loop_allreduce --seed 7 --engine=jit > %t/loop.jit 2> %t/loop.note
// RUN: diff %t/loop.interp %t/loop.jit
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/loop.note
// JIT: engine: jit (compiled in
//
// mod-strided groups of a [8] grid (tile i in group i mod 2), reduced to
// the group's first tile only, rank-reduced to a 64-element result.
// RUN: ktflow interp %s --func strided_groups --seed 7 --engine=interp > %t/strided.interp
// RUN: ktflow interp %s --func strided_groups --seed 7 --engine=jit > %t/strided.jit 2> %t/strided.note
// RUN: diff %t/strided.interp %t/strided.jit
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/strided.note
//
// A ring shift: each tile consumes its left neighbour's row.
// RUN: ktflow interp %s --func ring_shift --seed 7 --engine=interp > %t/ring.interp
// RUN: ktflow interp %s --func ring_shift --seed 7 --engine=jit > %t/ring.jit 2> %t/ring.note
// RUN: diff %t/ring.interp %t/ring.jit
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/ring.note
//
// Tile 3 never produces (its produce sits in a branch only tiles 0-2 take):
// every other tile waits for it. The tier finds the deadlock and the
// interpreter reruns the kernel to report it at the op.
// RUN: not ktflow interp %s --func missing_producer --seed 7 > %t/dead.out 2> %t/dead.err
// RUN: FileCheck %s --check-prefix=DEAD --input-file=%t/dead.err
// DEAD: engine: interp (jit: inter-tile ops: every running tile waits for another in an inter-tile op)
// DEAD: error: {{.*}}inter_tile_reduce

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#one = affine_set<(g) : (g == 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
#parity = affine_set<(i)[g] : (i >= 0, -i + 7 >= 0, i - g - ((i - g) floordiv 2) * 2 == 0)>
#first = affine_set<(i)[g] : (i - g == 0)>
#left = affine_set<(p)[c] : (p - (c + 3) + ((c + 3) floordiv 4) * 4 == 0)>
module {
  func.func @loop_allreduce(%x_ptr: index, %out_ptr: index) attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %O = ktdp.construct_memory_view %out_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %base = arith.muli %pid, %c8 : index
    %ident = tensor.splat %zero : tensor<1x64xf32>
    scf.for %k = %c0 to %c3 step %c1 {
      %r = arith.addi %base, %k : index
      %t = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %t : <1x64xindex> -> tensor<1x64xf16>
      %xf = arith.extf %x : tensor<1x64xf16> to tensor<1x64xf32>
      %fut = ktdp.inter_tile_produce producer_tiles_per_group = #all4 : tensor<1x64xf32> -> !ktdp.tile_future<tensor<1x64xf32>, groups = #one> {
      ^bb0(%gid: index):
        ktdp.yield_partial %xf : tensor<1x64xf32>
      }
      %sum = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #all4, identity(%ident : tensor<1x64xf32>) : !ktdp.tile_future<tensor<1x64xf32>, groups = #one> -> tensor<1x64xf32> {
      ^bb0(%a: tensor<1x64xf32>, %b: tensor<1x64xf32>):
        %s = arith.addf %a, %b : tensor<1x64xf32>
        ktdp.yield_reduced %s : tensor<1x64xf32>
      }
      %h = arith.truncf %sum : tensor<1x64xf32> to tensor<1x64xf16>
      %u = ktdp.construct_access_tile %O[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %h, %u : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }

  func.func @strided_groups(%x_ptr: index, %out_ptr: index) attributes {grid = [8]} {
    %pid = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %ninf = arith.constant 0xFC00 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %O = ktdp.construct_memory_view %out_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %t = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %t : <1x64xindex> -> tensor<1x64xf16>
    %ident = tensor.splat %ninf : tensor<1x64xf16>
    %fut = ktdp.inter_tile_produce producer_tiles_per_group = #parity : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = #two> {
    ^bb0(%gid: index):
      ktdp.yield_partial %x : tensor<1x64xf16>
    }
    %m = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #first, identity(%ident : tensor<1x64xf16>) : !ktdp.tile_future<tensor<1x64xf16>, groups = #two> -> tensor<64xf16> {
    ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
      %s = arith.maximumf %a, %b : tensor<1x64xf16>
      ktdp.yield_reduced %s : tensor<1x64xf16>
    }
    // Every tile stores: non-consumers store the identity (-inf).
    %m2 = tensor.expand_shape %m [[0, 1]] output_shape [1, 64] : tensor<64xf16> into tensor<1x64xf16>
    %u = ktdp.construct_access_tile %O[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %m2, %u : tensor<1x64xf16>, <1x64xindex>
    return
  }

  func.func @ring_shift(%x_ptr: index, %out_ptr: index) attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %O = ktdp.construct_memory_view %out_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %t = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %t : <1x64xindex> -> tensor<1x64xf16>
    %fut = ktdp.inter_tile_produce producer_tiles_per_group = #all4 : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = #one> {
    ^bb0(%gid: index):
      ktdp.yield_partial %x : tensor<1x64xf16>
    }
    %v = ktdp.inter_tile_consume(%fut) consumer_tiles_per_group = #all4, producer_dependency_per_consumer = #left : !ktdp.tile_future<tensor<1x64xf16>, groups = #one> -> tensor<1x64xf16>
    %u = ktdp.construct_access_tile %O[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %v, %u : tensor<1x64xf16>, <1x64xindex>
    return
  }

  func.func @missing_producer(%x_ptr: index, %out_ptr: index) attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c3 = arith.constant 3 : index
    %zero = arith.constant 0.0 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %O = ktdp.construct_memory_view %out_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %t = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %t : <1x64xindex> -> tensor<1x64xf16>
    %ident = tensor.splat %zero : tensor<1x64xf16>
    %produces = arith.cmpi ult, %pid, %c3 : index
    %r = scf.if %produces -> (tensor<1x64xf16>) {
      %fut = ktdp.inter_tile_produce producer_tiles_per_group = #all4 : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = #one> {
      ^bb0(%gid: index):
        ktdp.yield_partial %x : tensor<1x64xf16>
      }
      %s = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #all4, identity(%ident : tensor<1x64xf16>) : !ktdp.tile_future<tensor<1x64xf16>, groups = #one> -> tensor<1x64xf16> {
      ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
        %y = arith.addf %a, %b : tensor<1x64xf16>
        ktdp.yield_reduced %y : tensor<1x64xf16>
      }
      scf.yield %s : tensor<1x64xf16>
    } else {
      scf.yield %x : tensor<1x64xf16>
    }
    %u = ktdp.construct_access_tile %O[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %r, %u : tensor<1x64xf16>, <1x64xindex>
    return
  }
}
