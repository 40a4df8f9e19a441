//===- AccessFootprint.h - The memory an access tile touches ----*- C++ -*-===//
//
// This file declares how the roofline count finds the device memory a
// kernel's loads and stores actually touch, as opposed to what its views
// declare: the elements of an access tile (its set's points offset by its
// anchor) that a view part holds, at the addresses the part's strides give,
// gathered per tensor into disjoint byte ranges so that a byte touched
// twice counts once. The coordinate rules are the interpreter's
// (lib/Interpreter/AccessTiles.cpp): coordinate c of a view part lives at
// offset + Σ (c_d - lower_d(coordinate_set)) * stride_d, a coordinate no
// part holds is masked, and the first part that holds it serves it.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_ANALYSIS_ACCESSFOOTPRINT_H
#define KTFLOW_LIB_ANALYSIS_ACCESSFOOTPRINT_H

#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <vector>

namespace ktflow {

/// Disjoint half-open ranges of bytes, added in any order and overlapping
/// freely; `size` counts each byte once.
class ByteRanges {
public:
  void add(int64_t begin, int64_t end);
  /// The number of distinct bytes added.
  uint64_t size();

private:
  /// Sorts the ranges and merges the ones that overlap or touch.
  void compact();

  std::vector<std::pair<int64_t, int64_t>> ranges;
  size_t sizeAfterCompaction = 0;
};

/// One part of a memory view with every value known.
struct ResolvedViewPart {
  /// The start, in elements from the start of its tensor.
  int64_t offset = 0;
  llvm::SmallVector<int64_t, 4> sizes, strides;
  mlir::IntegerSet set;
  llvm::SmallVector<int64_t, 4> setSymbols;
  /// The set's bounding box with its symbols bound.
  mlir::ktdp::IntegerBox box;
  bool boxShaped = false;

  /// Resolves the part; fails when its coordinate set is unbounded.
  static std::optional<ResolvedViewPart>
  get(int64_t offset, llvm::ArrayRef<int64_t> sizes,
      llvm::ArrayRef<int64_t> strides, mlir::IntegerSet set,
      llvm::ArrayRef<int64_t> setSymbols);
};

/// Called for `count` consecutive elements from `first` (elements from the
/// start of part `part`'s tensor) that an access touches.
using RunVisitor =
    llvm::function_ref<void(unsigned part, int64_t first, int64_t count)>;

/// Visits the elements of the view `parts` that the direct access tile with
/// anchor `anchor` and set `tileSet` (symbols bound to `tileSymbols`)
/// touches, in runs. Each run or point visited takes one from `budget`;
/// returns false, having visited only part of the tile, when the budget
/// runs out or the tile's set is unbounded.
bool forEachTouchedRun(llvm::ArrayRef<ResolvedViewPart> parts,
                       llvm::ArrayRef<int64_t> anchor, mlir::IntegerSet tileSet,
                       llvm::ArrayRef<int64_t> tileSymbols, uint64_t &budget,
                       RunVisitor visit);

/// Calls `visit` for every point of `set` (symbols bound to `symbols`), in
/// lexicographic order, taking one from `budget` each; false as above.
bool forEachSetPoint(mlir::IntegerSet set, llvm::ArrayRef<int64_t> symbols,
                     uint64_t &budget,
                     llvm::function_ref<void(llvm::ArrayRef<int64_t>)> visit);

/// The part of `parts` that serves `coord` and the element it lives at
/// (elements from the start of the part's tensor); none when masked.
std::optional<std::pair<unsigned, int64_t>>
locateCoordinate(llvm::ArrayRef<ResolvedViewPart> parts,
                 llvm::ArrayRef<int64_t> coord);

} // namespace ktflow

#endif // KTFLOW_LIB_ANALYSIS_ACCESSFOOTPRINT_H
