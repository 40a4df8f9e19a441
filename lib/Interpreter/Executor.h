//===- Executor.h - Per-tile execution of KTIR ops --------------*- C++ -*-===//
//
// This file declares the state shared by all tiles of one run (RunState:
// memories, tile scheduler, caches, op handlers) and the per-tile executor that
// walks a function's ops, binding each SSA value to its run-time value. Op
// semantics live in handler files grouped by dialect; each registers its
// handlers in the HandlerTable, looked up by op TypeID.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_INTERPRETER_EXECUTOR_H
#define KTFLOW_LIB_INTERPRETER_EXECUTOR_H

#include "AffineEval.h"
#include "ArithMath.h"
#include "Memory.h"
#include "TileScheduler.h"
#include "Values.h"

#include "ktflow/Interpreter/Interpreter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <chrono>
#include <map>

namespace ktflow::interp {

class TileExecutor;
struct LinalgPlan;
struct FutureInstance;

using OpHandler = mlir::LogicalResult (*)(TileExecutor &, mlir::Operation *);

class HandlerTable {
public:
  template <typename OpT>
  void add(OpHandler handler) {
    handlers[mlir::TypeID::get<OpT>()] = handler;
  }
  OpHandler lookup(mlir::Operation *op) const {
    return handlers.lookup(op->getName().getTypeID());
  }

private:
  llvm::DenseMap<mlir::TypeID, OpHandler> handlers;
};

void registerArithHandlers(HandlerTable &table);
void registerLinalgHandlers(HandlerTable &table);
void registerTensorHandlers(HandlerTable &table);
void registerTensorSliceHandlers(HandlerTable &table);
void registerControlFlowHandlers(HandlerTable &table);
void registerKTDPHandlers(HandlerTable &table);
void registerInterTileHandlers(HandlerTable &table);

/// Everything the tiles of one run share.
struct RunState {
  RunState(mlir::ModuleOp module, const InterpreterOptions &options,
           llvm::ArrayRef<int64_t> grid);
  ~RunState();

  mlir::ModuleOp module;
  InterpreterOptions options;
  llvm::SmallVector<int64_t, 3> grid;
  int64_t numTiles = 1;

  /// The ceiling on the memory of every region (--max-memory-bytes).
  MemoryBudget memory;
  MemorySpace global;
  /// Scratchpads, created on first use.
  std::map<int64_t, std::unique_ptr<MemorySpace>> scratchpads;
  /// The initial contents of literal regions of each tile's scratchpad, by
  /// tile (the `lx<K>@ADDR` inputs); others start as zeros.
  std::map<int64_t, std::map<int64_t, InputSpec>> scratchpadInputs;
  MemorySpace &scratchpad(int64_t tile);

  TileScheduler tileScheduler;
  /// Whether a load yields to the other tiles first: only when one tile
  /// may load what another stores. Otherwise a tile runs until it ends or
  /// waits for a tile future, so that of two tiles storing the same
  /// element the later one in linear order lands last, as on the compiled
  /// tier (interpreter and tier disagreed on such a kernel; mutation
  /// campaign, issue 17).
  bool yieldAtLoads = true;
  HandlerTable handlers;
  SetPlanCache setPlans;
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<EwOp, 1>> ewOps;
  llvm::DenseMap<mlir::Operation *, std::unique_ptr<LinalgPlan>> linalgPlans;
  /// Futures by (produce op, per-tile execution count).
  std::map<std::pair<mlir::Operation *, int64_t>,
           std::shared_ptr<FutureInstance>>
      futures;

  /// The values whose last use in their block is an op (chargeIntermediates).
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::Value, 2>> lastUses;
  llvm::DenseSet<mlir::Block *> blocksWithLastUses;
  /// The most bytes of intermediate tensors one tile held at once.
  int64_t peakIntermediateBytes = 0;

  /// Work done so far, in element operations (TileExecutor::chargeWork).
  uint64_t elementOps = 0;
  /// When the wall clock is next compared with the deadline.
  uint64_t nextClockCheck = 0;
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

/// Runs the ops of one compute tile.
class TileExecutor {
public:
  TileExecutor(RunState &state, int64_t tileId);

  RunState &state;
  const int64_t tileId;
  llvm::SmallVector<int64_t, 3> tileCoords;
  /// How often this tile executed each inter_tile_produce.
  llvm::DenseMap<mlir::Operation *, int64_t> produceCounts;

  /// Runs `fn` with `args`; its func.return operands go to `results`.
  mlir::LogicalResult runFunction(mlir::Operation *fn,
                                  llvm::ArrayRef<RValue> args,
                                  llvm::SmallVectorImpl<RValue> &results);

  /// Binds `block`'s arguments to `args` and runs its ops up to the
  /// terminator, whose operand values go to `yielded`.
  mlir::LogicalResult runBlock(mlir::Block &block, llvm::ArrayRef<RValue> args,
                               llvm::SmallVectorImpl<RValue> &yielded,
                               mlir::Operation **terminator = nullptr);

  mlir::LogicalResult runOp(mlir::Operation *op);

  /// Adds `units` element operations to the run's work and fails (naming
  /// `op`) once the run is over its work or wall-clock budget.
  mlir::LogicalResult chargeWork(mlir::Operation *op, uint64_t units);

  // Values.
  const RValue &get(mlir::Value v) const;
  void set(mlir::Value v, RValue value) { frames.back()[v] = std::move(value); }
  /// The scalar / index / tensor value of `v`, or an error naming `op`.
  mlir::FailureOr<Scalar> getScalar(mlir::Operation *op, mlir::Value v);
  mlir::FailureOr<int64_t> getIndex(mlir::Operation *op, mlir::Value v);
  mlir::FailureOr<TensorRef> getTensor(mlir::Operation *op, mlir::Value v);
  mlir::FailureOr<llvm::SmallVector<int64_t, 4>>
  getIndices(mlir::Operation *op, mlir::ValueRange values);

  // Diagnostics: "'op' op tile N: ...". Return failure() after streaming.
  mlir::InFlightDiagnostic error(mlir::Operation *op);
  std::string tileName() const;

private:
  /// Scratchpad accounting of intermediate tensors (chargeIntermediates):
  /// drops the values whose last use `op` was, then fails at `op` when the
  /// tensors still referenced exceed the scratchpad.
  mlir::LogicalResult releaseAndCharge(mlir::Operation *op);
  static void computeLastUses(
      mlir::Block &block,
      llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::Value, 2>>
          &out);
  void forgetBlockValues(mlir::Block &block);

  std::vector<llvm::DenseMap<mlir::Value, RValue>> frames;
  /// Live intermediate tensors and their bytes; a tensor stops counting
  /// when nothing references it any more (values alias buffers freely).
  using TrackedTensor =
      std::tuple<std::weak_ptr<const Tensor>, const Tensor *, int64_t>;
  std::vector<TrackedTensor> tracked;
  llvm::DenseSet<const Tensor *> trackedTensors;
};

/// Element-wise execution of `op` (scalars or same-shape tensors).
mlir::LogicalResult runElementwiseOp(TileExecutor &exec, mlir::Operation *op);

/// Runs any linalg structured op on tensors.
mlir::LogicalResult runLinalgOp(TileExecutor &exec, mlir::Operation *op);

/// The largest tensor or memory region the interpreter creates (2^28
/// elements, 2 GiB of storage): larger ones are errors, not allocations
/// that could abort the process.
inline constexpr int64_t kMaxElements = int64_t(1) << 28;

/// Whether a tensor of `shape` has at most kMaxElements elements.
bool fitsElementLimit(llvm::ArrayRef<int64_t> shape);

/// "file.mlir:3:17" for file locations, else the printed location.
std::string formatLocation(mlir::Location loc);

/// "(3, 17)".
std::string formatCoords(llvm::ArrayRef<int64_t> coords);

/// The multi-dimensional index of flat element `flat` of `shape`.
llvm::SmallVector<int64_t, 4> unflatten(int64_t flat,
                                        llvm::ArrayRef<int64_t> shape);

/// A zero-filled tensor of ranked tensor type `type` with its dynamic
/// extents from `dynamicSizes`.
mlir::FailureOr<Tensor> makeTensorOfType(mlir::Type type,
                                         llvm::ArrayRef<int64_t> dynamicSizes);

/// Binds `result` to a new tensor holding `t`.
mlir::LogicalResult setTensor(TileExecutor &exec, mlir::Value result, Tensor t);

/// The values of mixed static/dynamic index lists (OpFoldResults).
mlir::FailureOr<llvm::SmallVector<int64_t, 4>>
evaluateMixed(TileExecutor &exec, mlir::Operation *op,
              llvm::ArrayRef<mlir::OpFoldResult> values);

/// Copies `src` (whose element count is the product of `sizes`) into the
/// strided window of `dest` at `offsets`. Fails with a message when the
/// window leaves `dest`.
mlir::LogicalResult insertSlice(Tensor &dest, const Tensor &src,
                                llvm::ArrayRef<int64_t> offsets,
                                llvm::ArrayRef<int64_t> sizes,
                                llvm::ArrayRef<int64_t> strides,
                                std::string &message);

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERPRETER_EXECUTOR_H
