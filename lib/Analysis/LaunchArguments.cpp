//===- LaunchArguments.cpp - Scalars a kernel receives at launch ----------===//
//
// This file implements the classification of kernel arguments into
// launch-time scalars (runtime_args and plain integer arguments that are
// not memory addresses, and float scalars) and the bounds the compiler may
// assume of them.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Analysis/LaunchArguments.h"

#include "ktflow/Analysis/DerivedValues.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

/// Whether `type` is a plain integer scalar a launch may bind.
static bool isPlainIntegerScalar(Type type) {
  if (type.isIndex())
    return true;
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.getWidth() > 1 && integer.getWidth() <= 64;
}

bool ktflow::isLaunchScalar(BlockArgument arg) {
  Block *block = arg.getOwner();
  if (!block->isEntryBlock() || !isa<func::FuncOp>(block->getParentOp()))
    return false;
  if (isa<ktdp::RuntimeArgType>(arg.getType()))
    return true;
  return isPlainIntegerScalar(arg.getType()) && !arg.use_empty() &&
         !ktflow::reachesViewOffset(arg);
}

bool ktflow::isFloatLaunchScalar(BlockArgument arg) {
  Block *block = arg.getOwner();
  Type type = arg.getType();
  return block->isEntryBlock() && isa<func::FuncOp>(block->getParentOp()) &&
         (type.isF16() || type.isBF16() || type.isF32()) && !arg.use_empty();
}

BlockArgument ktflow::getLaunchScalar(Value v) {
  if (isa_and_present<arith::IndexCastOp, arith::IndexCastUIOp>(
          v.getDefiningOp()))
    v = v.getDefiningOp()->getOperand(0);
  if (auto extract = v.getDefiningOp<ktdp::RuntimeArgExtractOp>()) {
    if (extract.getKind() != ktdp::RuntimeArgExtractKind::value)
      return {};
    v = extract.getInput();
  } else if (isa<ktdp::RuntimeArgType>(v.getType())) {
    return {};
  }
  auto arg = dyn_cast<BlockArgument>(v);
  return arg && isLaunchScalar(arg) ? arg : BlockArgument();
}

BlockArgument ktflow::getFloatOfLaunchScalar(Value v) {
  auto convert = v.getDefiningOp<arith::SIToFPOp>();
  if (!convert)
    return {};
  Type type = convert.getType();
  if (!type.isF16() && !type.isBF16() && !type.isF32())
    return {};
  return getLaunchScalar(convert.getIn());
}

/// Whether `v` is computed from a kernel argument that is an address (a
/// value the walk cannot see through counts as one).
static bool dependsOnAddress(Value v, int depth = 0) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Block *block = arg.getOwner();
    if (!block->isEntryBlock() || !isa<func::FuncOp>(block->getParentOp()))
      return false; // Loop induction variables and the like.
    return !ktflow::isLaunchScalar(arg);
  }
  Operation *def = v.getDefiningOp();
  if (!def || depth > 32)
    return true;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return dependsOnAddress(operand, depth + 1);
  });
}

/// `v` if it is an argument of the kernel's function.
static BlockArgument addressArgument(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || !arg.getOwner()->isEntryBlock() ||
      !isa<func::FuncOp>(arg.getOwner()->getParentOp()))
    return {};
  return arg;
}

std::optional<ktflow::ViewAddress> ktflow::getViewAddress(Value offset) {
  if (BlockArgument arg = addressArgument(offset))
    return ViewAddress{arg, Value()};
  auto add = offset.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  for (auto [base, displacement] : {std::pair(add.getLhs(), add.getRhs()),
                                    std::pair(add.getRhs(), add.getLhs())})
    if (BlockArgument arg = addressArgument(base))
      if (!dependsOnAddress(displacement))
        return ViewAddress{arg, displacement};
  return std::nullopt;
}

ktflow::LaunchArgumentBounds
ktflow::getLaunchArgumentBounds(BlockArgument arg) {
  LaunchArgumentBounds bounds;
  if (auto type = dyn_cast<ktdp::RuntimeArgType>(arg.getType())) {
    bounds.granularity = type.getGranularity().value_or(1);
    bounds.upper = type.getUpperbound().value_or(int64_t(1) << 31);
    bounds.lowerPromised = true;
    bounds.upperPromised = type.getUpperbound().has_value();
    return bounds;
  }
  unsigned width = arg.getType().isIndex()
                       ? 64
                       : cast<IntegerType>(arg.getType()).getWidth();
  bounds.lower = width >= 64 ? INT64_MIN : -(int64_t(1) << (width - 1));
  bounds.upper = width >= 64 ? INT64_MAX : (int64_t(1) << (width - 1)) - 1;
  // A narrowing cast of the argument (a layernorm's `index_cast %N : index
  // to i32` before `sitofp`) keeps only the low bits, but the compiled code
  // reads the argument whole (a splat_arg gets its value as a double): the
  // argument takes only the values every such cast keeps, and a launch
  // outside them is refused rather than computed differently from the
  // kernel (found by the mutation campaign, issue 17: N = -2^63 became
  // 0 in the interpreter and -2^63 in the simulator).
  // A widening unsigned read (a Triton kernel's `index_castui %n : i32 to
  // index`) zero-extends the argument where the compiled code, holding it
  // in a 64-bit register, sign-extends it: the two agree on the
  // non-negative values only, so a negative launch is refused (n = -1 ran
  // no row on the machine and 64 in the interpreter, issue 14).
  for (Operation *user : arg.getUsers()) {
    if (!isa<arith::IndexCastUIOp, arith::ExtUIOp>(user) || width >= 64)
      continue;
    Type to = user->getResult(0).getType();
    if (to.isIndex() || to.getIntOrFloatBitWidth() > width)
      bounds.lower = std::max(bounds.lower, int64_t(0));
  }
  for (Operation *user : arg.getUsers()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::TruncIOp>(user))
      continue;
    auto to = dyn_cast<IntegerType>(user->getResult(0).getType());
    if (!to || to.getWidth() >= width)
      continue;
    unsigned kept = to.getWidth();
    bounds.lower = std::max(bounds.lower, isa<arith::IndexCastUIOp>(user)
                                              ? int64_t(0)
                                              : -(int64_t(1) << (kept - 1)));
    bounds.upper = std::min(bounds.upper, (int64_t(1) << (kept - 1)) - 1);
  }
  return bounds;
}
