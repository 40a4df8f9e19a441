//===- DerivedValues.cpp - Values computed from a kernel argument ---------===//
//
// This file implements the closure of DerivedValues.h over arith, affine,
// runtime_arg_extract, scf.for, scf.yield and calls, and of its part that keeps
// an argument the base of an address.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Analysis/DerivedValues.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
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

SmallVector<func::FuncOp> ktflow::getReachableFunctions(func::FuncOp fn) {
  SetVector<Operation *> seen;
  SmallVector<func::FuncOp> worklist = {fn};
  SmallVector<func::FuncOp> result;
  while (!worklist.empty()) {
    func::FuncOp f = worklist.pop_back_val();
    if (!seen.insert(f))
      continue;
    result.push_back(f);
    f.walk([&](func::CallOp call) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (callee && !callee.isExternal())
        worklist.push_back(callee);
    });
  }
  return result;
}

SmallVector<func::CallOp> ktflow::getCallers(func::FuncOp fn) {
  SmallVector<func::CallOp> calls;
  Operation *scope = SymbolTable::getNearestSymbolTable(fn->getParentOp());
  if (!scope)
    return calls;
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(fn, scope))
    for (const SymbolTable::SymbolUse &use : *uses)
      if (auto call = dyn_cast<func::CallOp>(use.getUser()))
        calls.push_back(call);
  return calls;
}

SmallVector<Value> ktflow::callerResults(func::ReturnOp ret, OpOperand &use) {
  SmallVector<Value> results;
  if (auto fn = ret->getParentOfType<func::FuncOp>())
    for (func::CallOp call : getCallers(fn))
      if (use.getOperandNumber() < call.getNumResults())
        results.push_back(call.getResult(use.getOperandNumber()));
  return results;
}

/// The coefficient with which operand `position` of an affine map (its
/// dimensions, then its symbols) enters `expr`; none when it enters other
/// than linearly (under a floordiv, a mod or a product of operands).
static std::optional<int64_t> coefficientOf(AffineExpr expr, unsigned position,
                                            unsigned numDims) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dim.getPosition() == position ? 1 : 0;
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return numDims + symbol.getPosition() == position ? 1 : 0;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return 0;
  std::optional<int64_t> lhs =
      coefficientOf(binary.getLHS(), position, numDims);
  std::optional<int64_t> rhs =
      coefficientOf(binary.getRHS(), position, numDims);
  if (!lhs || !rhs)
    return std::nullopt;
  if (expr.getKind() == AffineExprKind::Add)
    return *lhs + *rhs;
  if (expr.getKind() == AffineExprKind::Mul) {
    if (auto c = dyn_cast<AffineConstantExpr>(binary.getRHS()))
      return *lhs * c.getValue();
    if (auto c = dyn_cast<AffineConstantExpr>(binary.getLHS()))
      return *rhs * c.getValue();
  }
  if (*lhs == 0 && *rhs == 0)
    return 0;
  return std::nullopt;
}

/// Whether operand `use` of an affine.apply/min/max is added with
/// coefficient 1 into one of the map's results.
static bool isAffineBase(AffineMap map, OpOperand &use) {
  unsigned position = use.getOperandNumber();
  return llvm::any_of(map.getResults(), [&](AffineExpr result) {
    return coefficientOf(result, position, map.getNumDims()) == 1;
  });
}

/// Whether the results of `user` are its operand `use` plus other terms.
/// A minimum, maximum or select is one of its operands, whichever it
/// picks: the signedness of arith.minui / arith.maxui changes which (a
/// base that wrapped below 0 reads huge unsigned), not that the result is
/// an operand, so they keep the base of either operand as the signed ones
/// do.
static bool keepsBase(Operation *user, OpOperand &use) {
  if (isa<arith::AddIOp, arith::IndexCastOp, arith::IndexCastUIOp,
          arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::MinSIOp,
          arith::MinUIOp, arith::MaxSIOp, arith::MaxUIOp>(user))
    return true;
  if (isa<arith::SubIOp>(user))
    return use.getOperandNumber() == 0;
  if (isa<arith::SelectOp>(user))
    return use.getOperandNumber() != 0;
  if (auto extract = dyn_cast<ktdp::RuntimeArgExtractOp>(user))
    return extract.getKind() == ktdp::RuntimeArgExtractKind::value;
  if (auto apply = dyn_cast<affine::AffineApplyOp>(user))
    return isAffineBase(apply.getAffineMap(), use);
  if (auto min = dyn_cast<affine::AffineMinOp>(user))
    return isAffineBase(min.getAffineMap(), use);
  if (auto max = dyn_cast<affine::AffineMaxOp>(user))
    return isAffineBase(max.getAffineMap(), use);
  return false;
}

/// The closure of `root` over every computation, or only over those that
/// keep it the base of their results (`baseOnly`).
static SetVector<Value> closure(Value root, bool baseOnly) {
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
        if (!baseOnly || keepsBase(user, use))
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
        if (Value arg = ktflow::calleeArgument(call, use))
          worklist.push_back(arg);
      }
    }
  }
  return values;
}

SetVector<Value> ktflow::derivedValues(Value root) {
  return closure(root, /*baseOnly=*/false);
}

/// The memory views whose offset is one of `values`.
static SmallVector<Operation *> viewsAtOffsets(ArrayRef<Value> values) {
  SmallVector<Operation *> views;
  for (Value v : values)
    for (OpOperand &use : v.getUses())
      if (auto view = dyn_cast<ktdp::ConstructMemoryViewOp>(use.getOwner()))
        if (use.get() == view.getOffset())
          views.push_back(view);
  return views;
}

SmallVector<Operation *> ktflow::getViewsBasedAt(Value root) {
  return viewsAtOffsets(closure(root, /*baseOnly=*/true).getArrayRef());
}

bool ktflow::reachesViewOffset(Value root) {
  return !getViewsBasedAt(root).empty();
}

LogicalResult ktflow::verifyAddressRoles(func::FuncOp fn) {
  bool ok = true;
  for (BlockArgument arg : fn.getArguments()) {
    SetVector<Value> based = closure(arg, /*baseOnly=*/true);
    SmallVector<Operation *> baseViews = viewsAtOffsets(based.getArrayRef());
    if (baseViews.empty())
      continue;
    SmallVector<Value> scaled = llvm::to_vector(llvm::make_filter_range(
        derivedValues(arg), [&](Value v) { return !based.contains(v); }));
    for (Operation *view : viewsAtOffsets(scaled)) {
      InFlightDiagnostic diag = view->emitError()
                                << "kernel argument #" << arg.getArgNumber()
                                << " enters this view's offset scaled, as a "
                                   "size, but is the start address of "
                                   "another view: an argument is either a "
                                   "tensor or a size";
      diag.attachNote(baseViews.front()->getLoc())
          << "the view that starts at kernel argument #" << arg.getArgNumber();
      ok = false;
    }
  }
  return success(ok);
}
