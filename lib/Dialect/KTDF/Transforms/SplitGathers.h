//===- SplitGathers.h - Gathers larger than the scratchpad ------*- C++ -*-===//
//
// This file declares the part of ktdf-stream-wide-rows that moves a gather
// larger than the scratchpad in chunks (SplitGathers.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SPLITGATHERS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SPLITGATHERS_H

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::ktdf {

/// The bytes `load` brings into the scratchpad.
int64_t loadedBytes(ktdp::LoadOp load);

/// Moves every gather of `func` whose tensor is over `maxTileBytes` and
/// is only stored, right after its load (through at most a
/// tensor.expand_shape adding unit dimensions), into a box tile in a
/// permuted order, in a loop over chunks of its leading variables;
/// warns at any other gather over the limit. Marks `func`
/// `ktdf.split_gathers` and returns true when it split one.
bool splitWideGathers(func::FuncOp func, int64_t maxTileBytes);

/// Moves every gather of `func`'s body that is bound by its index reads
/// (it reads an index for each element, its innermost variable feeding an
/// index subscript, or its runs share indices that `target`'s loading DMA
/// engine waits on longer than on the bytes: indexReadsBind) and is only
/// stored as above in a loop over about `lanes` chunks (of 16 elements and
/// a run at least): one DMA engine waits an index round trip per read,
/// and ktdf-spread-iterations deals the chunks over the lanes, each lane's
/// core with its engine. Returns true when it split one.
bool splitIndexBoundGathers(func::FuncOp func, int64_t lanes, int64_t engines,
                            const ktflow::sched::ScheduleTarget &target);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SPLITGATHERS_H
