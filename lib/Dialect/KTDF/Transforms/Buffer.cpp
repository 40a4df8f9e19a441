//===- Buffer.cpp - N-buffering of pipelines ------------------------------===//
//
// This file implements --ktdf-buffer: each pipeline gets `modulo(size: N)`
// with N from the cost model, which weighs the latency of the route from
// device memory against the time the slowest stage spends per iteration,
// within what the scratchpad holds for every lane that shares it.
//
//===----------------------------------------------------------------------===//

#include "ScratchpadViews.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Scheduler/CostModel.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"
#include "ktflow/Support/ElementBytes.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

#include <limits>

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFBUFFER
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// Bytes of a buffer type.
static int64_t bytesOf(MemRefType type) {
  return type.getNumElements() * ktflow::bytesPerElement(type.getElementType());
}

namespace {
struct BufferPass : public ktflow::sched::WithScheduleTarget<
                        ktdf::impl::KTDFBufferBase<BufferPass>> {
  using Base::Base;
  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    const ktflow::sched::Lane &lane = target->getLanes().front();
    llvm::MapVector<PipelineOp, int64_t> depths;
    getOperation().walk([&](PipelineOp pipeline) {
      int64_t n = depth;
      if (n <= 0)
        n = chooseFor(*target, lane, pipeline);
      depths[pipeline] = n;
    });
    if (depth <= 0)
      fitTogether(*target, depths);
    for (auto [pipeline, n] : depths)
      pipeline.setModuloAttr(
          IntegerAttr::get(IntegerType::get(&getContext(), 64), n));
  }

  /// The bytes of one copy of `pipeline`'s buffers in memory `kind`.
  static int64_t bytesIn(PipelineOp pipeline, StringRef kind) {
    int64_t bytes = 0;
    for (auto priv : pipeline.getBody().front().getOps<PrivateOp>())
      if (auto type = dyn_cast<MemRefType>(priv.getType()))
        if (getBufferMemoryKind(type) == kind)
          bytes += bytesOf(type);
    return bytes;
  }

  /// The bytes of memory `kind` that the kernels' own scratchpad views
  /// (ct_local, at literal addresses: the kernel's, carried values,
  /// hand-overs, exchanges) take at the start of each lane's region.
  int64_t viewBytesIn(StringRef kind) {
    int64_t bytes = 0;
    getOperation().walk([&](ktdp::ConstructMemoryViewOp view) {
      auto memory = view->getAttrOfType<StringAttr>("ktdf.memory");
      if (!memory || memory.getValue() != kind)
        return;
      if (std::optional<int64_t> end = getLiteralScratchpadEnd(view))
        bytes = std::max(bytes, *end);
    });
    return bytes;
  }

  /// Each depth is chosen against the lane's whole share of the
  /// scratchpad, but ktdf-allocate-scratchpad packs the kernel's views and
  /// every pipeline's copies side by side: where together they do not fit,
  /// the pipeline
  /// whose extra copies take the most bytes gives one up, until they fit
  /// or every pipeline is single-buffered (a kernel split into a matrix
  /// and a vector pipeline per group, ktdf-split-matrix-groups, on
  /// mesh_device's 512 KiB SPM).
  void fitTogether(const ktflow::sched::ScheduleTarget &t,
                   llvm::MapVector<PipelineOp, int64_t> &depths) {
    llvm::StringSet<> kinds;
    for (auto &[pipeline, n] : depths)
      for (auto priv : pipeline.getBody().front().getOps<PrivateOp>())
        if (auto type = dyn_cast<MemRefType>(priv.getType()))
          kinds.insert(getBufferMemoryKind(type));
    for (const auto &entry : kinds) {
      StringRef kind = entry.getKey();
      std::optional<ktflow::device::NodeId> node =
          t.getModel().findByKind(kind);
      if (!node)
        continue;
      int64_t capacity = t.getMemoryTree().getCapacity(*node) /
                             static_cast<int64_t>(t.getLanes().size()) -
                         viewBytesIn(kind);
      auto total = [&] {
        int64_t sum = 0;
        for (auto &[pipeline, n] : depths)
          sum += n * bytesIn(pipeline, kind);
        return sum;
      };
      while (total() > capacity) {
        PipelineOp largest;
        for (auto &[pipeline, n] : depths)
          if (n > 1 &&
              (!largest || bytesIn(pipeline, kind) > bytesIn(largest, kind)))
            largest = pipeline;
        if (!largest || bytesIn(largest, kind) == 0)
          break;
        --depths[largest];
      }
    }
  }

  int64_t chooseFor(const ktflow::sched::ScheduleTarget &t,
                    const ktflow::sched::Lane &lane, PipelineOp pipeline) {
    ktflow::sched::DepthQuery query;
    query.dmaLatency = lane.inbound.route.latency;
    int64_t bytes = 0, loaded = 0;
    std::optional<StringRef> kind;
    for (auto priv : pipeline.getBody().front().getOps<PrivateOp>())
      if (auto type = dyn_cast<MemRefType>(priv.getType())) {
        bytes += bytesOf(type);
        kind = getBufferMemoryKind(type);
      }
    for (auto stage : pipeline.getBody().front().getOps<StageOp>())
      if (stage.isApplicable(UnitRole::dma_load))
        for (auto transfer : stage.getBody().front().getOps<DataTransferOp>())
          if (auto type = dyn_cast<MemRefType>(transfer.getDst().getType()))
            loaded += bytesOf(type);
    query.stageCycles = loaded / std::max(lane.inbound.route.bandwidth, 1.0);
    query.bytesPerCopy = bytes;
    query.capacity = std::numeric_limits<int64_t>::max();
    if (kind)
      if (auto node = t.getModel().findByKind(*kind))
        query.capacity = t.getMemoryTree().getCapacity(*node) /
                         static_cast<int64_t>(t.getLanes().size());
    return ktflow::sched::chooseDepth(query);
  }
};
} // namespace
