//===- ProductionRooflineTest.cpp - Bounds of the production kernels ------===//
//
// The roofline bound of the four production kernels of the field guide
// (§3: row softmax 4096x1024, layernorm 1151x8192, RMSNorm 256x4096, RoPE
// 163840x128, written in Inputs/ in the real-world spelling) and of issue
// 14's 1 M-element vector add (bench/kernels) on the three shipped devices,
// against values computed by hand from the kernels and the descriptions.
// The arithmetic is written next to each expectation.
//
// The device figures used throughout (docs/roofline.md):
//   sample_device: 8 SFUs (4 cores x 2 sub-cores), 64 f16 lanes: per device
//     512 f16 element-wise or reduced per cycle, 128 transcendental (64 / 4
//     each), no matrix unit; DDR 256 B/cycle. DDR -> SFU: 100 + 2 + 4 + 1 =
//     107 cycles at 64 B/cycle (the DMA links), SFU -> DDR: 1 + 4 + 2 + 100
//     = 107 at 64.
//   spyre_like: 64 SFPs (32 cores x 2 corelets): 64 x 64 = 4096 f16
//     element-wise or reduced per cycle, 64 x 8 = 512 transcendental; 64
//     PTs of 8x8: 64 x 64 = 4096 f16 MACs per cycle; DDR 1024 B/cycle.
//     DDR -> SFP or PT: 150 + 2 + 3 + 1 = 156 cycles at 128 B/cycle, and
//     back 1 + 3 + 2 + 150 = 156 at 128.
//   mesh_device: 16 VPUs, 32 f16 lanes: 512 f16 element-wise or reduced per
//     cycle, 16 x 8 = 128 transcendental; 16 MXUs at 128 f16 MACs: 2048;
//     HBM 512 B/cycle. HBM -> VPU or MXU: 80 + 2 + 2 + 1 = 85 cycles at
//     64 B/cycle, and back 1 + 2 + 2 + 80 = 85 at 64.
//
//===----------------------------------------------------------------------===//

#include "DemandTestSupport.h"

using namespace ktflow;
using ktflow::device::BoundKind;
using mlir::ktdf_arch::OpClass;

namespace {

class ProductionRooflineTest : public analysis_testing::DemandTest {};

TEST_F(ProductionRooflineTest, RowSoftmax4096x1024) {
  device::KernelDemand demand =
      countInput("softmax_4096x1024.mlir", {{2, 4096}});
  EXPECT_TRUE(demand.gaps.empty());
  // Per row of 1024: subf (element-wise); exp and divf (transcendental);
  // the max and the sum each fold 1024 f16 (reduction). 4096 rows.
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f16()), 1024.0 * 4096);
  EXPECT_EQ(operations(demand, OpClass::Transcendental, f16()),
            2 * 1024.0 * 4096);
  EXPECT_EQ(operations(demand, OpClass::Reduction, f16()), 2 * 1024.0 * 4096);
  EXPECT_EQ(demand.operations.size(), 3u);
  // X read once, Y written once: 4096 x 1024 x 2 bytes each.
  EXPECT_EQ(demand.bytesRead, 8388608u);
  EXPECT_EQ(demand.bytesWritten, 8388608u);
  // One 1x1024 f16 row in and out: 2048 bytes.
  EXPECT_EQ(demand.smallestLoad, 2048u);
  EXPECT_EQ(demand.smallestStore, 2048u);
  // max-reduce, subf, exp, sum-reduce, divf.
  EXPECT_EQ(demand.chain, 5u);

  // 4194304 / 512 + 8388608 / 128 + 8388608 / 512 = 8192 + 65536 + 16384
  // (the kernel as written; sample_device's description widens the exp:
  // RowSoftmaxAsSampleDeviceRunsIt).
  device::RooflineBound sample = bound(demand, "sample_device", "DDR");
  EXPECT_DOUBLE_EQ(sample.compute.cycles, 90112);
  EXPECT_EQ(sample.compute.bottleneck, "SFU");
  EXPECT_DOUBLE_EQ(sample.memory.cycles, 16777216.0 / 256);
  // 107 + 2048 / 64 + 5 + 107 + 2048 / 64.
  EXPECT_DOUBLE_EQ(sample.latency.cycles, 283);
  EXPECT_EQ(sample.binding, BoundKind::Compute);
  EXPECT_DOUBLE_EQ(sample.cycles, 90112);

  // 4194304 / 4096 + 8388608 / 512 + 8388608 / 4096 = 1024 + 16384 + 2048.
  device::RooflineBound spyre = bound(demand, "spyre_like", "DDR");
  EXPECT_DOUBLE_EQ(spyre.compute.cycles, 19456);
  EXPECT_EQ(spyre.compute.bottleneck, "SFP");
  EXPECT_DOUBLE_EQ(spyre.memory.cycles, 16777216.0 / 1024);
  // 156 + 2048 / 128 + 5 + 156 + 2048 / 128.
  EXPECT_DOUBLE_EQ(spyre.latency.cycles, 349);
  EXPECT_EQ(spyre.binding, BoundKind::Compute);

  // As the sample device: 512, 128 and 512 per cycle.
  device::RooflineBound mesh = bound(demand, "mesh_device", "HBM");
  EXPECT_DOUBLE_EQ(mesh.compute.cycles, 90112);
  EXPECT_EQ(mesh.compute.bottleneck, "VPU");
  EXPECT_DOUBLE_EQ(mesh.memory.cycles, 16777216.0 / 512);
  // 85 + 2048 / 64 + 5 + 85 + 2048 / 64.
  EXPECT_DOUBLE_EQ(mesh.latency.cycles, 239);
  EXPECT_EQ(mesh.binding, BoundKind::Compute);
}

TEST_F(ProductionRooflineTest, RowSoftmaxAsSampleDeviceRunsIt) {
  // sample_device's SFU has no f16 exponential: its `widen_f16_exp`
  // pattern turns every f16 exp into extf to f32, an f32 exp and truncf
  // back. The count takes the exp so; the other devices leave it alone.
  device::KernelDemand demand =
      countInputFor("softmax_4096x1024.mlir", "sample_device", {{2, 4096}});
  EXPECT_TRUE(demand.gaps.empty());
  double elements = 1024.0 * 4096;
  // subf and truncf at f16, extf at its f32 result.
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f16()), 2 * elements);
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f32()), elements);
  // divf at f16, exp at f32.
  EXPECT_EQ(operations(demand, OpClass::Transcendental, f16()), elements);
  EXPECT_EQ(operations(demand, OpClass::Transcendental, f32()), elements);
  EXPECT_EQ(operations(demand, OpClass::Reduction, f16()), 2 * elements);

  // One SFU's chunk of 64 f16 elements (64 f16 / 32 f32 lanes,
  // transcendentals at a quarter): subf 1, extf 64 / 32 = 2, exp
  // 64 / 8 = 8, truncf 1, divf 64 / 16 = 4, max and sum 1 each: 18 cycles
  // (11 as written, where the exp took 64 / 16 = 4 and nothing converted).
  // 65536 chunks over 8 SFUs: 8192 x 18.
  device::RooflineBound sample = bound(demand, "sample_device", "DDR");
  EXPECT_DOUBLE_EQ(sample.compute.cycles, 147456);
  EXPECT_EQ(sample.binding, BoundKind::Compute);

  // mesh_device describes no patterns: the count is the kernel's.
  device::KernelDemand mesh =
      countInputFor("softmax_4096x1024.mlir", "mesh_device", {{2, 4096}});
  EXPECT_EQ(operations(mesh, OpClass::Transcendental, f16()), 2 * elements);
  EXPECT_EQ(mesh.operations.size(), 3u);
}

TEST_F(ProductionRooflineTest, RowSoftmaxOverFewerRows) {
  // The views declare 4096 rows; n_rows = 1000 launches the loop over the
  // first 1000 (tile t: rows t, t + 32, ... < 1000).
  device::KernelDemand demand =
      countInput("softmax_4096x1024.mlir", {{2, 1000}});
  EXPECT_TRUE(demand.gaps.empty());
  // 1000 x 1024 x 2 bytes read and as many written.
  EXPECT_EQ(demand.bytesRead, 2048000u);
  EXPECT_EQ(demand.bytesWritten, 2048000u);

  // Memory: 4096000 / 1024 = 4000. Compute: 1000 rows of (1024 subf +
  // 2048 max and sum) / 4096 + 2048 exp and divf / 512 = 750 + 4000 = 4750,
  // which binds (before, the 4096 declared rows made memory 16384 bind).
  device::RooflineBound spyre = bound(demand, "spyre_like", "DDR");
  EXPECT_DOUBLE_EQ(spyre.memory.cycles, 4000);
  EXPECT_DOUBLE_EQ(spyre.compute.cycles, 4750);
  EXPECT_EQ(spyre.binding, BoundKind::Compute);
  EXPECT_DOUBLE_EQ(spyre.cycles, 4750);

  // 4096000 / 512 = 8000 against 1000 x (3072 / 512 + 2048 / 128) = 22000.
  device::RooflineBound mesh = bound(demand, "mesh_device", "HBM");
  EXPECT_DOUBLE_EQ(mesh.memory.cycles, 8000);
  EXPECT_DOUBLE_EQ(mesh.compute.cycles, 22000);
}

TEST_F(ProductionRooflineTest, Layernorm1151x8192) {
  device::KernelDemand demand =
      countInput("layernorm_1151x8192.mlir", {{6, 1151}, {7, 8192}});
  EXPECT_TRUE(demand.gaps.empty());
  // Per row: pass 1, 8 x addf over 1024 = 8192; pass 2, 8 x (subf, mulf,
  // addf) = 24576; var + eps, 1; pass 3, 8 x (subf, mulf, mulf, addf) =
  // 32768: 65537 element-wise. 1151 rows, plus one sitofp per tile (32).
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f16()),
            65537.0 * 1151 + 32);
  // Per row: the two scalar divisions and the rsqrt.
  EXPECT_EQ(operations(demand, OpClass::Transcendental, f16()), 3.0 * 1151);
  // Per row: two reductions of 1024.
  EXPECT_EQ(operations(demand, OpClass::Reduction, f16()), 2048.0 * 1151);
  // X (1151 x 8192 x 2 = 18857984), W and B (8192 x 2 each) read; Y,
  // MEAN and RSTD (1151 x 2 each) written.
  EXPECT_EQ(demand.bytesRead, 18857984u + 2 * 16384u);
  EXPECT_EQ(demand.bytesWritten, 18857984u + 2 * 2302u);
  EXPECT_EQ(demand.smallestLoad, 2048u);
  // One f16 of MEAN or RSTD.
  EXPECT_EQ(demand.smallestStore, 2u);
  // Pass 1 addf, reduce, divf (mean); pass 2 subf, mulf, addf, reduce,
  // divf, addf, rsqrt (rstd); pass 3 mulf by rstd, mulf by W, addf.
  EXPECT_EQ(demand.chain, 13u);
  double elementwise = 65537.0 * 1151 + 32, transcendental = 3453,
         reduction = 2357248, bytes = 18890752.0 + 18862588;

  device::RooflineBound sample = bound(demand, "sample_device", "DDR");
  // 75433119 / 512 + 3453 / 128 + 2357248 / 512 = 151961.29.
  EXPECT_DOUBLE_EQ(sample.compute.cycles,
                   elementwise / 512 + transcendental / 128 + reduction / 512);
  // 37753340 / 256 = 147473.98: compute binds, barely.
  EXPECT_DOUBLE_EQ(sample.memory.cycles, bytes / 256);
  // 107 + 2048 / 64 + 13 + 107 + 2 / 64.
  EXPECT_DOUBLE_EQ(sample.latency.cycles, 259.03125);
  EXPECT_EQ(sample.binding, BoundKind::Compute);

  device::RooflineBound spyre = bound(demand, "spyre_like", "DDR");
  // 18416.29 + 6.74 + 575.5 = 18998.53 < 37753340 / 1024 = 36868.5.
  EXPECT_DOUBLE_EQ(spyre.compute.cycles, elementwise / 4096 +
                                             transcendental / 512 +
                                             reduction / 4096);
  EXPECT_DOUBLE_EQ(spyre.memory.cycles, bytes / 1024);
  // 156 + 2048 / 128 + 13 + 156 + 2 / 128.
  EXPECT_DOUBLE_EQ(spyre.latency.cycles, 341.015625);
  EXPECT_EQ(spyre.binding, BoundKind::Memory);
  EXPECT_DOUBLE_EQ(spyre.cycles, 36868.49609375);

  device::RooflineBound mesh = bound(demand, "mesh_device", "HBM");
  EXPECT_DOUBLE_EQ(mesh.compute.cycles, sample.compute.cycles);
  EXPECT_DOUBLE_EQ(mesh.memory.cycles, bytes / 512);
  // 85 + 2048 / 64 + 13 + 85 + 2 / 64.
  EXPECT_DOUBLE_EQ(mesh.latency.cycles, 215.03125);
  EXPECT_EQ(mesh.binding, BoundKind::Compute);
}

TEST_F(ProductionRooflineTest, RmsNorm256x4096) {
  device::KernelDemand demand = countInput("rmsnorm_256x4096.mlir", {{3, 256}});
  EXPECT_TRUE(demand.gaps.empty());
  // Per row: 4 blocks of a 1x1024 . 1024x1 product = 4096 MACs.
  EXPECT_EQ(operations(demand, OpClass::Matrix, f16()), 4096.0 * 256);
  // Per row: 4 addf of 1x1, the addf of eps, 4 x 2 mulf over 1024 = 8197.
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f16()), 8197.0 * 256);
  // Per row: divf and rsqrt on tensor<f16>.
  EXPECT_EQ(operations(demand, OpClass::Transcendental, f16()), 2.0 * 256);
  // X and W read (2097152 + 8192), Y written.
  EXPECT_EQ(demand.bytesRead, 2097152u + 8192u);
  EXPECT_EQ(demand.bytesWritten, 2097152u);
  EXPECT_EQ(demand.smallestLoad, 2048u);
  EXPECT_EQ(demand.smallestStore, 2048u);
  // matmul, addf, divf, addf, rsqrt, mulf, mulf.
  EXPECT_EQ(demand.chain, 7u);
  double bytes = 2105344.0 + 2097152;

  // The sample device has no matrix unit: its SFUs multiply at their f32
  // lanes, 8 x 32 MACs/cycle. SFU: 2098432 / 512 + 512 / 128 + 1048576 /
  // 256 = 4098.5 + 4 + 4096.
  device::RooflineBound sample = bound(demand, "sample_device", "DDR");
  EXPECT_DOUBLE_EQ(sample.compute.cycles, 8198.5);
  EXPECT_DOUBLE_EQ(sample.compute.uncomputable, 0);
  EXPECT_DOUBLE_EQ(sample.memory.cycles, bytes / 256);
  // 107 + 32 + 7 + 107 + 32.
  EXPECT_DOUBLE_EQ(sample.latency.cycles, 285);
  EXPECT_EQ(sample.binding, BoundKind::Memory);
  EXPECT_DOUBLE_EQ(sample.cycles, 16416);

  // SFP: 2098432 / 4096 + 512 / 512 = 513.3125; PT: 1048576 / 4096 = 256.
  device::RooflineBound spyre = bound(demand, "spyre_like", "DDR");
  EXPECT_DOUBLE_EQ(spyre.compute.cycles, 513.3125);
  EXPECT_EQ(spyre.compute.bottleneck, "SFP");
  ASSERT_EQ(spyre.compute.perClass.size(), 2u);
  EXPECT_EQ(spyre.compute.perClass[0].first, "PT");
  EXPECT_DOUBLE_EQ(spyre.compute.perClass[0].second, 256);
  EXPECT_DOUBLE_EQ(spyre.memory.cycles, 4104);
  // 4 grid points on 32 cores' routes: a tile spreads over 8, 2048 bytes
  // at 8 x 128 B/cycle. 156 + 2 + 7 + 156 + 2, turning at a PT (the first
  // class with work; its routes are as long as the SFP's).
  EXPECT_EQ(spyre.latency.split, 8);
  EXPECT_DOUBLE_EQ(spyre.latency.cycles, 323);
  EXPECT_EQ(spyre.binding, BoundKind::Memory);

  // VPU: 4098.5 + 4; MXU: 1048576 / 2048 = 512.
  device::RooflineBound mesh = bound(demand, "mesh_device", "HBM");
  EXPECT_DOUBLE_EQ(mesh.compute.cycles, 4102.5);
  EXPECT_EQ(mesh.compute.bottleneck, "VPU");
  EXPECT_DOUBLE_EQ(mesh.memory.cycles, bytes / 512);
  // 4 points on 16 routes: 2048 bytes at 4 x 64 B/cycle; 85 + 8 + 7 + 85
  // + 8.
  EXPECT_DOUBLE_EQ(mesh.latency.cycles, 193);
  EXPECT_EQ(mesh.binding, BoundKind::Memory);
}

TEST_F(ProductionRooflineTest, Rope163840x128) {
  device::KernelDemand demand = countInput("rope_163840x128.mlir");
  EXPECT_TRUE(demand.gaps.empty());
  // 8 tiles x 4 position chunks x 20 heads, each 6 ops over 256 x 64:
  // 640 x 6 x 16384 = 163840 x 64 x 6.
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f16()), 62914560.0);
  EXPECT_EQ(demand.operations.size(), 1u);
  // X (163840 x 128 x 2 = 41943040), COS and SIN (4096 x 64 x 2 = 524288
  // each) read; OUT written.
  EXPECT_EQ(demand.bytesRead, 41943040u + 2 * 524288u);
  EXPECT_EQ(demand.bytesWritten, 41943040u);
  // 256 x 64 f16.
  EXPECT_EQ(demand.smallestLoad, 32768u);
  EXPECT_EQ(demand.smallestStore, 32768u);
  // mulf, then subf or addf.
  EXPECT_EQ(demand.chain, 2u);
  double bytes = 42991616.0 + 41943040;

  device::RooflineBound sample = bound(demand, "sample_device", "DDR");
  EXPECT_DOUBLE_EQ(sample.compute.cycles, 62914560.0 / 512);
  EXPECT_DOUBLE_EQ(sample.memory.cycles, bytes / 256);
  // 107 + 32768 / 64 + 2 + 107 + 32768 / 64.
  EXPECT_DOUBLE_EQ(sample.latency.cycles, 1240);
  EXPECT_EQ(sample.binding, BoundKind::Memory);
  EXPECT_DOUBLE_EQ(sample.cycles, 331776);

  device::RooflineBound spyre = bound(demand, "spyre_like", "DDR");
  EXPECT_DOUBLE_EQ(spyre.compute.cycles, 15360);
  EXPECT_DOUBLE_EQ(spyre.memory.cycles, 82944);
  // 8 points on 32 routes: a tile over 4, 32768 / (4 x 128) = 64 each
  // way; 156 + 64 + 2 + 156 + 64.
  EXPECT_DOUBLE_EQ(spyre.latency.cycles, 442);
  EXPECT_EQ(spyre.binding, BoundKind::Memory);

  device::RooflineBound mesh = bound(demand, "mesh_device", "HBM");
  EXPECT_DOUBLE_EQ(mesh.compute.cycles, 122880);
  EXPECT_DOUBLE_EQ(mesh.memory.cycles, 165888);
  // 8 points on 16 routes: a tile over 2, 32768 / (2 x 64) = 256 each
  // way; 85 + 256 + 2 + 85 + 256.
  EXPECT_DOUBLE_EQ(mesh.latency.cycles, 684);
  EXPECT_EQ(mesh.binding, BoundKind::Memory);
}

TEST_F(ProductionRooflineTest, VectorAdd1048576) {
  // bench/kernels: the guide's masked f32 vector add at issue 14's 1 M
  // elements, 1024-element blocks dealt over a [32, 1] grid.
  std::string path =
      std::string(KTFLOW_BENCH_KERNELS_DIR) + "/vector_add_1048576.mlir";
  device::KernelDemand demand = countFile(path, {{3, 1048576}});
  EXPECT_TRUE(demand.gaps.empty());
  // One f32 addf per element.
  EXPECT_EQ(operations(demand, OpClass::Elementwise, f32()), 1048576.0);
  EXPECT_EQ(demand.operations.size(), 1u);
  // X and Y read, OUT written: 1048576 x 4 bytes each.
  EXPECT_EQ(demand.bytesRead, 2u * 4194304);
  EXPECT_EQ(demand.bytesWritten, 4194304u);
  // One block of 1024 f32.
  EXPECT_EQ(demand.smallestLoad, 4096u);
  EXPECT_EQ(demand.smallestStore, 4096u);
  EXPECT_EQ(demand.chain, 1u);

  // Memory binds everywhere: 12582912 bytes over the memory's bandwidth.
  // Compute: the f32 lanes of all compute units. Latency: a block of 4096
  // bytes in and out over the route's bandwidth, one cycle of addf (on
  // spyre_like the 32 points take 32 cores' routes, none split).
  struct Expected {
    const char *device, *memory, *unit;
    double compute, memoryCycles, latency;
  };
  for (const Expected &e :
       {// 8 SFUs x 32 lanes; 256 B/cycle; 107 + 4096 / 64 + 1 + 107 + 64.
        Expected{"sample_device", "DDR", "SFU", 4096, 49152, 343},
        // 64 SFPs x 32; 1024 B/cycle; 156 + 4096 / 128 + 1 + 156 + 32.
        Expected{"spyre_like", "DDR", "SFP", 512, 12288, 377},
        // 16 VPUs x 16; 512 B/cycle; 85 + 4096 / 64 + 1 + 85 + 64.
        Expected{"mesh_device", "HBM", "VPU", 4096, 24576, 299}}) {
    SCOPED_TRACE(e.device);
    device::RooflineBound b = bound(demand, e.device, e.memory);
    EXPECT_DOUBLE_EQ(b.compute.cycles, e.compute);
    EXPECT_EQ(b.compute.bottleneck, e.unit);
    EXPECT_DOUBLE_EQ(b.memory.cycles, e.memoryCycles);
    EXPECT_DOUBLE_EQ(b.latency.cycles, e.latency);
    EXPECT_EQ(b.binding, BoundKind::Memory);
  }

  // n = 1000000 ends inside block 976: its lanes past n are masked, so
  // the bytes are n's, 12000000; its addf still adds all 1024 lanes (the
  // masked ones read 0), 977 blocks of 1024 operations.
  device::KernelDemand masked = countFile(path, {{3, 1000000}});
  EXPECT_EQ(operations(masked, OpClass::Elementwise, f32()), 977.0 * 1024);
  EXPECT_EQ(masked.bytesRead, 8000000u);
  EXPECT_EQ(masked.bytesWritten, 4000000u);
  device::RooflineBound spyreMasked = bound(masked, "spyre_like", "DDR");
  EXPECT_DOUBLE_EQ(spyreMasked.memory.cycles, 12000000.0 / 1024);
  EXPECT_DOUBLE_EQ(spyreMasked.compute.cycles, 977.0 * 1024 / 2048);
}

} // namespace
