//===- IndexTensors.h - Kernel tensors read as coordinates ------*- C++ -*-===//
//
// This file declares which tensors of a kernel (arguments, or memory at a
// literal address) hold coordinates rather than data: the index views of
// `ktdp.construct_indirect_access_tile`
// (`ind(%Idx[...])`), the only index reads the scheduler lowers to
// `dfir.read_index`, whose value the simulator and the interpreter bound by
// the dimension it selects. Commands use it to give such a tensor, when no
// input names it, elements that address its dimension: random data there is
// out of bounds (a gather fails) or repeats (a scatter races).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_ANALYSIS_INDEXTENSORS_H
#define KTFLOW_ANALYSIS_INDEXTENSORS_H

#include <cstdint>
#include <map>
#include <optional>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace ktflow {

/// How a kernel uses an argument's tensor as indices.
struct IndexTensorUse {
  /// The smallest extent of the base-view dimensions it indexes: its
  /// elements must lie in [0, extent).
  int64_t extent = 0;
  /// The tensor indexed at that extent: the argument holding it, or the
  /// literal address of its view (neither when its view comes from
  /// elsewhere); and the dimension of its view.
  std::optional<unsigned> indexedArgument;
  std::optional<int64_t> indexedAddress;
  unsigned dimension = 0;
  /// Whether some tile it indexes is stored through (a scatter): two equal
  /// indices are then a write-write race.
  bool scatter = false;
};

/// The tensor arguments of `fn` some indirect access tile reads indices
/// from, by position. Tiles whose base has no static extent along the
/// dimension (or an empty one) do not count: nothing bounds their indices
/// statically.
std::map<unsigned, IndexTensorUse> findIndexTensors(mlir::func::FuncOp fn);

/// The same for the global-memory tensors `fn` (or a helper it calls)
/// views at literal addresses, by element address: the ADDR of the `@ADDR`
/// inputs.
std::map<int64_t, IndexTensorUse>
findLiteralIndexTensors(mlir::func::FuncOp fn);

} // namespace ktflow

#endif // KTFLOW_ANALYSIS_INDEXTENSORS_H
