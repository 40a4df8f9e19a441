//===- ScratchpadView.cpp - Scratchpad views and their bytes --------------===//
//
// This file implements the test for a scratchpad (ct_local) memory view and
// the bytes a view at a literal address spans.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;

bool mlir::ktdp::isScratchpadView(ConstructMemoryViewOp view) {
  auto space =
      view ? normalizeMemorySpace(view.getMemorySpace()) : std::nullopt;
  return space && space->kind == MemoryKind::ct_local;
}

std::optional<std::pair<int64_t, int64_t>>
mlir::ktdp::getLiteralByteSpan(ConstructMemoryViewOp view) {
  APInt address;
  if (!view || !matchPattern(view.getOffset(), m_ConstantInt(&address)))
    return std::nullopt;
  // Elements [first, last] before scaling; each dimension's extent moves
  // the end its stride points to.
  int64_t first = address.getSExtValue(), last = first;
  bool empty = false;
  for (auto [size, stride] :
       llvm::zip(view.getStaticSizes(), view.getStaticStrides())) {
    if (ShapedType::isDynamic(size) || ShapedType::isDynamic(stride))
      return std::nullopt;
    empty |= size == 0;
    if (size > 0)
      (stride < 0 ? first : last) += (size - 1) * stride;
  }
  int64_t bytes = ktflow::bytesPerElement(
      cast<MemRefType>(view.getType()).getElementType());
  int64_t start = address.getSExtValue() * bytes;
  if (empty)
    return std::make_pair(start, start);
  return std::make_pair(first * bytes, (last + 1) * bytes);
}
