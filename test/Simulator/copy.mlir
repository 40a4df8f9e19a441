// RUN: ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb | FileCheck %s --check-prefix=EMIT
// RUN: ktflow sim %t.ktfb --input x=seq:-1000:1000 --output y=%t.y.npy --trace %t.json | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "-1000 + i % 2000" 2048
// RUN: python3 %S/Inputs/check_npy.py --write %t.x.npy "<f2" 2048 "i * 0.25 - 200"
// RUN: ktflow sim %t.ktfb --input x=%t.x.npy --output y=%t.y2.npy | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.y2.npy "i * 0.25 - 200" 2048
// RUN: python3 %S/Inputs/check_npy.py --write %t.bad.npy "<f4" 2048 "i"
// RUN: not ktflow sim %t.ktfb --input x=%t.bad.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: FileCheck %s --check-prefix=TRACE < %t.json
// RUN: python3 -c "import json, sys; t = json.load(open(sys.argv[1])); assert len(t['traceEvents']) > 50" %t.json

// DDR -> L1 -> SFU -> L1 -> DDR on core 0, sub-core 0 of the sample device:
// 4096 bytes (2048 f16) in one tile.
//
// Hand-computed timing (sample_device: DDR<->DMA 64 B/cycle, latency 100;
// DMA<->L1 64 B/cycle, latency 2; L1<->L1LU/L1SU 128 B/cycle, latency 4;
// FIFOs L1LU->SFU->L1SU 128 B/cycle, latency 1; sync latency 1):
//   load DMA   ceil(4096/64) + 100 + 2                      = 166
//   sync                                                    +   1 -> 167
//   stream     4096/128 entries, one per cycle, + 2 pipeline
//              stages of one cycle + latencies 4+1, 1, 4    +  44 -> 211
//   sync                                                    +   1 -> 212
//   store DMA  ceil(4096/64) + 2 + 100                      + 166 -> 378

// DTYPE: ktflow: error: input 'x': {{.*}}.bad.npy holds <f4 elements, the tensor has f16

// EMIT: kernel copy for sample_device, 5 unit programs

// CHECK: kernel copy on sample_device
// CHECK-NEXT: cycles: 378
// CHECK: unit busy stalled finished util% bytes instrs
// CHECK: core[0]/MNILU_Block/MNILU 166 0 166 {{.*}} 4096 5
// CHECK: core[0]/MNISU_Block/MNISU 166 212 378 {{.*}} 4096 5
// CHECK: core[0]/subcore[0]/L1SU 36 175 211
// CHECK: core[0]/subcore[0]/SFU_Block/SFU 32 173 205 {{.*}} 8192 100

// TRACE: "traceEvents"
// TRACE-DAG: "name":"thread_name","ph":"M","pid":0,"tid":0,"args":{"name":"core[0]/MNILU_Block/MNILU"}
// The DMA engine keeps transfers in flight: its dma is busy for the 64
// cycles of occupancy, its halt for the 102 until the last byte lands.
// TRACE-DAG: "name":"dma","cat":"busy","ph":"X","pid":0,"tid":0,"ts":0,"dur":0.064,"args":{"bytes":4096}
// TRACE-DAG: "name":"halt","cat":"busy","ph":"X","pid":0,"tid":0,"ts":0.064,"dur":0.102
// TRACE-DAG: "name":"stall: sync loaded","cat":"stall","ph":"X","pid":0,"tid":1,"ts":0,"dur":0.167

dfir.kernel @copy device "sample_device" {
  dfir.tensor input @x : tensor<2048xf16> in "DDR"
  dfir.tensor output @y : tensor<2048xf16> in "DDR"
  dfir.buffer @in in "core[0]/L1" size 4096
  dfir.buffer @out in "core[0]/L1" size 4096
  dfir.fifo @to_sfu from "core[0]/subcore[0]/L1LU" to "core[0]/subcore[0]/SFU_Block/SFU" entry 128
  dfir.fifo @from_sfu from "core[0]/subcore[0]/SFU_Block/SFU" to "core[0]/subcore[0]/L1SU" entry 128
  dfir.sync @loaded from "core[0]/MNILU_Block/MNILU" to "core[0]/subcore[0]/L1LU"
  dfir.sync @stored from "core[0]/subcore[0]/L1SU" to "core[0]/MNISU_Block/MNISU"

  dfir.unit "core[0]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %in = dfir.address @in
    %n = arith.constant 4096 : index
    dfir.dma %n bytes from "DDR"[%x] to "core[0]/L1"[%in]
    dfir.sync_send @loaded
  }
  dfir.unit "core[0]/subcore[0]/L1LU" {
    %in = dfir.address @in
    %n = arith.constant 4096 : index
    dfir.sync_recv @loaded
    dfir.load @to_sfu from "core[0]/L1"[%in] size %n
  }
  dfir.unit "core[0]/subcore[0]/SFU_Block/SFU" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    scf.for %i = %c0 to %c32 step %c1 {
      %v = dfir.recv @to_sfu : vector<64xf16>
      dfir.send @from_sfu, %v : vector<64xf16>
    }
  }
  dfir.unit "core[0]/subcore[0]/L1SU" {
    %out = dfir.address @out
    %n = arith.constant 4096 : index
    dfir.store @from_sfu to "core[0]/L1"[%out] size %n
    dfir.sync_send @stored
  }
  dfir.unit "core[0]/MNISU_Block/MNISU" {
    %out = dfir.address @out
    %y = dfir.address @y
    %n = arith.constant 4096 : index
    dfir.sync_recv @stored
    dfir.dma %n bytes from "core[0]/L1"[%out] to "DDR"[%y]
  }
}
