//===- ScratchpadParts.h - Reloads of scratchpad parts ----------*- C++ -*-===//
//
// This file declares the analysis of ktdf-forward-scratchpad-parts: whether
// every load of the scratchpad parts of a distributed view returns what the
// loading tile stored there itself, and what replaces each such load.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SCRATCHPADPARTS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SCRATCHPADPARTS_H

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/STLExtras.h"

#include <string>

namespace mlir::ktdf {

using PartsRefusal = std::pair<Operation *, std::string>;

/// A part of the distributed view: a scratchpad box of one tile.
struct ScratchpadPart {
  ktdp::ConstructMemoryViewOp view;
  int64_t owner = 0;
  int64_t first = 0, last = 0; // element addresses
  ktdp::IntegerBox box;        // global coordinates
};

/// A load of a part's memory and what replaces it.
struct PartForward {
  ktdp::LoadOp load;
  /// The load the stored tensor came from (null: the stored tensor itself
  /// is what the load reads) and the constant offset of the reloaded box in
  /// it.
  ktdp::LoadOp source;
  ktdp::StoreOp store;
  SmallVector<int64_t> offset;
};

/// Whether `view` is a scratchpad (ct_local) view.
bool isScratchpadView(ktdp::ConstructMemoryViewOp view);

/// The analysis of one distributed view over scratchpad parts.
class ScratchpadParts {
public:
  explicit ScratchpadParts(ktdp::ConstructDistributedMemoryViewOp view)
      : view(view) {}

  /// Proves every load of the parts' memory a reload of the loading tile's
  /// own store, or says at which op and why not.
  LogicalResult analyze(PartsRefusal &refusal);
  void rewrite();
  bool forwards(ktdp::LoadOp load) const {
    return llvm::any_of(forwardList,
                        [&](const PartForward &f) { return f.load == load; });
  }

private:
  LogicalResult refuse(Operation *op, const Twine &why) {
    *refusal = {op, why.str()};
    return failure();
  }
  LogicalResult collectParts();
  LogicalResult collectStores();
  LogicalResult forwardLoad(ktdp::LoadOp load);
  /// Whether `op` may write a scratchpad, other than through the view.
  bool writesScratchpad(Operation *op) const;
  const ScratchpadPart *partViewedBy(ktdp::ConstructMemoryViewOp view) const;

  ktdp::ConstructDistributedMemoryViewOp view;
  func::FuncOp func;
  PartsRefusal *refusal = nullptr;
  SmallVector<SmallVector<int64_t>> points; // every grid point
  SmallVector<ScratchpadPart> parts;
  SmallVector<ktdp::StoreOp> stores; // through the view
  SmallVector<PartForward> forwardList;
};

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SCRATCHPADPARTS_H
