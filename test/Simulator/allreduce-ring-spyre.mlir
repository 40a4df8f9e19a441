// RUN: ktflow emit %s --arch %examples/devices/spyre_like.mlir -o %t.ktfb
// RUN: ktflow sim %t.ktfb --input x=seq:-256:256 --output y=%t.y.npy | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "4 * (i % 128) - 256" 512

// The ring all-reduce of allreduce-ring-sample.mlir on cores 0-3 of
// spyre_like's 32-core bidirectional ring (128 B/cycle per link and
// direction, 1 cycle per hop): the ring of the four cores closes from core
// 3 to core 0 the shorter way, 3 hops back through cores 2 and 1, on the
// links of the other direction (no contention), so core 0 hears from its
// predecessor later than the others (bench/allreduce.py --emit spyre_like
// 4 256). y rows: 4c - 256, exact.
//
// Hand-computed, h = hops to the next core (1, or 3 from core 3):
//   input DMA: 2 chunks of 128 B + 150 + 2 = 154; @loaded +1 = 155.
//   a send: 64 B at 128 B/cycle: 0.5; lands +2 +h; its token +1 +h, so the
//     next core hears 3.5 + 2h after the send starts. The add: LXLU two
//     entries (0.5 each, +3 +1 latency) -> +5; SFP add 1 -> +6; send 0.5
//     +1 -> +7.5; LXSU 0.5 +3 -> +11; @added +1 -> +12. So core j sends
//     step k+1 at T(j, k+1) = T(j-1, k) + 15.5 + 2h.
//   T(*, 0) = 155; step 1: cores 1-3 172.5, core 0 155 + 21.5 = 176.5;
//   step 2: core 1 194, cores 2-3 190, core 0 172.5 + 21.5 = 194; the last
//   add done at 194 + 17.5 = 211.5 on cores 1 and 2, 190 + 21.5 = 211.5 on
//   core 0, 190 + 17.5 = 207.5 on core 3 (LXSU finished 211 / 207).
//   all-gather: the next core's token 3.5 + 2h after a send: step 1 starts
//   everywhere at 217 (211.5 + 5.5, or 207.5 + 9.5 on core 0); step 2 at
//   222.5 (core 0: 217 + 9.5 = 226.5); the last token 228 (cores 2, 3) or
//   232 (core 1: 226.5 + 5.5; core 0: 222.5 + 9.5).
//   output DMA: 2 + 150 + 2 = 154: core 0 ends at 386, core 3 at 382.
// The exchange takes 232 - 155 = 77 cycles against a ring bound of
// 6 (1 + 256 / 512) = 9 for neighbouring cores. 6 links carry data: 0->1,
// 1->2, 2->3 (384 bytes each) and 3->2, 2->1, 1->0 (the closing chunks,
// 384 bytes each): 2304 bytes, 384 / (128 x 386) = 0.8% of a link.

// CHECK: cycles: 386
// CHECK: core[0]/DMA_IN {{ *}}154 {{ *}}0 {{ *}}154
// CHECK: core[0]/DMA_OUT {{.*}} 386 {{.*}} 640
// CHECK: core[0]/corelet[0]/LXSU {{.*}} 211
// CHECK: core[3]/DMA_OUT {{.*}} 382 {{.*}} 640
// CHECK: core[3]/corelet[0]/LXSU {{.*}} 207
// CHECK: interconnect: 2304 bytes over 6 links (128 B/cycle each way), 0.8% of their bandwidth; busiest core 0 -> core 1: 384 bytes, 0.8%

dfir.kernel @ring_allreduce device "spyre_like" {
  dfir.tensor input @x : tensor<4x128xf16> in "DDR"
  dfir.tensor output @y : tensor<4x128xf16> in "DDR"
  dfir.buffer @acc0 in "core[0]/LX" size 256
  dfir.buffer @recv0 in "core[0]/LX" size 192
  dfir.buffer @acc1 in "core[1]/LX" size 256
  dfir.buffer @recv1 in "core[1]/LX" size 192
  dfir.buffer @acc2 in "core[2]/LX" size 256
  dfir.buffer @recv2 in "core[2]/LX" size 192
  dfir.buffer @acc3 in "core[3]/LX" size 256
  dfir.buffer @recv3 in "core[3]/LX" size 192
  dfir.fifo @to_vec0 from "core[0]/corelet[0]/LXLU" to "core[0]/corelet[0]/SFP" entry 64
  dfir.fifo @from_vec0 from "core[0]/corelet[0]/SFP" to "core[0]/corelet[0]/LXSU" entry 64
  dfir.fifo @to_vec1 from "core[1]/corelet[0]/LXLU" to "core[1]/corelet[0]/SFP" entry 64
  dfir.fifo @from_vec1 from "core[1]/corelet[0]/SFP" to "core[1]/corelet[0]/LXSU" entry 64
  dfir.fifo @to_vec2 from "core[2]/corelet[0]/LXLU" to "core[2]/corelet[0]/SFP" entry 64
  dfir.fifo @from_vec2 from "core[2]/corelet[0]/SFP" to "core[2]/corelet[0]/LXSU" entry 64
  dfir.fifo @to_vec3 from "core[3]/corelet[0]/LXLU" to "core[3]/corelet[0]/SFP" entry 64
  dfir.fifo @from_vec3 from "core[3]/corelet[0]/SFP" to "core[3]/corelet[0]/LXSU" entry 64
  dfir.sync @loaded0 from "core[0]/DMA_IN" to "core[0]/DMA_OUT"
  dfir.sync @sent0 from "core[0]/DMA_OUT" to "core[1]/corelet[0]/LXLU"
  dfir.sync @added0 from "core[0]/corelet[0]/LXSU" to "core[0]/DMA_OUT"
  dfir.sync @gathered0 from "core[0]/DMA_OUT" to "core[1]/DMA_OUT"
  // @ready orders the load of the partial before its first read (the
  // simulator's race detector requires it; the token arrives before @sent).
  dfir.sync @ready0 from "core[0]/DMA_IN" to "core[0]/corelet[0]/LXLU"
  dfir.sync @loaded1 from "core[1]/DMA_IN" to "core[1]/DMA_OUT"
  dfir.sync @sent1 from "core[1]/DMA_OUT" to "core[2]/corelet[0]/LXLU"
  dfir.sync @added1 from "core[1]/corelet[0]/LXSU" to "core[1]/DMA_OUT"
  dfir.sync @gathered1 from "core[1]/DMA_OUT" to "core[2]/DMA_OUT"
  dfir.sync @ready1 from "core[1]/DMA_IN" to "core[1]/corelet[0]/LXLU"
  dfir.sync @loaded2 from "core[2]/DMA_IN" to "core[2]/DMA_OUT"
  dfir.sync @sent2 from "core[2]/DMA_OUT" to "core[3]/corelet[0]/LXLU"
  dfir.sync @added2 from "core[2]/corelet[0]/LXSU" to "core[2]/DMA_OUT"
  dfir.sync @gathered2 from "core[2]/DMA_OUT" to "core[3]/DMA_OUT"
  dfir.sync @ready2 from "core[2]/DMA_IN" to "core[2]/corelet[0]/LXLU"
  dfir.sync @loaded3 from "core[3]/DMA_IN" to "core[3]/DMA_OUT"
  dfir.sync @sent3 from "core[3]/DMA_OUT" to "core[0]/corelet[0]/LXLU"
  dfir.sync @added3 from "core[3]/corelet[0]/LXSU" to "core[3]/DMA_OUT"
  dfir.sync @gathered3 from "core[3]/DMA_OUT" to "core[0]/DMA_OUT"
  dfir.sync @ready3 from "core[3]/DMA_IN" to "core[3]/corelet[0]/LXLU"

  // Ring position 0 (core 0): sends to core 1, receives from core 3.
  dfir.unit "core[0]/DMA_IN" {
    %x = dfir.address @x
    %acc = dfir.address @acc0
    %row = arith.constant 0 : index
    %src = arith.addi %x, %row : index
    %n = arith.constant 256 : index
    dfir.dma %n bytes from "DDR"[%src] to "core[0]/LX"[%acc]
    dfir.sync_send @loaded0
    dfir.sync_send @ready0
  }
  dfir.unit "core[0]/DMA_OUT" {
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
    dfir.remote_dma %chunk bytes from "core[0]/LX"[%rs_src0] to "core[1]/LX"[%rs_dst0]
    dfir.sync_send @sent0
    dfir.sync_recv @added0
    %rs_src1 = arith.addi %acc, %o192 : index
    %rs_dst1 = arith.addi %nrecv, %o64 : index
    dfir.remote_dma %chunk bytes from "core[0]/LX"[%rs_src1] to "core[1]/LX"[%rs_dst1]
    dfir.sync_send @sent0
    dfir.sync_recv @added0
    %rs_src2 = arith.addi %acc, %o128 : index
    %rs_dst2 = arith.addi %nrecv, %o128 : index
    dfir.remote_dma %chunk bytes from "core[0]/LX"[%rs_src2] to "core[1]/LX"[%rs_dst2]
    dfir.sync_send @sent0
    dfir.sync_recv @added0
    // All-gather: step k forwards the reduced chunk (0 + 1 - k) mod 4.
    %ag_src0 = arith.addi %acc, %o64 : index
    %ag_dst0 = arith.addi %nacc, %o64 : index
    dfir.remote_dma %chunk bytes from "core[0]/LX"[%ag_src0] to "core[1]/LX"[%ag_dst0]
    dfir.sync_send @gathered0
    dfir.sync_recv @gathered3
    %ag_src1 = arith.addi %acc, %o0 : index
    %ag_dst1 = arith.addi %nacc, %o0 : index
    dfir.remote_dma %chunk bytes from "core[0]/LX"[%ag_src1] to "core[1]/LX"[%ag_dst1]
    dfir.sync_send @gathered0
    dfir.sync_recv @gathered3
    %ag_src2 = arith.addi %acc, %o192 : index
    %ag_dst2 = arith.addi %nacc, %o192 : index
    dfir.remote_dma %chunk bytes from "core[0]/LX"[%ag_src2] to "core[1]/LX"[%ag_dst2]
    dfir.sync_send @gathered0
    dfir.sync_recv @gathered3
    %y = dfir.address @y
    %yrow = arith.constant 0 : index
    %dst = arith.addi %y, %yrow : index
    %all = arith.constant 256 : index
    dfir.dma %all bytes from "core[0]/LX"[%acc] to "DDR"[%dst]
  }
  dfir.unit "core[0]/corelet[0]/LXLU" {
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
    dfir.load @to_vec0 from "core[0]/LX"[%a0_0] size %e
    dfir.load @to_vec0 from "core[0]/LX"[%r0_0] size %e
    dfir.sync_recv @sent3
    %a1_0 = arith.addi %acc, %o128 : index
    %r1_0 = arith.addi %recv, %o64 : index
    dfir.load @to_vec0 from "core[0]/LX"[%a1_0] size %e
    dfir.load @to_vec0 from "core[0]/LX"[%r1_0] size %e
    dfir.sync_recv @sent3
    %a2_0 = arith.addi %acc, %o64 : index
    %r2_0 = arith.addi %recv, %o128 : index
    dfir.load @to_vec0 from "core[0]/LX"[%a2_0] size %e
    dfir.load @to_vec0 from "core[0]/LX"[%r2_0] size %e
  }
  dfir.unit "core[0]/corelet[0]/SFP" {
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
  dfir.unit "core[0]/corelet[0]/LXSU" {
    %o64 = arith.constant 64 : index
    %o128 = arith.constant 128 : index
    %o192 = arith.constant 192 : index
    %acc = dfir.address @acc0
    %chunk = arith.constant 64 : index
    %a0 = arith.addi %acc, %o192 : index
    dfir.store @from_vec0 to "core[0]/LX"[%a0] size %chunk
    dfir.sync_send @added0
    %a1 = arith.addi %acc, %o128 : index
    dfir.store @from_vec0 to "core[0]/LX"[%a1] size %chunk
    dfir.sync_send @added0
    %a2 = arith.addi %acc, %o64 : index
    dfir.store @from_vec0 to "core[0]/LX"[%a2] size %chunk
    dfir.sync_send @added0
  }

  // Ring position 1 (core 1): sends to core 2, receives from core 0.
  dfir.unit "core[1]/DMA_IN" {
    %x = dfir.address @x
    %acc = dfir.address @acc1
    %row = arith.constant 256 : index
    %src = arith.addi %x, %row : index
    %n = arith.constant 256 : index
    dfir.dma %n bytes from "DDR"[%src] to "core[1]/LX"[%acc]
    dfir.sync_send @loaded1
    dfir.sync_send @ready1
  }
  dfir.unit "core[1]/DMA_OUT" {
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
    dfir.remote_dma %chunk bytes from "core[1]/LX"[%rs_src0] to "core[2]/LX"[%rs_dst0]
    dfir.sync_send @sent1
    dfir.sync_recv @added1
    %rs_src1 = arith.addi %acc, %o0 : index
    %rs_dst1 = arith.addi %nrecv, %o64 : index
    dfir.remote_dma %chunk bytes from "core[1]/LX"[%rs_src1] to "core[2]/LX"[%rs_dst1]
    dfir.sync_send @sent1
    dfir.sync_recv @added1
    %rs_src2 = arith.addi %acc, %o192 : index
    %rs_dst2 = arith.addi %nrecv, %o128 : index
    dfir.remote_dma %chunk bytes from "core[1]/LX"[%rs_src2] to "core[2]/LX"[%rs_dst2]
    dfir.sync_send @sent1
    dfir.sync_recv @added1
    // All-gather: step k forwards the reduced chunk (1 + 1 - k) mod 4.
    %ag_src0 = arith.addi %acc, %o128 : index
    %ag_dst0 = arith.addi %nacc, %o128 : index
    dfir.remote_dma %chunk bytes from "core[1]/LX"[%ag_src0] to "core[2]/LX"[%ag_dst0]
    dfir.sync_send @gathered1
    dfir.sync_recv @gathered0
    %ag_src1 = arith.addi %acc, %o64 : index
    %ag_dst1 = arith.addi %nacc, %o64 : index
    dfir.remote_dma %chunk bytes from "core[1]/LX"[%ag_src1] to "core[2]/LX"[%ag_dst1]
    dfir.sync_send @gathered1
    dfir.sync_recv @gathered0
    %ag_src2 = arith.addi %acc, %o0 : index
    %ag_dst2 = arith.addi %nacc, %o0 : index
    dfir.remote_dma %chunk bytes from "core[1]/LX"[%ag_src2] to "core[2]/LX"[%ag_dst2]
    dfir.sync_send @gathered1
    dfir.sync_recv @gathered0
    %y = dfir.address @y
    %yrow = arith.constant 256 : index
    %dst = arith.addi %y, %yrow : index
    %all = arith.constant 256 : index
    dfir.dma %all bytes from "core[1]/LX"[%acc] to "DDR"[%dst]
  }
  dfir.unit "core[1]/corelet[0]/LXLU" {
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
    dfir.load @to_vec1 from "core[1]/LX"[%a0_0] size %e
    dfir.load @to_vec1 from "core[1]/LX"[%r0_0] size %e
    dfir.sync_recv @sent0
    %a1_0 = arith.addi %acc, %o192 : index
    %r1_0 = arith.addi %recv, %o64 : index
    dfir.load @to_vec1 from "core[1]/LX"[%a1_0] size %e
    dfir.load @to_vec1 from "core[1]/LX"[%r1_0] size %e
    dfir.sync_recv @sent0
    %a2_0 = arith.addi %acc, %o128 : index
    %r2_0 = arith.addi %recv, %o128 : index
    dfir.load @to_vec1 from "core[1]/LX"[%a2_0] size %e
    dfir.load @to_vec1 from "core[1]/LX"[%r2_0] size %e
  }
  dfir.unit "core[1]/corelet[0]/SFP" {
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
  dfir.unit "core[1]/corelet[0]/LXSU" {
    %o0 = arith.constant 0 : index
    %o128 = arith.constant 128 : index
    %o192 = arith.constant 192 : index
    %acc = dfir.address @acc1
    %chunk = arith.constant 64 : index
    %a0 = arith.addi %acc, %o0 : index
    dfir.store @from_vec1 to "core[1]/LX"[%a0] size %chunk
    dfir.sync_send @added1
    %a1 = arith.addi %acc, %o192 : index
    dfir.store @from_vec1 to "core[1]/LX"[%a1] size %chunk
    dfir.sync_send @added1
    %a2 = arith.addi %acc, %o128 : index
    dfir.store @from_vec1 to "core[1]/LX"[%a2] size %chunk
    dfir.sync_send @added1
  }

  // Ring position 2 (core 2): sends to core 3, receives from core 1.
  dfir.unit "core[2]/DMA_IN" {
    %x = dfir.address @x
    %acc = dfir.address @acc2
    %row = arith.constant 512 : index
    %src = arith.addi %x, %row : index
    %n = arith.constant 256 : index
    dfir.dma %n bytes from "DDR"[%src] to "core[2]/LX"[%acc]
    dfir.sync_send @loaded2
    dfir.sync_send @ready2
  }
  dfir.unit "core[2]/DMA_OUT" {
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
    dfir.remote_dma %chunk bytes from "core[2]/LX"[%rs_src0] to "core[3]/LX"[%rs_dst0]
    dfir.sync_send @sent2
    dfir.sync_recv @added2
    %rs_src1 = arith.addi %acc, %o64 : index
    %rs_dst1 = arith.addi %nrecv, %o64 : index
    dfir.remote_dma %chunk bytes from "core[2]/LX"[%rs_src1] to "core[3]/LX"[%rs_dst1]
    dfir.sync_send @sent2
    dfir.sync_recv @added2
    %rs_src2 = arith.addi %acc, %o0 : index
    %rs_dst2 = arith.addi %nrecv, %o128 : index
    dfir.remote_dma %chunk bytes from "core[2]/LX"[%rs_src2] to "core[3]/LX"[%rs_dst2]
    dfir.sync_send @sent2
    dfir.sync_recv @added2
    // All-gather: step k forwards the reduced chunk (2 + 1 - k) mod 4.
    %ag_src0 = arith.addi %acc, %o192 : index
    %ag_dst0 = arith.addi %nacc, %o192 : index
    dfir.remote_dma %chunk bytes from "core[2]/LX"[%ag_src0] to "core[3]/LX"[%ag_dst0]
    dfir.sync_send @gathered2
    dfir.sync_recv @gathered1
    %ag_src1 = arith.addi %acc, %o128 : index
    %ag_dst1 = arith.addi %nacc, %o128 : index
    dfir.remote_dma %chunk bytes from "core[2]/LX"[%ag_src1] to "core[3]/LX"[%ag_dst1]
    dfir.sync_send @gathered2
    dfir.sync_recv @gathered1
    %ag_src2 = arith.addi %acc, %o64 : index
    %ag_dst2 = arith.addi %nacc, %o64 : index
    dfir.remote_dma %chunk bytes from "core[2]/LX"[%ag_src2] to "core[3]/LX"[%ag_dst2]
    dfir.sync_send @gathered2
    dfir.sync_recv @gathered1
    %y = dfir.address @y
    %yrow = arith.constant 512 : index
    %dst = arith.addi %y, %yrow : index
    %all = arith.constant 256 : index
    dfir.dma %all bytes from "core[2]/LX"[%acc] to "DDR"[%dst]
  }
  dfir.unit "core[2]/corelet[0]/LXLU" {
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
    dfir.load @to_vec2 from "core[2]/LX"[%a0_0] size %e
    dfir.load @to_vec2 from "core[2]/LX"[%r0_0] size %e
    dfir.sync_recv @sent1
    %a1_0 = arith.addi %acc, %o0 : index
    %r1_0 = arith.addi %recv, %o64 : index
    dfir.load @to_vec2 from "core[2]/LX"[%a1_0] size %e
    dfir.load @to_vec2 from "core[2]/LX"[%r1_0] size %e
    dfir.sync_recv @sent1
    %a2_0 = arith.addi %acc, %o192 : index
    %r2_0 = arith.addi %recv, %o128 : index
    dfir.load @to_vec2 from "core[2]/LX"[%a2_0] size %e
    dfir.load @to_vec2 from "core[2]/LX"[%r2_0] size %e
  }
  dfir.unit "core[2]/corelet[0]/SFP" {
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
  dfir.unit "core[2]/corelet[0]/LXSU" {
    %o0 = arith.constant 0 : index
    %o64 = arith.constant 64 : index
    %o192 = arith.constant 192 : index
    %acc = dfir.address @acc2
    %chunk = arith.constant 64 : index
    %a0 = arith.addi %acc, %o64 : index
    dfir.store @from_vec2 to "core[2]/LX"[%a0] size %chunk
    dfir.sync_send @added2
    %a1 = arith.addi %acc, %o0 : index
    dfir.store @from_vec2 to "core[2]/LX"[%a1] size %chunk
    dfir.sync_send @added2
    %a2 = arith.addi %acc, %o192 : index
    dfir.store @from_vec2 to "core[2]/LX"[%a2] size %chunk
    dfir.sync_send @added2
  }

  // Ring position 3 (core 3): sends to core 0, receives from core 2.
  dfir.unit "core[3]/DMA_IN" {
    %x = dfir.address @x
    %acc = dfir.address @acc3
    %row = arith.constant 768 : index
    %src = arith.addi %x, %row : index
    %n = arith.constant 256 : index
    dfir.dma %n bytes from "DDR"[%src] to "core[3]/LX"[%acc]
    dfir.sync_send @loaded3
    dfir.sync_send @ready3
  }
  dfir.unit "core[3]/DMA_OUT" {
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
    dfir.remote_dma %chunk bytes from "core[3]/LX"[%rs_src0] to "core[0]/LX"[%rs_dst0]
    dfir.sync_send @sent3
    dfir.sync_recv @added3
    %rs_src1 = arith.addi %acc, %o128 : index
    %rs_dst1 = arith.addi %nrecv, %o64 : index
    dfir.remote_dma %chunk bytes from "core[3]/LX"[%rs_src1] to "core[0]/LX"[%rs_dst1]
    dfir.sync_send @sent3
    dfir.sync_recv @added3
    %rs_src2 = arith.addi %acc, %o64 : index
    %rs_dst2 = arith.addi %nrecv, %o128 : index
    dfir.remote_dma %chunk bytes from "core[3]/LX"[%rs_src2] to "core[0]/LX"[%rs_dst2]
    dfir.sync_send @sent3
    dfir.sync_recv @added3
    // All-gather: step k forwards the reduced chunk (3 + 1 - k) mod 4.
    %ag_src0 = arith.addi %acc, %o0 : index
    %ag_dst0 = arith.addi %nacc, %o0 : index
    dfir.remote_dma %chunk bytes from "core[3]/LX"[%ag_src0] to "core[0]/LX"[%ag_dst0]
    dfir.sync_send @gathered3
    dfir.sync_recv @gathered2
    %ag_src1 = arith.addi %acc, %o192 : index
    %ag_dst1 = arith.addi %nacc, %o192 : index
    dfir.remote_dma %chunk bytes from "core[3]/LX"[%ag_src1] to "core[0]/LX"[%ag_dst1]
    dfir.sync_send @gathered3
    dfir.sync_recv @gathered2
    %ag_src2 = arith.addi %acc, %o128 : index
    %ag_dst2 = arith.addi %nacc, %o128 : index
    dfir.remote_dma %chunk bytes from "core[3]/LX"[%ag_src2] to "core[0]/LX"[%ag_dst2]
    dfir.sync_send @gathered3
    dfir.sync_recv @gathered2
    %y = dfir.address @y
    %yrow = arith.constant 768 : index
    %dst = arith.addi %y, %yrow : index
    %all = arith.constant 256 : index
    dfir.dma %all bytes from "core[3]/LX"[%acc] to "DDR"[%dst]
  }
  dfir.unit "core[3]/corelet[0]/LXLU" {
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
    dfir.load @to_vec3 from "core[3]/LX"[%a0_0] size %e
    dfir.load @to_vec3 from "core[3]/LX"[%r0_0] size %e
    dfir.sync_recv @sent2
    %a1_0 = arith.addi %acc, %o64 : index
    %r1_0 = arith.addi %recv, %o64 : index
    dfir.load @to_vec3 from "core[3]/LX"[%a1_0] size %e
    dfir.load @to_vec3 from "core[3]/LX"[%r1_0] size %e
    dfir.sync_recv @sent2
    %a2_0 = arith.addi %acc, %o0 : index
    %r2_0 = arith.addi %recv, %o128 : index
    dfir.load @to_vec3 from "core[3]/LX"[%a2_0] size %e
    dfir.load @to_vec3 from "core[3]/LX"[%r2_0] size %e
  }
  dfir.unit "core[3]/corelet[0]/SFP" {
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
  dfir.unit "core[3]/corelet[0]/LXSU" {
    %o0 = arith.constant 0 : index
    %o64 = arith.constant 64 : index
    %o128 = arith.constant 128 : index
    %acc = dfir.address @acc3
    %chunk = arith.constant 64 : index
    %a0 = arith.addi %acc, %o128 : index
    dfir.store @from_vec3 to "core[3]/LX"[%a0] size %chunk
    dfir.sync_send @added3
    %a1 = arith.addi %acc, %o64 : index
    dfir.store @from_vec3 to "core[3]/LX"[%a1] size %chunk
    dfir.sync_send @added3
    %a2 = arith.addi %acc, %o0 : index
    dfir.store @from_vec3 to "core[3]/LX"[%a2] size %chunk
    dfir.sync_send @added3
  }
}
