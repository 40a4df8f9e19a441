//===- TestStreamPlan.cpp - Shows the stream plan of compute stages -------===//
//
// This file implements --ktdf-test-stream-plan, a test pass that builds the
// StreamPlan --ktdf-tile-streams would build for every compute stage and
// reports it as remarks, so lit can check the analysis apart from the
// rewrite: on the stage the tile's rows and columns, the number of passes
// over a row and the streaming order; on every FIFO read the kind of the
// tensor it reads; on every generic its role, the kind of its result and
// the pass that computes it (a streamed value) or before which it is known
// (a row value); on every FIFO write the same of the value written.
// A stage the plan refuses gets the analysis's own located error.
//
//===----------------------------------------------------------------------===//

#include "StreamPlan.h"
#include "TestPasses.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::detail;

static StringRef stringifyKind(Kind kind) {
  switch (kind) {
  case Kind::Unknown:
    return "unknown";
  case Kind::Tile:
    return "tile";
  case Kind::Col:
    return "column";
  case Kind::Row:
    return "row";
  }
  return "unknown";
}

static StringRef stringifyRole(OpRole role) {
  switch (role) {
  case OpRole::Stream:
    return "stream";
  case OpRole::RowReduction:
    return "row reduction";
  case OpRole::RowOp:
    return "row op";
  case OpRole::ColReduction:
    return "column reduction";
  }
  return "unknown";
}

namespace {
struct TestStreamPlanPass
    : public PassWrapper<TestStreamPlanPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestStreamPlanPass)

  StringRef getArgument() const final { return "ktdf-test-stream-plan"; }
  StringRef getDescription() const final {
    return "Report the stream plan of every compute stage as remarks";
  }

  void runOnOperation() override {
    bool failedAny = false;
    getOperation().walk([&](StageOp stage) {
      if (!stage.isApplicable(UnitRole::vector_compute))
        return;
      FailureOr<StreamPlan> plan = StreamPlan::build(stage);
      if (failed(plan)) {
        failedAny = true;
        return;
      }
      report(stage, *plan);
    });
    if (failedAny)
      signalPassFailure();
  }

  /// "computed in pass N" for streamed values, "known before pass N" for
  /// row values (StreamPlan::pass).
  static std::string when(const StreamPlan &plan, Value v) {
    return (plan.isStreamed(v) ? "computed in pass " : "known before pass ") +
           std::to_string(plan.passOf(v));
  }

  static void report(StageOp stage, const StreamPlan &plan) {
    stage.emitRemark() << plan.rows << " rows of " << plan.cols << " columns, "
                       << plan.numPasses << " pass(es), "
                       << (plan.columnMajor ? "column" : "row") << " major";
    for (ReadFromFifoOp read : plan.reads)
      read.emitRemark() << "reads " << stringifyKind(plan.getKind(read));
    for (auto [generic, role] : plan.roles) {
      Value result = generic->getResult(0);
      generic.emitRemark() << stringifyRole(role) << ": "
                           << stringifyKind(plan.getKind(result)) << ", "
                           << when(plan, result);
    }
    for (WriteToFifoOp write : plan.writes)
      write.emitRemark() << "writes "
                         << stringifyKind(plan.getKind(write.getValue()))
                         << ", " << when(plan, write.getValue());
  }
};
} // namespace

void ktflow::test::registerTestStreamPlanPass() {
  PassRegistration<TestStreamPlanPass>();
}
