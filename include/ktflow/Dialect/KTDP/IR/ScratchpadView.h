//===- ScratchpadView.h - Whether a view is in the scratchpad ---*- C++ -*-===//
//
// This file declares the test the scheduler and the lowering share for a
// memory view in a compute tile's scratchpad (`ct_local`), in either
// published spelling of the memory space. Apart from KTDP.h so that using
// it rebuilds only its users.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDP_IR_SCRATCHPADVIEW_H
#define KTFLOW_DIALECT_KTDP_IR_SCRATCHPADVIEW_H

namespace mlir::ktdp {

class ConstructMemoryViewOp;

/// Whether `view` is a scratchpad (ct_local) view; false for a null view.
bool isScratchpadView(ConstructMemoryViewOp view);

} // namespace mlir::ktdp

#endif // KTFLOW_DIALECT_KTDP_IR_SCRATCHPADVIEW_H
