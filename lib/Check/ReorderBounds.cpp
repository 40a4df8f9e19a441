//===- ReorderBounds.cpp - How far another fold order moves the outputs ---===//
//
// This file implements the reorder bounds of `ktflow run --check`: extra
// interpreter runs with one reduction, or one op the device rounds twice,
// displaced at a time; and, where the displaced values meet inputs they are
// not computed from (weights), the same pair of runs with those inputs made
// non-negative, so that a product by mixed-sign weights cannot cancel the
// displacement (docs/interpreter.md §9).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Check/Check.h"
#include "ktflow/Check/DifferentialRun.h"
#include "ktflow/Check/ReferenceCache.h"

#include "ktflow/Interpreter/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cmath>
#include <limits>
#include <map>

using namespace llvm;
using namespace ktflow;
using namespace ktflow::check;

/// The ops `roots` are computed from, `roots` included: the definitions of
/// their operands and of the values their regions use, transitively; for a
/// block argument of a loop or region op, that op's operands and the
/// values its regions' terminators pass on. `arguments` gets the positions
/// of the function arguments reached.
static SmallPtrSet<mlir::Operation *, 32>
computedFrom(ArrayRef<mlir::Operation *> roots,
             SmallDenseSet<unsigned> &arguments) {
  SmallPtrSet<mlir::Operation *, 32> ops;
  SmallVector<mlir::Operation *> work(roots.begin(), roots.end());
  auto visitValue = [&](mlir::Value v) {
    if (mlir::Operation *def = v.getDefiningOp()) {
      work.push_back(def);
      return;
    }
    auto arg = cast<mlir::BlockArgument>(v);
    mlir::Operation *parent = arg.getOwner()->getParentOp();
    if (isa<mlir::func::FuncOp>(parent)) {
      arguments.insert(arg.getArgNumber());
      return;
    }
    for (mlir::Value operand : parent->getOperands())
      if (mlir::Operation *def = operand.getDefiningOp())
        work.push_back(def);
    for (mlir::Region &region : parent->getRegions())
      for (mlir::Block &block : region)
        if (!block.empty())
          work.push_back(block.getTerminator());
  };
  while (!work.empty()) {
    mlir::Operation *op = work.pop_back_val();
    if (!ops.insert(op).second)
      continue;
    op->walk([&](mlir::Operation *nested) {
      for (mlir::Value operand : nested->getOperands())
        visitValue(operand);
    });
  }
  return ops;
}

/// The positions of the tensor arguments whose memory `op` may be computed
/// from, or nullopt when that is unknown: some of it may have been stored
/// by the kernel (a scratchpad or an output read back), and the kernel's
/// stores are not followed.
static std::optional<SmallDenseSet<unsigned>>
inputsFeeding(mlir::Operation *op, ArrayRef<interp::ArgumentInfo> arguments) {
  auto isTensor = [&](unsigned position) {
    return position < arguments.size() &&
           arguments[position].kind == interp::ArgumentKind::Tensor;
  };
  SmallDenseSet<unsigned> reached;
  SmallPtrSet<mlir::Operation *, 32> ops = computedFrom({op}, reached);
  for (mlir::Operation *source : ops) {
    if (!mlir::hasEffect<mlir::MemoryEffects::Read>(source))
      continue;
    SmallDenseSet<unsigned> memory;
    computedFrom({source}, memory);
    if (llvm::none_of(memory, isTensor))
      return std::nullopt; // Memory at a literal address (a scratchpad).
  }
  SmallDenseSet<unsigned> inputs;
  for (unsigned position : reached) {
    if (!isTensor(position))
      continue;
    if (arguments[position].stored)
      return std::nullopt;
    inputs.insert(position);
  }
  return inputs;
}

namespace {
/// Interpreter runs bound as the reference was, reading back the outputs
/// the check compares.
class BoundRuns {
public:
  BoundRuns(mlir::ModuleOp module, const ReferenceBindings &bindings,
            ArrayRef<std::string> names, ArrayRef<host::Tensor> expected,
            CheckCounts *counts)
      : module(module), bindings(bindings), names(names), expected(expected),
        counts(counts) {}

  /// The outputs of a run with `options` and `inputs`; an entry is empty
  /// where nothing is compared (an empty or integer output).
  Expected<std::vector<std::vector<double>>>
  run(const interp::InterpreterOptions &options,
      ArrayRef<std::pair<std::string, host::InputSpec>> inputs) const {
    if (counts)
      ++counts->interpreterRuns;
    interp::Interpreter run(module, options);
    if (Error e = prepare(run, inputs))
      return std::move(e);
    if (mlir::failed(run.run()))
      return createStringError("the reference interpreter failed");
    std::vector<std::vector<double>> outputs(names.size());
    for (size_t o = 0; o < names.size(); ++o) {
      if (expected[o].numElements() == 0)
        continue; // Nothing stored, nothing displaced (an empty launch).
      Expected<host::Tensor> tensor = run.getTensor(names[o]);
      if (!tensor)
        return tensor.takeError();
      if (!host::isFloat(tensor->dtype) ||
          tensor->numElements() != expected[o].numElements())
        continue;
      outputs[o].resize(tensor->numElements());
      for (int64_t i = 0; i < tensor->numElements(); ++i)
        outputs[o][i] = tensor->getDouble(i);
    }
    return outputs;
  }

  /// The reference's inputs with the float data of every tensor argument
  /// not in `keep` made non-negative (`positions[k]`: the argument input k
  /// binds, if any); none when that changes no input.
  std::optional<std::vector<std::pair<std::string, host::InputSpec>>>
  withNonNegative(const SmallDenseSet<unsigned> &keep,
                  ArrayRef<std::optional<unsigned>> positions) const {
    std::vector<std::pair<std::string, host::InputSpec>> inputs;
    bool changed = false;
    for (const auto &[k, input] : llvm::enumerate(bindings.inputs)) {
      const auto &[name, spec] = input;
      inputs.push_back({name, spec});
      // Generated inputs (past DifferentialRun::kLazyInputElements) are
      // kept as they are: a non-negative copy would be materialised whole.
      // `@ADDR` regions are kept too.
      if (!positions[k] || keep.contains(*positions[k]) ||
          spec.kind != host::InputSpec::Kind::Data ||
          !host::isFloat(spec.data->dtype()) || llvm::is_contained(names, name))
        continue;
      host::Tensor magnitudes = spec.data->tensor();
      for (double &v : magnitudes.floats)
        v = std::fabs(v);
      inputs.back().second = host::InputSpec::fromTensor(std::move(magnitudes));
      changed = true;
    }
    if (!changed)
      return std::nullopt;
    return inputs;
  }

private:
  Error
  prepare(interp::Interpreter &run,
          ArrayRef<std::pair<std::string, host::InputSpec>> inputs) const {
    if (Error e = run.selectFunction(bindings.function))
      return e;
    for (const auto &[name, value] : bindings.scalars)
      if (Error e = run.setScalar(name, value))
        return e;
    for (const auto &[name, spec] : inputs)
      if (Error e = run.setInput(name, spec))
        return e;
    return Error::success();
  }

  mlir::ModuleOp module;
  const ReferenceBindings &bindings;
  ArrayRef<std::string> names;
  ArrayRef<host::Tensor> expected;
  CheckCounts *counts;
};
} // namespace

/// Raises each element of `shifts` to how far that output of `moved` sits
/// from `from` (where both have it), or to the larger of that and the
/// distance between `movedNonNegative` and `fromNonNegative` when those
/// are given.
static void
raiseShifts(std::vector<std::vector<double>> &shifts,
            ArrayRef<std::vector<double>> moved,
            ArrayRef<std::vector<double>> from,
            const std::vector<std::vector<double>> *movedNonNegative = nullptr,
            const std::vector<std::vector<double>> *fromNonNegative = nullptr) {
  for (size_t o = 0; o < shifts.size(); ++o) {
    if (moved[o].size() != shifts[o].size() ||
        from[o].size() != shifts[o].size())
      continue;
    for (size_t i = 0; i < shifts[o].size(); ++i) {
      double shift = std::fabs(moved[o][i] - from[o][i]);
      if (movedNonNegative && (*movedNonNegative)[o].size() == shifts[o].size())
        shift = std::max(shift, std::fabs((*movedNonNegative)[o][i] -
                                          (*fromNonNegative)[o][i]));
      // A displacement that overflows or makes a NaN bounds nothing:
      // such an element is only checked for NaN and infinities.
      if (!std::isfinite(shift))
        shift = std::numeric_limits<double>::infinity();
      shifts[o][i] = std::max(shifts[o][i], shift);
    }
  }
}

Expected<std::vector<std::vector<double>>> ktflow::check::computeReorderBounds(
    mlir::ModuleOp module, const interp::InterpreterOptions &options,
    const ReferenceBindings &bindings, ArrayRef<std::string> names,
    ArrayRef<host::Tensor> expected, ArrayRef<mlir::Operation *> reroundedOps,
    const ReferenceCache *cache, CheckCounts *counts) {
  // Two more interpreter runs per displaced op (one per direction), so that
  // the displacements' effects add up instead of cancelling.
  std::vector<std::pair<mlir::Operation *, interp::InterpreterOptions>>
      displacements;
  for (mlir::Operation *reduction : interp::findReorderableReductions(module)) {
    displacements.push_back({reduction, options});
    displacements.back().second.displacedReduction = reduction;
  }
  for (mlir::Operation *op : reroundedOps) {
    displacements.push_back({op, options});
    displacements.back().second.displacedRounding = op;
  }
  // Nothing displaced, nothing moves: every bound is 0 (a gather of a
  // 2^23-element output spent 0.9 s of CPU making them).
  if (displacements.empty())
    return std::vector<std::vector<double>>(expected.size());
  std::vector<std::vector<double>> bounds;
  std::vector<std::vector<double>> reference;
  for (const host::Tensor &t : expected) {
    bounds.emplace_back(t.numElements(), 0.0);
    std::vector<double> values;
    if (host::isFloat(t.dtype)) {
      values.resize(t.numElements());
      for (int64_t i = 0; i < t.numElements(); ++i)
        values[i] = t.getDouble(i);
    }
    reference.push_back(std::move(values));
  }

  BoundRuns runs(module, bindings, names, expected, counts);
  std::vector<interp::ArgumentInfo> arguments;
  std::vector<std::optional<unsigned>> positions;
  {
    interp::Interpreter kernel(module);
    if (Error e = kernel.selectFunction(bindings.function))
      return std::move(e);
    arguments.assign(kernel.getArguments().begin(),
                     kernel.getArguments().end());
    for (const auto &[name, spec] : bindings.inputs) {
      Expected<unsigned> position = kernel.resolveArgument(name);
      positions.push_back(position ? std::optional<unsigned>(*position)
                                   : std::nullopt);
      if (!position)
        consumeError(position.takeError()); // An `@ADDR` region.
    }
  }
  std::map<std::vector<unsigned>, std::vector<std::vector<double>>> undisplaced;
  // The moves of one displaced run (both directions: below), raised into
  // `shifts`.
  auto raiseShiftsOfRun =
      [&](std::vector<std::vector<double>> &shifts, mlir::Operation *op,
          const interp::InterpreterOptions &displaced) -> Error {
    Expected<std::vector<std::vector<double>>> moved =
        runs.run(displaced, bindings.inputs);
    if (!moved)
      return moved.takeError();
    // The displaced run moves every displaced element the same way. Where
    // an output depends on one displaced element through monotone ops
    // (x / s, exp(x - m)), that is how far another fold order may move it
    // (to first order). Where it sums several of them with weights of both
    // signs (C . W, an all-reduce feeding a matmul), their moves cancel
    // and the run shows less than one displaced element alone would move
    // the output. Another fold order moves the elements of C by up to b
    // each, in either direction: the output by up to |W| . b. So the pair
    // of runs is repeated with the float inputs C is not computed from
    // made non-negative (|W|): with W >= 0 and every displacement of one
    // sign no term cancels, and C itself (computed from the other inputs)
    // and b are those of the reference. An element's bound is the larger
    // of the two. Not followed: a weight computed from C's own inputs, the
    // difference of two displaced values, and inputs that pass through
    // memory the kernel stored to (then nothing is made non-negative).
    std::optional<SmallDenseSet<unsigned>> feeding =
        inputsFeeding(op, arguments);
    std::optional<std::vector<std::pair<std::string, host::InputSpec>>>
        magnitudes;
    if (feeding)
      magnitudes = runs.withNonNegative(*feeding, positions);
    if (!magnitudes) {
      raiseShifts(shifts, *moved, reference);
      return Error::success();
    }
    // The undisplaced run is shared by the ops that read the same inputs.
    std::vector<unsigned> key(feeding->begin(), feeding->end());
    llvm::sort(key);
    auto [cached, added] = undisplaced.try_emplace(key);
    if (added) {
      Expected<std::vector<std::vector<double>>> from =
          runs.run(options, *magnitudes);
      if (!from)
        return from.takeError();
      cached->second = std::move(*from);
    }
    Expected<std::vector<std::vector<double>>> movedNonNegative =
        runs.run(displaced, *magnitudes);
    if (!movedNonNegative)
      return movedNonNegative.takeError();
    raiseShifts(shifts, *moved, reference, &*movedNonNegative, &cached->second);
    return Error::success();
  };
  // The displaced ops by their numbers in the kernel, which name their
  // entries in the cache.
  DenseMap<mlir::Operation *, unsigned> numbers;
  if (cache)
    forEachKernelOp(module, [&](mlir::Operation *op) {
      numbers.try_emplace(op, numbers.size());
    });
  for (auto &[op, displaced] : displacements) {
    std::string entry;
    if (cache) {
      entry = (displaced.displacedReduction ? "reduction " : "rounding ") +
              std::to_string(numbers.lookup(op));
      if (std::optional<std::vector<host::Tensor>> hit = cache->lookup(entry);
          hit && hit->size() == bounds.size() &&
          llvm::all_of(llvm::zip(*hit, bounds), [](const auto &pair) {
            return std::get<0>(pair).floats.size() == std::get<1>(pair).size();
          })) {
        for (size_t o = 0; o < bounds.size(); ++o)
          for (size_t i = 0; i < bounds[o].size(); ++i)
            bounds[o][i] += (*hit)[o].floats[i];
        if (counts)
          ++counts->cachedResults;
        continue;
      }
    }
    // Each direction in turn: a later rounding may absorb the move one way
    // (x - m rounded to f16, m moved up by less than half an ulp of x - m)
    // while another fold order moves m the other way, across the rounding
    // boundary. Along a path of monotone ops, the larger of the two runs'
    // distances bounds both directions.
    std::vector<std::vector<double>> shifts;
    for (const std::vector<double> &b : bounds)
      shifts.emplace_back(b.size(), 0.0);
    for (bool downward : {false, true}) {
      displaced.displaceDownward = downward;
      if (Error e = raiseShiftsOfRun(shifts, op, displaced))
        return std::move(e);
    }
    if (cache) {
      std::vector<host::Tensor> stored;
      for (std::vector<double> &shift : shifts) {
        host::Tensor t;
        t.dtype = host::DType::F64;
        t.shape.push_back(shift.size());
        t.floats = std::move(shift);
        stored.push_back(std::move(t));
      }
      cache->store(entry, stored);
      for (size_t o = 0; o < shifts.size(); ++o)
        shifts[o] = std::move(stored[o].floats);
    }
    for (size_t o = 0; o < bounds.size(); ++o)
      for (size_t i = 0; i < bounds[o].size(); ++i)
        bounds[o][i] += shifts[o][i];
  }
  return bounds;
}
