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
// bytes have left). The gather's 2 index reads (200 cycles on one
// engine) outweigh its 512 bytes (8 cycles), and the kernel has one
// point: ktdf-split-index-bound-gathers cuts it into 4 chunks of 2 rows,
// one per core's DMA engine (8 chunks of a row would read 2 ids on each
// engine, 410 cycles), and ktdf-spread-iterations deals them over cores
// 0-3. On each core (chunk c holds rows 2c, 2c + 1 of page Idx[c / 2]):
//   MNILU: read_index Idx[c / 2] (4 bytes): 4/64 + 100 = 100.0625; row
//     2c + 1 needs the same index (not read again) and follows row 2c in
//     X, so the chunk's 128 bytes move as one DMA: 2 cycles to leave
//     (102.0625), lands 102 later (204.0625).
//   sync token to MNISU 1 cycle after the landing: 205.0625
//   MNISU: the chunk's 2 rows of Y are contiguous: one DMA of 128 bytes,
//     2 cycles to leave, lands 102 later (halt waits for it): 205.0625 +
//     2 + 102 = 309.0625; its `free` token reaches MNILU, which waits for
//     it before it halts, 1 cycle later: 310.0625 cycles.
//   Busy: MNILU 100.0625 of the read + 2 cycles of bytes leaving =
//   102.0625, 132 bytes (4 of the index); MNISU 2 + 102 = 104, 128 bytes.
// Whole, on one core (before): 2 reads, 2 DMAs of a page, one store of
// 512 bytes, 422.125 cycles.
// CHECK: cycles: 311{{$}}
// The roofline's bytes: the pages Idx selects, 2 x 4 rows x 64 bytes,
// their 8 bytes of indices, and Y's 512 bytes written: 1032 (before the
// count read the launch's index values, the gathered pages were a gap:
// 520 bytes).
// CHECK: memory: 4 cycles (1032 bytes of device memory at 256 B/cycle)
// CHECK: core[0]/MNILU_Block/MNILU 102 208 311 {{[0-9.]+}} 132 {{[0-9]+$}}
// CHECK: core[0]/MNISU_Block/MNISU 104 205 310 {{[0-9.]+}} 128 {{[0-9]+$}}
// CHECK: core[3]/MNILU_Block/MNILU 102 208 311 {{[0-9.]+}} 132 {{[0-9]+$}}
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
