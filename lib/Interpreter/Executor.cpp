//===- Executor.cpp - Per-tile execution of KTIR ops ----------------------===//
//
// This file implements the per-tile executor: frames of SSA bindings, block
// and function execution, handler dispatch, and the element-wise execution
// of arith/math/spyreop ops on scalars and tensors.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"
#include "BufferPool.h"
#include "Linalg.h"

#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace ktflow::interp;

RunState::RunState(ModuleOp module, const InterpreterOptions &options,
                   ArrayRef<int64_t> grid)
    : module(module), options(options), grid(grid.begin(), grid.end()),
      numTiles(ktdp::getNumTiles(grid)),
      memory(options.maxMemoryBytes > 0 ? options.maxMemoryBytes
                                        : MemoryBudget::defaultLimit()),
      global("global memory", /*isGlobal=*/true, /*capacityBytes=*/0, memory) {
  registerArithHandlers(handlers);
  registerLinalgHandlers(handlers);
  registerTensorHandlers(handlers);
  registerTensorSliceHandlers(handlers);
  registerControlFlowHandlers(handlers);
  registerKTDPHandlers(handlers);
  registerInterTileHandlers(handlers);
}

RunState::~RunState() = default;

MemorySpace &RunState::scratchpad(int64_t tile) {
  std::unique_ptr<MemorySpace> &space = scratchpads[tile];
  if (!space) {
    space = std::make_unique<MemorySpace>(
        "the scratchpad of tile " + std::to_string(tile), /*isGlobal=*/false,
        options.scratchpadBytes, memory);
    space->seed = options.seed;
    space->scratchpadTile = tile;
    auto inputs = scratchpadInputs.find(tile);
    if (inputs != scratchpadInputs.end())
      space->literalInputs = inputs->second;
  }
  return *space;
}

TileExecutor::TileExecutor(RunState &state, int64_t tileId)
    : state(state), tileId(tileId),
      tileCoords(ktdp::delinearizeTileId(tileId, state.grid)) {}

std::string TileExecutor::tileName() const {
  std::string name = "tile " + std::to_string(tileId);
  if (tileCoords.size() > 1)
    name += " " + formatCoords(tileCoords);
  return name;
}

InFlightDiagnostic TileExecutor::error(Operation *op) {
  // emitOpError names the op: "'ktdp.load' op tile 3: ...".
  InFlightDiagnostic diag = op->emitOpError();
  diag << tileName() << ": ";
  return diag;
}

const RValue &TileExecutor::get(Value v) const {
  static const RValue none;
  const auto &frame = frames.back();
  auto it = frame.find(v);
  return it == frame.end() ? none : it->second;
}

FailureOr<Scalar> TileExecutor::getScalar(Operation *op, Value v) {
  const RValue &value = get(v);
  if (!value.isScalar())
    return error(op) << "expected a scalar operand, got "
                     << (value.isNone() ? "an undefined value"
                                        : "a non-scalar value");
  return value.scalar();
}

FailureOr<int64_t> TileExecutor::getIndex(Operation *op, Value v) {
  FailureOr<Scalar> s = getScalar(op, v);
  if (failed(s))
    return failure();
  if (isFloat(s->dtype))
    return error(op) << "expected an integer or index operand";
  return signedValue(s->i, s->dtype);
}

FailureOr<TensorRef> TileExecutor::getTensor(Operation *op, Value v) {
  const RValue &value = get(v);
  if (!value.isTensor())
    return error(op) << "expected a tensor operand";
  return value.tensor();
}

FailureOr<SmallVector<int64_t, 4>> TileExecutor::getIndices(Operation *op,
                                                           ValueRange values) {
  SmallVector<int64_t, 4> result;
  for (Value v : values) {
    FailureOr<int64_t> i = getIndex(op, v);
    if (failed(i))
      return failure();
    result.push_back(*i);
  }
  return result;
}

LogicalResult TileExecutor::runFunction(Operation *fnOp, ArrayRef<RValue> args,
                                        SmallVectorImpl<RValue> &results) {
  auto fn = dyn_cast<func::FuncOp>(fnOp);
  if (!fn || fn.isExternal())
    return fnOp->emitError() << "cannot run a function without a body";
  if (fn.getNumArguments() != args.size())
    return fnOp->emitError() << "expects " << fn.getNumArguments()
                             << " arguments, got " << args.size();
  // Deep recursion would exhaust the tile's stack: refuse it cleanly.
  if (frames.size() > 256)
    return error(fnOp) << "call depth exceeds 256";
  frames.emplace_back();
  Operation *terminator = nullptr;
  LogicalResult result = runBlock(fn.getBody().front(), args, results,
                                  &terminator);
  frames.pop_back();
  if (succeeded(result) && !isa_and_nonnull<func::ReturnOp>(terminator))
    return fnOp->emitError() << "function body does not end in func.return "
                                "(multi-block functions are not supported)";
  return result;
}

LogicalResult TileExecutor::runBlock(Block &block, ArrayRef<RValue> args,
                                     SmallVectorImpl<RValue> &yielded,
                                     Operation **terminator) {
  if (block.getNumArguments() != args.size())
    return error(block.getParentOp())
           << "region expects " << block.getNumArguments()
           << " arguments, got " << args.size();
  // Entering a block is work even when it holds nothing but a terminator
  // (the body of an empty loop).
  if (failed(chargeWork(block.getParentOp(), 1)))
    return failure();
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    set(arg, value);
  bool charge = state.options.chargeIntermediates;
  if (charge && state.blocksWithLastUses.insert(&block).second)
    computeLastUses(block, state.lastUses);
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      yielded.clear();
      for (Value operand : op.getOperands())
        yielded.push_back(get(operand));
      if (terminator)
        *terminator = &op;
      // The block's values die with it (a terminator with regions, such
      // as scf.forall.in_parallel, still reads them).
      if (charge && op.getNumRegions() == 0)
        forgetBlockValues(block);
      return success();
    }
    if (failed(runOp(&op)) || (charge && failed(releaseAndCharge(&op))))
      return failure();
  }
  return error(block.getParentOp()) << "region has no terminator";
}

void TileExecutor::computeLastUses(
    Block &block, llvm::DenseMap<Operation *, SmallVector<Value, 2>> &out) {
  // A value dies after the op of its block that uses it last (itself or
  // through the ops nested in it); an unused result dies where it is made.
  llvm::MapVector<Value, Operation *> last;
  for (Operation &op : block) {
    op.walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (auto it = last.find(v); it != last.end())
          it->second = &op;
    });
    for (Value result : op.getResults())
      last.insert({result, &op});
  }
  for (auto &[value, op] : last)
    if (!op->hasTrait<OpTrait::IsTerminator>())
      out[op].push_back(value);
}

void TileExecutor::forgetBlockValues(Block &block) {
  auto &frame = frames.back();
  for (BlockArgument arg : block.getArguments())
    frame.erase(arg);
  for (Operation &op : block)
    for (Value result : op.getResults())
      frame.erase(result);
}

LogicalResult TileExecutor::releaseAndCharge(Operation *op) {
  // Tensors nothing references any more are gone (first, so that a new
  // tensor at a freed one's address is tracked anew).
  llvm::erase_if(tracked, [&](const TrackedTensor &t) {
    if (!std::get<0>(t).expired())
      return false;
    trackedTensors.erase(std::get<1>(t));
    return true;
  });
  // The op's results join the tensors still referenced (by any value of
  // any frame, or by an access tile over a tensor).
  for (Value result : op->getResults()) {
    const RValue &value = get(result);
    if (!value.isTensor())
      continue;
    const TensorRef &tensor = value.tensor();
    if (trackedTensors.insert(tensor.get()).second)
      tracked.push_back({tensor, tensor.get(),
                         tensor->numElements() *
                             static_cast<int64_t>(byteSize(tensor->dtype))});
  }
  int64_t live = 0;
  for (const TrackedTensor &t : tracked)
    live += std::get<2>(t);
  // Operands and results coexist while the op runs; then the values whose
  // last use this was are freed.
  state.peakIntermediateBytes = std::max(state.peakIntermediateBytes, live);
  if (live > state.options.scratchpadBytes)
    return error(op) << "scratchpad overflow: the intermediate tensors live "
                        "at this op need "
                     << live << " bytes, more than the scratchpad's "
                     << state.options.scratchpadBytes
                     << " (each tensor is freed after its last use)";
  auto uses = state.lastUses.find(op);
  if (uses != state.lastUses.end())
    for (Value v : uses->second)
      frames.back().erase(v);
  return success();
}

/// The elements of the tensors `op` produced (or, for an op without tensor
/// results such as a store, consumed): what an op that is not a linalg op
/// costs beyond its dispatch. A linalg op charges its iteration space
/// itself, before computing it.
static uint64_t tensorElements(TileExecutor &exec, Operation *op) {
  auto count = [&](ValueRange values) {
    uint64_t n = 0;
    for (Value v : values)
      if (isa<RankedTensorType>(v.getType()))
        if (const RValue &value = exec.get(v); value.isTensor())
          n += static_cast<uint64_t>(value.tensor()->numElements());
    return n;
  };
  if (op->getNumResults() == 0)
    return count(op->getOperands());
  if (isa<linalg::LinalgOp>(op))
    return 0;
  return count(op->getResults());
}

/// Moves every float element of `op`'s tensor results by one unit in the
/// last place of its type (InterpreterOptions::displacedRounding), up or
/// down (displaceDownward).
static void displaceByOneUlp(TileExecutor &exec, Operation *op) {
  for (Value v : op->getResults()) {
    if (!isa<RankedTensorType>(v.getType()))
      continue;
    const RValue &value = exec.get(v);
    if (!value.isTensor() || !ktflow::host::isFloat(value.tensor()->dtype))
      continue;
    auto moved = std::make_shared<Tensor>(*value.tensor());
    for (double &x : moved->floats) {
      double ulp = ktflow::host::unitInLastPlace(x, moved->dtype);
      x = ktflow::host::roundToDType(
          exec.state.options.displaceDownward ? x - ulp : x + ulp,
          moved->dtype);
    }
    exec.set(v, TensorRef(std::move(moved)));
  }
}

LogicalResult TileExecutor::runOp(Operation *op) {
  LogicalResult result = failure();
  if (OpHandler handler = state.handlers.lookup(op))
    result = handler(*this, op);
  else if (isElementwiseDialect(op))
    result = runElementwiseOp(*this, op);
  else if (isa<linalg::LinalgOp>(op))
    result = runLinalgOp(*this, op);
  else
    return error(op) << "unknown op '" << op->getName()
                     << "': the interpreter does not implement it";
  if (failed(result))
    return failure();
  if (op == state.options.displacedRounding)
    displaceByOneUlp(*this, op);
  return chargeWork(op, 1 + tensorElements(*this, op));
}

LogicalResult TileExecutor::chargeWork(Operation *op, uint64_t units) {
  const InterpreterOptions &options = state.options;
  if (__builtin_add_overflow(state.elementOps, units, &state.elementOps))
    state.elementOps = UINT64_MAX;
  if (state.elementOps > options.maxElementOps)
    return error(op) << "the run exceeded the work budget of "
                     << options.maxElementOps
                     << " element operations; raise it with --max-element-ops";
  // Reading the clock costs about as much as a small op: do it every 2^16
  // element operations.
  if (!state.deadline || state.elementOps < state.nextClockCheck)
    return success();
  state.nextClockCheck = state.elementOps + (uint64_t(1) << 16);
  if (std::chrono::steady_clock::now() <= *state.deadline)
    return success();
  std::string seconds;
  llvm::raw_string_ostream(seconds) << llvm::format("%g", options.maxSeconds);
  return error(op) << "the run exceeded the wall-clock budget of " << seconds
                   << " seconds; raise it with --max-seconds";
}

bool ktflow::interp::fitsElementLimit(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || (d != 0 && n > kMaxElements / d))
      return false;
    n *= d;
  }
  return n <= kMaxElements;
}

std::string ktflow::interp::formatLocation(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return file.getFilename().str() + ":" + std::to_string(file.getLine()) +
           ":" + std::to_string(file.getColumn());
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

std::string ktflow::interp::formatCoords(ArrayRef<int64_t> coords) {
  std::string s = "(";
  for (auto [i, c] : llvm::enumerate(coords))
    s += (i ? ", " : "") + std::to_string(c);
  return s + ")";
}

SmallVector<int64_t, 4> ktflow::interp::unflatten(int64_t flat,
                                                  ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> index(shape.size(), 0);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    if (shape[d] == 0)
      continue;
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  return index;
}

FailureOr<Tensor> ktflow::interp::makeTensorOfType(Type type,
                                                   ArrayRef<int64_t> dynamic) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType)
    return failure();
  std::optional<DType> dtype = dtypeFromType(tensorType.getElementType());
  if (!dtype)
    return failure();
  SmallVector<int64_t, 4> shape;
  size_t next = 0;
  for (int64_t d : tensorType.getShape()) {
    if (ShapedType::isDynamic(d)) {
      if (next >= dynamic.size() || dynamic[next] < 0)
        return failure();
      d = dynamic[next++];
    }
    shape.push_back(d);
  }
  if (!fitsElementLimit(shape))
    return failure();
  return Tensor::zeros(*dtype, shape);
}

LogicalResult ktflow::interp::runElementwiseOp(TileExecutor &exec,
                                               Operation *op) {
  SmallVector<EwOp, 1> &ews = exec.state.ewOps[op];
  if (ews.empty()) {
    for (unsigned r = 0; r < op->getNumResults(); ++r) {
      std::string reason;
      std::optional<EwOp> ew = decodeElementwise(op, r, reason);
      if (!ew) {
        exec.state.ewOps.erase(op);
        return exec.error(op) << "unknown op '" << op->getName() << "': "
                              << "it " << reason;
      }
      ews.push_back(*ew);
    }
  }
  // Tensor operands share one shape; scalar operands (the condition of a
  // select over tensors) are broadcast.
  const Tensor *shapeSource = nullptr;
  SmallVector<const RValue *, 4> operands;
  for (Value v : op->getOperands()) {
    const RValue &value = exec.get(v);
    if (!value.isScalar() && !value.isTensor())
      return exec.error(op) << "expected scalar or tensor operands";
    if (value.isTensor()) {
      if (shapeSource && shapeSource->shape != value.tensor()->shape)
        return exec.error(op) << "type mismatch: operand shapes "
                              << formatShape(shapeSource->shape) << " and "
                              << formatShape(value.tensor()->shape)
                              << " differ";
      if (!shapeSource)
        shapeSource = value.tensor().get();
    }
    operands.push_back(&value);
  }
  size_t n = shapeSource ? static_cast<size_t>(shapeSource->numElements()) : 1;
  const EwOp &first = ews.front();
  std::vector<std::vector<double>> broadcastF;
  std::vector<std::vector<int64_t>> broadcastI;
  SmallVector<ColumnIn, 4> inputs;
  for (auto [i, value] : llvm::enumerate(operands)) {
    DType expected = first.operandTypes[i];
    ColumnIn column;
    if (value->isTensor()) {
      const Tensor &t = *value->tensor();
      if (t.dtype != expected)
        return exec.error(op) << "type mismatch: operand #" << i << " holds "
                              << dtypeName(t.dtype) << " elements, expected "
                              << dtypeName(expected);
      column.f = t.floats.data();
      column.i = t.ints.data();
    } else {
      const Scalar &s = value->scalar();
      if (isFloat(s.dtype) != isFloat(expected))
        return exec.error(op) << "type mismatch: operand #" << i << " is "
                              << dtypeName(s.dtype) << ", expected "
                              << dtypeName(expected);
      if (n == 1) {
        column.f = &s.f;
        column.i = &s.i;
      } else if (isFloat(s.dtype)) {
        column.f = broadcastF.emplace_back(n, s.f).data();
      } else {
        column.i = broadcastI.emplace_back(n, s.i).data();
      }
    }
    inputs.push_back(column);
  }
  for (auto [r, ew] : llvm::enumerate(ews)) {
    Value result = op->getResult(r);
    int64_t zeroAt;
    if (isa<ShapedType>(result.getType())) {
      if (!shapeSource)
        return exec.error(op) << "tensor result without tensor operands";
      std::shared_ptr<Tensor> out =
          makeZeroTensor(ew.resultType, shapeSource->shape);
      zeroAt = runElementwise(ew, inputs, {out->floats.data(), out->ints.data()},
                              n);
      if (zeroAt >= 0)
        return exec.error(op) << "integer division by zero at element "
                              << formatCoords(unflatten(zeroAt, out->shape));
      exec.set(result, TensorRef(std::move(out)));
    } else {
      if (shapeSource)
        return exec.error(op) << "scalar result with tensor operands";
      Scalar s;
      s.dtype = ew.resultType;
      zeroAt = runElementwise(ew, inputs, {&s.f, &s.i}, 1);
      if (zeroAt >= 0)
        return exec.error(op) << "integer division by zero";
      exec.set(result, s);
    }
  }
  return success();
}
