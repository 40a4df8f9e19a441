//===- RuntimeColumnBlocks.cpp - Wider blocks for run-time trip loops -----===//
//
// This file implements the part of --ktdf-merge-column-blocks that takes a
// column-block loop whose trip count is known only at run time (Triton's
// `for off in range(0, N, BLOCK)` over a plain `index` N: the normalising
// pass of layernorm_rows.mlir). Such a loop cannot become one block, and
// each of its trips is one pipeline execution whose block is stored by its
// own DMA transfer: on sample_device, whose store engine keeps 4 transfers
// in flight for its two lanes at a 100-cycle latency, each 1x128 block took
// ~26 cycles of the engine against 7.5 of compute. Split into loops of
// wider blocks, a row's blocks move as one transfer (or a few).
//
// With T the trip count (known at run time), blocks K = 2^k times as wide
// take the first floor(T / K) * K trips, blocks K / 2 as wide the next
// (at most one such block), and so on down to the loop itself, which takes
// at most one last trip:
//
//   scf.for %off = %c0 to %N step %c128 { body(%off) }
//
// becomes (K = 4)
//
//   %T = min(ceildivui(max(%N - 0, 0), 128), 4)
//   %e4 = (%T / 4) * 4 * 128          %e2 = (%T / 2) * 2 * 128
//   scf.for %off = %c0 to %e4 step %c512 { body x 4 wide (%off) }
//   scf.for %off = %e4 to %e2 step %c256 { body x 2 wide (%off) }
//   scf.for %off = %e2 to %N step %c128 { body(%off) }
//
// (4 blocks in the views of 512 columns: the wider loops take no trip past
// them, the last loop takes those.) Every block is the union of the blocks
// of the trips it replaces, in the same places.
//
//===----------------------------------------------------------------------===//

#include "ColumnBlocks.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::column_blocks;

/// Blocks are at most this many times as wide when a view's extent is
/// unknown: each width is one more pipeline in the program.
static constexpr int64_t kMaxUnboundedFactor = 8;

/// Widened blocks are at most this many bytes per tensor. The split pays
/// where a block's transfer is mostly DMA latency; a trip's execution of
/// a large block overlaps the next trip's, which a block of the next loop
/// does not: scale_matrix_dyn's 64x64 f16 blocks (8 KiB) widened to 64x256
/// ran 1,854 -> 2,786 cycles on mesh_device (70 x 300), 1,110 -> 1,474 on
/// spyre_like.
static constexpr int64_t kMaxRuntimeBlockBytes = 2048;

/// The widest factor K (a power of two) of `plan`'s blocks in `loop`.
static int64_t widestFactor(scf::ForOp loop, const ColumnBlockLoop &plan,
                            int64_t maxBytes) {
  int64_t blockBytes = widestBlockBytes(loop);
  int64_t limit = plan.blocksInViews.value_or(kMaxUnboundedFactor);
  if (blockBytes > 0)
    limit =
        std::min(limit, std::min(maxBytes, kMaxRuntimeBlockBytes) / blockBytes);
  limit = std::min<int64_t>(limit, kMaxUnrolledTrips);
  return limit < 2 ? 1 : int64_t(llvm::bit_floor(uint64_t(limit)));
}

/// A loop from `lb` to `ub` of blocks `factor` times as wide as `loop`'s,
/// before `loop`.
static void wideLoop(OpBuilder &b, scf::ForOp loop, const ColumnBlockLoop &plan,
                     Value lb, Value ub, int64_t factor) {
  Location loc = loop.getLoc();
  Value step = arith::ConstantIndexOp::create(b, loc, plan.step * factor);
  auto wide = scf::ForOp::create(b, loc, lb, ub, step);
  if (plan.blocksInViews)
    wide->setAttr(
        kBlocksEndAttrName,
        b.getI64IntegerAttr(plan.lowerBound + *plan.blocksInViews * plan.step));
  OpBuilder body = OpBuilder::atBlockBegin(wide.getBody());
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), wide.getInductionVar());
  widenBody(body, loop, mapping, factor);
}

bool column_blocks::splitRuntimeLoop(scf::ForOp loop,
                                     const ColumnBlockLoop &plan,
                                     int64_t maxBytes) {
  int64_t widest = widestFactor(loop, plan, maxBytes);
  if (widest < 2)
    return false;
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // The trip count, not negative: ceil(max(ub - lb, 0) / step).
  Value span =
      arith::SubIOp::create(b, loc, loop.getUpperBound(), loop.getLowerBound());
  span = arith::MaxSIOp::create(b, loc, span, index(0));
  Value trips = arith::CeilDivUIOp::create(b, loc, span, index(plan.step));
  // The wider blocks stop at the views; the loop itself takes the (masked)
  // trips past them.
  if (plan.blocksInViews)
    trips = arith::MinUIOp::create(b, loc, trips, index(*plan.blocksInViews));
  // Blocks `factor` wide take trips up to floor(T / factor) * factor.
  auto endOf = [&](int64_t factor) -> Value {
    Value groups = arith::DivUIOp::create(b, loc, trips, index(factor));
    Value offset =
        arith::MulIOp::create(b, loc, groups, index(factor * plan.step));
    return arith::AddIOp::create(b, loc, offset, loop.getLowerBound());
  };
  Value start = loop.getLowerBound();
  for (int64_t factor = widest; factor >= 2; factor /= 2) {
    Value end = endOf(factor);
    wideLoop(b, loop, plan, start, end, factor);
    start = end;
  }
  loop.getLowerBoundMutable().assign(start);
  return true;
}
