//===- ScalarSteps.h - Scalar instructions on known scalars, inline -*- C++
//-*-===//
//
// evaluateAlu and stepKnownScalar (ktflow/Machine/Program.h), defined here
// inline for the loops that step scalars at each instruction: the walk
// (ProgramWalker::walk, where the call per scalar instruction was a tenth
// of layernorm_1151x8192's estimate on sample_device) and the lockstep
// check of SameCostOperands.cpp (a call per alu step, a tenth of
// rope_163840x128's on mesh_device).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_MACHINE_SCALARSTEPS_H
#define KTFLOW_LIB_MACHINE_SCALARSTEPS_H

#include "ktflow/Machine/Program.h"

#include "llvm/Support/Compiler.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ktflow::machine::detail {
/// evaluateAlu. (Inlined always: the compiler kept it a call.)
LLVM_ATTRIBUTE_ALWAYS_INLINE bool evaluateAluInline(AluOp op, int64_t a,
                                                    int64_t b, int64_t &r) {
  uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  switch (op) {
  case AluOp::Add:
    return !__builtin_add_overflow(a, b, &r);
  case AluOp::Sub:
    return !__builtin_sub_overflow(a, b, &r);
  case AluOp::Mul:
    return !__builtin_mul_overflow(a, b, &r);
  case AluOp::DivS:
  case AluOp::RemS:
  case AluOp::CeilDivS:
  case AluOp::FloorDivS:
    if (b == 0 || (b == -1 && a == INT64_MIN))
      return false;
    if (op == AluOp::DivS)
      r = a / b;
    else if (op == AluOp::RemS)
      r = a % b;
    else {
      r = a / b;
      bool inexact = r * b != a;
      bool positive = (a < 0) == (b < 0);
      if (inexact && op == AluOp::CeilDivS && positive)
        ++r;
      if (inexact && op == AluOp::FloorDivS && !positive)
        --r;
    }
    return true;
  case AluOp::DivU:
  case AluOp::RemU:
  case AluOp::CeilDivU:
    if (ub == 0)
      return false;
    r = static_cast<int64_t>(op == AluOp::DivU   ? ua / ub
                             : op == AluOp::RemU ? ua % ub
                                                 : ua / ub + (ua % ub != 0));
    return true;
  case AluOp::MinS:
    r = std::min(a, b);
    return true;
  case AluOp::MinU:
    r = static_cast<int64_t>(std::min(ua, ub));
    return true;
  case AluOp::MaxS:
    r = std::max(a, b);
    return true;
  case AluOp::MaxU:
    r = static_cast<int64_t>(std::max(ua, ub));
    return true;
  case AluOp::And:
    r = a & b;
    return true;
  case AluOp::Or:
    r = a | b;
    return true;
  case AluOp::Xor:
    r = a ^ b;
    return true;
  case AluOp::Shl:
    r = ub >= 64 ? 0 : static_cast<int64_t>(ua << ub);
    return true;
  case AluOp::ShrS:
    r = ub >= 64 ? (a < 0 ? -1 : 0) : a >> ub;
    return true;
  case AluOp::ShrU:
    r = ub >= 64 ? 0 : static_cast<int64_t>(ua >> ub);
    return true;
  case AluOp::Eq:
    r = a == b;
    return true;
  case AluOp::Ne:
    r = a != b;
    return true;
  case AluOp::Slt:
    r = a < b;
    return true;
  case AluOp::Sle:
    r = a <= b;
    return true;
  case AluOp::Sgt:
    r = a > b;
    return true;
  case AluOp::Sge:
    r = a >= b;
    return true;
  case AluOp::Ult:
    r = ua < ub;
    return true;
  case AluOp::Ule:
    r = ua <= ub;
    return true;
  case AluOp::Ugt:
    r = ua > ub;
    return true;
  case AluOp::Uge:
    r = ua >= ub;
    return true;
  }
  return false;
}

/// What alu `in` writes from the values of its sources `b` and `c`, and
/// in `step` whether it fails. (Constants steps a definition on its
/// sources' values, not on a register file.)
LLVM_ATTRIBUTE_ALWAYS_INLINE KnownScalar knownAluOf(const Inst &in,
                                                    const KnownScalar &b,
                                                    const KnownScalar &c,
                                                    KnownScalarStep &step) {
  int64_t r;
  step = KnownScalarStep::Done;
  if (!b || !c)
    return std::nullopt;
  bool ok = evaluateAluInline(static_cast<AluOp>(in.sub), *b, *c, r);
  if (!ok)
    step = KnownScalarStep::Fails;
  return ok ? KnownScalar(r) : KnownScalar();
}

/// stepKnownScalar.
LLVM_ATTRIBUTE_ALWAYS_INLINE KnownScalarStep
stepKnownScalarInline(const Inst &in, std::vector<KnownScalar> &regs) {
  switch (in.op) {
  case Opcode::SetImm:
    regs[in.a] = in.imm;
    return KnownScalarStep::Done;
  case Opcode::MovS:
    regs[in.a] = regs[in.b];
    return KnownScalarStep::Done;
  case Opcode::SelectS:
    regs[in.a] = regs[in.b] ? (*regs[in.b] != 0 ? regs[in.c] : regs[in.d])
                            : KnownScalar();
    return KnownScalarStep::Done;
  case Opcode::Alu: {
    KnownScalarStep step;
    regs[in.a] = knownAluOf(in, regs[in.b], regs[in.c], step);
    return step;
  }
  default:
    return KnownScalarStep::NotScalar;
  }
}
} // namespace ktflow::machine::detail

#endif // KTFLOW_LIB_MACHINE_SCALARSTEPS_H
