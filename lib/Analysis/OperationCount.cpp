//===- OperationCount.cpp - The arithmetic of one KTIR op -----------------===//
//
// This file charges the compute operations of a kernel as written, for the
// roofline count: element-wise and transcendental ops per element they
// produce, reductions per element they fold at the folded value's type (a
// 16-bit reduction's wider accumulator is the unit's own affair), matrix
// products per multiply-accumulate; and finds the longest chain of them
// between a load and a store.
//
//===----------------------------------------------------------------------===//

#include "OperationCount.h"

#include "ktflow/Analysis/KernelDemand.h"
#include "ktflow/Device/ComputeOpClass.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace ktflow;
using ktdf_arch::OpClass;

bool ktflow::isComputeOp(Operation *op) {
  StringRef dialect = op->getName().getDialectNamespace();
  if (dialect != "arith" && dialect != "math" && dialect != "spyreop")
    return false;
  if (op->getNumResults() == 0 ||
      isa<arith::ConstantOp, arith::BitcastOp, arith::IndexCastOp,
          arith::IndexCastUIOp>(op))
    return false;
  auto isIndex = [](Type type) {
    return isa<IndexType>(getElementTypeOrSelf(type));
  };
  return llvm::none_of(op->getOperandTypes(), isIndex) &&
         llvm::none_of(op->getResultTypes(), isIndex);
}

/// Elements of `type`: 1 for a scalar, none for a dynamic shape.
static std::optional<double> numElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped)
    return 1;
  if (!shaped.hasStaticShape())
    return std::nullopt;
  return static_cast<double>(shaped.getNumElements());
}

/// The body op of a reduction that folds a value into an output: one of
/// its operands is an output's block argument. Returns the type of the
/// value it folds (its first other operand), or null.
static Type foldedType(linalg::LinalgOp op, Operation &inner) {
  Block *body = op.getBlock();
  Value accumulator;
  for (Value operand : inner.getOperands())
    if (auto arg = dyn_cast<BlockArgument>(operand);
        arg && arg.getOwner() == body &&
        arg.getArgNumber() >= op.getNumDpsInputs())
      accumulator = operand;
  if (!accumulator)
    return {};
  for (Value operand : inner.getOperands())
    if (operand != accumulator)
      return getElementTypeOrSelf(operand.getType());
  return getElementTypeOrSelf(accumulator.getType());
}

/// Whether `inner` is the select of a reduction body's two-op maximum or
/// minimum, `select(cmpf(a, b), a, b)` (either order): one reduction step
/// with its compare, which foldedType counts (the select alone would count
/// a reduction of the compare's i1).
static bool picksByCompare(linalg::LinalgOp op, Operation &inner) {
  auto select = dyn_cast<arith::SelectOp>(inner);
  if (!select)
    return false;
  auto cmp = select.getCondition().getDefiningOp<arith::CmpFOp>();
  if (!cmp || cmp->getBlock() != op.getBlock())
    return false;
  Value a = select.getTrueValue(), b = select.getFalseValue();
  return (cmp.getLhs() == a && cmp.getRhs() == b) ||
         (cmp.getLhs() == b && cmp.getRhs() == a);
}

/// The narrower float type `value` is an `extf` of, through transposes
/// (data movement), or null.
static FloatType extendedFrom(Value value) {
  while (auto transpose = value.getDefiningOp<linalg::TransposeOp>())
    value = transpose.getInput();
  auto extend = value.getDefiningOp<arith::ExtFOp>();
  return extend ? dyn_cast<FloatType>(getElementTypeOrSelf(extend.getIn()))
                : FloatType();
}

/// The element type whose multiply-accumulate rate `contraction` needs:
/// its first operand's, or, when both operands extend the same narrower
/// float whose products are exact at the wider type (f16 or bf16 to f32),
/// the narrower one. A unit that multiplies the narrow type with a wide
/// accumulator computes the same sums, and the scheduler hands such
/// products to one (ktdf-generalize's matrix idioms, docs/scheduler.md):
/// the wider rate would be no lower bound.
static Type productType(linalg::LinalgOp contraction) {
  Value lhs = contraction.getDpsInputOperand(0)->get();
  auto wide = dyn_cast<FloatType>(getElementTypeOrSelf(lhs));
  FloatType narrow = extendedFrom(lhs);
  if (wide && narrow &&
      narrow == extendedFrom(contraction.getDpsInputOperand(1)->get()) &&
      2 * narrow.getFPMantissaWidth() <= wide.getFPMantissaWidth())
    return narrow;
  return getElementTypeOrSelf(lhs);
}

bool ktflow::isFoldedIntoProducts(Operation *op) {
  auto extend = dyn_cast<arith::ExtFOp>(op);
  if (!extend)
    return false;
  auto onlyNarrowProducts = [](Value value, auto &self) -> bool {
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto transpose = dyn_cast<linalg::TransposeOp>(user)) {
        if (!self(transpose->getResult(0), self))
          return false;
        continue;
      }
      auto contraction = dyn_cast<linalg::LinalgOp>(user);
      if (!contraction ||
          !isa<linalg::ContractionOpInterface>(contraction.getOperation()) ||
          !contraction.isDpsInput(&use) ||
          productType(contraction) == getElementTypeOrSelf(value))
        return false;
    }
    return true;
  };
  return !extend->use_empty() &&
         onlyNarrowProducts(extend.getResult(), onlyNarrowProducts);
}

const DeviceRewrites::PerElement *DeviceRewrites::lookup(Operation *op) {
  if (!patterns || op->getNumRegions() != 0)
    return nullptr;
  std::string key;
  llvm::raw_string_ostream os(key);
  os << op->getName() << '(';
  for (Type type : op->getOperandTypes())
    os << getElementTypeOrSelf(type) << ',';
  os << ")->(";
  for (Type type : op->getResultTypes())
    os << getElementTypeOrSelf(type) << ',';
  os << ')' << op->getAttrDictionary();
  auto [it, inserted] = cache.try_emplace(key);
  if (inserted)
    it->second = rewrite(op);
  return it->second ? &*it->second : nullptr;
}

std::optional<DeviceRewrites::PerElement>
DeviceRewrites::rewrite(Operation *op) {
  MLIRContext *context = op->getContext();
  Location loc = UnknownLoc::get(context);
  OwningOpRef<ModuleOp> probe = ModuleOp::create(loc);
  OpBuilder builder(probe->getBodyRegion());
  auto elementTypes = [](TypeRange types) {
    return llvm::map_to_vector(
        types, [](Type type) { return getElementTypeOrSelf(type); });
  };
  SmallVector<Type> results = elementTypes(op->getResultTypes());
  auto function = func::FuncOp::create(
      builder, loc, "probe",
      builder.getFunctionType(elementTypes(op->getOperandTypes()), results));
  Block *entry = function.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping operands;
  operands.map(op->getOperands(), entry->getArguments());
  Operation *copy = builder.clone(*op, operands);
  for (auto [result, type] : llvm::zip(copy->getResults(), results))
    result.setType(type);
  func::ReturnOp::create(builder, loc, copy->getResults());
  OperationName name = op->getName();
  if (failed(patterns(*probe)))
    return std::nullopt;
  auto body = entry->without_terminator();
  if (llvm::hasSingleElement(body) && body.begin()->getName() == name &&
      TypeRange(body.begin()->getResultTypes()) == TypeRange(results))
    return std::nullopt;
  device::KernelDemand perElement;
  for (Operation &inner : body)
    if (isComputeOp(&inner)) {
      Type type;
      ktdf_arch::OpClass cls = device::getComputeOpClass(&inner, type);
      perElement.addOperations(cls, type, 1);
    }
  return std::move(perElement.operations);
}

/// Adds `count` executions of the compute op `op` to `demand`: as the
/// device's patterns rewrite it, when they do.
static void addExecutions(Operation *op, ktdf_arch::OpClass cls, Type type,
                          double count, device::KernelDemand &demand,
                          DeviceRewrites *rewrites) {
  if (const DeviceRewrites::PerElement *ops =
          rewrites ? rewrites->lookup(op) : nullptr) {
    for (const device::KernelDemand::Operations &rewritten : *ops)
      demand.addOperations(rewritten.opClass, rewritten.type,
                           rewritten.count * count);
    return;
  }
  demand.addOperations(cls, type, count);
}

static bool countLinalg(linalg::LinalgOp op, device::KernelDemand &demand,
                        DeviceRewrites *rewrites) {
  double iterations = 1;
  for (int64_t range : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range)) {
      demand.addGap("linalg operations of dynamic shape");
      return false;
    }
    iterations *= static_cast<double>(range);
  }
  if (isa<linalg::ContractionOpInterface>(op.getOperation())) {
    demand.addOperations(OpClass::Matrix, productType(op), iterations);
    return true;
  }
  bool reduces = op.getNumReductionLoops() > 0;
  for (Operation &inner : op.getBlock()->without_terminator()) {
    if (!isComputeOp(&inner) || (reduces && picksByCompare(op, inner)))
      continue;
    Type type;
    OpClass cls = device::getComputeOpClass(&inner, type);
    if (Type folded = reduces ? foldedType(op, inner) : Type()) {
      demand.addOperations(OpClass::Reduction, folded, iterations);
      continue;
    }
    addExecutions(&inner, cls, type, iterations, demand, rewrites);
  }
  return true;
}

bool ktflow::countOperations(Operation *op, device::KernelDemand &demand,
                             DeviceRewrites *rewrites) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return countLinalg(linalgOp, demand, rewrites);
  if (!isComputeOp(op) || isFoldedIntoProducts(op))
    return true;
  std::optional<double> elements = numElements(op->getResult(0).getType());
  if (!elements) {
    demand.addGap("operations on tensors of dynamic shape");
    return false;
  }
  Type type;
  OpClass cls = device::getComputeOpClass(op, type);
  addExecutions(op, cls, type, *elements, demand, rewrites);
  return true;
}

namespace {
/// The depth of every value: compute ops on its longest chain since a load.
class ChainLength {
public:
  unsigned longest = 0;

  void visit(Block &block) {
    for (Operation &op : block)
      visit(&op);
  }

private:
  unsigned of(Value value) const { return depth.lookup(value); }

  /// The deepest value the terminators of `op`'s regions yield.
  unsigned yielded(Operation *op) const {
    unsigned deepest = 0;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!block.empty() && block.back().hasTrait<OpTrait::IsTerminator>())
          for (Value value : block.back().getOperands())
            deepest = std::max(deepest, of(value));
    return deepest;
  }

  void visit(Operation *op) {
    unsigned in = 0;
    for (Value operand : op->getOperands())
      in = std::max(in, of(operand));
    if (auto store = dyn_cast<ktdp::StoreOp>(op)) {
      longest = std::max(longest, of(store.getDataTile()));
      return;
    }
    if (isa<ktdp::LoadOp>(op))
      return;
    unsigned out = in;
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      if (isa<linalg::ContractionOpInterface>(op)) {
        out = in + 1;
      } else {
        // Block arguments stand for the operands, in order.
        Block *body = linalgOp.getBlock();
        for (auto [arg, operand] :
             llvm::zip(body->getArguments(), op->getOperands()))
          depth[arg] = of(operand);
        visit(*body);
        out = yielded(op);
      }
    } else if (isComputeOp(op) && !isFoldedIntoProducts(op)) {
      out = in + 1;
    } else if (op->getNumRegions() > 0) {
      // Loop-carried values start at their initial values' depth; a
      // second iteration's longer chain is not followed.
      if (auto loop = dyn_cast<scf::ForOp>(op))
        for (auto [arg, init] :
             llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs()))
          depth[arg] = of(init);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          visit(block);
      out = std::max(in, yielded(op));
    }
    for (Value result : op->getResults())
      depth[result] = out;
  }

  DenseMap<Value, unsigned> depth;
};
} // namespace

unsigned ktflow::countLongestChain(func::FuncOp kernel) {
  ChainLength chain;
  for (Block &block : kernel.getBody())
    chain.visit(block);
  return chain.longest;
}
