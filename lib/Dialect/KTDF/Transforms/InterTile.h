//===- InterTile.h - What the inter-tile lowerings share --------*- C++ -*-===//
//
// This file declares what ktdf-lower-inter-tile's two rewrites share: the
// enumeration of a group's tiles, the recomputation of values a compute
// group would need on both sides of an exchange, and the rewrite of an
// `inter_tile_produce` + `inter_tile_consume` pair into a `ktdf.tile_copy`
// (InterTileCopies.cpp); the reduce's rewrite is in LowerInterTile.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_INTERTILE_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_INTERTILE_H

#include "ScratchpadViews.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>
#include <string>
#include <utility>

namespace mlir::ktdf {

/// The op to report at and why.
using InterTileRefusal = std::pair<Operation *, std::string>;

/// The tiles of `set` `(i)[g]` for group `g` on a grid of `numTiles`.
SmallVector<int64_t> tilesOfGroup(IntegerSet set, int64_t g, int64_t numTiles);

/// Grid tiles times groups the analyses of an exchange test for membership
/// (tilesOfGroup for each group, a table of each tile's group): about a
/// second. A grid past it (2^36 tiles in a mutant: a table of 2^36 entries)
/// is refused, not enumerated.
inline constexpr int64_t kMaxGroupMembershipTests = int64_t(1) << 24;

/// Why the groups of an exchange on a grid of `numTiles` are not
/// enumerated (`groups` of them), or nullopt.
std::optional<std::string> whyNotEnumerable(int64_t numTiles, size_t groups);

/// Whether `name` is an arith op an all-reduce combines partials with:
/// addf, mulf, maximumf, minimumf, maxnumf or minnumf.
bool isAllReduceCombiner(StringRef name);

/// Whether `value` is a splat constant (or a `tensor.splat` of one) equal
/// to the neutral element of `combiner` (either zero for addf).
bool isNeutral(Value value, StringRef combiner);

/// Computes again, right after `point`, each tensor value defined in its
/// block before `boundary` that an op after `point` uses (back to its
/// loads): a compute group must lie on one side of an exchange.
LogicalResult recomputeAfter(Operation *boundary, Operation *point,
                             func::FuncOp func, InterTileRefusal &refusal);

/// Whether `op` may be computed again (or on tiles other than the
/// producers): a load of a tensor no store of the kernel writes, or a
/// side-effect-free op.
bool isRecomputable(Operation *op, func::FuncOp func);

/// Why the loops around `op` (an inter-tile produce or reduce) cannot hold
/// an exchange, or nullopt: only `scf.for` loops whose trips are the same
/// on every tile (InterTileLoops.cpp).
std::optional<std::string> whyNotInLoops(Operation *op, func::FuncOp func);

/// Why the exchange views of `reduce`, inside a loop, could be overwritten
/// by the next trip before this trip's result is read, or nullopt: the
/// compute unit orders the reuse, so `partial` must be computed and the
/// result computed on before it is stored (InterTileLoops.cpp).
std::optional<std::string> whyNotReusable(Value partial,
                                          ktdp::InterTileReduceOp reduce);

/// Rewrites `consume` and the produce of its future into a store of the
/// partial into a scratchpad view, a `ktdf.tile_copy` and a load of the
/// copy (InterTileCopies.cpp).
LogicalResult lowerConsume(ktdp::InterTileConsumeOp consume, func::FuncOp func,
                           ScratchpadCursor &cursor, InterTileRefusal &refusal);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_INTERTILE_H
