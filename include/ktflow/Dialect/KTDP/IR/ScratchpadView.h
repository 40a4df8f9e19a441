//===- ScratchpadView.h - Scratchpad views and their bytes ------*- C++ -*-===//
//
// This file declares the test the scheduler and the lowering share for a
// memory view in a compute tile's scratchpad (`ct_local`), in either
// published spelling of the memory space, and the one rule for the bytes a
// view at a literal address spans (the kernel's own scratchpad views are
// reserved, ordered and read as launch inputs by it). Apart from KTDP.h so
// that using it rebuilds only its users.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDP_IR_SCRATCHPADVIEW_H
#define KTFLOW_DIALECT_KTDP_IR_SCRATCHPADVIEW_H

#include <cstdint>
#include <optional>
#include <utility>

namespace mlir::ktdp {

class ConstructMemoryViewOp;

/// Whether `view` is a scratchpad (ct_local) view; false for a null view.
bool isScratchpadView(ConstructMemoryViewOp view);

/// The bytes [first, last) that `view` spans when its address, sizes and
/// strides are literal (the address counts elements from the start of its
/// memory, or of its lane's region of a scratchpad), else std::nullopt (also
/// for a null view, and for bytes past int64). A negative stride reaches below
/// the address, so `first` may be negative; a view with a zero size spans no
/// bytes (first == last).
std::optional<std::pair<int64_t, int64_t>>
getLiteralByteSpan(ConstructMemoryViewOp view);

} // namespace mlir::ktdp

#endif // KTFLOW_DIALECT_KTDP_IR_SCRATCHPADVIEW_H
