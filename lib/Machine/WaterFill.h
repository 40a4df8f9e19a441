//===- WaterFill.h - Device-memory shares as engines finish -----*- C++ -*-===//
//
// This file declares the share of a device memory each engine moves its
// bytes at when the engines move different amounts: the memory serves the
// engines still moving data, so once those with fewer bytes finish, the
// others get their bandwidth (a water-filling over the engines' bytes);
// and when engines idle between their transfers (index reads), which
// leaves the memory to the others as often, unless they idle at once.
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
///
/// An engine that also spends `idle` cycles (none: 0) not moving any (its
/// index reads' round trips, its transfers' latency) moves only its duty
/// of the time, its cycles moving over those and its idle ones: one
/// moving shares the memory with 1 + the others' duties, not with all of
/// them, and the shares and duties rise together to their least fixed
/// point (32 engines at 1024 B/cycle, each moving 67,584 bytes and idle
/// 1,200 cycles: 68 B/cycle each, not 32). The times are the engines'
/// cycles moving.
std::vector<double>
waterFilledShares(double bandwidth, llvm::ArrayRef<double> bytes,
                  llvm::ArrayRef<double> caps,
                  llvm::ArrayRef<double> starts = {},
                  std::vector<MoveSchedule> *schedules = nullptr,
                  llvm::ArrayRef<double> idle = {});

/// At most this many rounds of shares and duties (each a few at most
/// where the engines move the same amounts).
constexpr int kDutyRounds = 32;
/// An engine's share for its idle cycles is set where it is above the
/// memory's bandwidth over its users by more than this part of it.
constexpr double kIdleGain = 0.02;

class ProgramWalker;
class RouteCosts;

/// Gives each engine that loads from (or stores to) a device memory its
/// water-filled share of it (RouteCosts::setShare), from the bytes its
/// walk moved and its idle cycles (those of its walk's `busy` cycles not
/// spent moving device memory at the memory's bandwidth over its users),
/// where the engines move different amounts (a grid between one and two
/// lanes an engine: those with one lane finish first and the others get
/// the memory) or one idles enough to get more than that share; whether it
/// set any. An engine's stores start when its core's loads finish. Where
/// neither holds for the loads (or the engines with bytes are not all the
/// memory's users), both directions keep the memory's bandwidth over its
/// users; where it holds only for the loads, the stores keep it.
///
/// The engines start together, and take their first index read at once:
/// the bytes an engine loads before its second, or on while the engines
/// stay in step (ProgramWalker::loadedInStep), it moves in step with the
/// others, at the memory's bandwidth over its users, and only then the
/// others' idle cycles fall between its transfers (none where it loads
/// every byte in step).
bool shareDeviceMemories(const Machine &machine,
                         llvm::ArrayRef<ProgramWalker> walkers,
                         llvm::ArrayRef<double> busy, RouteCosts &routes);

/// The cycles device memory `memory` idles while its engines move its
/// bytes, where they move in step: every engine that loads from it loads
/// as many bytes and waits as long for its index reads as the others (the
/// lanes of a gather, one program each), so they take their index reads'
/// round trips at once and the memory idles through them unless another
/// engine of the core moves meanwhile. An engine that hands each
/// execution's loads over to a store engine (a token to it) idles at once
/// with it only until the loads have landed and the token arrived, its
/// route's latency and the sync's each hand-over, at most its index reads;
/// an engine alone on its core with the memory, through all of them. 0
/// where the engines are not in step or another engine of a core moves
/// the memory without such a hand-over (a paged attention's store engine,
/// which stores what the compute sends).
double idleInStep(const Machine &machine, llvm::ArrayRef<ProgramWalker> walkers,
                  uint32_t memory);

} // namespace ktflow::machine::detail

#endif // KTFLOW_LIB_MACHINE_WATERFILL_H
