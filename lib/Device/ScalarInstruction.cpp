//===- ScalarInstruction.cpp - The ops a compute unit has an instruction for =//
//
// This file implements the table of KTIR scalar operations a compute unit
// executes as a micro-op (ScalarInstruction.h).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/ScalarInstruction.h"
#include "ktflow/Dialect/SpyreOp/IR/SpyreOp.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using ktflow::machine::ScalarOp;

std::optional<ScalarOp> ktflow::device::getScalarInstruction(Operation *op) {
  using S = ScalarOp;
  return llvm::TypeSwitch<Operation *, std::optional<S>>(op)
      .Case([](arith::ConstantOp) { return S::Const; })
      .Case([](arith::AddFOp) { return S::AddF; })
      .Case([](arith::SubFOp) { return S::SubF; })
      .Case([](arith::MulFOp) { return S::MulF; })
      .Case([](arith::DivFOp) { return S::DivF; })
      .Case([](arith::MaximumFOp) { return S::MaxF; })
      .Case([](arith::MinimumFOp) { return S::MinF; })
      .Case([](arith::MaxNumFOp) { return S::MaxNumF; })
      .Case([](arith::MinNumFOp) { return S::MinNumF; })
      .Case([](arith::NegFOp) { return S::NegF; })
      .Case([](math::AbsFOp) { return S::AbsF; })
      .Case<math::ExpOp, spyreop::ExpOp>([](auto) { return S::Exp; })
      .Case([](math::LogOp) { return S::Log; })
      .Case<math::SqrtOp, spyreop::SqrtOp>([](auto) { return S::Sqrt; })
      .Case<math::RsqrtOp, spyreop::RsqrtOp>([](auto) { return S::Rsqrt; })
      .Case([](math::TanhOp) { return S::Tanh; })
      .Case([](math::ErfOp) { return S::Erf; })
      .Case([](spyreop::SigmoidOp) { return S::Sigmoid; })
      .Case([](spyreop::SiluOp) { return S::Silu; })
      .Case([](spyreop::GeluOp) { return S::Gelu; })
      .Case([](spyreop::ReciprocalOp) { return S::Recip; })
      .Case([](spyreop::RealDivOp) { return S::DivF; })
      .Case([](arith::AddIOp) { return S::AddI; })
      .Case([](arith::SubIOp) { return S::SubI; })
      .Case([](arith::MulIOp) { return S::MulI; })
      .Case([](arith::DivSIOp) { return S::DivSI; })
      .Case([](arith::RemSIOp) { return S::RemSI; })
      .Case([](arith::MaxSIOp) { return S::MaxSI; })
      .Case([](arith::MinSIOp) { return S::MinSI; })
      .Case([](arith::AndIOp) { return S::AndI; })
      .Case([](arith::OrIOp) { return S::OrI; })
      .Case([](arith::XOrIOp) { return S::XorI; })
      .Case<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::FPToSIOp,
            arith::FPToUIOp, arith::ExtSIOp, arith::TruncIOp>(
          [](auto) { return S::Cast; })
      .Case<arith::UIToFPOp, arith::ExtUIOp>(
          [](auto) { return S::CastUnsigned; })
      .Case([](arith::CmpFOp) { return S::CmpF; })
      .Case([](arith::CmpIOp) { return S::CmpI; })
      .Case([](arith::SelectOp) { return S::Select; })
      .Default([](Operation *) { return std::nullopt; });
}
