// gather2d_literal.mlir - RFC-style two-dimensional gather at literal
// addresses: both coordinates of every element come from index matrices.
//
// Computes, for m < 32, k < 32 (a pure f16 copy):
//   OUT[m, k] = SRC[ROWS[m, k], COLS[m, k]]
// with ROWS and COLS i32 in [0, 64) (`range:0:64`).
//
// No arguments and no grid: the kernel runs on one tile, and every tensor
// sits at a literal element address of its own element type, chosen so the
// byte ranges are disjoint whether addresses are read per element type or as
// bytes:
//   @0      SRC:  64x64 f16 (input)
//   @4096   ROWS: 32x32 i32 (input)
//   @8192   COLS: 32x32 i32 (input)
//   @32768  OUT:  32x32 f16 (output)

#src_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#sq32 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @gather_2d() {
    %src_addr = arith.constant 0 : index     // SRC
    %rows_addr = arith.constant 4096 : index // ROWS
    %cols_addr = arith.constant 8192 : index // COLS
    %out_addr = arith.constant 32768 : index // OUT
    %SRC = ktdp.construct_memory_view %src_addr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #src_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %ROWS = ktdp.construct_memory_view %rows_addr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #sq32, memory_space = #ktdp.memory_space<global>} : memref<32x32xi32>
    %COLS = ktdp.construct_memory_view %cols_addr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #sq32, memory_space = #ktdp.memory_space<global>} : memref<32x32xi32>
    %OUT = ktdp.construct_memory_view %out_addr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #sq32, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
    %g = ktdp.construct_indirect_access_tile intermediate_variables (%m, %k) %SRC[ind(%ROWS[%m, %k]), ind(%COLS[%m, %k])] {variables_space_set = #sq32, variables_space_order = #id2} : memref<64x64xf16>, memref<32x32xi32>, memref<32x32xi32> -> !ktdp.access_tile<32x32xindex>
    %t = ktdp.construct_access_tile %OUT[0, 0] {access_tile_set = #sq32, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
    %v = ktdp.load %g : <32x32xindex> -> tensor<32x32xf16>
    ktdp.store %v, %t : tensor<32x32xf16>, <32x32xindex>
    return
  }
}
