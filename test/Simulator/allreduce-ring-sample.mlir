// RUN: ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb
// RUN: ktflow sim %t.ktfb --input x=seq:-256:256 --output y=%t.y.npy | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "4 * (i % 128) - 256" 512
// RUN: ktflow sim %t.ktfb --input x=seq:-256:256 --json | FileCheck %s --check-prefix=JSON

// A ring all-reduce of four 1x128 f16 partials (256 bytes each), one per
// core of sample_device, over its bidirectional ring (64 B/cycle per link
// and direction, 1 cycle per hop): reduce-scatter then all-gather in chunks
// of 64 bytes (bench/allreduce.py --emit sample_device 4 256 wrote the
// programs). Core i's MNISU sends with dfir.remote_dma; the next core's
// L1LU streams its chunk and the received one into the SFU, which adds
// them, and the L1SU writes the sum back. Every y row is the column sum
// sum_r x[r, c] = sum_r (-256 + 128 r + c) = 4c - 256, exact in f16.
//
// Hand-computed (all four cores run in step; the ring is symmetric):
//   input DMA: 4 chunks of 64 B (DDR's 256 B/cycle serves the four cores'
//     64 B/cycle each) + 100 + 2 latency = 106; @loaded +1 sync = 107.
//   reduce-scatter step: remote_dma of 64 B, 1 cycle at 64 B/cycle (L1 ->
//     MNISU and the ring link) -> 108, lands 2 (datapath) + 1 (hop) later,
//     111; @sent after the landing: +1 sync +1 hop -> 113. L1LU: two
//     64-byte entries of 0.5 cycle at 128 B/cycle, +4 +1 latency: at the SFU
//     by 113 + 6 = 119; add 32 lanes: 1 -> 120; send 0.5 +1 latency ->
//     121.5; L1SU: 0.5 + 4 latency -> 126; @added +1 -> 127.
//     20 cycles a step: 107, 127, 147; the last add done at 167.
//   all-gather step: remote_dma 1 cycle, lands +3, @gathered +1 +1 hop:
//     6 cycles a step: 167, 173, 179; the last chunk announced at 185.
//   output DMA: 4 + 100 + 2 = 106 -> 291.
// The exchange takes 185 - 107 = 78 cycles; its bound, 2 (P - 1) (hop
// latency + S / (P link bandwidth)) = 6 (1 + 256 / 256) = 12, leaves out
// the datapath latency, the syncs and the adding pipeline (14 cycles a step).
// The ring carries 6 chunks of 64 B on each of 4 links (0->1, 1->2, 2->3,
// 3->0): 384 bytes, 384 / (64 x 291) = 2.1% of a link.

// CHECK: cycles: 291
// CHECK: core[0]/MNILU_Block/MNILU {{ *}}106 {{ *}}0 {{ *}}106
// CHECK: core[0]/MNISU_Block/MNISU {{.*}} 291 {{.*}} 640
// CHECK: core[0]/subcore[0]/L1SU {{.*}} 166
// JSON:      "interconnect": [
// JSON-NEXT:   {
// JSON-NEXT:     "bytes": 384,
// JSON-NEXT:     "from_core": 0,
// JSON-NEXT:     "to_core": 1,
// JSON-NEXT:     "utilization": 0.0206{{[0-9]+}}
// CHECK: interconnect: 1536 bytes over 4 links (64 B/cycle each way), 2.1% of their bandwidth; busiest core 0 -> core 1: 384 bytes, 2.1%

dfir.kernel @ring_allreduce device "sample_device" {
  dfir.tensor input @x : tensor<4x128xf16> in "DDR"
  dfir.tensor output @y : tensor<4x128xf16> in "DDR"
  dfir.buffer @acc0 in "core[0]/L1" size 256
  dfir.buffer @recv0 in "core[0]/L1" size 192
  dfir.buffer @acc1 in "core[1]/L1" size 256
  dfir.buffer @recv1 in "core[1]/L1" size 192
  dfir.buffer @acc2 in "core[2]/L1" size 256
  dfir.buffer @recv2 in "core[2]/L1" size 192
  dfir.buffer @acc3 in "core[3]/L1" size 256
  dfir.buffer @recv3 in "core[3]/L1" size 192
  dfir.fifo @to_vec0 from "core[0]/subcore[0]/L1LU" to "core[0]/subcore[0]/SFU_Block/SFU" entry 64
  dfir.fifo @from_vec0 from "core[0]/subcore[0]/SFU_Block/SFU" to "core[0]/subcore[0]/L1SU" entry 64
  dfir.fifo @to_vec1 from "core[1]/subcore[0]/L1LU" to "core[1]/subcore[0]/SFU_Block/SFU" entry 64
  dfir.fifo @from_vec1 from "core[1]/subcore[0]/SFU_Block/SFU" to "core[1]/subcore[0]/L1SU" entry 64
  dfir.fifo @to_vec2 from "core[2]/subcore[0]/L1LU" to "core[2]/subcore[0]/SFU_Block/SFU" entry 64
  dfir.fifo @from_vec2 from "core[2]/subcore[0]/SFU_Block/SFU" to "core[2]/subcore[0]/L1SU" entry 64
  dfir.fifo @to_vec3 from "core[3]/subcore[0]/L1LU" to "core[3]/subcore[0]/SFU_Block/SFU" entry 64
  dfir.fifo @from_vec3 from "core[3]/subcore[0]/SFU_Block/SFU" to "core[3]/subcore[0]/L1SU" entry 64
  dfir.sync @loaded0 from "core[0]/MNILU_Block/MNILU" to "core[0]/MNISU_Block/MNISU"
  dfir.sync @sent0 from "core[0]/MNISU_Block/MNISU" to "core[1]/subcore[0]/L1LU"
  dfir.sync @added0 from "core[0]/subcore[0]/L1SU" to "core[0]/MNISU_Block/MNISU"
  dfir.sync @gathered0 from "core[0]/MNISU_Block/MNISU" to "core[1]/MNISU_Block/MNISU"
  // @ready orders the load of the partial before its first read (the
  // simulator's race detector requires it; the token arrives before @sent).
  dfir.sync @ready0 from "core[0]/MNILU_Block/MNILU" to "core[0]/subcore[0]/L1LU"
  dfir.sync @loaded1 from "core[1]/MNILU_Block/MNILU" to "core[1]/MNISU_Block/MNISU"
  dfir.sync @sent1 from "core[1]/MNISU_Block/MNISU" to "core[2]/subcore[0]/L1LU"
  dfir.sync @added1 from "core[1]/subcore[0]/L1SU" to "core[1]/MNISU_Block/MNISU"
  dfir.sync @gathered1 from "core[1]/MNISU_Block/MNISU" to "core[2]/MNISU_Block/MNISU"
  dfir.sync @ready1 from "core[1]/MNILU_Block/MNILU" to "core[1]/subcore[0]/L1LU"
  dfir.sync @loaded2 from "core[2]/MNILU_Block/MNILU" to "core[2]/MNISU_Block/MNISU"
  dfir.sync @sent2 from "core[2]/MNISU_Block/MNISU" to "core[3]/subcore[0]/L1LU"
  dfir.sync @added2 from "core[2]/subcore[0]/L1SU" to "core[2]/MNISU_Block/MNISU"
  dfir.sync @gathered2 from "core[2]/MNISU_Block/MNISU" to "core[3]/MNISU_Block/MNISU"
  dfir.sync @ready2 from "core[2]/MNILU_Block/MNILU" to "core[2]/subcore[0]/L1LU"
  dfir.sync @loaded3 from "core[3]/MNILU_Block/MNILU" to "core[3]/MNISU_Block/MNISU"
  dfir.sync @sent3 from "core[3]/MNISU_Block/MNISU" to "core[0]/subcore[0]/L1LU"
  dfir.sync @added3 from "core[3]/subcore[0]/L1SU" to "core[3]/MNISU_Block/MNISU"
  dfir.sync @gathered3 from "core[3]/MNISU_Block/MNISU" to "core[0]/MNISU_Block/MNISU"
  dfir.sync @ready3 from "core[3]/MNILU_Block/MNILU" to "core[3]/subcore[0]/L1LU"

  // Ring position 0 (core 0): sends to core 1, receives from core 3.
  dfir.unit "core[0]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %acc = dfir.address @acc0
    %row = arith.constant 0 : index
    %src = arith.addi %x, %row : index
    %n = arith.constant 256 : index
    dfir.dma %n bytes from "DDR"[%src] to "core[0]/L1"[%acc]
    dfir.sync_send @loaded0
    dfir.sync_send @ready0
  }
  dfir.unit "core[0]/MNISU_Block/MNISU" {
    %o0 = arith.constant 0 : index
    %o64 = arith.constant 64 : index
    %o128 = arith.constant 128 : index
    %o192 = arith.constant 192 : index
    %acc = dfir.address @acc0
    dfir.sync_recv @loaded0
    %nacc = dfir.address @acc1
    %nrecv = dfir.address @recv1
    %chunk = arith.constant 64 : index
    // Reduce-scatter: step k sends chunk (0 - k) mod 4 into receive slot k of the next core.
    %rs_src0 = arith.addi %acc, %o0 : index
    %rs_dst0 = arith.addi %nrecv, %o0 : index
    dfir.remote_dma %chunk bytes from "core[0]/L1"[%rs_src0] to "core[1]/L1"[%rs_dst0]
    dfir.sync_send @sent0
    dfir.sync_recv @added0
    %rs_src1 = arith.addi %acc, %o192 : index
    %rs_dst1 = arith.addi %nrecv, %o64 : index
    dfir.remote_dma %chunk bytes from "core[0]/L1"[%rs_src1] to "core[1]/L1"[%rs_dst1]
    dfir.sync_send @sent0
    dfir.sync_recv @added0
    %rs_src2 = arith.addi %acc, %o128 : index
    %rs_dst2 = arith.addi %nrecv, %o128 : index
    dfir.remote_dma %chunk bytes from "core[0]/L1"[%rs_src2] to "core[1]/L1"[%rs_dst2]
    dfir.sync_send @sent0
    dfir.sync_recv @added0
    // All-gather: step k forwards the reduced chunk (0 + 1 - k) mod 4.
    %ag_src0 = arith.addi %acc, %o64 : index
    %ag_dst0 = arith.addi %nacc, %o64 : index
    dfir.remote_dma %chunk bytes from "core[0]/L1"[%ag_src0] to "core[1]/L1"[%ag_dst0]
    dfir.sync_send @gathered0
    dfir.sync_recv @gathered3
    %ag_src1 = arith.addi %acc, %o0 : index
    %ag_dst1 = arith.addi %nacc, %o0 : index
    dfir.remote_dma %chunk bytes from "core[0]/L1"[%ag_src1] to "core[1]/L1"[%ag_dst1]
    dfir.sync_send @gathered0
    dfir.sync_recv @gathered3
    %ag_src2 = arith.addi %acc, %o192 : index
    %ag_dst2 = arith.addi %nacc, %o192 : index
    dfir.remote_dma %chunk bytes from "core[0]/L1"[%ag_src2] to "core[1]/L1"[%ag_dst2]
    dfir.sync_send @gathered0
    dfir.sync_recv @gathered3
    %y = dfir.address @y
    %yrow = arith.constant 0 : index
    %dst = arith.addi %y, %yrow : index
    %all = arith.constant 256 : index
    dfir.dma %all bytes from "core[0]/L1"[%acc] to "DDR"[%dst]
  }
  dfir.unit "core[0]/subcore[0]/L1LU" {
    %o0 = arith.constant 0 : index
    %o64 = arith.constant 64 : index
    %o128 = arith.constant 128 : index
    %o192 = arith.constant 192 : index
    %acc = dfir.address @acc0
    %recv = dfir.address @recv0
    %e = arith.constant 64 : index
    dfir.sync_recv @ready0
    dfir.sync_recv @sent3
    %a0_0 = arith.addi %acc, %o192 : index
    %r0_0 = arith.addi %recv, %o0 : index
    dfir.load @to_vec0 from "core[0]/L1"[%a0_0] size %e
    dfir.load @to_vec0 from "core[0]/L1"[%r0_0] size %e
    dfir.sync_recv @sent3
    %a1_0 = arith.addi %acc, %o128 : index
    %r1_0 = arith.addi %recv, %o64 : index
    dfir.load @to_vec0 from "core[0]/L1"[%a1_0] size %e
    dfir.load @to_vec0 from "core[0]/L1"[%r1_0] size %e
    dfir.sync_recv @sent3
    %a2_0 = arith.addi %acc, %o64 : index
    %r2_0 = arith.addi %recv, %o128 : index
    dfir.load @to_vec0 from "core[0]/L1"[%a2_0] size %e
    dfir.load @to_vec0 from "core[0]/L1"[%r2_0] size %e
  }
  dfir.unit "core[0]/subcore[0]/SFU_Block/SFU" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %steps = arith.constant 3 : index
    scf.for %k = %c0 to %steps step %c1 {
      %mine = dfir.recv @to_vec0 : vector<32xf16>
      %theirs = dfir.recv @to_vec0 : vector<32xf16>
      %sum = dfir.map %mine, %theirs : vector<32xf16>, vector<32xf16> -> vector<32xf16> {
      ^bb0(%a: f16, %b: f16):
        %s = arith.addf %a, %b : f16
        dfir.yield %s : f16
      }
      dfir.send @from_vec0, %sum : vector<32xf16>
    }
  }
  dfir.unit "core[0]/subcore[0]/L1SU" {
    %o64 = arith.constant 64 : index
    %o128 = arith.constant 128 : index
    %o192 = arith.constant 192 : index
    %acc = dfir.address @acc0
    %chunk = arith.constant 64 : index
    %a0 = arith.addi %acc, %o192 : index
    dfir.store @from_vec0 to "core[0]/L1"[%a0] size %chunk
    dfir.sync_send @added0
    %a1 = arith.addi %acc, %o128 : index
    dfir.store @from_vec0 to "core[0]/L1"[%a1] size %chunk
    dfir.sync_send @added0
    %a2 = arith.addi %acc, %o64 : index
    dfir.store @from_vec0 to "core[0]/L1"[%a2] size %chunk
    dfir.sync_send @added0
  }

  // Ring position 1 (core 1): sends to core 2, receives from core 0.
  dfir.unit "core[1]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %acc = dfir.address @acc1
    %row = arith.constant 256 : index
    %src = arith.addi %x, %row : index
    %n = arith.constant 256 : index
    dfir.dma %n bytes from "DDR"[%src] to "core[1]/L1"[%acc]
    dfir.sync_send @loaded1
    dfir.sync_send @ready1
  }
  dfir.unit "core[1]/MNISU_Block/MNISU" {
    %o0 = arith.constant 0 : index
    %o64 = arith.constant 64 : index
    %o128 = arith.constant 128 : index
    %o192 = arith.constant 192 : index
    %acc = dfir.address @acc1
    dfir.sync_recv @loaded1
    %nacc = dfir.address @acc2
    %nrecv = dfir.address @recv2
    %chunk = arith.constant 64 : index
    // Reduce-scatter: step k sends chunk (1 - k) mod 4 into receive slot k of the next core.
    %rs_src0 = arith.addi %acc, %o64 : index
    %rs_dst0 = arith.addi %nrecv, %o0 : index
    dfir.remote_dma %chunk bytes from "core[1]/L1"[%rs_src0] to "core[2]/L1"[%rs_dst0]
    dfir.sync_send @sent1
    dfir.sync_recv @added1
    %rs_src1 = arith.addi %acc, %o0 : index
    %rs_dst1 = arith.addi %nrecv, %o64 : index
    dfir.remote_dma %chunk bytes from "core[1]/L1"[%rs_src1] to "core[2]/L1"[%rs_dst1]
    dfir.sync_send @sent1
    dfir.sync_recv @added1
    %rs_src2 = arith.addi %acc, %o192 : index
    %rs_dst2 = arith.addi %nrecv, %o128 : index
    dfir.remote_dma %chunk bytes from "core[1]/L1"[%rs_src2] to "core[2]/L1"[%rs_dst2]
    dfir.sync_send @sent1
    dfir.sync_recv @added1
    // All-gather: step k forwards the reduced chunk (1 + 1 - k) mod 4.
    %ag_src0 = arith.addi %acc, %o128 : index
    %ag_dst0 = arith.addi %nacc, %o128 : index
    dfir.remote_dma %chunk bytes from "core[1]/L1"[%ag_src0] to "core[2]/L1"[%ag_dst0]
    dfir.sync_send @gathered1
    dfir.sync_recv @gathered0
    %ag_src1 = arith.addi %acc, %o64 : index
    %ag_dst1 = arith.addi %nacc, %o64 : index
    dfir.remote_dma %chunk bytes from "core[1]/L1"[%ag_src1] to "core[2]/L1"[%ag_dst1]
    dfir.sync_send @gathered1
    dfir.sync_recv @gathered0
    %ag_src2 = arith.addi %acc, %o0 : index
    %ag_dst2 = arith.addi %nacc, %o0 : index
    dfir.remote_dma %chunk bytes from "core[1]/L1"[%ag_src2] to "core[2]/L1"[%ag_dst2]
    dfir.sync_send @gathered1
    dfir.sync_recv @gathered0
    %y = dfir.address @y
    %yrow = arith.constant 256 : index
    %dst = arith.addi %y, %yrow : index
    %all = arith.constant 256 : index
    dfir.dma %all bytes from "core[1]/L1"[%acc] to "DDR"[%dst]
  }
  dfir.unit "core[1]/subcore[0]/L1LU" {
    %o0 = arith.constant 0 : index
    %o64 = arith.constant 64 : index
    %o128 = arith.constant 128 : index
    %o192 = arith.constant 192 : index
    %acc = dfir.address @acc1
    %recv = dfir.address @recv1
    %e = arith.constant 64 : index
    dfir.sync_recv @ready1
    dfir.sync_recv @sent0
    %a0_0 = arith.addi %acc, %o0 : index
    %r0_0 = arith.addi %recv, %o0 : index
    dfir.load @to_vec1 from "core[1]/L1"[%a0_0] size %e
    dfir.load @to_vec1 from "core[1]/L1"[%r0_0] size %e
    dfir.sync_recv @sent0
    %a1_0 = arith.addi %acc, %o192 : index
    %r1_0 = arith.addi %recv, %o64 : index
    dfir.load @to_vec1 from "core[1]/L1"[%a1_0] size %e
    dfir.load @to_vec1 from "core[1]/L1"[%r1_0] size %e
    dfir.sync_recv @sent0
    %a2_0 = arith.addi %acc, %o128 : index
    %r2_0 = arith.addi %recv, %o128 : index
    dfir.load @to_vec1 from "core[1]/L1"[%a2_0] size %e
    dfir.load @to_vec1 from "core[1]/L1"[%r2_0] size %e
  }
  dfir.unit "core[1]/subcore[0]/SFU_Block/SFU" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %steps = arith.constant 3 : index
    scf.for %k = %c0 to %steps step %c1 {
      %mine = dfir.recv @to_vec1 : vector<32xf16>
      %theirs = dfir.recv @to_vec1 : vector<32xf16>
      %sum = dfir.map %mine, %theirs : vector<32xf16>, vector<32xf16> -> vector<32xf16> {
      ^bb0(%a: f16, %b: f16):
        %s = arith.addf %a, %b : f16
        dfir.yield %s : f16
      }
      dfir.send @from_vec1, %sum : vector<32xf16>
    }
  }
  dfir.unit "core[1]/subcore[0]/L1SU" {
    %o0 = arith.constant 0 : index
    %o128 = arith.constant 128 : index
    %o192 = arith.constant 192 : index
    %acc = dfir.address @acc1
    %chunk = arith.constant 64 : index
    %a0 = arith.addi %acc, %o0 : index
    dfir.store @from_vec1 to "core[1]/L1"[%a0] size %chunk
    dfir.sync_send @added1
    %a1 = arith.addi %acc, %o192 : index
    dfir.store @from_vec1 to "core[1]/L1"[%a1] size %chunk
    dfir.sync_send @added1
    %a2 = arith.addi %acc, %o128 : index
    dfir.store @from_vec1 to "core[1]/L1"[%a2] size %chunk
    dfir.sync_send @added1
  }

  // Ring position 2 (core 2): sends to core 3, receives from core 1.
  dfir.unit "core[2]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %acc = dfir.address @acc2
    %row = arith.constant 512 : index
    %src = arith.addi %x, %row : index
    %n = arith.constant 256 : index
    dfir.dma %n bytes from "DDR"[%src] to "core[2]/L1"[%acc]
    dfir.sync_send @loaded2
    dfir.sync_send @ready2
  }
  dfir.unit "core[2]/MNISU_Block/MNISU" {
    %o0 = arith.constant 0 : index
    %o64 = arith.constant 64 : index
    %o128 = arith.constant 128 : index
    %o192 = arith.constant 192 : index
    %acc = dfir.address @acc2
    dfir.sync_recv @loaded2
    %nacc = dfir.address @acc3
    %nrecv = dfir.address @recv3
    %chunk = arith.constant 64 : index
    // Reduce-scatter: step k sends chunk (2 - k) mod 4 into receive slot k of the next core.
    %rs_src0 = arith.addi %acc, %o128 : index
    %rs_dst0 = arith.addi %nrecv, %o0 : index
    dfir.remote_dma %chunk bytes from "core[2]/L1"[%rs_src0] to "core[3]/L1"[%rs_dst0]
    dfir.sync_send @sent2
    dfir.sync_recv @added2
    %rs_src1 = arith.addi %acc, %o64 : index
    %rs_dst1 = arith.addi %nrecv, %o64 : index
    dfir.remote_dma %chunk bytes from "core[2]/L1"[%rs_src1] to "core[3]/L1"[%rs_dst1]
    dfir.sync_send @sent2
    dfir.sync_recv @added2
    %rs_src2 = arith.addi %acc, %o0 : index
    %rs_dst2 = arith.addi %nrecv, %o128 : index
    dfir.remote_dma %chunk bytes from "core[2]/L1"[%rs_src2] to "core[3]/L1"[%rs_dst2]
    dfir.sync_send @sent2
    dfir.sync_recv @added2
    // All-gather: step k forwards the reduced chunk (2 + 1 - k) mod 4.
    %ag_src0 = arith.addi %acc, %o192 : index
    %ag_dst0 = arith.addi %nacc, %o192 : index
    dfir.remote_dma %chunk bytes from "core[2]/L1"[%ag_src0] to "core[3]/L1"[%ag_dst0]
    dfir.sync_send @gathered2
    dfir.sync_recv @gathered1
    %ag_src1 = arith.addi %acc, %o128 : index
    %ag_dst1 = arith.addi %nacc, %o128 : index
    dfir.remote_dma %chunk bytes from "core[2]/L1"[%ag_src1] to "core[3]/L1"[%ag_dst1]
    dfir.sync_send @gathered2
    dfir.sync_recv @gathered1
    %ag_src2 = arith.addi %acc, %o64 : index
    %ag_dst2 = arith.addi %nacc, %o64 : index
    dfir.remote_dma %chunk bytes from "core[2]/L1"[%ag_src2] to "core[3]/L1"[%ag_dst2]
    dfir.sync_send @gathered2
    dfir.sync_recv @gathered1
    %y = dfir.address @y
    %yrow = arith.constant 512 : index
    %dst = arith.addi %y, %yrow : index
    %all = arith.constant 256 : index
    dfir.dma %all bytes from "core[2]/L1"[%acc] to "DDR"[%dst]
  }
  dfir.unit "core[2]/subcore[0]/L1LU" {
    %o0 = arith.constant 0 : index
    %o64 = arith.constant 64 : index
    %o128 = arith.constant 128 : index
    %o192 = arith.constant 192 : index
    %acc = dfir.address @acc2
    %recv = dfir.address @recv2
    %e = arith.constant 64 : index
    dfir.sync_recv @ready2
    dfir.sync_recv @sent1
    %a0_0 = arith.addi %acc, %o64 : index
    %r0_0 = arith.addi %recv, %o0 : index
    dfir.load @to_vec2 from "core[2]/L1"[%a0_0] size %e
    dfir.load @to_vec2 from "core[2]/L1"[%r0_0] size %e
    dfir.sync_recv @sent1
    %a1_0 = arith.addi %acc, %o0 : index
    %r1_0 = arith.addi %recv, %o64 : index
    dfir.load @to_vec2 from "core[2]/L1"[%a1_0] size %e
    dfir.load @to_vec2 from "core[2]/L1"[%r1_0] size %e
    dfir.sync_recv @sent1
    %a2_0 = arith.addi %acc, %o192 : index
    %r2_0 = arith.addi %recv, %o128 : index
    dfir.load @to_vec2 from "core[2]/L1"[%a2_0] size %e
    dfir.load @to_vec2 from "core[2]/L1"[%r2_0] size %e
  }
  dfir.unit "core[2]/subcore[0]/SFU_Block/SFU" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %steps = arith.constant 3 : index
    scf.for %k = %c0 to %steps step %c1 {
      %mine = dfir.recv @to_vec2 : vector<32xf16>
      %theirs = dfir.recv @to_vec2 : vector<32xf16>
      %sum = dfir.map %mine, %theirs : vector<32xf16>, vector<32xf16> -> vector<32xf16> {
      ^bb0(%a: f16, %b: f16):
        %s = arith.addf %a, %b : f16
        dfir.yield %s : f16
      }
      dfir.send @from_vec2, %sum : vector<32xf16>
    }
  }
  dfir.unit "core[2]/subcore[0]/L1SU" {
    %o0 = arith.constant 0 : index
    %o64 = arith.constant 64 : index
    %o192 = arith.constant 192 : index
    %acc = dfir.address @acc2
    %chunk = arith.constant 64 : index
    %a0 = arith.addi %acc, %o64 : index
    dfir.store @from_vec2 to "core[2]/L1"[%a0] size %chunk
    dfir.sync_send @added2
    %a1 = arith.addi %acc, %o0 : index
    dfir.store @from_vec2 to "core[2]/L1"[%a1] size %chunk
    dfir.sync_send @added2
    %a2 = arith.addi %acc, %o192 : index
    dfir.store @from_vec2 to "core[2]/L1"[%a2] size %chunk
    dfir.sync_send @added2
  }

  // Ring position 3 (core 3): sends to core 0, receives from core 2.
  dfir.unit "core[3]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %acc = dfir.address @acc3
    %row = arith.constant 768 : index
    %src = arith.addi %x, %row : index
    %n = arith.constant 256 : index
    dfir.dma %n bytes from "DDR"[%src] to "core[3]/L1"[%acc]
    dfir.sync_send @loaded3
    dfir.sync_send @ready3
  }
  dfir.unit "core[3]/MNISU_Block/MNISU" {
    %o0 = arith.constant 0 : index
    %o64 = arith.constant 64 : index
    %o128 = arith.constant 128 : index
    %o192 = arith.constant 192 : index
    %acc = dfir.address @acc3
    dfir.sync_recv @loaded3
    %nacc = dfir.address @acc0
    %nrecv = dfir.address @recv0
    %chunk = arith.constant 64 : index
    // Reduce-scatter: step k sends chunk (3 - k) mod 4 into receive slot k of the next core.
    %rs_src0 = arith.addi %acc, %o192 : index
    %rs_dst0 = arith.addi %nrecv, %o0 : index
    dfir.remote_dma %chunk bytes from "core[3]/L1"[%rs_src0] to "core[0]/L1"[%rs_dst0]
    dfir.sync_send @sent3
    dfir.sync_recv @added3
    %rs_src1 = arith.addi %acc, %o128 : index
    %rs_dst1 = arith.addi %nrecv, %o64 : index
    dfir.remote_dma %chunk bytes from "core[3]/L1"[%rs_src1] to "core[0]/L1"[%rs_dst1]
    dfir.sync_send @sent3
    dfir.sync_recv @added3
    %rs_src2 = arith.addi %acc, %o64 : index
    %rs_dst2 = arith.addi %nrecv, %o128 : index
    dfir.remote_dma %chunk bytes from "core[3]/L1"[%rs_src2] to "core[0]/L1"[%rs_dst2]
    dfir.sync_send @sent3
    dfir.sync_recv @added3
    // All-gather: step k forwards the reduced chunk (3 + 1 - k) mod 4.
    %ag_src0 = arith.addi %acc, %o0 : index
    %ag_dst0 = arith.addi %nacc, %o0 : index
    dfir.remote_dma %chunk bytes from "core[3]/L1"[%ag_src0] to "core[0]/L1"[%ag_dst0]
    dfir.sync_send @gathered3
    dfir.sync_recv @gathered2
    %ag_src1 = arith.addi %acc, %o192 : index
    %ag_dst1 = arith.addi %nacc, %o192 : index
    dfir.remote_dma %chunk bytes from "core[3]/L1"[%ag_src1] to "core[0]/L1"[%ag_dst1]
    dfir.sync_send @gathered3
    dfir.sync_recv @gathered2
    %ag_src2 = arith.addi %acc, %o128 : index
    %ag_dst2 = arith.addi %nacc, %o128 : index
    dfir.remote_dma %chunk bytes from "core[3]/L1"[%ag_src2] to "core[0]/L1"[%ag_dst2]
    dfir.sync_send @gathered3
    dfir.sync_recv @gathered2
    %y = dfir.address @y
    %yrow = arith.constant 768 : index
    %dst = arith.addi %y, %yrow : index
    %all = arith.constant 256 : index
    dfir.dma %all bytes from "core[3]/L1"[%acc] to "DDR"[%dst]
  }
  dfir.unit "core[3]/subcore[0]/L1LU" {
    %o0 = arith.constant 0 : index
    %o64 = arith.constant 64 : index
    %o128 = arith.constant 128 : index
    %acc = dfir.address @acc3
    %recv = dfir.address @recv3
    %e = arith.constant 64 : index
    dfir.sync_recv @ready3
    dfir.sync_recv @sent2
    %a0_0 = arith.addi %acc, %o128 : index
    %r0_0 = arith.addi %recv, %o0 : index
    dfir.load @to_vec3 from "core[3]/L1"[%a0_0] size %e
    dfir.load @to_vec3 from "core[3]/L1"[%r0_0] size %e
    dfir.sync_recv @sent2
    %a1_0 = arith.addi %acc, %o64 : index
    %r1_0 = arith.addi %recv, %o64 : index
    dfir.load @to_vec3 from "core[3]/L1"[%a1_0] size %e
    dfir.load @to_vec3 from "core[3]/L1"[%r1_0] size %e
    dfir.sync_recv @sent2
    %a2_0 = arith.addi %acc, %o0 : index
    %r2_0 = arith.addi %recv, %o128 : index
    dfir.load @to_vec3 from "core[3]/L1"[%a2_0] size %e
    dfir.load @to_vec3 from "core[3]/L1"[%r2_0] size %e
  }
  dfir.unit "core[3]/subcore[0]/SFU_Block/SFU" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %steps = arith.constant 3 : index
    scf.for %k = %c0 to %steps step %c1 {
      %mine = dfir.recv @to_vec3 : vector<32xf16>
      %theirs = dfir.recv @to_vec3 : vector<32xf16>
      %sum = dfir.map %mine, %theirs : vector<32xf16>, vector<32xf16> -> vector<32xf16> {
      ^bb0(%a: f16, %b: f16):
        %s = arith.addf %a, %b : f16
        dfir.yield %s : f16
      }
      dfir.send @from_vec3, %sum : vector<32xf16>
    }
  }
  dfir.unit "core[3]/subcore[0]/L1SU" {
    %o0 = arith.constant 0 : index
    %o64 = arith.constant 64 : index
    %o128 = arith.constant 128 : index
    %acc = dfir.address @acc3
    %chunk = arith.constant 64 : index
    %a0 = arith.addi %acc, %o128 : index
    dfir.store @from_vec3 to "core[3]/L1"[%a0] size %chunk
    dfir.sync_send @added3
    %a1 = arith.addi %acc, %o64 : index
    dfir.store @from_vec3 to "core[3]/L1"[%a1] size %chunk
    dfir.sync_send @added3
    %a2 = arith.addi %acc, %o0 : index
    dfir.store @from_vec3 to "core[3]/L1"[%a2] size %chunk
    dfir.sync_send @added3
  }
}
