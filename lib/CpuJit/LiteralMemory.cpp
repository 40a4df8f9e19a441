//===- LiteralMemory.cpp - Views at literal addresses ---------------------===//
//
// This file gives the regions of literal-address memory buffers of their
// own (LiteralMemory.h).
//
//===----------------------------------------------------------------------===//

#include "LiteralMemory.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/IR/Matchers.h"

#include <map>

using namespace mlir;
using namespace ktflow::jit;

namespace {
/// The views at one literal address, all of one footprint.
struct LiteralViews {
  Type element;
  ktflow::ViewFootprint footprint;
  SmallVector<Operation *> views;
  /// Bytes [first, last) it covers.
  int64_t first = 0, last = 0;
};
} // namespace

LogicalResult
ktflow::jit::assignLiteralRegions(func::FuncOp fn, TileFunctionLayout &layout,
                                  DenseMap<Operation *, unsigned> &bufferOfView,
                                  std::string &why) {
  Block *entry = &fn.getBody().front();
  std::map<int64_t, LiteralViews> regions;
  WalkResult walk = fn.walk([&](ktdp::ConstructMemoryViewOp view) {
    if (view.getMemorySpaceInterface().getMemoryKind() !=
        ktdp::MemoryKind::global)
      return WalkResult::advance();
    APInt value;
    if (!matchPattern(view.getOffset(), m_ConstantInt(&value)))
      return WalkResult::advance(); // At a tensor argument (or refused later).
    int64_t address = value.getSExtValue();
    auto refuse = [&](const std::string &what) {
      why = "a view at literal address " + std::to_string(address) + " " +
            what + " (not lowered yet)";
      return WalkResult::interrupt();
    };
    if (view->getBlock() != entry)
      return refuse("built inside a loop or branch");
    // The interpreter's address space for literals (argument windows start
    // at 2^44).
    if (address < 0 || address >= (int64_t(1) << 44))
      return refuse("outside [0, 2^44)");
    Type element = cast<MemRefType>(view.getType()).getElementType();
    if (!element.isIntOrFloat())
      return refuse("of element type index");
    ktflow::ViewFootprint footprint;
    int64_t lastElement = 0;
    for (auto [size, stride] :
         llvm::zip(view.getMixedSizes(), view.getMixedStrides())) {
      std::optional<int64_t> n = getConstantIntValue(size);
      std::optional<int64_t> s = getConstantIntValue(stride);
      if (!n || !s || *n <= 0 || *s < 0)
        return refuse("with a dynamic or empty size or a dynamic or negative "
                      "stride");
      int64_t span;
      if (__builtin_mul_overflow(*n - 1, *s, &span) ||
          __builtin_add_overflow(lastElement, span, &lastElement))
        return refuse("reaching past 2^44");
      footprint.sizes.push_back(*n);
      footprint.strides.push_back(*s);
    }
    if (lastElement >= (int64_t(1) << 44) - address)
      return refuse("reaching past 2^44");
    int64_t width = ktflow::bytesPerElement(element);
    LiteralViews region;
    region.element = element;
    region.footprint = footprint;
    region.first = address * width;
    region.last = (address + lastElement + 1) * width;
    auto [it, inserted] = regions.emplace(address, region);
    if (!inserted && (it->second.element != element ||
                      it->second.footprint.sizes != footprint.sizes ||
                      it->second.footprint.strides != footprint.strides))
      return refuse("overlaps another view at it with another footprint or "
                    "element type");
    it->second.views.push_back(view);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // Regions in ascending address order must be disjoint in bytes (one
  // element type or several: the interpreter merges the first and
  // reinterprets the second).
  const LiteralViews *previous = nullptr;
  int64_t previousAddress = 0;
  for (auto &[address, region] : regions) {
    if (previous && region.first < previous->last) {
      why = "views at literal addresses " + std::to_string(previousAddress) +
            " and " + std::to_string(address) + " overlap (not lowered yet)";
      return failure();
    }
    previous = &region;
    previousAddress = address;
    unsigned buffer = layout.bufferArgs.size();
    layout.bufferArgs.push_back(kLiteralArgument);
    layout.literalRegions[buffer] = {address, region.footprint};
    for (Operation *view : region.views)
      bufferOfView[view] = buffer;
  }
  return success();
}
