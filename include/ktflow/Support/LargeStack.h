//===- LargeStack.h - Run a tool on a thread with a large stack -*- C++ -*-===//
//
// This file declares how ktflow's tools survive deeply nested input. MLIR's
// parser, verifier and printer recurse once per nesting level, so a file
// with tens of thousands of nested regions or parentheses would overflow the
// default 8 MiB stack and crash. The tools therefore do their work on a
// thread whose stack is large enough for any input that fits in memory
// comfortably; untouched stack pages cost nothing.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SUPPORT_LARGESTACK_H
#define KTFLOW_SUPPORT_LARGESTACK_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace ktflow {

/// The stack size of the worker thread: 1 GiB of address space.
inline constexpr unsigned kLargeStackBytes = 1u << 30;

/// Runs `body` on a thread with a kLargeStackBytes stack and returns its
/// result.
int runOnLargeStack(llvm::function_ref<int()> body);

} // namespace ktflow

#endif // KTFLOW_SUPPORT_LARGESTACK_H
