//===- TestRoutingGraph.cpp - Shows the routes a device offers ------------===//
//
// This file implements --ktdf-test-routing-graph, a test pass that builds
// the RoutingGraph of every `ktdf_arch.device` in the module and reports
// what the scheduler asks of it as remarks, so lit can check routes against
// a device drawn by hand:
//
//   on each compute unit, per memory (in program order), the route from the
//   memory to the unit and the route back: "from M: A -> B -> C, 2 hops,
//   latency L, bandwidth W, fifo depth D" (or "from M: none");
//   on each memory, the units no route reaches from it and the units with
//   no route to it;
//   on the device, the units with no route from or to any memory.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "ktflow/Device/RoutingGraph.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace ktflow::device;

static void printRoute(llvm::raw_ostream &os, const DeviceModel &model,
                       const std::optional<Route> &route) {
  if (!route) {
    os << "none";
    return;
  }
  llvm::interleave(
      route->nodes, os, [&](NodeId node) { os << model.getNode(node).name; },
      " -> ");
  os << ", " << route->getNumHops() << " hops, latency " << route->latency
     << ", bandwidth " << llvm::format("%g", route->bandwidth);
  if (route->minFifoDepth)
    os << ", fifo depth " << *route->minFifoDepth;
}

static void printNames(llvm::raw_ostream &os, const DeviceModel &model,
                       ArrayRef<NodeId> nodes) {
  os << "[";
  llvm::interleaveComma(nodes, os,
                        [&](NodeId node) { os << model.getNode(node).name; });
  os << "]";
}

namespace {
struct TestRoutingGraphPass
    : public PassWrapper<TestRoutingGraphPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestRoutingGraphPass)

  StringRef getArgument() const final { return "ktdf-test-routing-graph"; }
  StringRef getDescription() const final {
    return "Report the routes between the memories and compute units of "
           "every device as remarks";
  }

  void runOnOperation() override {
    bool failedAny = false;
    getOperation().walk([&](mlir::ktdf_arch::DeviceOp device) {
      FailureOr<DeviceModel> model = DeviceModel::build(device);
      if (failed(model)) {
        failedAny = true;
        return;
      }
      report(*model);
    });
    if (failedAny)
      signalPassFailure();
  }

  static void report(const DeviceModel &model) {
    RoutingGraph routing(model);
    SmallVector<NodeId> memories = model.getMemories();
    for (NodeId unit : model.getUnits()) {
      const Node &node = model.getNode(unit);
      if (!node.isCompute())
        continue;
      InFlightDiagnostic remark = node.op->emitRemark();
      for (auto [i, memory] : llvm::enumerate(memories)) {
        StringRef name = model.getNode(memory).name;
        std::string text;
        llvm::raw_string_ostream os(text);
        os << (i ? "; " : "") << "from " << name << ": ";
        printRoute(os, model, routing.findRoute(memory, unit));
        os << "; to " << name << ": ";
        printRoute(os, model, routing.findRoute(unit, memory));
        remark << text;
      }
    }
    for (NodeId memory : memories) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "unreachable from it: ";
      printNames(os, model, routing.getUnitsUnreachableFrom(memory));
      os << "; not reaching it: ";
      printNames(os, model, routing.getUnitsNotReaching(memory));
      model.getNode(memory).op->emitRemark() << text;
    }
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "isolated units: ";
    printNames(os, model, routing.getIsolatedUnits());
    model.getOp()->emitRemark() << text;
  }
};
} // namespace

void ktflow::test::registerTestRoutingGraphPass() {
  PassRegistration<TestRoutingGraphPass>();
}
