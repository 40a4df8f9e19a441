//===- DuplicateStores.h - Pipelines every tile runs alike ------*- C++ -*-===//
//
// The pipelines of the grid's body that store on every tile the same data
// at the same place of device memory (DuplicateStores.cpp), and the cut of
// such a pipeline's DMA of device rows into pieces for several tiles
// (DuplicateStoreSplits.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_CONVERSION_KTDFTODFIR_DUPLICATESTORES_H
#define KTFLOW_CONVERSION_KTDFTODFIR_DUPLICATESTORES_H

#include "Lowering.h"

namespace mlir::ktdf::lowering {

/// A store of a duplicate pipeline and the device memory view it writes.
struct DuplicateStore {
  DataTransferOp op;
  ktdp::ConstructMemoryViewOp view;
};

/// A pipeline every tile runs to store the same data.
struct Duplicate {
  PipelineOp op;
  /// Its place among the grid body's pipelines.
  unsigned order = 0;
  SmallVector<DuplicateStore, 2> stores;
  /// The copies whose destinations it reads.
  SmallVector<TileCopyOp, 2> copies;
  int64_t bytes = 0;
};

/// The pipelines of `kernel`'s grid body that store what every tile
/// stores alike.
SmallVector<Duplicate> findDuplicates(KernelLowering &kernel);

/// The pieces, one per tile (ascending), that `dup` is cut into so that
/// the tiles with the fewest bytes so far (`load`, which counts them) end
/// level: when it is one DMA of whole rows of device memory to device
/// memory and more than one tile gets rows. Each piece is a pipeline of
/// its own in `dup`'s place, which is erased; nothing is cut otherwise
/// (empty).
SmallVector<std::pair<PipelineOp, int64_t>>
splitDuplicateRows(const Duplicate &dup, MutableArrayRef<int64_t> load);

} // namespace mlir::ktdf::lowering

#endif // KTFLOW_CONVERSION_KTDFTODFIR_DUPLICATESTORES_H
