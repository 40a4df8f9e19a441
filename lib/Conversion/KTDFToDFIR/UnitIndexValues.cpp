//===- UnitIndexValues.cpp - Index values a unit's program computes -------===//
//
// This file implements ProgramBuilder::materialize: the index arithmetic a
// unit's program clones where a transfer, a loop bound or a guard needs
// it, on demand and once per mapping. Kernel scalars become the launch
// values the runtime binds (dfir.runtime_value), a runtime_arg's
// granularity and upper bound constants, the tiling ops (derive_size,
// linearize_index) and affine.apply their arith expansions; any other op
// a unit cannot compute is an error at the op.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Affine/Utils.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

FailureOr<Value> TransferEmitter::materialize(Value v, IRMapping &map) {
  if (Value mapped = map.lookupOrNull(v))
    return mapped;
  OpBuilder &b = *builder;
  Operation *def = v.getDefiningOp();
  if (!def) {
    // A plain scalar argument of the kernel: its value at launch.
    auto it = kernel.runtimeSymbols.find(v);
    if (it == kernel.runtimeSymbols.end())
      return emitError(v.getLoc(), "unit '")
             << unit << "' cannot compute this block argument";
    Value value = dfir::RuntimeValueOp::create(b, v.getLoc(), b.getIndexType(),
                                               it->second);
    map.map(v, value);
    return value;
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def) &&
      v.getType().isIndex() &&
      kernel.runtimeSymbols.count(def->getOperand(0))) {
    // A plain integer scalar argument is read as an index already: the
    // runtime keeps its value in the range of its type, and non-negative
    // under index_castui, where zero- and sign-extension agree
    // (getLaunchArgumentBounds).
    auto value = materialize(def->getOperand(0), map);
    if (failed(value))
      return failure();
    map.map(v, *value);
    return *value;
  }
  if (auto extract = dyn_cast<ktdp::RuntimeArgExtractOp>(def)) {
    // The granularity and upper bound are part of the argument's type.
    auto type = cast<ktdp::RuntimeArgType>(extract.getInput().getType());
    if (extract.getKind() != ktdp::RuntimeArgExtractKind::value) {
      std::optional<int64_t> field =
          extract.getKind() == ktdp::RuntimeArgExtractKind::granularity
              ? type.getGranularity()
              : type.getUpperbound();
      if (!field)
        return def->emitError("runtime argument type has no ")
               << ktdp::stringifyRuntimeArgExtractKind(extract.getKind());
      Value value = constant(*field);
      map.map(v, value);
      return value;
    }
    auto arg = dyn_cast<BlockArgument>(extract->getOperand(0));
    auto it =
        arg ? kernel.runtimeSymbols.find(arg) : kernel.runtimeSymbols.end();
    if (it == kernel.runtimeSymbols.end())
      return def->emitError("runtime argument is not a kernel argument");
    Value value = dfir::RuntimeValueOp::create(b, def->getLoc(),
                                               b.getIndexType(), it->second);
    map.map(v, value);
    return value;
  }
  if (auto derive = dyn_cast<DeriveSizeOp>(def)) {
    // min(size, extent - offset)
    auto size = materialize(derive.getSize(), map);
    auto offset = materialize(derive.getOffset(), map);
    auto extent = materialize(derive.getExtent(), map);
    if (failed(size) || failed(offset) || failed(extent))
      return failure();
    Location loc = def->getLoc();
    Value left = arith::SubIOp::create(b, loc, *extent, *offset);
    Value value = arith::MinSIOp::create(b, loc, *size, left);
    map.map(v, value);
    return value;
  }
  if (auto linearize = dyn_cast<LinearizeIndexOp>(def)) {
    // tile * size + inner
    auto tile = materialize(linearize.getTile(), map);
    auto inner = materialize(linearize.getInner(), map);
    auto size = materialize(linearize.getSize(), map);
    if (failed(tile) || failed(inner) || failed(size))
      return failure();
    Location loc = def->getLoc();
    Value value = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, *tile, *size), *inner);
    map.map(v, value);
    return value;
  }
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    SmallVector<Value> operands;
    for (Value operand : apply.getOperands()) {
      auto m = materialize(operand, map);
      if (failed(m))
        return failure();
      operands.push_back(*m);
    }
    auto expanded = affine::expandAffineMap(b, def->getLoc(),
                                            apply.getAffineMap(), operands);
    if (!expanded)
      return def->emitError("cannot expand this affine map");
    map.map(v, (*expanded)[0]);
    return (*expanded)[0];
  }
  bool scalar = llvm::all_of(def->getResultTypes(),
                             [](Type t) { return t.isIntOrIndex(); });
  // A unit holds every integer in a 64-bit register: an op on a narrower
  // integer (`index_cast %i : index to i32`, then `index_castui` back) would
  // skip the wrap-around the kernel asks for (n - 3 = -2 read back as
  // 2^32 - 2 in the interpreter, -2 on the machine). Booleans are exact.
  auto narrow = [](Type t) {
    auto integer = dyn_cast<IntegerType>(t);
    return integer && integer.getWidth() > 1 && integer.getWidth() < 64;
  };
  if (llvm::any_of(def->getOperandTypes(), narrow) ||
      llvm::any_of(def->getResultTypes(), narrow))
    return def->emitError("unit '")
           << unit << "' cannot compute '" << def->getName()
           << "' on integers narrower than 64 bits (it holds index values "
              "in 64-bit registers, without their wrap-around)";
  if (def->getDialect() && def->getDialect()->getNamespace() == "arith" &&
      scalar && def->getNumRegions() == 0) {
    for (Value operand : def->getOperands())
      if (failed(materialize(operand, map)))
        return failure();
    Operation *clone = b.clone(*def, map);
    return clone->getResult(cast<OpResult>(v).getResultNumber());
  }
  return def->emitError("unit '")
         << unit << "' cannot compute '" << def->getName()
         << "' (only index arithmetic, constants and runtime arguments)";
}
