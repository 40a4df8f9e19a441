//===- LargeStack.h - Run a tool on a thread with a large stack -*- C++ -*-===//
//
// This file declares how ktflow's tools survive deeply nested input. MLIR's
// parser, verifier and printer recurse once per nesting level, so a file
// with tens of thousands of nested regions or parentheses would overflow the
// default 8 MiB stack and crash. The tools therefore do their work on a
// thread whose stack is large enough for any input that fits in memory
// comfortably; untouched stack pages cost nothing. (runWithCrashRecovery,
// CrashRecovery.h, starts that thread.)
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SUPPORT_LARGESTACK_H
#define KTFLOW_SUPPORT_LARGESTACK_H

namespace ktflow {

/// The stack size of the worker thread: 1 GiB of address space.
inline constexpr unsigned kLargeStackBytes = 1u << 30;

} // namespace ktflow

#endif // KTFLOW_SUPPORT_LARGESTACK_H
