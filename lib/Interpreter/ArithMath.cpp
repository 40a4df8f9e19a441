//===- ArithMath.cpp - Decoding element-wise ops --------------------------===//
//
// This file maps every element-wise arith, math and spyreop op to its EwOp:
// the computation kind plus the element types of its operands and result
// (the element types of tensor operands, so one decoding serves scalars,
// tensors and linalg bodies alike).
//
//===----------------------------------------------------------------------===//

#include "ArithMath.h"

#include "ktflow/Dialect/SpyreOp/IR/SpyreOp.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ktflow::interp;

bool ktflow::interp::isElementwiseDialect(Operation *op) {
  StringRef dialect = op->getName().getDialectNamespace();
  return dialect == "arith" || dialect == "math" || dialect == "spyreop";
}

std::optional<EwOp> ktflow::interp::decodeElementwise(Operation *op,
                                                      unsigned resultIndex,
                                                      std::string &reason) {
  if (resultIndex >= op->getNumResults()) {
    reason = "has no result #" + std::to_string(resultIndex);
    return std::nullopt;
  }
  EwOp ew;
  std::optional<DType> result =
      dtypeFromType(getElementTypeOrSelf(op->getResult(resultIndex)));
  if (!result) {
    reason = "has a result element type the interpreter does not support";
    return std::nullopt;
  }
  ew.resultType = *result;
  for (Value operand : op->getOperands()) {
    std::optional<DType> t = dtypeFromType(getElementTypeOrSelf(operand));
    if (!t) {
      reason = "has an operand element type the interpreter does not support";
      return std::nullopt;
    }
    ew.operandTypes.push_back(*t);
  }

  std::optional<EwKind> kind =
      llvm::TypeSwitch<Operation *, std::optional<EwKind>>(op)
          // arith, float.
          .Case([](arith::AddFOp) { return EwKind::AddF; })
          .Case([](arith::SubFOp) { return EwKind::SubF; })
          .Case([](arith::MulFOp) { return EwKind::MulF; })
          .Case([](arith::DivFOp) { return EwKind::DivF; })
          .Case([](arith::RemFOp) { return EwKind::RemF; })
          .Case([](arith::NegFOp) { return EwKind::NegF; })
          .Case([](arith::MaximumFOp) { return EwKind::MaximumF; })
          .Case([](arith::MinimumFOp) { return EwKind::MinimumF; })
          .Case([](arith::MaxNumFOp) { return EwKind::MaxNumF; })
          .Case([](arith::MinNumFOp) { return EwKind::MinNumF; })
          .Case([&](arith::CmpFOp cmp) {
            ew.predicate = static_cast<int>(cmp.getPredicate());
            return EwKind::CmpF;
          })
          // arith, integer.
          .Case([](arith::AddIOp) { return EwKind::AddI; })
          .Case([](arith::SubIOp) { return EwKind::SubI; })
          .Case([](arith::MulIOp) { return EwKind::MulI; })
          .Case([](arith::DivSIOp) { return EwKind::DivSI; })
          .Case([](arith::DivUIOp) { return EwKind::DivUI; })
          .Case([](arith::CeilDivSIOp) { return EwKind::CeilDivSI; })
          .Case([](arith::CeilDivUIOp) { return EwKind::CeilDivUI; })
          .Case([](arith::FloorDivSIOp) { return EwKind::FloorDivSI; })
          .Case([](arith::RemSIOp) { return EwKind::RemSI; })
          .Case([](arith::RemUIOp) { return EwKind::RemUI; })
          .Case([](arith::AndIOp) { return EwKind::AndI; })
          .Case([](arith::OrIOp) { return EwKind::OrI; })
          .Case([](arith::XOrIOp) { return EwKind::XOrI; })
          .Case([](arith::ShLIOp) { return EwKind::ShLI; })
          .Case([](arith::ShRSIOp) { return EwKind::ShRSI; })
          .Case([](arith::ShRUIOp) { return EwKind::ShRUI; })
          .Case([](arith::MaxSIOp) { return EwKind::MaxSI; })
          .Case([](arith::MinSIOp) { return EwKind::MinSI; })
          .Case([](arith::MaxUIOp) { return EwKind::MaxUI; })
          .Case([](arith::MinUIOp) { return EwKind::MinUI; })
          .Case([&](arith::CmpIOp cmp) {
            ew.predicate = static_cast<int>(cmp.getPredicate());
            return EwKind::CmpI;
          })
          .Case([](arith::SelectOp) { return EwKind::Select; })
          // arith, casts.
          .Case([](arith::ExtFOp) { return EwKind::ExtF; })
          .Case([](arith::TruncFOp) { return EwKind::TruncF; })
          .Case([](arith::SIToFPOp) { return EwKind::SIToFP; })
          .Case([](arith::UIToFPOp) { return EwKind::UIToFP; })
          .Case([](arith::FPToSIOp) { return EwKind::FPToSI; })
          .Case([](arith::FPToUIOp) { return EwKind::FPToUI; })
          .Case([](arith::ExtSIOp) { return EwKind::ExtSI; })
          .Case([](arith::ExtUIOp) { return EwKind::ExtUI; })
          .Case([](arith::TruncIOp) { return EwKind::TruncI; })
          .Case([](arith::IndexCastOp) { return EwKind::IndexCast; })
          .Case([](arith::IndexCastUIOp) { return EwKind::IndexCastUI; })
          .Case([&](arith::BitcastOp) -> std::optional<EwKind> {
            bool fromFloat = isFloat(ew.operandTypes[0]);
            bool toFloat = isFloat(ew.resultType);
            if (fromFloat == toFloat)
              return toFloat ? EwKind::Identity : EwKind::IdentityI;
            return fromFloat ? EwKind::BitcastFToI : EwKind::BitcastIToF;
          })
          // math.
          .Case([](math::AbsFOp) { return EwKind::AbsF; })
          .Case([](math::ExpOp) { return EwKind::Exp; })
          .Case([](math::Exp2Op) { return EwKind::Exp2; })
          .Case([](math::ExpM1Op) { return EwKind::Expm1; })
          .Case([](math::LogOp) { return EwKind::Log; })
          .Case([](math::Log2Op) { return EwKind::Log2; })
          .Case([](math::Log10Op) { return EwKind::Log10; })
          .Case([](math::Log1pOp) { return EwKind::Log1p; })
          .Case([](math::SqrtOp) { return EwKind::Sqrt; })
          .Case([](math::RsqrtOp) { return EwKind::Rsqrt; })
          .Case([](math::CbrtOp) { return EwKind::Cbrt; })
          .Case([](math::TanhOp) { return EwKind::Tanh; })
          .Case([](math::SinhOp) { return EwKind::Sinh; })
          .Case([](math::CoshOp) { return EwKind::Cosh; })
          .Case([](math::SinOp) { return EwKind::Sin; })
          .Case([](math::CosOp) { return EwKind::Cos; })
          .Case([](math::TanOp) { return EwKind::Tan; })
          .Case([](math::AsinOp) { return EwKind::Asin; })
          .Case([](math::AcosOp) { return EwKind::Acos; })
          .Case([](math::AtanOp) { return EwKind::Atan; })
          .Case([](math::AsinhOp) { return EwKind::Asinh; })
          .Case([](math::AcoshOp) { return EwKind::Acosh; })
          .Case([](math::AtanhOp) { return EwKind::Atanh; })
          .Case([](math::ErfOp) { return EwKind::Erf; })
          .Case([](math::ErfcOp) { return EwKind::Erfc; })
          .Case([](math::FloorOp) { return EwKind::Floor; })
          .Case([](math::CeilOp) { return EwKind::Ceil; })
          .Case([](math::RoundOp) { return EwKind::Round; })
          .Case([](math::RoundEvenOp) { return EwKind::RoundEven; })
          .Case([](math::TruncOp) { return EwKind::Trunc; })
          .Case([](math::PowFOp) { return EwKind::PowF; })
          .Case([](math::Atan2Op) { return EwKind::Atan2; })
          .Case([](math::CopySignOp) { return EwKind::CopySign; })
          .Case([](math::FmaOp) { return EwKind::Fma; })
          .Case([](math::FPowIOp) { return EwKind::FPowI; })
          .Case([](math::IPowIOp) { return EwKind::IPowI; })
          .Case([](math::AbsIOp) { return EwKind::AbsI; })
          .Case([](math::CtPopOp) { return EwKind::CtPop; })
          .Case([](math::CountLeadingZerosOp) { return EwKind::Ctlz; })
          .Case([](math::CountTrailingZerosOp) { return EwKind::Cttz; })
          .Case([](math::IsNaNOp) { return EwKind::IsNaN; })
          .Case([](math::IsInfOp) { return EwKind::IsInf; })
          .Case([](math::IsFiniteOp) { return EwKind::IsFinite; })
          .Case([](math::IsNormalOp) { return EwKind::IsNormal; })
          // spyreop.
          .Case([](spyreop::ExpOp) { return EwKind::Exp; })
          .Case([](spyreop::SqrtOp) { return EwKind::Sqrt; })
          .Case([](spyreop::RsqrtOp) { return EwKind::Rsqrt; })
          .Case([](spyreop::ReciprocalOp) { return EwKind::Reciprocal; })
          .Case([](spyreop::SigmoidOp) { return EwKind::Sigmoid; })
          .Case([](spyreop::SiluOp) { return EwKind::Silu; })
          .Case([](spyreop::GeluOp) { return EwKind::Gelu; })
          .Case([](spyreop::RealDivOp) { return EwKind::DivF; })
          .Case([&](spyreop::SoftplusOp softplus) {
            ew.beta = softplus.getBeta().convertToDouble();
            ew.threshold = softplus.getThreshold().convertToDouble();
            return EwKind::Softplus;
          })
          .Case([](spyreop::AddI32ToI32Op) { return EwKind::AddI; })
          .Case([](spyreop::AddI64ToI64Op) { return EwKind::AddI; })
          .Case([](spyreop::MulI32ToI32Op) { return EwKind::MulI; })
          .Case([&](spyreop::Idx32ToAddrOp addr) {
            if (std::optional<uint64_t> base = addr.getBaseLiteral())
              ew.literalBase = static_cast<int64_t>(*base);
            if (std::optional<uint64_t> stride = addr.getStrideLiteral())
              ew.literalStride = static_cast<int64_t>(*stride);
            return EwKind::Idx32ToAddr;
          })
          .Case([](spyreop::LayerNormScaleOp) {
            return EwKind::LayerNormScale;
          })
          .Case([](spyreop::LayerNormNormOp) { return EwKind::LayerNormNorm; })
          .Case([&](spyreop::Exx2Op) {
            // Per element, exx2 contributes the value and its square; the
            // enclosing reduction averages them.
            return resultIndex == 0 ? EwKind::Identity : EwKind::Square;
          })
          .Default([](Operation *) { return std::nullopt; });
  if (!kind) {
    reason = "is not supported by the interpreter";
    return std::nullopt;
  }
  ew.kind = *kind;
  if (op->getNumResults() != 1 && !isa<spyreop::Exx2Op>(op)) {
    reason = "has several results, which the interpreter does not support";
    return std::nullopt;
  }
  return ew;
}
