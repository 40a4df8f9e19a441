//===- WaterFill.h - Device-memory shares as engines finish -----*- C++ -*-===//
//
// This file declares the share of a device memory each engine moves its
// bytes at when the engines move different amounts: the memory serves the
// engines still moving data, so once those with fewer bytes finish, the
// others get their bandwidth (a water-filling over the engines' bytes).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_MACHINE_WATERFILL_H
#define KTFLOW_LIB_MACHINE_WATERFILL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include "ktflow/Machine/Estimate.h"

#include <vector>

namespace ktflow::machine::detail {

/// When an engine has moved each amount of its bytes: the bytes moved by
/// each time at which its bandwidth changes (an engine started or
/// finished), from (0, 0) to (its finish, its bytes), linear in between.
struct MoveSchedule {
  llvm::SmallVector<std::pair<double, double>, 4> points;
  /// The time at which `bytes` have moved (an engine's first byte: when it
  /// starts; past the last point, at the last rate).
  double timeOf(double bytes) const;
};

/// The mean bandwidth each engine moves its `bytes` at, from a memory of
/// `bandwidth` (above 0) that each starts moving from at its `starts`
/// (none: all at 0): the engines moving share it equally, none above its
/// route's `caps` (0: no cap), the bandwidth one leaves under its cap
/// going to the others; each engine's share is its bytes over the time
/// from its start to its finish, and `schedules`, where given, when it
/// moved them. Engines with equal bytes and caps that start together get
/// min(cap, bandwidth / engines), the share with no engine finished
/// early. An engine with no bytes gets its part of all of them moving.
std::vector<double>
waterFilledShares(double bandwidth, llvm::ArrayRef<double> bytes,
                  llvm::ArrayRef<double> caps,
                  llvm::ArrayRef<double> starts = {},
                  std::vector<MoveSchedule> *schedules = nullptr);

class ProgramWalker;
class RouteCosts;

/// Gives each engine that loads from (or stores to) a device memory its
/// water-filled share of it (RouteCosts::setShare), from the bytes its
/// walk moved, where the engines move different amounts (a grid between
/// one and two lanes an engine: those with one lane finish first and the
/// others get the memory); whether it set any. An engine's stores start
/// when its core's loads finish. Where the loads move the same amounts
/// (or the engines with bytes are not all the memory's users), both
/// directions keep the memory's bandwidth over its users; where only the
/// stores do, the stores keep it.
bool shareByBytes(const Machine &machine, llvm::ArrayRef<ProgramWalker> walkers,
                  RouteCosts &routes);

} // namespace ktflow::machine::detail

#endif // KTFLOW_LIB_MACHINE_WATERFILL_H
