//===- HoistCandidates.h - Loads that can leave their loops -----*- C++ -*-===//
//
// This file declares the analysis of --ktdf-hoist-invariant-transfers
// (HoistCandidates.cpp): the DMA load stages whose access tile does not
// change across an enclosing loop or the grid, and the row spans a loop
// slides a tile along. HoistInvariantTransfers.cpp moves them.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_HOISTCANDIDATES_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_HOISTCANDIDATES_H

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <vector>

namespace mlir::ktdf::hoisting {

/// A row span: the loop sliding a tile along the last dimension of its
/// view, and the extent loaded once instead.
struct Span {
  scf::ForOp slider;
  ktdp::ConstructAccessTileOp tile;
  /// The tile's index operand that is the slider's induction variable.
  unsigned dim = 0;
  /// The view's extent along its last dimension, and the span's (one more
  /// tile of zeros, where a block past the view reads).
  int64_t extent = 0, width = 0;
};

/// A load stage that can leave its loop, and the loop (or the grid, a
/// ktdf.parallel) it leaves.
struct Candidate {
  StageOp stage;
  DataTransferOp transfer;
  PrivateOp buffer;
  Operation *scope = nullptr;
  std::optional<Span> span;
  /// Bytes of a span's buffer, in scratchpad `kind`.
  int64_t bytes = 0;
  StringRef kind;
  /// Loads of the same span in later sibling loops, or of the same tile in
  /// later sibling pipelines (a repeated load), which read this one.
  std::vector<Candidate> sharers;
};

/// The load stage's candidate, when its tile is invariant across at least
/// one enclosing loop that runs more than once. With `leaveGrid`, a tile
/// invariant across the grid too leaves it where a lane walks several
/// points, or where the grid's lanes outnumber the device's `cores` (0:
/// unknown), so that the lanes of a core may share it.
std::optional<Candidate> analyse(StageOp stage, PipelineOp pipeline,
                                 bool leaveGrid, int64_t cores = 0);

/// The row-span candidates of `pipelines`: one per span, its later loads in
/// sibling loops as sharers, within a quarter of the lane's scratchpad
/// (`budget`, by scratchpad kind, is what is left of it).
SmallVector<Candidate> analyseSpans(ArrayRef<PipelineOp> pipelines,
                                    bool leaveGrid,
                                    const ktflow::sched::ScheduleTarget &target,
                                    llvm::StringMap<int64_t> &budget);

/// The repeated loads of `pipelines`: a load whose access tile later
/// sibling pipelines of its block load again (a row loaded before an
/// all-reduce and again after it), nothing in between writing the tensor,
/// with those later loads as sharers; its scope is its own pipeline. Within
/// the lane's span `budget`, as spans; stages in `taken` (another
/// candidate's) are left alone.
SmallVector<Candidate>
analyseRepeats(ArrayRef<PipelineOp> pipelines,
               const DenseSet<Operation *> &taken,
               const ktflow::sched::ScheduleTarget &target,
               llvm::StringMap<int64_t> &budget);

/// Sizes a plain invariant candidate `c` (no span, no sharers): `bytes` and
/// `kind` of one copy of its buffer, the span `budget` of that kind opened
/// (nothing taken: its extra copies are taken where they are given).
bool sizeInvariant(Candidate &c, const ktflow::sched::ScheduleTarget &target,
                   llvm::StringMap<int64_t> &budget);

/// The view `c`'s span load reads through when its loops run a number of
/// trips known only at run time (HoistSpanReach.cpp): a copy of its view,
/// built at `b` (where the span's load goes; `outside` maps the values
/// cloned there), whose last dimension holds only the columns before the
/// end of the last block any of its loops reads. Null where a loop's
/// bounds are not available there, or the view is not a box from 0 of
/// static sizes.
Value reachedView(Candidate &c, OpBuilder &b, IRMapping &outside);

// Queries shared by the invariant, span and repeat analyses
// (HoistCandidates.cpp, HoistSpans.cpp).

/// Whether `v` has the same value at every iteration of `loop` (an scf.for
/// or the grid): defined outside it, or computed inside by side-effect-free
/// ops from such values.
bool isInvariant(Value v, Operation *loop);

/// Whether something in `loop` may write the memory `view` reads: a
/// transfer into an access tile on the same tensor, or on a view whose
/// tensor is not a kernel argument's (literal addresses may overlap). With
/// `sameMemory`, only views of the same kind of memory count: a carried
/// accumulator in the scratchpad does not write device memory. (Invariant
/// loads keep counting it: a hoisted load has one copy, so the next grid
/// point's cannot be fetched ahead, and attention's Q block on
/// sample_device was slower out of its key loop.)
bool writtenIn(Operation *loop, ktdp::ConstructMemoryViewOp view,
               bool sameMemory = false);

/// The constant trip count of `loop`, if its bounds are constants.
std::optional<int64_t> tripCount(scf::ForOp loop);

/// The first-hop DMA load of `stage`: one transfer of an access tile into a
/// buffer of `pipeline` that nothing else writes.
std::optional<Candidate> loadOf(StageOp stage, PipelineOp pipeline);

/// The outermost op enclosing `from` (scf.for loops, up to the grid itself)
/// across which every value `needs` is invariant and nothing writes `view`;
/// `repeats` tells whether one of them runs more than once.
Operation *outermostScope(Operation *from, ValueRange needs,
                          ktdp::ConstructMemoryViewOp view, bool leaveGrid,
                          int64_t cores, bool sameMemory, bool &repeats);

} // namespace mlir::ktdf::hoisting

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_HOISTCANDIDATES_H
