//===- MapMemorySpaces.cpp - KTIR memory spaces to device memories --------===//
//
// This file implements --ktdf-map-memory-spaces: every memory view is
// tagged with the kind of the device memory its space maps to under the
// target's memory map, the single place where KTIR's two memory-space
// spellings meet the device.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/Target.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFMAPMEMORYSPACES
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
struct MapMemorySpacesPass
    : public ktdf::impl::KTDFMapMemorySpacesBase<MapMemorySpacesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<ktdf_arch::TargetOp> found = ktflow::device::findTarget(module);
    if (failed(found))
      return signalPassFailure();
    ktdf_arch::TargetOp target = *found;
    WalkResult result = module.walk([&](ktdp::ConstructMemoryViewOp view) {
      std::optional<ktdp::NormalizedMemorySpace> space =
          ktdp::normalizeMemorySpace(view.getMemorySpace());
      if (!space) {
        view.emitError("memory space ")
            << view.getMemorySpace() << " is not a KTIR memory space";
        return WalkResult::interrupt();
      }
      StringRef name = ktdp::stringifyMemoryKind(space->kind);
      std::optional<StringRef> kind = target.getDeviceMemoryKind(name);
      if (!kind) {
        view.emitError("the target's memory map does not map KTIR's '")
            << name << "' memory space to a device memory";
        return WalkResult::interrupt();
      }
      view->setAttr("ktdf.memory", StringAttr::get(&getContext(), *kind));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
