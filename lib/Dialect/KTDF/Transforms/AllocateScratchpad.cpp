//===- AllocateScratchpad.cpp - Private buffers in scratchpads ------------===//
//
// This file implements --ktdf-allocate-scratchpad. Every lane gets its own
// region of each scratchpad it uses; within a kernel's region the private
// buffers of all pipelines are packed one after another (pipelines on
// different units may run at the same time, so they never share bytes),
// each buffer's N copies back to back from an offset aligned to the
// largest transfer granularity of the memory's datapaths. The per-lane region size of each
// memory is recorded on the kernel as `ktdf.scratchpad`; a region that
// does not fit the memory, times the lanes sharing it, is a located error.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFALLOCATESCRATCHPAD
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;
using ktflow::device::NodeId;

static int64_t alignTo(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

namespace {
struct AllocateScratchpadPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFAllocateScratchpadBase<AllocateScratchpadPass>> {
  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(allocate(*target, func)))
        return signalPassFailure();
  }

  int64_t alignmentOf(const ktflow::device::DeviceModel &model, NodeId mem) {
    int64_t align = 64;
    for (auto list : {model.getIncoming(mem), model.getOutgoing(mem)})
      for (auto dp : list)
        for (int64_t g : model.getDatapath(dp).spec.transferGranularity)
          align = std::max(align, g);
    return align;
  }

  LogicalResult allocate(const ktflow::sched::ScheduleTarget &target,
                         func::FuncOp func) {
    const ktflow::device::DeviceModel &model = target.getModel();
    llvm::MapVector<StringRef, int64_t> cursor;
    SmallVector<PipelineOp> pipelines;
    func.walk([&](PipelineOp p) { pipelines.push_back(p); });
    if (pipelines.empty())
      return success();
    // The kernel's own scratchpad views (ct_local, at literal addresses)
    // keep their addresses: each lane's region starts with them.
    SmallVector<NamedAttribute> local;
    WalkResult walk = func.walk([&](ktdp::ConstructMemoryViewOp view) {
      auto kind = view->getAttrOfType<StringAttr>("ktdf.memory");
      APInt address;
      if (!ktdp::isScratchpadView(view) || !kind)
        return WalkResult::advance();
      if (!matchPattern(view.getOffset(), m_ConstantInt(&address)))
        return view.emitError("scratchpad views need a literal address"),
               WalkResult::interrupt();
      std::optional<std::pair<int64_t, int64_t>> span =
          ktdp::getLiteralByteSpan(view);
      if (!span && view.getSizes().empty() && view.getStrides().empty())
        return view.emitError("the scratchpad view's sizes and strides "
                              "reach past the bytes a 64-bit address counts"),
               WalkResult::interrupt();
      if (!span)
        return view.emitError("scratchpad views need static sizes and "
                              "strides (the bytes they take are reserved "
                              "before the scheduler's buffers)"),
               WalkResult::interrupt();
      if (span->first < 0)
        return view.emitError("the scratchpad view reaches ")
                   << -span->first
                   << " byte(s) before the start of its lane's region (a "
                      "negative stride from a literal address too small)",
               WalkResult::interrupt();
      int64_t &at = cursor[kind.getValue()];
      at = std::max(at, span->second);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    for (auto [kind, bytes] : cursor)
      local.push_back(NamedAttribute(
          StringAttr::get(&getContext(), kind),
          IntegerAttr::get(IntegerType::get(&getContext(), 64), bytes)));
    if (!local.empty())
      func->setAttr("ktdf.local", DictionaryAttr::get(&getContext(), local));
    for (PipelineOp pipeline : pipelines) {
      int64_t copies = pipeline.getNumCopies();
      for (auto priv : pipeline.getBody().front().getOps<PrivateOp>()) {
        auto type = dyn_cast<MemRefType>(priv.getType());
        if (!type)
          continue;
        StringRef kind = getBufferMemoryKind(type);
        std::optional<NodeId> mem = model.findByKind(kind);
        if (!mem)
          return priv.emitError("device has no memory of kind '")
                 << kind << "'";
        int64_t align = alignmentOf(model, *mem);
        int64_t bytes = type.getNumElements() *
                        ktflow::bytesPerElement(type.getElementType());
        int64_t &at = cursor[kind];
        at = alignTo(at, align);
        priv.setOffsetAttr(
            IntegerAttr::get(IntegerType::get(&getContext(), 64), at));
        at += bytes * copies;
      }
    }
    int64_t lanes = target.getLanes().size();
    SmallVector<NamedAttribute> sizes;
    for (auto [kind, used] : cursor) {
      NodeId mem = *model.findByKind(kind);
      // Lane regions start aligned too.
      int64_t bytes = alignTo(used, alignmentOf(model, mem));
      int64_t capacity = target.getMemoryTree().getCapacity(mem);
      // A memory inside the lane's own scopes is not shared with the other
      // lanes of the core.
      int64_t sharing =
          model.getInstancesPerCore(mem) >= lanes ? 1 : lanes;
      if (bytes * sharing > capacity)
        return pipelines.front().emitError(kScratchpadOverCapacity)
               << ": the pipelines of this kernel need " << bytes
               << " bytes of '" << kind << "' per lane, " << sharing
               << " lane(s) share it, and it has " << capacity << " bytes";
      sizes.push_back(NamedAttribute(
          StringAttr::get(&getContext(), kind),
          IntegerAttr::get(IntegerType::get(&getContext(), 64), bytes)));
    }
    func->setAttr("ktdf.scratchpad", DictionaryAttr::get(&getContext(), sizes));
    return success();
  }
};
} // namespace
