//===- ScheduleTargetPass.h - Passes that ask for the target ----*- C++ -*-===//
//
// This file declares WithScheduleTarget, the one way a pass on a kernel
// module gets its ScheduleTarget: it builds (or reuses) the analysis, fails
// the pass when the target did not resolve (the analysis has reported the
// located error), and marks the target preserved otherwise, so the passes of
// one pipeline share one model of the device.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SCHEDULER_SCHEDULETARGETPASS_H
#define KTFLOW_SCHEDULER_SCHEDULETARGETPASS_H

#include "ktflow/Scheduler/ScheduleTarget.h"

namespace ktflow::sched {

/// Mixes requireScheduleTarget() into the generated base of a pass:
///   struct FooPass : WithScheduleTarget<impl::FooBase<FooPass>> {...};
template <typename PassBase> class WithScheduleTarget : public PassBase {
public:
  /// Lets the pass keep `using Base::Base;`.
  using Base = WithScheduleTarget;
  using PassBase::PassBase;

protected:
  /// The module's target, marked preserved; null (the pass failed) when it
  /// does not resolve.
  const ScheduleTarget *requireScheduleTarget() {
    auto &target = this->template getAnalysis<ScheduleTarget>();
    if (!target.isValid()) {
      this->signalPassFailure();
      return nullptr;
    }
    this->template markAnalysesPreserved<ScheduleTarget>();
    return &target;
  }
};

} // namespace ktflow::sched

#endif // KTFLOW_SCHEDULER_SCHEDULETARGETPASS_H
