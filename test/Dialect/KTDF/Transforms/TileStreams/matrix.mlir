// RUN: ktflow-opt %s -split-input-file --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams -verify-diagnostics | FileCheck %s

// A compute group holding a matrix product runs on whole tiles: each
// operand arrives as one FIFO entry and the unit multiplies the tiles in
// waves of its block. Where it runs and the block come from the device:
// the lane's matrix unit when it multiplies the operand type and the group
// does no element-wise work, else the lane's vector unit. Each product is
// annotated with the decision: the engine's block M x N x K, the waves
// (ceil(16/M) * ceil(16/N) * ceil(32/K)) and the cycles the simulator
// charges (fill M + N - 1, then waves * M*N*K / rate; a vector unit
// 16*16*32 / its f32 lanes).

// spyre_like's PT, 8x8x8 f16 at 64 MACs/cycle: 2 * 2 * 4 = 16 waves of 8
// cycles after a fill of 15.
// CHECK-LABEL: func.func @product
// CHECK: ktdf.stage "feed"
// CHECK-SAME: unit "core/corelet/LXLU"
// CHECK-NEXT: ktdf.data_transfer %{{.*}} : memref<16x32xf16, "LX"> to !ktdf.fifo.slot<"core/corelet/LXLU" -> "core/corelet/PT", 16x32xf16>
// CHECK-NEXT: ktdf.data_transfer %{{.*}} : memref<32x16xf16, "LX"> to !ktdf.fifo.slot<"core/corelet/LXLU" -> "core/corelet/PT", 32x16xf16>
// CHECK: applicable_units [matrix_compute] unit "core/corelet/PT"
// CHECK: ktdf.read_from_fifo {{.*}} -> tensor<16x32xf16>
// CHECK: ktdf.read_from_fifo {{.*}} -> tensor<32x16xf16>
// CHECK: linalg.matmul {ktdf.matrix_block = array<i64: 8, 8, 8>, ktdf.matrix_cycles = 143 : i64, ktdf.matrix_waves = 16 : i64}
// CHECK: ktdf.write_to_fifo {{.*}} : tensor<16x16xf32>
#ab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#ba = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#cc = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @product(%a: index, %b: index, %c: index) attributes {grid = [1]} {
    %A = ktdp.construct_memory_view %a, sizes: [16, 32], strides: [32, 1] {coordinate_set = #ab, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
    %B = ktdp.construct_memory_view %b, sizes: [32, 16], strides: [16, 1] {coordinate_set = #ba, memory_space = #ktdp.memory_space<global>} : memref<32x16xf16>
    %C = ktdp.construct_memory_view %c, sizes: [16, 16], strides: [16, 1] {coordinate_set = #cc, memory_space = #ktdp.memory_space<global>} : memref<16x16xf32>
    %ta = ktdp.construct_access_tile %A[0, 0] {access_tile_set = #ab, access_tile_order = #id2} : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
    %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #ba, access_tile_order = #id2} : memref<32x16xf16> -> !ktdp.access_tile<32x16xindex>
    %tc = ktdp.construct_access_tile %C[0, 0] {access_tile_set = #cc, access_tile_order = #id2} : memref<16x16xf32> -> !ktdp.access_tile<16x16xindex>
    %x = ktdp.load %ta : <16x32xindex> -> tensor<16x32xf16>
    %y = ktdp.load %tb : <32x16xindex> -> tensor<32x16xf16>
    %e = tensor.empty() : tensor<16x16xf32>
    %p = linalg.matmul ins(%x, %y : tensor<16x32xf16>, tensor<32x16xf16>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
    ktdp.store %p, %tc : tensor<16x16xf32>, <16x16xindex>
    return
  }
}

// -----

// mesh_device's MXU, 16x16x4 at a stated 128 f16 MACs/cycle: 1 * 1 * 8
// waves of 16*16*4 / 128 = 8 cycles after a fill of 31.
// CHECK-LABEL: func.func @product
// CHECK: applicable_units [matrix_compute] unit "tile/MXU"
// CHECK: linalg.matmul {ktdf.matrix_block = array<i64: 16, 16, 4>, ktdf.matrix_cycles = 95 : i64, ktdf.matrix_waves = 8 : i64}
#ab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#ba = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#cc = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @product(%a: index, %b: index, %c: index) attributes {grid = [1]} {
    %A = ktdp.construct_memory_view %a, sizes: [16, 32], strides: [32, 1] {coordinate_set = #ab, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
    %B = ktdp.construct_memory_view %b, sizes: [32, 16], strides: [16, 1] {coordinate_set = #ba, memory_space = #ktdp.memory_space<global>} : memref<32x16xf16>
    %C = ktdp.construct_memory_view %c, sizes: [16, 16], strides: [16, 1] {coordinate_set = #cc, memory_space = #ktdp.memory_space<global>} : memref<16x16xf32>
    %ta = ktdp.construct_access_tile %A[0, 0] {access_tile_set = #ab, access_tile_order = #id2} : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
    %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #ba, access_tile_order = #id2} : memref<32x16xf16> -> !ktdp.access_tile<32x16xindex>
    %tc = ktdp.construct_access_tile %C[0, 0] {access_tile_set = #cc, access_tile_order = #id2} : memref<16x16xf32> -> !ktdp.access_tile<16x16xindex>
    %x = ktdp.load %ta : <16x32xindex> -> tensor<16x32xf16>
    %y = ktdp.load %tb : <32x16xindex> -> tensor<32x16xf16>
    %e = tensor.empty() : tensor<16x16xf32>
    %p = linalg.matmul ins(%x, %y : tensor<16x32xf16>, tensor<32x16xf16>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
    ktdp.store %p, %tc : tensor<16x16xf32>, <16x16xindex>
    return
  }
}

// -----

// sample_device has no matrix unit: the SFU multiplies at its 32 f32
// lanes, 16 * 16 * 32 / 32 = 256 cycles, no block and no fill.
// CHECK-LABEL: func.func @product
// CHECK: applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU"
// CHECK: linalg.matmul {ktdf.matrix_cycles = 256 : i64}
#ab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#ba = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#cc = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
  func.func @product(%a: index, %b: index, %c: index) attributes {grid = [1]} {
    %A = ktdp.construct_memory_view %a, sizes: [16, 32], strides: [32, 1] {coordinate_set = #ab, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
    %B = ktdp.construct_memory_view %b, sizes: [32, 16], strides: [16, 1] {coordinate_set = #ba, memory_space = #ktdp.memory_space<global>} : memref<32x16xf16>
    %C = ktdp.construct_memory_view %c, sizes: [16, 16], strides: [16, 1] {coordinate_set = #cc, memory_space = #ktdp.memory_space<global>} : memref<16x16xf32>
    %ta = ktdp.construct_access_tile %A[0, 0] {access_tile_set = #ab, access_tile_order = #id2} : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
    %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #ba, access_tile_order = #id2} : memref<32x16xf16> -> !ktdp.access_tile<32x16xindex>
    %tc = ktdp.construct_access_tile %C[0, 0] {access_tile_set = #cc, access_tile_order = #id2} : memref<16x16xf32> -> !ktdp.access_tile<16x16xindex>
    %x = ktdp.load %ta : <16x32xindex> -> tensor<16x32xf16>
    %y = ktdp.load %tb : <32x16xindex> -> tensor<32x16xf16>
    %e = tensor.empty() : tensor<16x16xf32>
    %p = linalg.matmul ins(%x, %y : tensor<16x32xf16>, tensor<32x16xf16>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
    ktdp.store %p, %tc : tensor<16x16xf32>, <16x16xindex>
    return
  }
}

// -----

// f32 operands: spyre_like's PT multiplies f16 only, so the product goes
// to the SFP (32 f32 lanes): 16 * 16 * 32 / 32 = 256 cycles.
// CHECK-LABEL: func.func @product_f32
// CHECK: applicable_units [vector_compute] unit "core/corelet/SFP"
// CHECK: linalg.matmul {ktdf.matrix_cycles = 256 : i64}
#ab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#ba = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#cc = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @product_f32(%a: index, %b: index, %c: index) attributes {grid = [1]} {
    %A = ktdp.construct_memory_view %a, sizes: [16, 32], strides: [32, 1] {coordinate_set = #ab, memory_space = #ktdp.memory_space<global>} : memref<16x32xf32>
    %B = ktdp.construct_memory_view %b, sizes: [32, 16], strides: [16, 1] {coordinate_set = #ba, memory_space = #ktdp.memory_space<global>} : memref<32x16xf32>
    %C = ktdp.construct_memory_view %c, sizes: [16, 16], strides: [16, 1] {coordinate_set = #cc, memory_space = #ktdp.memory_space<global>} : memref<16x16xf32>
    %ta = ktdp.construct_access_tile %A[0, 0] {access_tile_set = #ab, access_tile_order = #id2} : memref<16x32xf32> -> !ktdp.access_tile<16x32xindex>
    %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #ba, access_tile_order = #id2} : memref<32x16xf32> -> !ktdp.access_tile<32x16xindex>
    %tc = ktdp.construct_access_tile %C[0, 0] {access_tile_set = #cc, access_tile_order = #id2} : memref<16x16xf32> -> !ktdp.access_tile<16x16xindex>
    %x = ktdp.load %ta : <16x32xindex> -> tensor<16x32xf32>
    %y = ktdp.load %tb : <32x16xindex> -> tensor<32x16xf32>
    %e = tensor.empty() : tensor<16x16xf32>
    %p = linalg.matmul ins(%x, %y : tensor<16x32xf32>, tensor<32x16xf32>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
    ktdp.store %p, %tc : tensor<16x16xf32>, <16x16xindex>
    return
  }
}

// -----

// bf16 operands on spyre_like: neither its PT (f16 only) nor its SFP (no
// bf16 lanes) multiplies them.
#ab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#ba = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#cc = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @product_bf16(%a: index, %b: index, %c: index) attributes {grid = [1]} {
    %A = ktdp.construct_memory_view %a, sizes: [16, 32], strides: [32, 1] {coordinate_set = #ab, memory_space = #ktdp.memory_space<global>} : memref<16x32xbf16>
    %B = ktdp.construct_memory_view %b, sizes: [32, 16], strides: [16, 1] {coordinate_set = #ba, memory_space = #ktdp.memory_space<global>} : memref<32x16xbf16>
    %C = ktdp.construct_memory_view %c, sizes: [16, 16], strides: [16, 1] {coordinate_set = #cc, memory_space = #ktdp.memory_space<global>} : memref<16x16xf32>
    %ta = ktdp.construct_access_tile %A[0, 0] {access_tile_set = #ab, access_tile_order = #id2} : memref<16x32xbf16> -> !ktdp.access_tile<16x32xindex>
    %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #ba, access_tile_order = #id2} : memref<32x16xbf16> -> !ktdp.access_tile<32x16xindex>
    %tc = ktdp.construct_access_tile %C[0, 0] {access_tile_set = #cc, access_tile_order = #id2} : memref<16x16xf32> -> !ktdp.access_tile<16x16xindex>
    %x = ktdp.load %ta : <16x32xindex> -> tensor<16x32xbf16>
    %y = ktdp.load %tb : <32x16xindex> -> tensor<32x16xbf16>
    %e = tensor.empty() : tensor<16x16xf32>
    // expected-error @+1 {{the vector unit 'core/corelet/SFP' of device 'spyre_like' does not multiply bf16 matrices}}
    %p = linalg.matmul ins(%x, %y : tensor<16x32xbf16>, tensor<32x16xbf16>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
    ktdp.store %p, %tc : tensor<16x16xf32>, <16x16xindex>
    return
  }
}

// -----

// A batched product of one batch per tile is the matrix product of its
// trailing dimensions: 1x16x32 . 1x32x16 on spyre_like's PT takes the
// 16x32 . 32x16 product's 16 waves and 143 cycles. The second operand is
// read through a transposed access tile (B stored [batch, n, k]).
// CHECK-LABEL: func.func @batched
// CHECK: applicable_units [matrix_compute] unit "core/corelet/PT"
// CHECK: ktdf.read_from_fifo {{.*}} -> tensor<1x16x32xf16>
// CHECK: ktdf.read_from_fifo {{.*}} -> tensor<1x32x16xf16>
// CHECK: linalg.batch_matmul {ktdf.matrix_block = array<i64: 8, 8, 8>, ktdf.matrix_cycles = 143 : i64, ktdf.matrix_waves = 16 : i64}
// CHECK: ktdf.write_to_fifo {{.*}} : tensor<1x16x16xf32>
#ab = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#cc = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#ab_tile = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#cc_tile = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#swap = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @batched(%a: index, %bt: index, %c: index) attributes {grid = [2]} {
    %b = ktdp.get_compute_tile_id : index
    %A = ktdp.construct_memory_view %a, sizes: [2, 16, 32], strides: [512, 32, 1] {coordinate_set = #ab, memory_space = #ktdp.memory_space<global>} : memref<2x16x32xf16>
    %Bt = ktdp.construct_memory_view %bt, sizes: [2, 16, 32], strides: [512, 32, 1] {coordinate_set = #ab, memory_space = #ktdp.memory_space<global>} : memref<2x16x32xf16>
    %C = ktdp.construct_memory_view %c, sizes: [2, 16, 16], strides: [256, 16, 1] {coordinate_set = #cc, memory_space = #ktdp.memory_space<global>} : memref<2x16x16xf32>
    %ta = ktdp.construct_access_tile %A[%b, 0, 0] {access_tile_set = #ab_tile, access_tile_order = #id3} : memref<2x16x32xf16> -> !ktdp.access_tile<1x16x32xindex>
    %tb = ktdp.construct_access_tile %Bt[%b, 0, 0] {access_tile_set = #ab_tile, access_tile_order = #swap} : memref<2x16x32xf16> -> !ktdp.access_tile<1x32x16xindex>
    %tc = ktdp.construct_access_tile %C[%b, 0, 0] {access_tile_set = #cc_tile, access_tile_order = #id3} : memref<2x16x16xf32> -> !ktdp.access_tile<1x16x16xindex>
    %x = ktdp.load %ta : <1x16x32xindex> -> tensor<1x16x32xf16>
    %y = ktdp.load %tb : <1x32x16xindex> -> tensor<1x32x16xf16>
    %e = tensor.empty() : tensor<1x16x16xf32>
    %p = linalg.batch_matmul ins(%x, %y : tensor<1x16x32xf16>, tensor<1x32x16xf16>) outs(%e : tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
    ktdp.store %p, %tc : tensor<1x16x16xf32>, <1x16x16xindex>
    return
  }
}
