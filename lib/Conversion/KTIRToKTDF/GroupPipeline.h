//===- GroupPipeline.h - The pipeline of one compute group ------*- C++ -*-===//
//
// This file declares what --ktir-to-ktdf's kernel walk hands to the
// builder of one compute group's pipeline (GroupPipeline.cpp): the group's
// loads, tensor computation and stores, in program order.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CONVERSION_KTIRTOKTDF_GROUPPIPELINE_H
#define KTFLOW_LIB_CONVERSION_KTIRTOKTDF_GROUPPIPELINE_H

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

namespace mlir::ktdf {

/// The loads, computation and stores of one compute group, in program order.
struct ComputeGroup {
  SmallVector<ktdp::LoadOp> loads;
  SmallVector<Operation *> compute;
  SmallVector<ktdp::StoreOp> stores;
  Operation *first = nullptr, *last = nullptr;
};

/// Builds the pipeline of `group` after its last op: a FIFO slot per load
/// and per store, load stages, the compute stage (reads, the group's tensor
/// ops with the constants they capture, writes) and store stages; then
/// erases the group. Fails, at the op, when something outside the group
/// uses its tensors or a tile's view has no device memory.
LogicalResult buildGroupPipeline(ComputeGroup &group);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_CONVERSION_KTIRTOKTDF_GROUPPIPELINE_H
