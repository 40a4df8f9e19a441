//===- KeepCarriedChunks.h - ktdf-keep-carried-chunks internals -*- C++ -*-===//
//
// What KeepCarriedChunks.cpp (the interchange), ConstantFills.cpp (the
// kept chunk started from its constant fill) and FoldKeptChunks.cpp (the
// kept chunk folded into the row statistic) share.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_KEEPCARRIEDCHUNKS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_KEEPCARRIEDCHUNKS_H

#include "ktflow/Dialect/KTDF/IR/KTDF.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::ktdf::carried {
/// One carried view of the loop's pipeline: the feed's read of each chunk
/// into `in` and the drain's write of each chunk from `out`, and the
/// compute stage's ends of the two slots.
struct CarriedChunk {
  DataTransferOp read, write;
  ReadFromFifoOp take;
  WriteToFifoOp give;
};

/// A loop whose one pipeline can keep its carried chunks in the compute
/// unit, with the chunk loops of its three stages.
struct Interchange {
  scf::ForOp loop;
  PipelineOp pipeline;
  StageOp feed, compute, drain;
  scf::ForOp feedChunks, computeChunks, drainChunks;
  SmallVector<CarriedChunk> chunks;
};

/// The memory view of `v` when it is an access tile of a carried view.
Operation *carriedViewOf(Value v);

/// The loops from `stage`'s body down to `op`'s parent, outermost first;
/// none when `op` is not directly in a loop or a loop on the way carries
/// values.
std::optional<SmallVector<scf::ForOp>> chunkNest(Operation *op, StageOp stage);

/// A loop's bounds and step, when all three are constants.
struct ConstantBounds {
  int64_t lower, upper, step;
  bool operator==(const ConstantBounds &o) const {
    return lower == o.lower && upper == o.upper && step == o.step;
  }
  bool operator!=(const ConstantBounds &o) const { return !(*this == o); }
};
std::optional<ConstantBounds> constantBounds(scf::ForOp loop);

/// Whether every loop of `nest` runs exactly one trip.
bool oneTrip(ArrayRef<scf::ForOp> nest);

/// Whether `view` (a carried view) holds one element: a carried scalar
/// (ktdf-lower-carried-scalars), which any write of it fills whole.
bool holdsOneElement(Operation *view);

/// Erases the constants among `positions` (a transfer's indices, the
/// transfer gone or moved elsewhere) that nothing uses any more.
void eraseUnusedPositions(ArrayRef<Value> positions);

/// Whether two loop nests walk the same constant iteration space.
bool sameSpace(ArrayRef<scf::ForOp> a, ArrayRef<scf::ForOp> b);

/// Whether index `u` of the nest `a` names the same position as index `v`
/// of the nest `b`.
bool samePosition(Value u, ArrayRef<scf::ForOp> a, Value v,
                  ArrayRef<scf::ForOp> b);

/// After the interchange `ic` of a loop with one carried view: when the
/// next pipeline only folds that view into a row statistic, folds each
/// kept chunk into it in the compute stage instead, and erases that
/// pipeline and the view; when the view is a scalar that the next pipeline
/// only copies into another scratchpad view, the drain writes it there.
void foldKeptChunkIntoRow(Interchange &ic);

/// After the interchange `ic`: starts each carried chunk the block's
/// earlier pipeline only fills with a constant from that constant (the
/// compute stage no longer takes the chunk from the feed) and erases the
/// filling pipeline (ConstantFills.cpp).
void startFromConstants(Interchange &ic);

} // namespace mlir::ktdf::carried

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_KEEPCARRIEDCHUNKS_H
