// RUN: ktflow-opt %s -split-input-file --ktdf-mapping=O0=true | FileCheck %s --check-prefix=MAP
// RUN: ktflow-opt %s -split-input-file --ktdf-mapping=O0=true --ktdf-route-transfers | FileCheck %s

// At -O0: optimized, ktdf-split-wide-reductions first cuts these one-point
// FFNs' hidden columns over the cores (SplitWideReductions/contraction.mlir);
// each part's group is split the same way.

// A gated projection in one compute group: two products, the SiLU of the
// first times the second, and a down projection of the gate. spyre_like's
// PT multiplies f16 but has no element-wise datapath, and its SFP and PT
// are both fed from and drained into LX, where ct_local lives: the group
// is cut into the up projections (PT), the gate (SFP) and the down
// projection (PT), which hand each other the two projections and the gate
// through three ktdf.handover views in LX. %x, used by both up
// projections, stays one load in their part.

// MAP-LABEL: func.func @gated
// MAP-COUNT-3: ktdf.handover, ktdf.memory = "LX", memory_space = #ktdp.memory_space<ct_local
// MAP: ktdf.pipeline {
// MAP-COUNT-3: ktdf.data_transfer {{.*}} to !ktdf.fifo.slot<DDR -> vector_compute
// MAP: linalg.matmul
// MAP-NEXT: linalg.matmul
// MAP-NEXT: ktdf.write_to_fifo {{.*}} to !ktdf.fifo.slot<vector_compute -> LX, 8x64xf16>
// MAP-NEXT: ktdf.write_to_fifo {{.*}} to !ktdf.fifo.slot<vector_compute -> LX, 8x64xf16>
// MAP: ktdf.pipeline {
// MAP-COUNT-2: ktdf.data_transfer {{.*}} to !ktdf.fifo.slot<LX -> vector_compute, 8x64xf16>
// MAP-NOT: linalg.matmul
// MAP: math.exp
// MAP: ktdf.write_to_fifo {{.*}} to !ktdf.fifo.slot<vector_compute -> LX, 8x64xf16>
// MAP: ktdf.pipeline {
// MAP: ktdf.data_transfer {{.*}} to !ktdf.fifo.slot<LX -> vector_compute, 8x64xf16>
// MAP-NOT: linalg.generic
// MAP: linalg.matmul
// MAP-NOT: ktdf.pipeline
// MAP: return

// CHECK-LABEL: func.func @gated
// CHECK: ktdf.stage "compute" {{.*}} applicable_units [matrix_compute] unit "core/corelet/PT"
// CHECK: ktdf.stage "compute" {{.*}} applicable_units [vector_compute] unit "core/corelet/SFP"
// CHECK: ktdf.stage "compute" {{.*}} applicable_units [matrix_compute] unit "core/corelet/PT"
#xs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ws = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @gated(%xp: index, %w1p: index, %w3p: index, %w2p: index, %op: index) attributes {grid = [1]} {
    %X = ktdp.construct_memory_view %xp, sizes: [8, 64], strides: [64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %W1 = ktdp.construct_memory_view %w1p, sizes: [64, 64], strides: [64, 1] {coordinate_set = #ws, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %W3 = ktdp.construct_memory_view %w3p, sizes: [64, 64], strides: [64, 1] {coordinate_set = #ws, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %W2 = ktdp.construct_memory_view %w2p, sizes: [64, 64], strides: [64, 1] {coordinate_set = #ws, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %O = ktdp.construct_memory_view %op, sizes: [8, 64], strides: [64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #xs, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    %t1 = ktdp.construct_access_tile %W1[0, 0] {access_tile_set = #ws, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %t3 = ktdp.construct_access_tile %W3[0, 0] {access_tile_set = #ws, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %t2 = ktdp.construct_access_tile %W2[0, 0] {access_tile_set = #ws, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %to = ktdp.construct_access_tile %O[0, 0] {access_tile_set = #xs, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    %x = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
    %w1 = ktdp.load %t1 : <64x64xindex> -> tensor<64x64xf16>
    %w3 = ktdp.load %t3 : <64x64xindex> -> tensor<64x64xf16>
    %w2 = ktdp.load %t2 : <64x64xindex> -> tensor<64x64xf16>
    %zero = arith.constant dense<0.0> : tensor<8x64xf16>
    %one = arith.constant dense<1.0> : tensor<8x64xf16>
    %h1 = linalg.matmul ins(%x, %w1 : tensor<8x64xf16>, tensor<64x64xf16>) outs(%zero : tensor<8x64xf16>) -> tensor<8x64xf16>
    %h3 = linalg.matmul ins(%x, %w3 : tensor<8x64xf16>, tensor<64x64xf16>) outs(%zero : tensor<8x64xf16>) -> tensor<8x64xf16>
    %neg = arith.negf %h1 : tensor<8x64xf16>
    %ex = math.exp %neg : tensor<8x64xf16>
    %den = arith.addf %one, %ex : tensor<8x64xf16>
    %sig = arith.divf %one, %den : tensor<8x64xf16>
    %silu = arith.mulf %h1, %sig : tensor<8x64xf16>
    %g = arith.mulf %silu, %h3 : tensor<8x64xf16>
    %out = linalg.matmul ins(%g, %w2 : tensor<8x64xf16>, tensor<64x64xf16>) outs(%zero : tensor<8x64xf16>) -> tensor<8x64xf16>
    ktdp.store %out, %to : tensor<8x64xf16>, <8x64xindex>
    return
  }
}

// -----

// sample_device has no matrix unit: the group stays whole, one pipeline
// on the SFU, and no handover view is made.
// MAP-LABEL: func.func @gated
// MAP-NOT: ktdf.handover
// MAP: ktdf.pipeline {
// MAP-NOT: ktdf.pipeline
// MAP: return
// CHECK-LABEL: func.func @gated
// CHECK: ktdf.stage "compute" {{.*}} applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU"
// CHECK-NOT: ktdf.stage "compute"
#xs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ws = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
  func.func @gated(%xp: index, %w1p: index, %w3p: index, %w2p: index, %op: index) attributes {grid = [1]} {
    %X = ktdp.construct_memory_view %xp, sizes: [8, 64], strides: [64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %W1 = ktdp.construct_memory_view %w1p, sizes: [64, 64], strides: [64, 1] {coordinate_set = #ws, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %W3 = ktdp.construct_memory_view %w3p, sizes: [64, 64], strides: [64, 1] {coordinate_set = #ws, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %W2 = ktdp.construct_memory_view %w2p, sizes: [64, 64], strides: [64, 1] {coordinate_set = #ws, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %O = ktdp.construct_memory_view %op, sizes: [8, 64], strides: [64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #xs, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    %t1 = ktdp.construct_access_tile %W1[0, 0] {access_tile_set = #ws, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %t3 = ktdp.construct_access_tile %W3[0, 0] {access_tile_set = #ws, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %t2 = ktdp.construct_access_tile %W2[0, 0] {access_tile_set = #ws, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %to = ktdp.construct_access_tile %O[0, 0] {access_tile_set = #xs, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    %x = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
    %w1 = ktdp.load %t1 : <64x64xindex> -> tensor<64x64xf16>
    %w3 = ktdp.load %t3 : <64x64xindex> -> tensor<64x64xf16>
    %w2 = ktdp.load %t2 : <64x64xindex> -> tensor<64x64xf16>
    %zero = arith.constant dense<0.0> : tensor<8x64xf16>
    %one = arith.constant dense<1.0> : tensor<8x64xf16>
    %h1 = linalg.matmul ins(%x, %w1 : tensor<8x64xf16>, tensor<64x64xf16>) outs(%zero : tensor<8x64xf16>) -> tensor<8x64xf16>
    %h3 = linalg.matmul ins(%x, %w3 : tensor<8x64xf16>, tensor<64x64xf16>) outs(%zero : tensor<8x64xf16>) -> tensor<8x64xf16>
    %neg = arith.negf %h1 : tensor<8x64xf16>
    %ex = math.exp %neg : tensor<8x64xf16>
    %den = arith.addf %one, %ex : tensor<8x64xf16>
    %sig = arith.divf %one, %den : tensor<8x64xf16>
    %silu = arith.mulf %h1, %sig : tensor<8x64xf16>
    %g = arith.mulf %silu, %h3 : tensor<8x64xf16>
    %out = linalg.matmul ins(%g, %w2 : tensor<8x64xf16>, tensor<64x64xf16>) outs(%zero : tensor<8x64xf16>) -> tensor<8x64xf16>
    ktdp.store %out, %to : tensor<8x64xf16>, <8x64xindex>
    return
  }
}

// -----

// The gate is also stored, after the down projection: the element-wise
// part, one pipeline placed after its last op (that store), would run
// after the product it feeds, so the group stays whole, on the SFP.
// MAP-LABEL: func.func @late
// MAP-NOT: ktdf.handover
// MAP: ktdf.pipeline {
// MAP-NOT: ktdf.pipeline
// MAP: return
// CHECK-LABEL: func.func @late
// CHECK: ktdf.stage "compute" {{.*}} applicable_units [vector_compute] unit "core/corelet/SFP"
// CHECK-NOT: ktdf.stage "compute"
#xs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ws = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @late(%xp: index, %yp: index, %w1p: index, %w3p: index, %w2p: index, %op: index) attributes {grid = [1]} {
    %X = ktdp.construct_memory_view %xp, sizes: [8, 64], strides: [64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %W1 = ktdp.construct_memory_view %w1p, sizes: [64, 64], strides: [64, 1] {coordinate_set = #ws, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %W3 = ktdp.construct_memory_view %w3p, sizes: [64, 64], strides: [64, 1] {coordinate_set = #ws, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %W2 = ktdp.construct_memory_view %w2p, sizes: [64, 64], strides: [64, 1] {coordinate_set = #ws, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %O = ktdp.construct_memory_view %op, sizes: [8, 64], strides: [64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %Y = ktdp.construct_memory_view %yp, sizes: [8, 64], strides: [64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #xs, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #xs, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    %t1 = ktdp.construct_access_tile %W1[0, 0] {access_tile_set = #ws, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %t3 = ktdp.construct_access_tile %W3[0, 0] {access_tile_set = #ws, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %t2 = ktdp.construct_access_tile %W2[0, 0] {access_tile_set = #ws, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %to = ktdp.construct_access_tile %O[0, 0] {access_tile_set = #xs, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    %x = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
    %w1 = ktdp.load %t1 : <64x64xindex> -> tensor<64x64xf16>
    %w3 = ktdp.load %t3 : <64x64xindex> -> tensor<64x64xf16>
    %w2 = ktdp.load %t2 : <64x64xindex> -> tensor<64x64xf16>
    %zero = arith.constant dense<0.0> : tensor<8x64xf16>
    %one = arith.constant dense<1.0> : tensor<8x64xf16>
    %h1 = linalg.matmul ins(%x, %w1 : tensor<8x64xf16>, tensor<64x64xf16>) outs(%zero : tensor<8x64xf16>) -> tensor<8x64xf16>
    %h3 = linalg.matmul ins(%x, %w3 : tensor<8x64xf16>, tensor<64x64xf16>) outs(%zero : tensor<8x64xf16>) -> tensor<8x64xf16>
    %neg = arith.negf %h1 : tensor<8x64xf16>
    %ex = math.exp %neg : tensor<8x64xf16>
    %den = arith.addf %one, %ex : tensor<8x64xf16>
    %sig = arith.divf %one, %den : tensor<8x64xf16>
    %silu = arith.mulf %h1, %sig : tensor<8x64xf16>
    %g = arith.mulf %silu, %h3 : tensor<8x64xf16>
    %out = linalg.matmul ins(%g, %w2 : tensor<8x64xf16>, tensor<64x64xf16>) outs(%zero : tensor<8x64xf16>) -> tensor<8x64xf16>
    ktdp.store %out, %to : tensor<8x64xf16>, <8x64xindex>
    ktdp.store %g, %ty : tensor<8x64xf16>, <8x64xindex>
    return
  }
}
