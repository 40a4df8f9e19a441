// RUN: ktflow-opt %s --ktdf-import-target --ktdf-share-left-operands | FileCheck %s --check-prefix=LANES
// RUN: ktflow-opt %s --ktdf-import-target --ktdf-share-left-operands=use-lanes=false | FileCheck %s --check-prefix=CORES

// The copies per point count the lanes as ktdf-distribute will (the
// tuner's `lanes=off` turns both off): a gated FFN of 16 points of 8 rows
// on spyre_like, 256 output columns (4 slices of 64 at most). With every
// lane, 64 instances give each point 4 copies (64 tiles, one per lane);
// with one lane per core, 32 instances give it 2 (32 tiles, one per core),
// where 4 copies would put two tiles on a core's one lane, which
// ktdf-merge-exchange-tiles cannot merge around the gates' all-reduce.

// LANES-LABEL: func.func @gated_rows
// LANES-SAME: grid = [16, 4]
// LANES: ktdf.all_reduce {{.*}} groups = [array<i64: 0, 16, 32, 48>,
// CORES-LABEL: func.func @gated_rows
// CORES-SAME: grid = [16, 2]
// CORES: ktdf.all_reduce {{.*}} groups = [array<i64: 0, 16>,
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#up_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#down_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#x_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#up_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#down_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @gated_rows(%x_ptr: index, %w1_ptr: index, %w2_ptr: index, %out_ptr: index) attributes {grid = [16]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f16
    %row0 = arith.muli %pid, %c8 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [128, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [256, 512], strides: [512, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<256x512xf16>
    %W2 = ktdp.construct_memory_view %w2_ptr, sizes: [512, 256], strides: [256, 1] {coordinate_set = #down_set, memory_space = #ktdp.memory_space<global>} : memref<512x256xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [128, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #x_blk, access_tile_order = #id2} : memref<128x256xf16> -> !ktdp.access_tile<8x256xindex>
    %x = ktdp.load %tx : <8x256xindex> -> tensor<8x256xf16>
    %empty = tensor.empty() : tensor<8x256xf16>
    %e64 = tensor.empty() : tensor<8x64xf16>
    %acc0 = linalg.fill ins(%zero : f16) outs(%empty : tensor<8x256xf16>) -> tensor<8x256xf16>
    %acc = scf.for %j = %c0 to %c512 step %c64 iter_args(%running = %acc0) -> (tensor<8x256xf16>) {
      %t1 = ktdp.construct_access_tile %W1[0, %j] {access_tile_set = #up_blk, access_tile_order = #id2} : memref<256x512xf16> -> !ktdp.access_tile<256x64xindex>
      %t2 = ktdp.construct_access_tile %W2[%j, 0] {access_tile_set = #down_blk, access_tile_order = #id2} : memref<512x256xf16> -> !ktdp.access_tile<64x256xindex>
      %w1 = ktdp.load %t1 : <256x64xindex> -> tensor<256x64xf16>
      %w2 = ktdp.load %t2 : <64x256xindex> -> tensor<64x256xf16>
      %z1 = linalg.fill ins(%zero : f16) outs(%e64 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %h1 = linalg.matmul ins(%x, %w1 : tensor<8x256xf16>, tensor<256x64xf16>) outs(%z1 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %gate = math.exp %h1 : tensor<8x64xf16>
      %next = linalg.matmul ins(%gate, %w2 : tensor<8x64xf16>, tensor<64x256xf16>) outs(%running : tensor<8x256xf16>) -> tensor<8x256xf16>
      scf.yield %next : tensor<8x256xf16>
    }
    %res = arith.addf %x, %acc : tensor<8x256xf16>
    %to = ktdp.construct_access_tile %OUT[%row0, 0] {access_tile_set = #x_blk, access_tile_order = #id2} : memref<128x256xf16> -> !ktdp.access_tile<8x256xindex>
    ktdp.store %res, %to : tensor<8x256xf16>, <8x256xindex>
    return
  }
}
