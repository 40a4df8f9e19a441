// RUN: ktflow-opt %s --ktdf-import-target --ktdf-share-left-operands --ktdf-merge-exchange-tiles=use-lanes=false -verify-diagnostics

// ktdf-share-left-operands writes each copy's gates into the exchange view
// trip by trip, inside the loop: merged tiles would write their pieces
// into the one view they share instead of folding them, so a kernel whose
// copies outnumber the lanes is refused at the loop (the store's location)
// rather than cut. Here share-left-operands counts every lane of
// spyre_like (16 points x 4 copies) and the merge one lane per core (32);
// the compile pipeline gives both the same count (the tuner's `lanes=off`
// once left this mismatch to a dominance error).

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
    // expected-error @+1 {{a lane runs several tiles (64 tiles on 32 lanes): the partial is one value stored into the exchange's views before it, not stored inside a loop or a branch}}
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
