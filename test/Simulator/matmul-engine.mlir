// RUN: ktflow emit %s --arch %examples/devices/spyre_like.mlir -o %t.ktfb
// RUN: ktflow sim %t.ktfb --input a=seq:-2:3 --input b=seq:-1:2 --output c=%t.c.npy | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.c.npy "sum((-2 + ((i // 8) * 16 + k) % 5) * (-1 + (k * 8 + i % 8) % 3) for k in range(16))" 128

// C = A . B on one corelet's 8x8x8 matrix engine (PT) of spyre_like: A
// 16x16 f16, B 16x8 f16, C 16x8 f32 from a zero accumulator. The operands
// are small integers (a = -2 + i mod 5, b = -1 + i mod 3), so C is exact.
//
// Hand-computed (docs/simulator.md, "Matrix engine"): the product is
// ceil(16/8) x ceil(8/8) x ceil(16/8) = 4 waves of 8x8x8 = 512 MACs at the
// default 64 MACs/cycle, 8 cycles each, after a fill of 8 + 8 - 1 = 15:
// 47 cycles.
//   DMA_IN (8 in flight)  A 512 B leaves 0..4, lands 4 + 150 + 2 = 156;
//                         B 256 B leaves 4..6, lands 158; token at 159
//   LXLU   A: 159..163, arrives 163 + 3 + 1 = 167; B: 163..165, at 169
//   PT     matmul 169..216 (47); send 512 B 216..220, arrives 221
//   LXSU   store 221..225, lands 228; token at 229
//   DMA_OUT 512 B leaves 229..233, lands 233 + 2 + 150 = 385
// CHECK: cycles: 385
// CHECK: core[0]/corelet[0]/PT 51 {{.*}} 220 {{.*}}
// 47 of 385 cycles in the product; its 2048 MACs take 32 at peak.
// CHECK: matrix products: on 1 matrix unit (PT), 12.2% of their cycles in products, 8.3% of their peak multiply-accumulate rate

dfir.kernel @matmul device "spyre_like" {
  dfir.tensor input @a : tensor<16x16xf16> in "DDR"
  dfir.tensor input @b : tensor<16x8xf16> in "DDR"
  dfir.tensor output @c : tensor<16x8xf32> in "DDR"
  dfir.buffer @la in "core[0]/LX" size 512
  dfir.buffer @lb in "core[0]/LX" size 256
  dfir.buffer @lc in "core[0]/LX" size 512
  dfir.fifo @to_pt from "core[0]/corelet[0]/LXLU" to "core[0]/corelet[0]/PT" entry 512
  dfir.fifo @from_pt from "core[0]/corelet[0]/PT" to "core[0]/corelet[0]/LXSU" entry 512
  dfir.sync @loaded from "core[0]/DMA_IN" to "core[0]/corelet[0]/LXLU"
  dfir.sync @stored from "core[0]/corelet[0]/LXSU" to "core[0]/DMA_OUT"

  dfir.unit "core[0]/DMA_IN" {
    %a = dfir.address @a
    %b = dfir.address @b
    %la = dfir.address @la
    %lb = dfir.address @lb
    %na = arith.constant 512 : index
    %nb = arith.constant 256 : index
    dfir.dma %na bytes from "DDR"[%a] to "core[0]/LX"[%la]
    dfir.dma %nb bytes from "DDR"[%b] to "core[0]/LX"[%lb]
    dfir.sync_send @loaded
  }
  dfir.unit "core[0]/corelet[0]/LXLU" {
    %la = dfir.address @la
    %lb = dfir.address @lb
    %na = arith.constant 512 : index
    %nb = arith.constant 256 : index
    dfir.sync_recv @loaded
    dfir.load @to_pt from "core[0]/LX"[%la] size %na
    dfir.load @to_pt from "core[0]/LX"[%lb] size %nb
  }
  dfir.unit "core[0]/corelet[0]/PT" {
    %a = dfir.recv @to_pt : vector<16x16xf16>
    %b = dfir.recv @to_pt : vector<16x8xf16>
    %z = dfir.splat 0.0 : vector<16x8xf32>
    %c = dfir.matmul %a, %b, %z : vector<16x16xf16>, vector<16x8xf16> -> vector<16x8xf32>
    dfir.send @from_pt, %c : vector<16x8xf32>
  }
  dfir.unit "core[0]/corelet[0]/LXSU" {
    %lc = dfir.address @lc
    %n = arith.constant 512 : index
    dfir.store @from_pt to "core[0]/LX"[%lc] size %n
    dfir.sync_send @stored
  }
  dfir.unit "core[0]/DMA_OUT" {
    %lc = dfir.address @lc
    %c = dfir.address @c
    %n = arith.constant 512 : index
    dfir.sync_recv @stored
    dfir.dma %n bytes from "core[0]/LX"[%lc] to "DDR"[%c]
  }
}
