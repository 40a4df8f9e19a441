// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-split-point-rows=use-lanes=false | FileCheck %s

// Counted as cores (use-lanes=false), the points take at most two
// instances each, too few for the parts of parts.mlir.

// Points left whole. Equal work: every point walks the 4 key blocks (the
// bound no longer follows the tile id), so the points' lanes are balanced
// already. More points than instances: 16 points on sample_device's 4
// cores take four rounds, which ktdf-distribute deals in snake order.
// Short rows: points of 8 rows on spyre_like would give halves of 4 rows,
// half the rows of its 8x8 matrix unit.

// CHECK-LABEL: func.func @equal_work
// CHECK-SAME: grid = [16, 1]
// CHECK: ktdp.get_compute_tile_id : index
// CHECK: -> !ktdp.access_tile<16x64xindex>
// CHECK-LABEL: func.func @more_points
// CHECK-SAME: grid = [16, 1]
// CHECK: ktdp.get_compute_tile_id : index
// CHECK: -> !ktdp.access_tile<16x64xindex>
// CHECK-LABEL: func.func @short_rows
// CHECK-SAME: grid = [32, 1]
// CHECK: ktdp.get_compute_tile_id : index
// CHECK: -> !ktdp.access_tile<8x64xindex>
#qkv_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#q_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#kv_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#rowmap = affine_map<(d0, d1) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @equal_work(%q_ptr: index,  // Q: 256x64 f16 (input)
                      %k_ptr: index,  // K: 256x64 f16 (input)
                      %v_ptr: index,  // V: 256x64 f16 (input)
                      %o_ptr: index,  // O: 256x64 f16 (output)
                      %scale: f32)    // softmax scale
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %q0 = arith.muli %pid, %c16 : index
    %c1 = arith.constant 1 : index
    %c79 = arith.constant 79 : index
    %kend = arith.addi %q0, %c79 : index
    %c4 = arith.constant 4 : index
    %nseen = arith.divui %kend, %c64 : index  // ceil((q0 + 16) / 64) key blocks
    %nblk = arith.minsi %nseen, %c4 : index    // at most the 4 blocks of K
    %ninf_bits = arith.constant 0xFF800000 : i32
    %ninf = arith.bitcast %ninf_bits : i32 to f32
    %zero = arith.constant 0.0 : f32
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [256, 64], strides: [64, 1] {coordinate_set = #qkv_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [256, 64], strides: [64, 1] {coordinate_set = #qkv_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %V = ktdp.construct_memory_view %v_ptr, sizes: [256, 64], strides: [64, 1] {coordinate_set = #qkv_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %O = ktdp.construct_memory_view %o_ptr, sizes: [256, 64], strides: [64, 1] {coordinate_set = #qkv_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %tq = ktdp.construct_access_tile %Q[%q0, 0] {access_tile_set = #q_blk, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<16x64xindex>
    %qh = ktdp.load %tq : <16x64xindex> -> tensor<16x64xf16>
    %q = arith.extf %qh : tensor<16x64xf16> to tensor<16x64xf32>
    %e16 = tensor.empty() : tensor<16xf32>
    %e_s = tensor.empty() : tensor<16x64xf32>
    %m0 = linalg.fill ins(%ninf : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
    %l0 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
    %acc0 = linalg.fill ins(%zero : f32) outs(%e_s : tensor<16x64xf32>) -> tensor<16x64xf32>
    %m, %l, %acc = scf.for %bi = %c0 to %c4 step %c1 iter_args(%m_run = %m0, %l_run = %l0, %acc_run = %acc0) -> (tensor<16xf32>, tensor<16xf32>, tensor<16x64xf32>) {
      %kb = arith.muli %bi, %c64 : index
      %tk = ktdp.construct_access_tile %K[%kb, 0] {access_tile_set = #kv_blk, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<64x64xindex>
      %tv = ktdp.construct_access_tile %V[%kb, 0] {access_tile_set = #kv_blk, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<64x64xindex>
      %kh = ktdp.load %tk : <64x64xindex> -> tensor<64x64xf16>
      %vh = ktdp.load %tv : <64x64xindex> -> tensor<64x64xf16>
      %k = arith.extf %kh : tensor<64x64xf16> to tensor<64x64xf32>
      %v = arith.extf %vh : tensor<64x64xf16> to tensor<64x64xf32>
      %kt_init = tensor.empty() : tensor<64x64xf32>
      %kt = linalg.transpose ins(%k : tensor<64x64xf32>) outs(%kt_init : tensor<64x64xf32>) permutation = [1, 0]
      %z_s = linalg.fill ins(%zero : f32) outs(%e_s : tensor<16x64xf32>) -> tensor<16x64xf32>
      %qk = linalg.matmul ins(%q, %kt : tensor<16x64xf32>, tensor<64x64xf32>) outs(%z_s : tensor<16x64xf32>) -> tensor<16x64xf32>
      %scale_t = tensor.splat %scale : tensor<16x64xf32>
      %s = arith.mulf %qk, %scale_t : tensor<16x64xf32>
      %masked = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%s : tensor<16x64xf32>) outs(%e_s : tensor<16x64xf32>) {
        ^bb0(%val: f32, %out: f32):
          %i = linalg.index 0 : index
          %j = linalg.index 1 : index
          %qi = arith.addi %q0, %i : index
          %kj = arith.addi %kb, %j : index
          %visible = arith.cmpi ule, %kj, %qi : index
          %r = arith.select %visible, %val, %ninf : f32
          linalg.yield %r : f32
      } -> tensor<16x64xf32>
      %mb_init = linalg.fill ins(%ninf : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
      %mb = linalg.reduce ins(%masked : tensor<16x64xf32>) outs(%mb_init : tensor<16xf32>) dimensions = [1]
        (%a : f32, %b : f32) {
          %gt = arith.cmpf ogt, %a, %b : f32
          %mx = arith.select %gt, %a, %b : f32
          linalg.yield %mx : f32
        }
      %m_new = arith.maximumf %m_run, %mb : tensor<16xf32>
      %p = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%masked, %m_new : tensor<16x64xf32>, tensor<16xf32>) outs(%e_s : tensor<16x64xf32>) {
        ^bb0(%val: f32, %mi: f32, %out: f32):
          %d = arith.subf %val, %mi : f32
          %ex = math.exp %d : f32
          linalg.yield %ex : f32
      } -> tensor<16x64xf32>
      %dm = arith.subf %m_run, %m_new : tensor<16xf32>
      %alpha = math.exp %dm : tensor<16xf32>
      %ps_init = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
      %ps = linalg.reduce { arith.addf } ins(%p : tensor<16x64xf32>) outs(%ps_init : tensor<16xf32>) dimensions = [1]
      %l_scaled = arith.mulf %l_run, %alpha : tensor<16xf32>
      %l_new = arith.addf %l_scaled, %ps : tensor<16xf32>
      %acc_scaled = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%acc_run, %alpha : tensor<16x64xf32>, tensor<16xf32>) outs(%e_s : tensor<16x64xf32>) {
        ^bb0(%a_in: f32, %al: f32, %out: f32):
          %r = arith.mulf %a_in, %al : f32
          linalg.yield %r : f32
      } -> tensor<16x64xf32>
      %acc_new = linalg.matmul ins(%p, %v : tensor<16x64xf32>, tensor<64x64xf32>) outs(%acc_scaled : tensor<16x64xf32>) -> tensor<16x64xf32>
      scf.yield %m_new, %l_new, %acc_new : tensor<16xf32>, tensor<16xf32>, tensor<16x64xf32>
    }
    %lb = linalg.broadcast ins(%l : tensor<16xf32>) outs(%e_s : tensor<16x64xf32>) dimensions = [1]
    %o = arith.divf %acc, %lb : tensor<16x64xf32>
    %oh = arith.truncf %o : tensor<16x64xf32> to tensor<16x64xf16>
    %to = ktdp.construct_access_tile %O[%q0, 0] {access_tile_set = #q_blk, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<16x64xindex>
    ktdp.store %oh, %to : tensor<16x64xf16>, <16x64xindex>
    return
  }
}

// -----

#qkv_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#q_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#kv_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#rowmap = affine_map<(d0, d1) -> (d0)>
module {
  ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
  func.func @more_points(%q_ptr: index,  // Q: 256x64 f16 (input)
                      %k_ptr: index,  // K: 256x64 f16 (input)
                      %v_ptr: index,  // V: 256x64 f16 (input)
                      %o_ptr: index,  // O: 256x64 f16 (output)
                      %scale: f32)    // softmax scale
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %q0 = arith.muli %pid, %c16 : index
    %c1 = arith.constant 1 : index
    %c79 = arith.constant 79 : index
    %kend = arith.addi %q0, %c79 : index
    %c4 = arith.constant 4 : index
    %nseen = arith.divui %kend, %c64 : index  // ceil((q0 + 16) / 64) key blocks
    %nblk = arith.minsi %nseen, %c4 : index    // at most the 4 blocks of K
    %ninf_bits = arith.constant 0xFF800000 : i32
    %ninf = arith.bitcast %ninf_bits : i32 to f32
    %zero = arith.constant 0.0 : f32
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [256, 64], strides: [64, 1] {coordinate_set = #qkv_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [256, 64], strides: [64, 1] {coordinate_set = #qkv_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %V = ktdp.construct_memory_view %v_ptr, sizes: [256, 64], strides: [64, 1] {coordinate_set = #qkv_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %O = ktdp.construct_memory_view %o_ptr, sizes: [256, 64], strides: [64, 1] {coordinate_set = #qkv_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %tq = ktdp.construct_access_tile %Q[%q0, 0] {access_tile_set = #q_blk, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<16x64xindex>
    %qh = ktdp.load %tq : <16x64xindex> -> tensor<16x64xf16>
    %q = arith.extf %qh : tensor<16x64xf16> to tensor<16x64xf32>
    %e16 = tensor.empty() : tensor<16xf32>
    %e_s = tensor.empty() : tensor<16x64xf32>
    %m0 = linalg.fill ins(%ninf : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
    %l0 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
    %acc0 = linalg.fill ins(%zero : f32) outs(%e_s : tensor<16x64xf32>) -> tensor<16x64xf32>
    %m, %l, %acc = scf.for %bi = %c0 to %nblk step %c1 iter_args(%m_run = %m0, %l_run = %l0, %acc_run = %acc0) -> (tensor<16xf32>, tensor<16xf32>, tensor<16x64xf32>) {
      %kb = arith.muli %bi, %c64 : index
      %tk = ktdp.construct_access_tile %K[%kb, 0] {access_tile_set = #kv_blk, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<64x64xindex>
      %tv = ktdp.construct_access_tile %V[%kb, 0] {access_tile_set = #kv_blk, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<64x64xindex>
      %kh = ktdp.load %tk : <64x64xindex> -> tensor<64x64xf16>
      %vh = ktdp.load %tv : <64x64xindex> -> tensor<64x64xf16>
      %k = arith.extf %kh : tensor<64x64xf16> to tensor<64x64xf32>
      %v = arith.extf %vh : tensor<64x64xf16> to tensor<64x64xf32>
      %kt_init = tensor.empty() : tensor<64x64xf32>
      %kt = linalg.transpose ins(%k : tensor<64x64xf32>) outs(%kt_init : tensor<64x64xf32>) permutation = [1, 0]
      %z_s = linalg.fill ins(%zero : f32) outs(%e_s : tensor<16x64xf32>) -> tensor<16x64xf32>
      %qk = linalg.matmul ins(%q, %kt : tensor<16x64xf32>, tensor<64x64xf32>) outs(%z_s : tensor<16x64xf32>) -> tensor<16x64xf32>
      %scale_t = tensor.splat %scale : tensor<16x64xf32>
      %s = arith.mulf %qk, %scale_t : tensor<16x64xf32>
      %masked = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%s : tensor<16x64xf32>) outs(%e_s : tensor<16x64xf32>) {
        ^bb0(%val: f32, %out: f32):
          %i = linalg.index 0 : index
          %j = linalg.index 1 : index
          %qi = arith.addi %q0, %i : index
          %kj = arith.addi %kb, %j : index
          %visible = arith.cmpi ule, %kj, %qi : index
          %r = arith.select %visible, %val, %ninf : f32
          linalg.yield %r : f32
      } -> tensor<16x64xf32>
      %mb_init = linalg.fill ins(%ninf : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
      %mb = linalg.reduce ins(%masked : tensor<16x64xf32>) outs(%mb_init : tensor<16xf32>) dimensions = [1]
        (%a : f32, %b : f32) {
          %gt = arith.cmpf ogt, %a, %b : f32
          %mx = arith.select %gt, %a, %b : f32
          linalg.yield %mx : f32
        }
      %m_new = arith.maximumf %m_run, %mb : tensor<16xf32>
      %p = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%masked, %m_new : tensor<16x64xf32>, tensor<16xf32>) outs(%e_s : tensor<16x64xf32>) {
        ^bb0(%val: f32, %mi: f32, %out: f32):
          %d = arith.subf %val, %mi : f32
          %ex = math.exp %d : f32
          linalg.yield %ex : f32
      } -> tensor<16x64xf32>
      %dm = arith.subf %m_run, %m_new : tensor<16xf32>
      %alpha = math.exp %dm : tensor<16xf32>
      %ps_init = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
      %ps = linalg.reduce { arith.addf } ins(%p : tensor<16x64xf32>) outs(%ps_init : tensor<16xf32>) dimensions = [1]
      %l_scaled = arith.mulf %l_run, %alpha : tensor<16xf32>
      %l_new = arith.addf %l_scaled, %ps : tensor<16xf32>
      %acc_scaled = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%acc_run, %alpha : tensor<16x64xf32>, tensor<16xf32>) outs(%e_s : tensor<16x64xf32>) {
        ^bb0(%a_in: f32, %al: f32, %out: f32):
          %r = arith.mulf %a_in, %al : f32
          linalg.yield %r : f32
      } -> tensor<16x64xf32>
      %acc_new = linalg.matmul ins(%p, %v : tensor<16x64xf32>, tensor<64x64xf32>) outs(%acc_scaled : tensor<16x64xf32>) -> tensor<16x64xf32>
      scf.yield %m_new, %l_new, %acc_new : tensor<16xf32>, tensor<16xf32>, tensor<16x64xf32>
    }
    %lb = linalg.broadcast ins(%l : tensor<16xf32>) outs(%e_s : tensor<16x64xf32>) dimensions = [1]
    %o = arith.divf %acc, %lb : tensor<16x64xf32>
    %oh = arith.truncf %o : tensor<16x64xf32> to tensor<16x64xf16>
    %to = ktdp.construct_access_tile %O[%q0, 0] {access_tile_set = #q_blk, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<16x64xindex>
    ktdp.store %oh, %to : tensor<16x64xf16>, <16x64xindex>
    return
  }
}

// -----

#qkv_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#q_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#kv_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#rowmap = affine_map<(d0, d1) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @short_rows(%q_ptr: index,  // Q: 256x64 f16 (input)
                      %k_ptr: index,  // K: 256x64 f16 (input)
                      %v_ptr: index,  // V: 256x64 f16 (input)
                      %o_ptr: index,  // O: 256x64 f16 (output)
                      %scale: f32)    // softmax scale
      attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %q0 = arith.muli %pid, %c16 : index
    %c1 = arith.constant 1 : index
    %c79 = arith.constant 71 : index
    %kend = arith.addi %q0, %c79 : index
    %c4 = arith.constant 4 : index
    %nseen = arith.divui %kend, %c64 : index  // ceil((q0 + 16) / 64) key blocks
    %nblk = arith.minsi %nseen, %c4 : index    // at most the 4 blocks of K
    %ninf_bits = arith.constant 0xFF800000 : i32
    %ninf = arith.bitcast %ninf_bits : i32 to f32
    %zero = arith.constant 0.0 : f32
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [256, 64], strides: [64, 1] {coordinate_set = #qkv_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [256, 64], strides: [64, 1] {coordinate_set = #qkv_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %V = ktdp.construct_memory_view %v_ptr, sizes: [256, 64], strides: [64, 1] {coordinate_set = #qkv_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %O = ktdp.construct_memory_view %o_ptr, sizes: [256, 64], strides: [64, 1] {coordinate_set = #qkv_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %tq = ktdp.construct_access_tile %Q[%q0, 0] {access_tile_set = #q_blk, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<8x64xindex>
    %qh = ktdp.load %tq : <8x64xindex> -> tensor<8x64xf16>
    %q = arith.extf %qh : tensor<8x64xf16> to tensor<8x64xf32>
    %e16 = tensor.empty() : tensor<8xf32>
    %e_s = tensor.empty() : tensor<8x64xf32>
    %m0 = linalg.fill ins(%ninf : f32) outs(%e16 : tensor<8xf32>) -> tensor<8xf32>
    %l0 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<8xf32>) -> tensor<8xf32>
    %acc0 = linalg.fill ins(%zero : f32) outs(%e_s : tensor<8x64xf32>) -> tensor<8x64xf32>
    %m, %l, %acc = scf.for %bi = %c0 to %nblk step %c1 iter_args(%m_run = %m0, %l_run = %l0, %acc_run = %acc0) -> (tensor<8xf32>, tensor<8xf32>, tensor<8x64xf32>) {
      %kb = arith.muli %bi, %c64 : index
      %tk = ktdp.construct_access_tile %K[%kb, 0] {access_tile_set = #kv_blk, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<64x64xindex>
      %tv = ktdp.construct_access_tile %V[%kb, 0] {access_tile_set = #kv_blk, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<64x64xindex>
      %kh = ktdp.load %tk : <64x64xindex> -> tensor<64x64xf16>
      %vh = ktdp.load %tv : <64x64xindex> -> tensor<64x64xf16>
      %k = arith.extf %kh : tensor<64x64xf16> to tensor<64x64xf32>
      %v = arith.extf %vh : tensor<64x64xf16> to tensor<64x64xf32>
      %kt_init = tensor.empty() : tensor<64x64xf32>
      %kt = linalg.transpose ins(%k : tensor<64x64xf32>) outs(%kt_init : tensor<64x64xf32>) permutation = [1, 0]
      %z_s = linalg.fill ins(%zero : f32) outs(%e_s : tensor<8x64xf32>) -> tensor<8x64xf32>
      %qk = linalg.matmul ins(%q, %kt : tensor<8x64xf32>, tensor<64x64xf32>) outs(%z_s : tensor<8x64xf32>) -> tensor<8x64xf32>
      %scale_t = tensor.splat %scale : tensor<8x64xf32>
      %s = arith.mulf %qk, %scale_t : tensor<8x64xf32>
      %masked = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%s : tensor<8x64xf32>) outs(%e_s : tensor<8x64xf32>) {
        ^bb0(%val: f32, %out: f32):
          %i = linalg.index 0 : index
          %j = linalg.index 1 : index
          %qi = arith.addi %q0, %i : index
          %kj = arith.addi %kb, %j : index
          %visible = arith.cmpi ule, %kj, %qi : index
          %r = arith.select %visible, %val, %ninf : f32
          linalg.yield %r : f32
      } -> tensor<8x64xf32>
      %mb_init = linalg.fill ins(%ninf : f32) outs(%e16 : tensor<8xf32>) -> tensor<8xf32>
      %mb = linalg.reduce ins(%masked : tensor<8x64xf32>) outs(%mb_init : tensor<8xf32>) dimensions = [1]
        (%a : f32, %b : f32) {
          %gt = arith.cmpf ogt, %a, %b : f32
          %mx = arith.select %gt, %a, %b : f32
          linalg.yield %mx : f32
        }
      %m_new = arith.maximumf %m_run, %mb : tensor<8xf32>
      %p = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%masked, %m_new : tensor<8x64xf32>, tensor<8xf32>) outs(%e_s : tensor<8x64xf32>) {
        ^bb0(%val: f32, %mi: f32, %out: f32):
          %d = arith.subf %val, %mi : f32
          %ex = math.exp %d : f32
          linalg.yield %ex : f32
      } -> tensor<8x64xf32>
      %dm = arith.subf %m_run, %m_new : tensor<8xf32>
      %alpha = math.exp %dm : tensor<8xf32>
      %ps_init = linalg.fill ins(%zero : f32) outs(%e16 : tensor<8xf32>) -> tensor<8xf32>
      %ps = linalg.reduce { arith.addf } ins(%p : tensor<8x64xf32>) outs(%ps_init : tensor<8xf32>) dimensions = [1]
      %l_scaled = arith.mulf %l_run, %alpha : tensor<8xf32>
      %l_new = arith.addf %l_scaled, %ps : tensor<8xf32>
      %acc_scaled = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%acc_run, %alpha : tensor<8x64xf32>, tensor<8xf32>) outs(%e_s : tensor<8x64xf32>) {
        ^bb0(%a_in: f32, %al: f32, %out: f32):
          %r = arith.mulf %a_in, %al : f32
          linalg.yield %r : f32
      } -> tensor<8x64xf32>
      %acc_new = linalg.matmul ins(%p, %v : tensor<8x64xf32>, tensor<64x64xf32>) outs(%acc_scaled : tensor<8x64xf32>) -> tensor<8x64xf32>
      scf.yield %m_new, %l_new, %acc_new : tensor<8xf32>, tensor<8xf32>, tensor<8x64xf32>
    }
    %lb = linalg.broadcast ins(%l : tensor<8xf32>) outs(%e_s : tensor<8x64xf32>) dimensions = [1]
    %o = arith.divf %acc, %lb : tensor<8x64xf32>
    %oh = arith.truncf %o : tensor<8x64xf32> to tensor<8x64xf16>
    %to = ktdp.construct_access_tile %O[%q0, 0] {access_tile_set = #q_blk, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<8x64xindex>
    ktdp.store %oh, %to : tensor<8x64xf16>, <8x64xindex>
    return
  }
}
