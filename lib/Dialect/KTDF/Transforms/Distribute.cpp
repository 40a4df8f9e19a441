//===- Distribute.cpp - The launch grid over identical instances ----------===//
//
// This file implements --ktdf-distribute: the kernel's `ktdf.parallel` is
// split over the cores of the device and, with `use-lanes`, over the
// identical compute lanes of each core (instance k runs on core k mod C,
// lane k div C, so the cores fill first).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFDISTRIBUTE
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
struct DistributePass : public ktdf::impl::KTDFDistributeBase<DistributePass> {
  using Base::Base;
  void runOnOperation() override {
    auto &target = getAnalysis<ktflow::sched::ScheduleTarget>();
    if (!target.isValid())
      return signalPassFailure();
    markAnalysesPreserved<ktflow::sched::ScheduleTarget>();
    int64_t lanes =
        useLanes ? static_cast<int64_t>(target.getLanes().size()) : 1;
    int64_t instances = target.getNumCores() * lanes;
    getOperation().walk([&](ParallelOp parallel) {
      int64_t n = std::min(instances, parallel.getNumPoints());
      parallel.setNumInstancesAttr(
          IntegerAttr::get(IntegerType::get(&getContext(), 64), n));
    });
  }
};
} // namespace
