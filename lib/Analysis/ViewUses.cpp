//===- ViewUses.cpp - The uses of a tensor's memory views -----------------===//
//
// This file implements the walk of ViewUses.h.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Analysis/ViewUses.h"

#include "ktflow/Analysis/DerivedValues.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;

void ktflow::forEachViewUse(ArrayRef<Value> views,
                            function_ref<void(OpOperand &)> visit) {
  SetVector<Value> seen;
  SmallVector<Value> worklist(views.begin(), views.end());
  while (!worklist.empty()) {
    Value view = worklist.pop_back_val();
    if (!seen.insert(view))
      continue;
    for (OpOperand &use : view.getUses()) {
      Operation *user = use.getOwner();
      if (isa<ktdp::ConstructDistributedMemoryViewOp>(user)) {
        worklist.push_back(user->getResult(0));
        continue;
      }
      if (auto call = dyn_cast<func::CallOp>(user))
        if (Value arg = calleeArgument(call, use)) {
          worklist.push_back(arg);
          continue;
        }
      if (auto ret = dyn_cast<func::ReturnOp>(user)) {
        SmallVector<Value> results = callerResults(ret, use);
        if (!results.empty()) {
          worklist.append(results.begin(), results.end());
          continue;
        }
      }
      visit(use);
    }
  }
}
