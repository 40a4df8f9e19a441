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

#include "llvm/Support/CheckedArithmetic.h"

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
  // the end its stride points to. The sizes and strides are the user's: a
  // span past int64 (a stride of 2^62) is none, not a wrapped one.
  std::optional<int64_t> first = address.getSExtValue(), last = first;
  bool empty = false;
  for (auto [size, stride] :
       llvm::zip(view.getStaticSizes(), view.getStaticStrides())) {
    if (ShapedType::isDynamic(size) || ShapedType::isDynamic(stride))
      return std::nullopt;
    empty |= size == 0;
    if (size <= 0)
      continue;
    std::optional<int64_t> &end = stride < 0 ? first : last;
    std::optional<int64_t> extent = llvm::checkedMul(size - 1, stride);
    end = end && extent ? llvm::checkedAdd(*end, *extent) : std::nullopt;
  }
  int64_t bytes = ktflow::bytesPerElement(
      cast<MemRefType>(view.getType()).getElementType());
  auto scaled = [&](std::optional<int64_t> element) -> std::optional<int64_t> {
    return element ? llvm::checkedMul(*element, bytes) : std::nullopt;
  };
  std::optional<int64_t> begin = scaled(first),
                         end = scaled(last ? llvm::checkedAdd(*last, int64_t(1))
                                           : std::nullopt);
  if (empty)
    begin = end = scaled(address.getSExtValue());
  if (!begin || !end)
    return std::nullopt;
  return std::make_pair(*begin, *end);
}
