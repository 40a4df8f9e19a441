// A gather that is only stored moves DMA -> scratchpad -> DMA, no load,
// compute or store unit (ktdf-route-transfers), and rows that follow each
// other in device memory move as one DMA (IndirectDma.cpp).
//
// Y[t, d] = X[Idx[t floordiv 4], t mod 4, d] for t < 8, d < 32 (f16): two
// pages of 4 rows of 64 bytes, Idx = (2, 0).
// RUN: python3 %S/../Simulator/Inputs/check_npy.py --write %t.idx.npy "<i4" 2 "(2, 0)[i]"
// RUN: ktflow run %s --arch %examples/devices/sample_device.mlir --check --input x=seq:0:512 --input idx=%t.idx.npy --output y=%t.y.npy --units | FileCheck %s
// RUN: python3 %S/../Simulator/Inputs/check_npy.py %t.y.npy "(2, 0)[i // 128] * 128 + i % 128" 256
// RUN: ktflow compile %s --arch %examples/devices/sample_device.mlir --emit=dataflow | FileCheck %s --check-prefix=DFIR
//
// Hand-computed on sample_device (DDR -> MNILU 64 B/cycle, latency 100;
// MNILU -> L1 64 B/cycle, latency 2; L1 -> MNISU -> DDR the same way
// back; 4 DMAs in flight per unit, so a DMA's unit moves on when its
// bytes have left):
//   MNILU: read_index Idx[0] (4 bytes): 4/64 + 100 = 100.0625; rows 1-3
//     of page 2 need the same index (not read again) and follow row 0 in
//     X, so they extend its run; read_index Idx[1]: 200.125; then the
//     run of page 2 (256 bytes) moves: 4 cycles to leave (204.125), lands
//     102 later (306.125); rows 5-7 extend page 0's run, which moves after
//     the loop: leaves at 208.125, lands at 310.125.
//   sync token to MNISU 1 cycle after the last landing: 311.125
//   MNISU: Y's 8 rows are contiguous: one DMA of 512 bytes, 8 cycles to
//     leave, lands 102 later (halt waits for it): 311.125 + 8 + 102 =
//     421.125; its `free` token reaches MNILU, which waits for it before
//     it halts, 1 cycle later: 422.125 cycles.
//   Busy: MNILU 200.125 of reads + 8 cycles of bytes leaving = 208.125,
//   520 bytes (8 of indices); MNISU 8 + 102 = 110, 512 bytes.
// CHECK: cycles: 423{{$}}
// The roofline's bytes: the pages Idx selects, 2 x 4 rows x 64 bytes,
// their 8 bytes of indices, and Y's 512 bytes written: 1032 (before the
// count read the launch's index values, the gathered pages were a gap:
// 520 bytes).
// CHECK: memory: 4 cycles (1032 bytes of device memory at 256 B/cycle)
// CHECK: core[0]/MNILU_Block/MNILU 208 214 423 {{[0-9.]+}} 520 {{[0-9]+$}}
// CHECK: core[0]/MNISU_Block/MNISU 110 311 422 {{[0-9.]+}} 512 {{[0-9]+$}}
// CHECK-NOT: L1LU
// CHECK-NOT: SFU
// CHECK: check y: 8x32 f16, max abs error 0.000e+00 PASS
//
// DFIR-NOT: "core[0]/subcore
// DFIR: dfir.unit "core[0]/MNILU_Block/MNILU"
// DFIR-COUNT-2: dfir.dma
// DFIR: dfir.unit "core[0]/MNISU_Block/MNISU"

#x_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#idx_set = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @gather_pages(%x: index, %idx: index, %y: index) {
  %X = ktdp.construct_memory_view %x, sizes: [4, 4, 32], strides: [128, 32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x4x32xf16>
  %Idx = ktdp.construct_memory_view %idx, sizes: [2], strides: [1] {coordinate_set = #idx_set, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
  %Y = ktdp.construct_memory_view %y, sizes: [8, 32], strides: [32, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
  %src = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d) %X[ind(%Idx[(%t floordiv 4)]), (%t mod 4), (%d)] {variables_space_set = #y_set, variables_space_order = #id2} : memref<4x4x32xf16>, memref<2xi32> -> !ktdp.access_tile<8x32xindex>
  %rows = ktdp.load %src : <8x32xindex> -> tensor<8x32xf16>
  %dst = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #y_set, access_tile_order = #id2} : memref<8x32xf16> -> !ktdp.access_tile<8x32xindex>
  ktdp.store %rows, %dst : tensor<8x32xf16>, <8x32xindex>
  return
}
