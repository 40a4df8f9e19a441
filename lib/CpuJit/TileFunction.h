//===- TileFunction.h - A KTIR kernel as a function of one tile -*- C++ -*-===//
//
// This file declares the first step of the compiled tier: a KTIR kernel is
// rewritten into `ktflow_tile`, an upstream-MLIR function that runs one
// compute tile. Its arguments are one flat buffer (memref<?xT>) per tensor
// argument, then the kernel's own arguments (tensor arguments keep their
// start address `(k + 1) << 44`, so address arithmetic is unchanged;
// runtime_args become their underlying type), then the tile's x, y and z
// ids, then a status buffer. ktdp memory views become offsets into the
// buffers, access tiles become loop nests of guarded element accesses
// (docs/interpreter.md §3: masked positions load 0 and store nothing), and
// an access the interpreter would report as an error (outside a view's
// sizes or outside the tensor) records an error code in the status buffer
// instead, so the caller can rerun the kernel on the interpreter for the
// located diagnostic.
//
// What the tier cannot compile yet is refused with a reason before any
// rewriting, so `ktflow interp --engine=auto` falls back to the interpreter.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CPUJIT_TILEFUNCTION_H
#define KTFLOW_LIB_CPUJIT_TILEFUNCTION_H

#include "InterTile.h"

#include "ktflow/Analysis/TensorExtent.h"

#include "ktflow/Interpreter/Arguments.h"

#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <string>
#include <vector>

namespace ktflow::jit {

/// A view's footprint in a buffer (GrownViews.h).
struct GrownView {
  unsigned buffer;
  ViewFootprint footprint;
};

inline constexpr const char *kTileFunctionName = "ktflow_tile";

/// `void ktflow_jit_stored(int64_t buffer, int64_t lo, int64_t hi,
/// int64_t rows, int64_t step)`, which the caller provides: called after
/// each store that wrote any element, with the lowest and highest element
/// of the buffer each of its rows wrote: `lo + k * step` .. `hi + k *
/// step` for row k < rows (a guarded store reports each row by itself, a
/// dense tile its rows at once).
inline constexpr const char *kStoredRangeFunctionName = "ktflow_jit_stored";

/// `void ktflow_jit_view(int64_t buffer, int64_t offset, int64_t rank,
/// int64_t sizes[4]..., int64_t strides[4]...)`, which the caller provides:
/// called where a view at a computed address (not its tensor argument
/// itself) is built, with its footprint relative to the tensor's start.
/// Such views extend their tensor when they run (docs/interpreter.md §1).
inline constexpr const char *kViewFunctionName = "ktflow_jit_view";
inline constexpr unsigned kMaxReportedViewRank = 4;

/// `void ktflow_jit_yield()`, which the caller provides: called before each
/// load of a kernel whose tiles interleave (`interleaved`: one tile may
/// load what another stores), where the interpreter's tile yields to the
/// others (docs/interpreter.md §2, Interleave.h).
inline constexpr const char *kYieldFunctionName = "ktflow_jit_yield";

/// status[kStatusError] holds the first error code a tile hit (0 for none);
/// status[kStatusWorkLeft] what is left of the work budget, which the
/// caller sets and the kernel draws from (an unsigned count,
/// WorkBudget.h); status[kStatusWritten + b] is 1 once a store wrote into
/// buffer b.
inline constexpr int64_t kStatusError = 0;
inline constexpr int64_t kStatusWorkLeft = 1;
inline constexpr int64_t kStatusWritten = 2;
/// An access the interpreter reports as an error: a coordinate inside a
/// view's coordinate_set but outside its sizes, or an element outside the
/// tensor's extent.
inline constexpr int64_t kErrorOutsideMemory = 1;
/// A loop whose step is not positive.
inline constexpr int64_t kErrorLoopStep = 2;
/// An indirect tile's index read outside its index view, or a value read
/// outside the coordinate bounds of the tile's view.
inline constexpr int64_t kErrorIndex = 3;
/// Work that cannot fit what is left of the work budget.
inline constexpr int64_t kErrorWorkBudget = 4;

/// A region of literal-address memory (LiteralMemory.h): the views at
/// one literal address, all of one footprint (relative to the address).
struct LiteralRegion {
  int64_t address = 0;
  ViewFootprint footprint;
};

/// How the arguments of `ktflow_tile` are laid out.
struct TileFunctionLayout {
  /// The kernel argument each buffer backs, in position order.
  std::vector<unsigned> bufferArgs;
  /// The element type of each buffer (that of the views at its argument).
  std::vector<mlir::Type> bufferElementTypes;
  /// Whether some store writes each buffer (the others are only read).
  std::vector<bool> bufferStored;
  /// The kernel's argument types, runtime_args unwrapped.
  std::vector<mlir::Type> argTypes;
  /// The inter-tile ops, per tile of the grid (empty without any).
  InterTilePlan interTile;
  /// The buffer holding every tile's scratchpad (bufferArgs says
  /// kScratchpadArgument), zeros at the start, or -1; its element count.
  int scratchpadBuffer = -1;
  int64_t scratchpadElements = 0;
  /// The literal-address regions by buffer (bufferArgs says
  /// kLiteralArgument), in ascending address order.
  std::map<unsigned, LiteralRegion> literalRegions;
  /// Footprints of views at computed addresses known before the run
  /// (every tile builds them at its tensor plus a constant), in program
  /// order: their tensors are that large from the start.
  std::vector<GrownView> grownAtStart;
};

/// The bufferArgs entry of the scratchpads' buffer.
inline constexpr unsigned kScratchpadArgument = ~0u;
/// The bufferArgs entry of a literal-address region's buffer.
inline constexpr unsigned kLiteralArgument = ~1u;
/// The most bytes of scratchpads (of every tile at once) the tier
/// reserves: fresh pages, touched only where used.
inline constexpr int64_t kMaxScratchpadBytes = int64_t(1) << 36;

/// Replaces kernel `kernelName` of `module` (a copy the caller owns, callees
/// already inlined) by `ktflow_tile` for a grid of `numTiles` tiles; every
/// other function is erased. On
/// failure `whyNot` says what the tier cannot compile and the module is
/// left in an unspecified state.
mlir::FailureOr<TileFunctionLayout>
buildTileFunction(mlir::ModuleOp module, llvm::StringRef kernelName,
                  llvm::ArrayRef<interp::ArgumentInfo> args, int64_t numTiles,
                  bool interleaved, std::string &whyNot);

/// Whether `op` is a spyreop intrinsic the tier lowers (Intrinsics.cpp).
bool isLoweredIntrinsic(mlir::Operation *op);

/// Rewrites the intrinsics of `fn` into arith and math ops.
void lowerIntrinsics(mlir::Operation *fn);

/// Why the tier cannot compile the body of `fn` (an op, a type or a
/// construct it does not lower yet), or the empty string.
std::string findUnsupportedConstruct(mlir::Operation *fn);

} // namespace ktflow::jit

#endif // KTFLOW_LIB_CPUJIT_TILEFUNCTION_H
