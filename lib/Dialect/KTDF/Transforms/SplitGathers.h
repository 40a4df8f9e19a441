//===- SplitGathers.h - Gathers larger than the scratchpad ------*- C++ -*-===//
//
// This file declares the part of ktdf-stream-wide-rows that moves a gather
// larger than the scratchpad in chunks (SplitGathers.cpp), and
// ktdf-split-index-bound-gathers, which cuts a gather bound by its index
// reads the same way (SplitIndexBoundGathers.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SPLITGATHERS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SPLITGATHERS_H

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <string>

namespace mlir::ktdf {

/// A gathered tensor that is only stored.
struct GatherCopy {
  ktdp::LoadOp load;
  ktdp::ConstructIndirectAccessTileOp source;
  /// Adds unit dimensions between the load and the store, or null.
  tensor::ExpandShapeOp expand;
  ktdp::StoreOp store;
  ktdp::ConstructAccessTileOp destination;
  /// The extents of the variable space (from 0).
  SmallVector<int64_t> extents;
  /// The stored tensor's dimension of each variable.
  SmallVector<unsigned> storedDim;
};

/// The bytes `load` brings into the scratchpad.
int64_t loadedBytes(ktdp::LoadOp load);

/// The copy `load` starts, or why it cannot be split (empty when `load`
/// is not a gather at all).
FailureOr<GatherCopy> matchGatherCopy(ktdp::LoadOp load, std::string &why);

/// The largest chunk: a gather over the scratchpad is megabytes, and
/// chunks of 32 KiB give each of a device's instances (64 lanes on
/// spyre_like) several to double-buffer, the DMA load of one overlapping
/// the store of the one before, while one DMA of a chunk's 128 rows of
/// 256 bytes still pays its route latency (~150 cycles) on 256 cycles of
/// transfer or more.
constexpr int64_t kMaxChunkBytes = 32768;

/// Rewrites `gather`'s subscripts in place for a gather of `variables`
/// variables whose variable `position[v]` stands for its variable v, and
/// whose first offsets.size() variables start offsets[v] further (the
/// offsets captured after its values). The caller sets the new variable
/// space, order and type.
void offsetGatherVariables(ktdp::ConstructIndirectAccessTileOp gather,
                           ValueRange offsets, ArrayRef<unsigned> position,
                           unsigned variables);

/// Replaces `copy` by a loop moving it in chunks of at most `maxBytes`
/// (and kMaxChunkBytes), marked for ktdf-spread-iterations.
void splitCopy(GatherCopy &copy, int64_t maxBytes);

/// Moves every gather of `func` whose tensor is over `maxTileBytes` and
/// is only stored, right after its load (through at most a
/// tensor.expand_shape adding unit dimensions), into a box tile in a
/// permuted order, in a loop over chunks of its leading variables;
/// warns at any other gather over the limit. Marks `func`
/// `ktdf.split_gathers` and returns true when it split one.
bool splitWideGathers(func::FuncOp func, int64_t maxTileBytes);

/// Moves every gather of `func`'s body that is bound by its index reads
/// (it reads an index for each element, its innermost variable feeding an
/// index subscript, or its runs share indices that `target`'s loading DMA
/// engine waits on longer than on the bytes: indexReadsBind) and is only
/// stored as above in a loop over about `lanes` chunks (of 16 elements and
/// a run at least): one DMA engine waits an index round trip per read,
/// and ktdf-spread-iterations deals the chunks over the lanes, each lane's
/// core with its engine. Returns true when it split one.
bool splitIndexBoundGathers(func::FuncOp func, int64_t lanes, int64_t engines,
                            const ktflow::sched::ScheduleTarget &target);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SPLITGATHERS_H
