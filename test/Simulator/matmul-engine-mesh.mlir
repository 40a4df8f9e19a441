// RUN: ktflow emit %s --arch %examples/devices/mesh_device.mlir -o %t.ktfb
// RUN: ktflow sim %t.ktfb --input a=seq:-2:3 --input b=seq:-1:2 --output c=%t.c.npy --trace %t.json | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.c.npy "sum((-2 + ((i // 16) * 8 + k) % 5) * (-1 + (k * 16 + i % 16) % 3) for k in range(8))" 320
// RUN: FileCheck %s --check-prefix=TRACE < %t.json
// RUN: sed -e 's#tile\[0\]/MXU#tile[0]/VPU#g' %s > %t.vpu.mlir
// RUN: ktflow emit %t.vpu.mlir --arch %examples/devices/mesh_device.mlir -o %t.vpu.ktfb
// RUN: ktflow sim %t.vpu.ktfb --input a=seq:-2:3 --input b=seq:-1:2 --output c=%t.cv.npy --trace %t.vpu.json | FileCheck %s --check-prefix=VPU
// RUN: python3 %S/Inputs/check_npy.py %t.cv.npy "sum((-2 + ((i // 16) * 8 + k) % 5) * (-1 + (k * 16 + i % 16) % 3) for k in range(8))" 320
// RUN: FileCheck %s --check-prefix=VPU-TRACE < %t.vpu.json

// C = A . B on mesh_device's matrix unit (MXU: a 16x16x4 block, a stated
// f16 rate of 128 multiply-accumulates per cycle, not the default 16 x 16
// = 256), with a partial block: A 20x8 f16, B 8x16 f16, C 20x16 f32 from a
// zero accumulator. Small integer operands (a = -2 + i mod 5, b = -1 + i
// mod 3) make C exact.
//
// Hand-computed (docs/simulator.md, "Matrix engine"): ceil(20/16) x
// ceil(16/16) x ceil(8/4) = 2 x 1 x 2 = 4 waves (the 4 rows past 16 cost a
// whole wave of 16), each 16 x 16 x 4 = 1024 MACs at 128 per cycle = 8
// cycles, after a fill of 16 + 16 - 1 = 31: 31 + 4 x 8 = 63 cycles. Its
// 20 x 16 x 8 = 2560 MACs would take 20 cycles at peak.
// TRACE: "name":"matmul","cat":"busy","ph":"X","pid":0,"tid":{{[0-9]+}},"ts":{{[0-9.]+}},"dur":0.063}
// CHECK: matrix products: on 1 matrix unit (MXU)

// The same program on the vector unit, which has no matrix shape (its
// matrix rate is its 16 f32 lanes, docs/architecture-description.md): no
// waves and no fill, ceil(2560 / 16) = 160 cycles.
// VPU-TRACE: "name":"matmul","cat":"busy","ph":"X","pid":0,"tid":{{[0-9]+}},"ts":{{[0-9.]+}},"dur":0.16}
// VPU: matrix products: on 1 vector unit (VPU)

dfir.kernel @matmul device "mesh_device" {
  dfir.tensor input @a : tensor<20x8xf16> in "HBM"
  dfir.tensor input @b : tensor<8x16xf16> in "HBM"
  dfir.tensor output @c : tensor<20x16xf32> in "HBM"
  dfir.buffer @la in "tile[0]/SPM" size 320
  dfir.buffer @lb in "tile[0]/SPM" size 256
  dfir.buffer @lc in "tile[0]/SPM" size 1280
  dfir.fifo @to_mxu from "tile[0]/VLD" to "tile[0]/MXU" entry 320
  dfir.fifo @from_mxu from "tile[0]/MXU" to "tile[0]/VST" entry 1280
  dfir.sync @loaded from "tile[0]/DMA" to "tile[0]/VLD"
  dfir.sync @stored from "tile[0]/VST" to "tile[0]/DMA"

  dfir.unit "tile[0]/DMA" {
    %a = dfir.address @a
    %b = dfir.address @b
    %c = dfir.address @c
    %la = dfir.address @la
    %lb = dfir.address @lb
    %lc = dfir.address @lc
    %na = arith.constant 320 : index
    %nb = arith.constant 256 : index
    %nc = arith.constant 1280 : index
    dfir.dma %na bytes from "HBM"[%a] to "tile[0]/SPM"[%la]
    dfir.dma %nb bytes from "HBM"[%b] to "tile[0]/SPM"[%lb]
    dfir.sync_send @loaded
    dfir.sync_recv @stored
    dfir.dma %nc bytes from "tile[0]/SPM"[%lc] to "HBM"[%c]
  }
  dfir.unit "tile[0]/VLD" {
    %la = dfir.address @la
    %lb = dfir.address @lb
    %na = arith.constant 320 : index
    %nb = arith.constant 256 : index
    dfir.sync_recv @loaded
    dfir.load @to_mxu from "tile[0]/SPM"[%la] size %na
    dfir.load @to_mxu from "tile[0]/SPM"[%lb] size %nb
  }
  dfir.unit "tile[0]/MXU" {
    %a = dfir.recv @to_mxu : vector<20x8xf16>
    %b = dfir.recv @to_mxu : vector<8x16xf16>
    %z = dfir.splat 0.0 : vector<20x16xf32>
    %c = dfir.matmul %a, %b, %z : vector<20x8xf16>, vector<8x16xf16> -> vector<20x16xf32>
    dfir.send @from_mxu, %c : vector<20x16xf32>
  }
  dfir.unit "tile[0]/VST" {
    %lc = dfir.address @lc
    %n = arith.constant 1280 : index
    dfir.store @from_mxu to "tile[0]/SPM"[%lc] size %n
    dfir.sync_send @stored
  }
}
