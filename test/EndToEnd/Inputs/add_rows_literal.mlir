// add_rows_literal.mlir - RFC-style "add in a loop" at literal addresses:
// no arguments and no grid, so the kernel runs on one tile
// (ktir-field-guide.md §1a.6), walking four 2x64 row blocks.
//
// Computes, for i < 8, j < 64, in f16 (one rounding):
//   OUT[i, j] = A[i, j] + B[i, j]
// Every tensor sits at a literal element address of its own, f16 each,
// byte ranges disjoint:
//   @0     A:   8x64 f16 (input)
//   @1024  B:   8x64 f16 (input)
//   @2048  OUT: 8x64 f16 (output)

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add_loop() {
    %a_addr = arith.constant 0 : index      // A
    %b_addr = arith.constant 1024 : index   // B
    %out_addr = arith.constant 2048 : index // OUT
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %A = ktdp.construct_memory_view %a_addr, sizes: [8, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %B = ktdp.construct_memory_view %b_addr, sizes: [8, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %OUT = ktdp.construct_memory_view %out_addr, sizes: [8, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    scf.for %i = %c0 to %c8 step %c2 {
      %ta = ktdp.construct_access_tile %A[%i, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<2x64xindex>
      %tb = ktdp.construct_access_tile %B[%i, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<2x64xindex>
      %to = ktdp.construct_access_tile %OUT[%i, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<2x64xindex>
      %a = ktdp.load %ta : <2x64xindex> -> tensor<2x64xf16>
      %b = ktdp.load %tb : <2x64xindex> -> tensor<2x64xf16>
      %s = arith.addf %a, %b : tensor<2x64xf16>
      ktdp.store %s, %to : tensor<2x64xf16>, <2x64xindex>
      scf.yield
    }
    return
  }
}
