//===- DotProducts.cpp - Row reductions a vector unit computes as dots ----===//
//
// This file decides which chunk reductions the compute lowering emits as a
// dot product (`dfir.matmul` of two rank-1 chunks into the accumulator)
// instead of a map, a reduce and a fold. A row's sum of squares, the
// `matmul(x, transpose(x))` of an RMSNorm that ktdf-generalize turns into
// the reduction of `f32(x) * f32(x)` from 0 in f32, costs a vector unit
// the widening conversion, the f32 product and the f32 reduction at its
// f32 rate, plus the fold, per chunk (mesh_device's VPU: 7 cycles per 32
// elements); the same unit multiplies and accumulates 16-bit operands at
// its matrix rate (16 per cycle, 2 cycles). The value is the same or
// closer to the reference: the products of 16-bit values are exact in
// f32, and the dot adds them to the accumulator one by one in f32, the
// interpreter's order, where the chunked reduction sums each chunk first.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "ktflow/Device/ComputeOpClass.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// The input of `op` that `v` reads through `arith.extf` from a 16-bit
/// float, with the identity map (the chunk itself, not a row value).
static std::optional<unsigned> widenedInput(linalg::GenericOp op, Value v) {
  auto ext = v.getDefiningOp<arith::ExtFOp>();
  if (!ext || !ext.getType().isF32())
    return std::nullopt;
  auto arg = dyn_cast<BlockArgument>(ext.getIn());
  Type t = ext.getIn().getType();
  if (!arg || arg.getOwner() != op.getBody() ||
      arg.getArgNumber() >= op.getNumDpsInputs() || !(t.isF16() || t.isBF16()))
    return std::nullopt;
  if (!op.getMatchingIndexingMap(op.getDpsInputOperand(arg.getArgNumber()))
           .isIdentity())
    return std::nullopt;
  return arg.getArgNumber();
}

std::optional<DotReduction>
mlir::ktdf::lowering::matchDotReduction(linalg::GenericOp op,
                                        const ktdf_arch::UnitSpec *unit) {
  // One f32 result, the chunk's single loop reduced.
  if (!unit || op.getNumDpsInits() != 1 || op.getNumLoops() != 1 ||
      op.getNumReductionLoops() != 1 ||
      !cast<ShapedType>(op.getResult(0).getType()).getElementType().isF32())
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.size() != 1 || ShapedType::isDynamic(ranges[0]))
    return std::nullopt;
  Block *body = op.getBody();
  BlockArgument acc = body->getArgument(op.getNumDpsInputs());
  auto add =
      body->getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return std::nullopt;
  Value product = add.getLhs() == acc   ? add.getRhs()
                  : add.getRhs() == acc ? add.getLhs()
                                        : Value();
  auto mul = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul || !product.hasOneUse())
    return std::nullopt;
  std::optional<unsigned> lhs = widenedInput(op, mul.getLhs());
  std::optional<unsigned> rhs = widenedInput(op, mul.getRhs());
  if (!lhs || !rhs)
    return std::nullopt;
  Type elem = op.getDpsInputs()[*lhs].getType();
  elem = cast<ShapedType>(elem).getElementType();
  if (cast<ShapedType>(op.getDpsInputs()[*rhs].getType()).getElementType() !=
      elem)
    return std::nullopt;
  // Only where the unit's multiply-accumulate rate makes it cheaper than
  // what the simulator charges the map, the reduce and the fold.
  double width = static_cast<double>(ranges[0]);
  std::optional<double> dotRate =
      unit->getThroughput(ktdf_arch::OpClass::Matrix, elem);
  if (!dotRate || *dotRate <= 0)
    return std::nullopt;
  auto cycles = [&](Operation *o, double n) {
    Type t;
    ktdf_arch::OpClass cls = ktflow::device::getComputeOpClass(o, t, unit);
    std::optional<double> rate = t ? unit->getThroughput(cls, t) : 1.0;
    return std::ceil(n / (rate && *rate > 0 ? *rate : 1.0));
  };
  double chunked = cycles(mul, width) + cycles(add, 1) +
                   cycles(mul.getLhs().getDefiningOp(), width);
  if (mul.getRhs() != mul.getLhs())
    chunked += cycles(mul.getRhs().getDefiningOp(), width);
  std::optional<double> reduceRate = unit->getThroughput(
      ktdf_arch::OpClass::Reduction, Float32Type::get(op.getContext()));
  chunked +=
      std::ceil(width / (reduceRate && *reduceRate > 0 ? *reduceRate : 1.0));
  if (std::ceil(width / *dotRate) >= chunked)
    return std::nullopt;
  return DotReduction{*lhs, *rhs};
}
