//===- Interpreter.cpp - The KTIR reference interpreter -------------------===//
//
// This file implements the public interpreter API: function selection,
// argument binding and validation, tensor placement in global memory, the
// run of every tile under the tile scheduler, and reading results back
// (InitialValues.cpp: the values of a region before any store).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Interpreter/Interpreter.h"

#include "Executor.h"
#include "InterpreterImpl.h"

#include "ktflow/Analysis/DerivedValues.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/KernelFunction.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"
#include "ktflow/Support/ArgumentNames.h"
#include "ktflow/Support/FloatArgument.h"
#include "ktflow/Support/RuntimeArgValue.h"
#include "ktflow/Support/ScratchpadInputName.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace ktflow::interp;

/// How many tiles that share no memory may be unfinished at once (they
/// wait for tile futures): few enough that a grid of millions of tiles
/// needs no more memory than a small one.
static constexpr int64_t kIndependentTileWindow = 64;

Interpreter::Interpreter(ModuleOp module, InterpreterOptions options)
    : impl(std::make_unique<Impl>()) {
  impl->module = module;
  impl->options = options;
}

Interpreter::~Interpreter() = default;

llvm::Error Interpreter::selectFunction(StringRef name) {
  std::string error;
  FailureOr<func::FuncOp> selected =
      ktdp::selectKernel(impl->module, name, error);
  if (failed(selected))
    return makeError(error);
  func::FuncOp chosen = *selected;
  FailureOr<std::optional<SmallVector<int64_t>>> grid =
      ktdp::getLaunchGrid(chosen);
  if (failed(grid))
    return makeError("malformed 'grid' attribute on @" + chosen.getSymName());
  impl->fn = chosen;
  impl->grid.assign({1});
  if (*grid)
    impl->grid.assign((*grid)->begin(), (*grid)->end());
  impl->args = analyzeArguments(chosen);
  impl->literalIndexTensors = ktflow::findLiteralIndexTensors(chosen);
  for (ArgumentInfo &info : impl->args)
    info.name = getArgumentName(chosen.getArgument(info.position));
  impl->scalars.assign(impl->args.size(), std::nullopt);
  impl->inputs.assign(impl->args.size(), std::nullopt);
  return llvm::Error::success();
}

void Interpreter::recoverArgumentNames(StringRef sourceText) {
  if (!impl->fn)
    return;
  for (ArgumentInfo &info : impl->args)
    info.name =
        getArgumentName(impl->fn.getArgument(info.position), sourceText);
}

ArrayRef<ArgumentInfo> Interpreter::getArguments() const { return impl->args; }

ArrayRef<int64_t> Interpreter::getGrid() const { return impl->grid; }

StringRef Interpreter::getFunctionName() const {
  return impl->fn ? impl->fn.getSymName() : StringRef();
}

llvm::Expected<unsigned>
Interpreter::resolveArgument(StringRef nameOrPosition) const {
  for (const ArgumentInfo &info : impl->args)
    if (!info.name.empty() && info.name == nameOrPosition)
      return info.position;
  unsigned position;
  if (!nameOrPosition.getAsInteger(10, position) &&
      position < impl->args.size())
    return position;
  std::string known;
  for (unsigned i = 0; i < impl->args.size(); ++i)
    known += (i ? ", " : "") + impl->argName(i);
  return makeError("@" + impl->fn.getSymName() + " has no argument '" +
                   nameOrPosition + "' (arguments: " + known + ")");
}

llvm::Error Interpreter::setScalar(StringRef nameOrPosition, StringRef text) {
  llvm::Expected<unsigned> position = resolveArgument(nameOrPosition);
  if (!position)
    return position.takeError();
  const ArgumentInfo &info = impl->args[*position];
  std::string name = impl->argName(*position);
  if (info.kind == ArgumentKind::Tensor)
    return makeError("'" + name +
                     "' is the start address of a tensor, which the "
                     "interpreter chooses; give its contents with --input");
  Type type = info.type;
  auto runtimeArg = dyn_cast<ktdp::RuntimeArgType>(type);
  if (runtimeArg)
    type = runtimeArg.getUnderlyingType();
  std::optional<DType> dtype = dtypeFromType(type);
  if (!dtype)
    return makeError("argument '" + name + "' has an unsupported type");
  Scalar value;
  if (auto floatType = dyn_cast<FloatType>(type)) {
    // Rounded once to the argument's type, as the runtime does.
    std::optional<double> v =
        parseFloatArgument(text, floatType.getFloatSemantics());
    if (!v)
      return makeError("'" + name + "' expects a number, got '" + text + "'");
    value = Scalar::ofFloat(*v, *dtype);
  } else if (isFloat(*dtype)) {
    double v;
    if (!llvm::to_float(text, v))
      return makeError("'" + name + "' expects a number, got '" + text + "'");
    value = Scalar::ofFloat(v, *dtype);
  } else {
    int64_t v;
    if (text.getAsInteger(0, v))
      return makeError("'" + name + "' expects an integer, got '" + text +
                       "'");
    if (wrapInt(v, *dtype) != v && *dtype != DType::I1)
      return makeError(llvm::formatv("'{0}' = {1} does not fit in {2}", name,
                                     v, dtypeName(*dtype)));
    value = Scalar::ofInt(v, *dtype);
  }
  if (runtimeArg) {
    llvm::Error invalid =
        isFloat(*dtype)
            ? checkRuntimeArgValue(name, value.toDouble(),
                                   runtimeArg.getGranularity(),
                                   runtimeArg.getUpperbound())
            : checkRuntimeArgValue(name, value.i,
                                   runtimeArg.getGranularity(),
                                   runtimeArg.getUpperbound());
    if (invalid)
      return invalid;
  }
  impl->scalars[*position] = value;
  return llvm::Error::success();
}

llvm::Expected<std::optional<std::pair<int64_t, int64_t>>>
ktflow::interp::parseScratchpadInputName(StringRef name) {
  if (!looksLikeScratchpadInputName(name))
    return std::nullopt;
  if (auto parsed = ktflow::parseScratchpadInputName(name))
    return *parsed;
  return makeError("invalid scratchpad input name '" + name +
                   "' (expected lx<tile>@<address>, e.g. lx0@12288)");
}

llvm::Error Interpreter::setInput(StringRef nameOrPosition, InputSpec spec) {
  auto scratchpad = parseScratchpadInputName(nameOrPosition);
  if (!scratchpad)
    return scratchpad.takeError();
  if (*scratchpad) {
    auto [tile, address] = **scratchpad;
    int64_t numTiles = ktdp::getNumTiles(impl->grid);
    if (tile >= numTiles)
      return makeError(llvm::formatv(
          "'{0}' names the scratchpad of tile {1}, but the grid has {2} "
          "tile{3}",
          nameOrPosition, tile, numTiles, numTiles == 1 ? "" : "s"));
    impl->scratchpadInputs[tile][address] = std::move(spec);
    return llvm::Error::success();
  }
  StringRef literal = nameOrPosition;
  if (literal.consume_front("@")) {
    int64_t address;
    if (literal.getAsInteger(0, address) || address < 0 ||
        address >= (int64_t(1) << kArgumentWindowBits))
      return makeError("invalid literal address '" + nameOrPosition + "'");
    impl->literalInputs[address] = std::move(spec);
    return llvm::Error::success();
  }
  llvm::Expected<unsigned> position = resolveArgument(nameOrPosition);
  if (!position)
    return position.takeError();
  if (impl->args[*position].kind != ArgumentKind::Tensor)
    return makeError("'" + impl->argName(*position) +
                     "' is not a tensor argument (no memory view is built "
                     "on it); give its value with --arg");
  impl->inputs[*position] = std::move(spec);
  return llvm::Error::success();
}

InputSpec Interpreter::getInputSpec(unsigned position) const {
  InputSpec spec = impl->inputs[position].value_or(InputSpec());
  const std::optional<ktflow::IndexTensorUse> &index =
      impl->args[position].index;
  if (spec.kind != InputSpec::Kind::Default || !index)
    return spec;
  return InputSpec::indicesInto(index->extent, index->scatter);
}

const std::map<int64_t, ktflow::IndexTensorUse> &
Interpreter::getLiteralIndexTensors() const {
  return impl->literalIndexTensors;
}

InputSpec Interpreter::getLiteralInputSpec(int64_t address) const {
  auto given = impl->literalInputs.find(address);
  if (given != impl->literalInputs.end() &&
      given->second.kind != InputSpec::Kind::Default)
    return given->second;
  auto index = impl->literalIndexTensors.find(address);
  if (index == impl->literalIndexTensors.end())
    return InputSpec();
  return InputSpec::indicesInto(index->second.extent, index->second.scatter);
}

std::optional<ScalarValue>
Interpreter::getScalarValue(unsigned position) const {
  if (position >= impl->scalars.size() || !impl->scalars[position])
    return std::nullopt;
  const Scalar &s = *impl->scalars[position];
  ScalarValue value;
  value.dtype = s.dtype;
  value.i = s.i;
  value.f = s.f;
  return value;
}

std::optional<std::string> Interpreter::whyTilesShareMemory() const {
  if (!impl->fn)
    return std::nullopt;
  if (std::optional<SharedMemory> shared =
          findSharedMemory(impl->fn, impl->args))
    return shared->reason;
  return std::nullopt;
}

LogicalResult Interpreter::run() {
  if (!impl->fn)
    return emitError(impl->module.getLoc()) << "no function selected";
  func::FuncOp fn = impl->fn;
  if (failed(ktflow::verifyAddressRoles(fn)))
    return failure();
  impl->state = std::make_unique<RunState>(impl->module, impl->options,
                                           impl->grid);
  RunState &state = *impl->state;
  SmallVector<RValue> argValues;
  for (auto [i, info] : llvm::enumerate(impl->args)) {
    if (info.kind == ArgumentKind::Tensor) {
      InputSpec spec = getInputSpec(i);
      bool fromData = spec.kind == InputSpec::Kind::Data;
      MemRegion *region =
          state.global.addArgument(static_cast<int>(i), impl->argName(i), spec);
      region->seed = impl->options.seed;
      region->storeOnly = info.stored && !info.loaded;
      if (!fromData && failed(addDeclaredFootprints(
                           fn, i,
                           [&](unsigned position) -> std::optional<int64_t> {
                             const std::optional<Scalar> &s =
                                 impl->scalars[position];
                             if (!s || isFloat(s->dtype))
                               return std::nullopt;
                             return signedValue(s->i, s->dtype);
                           },
                           region->extent)))
        return failure();
      Type type = info.type;
      if (auto runtimeArg = dyn_cast<ktdp::RuntimeArgType>(type))
        type = runtimeArg.getUnderlyingType();
      DType dtype = dtypeFromType(type).value_or(DType::Index);
      if (isFloat(dtype))
        return fn.emitError() << "argument #" << i
                              << " is a tensor address but has a float type";
      argValues.push_back(Scalar::ofInt(region->base, dtype));
      continue;
    }
    if (!impl->scalars[i])
      return emitError(fn.getArgument(i).getLoc())
             << "argument '" << impl->argName(i)
                            << "' has no value (pass --arg "
                            << impl->argName(i) << "=VALUE)";
    argValues.push_back(*impl->scalars[i]);
  }
  // Literal-address memory starts as zeros, as fresh memory does on the
  // device, except where an `@ADDR` input names it or it holds indices.
  state.global.seed = impl->options.seed;
  for (const auto &given : impl->literalInputs)
    state.global.literalInputs[given.first] = getLiteralInputSpec(given.first);
  for (const auto &indices : impl->literalIndexTensors)
    state.global.literalInputs[indices.first] =
        getLiteralInputSpec(indices.first);
  // Likewise a scratchpad, except where an `lx<K>@ADDR` input names it:
  // what an earlier kernel or the host left there.
  state.scratchpadInputs = impl->scratchpadInputs;
  // Tiles that may load what other tiles store must all run at once, so
  // that each load sees the stores of every tile (docs/interpreter.md);
  // otherwise a few at a time keep the memory of a large grid bounded.
  std::optional<SharedMemory> shared = findSharedMemory(fn, impl->args);
  int64_t window = shared ? state.numTiles : kIndependentTileWindow;
  state.yieldAtLoads = shared.has_value();
  if (shared && state.numTiles > TileScheduler::kMaxLiveTiles) {
    InFlightDiagnostic diag = fn.emitError();
    diag << "the grid has " << state.numTiles
         << " tiles, which must all run at once because one tile may load "
            "what another stores, but at most "
         << TileScheduler::kMaxLiveTiles << " tiles can";
    diag.attachNote(shared->op->getLoc()) << shared->reason;
    return diag;
  }
  // Each tile costs one, enters the function's entry block and runs each of
  // its ops but the terminator, one element operation at least apiece (as
  // a loop's iterations are reserved, ControlFlowOps.cpp): a grid of 2^62
  // tiles is refused before its first tile instead of running for hours.
  uint64_t perTile = 1 + fn.front().getOperations().size(), leastWork;
  if (__builtin_mul_overflow(static_cast<uint64_t>(state.numTiles), perTile,
                             &leastWork) ||
      leastWork > impl->options.maxElementOps)
    return fn.emitError() << "the grid's " << state.numTiles
                          << " tiles need at least " << perTile
                          << " element operations each, more than the work "
                             "budget of "
                          << impl->options.maxElementOps
                          << " allows; raise it with --max-element-ops";
  // Budgets beyond a few decades are no budget (and would overflow).
  double seconds = impl->options.maxSeconds;
  if (seconds > 0 && seconds < 1e9)
    state.deadline = std::chrono::steady_clock::now() +
                     std::chrono::duration_cast<
                         std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(seconds));
  if (failed(state.tileScheduler.run(state.numTiles, window, [&](int64_t tile) {
        TileExecutor exec(state, tile);
        // A tile is work even when its function does nothing.
        if (failed(exec.chargeWork(fn, 1)))
          return failure();
        SmallVector<RValue> results;
        LogicalResult result = exec.runFunction(fn, argValues, results);
        // No other tile uses this tile's scratchpad.
        if (!shared)
          state.scratchpads.erase(tile);
        return result;
      })))
    return failure();
  // An output is read back whole (getOutputs), 8 bytes an element, though
  // its pages were backed only where written: one a view declares past the
  // memory ceiling is an error here rather than a failed allocation later.
  int64_t maxElements = memoryCeiling(impl->options) / 8;
  for (auto &[base, region] : state.global.getRegions()) {
    if (!region->written || !region->dtype || region->size() <= maxElements)
      continue;
    Location loc = region->argIndex >= 0
                       ? fn.getArgument(region->argIndex).getLoc()
                       : fn.getLoc();
    return emitError(loc) << "output '" << region->name << "' spans "
                          << region->size()
                          << " elements, more than the memory ceiling of "
                          << memoryCeiling(impl->options)
                          << " bytes holds to read back (8 bytes each)";
  }
  return success();
}

const InterpreterOptions &Interpreter::getOptions() const {
  return impl->options;
}

RunStatistics Interpreter::getStatistics() const {
  RunStatistics stats;
  if (impl->state) {
    stats.elementOps = impl->state->elementOps;
    stats.peakLiveTiles = impl->state->tileScheduler.peakLiveTiles();
    stats.peakIntermediateBytes = impl->state->peakIntermediateBytes;
  }
  return stats;
}

std::vector<OutputTensor> Interpreter::getOutputs() const {
  std::vector<OutputTensor> outputs;
  if (!impl->state)
    return outputs;
  for (auto &[base, region] : impl->state->global.getRegions()) {
    if (!region->written || !region->dtype)
      continue;
    OutputTensor out;
    out.argIndex = region->argIndex;
    out.name = region->argIndex >= 0 ? impl->argName(region->argIndex)
                                     : region->name;
    out.tensor = region->toTensor();
    outputs.push_back(std::move(out));
  }
  return outputs;
}

llvm::Expected<Tensor> Interpreter::getTensor(StringRef nameOrPosition) const {
  if (!impl->state)
    return makeError("the kernel has not run");
  MemorySpace &global = impl->state->global;
  MemRegion *region = nullptr;
  StringRef literal = nameOrPosition;
  if (literal.consume_front("@")) {
    int64_t address;
    if (!literal.getAsInteger(0, address)) {
      // The region named by the literal as written, else the one holding it.
      auto [first, last] = global.getRegions().equal_range(address);
      region = first != last ? first->second.get() : global.find(address);
    }
  } else {
    llvm::Expected<unsigned> position = resolveArgument(nameOrPosition);
    if (!position)
      return position.takeError();
    region = global.find((int64_t(*position) + 1) << kArgumentWindowBits);
  }
  if (!region || !region->dtype)
    return makeError("'" + nameOrPosition +
                     "' names no memory the kernel accessed");
  return region->toTensor();
}
