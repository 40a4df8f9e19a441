//===- CompiledAffineExpr.cpp - Affine expressions compiled once ----------===//
//
// This file implements the compiled affine expressions. The postfix program
// evaluates the operands of each binary node left then right and combines
// them with mlir::ktdp::applyAffineBinary, the step evaluateAffineExpr's
// recursion takes, so a result (or its absence) never differs from it.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Analysis/CompiledAffineExpr.h"

#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/IR/AffineExprVisitor.h"

using namespace mlir;
using namespace ktflow;

static bool usesDim(AffineExpr expr) {
  bool found = false;
  expr.walk([&](AffineExpr e) { found |= isa<AffineDimExpr>(e); });
  return found;
}

static bool usesSymbol(AffineExpr expr) {
  bool found = false;
  expr.walk([&](AffineExpr e) { found |= isa<AffineSymbolExpr>(e); });
  return found;
}

bool ktflow::isLinearInDims(AffineExpr expr) {
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return true;
  AffineExpr lhs = binary.getLHS(), rhs = binary.getRHS();
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return isLinearInDims(lhs) && isLinearInDims(rhs);
  case AffineExprKind::Mul:
    if (usesDim(lhs) && usesDim(rhs))
      return false;
    // The dim-free factor must not depend on symbols for constant coeffs.
    if (usesDim(lhs))
      return isLinearInDims(lhs) && isa<AffineConstantExpr>(rhs);
    if (usesDim(rhs))
      return isLinearInDims(rhs) && isa<AffineConstantExpr>(lhs);
    return true;
  default:
    return !usesDim(expr);
  }
}

void CompiledExpr::emit(AffineExpr e, unsigned depth) {
  stackDepth = std::max(stackDepth, depth + 1);
  if (auto c = dyn_cast<AffineConstantExpr>(e)) {
    program.push_back({AffineExprKind::Constant, c.getValue()});
  } else if (auto d = dyn_cast<AffineDimExpr>(e)) {
    program.push_back({AffineExprKind::DimId, d.getPosition()});
  } else if (auto s = dyn_cast<AffineSymbolExpr>(e)) {
    program.push_back({AffineExprKind::SymbolId, s.getPosition()});
  } else {
    auto binary = cast<AffineBinaryOpExpr>(e);
    emit(binary.getLHS(), depth);
    emit(binary.getRHS(), depth + 1);
    program.push_back({e.getKind(), 0});
  }
}

CompiledExpr CompiledExpr::compile(AffineExpr expr, unsigned numDims) {
  CompiledExpr c;
  c.expr = expr;
  c.emit(expr, 0);
  c.linear = isLinearInDims(expr);
  if (!c.linear)
    return c;
  // The coefficient of dim d is expr(e_d) - expr(0) with symbols at 0, which
  // is exact because coefficients are symbol-free constants.
  MLIRContext *ctx = expr.getContext();
  SmallVector<AffineExpr> zeros(numDims, getAffineConstantExpr(0, ctx));
  c.rest = expr.replaceDims(zeros);
  if (!usesSymbol(c.rest))
    c.restValue = ktdp::evaluateAffineExpr(c.rest, {}, {});
  c.coeffs.resize(numDims);
  SmallVector<int64_t> dims(numDims, 0);
  unsigned numSymbols = 0;
  expr.walk([&](AffineExpr e) {
    if (auto s = dyn_cast<AffineSymbolExpr>(e))
      numSymbols = std::max(numSymbols, s.getPosition() + 1);
  });
  SmallVector<int64_t> symbols(numSymbols, 0);
  std::optional<int64_t> base = ktdp::evaluateAffineExpr(expr, dims, symbols);
  for (unsigned d = 0; d < numDims; ++d) {
    dims[d] = 1;
    std::optional<int64_t> v = ktdp::evaluateAffineExpr(expr, dims, symbols);
    dims[d] = 0;
    if (!v || !base || __builtin_sub_overflow(*v, *base, &c.coeffs[d])) {
      c.linear = false;
      return c;
    }
  }
  return c;
}

std::optional<int64_t> CompiledExpr::run(ArrayRef<int64_t> dims,
                                         ArrayRef<int64_t> symbols) const {
  SmallVector<int64_t, 8> stack(stackDepth);
  unsigned top = 0;
  for (const Step &step : program) {
    switch (step.kind) {
    case AffineExprKind::Constant:
      stack[top++] = step.value;
      continue;
    case AffineExprKind::DimId:
      if (static_cast<uint64_t>(step.value) >= dims.size())
        return std::nullopt;
      stack[top++] = dims[step.value];
      continue;
    case AffineExprKind::SymbolId:
      if (static_cast<uint64_t>(step.value) >= symbols.size())
        return std::nullopt;
      stack[top++] = symbols[step.value];
      continue;
    default: {
      --top;
      std::optional<int64_t> v =
          ktdp::applyAffineBinary(step.kind, stack[top - 1], stack[top]);
      if (!v)
        return std::nullopt;
      stack[top - 1] = *v;
    }
    }
  }
  return stack[0];
}

std::optional<int64_t> CompiledExpr::eval(ArrayRef<int64_t> dims,
                                          ArrayRef<int64_t> symbols) const {
  // Too few dims: the program fails where evaluateAffineExpr does.
  if (!linear || dims.size() < coeffs.size())
    return run(dims, symbols);
  std::optional<int64_t> value =
      restValue ? *restValue : ktdp::evaluateAffineExpr(rest, {}, symbols);
  if (!value)
    return std::nullopt;
  int64_t v = *value, term;
  for (auto [c, d] : llvm::zip(coeffs, dims))
    if (__builtin_mul_overflow(c, d, &term) ||
        __builtin_add_overflow(v, term, &v))
      return std::nullopt;
  return v;
}
