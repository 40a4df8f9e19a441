//===- Estimate.h - A kernel's cycles from its programs -------*- C++ -*-===//
//
// This file declares the whole-kernel estimate `ktflow run` prints next to
// the simulated cycles. It never simulates: it walks each unit's program
// once in program order (a loop body once, at its first iteration's scalar
// values, times its trip count), charges every instruction what the
// simulator charges it when nothing else competes (docs/simulator.md,
// Timing model; an engine's waits for a free transfer slot included), and
// adds up the bytes each memory with a bandwidth moves.
// The estimate is the busiest unit or memory plus one DMA round trip's
// latency (when a compute unit binds, the loads the data of each of its
// entries waits for, less its work before the entry, and the stores after
// its last, at each engine's share of device memory): it assumes the
// stages overlap perfectly, so it is low
// where they do not (latency-bound kernels, many hand-overs). An engine that
// loads and stores in program order is the exception: its transfers, the
// landing of the loads of each execution whose stores it waits for and the
// compute are added up (with the waits for a slot before the data the
// compute waits for longest), or, where it waits for the compute's output
// stored before its next loads, one chain per such execution (loads
// landed, the first entries fed, the compute, the stores) with its other
// transfers overlapping the compute; when it issues the next execution's
// loads before this one's stores (a skewed loop), each execution takes at
// least half of one execution's chain (loads, landing, compute, stores); an
// engine that chains executions and then runs a skewed loop adds the loop's
// chains to its own, each part with its executions' share of the compute.
// Where
// a DMA engine binds, the compute of the last data it loads is added (and,
// for a skewed engine, only the part of the first landing its loads ahead
// do not hide). A
// DMA engine that keeps several transfers in flight runs, from its first
// token, at least as long as its transfers take through its slots.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_MACHINE_ESTIMATE_H
#define KTFLOW_MACHINE_ESTIMATE_H

#include "ktflow/Machine/Machine.h"
#include "ktflow/Machine/Program.h"

#include <string>
#include <vector>

namespace ktflow::machine {

struct KernelEstimate {
  /// The estimated cycles of the whole kernel.
  double cycles = 0;
  /// What limits it: the busiest unit's or memory's name.
  std::string bottleneck;
  /// The busiest resource's cycles and the latency added to them.
  double busiest = 0;
  double latency = 0;
  /// Cycles each program's unit is busy (Executable::programs order).
  std::vector<double> unitBusy;
  /// Cycles each memory (Machine::memories order) spends moving bytes at
  /// its bandwidth (0 for memories without one).
  std::vector<double> memoryBusy;
};

/// Estimates the cycles of `exe` on `machine`, its runtime arguments
/// patched in (a launched executable).
KernelEstimate estimateKernel(const Machine &machine, const Executable &exe);

/// estimateKernel without the chains of tokens and FIFO entries passed from
/// unit to unit (a ring reduction's steps): the busiest unit or memory with
/// its fill and drain, which the kernel takes at least.
KernelEstimate estimateResources(const Machine &machine, const Executable &exe);

} // namespace ktflow::machine

#endif // KTFLOW_MACHINE_ESTIMATE_H
