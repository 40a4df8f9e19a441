//===- SlotBoundEngines.h - Engines bound by their slots ------*- C++ -*-===//
//
// This file declares the whole-kernel estimate's (Estimate.cpp) bound for
// a DMA engine that keeps several transfers in flight and is handed its
// work faster than its transfers land: from its first token on, it runs
// as fast as its slots free.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_MACHINE_SLOTBOUNDENGINES_H
#define KTFLOW_LIB_MACHINE_SLOTBOUNDENGINES_H

#include "ProgramWalker.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace ktflow::machine::detail {
/// Takes, where longer than `estimate`, each DMA engine's first token
/// followed by its ProgramWalker::slotBoundSpan. The token comes no earlier
/// than the first device-memory load has landed (`firstLanding`: what it
/// announces is computed from that data), nor than the data a load unit of
/// the engine's core waits for before its first entry (`landed`, when the
/// data a token announces has landed) and that entry's way through the
/// compute unit to the store unit and the token.
void slotBoundEngines(const Machine &machine,
                      llvm::ArrayRef<ProgramWalker> walkers,
                      double firstLanding,
                      llvm::function_ref<double(uint32_t sync)> landed,
                      KernelEstimate &estimate);
} // namespace ktflow::machine::detail

#endif // KTFLOW_LIB_MACHINE_SLOTBOUNDENGINES_H
