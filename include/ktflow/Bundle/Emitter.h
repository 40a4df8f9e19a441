//===- Emitter.h - DataflowIR to program bundle -----------------*- C++ -*-===//
//
// This file declares the bundle emitter: it checks a `dfir.kernel` against a
// device (every unit, memory and FIFO endpoint exists, transfers have a
// datapath route, FIFOs are queue datapaths, compute element types are
// supported by the unit, buffers fit their scratchpads) and encodes it into
// a Bundle. Every problem is reported as a located diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_BUNDLE_EMITTER_H
#define KTFLOW_BUNDLE_EMITTER_H

#include "ktflow/Bundle/Bundle.h"
#include "ktflow/Dialect/DFIR/IR/DFIR.h"

#include "mlir/Support/LLVM.h"

namespace ktflow::bundle {

mlir::FailureOr<Bundle> emitBundle(mlir::dfir::KernelOp kernel,
                                   const machine::Machine &machine);

} // namespace ktflow::bundle

#endif // KTFLOW_BUNDLE_EMITTER_H
