//===- Passes.h - ScheduleIR passes -----------------------------*- C++ -*-===//
//
// This file declares the ScheduleIR passes (mapping preparation,
// checkpoints, scheduling) and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_PASSES_H
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_PASSES_H

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDFArch/IR/KTDFArch.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ktdf {

/// The most trips ktdf-unroll-carried-loops unrolls by default.
constexpr int64_t kMaxUnrolledTrips = 64;

/// How ktdf-allocate-scratchpad's error begins when the pipelines need more
/// scratchpad than the device has; the compiler driver recognises it to
/// compile the kernel again with its rows streamed (ktflow::compile).
constexpr llvm::StringLiteral kScratchpadOverCapacity =
    "scratchpad over capacity";

/// The attribute ktdf-share-left-operands puts on a function whose grid
/// points it merged (their number): merged, the points' exchange views
/// hold that many times the rows, so the compiler driver compiles a kernel
/// over capacity again without the merge (ktflow::compile).
constexpr llvm::StringLiteral kMergedPoints = "ktdf.merged_points";

#define GEN_PASS_DECL
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"

/// Whether ktdf-unroll-carried-loops, with its default options, removes
/// the loop that carries values `loop` by itself: nothing uses what it
/// carries and it writes nothing, or its bounds and step are constants
/// giving at most kMaxUnrolledTrips trips. (It also unrolls loops whose
/// bounds become constants once an enclosing loop is unrolled.)
bool isUnrolledCarriedLoop(scf::ForOp loop);

/// Replaces `loop` by its iterations one after another (the unrolling of
/// ktdf-unroll-carried-loops) when its bounds and step are constants giving
/// at most `maxTrips` trips; returns whether it did.
bool unrollConstantLoop(scf::ForOp loop, int64_t maxTrips);

/// The unit attribute ktdf-carry-in-scratchpad puts on the scratchpad
/// views it makes for loop-carried tensors.
constexpr llvm::StringLiteral kCarriedViewAttrName = "ktdf.carried";

/// The unit attribute ktdf-stream-wide-rows puts on the loop over the
/// chunks of a gather it splits: ktdf-spread-iterations spreads such a
/// loop although its bounds are constant (merging its chunks would only
/// need more scratchpad).
constexpr llvm::StringLiteral kSpreadChunksAttrName = "ktdf.spread_chunks";

/// Whether `view` is a scratchpad view holding a loop-carried tensor
/// (made by ktdf-carry-in-scratchpad).
bool isCarriedView(Operation *view);

/// Why ktdf-carry-in-scratchpad cannot keep what `loop` carries in the
/// scratchpad (a scalar or a dynamically shaped tensor), or none.
std::optional<std::string> whyNotCarriable(scf::ForOp loop);

/// The unit attribute ktdf-split-matrix-groups and ktdf-split-shape-groups
/// put on the scratchpad views through which the parts of one compute
/// group (a matrix unit's and a vector unit's; stages of two tile shapes)
/// hand each other values.
constexpr llvm::StringLiteral kHandoverViewAttrName = "ktdf.handover";

/// Whether `view` is a handover view (kHandoverViewAttrName).
bool isHandoverView(Operation *view);

/// The unit attribute ktdf-tile-streams puts on a pipeline buffer holding
/// a streamed value that one pass over the row sends out (the drain writes
/// it) and a later pass of the same execution reads back (the feed reads
/// it): the lowering orders the drain's writes before the feed's reads.
constexpr llvm::StringLiteral kKeptBufferAttrName = "ktdf.kept";

/// The unit attribute ktdf-tile-streams puts on a feed's or drain's chunk
/// loop that moves one independent part of a pass over the row (one block
/// of several a pass would read chunk by chunk together): the lowering
/// waits for, or hands on, that part's buffers around the loop alone.
constexpr llvm::StringLiteral kPartLoopAttrName = "ktdf.part";

/// The unit attribute ktdf-resolve-distributed-views puts on the tiles of
/// a part it accesses a distributed view's tile through: nothing computed
/// from the coordinates their DMA masks is ever stored (each part's copy
/// stores only its part), so a load need not zero them in its buffer.
constexpr llvm::StringLiteral kPartPieceAttrName = "ktdf.part_piece";

/// The unit attribute ktdf-lower-inter-tile puts on the scratchpad views
/// it makes for the partials of inter-tile reductions and the chunks the
/// other tiles send.
constexpr llvm::StringLiteral kExchangeViewAttrName = "ktdf.exchange";

/// Whether `view` is a scratchpad view of an inter-tile reduction (made by
/// ktdf-lower-inter-tile).
bool isExchangeView(Operation *view);

/// Why ktdf-lower-inter-tile cannot turn the `ktdp.inter_tile_reduce`
/// `reduce` (with the produce of its future) into a `ktdf.all_reduce`,
/// with the op to report it at, or none.
std::optional<std::pair<Operation *, std::string>>
whyNotAllReduce(Operation *reduce);

/// Why ktdf-lower-inter-tile cannot turn the `ktdp.inter_tile_consume`
/// `consume` (with the produce of its future) into a `ktdf.tile_copy`, with
/// the op to report it at, or none.
std::optional<std::pair<Operation *, std::string>>
whyNotTileCopy(Operation *consume);

/// Why ktdf-resolve-distributed-views cannot make the access tiles of
/// distributed view `view` tiles of its parts (the op to report at and the
/// reason), or none when it can (ktdf-check-supported asks it).
std::optional<std::pair<Operation *, std::string>>
whyNotResolvable(Operation *view);

/// Why ktdf-forward-scratchpad-parts cannot prove every load of the
/// scratchpad parts of distributed view `view` a reload of the loading
/// tile's own store (the op to report at and the reason), or none when it
/// can (ktdf-resolve-distributed-views reports it).
std::optional<std::pair<Operation *, std::string>>
whyNotForwardable(Operation *view);

/// Whether ktdf-forward-scratchpad-parts replaces `load`, a load of a
/// distributed view's scratchpad part.
bool isForwardedScratchpadLoad(Operation *load);

/// Why ktdf-remote-scratchpad-loads cannot make the load `load` of another
/// tile's scratchpad an inter-tile copy (the op to report at and the
/// reason), or none when it can (ktdf-check-supported asks it).
std::optional<std::pair<Operation *, std::string>>
whyNotRemoteLoad(Operation *load);

/// Whether `load` is a `ktdp.load` of another tile's scratchpad: through a
/// `ct_local` view naming a tile (`ct_id`) on a grid of several tiles.
bool isRemoteScratchpadLoad(Operation *load);

/// The pieces each chunk of a ring all-reduce moves as (its own token
/// each), for chunks of `chunkElements` of `elementBytes`.
int64_t chooseRingPieces(int64_t chunkElements, int64_t elementBytes);

/// On a stage of an all-reduce pipeline: the lane of the core, counted
/// from the one its unit names, whose copy of that unit runs it.
inline constexpr llvm::StringLiteral kLaneOffsetAttr = "ktdf.lane_offset";

/// The position of linear tile `tile` (the interpreter's numbering, first
/// grid dimension fastest) among the points of a `ktdf.parallel` over
/// `extents` (first dimension slowest).
int64_t pointOfTile(int64_t tile, ArrayRef<int64_t> extents);

/// Why ktdf-uplift-while cannot turn `loop` into an scf.for (it does not
/// count), or none.
std::optional<std::string> whyNotCountedWhile(scf::WhileOp loop);

/// Whether unsigned `loop` runs the same trips comparing signed: both its
/// bounds are known not to be negative (ktdf-uplift-while then drops its
/// `unsigned`).
bool isSignedForEquivalent(scf::ForOp loop);

/// Whether ktdf-lower-if removes `branch`: it has no results, or every
/// value its branches yield is defined outside it (the results become
/// arith.select).
bool isLowerableIf(scf::IfOp branch);

/// The checkpoint names of the pipeline, in order.
ArrayRef<StringRef> getCheckpoints();

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_PASSES_H
