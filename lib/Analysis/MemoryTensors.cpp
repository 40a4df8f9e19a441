//===- MemoryTensors.cpp - Which tensor an access tile touches ------------===//
//
// This file implements the shared answers to which device-memory tensor an
// access tile lies in and whether two access tiles are the same.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Analysis/MemoryTensors.h"

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"

using namespace mlir;

std::optional<ktflow::DeviceTensor> ktflow::getDeviceTensor(Value accessTile) {
  auto view = ktdp::getAccessTileView(accessTile);
  if (auto indirect =
          accessTile.getDefiningOp<ktdp::ConstructIndirectAccessTileOp>())
    view = indirect.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>();
  if (!view)
    return std::nullopt;
  auto space = ktdp::normalizeMemorySpace(view.getMemorySpace());
  if (space && space->kind == ktdp::MemoryKind::ct_local)
    return std::nullopt;
  APInt address;
  if (matchPattern(view.getOffset(), m_ConstantInt(&address)))
    return DeviceTensor{nullptr, address.getSExtValue()};
  // A view at a computed address is in its argument's tensor.
  Value start = view.getOffset();
  if (auto computed = getViewAddress(start))
    start = computed->argument;
  return DeviceTensor{start.getAsOpaquePointer(), -1};
}

bool ktflow::isSameAccessTile(Value a, Value b) {
  if (a == b)
    return true;
  Operation *x = a.getDefiningOp(), *y = b.getDefiningOp();
  return x && y &&
         OperationEquivalence::isEquivalentTo(
             x, y, OperationEquivalence::exactValueMatch,
             /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}
