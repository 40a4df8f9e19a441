//===- DerivedValues.cpp - Values computed from a kernel argument ---------===//
//
// This file implements the closure of DerivedValues.h over arith, affine,
// runtime_arg_extract, scf.for, scf.yield and calls.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Analysis/DerivedValues.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

Value ktflow::calleeArgument(func::CallOp call, OpOperand &use) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (callee && !callee.isExternal() &&
      use.getOperandNumber() < callee.getNumArguments())
    return callee.getArgument(use.getOperandNumber());
  return {};
}

SetVector<Value> ktflow::derivedValues(Value root) {
  SetVector<Value> values;
  SmallVector<Value> worklist = {root};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!values.insert(v))
      continue;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      StringRef dialect = user->getName().getDialectNamespace();
      if (dialect == "arith" ||
          isa<affine::AffineApplyOp, affine::AffineMinOp, affine::AffineMaxOp,
              ktdp::RuntimeArgExtractOp>(user)) {
        worklist.append(user->result_begin(), user->result_end());
      } else if (auto forOp = dyn_cast<scf::ForOp>(user)) {
        if (BlockArgument arg = forOp.getTiedLoopRegionIterArg(&use))
          worklist.push_back(arg);
        if (OpResult result = forOp.getTiedLoopResult(&use))
          worklist.push_back(result);
      } else if (isa<scf::YieldOp>(user)) {
        Operation *parent = user->getParentOp();
        if (use.getOperandNumber() < parent->getNumResults())
          worklist.push_back(parent->getResult(use.getOperandNumber()));
      } else if (auto call = dyn_cast<func::CallOp>(user)) {
        if (Value arg = calleeArgument(call, use))
          worklist.push_back(arg);
      }
    }
  }
  return values;
}

bool ktflow::reachesViewOffset(Value root) {
  for (Value v : derivedValues(root))
    for (OpOperand &use : v.getUses())
      if (auto view = dyn_cast<ktdp::ConstructMemoryViewOp>(use.getOwner()))
        if (use.get() == view.getOffset())
          return true;
  return false;
}
