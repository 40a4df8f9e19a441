//===- ScratchpadView.cpp - Whether a view is in the scratchpad -----------===//
//
// This file implements the test for a scratchpad (ct_local) memory view.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

using namespace mlir;

bool mlir::ktdp::isScratchpadView(ConstructMemoryViewOp view) {
  auto space =
      view ? normalizeMemorySpace(view.getMemorySpace()) : std::nullopt;
  return space && space->kind == MemoryKind::ct_local;
}
