//===- ChargedType.h - The element type a unit charges an op at -*- C++ -*-===//
//
// This file holds the one rule for the element type whose rate a compute
// unit charges an operation at. Every party that charges an operation asks
// it: the scheduler's cost estimates and ktdf-legalize-unit-types on KTIR ops
// (ComputeOpClass.h, MLIR types), the bundle emitter's check, the
// simulator and the machine's instruction counts on micro-ops and
// broadcasts (machine::ElemType), and the scheduler's SIMD width for a
// stream's chunks (ScheduleTarget::getSimdLanes). It is a header-only
// template over the type so the machine library, which links nothing of
// MLIR, uses it too.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DEVICE_CHARGEDTYPE_H
#define KTFLOW_DEVICE_CHARGEDTYPE_H

#include "ktflow/Machine/Machine.h"
#include "ktflow/Machine/Program.h"

#include <utility>

namespace ktflow::device {

/// How an operation's charged type follows from its types.
enum class ChargeKind {
  /// Charged at its result type: arithmetic, selects, constants.
  Result,
  /// Charged at the type it reads: a comparison (its result is i1).
  Operand,
  /// A conversion between a 16-bit float and f32: charged at its result
  /// type when the unit has lanes for it, else at its source type. A unit
  /// without bf16 lanes narrows f32 to bf16 in its f32 lanes (the rounding
  /// that follows bf16 arithmetic computed in f32); every conversion a unit
  /// computes today has a rate at its result type and is charged as before.
  Conversion,
  /// A data move (a broadcast, a stream's chunk): it rounds nothing, so
  /// it is charged at the type the unit holds its values in: its own where
  /// the unit has lanes for it, else `source`, f32 for a 16-bit float (bf16
  /// on every shipped unit), the lanes the unit computes it in (heldType).
  Move,
};

/// The element type `kind` of operation from `source` to `result` is
/// charged at, `hasLanes(type)` telling whether the unit has a rate for the
/// operation's class on `type`.
template <typename Type, typename HasLanes>
Type chargedType(ChargeKind kind, Type result, Type source,
                 HasLanes &&hasLanes) {
  switch (kind) {
  case ChargeKind::Result:
    return result;
  case ChargeKind::Operand:
    return source;
  case ChargeKind::Conversion:
  case ChargeKind::Move:
    return hasLanes(result) || !hasLanes(source) ? result : source;
  }
  return result;
}

/// The element type a unit holds and moves values of `type` in (Move):
/// `type`, or `f32` for a 16-bit float (`isHalf`) the unit has no lanes
/// for where it has f32 lanes.
template <typename Type, typename HasLanes>
Type heldType(Type type, bool isHalf, Type f32, HasLanes &&hasLanes) {
  return chargedType(ChargeKind::Move, type, isHalf ? f32 : type,
                     std::forward<HasLanes>(hasLanes));
}

/// The element type `unit` holds values of `type` in, and charges a
/// broadcast of them at.
inline machine::ElemType heldType(machine::ElemType type,
                                  const machine::MachineUnit &unit) {
  using machine::ElemType;
  return heldType(type, type == ElemType::f16 || type == ElemType::bf16,
                  ElemType::f32, [&](ElemType t) {
                    return unit.getThroughput(machine::OpClass::Elementwise,
                                              t) > 0;
                  });
}

/// The element type `unit` charges the micro-op `op` of a map body at.
inline machine::ElemType chargedType(const machine::MicroOp &op,
                                     const machine::MachineUnit &unit) {
  using machine::ElemType;
  using machine::ScalarOp;
  auto isHalf = [](ElemType t) {
    return t == ElemType::f16 || t == ElemType::bf16;
  };
  ChargeKind kind = ChargeKind::Result;
  if (op.op == ScalarOp::CmpF || op.op == ScalarOp::CmpI)
    kind = ChargeKind::Operand;
  else if (op.op == ScalarOp::Cast &&
           ((isHalf(op.type) && op.srcType == ElemType::f32) ||
            (isHalf(op.srcType) && op.type == ElemType::f32)))
    kind = ChargeKind::Conversion;
  machine::OpClass cls = machine::scalarOpClass(op.op);
  return chargedType(kind, op.type, op.srcType, [&](ElemType t) {
    return unit.getThroughput(cls, t) > 0;
  });
}

} // namespace ktflow::device

#endif // KTFLOW_DEVICE_CHARGEDTYPE_H
