//===- LowerCarriedScalars.cpp - Scalars a loop carries over its trips ----===//
//
// This file implements --ktdf-lower-carried-scalars. Triton advances its
// row and column offsets by carrying them in iter_args (`off += BLOCK`
// each trip, as an `index` or as an `i32` cast to `index`) and folds
// per-block reductions into a carried f32. A loop of constant trips is
// unrolled (ktdf-unroll-carried-loops); one whose trip count is known only
// at run time keeps what it carries in the scratchpad
// (ktdf-carry-in-scratchpad), which holds tensors, not scalars. So, on the
// loops the unrolling leaves:
//   * a carried integer to which each trip adds the same loop-invariant
//     amount k (an affine recurrence, `arith.addi %a, %k` or `subi %a, %k`)
//     is init + t * k at trip t = (iv - lb) / step: the loop stops carrying
//     it, its accesses follow the induction variable (and the index
//     analyses bound them like any anchor); the arithmetic is done in the
//     carried type, so an `i32` wraps as the recurrence does. A loop that
//     goes on carrying a tensor or a float and uses its trip number only
//     for one such `index` offset (k > 0 a constant) runs over the offset
//     instead, the form the row-span and kept-chunk passes read;
//   * a carried float becomes a one-element tensor (extracted at its uses,
//     a splat of what the trip yields), which ktdf-carry-in-scratchpad then
//     keeps in a scratchpad view of its own; the scalar arithmetic on it is
//     the row-scalar arithmetic of ktdf-generalize.
// Left carried, and refused by ktdf-check-supported: integers updated
// otherwise, and recurrences whose value after the loop is used.
//
// The units hold integers in 64-bit registers, without a narrower type's
// wrap-around, and refuse arithmetic on `i32`. Triton computes its offsets
// in `i32` (`pid * BLOCK`, a carried `i32` offset, derived above) and casts
// them to `index` for the tiles: such a cast becomes the same arithmetic
// on `index` values, equal to the `i32` value modulo 2^32, extended from
// 32 bits exactly (`((x + 2^31) & (2^32 - 1)) - 2^31`) unless the range
// analysis proves x inside `i32` (then it is x).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFLOWERCARRIEDSCALARS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
/// What becomes of one carried value (Iterate: derived, and the loop runs
/// over it instead of its trip number).
enum class Carry { Keep, Derive, Iterate, Wrap };

/// A carried integer that changes by the same amount each trip: `amount`
/// added (subtracted with `negate`); none when the trip yields it as is.
struct Recurrence {
  Value amount;
  bool negate = false;
};
} // namespace

/// Whether `v` has the same value in every trip of `loop`.
static bool isInvariant(Value v, scf::ForOp loop) {
  return !loop.getRegion().isAncestor(v.getParentRegion()) ||
         matchPattern(v, m_Constant());
}

/// The recurrence `yielded` computes from `arg`, if affine.
static std::optional<Recurrence>
matchRecurrence(BlockArgument arg, Value yielded, scf::ForOp loop) {
  if (!arg.getType().isIntOrIndex())
    return std::nullopt;
  if (yielded == arg)
    return Recurrence{};
  if (auto add = yielded.getDefiningOp<arith::AddIOp>())
    for (int i = 0; i < 2; ++i)
      if (add->getOperand(i) == arg &&
          isInvariant(add->getOperand(1 - i), loop))
        return Recurrence{add->getOperand(1 - i)};
  if (auto sub = yielded.getDefiningOp<arith::SubIOp>())
    if (sub.getLhs() == arg && isInvariant(sub.getRhs(), loop))
      return Recurrence{sub.getRhs(), /*negate=*/true};
  return std::nullopt;
}

/// `count`, a non-negative integer, as a value of the integer type `to`
/// (zero-extended or truncated: the recurrence wraps in `to`).
static Value castCount(OpBuilder &b, Location loc, Value count, Type to) {
  Type from = count.getType();
  if (from == to)
    return count;
  if (from.isIndex() || to.isIndex())
    return b.createOrFold<arith::IndexCastUIOp>(loc, to, count);
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return b.createOrFold<arith::ExtUIOp>(loc, to, count);
  return b.createOrFold<arith::TruncIOp>(loc, to, count);
}

/// `v` usable at `b`'s insertion point at the top of the loop body: a
/// constant defined later in the body is copied there.
static Value hoisted(OpBuilder &b, Value v, scf::ForOp loop) {
  if (!loop.getRegion().isAncestor(v.getParentRegion()))
    return v;
  return b.clone(*v.getDefiningOp())->getResult(0);
}

/// The value of a carried integer in the current trip, built at the top
/// of `loop`'s body: init + ((iv - lb) / step) * amount. When the step and
/// the amount are constants and the step divides the amount, (iv - lb) *
/// (amount / step) instead, which the anchor analyses read as affine.
static Value deriveValue(scf::ForOp loop, Value init, const Recurrence &rec) {
  if (!rec.amount)
    return init;
  auto b = OpBuilder::atBlockBegin(loop.getBody());
  Location loc = loop.getLoc();
  Type type = init.getType();
  Value distance = b.createOrFold<arith::SubIOp>(loc, loop.getInductionVar(),
                                                 loop.getLowerBound());
  APInt step, k;
  Value trips = distance, perDistance;
  if (matchPattern(loop.getStep(), m_One())) {
    perDistance = hoisted(b, rec.amount, loop);
  } else if (matchPattern(loop.getStep(), m_ConstantInt(&step)) &&
             matchPattern(rec.amount, m_ConstantInt(&k)) &&
             step.isStrictlyPositive() &&
             k.getSExtValue() % step.getSExtValue() == 0) {
    perDistance = arith::ConstantOp::create(
        b, loc, type,
        b.getIntegerAttr(type, k.getSExtValue() / step.getSExtValue()));
  } else {
    // iv - lb is below 2^width unsigned, whatever the signs of the bounds.
    trips = b.createOrFold<arith::DivUIOp>(loc, distance, loop.getStep());
    perDistance = hoisted(b, rec.amount, loop);
  }
  Value offset = b.createOrFold<arith::MulIOp>(
      loc, castCount(b, loc, trips, type), perDistance);
  if (rec.negate)
    return b.createOrFold<arith::SubIOp>(loc, init, offset);
  return b.createOrFold<arith::AddIOp>(loc, init, offset);
}

/// A one-element tensor holding `scalar`: a constant's splat, or a splat.
static Value wrapScalar(OpBuilder &b, Location loc, Value scalar) {
  auto type = RankedTensorType::get({1}, scalar.getType());
  FloatAttr constant;
  if (matchPattern(scalar, m_Constant(&constant)))
    return arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, constant.getValue()));
  // The splat of an element of a one-element tensor of this type is it.
  if (auto extract = scalar.getDefiningOp<tensor::ExtractOp>())
    if (extract.getTensor().getType() == type)
      return extract.getTensor();
  return tensor::SplatOp::create(b, loc, type, scalar);
}

/// `tensor`'s one element, replacing `scalar` at its uses; a splat of it
/// back into a tensor of `tensor`'s type becomes `tensor` itself.
static void unwrapScalar(OpBuilder &b, Location loc, Value tensor,
                         Value scalar) {
  for (Operation *user : llvm::make_early_inc_range(scalar.getUsers()))
    if (auto splat = dyn_cast<tensor::SplatOp>(user);
        splat && splat.getType() == tensor.getType()) {
      splat.replaceAllUsesWith(tensor);
      splat.erase();
    }
  if (scalar.use_empty())
    return;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  scalar.replaceAllUsesWith(tensor::ExtractOp::create(b, loc, tensor, zero));
}

/// Erases `op` if nothing uses it, then the operands' definitions that
/// this leaves unused.
static void eraseIfDead(Operation *op) {
  if (!op || !isOpTriviallyDead(op))
    return;
  SmallVector<Value> operands(op->getOperands());
  op->erase();
  for (Value operand : operands)
    eraseIfDead(operand.getDefiningOp());
}

/// The constant amount, k > 0, by which `rec` advances an `index` offset
/// `loop` may run over instead of its trip number: a loop by a constant
/// positive step (signed bounds) that uses its induction variable nowhere.
static std::optional<int64_t> iterableAmount(scf::ForOp loop, Type type,
                                             const Recurrence &rec) {
  APInt k, step;
  if (!type.isIndex() || rec.negate || !rec.amount ||
      !matchPattern(rec.amount, m_ConstantInt(&k)) || !k.isStrictlyPositive() ||
      loop.getUnsignedCmp() || !loop.getInductionVar().use_empty() ||
      !matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      !step.isStrictlyPositive())
    return std::nullopt;
  return k.getSExtValue();
}

/// Bounds of the loop over the offset from `init` by `k` with as many
/// trips as `loop`: from init to init + ceil((ub - lb) / step) * k by k (a
/// count that is not positive gives no trip, as `loop` takes none).
static std::tuple<Value, Value, Value>
offsetBounds(OpBuilder &b, scf::ForOp loop, Value init, int64_t k) {
  Location loc = loop.getLoc();
  Value trips = b.createOrFold<arith::SubIOp>(loc, loop.getUpperBound(),
                                              loop.getLowerBound());
  if (!matchPattern(loop.getStep(), m_One()))
    trips = b.createOrFold<arith::CeilDivSIOp>(loc, trips, loop.getStep());
  Value amount = arith::ConstantIndexOp::create(b, loc, k);
  Value span = b.createOrFold<arith::MulIOp>(loc, trips, amount);
  return {init, b.createOrFold<arith::AddIOp>(loc, init, span), amount};
}

/// Replaces `loop` by one that carries what `plan` keeps and wraps; the
/// derived values' uses are replaced already, but for the one it iterates
/// over (`iterated`: the amount its trip adds), whose uses take the new
/// induction variable.
static void rebuild(scf::ForOp loop, ArrayRef<Carry> plan,
                    std::optional<int64_t> iterated) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  SmallVector<Value> inits;
  for (auto [init, carry] : llvm::zip(loop.getInitArgs(), plan)) {
    if (carry == Carry::Keep)
      inits.push_back(init);
    else if (carry == Carry::Wrap)
      inits.push_back(wrapScalar(b, loc, init));
  }
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();
  if (iterated) {
    unsigned i = llvm::find(plan, Carry::Iterate) - plan.begin();
    std::tie(lb, ub, step) =
        offsetBounds(b, loop, loop.getInitArgs()[i], *iterated);
  }
  auto plain = scf::ForOp::create(b, loc, lb, ub, step, inits);
  plain.setUnsignedCmp(loop.getUnsignedCmp());
  plain->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  Block *body = plain.getBody();
  // The builder ends a body with a yield only when nothing is carried.
  if (inits.empty())
    body->getTerminator()->erase();
  body->getOperations().splice(body->end(), loop.getBody()->getOperations());
  loop.getInductionVar().replaceAllUsesWith(plain.getInductionVar());
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  SmallVector<Value> yielded;
  OpBuilder inBody = OpBuilder::atBlockBegin(body);
  OpBuilder atYield(yield);
  OpBuilder after(plain->getBlock(), std::next(Block::iterator(plain)));
  SmallVector<Value> dropped;
  unsigned next = 0;
  for (auto [i, carry] : llvm::enumerate(plan)) {
    BlockArgument arg = loop.getRegionIterArg(i);
    Value result = loop.getResult(i);
    if (carry == Carry::Derive || carry == Carry::Iterate) {
      if (carry == Carry::Iterate)
        arg.replaceAllUsesWith(plain.getInductionVar());
      dropped.push_back(yield.getOperand(i));
      continue;
    }
    Value newArg = plain.getRegionIterArg(next);
    Value newResult = plain.getResult(next++);
    if (carry == Carry::Keep) {
      arg.replaceAllUsesWith(newArg);
      result.replaceAllUsesWith(newResult);
      yielded.push_back(yield.getOperand(i));
      continue;
    }
    yielded.push_back(wrapScalar(atYield, yield.getLoc(), yield.getOperand(i)));
    unwrapScalar(inBody, loc, newArg, arg);
    unwrapScalar(after, loc, newResult, result);
  }
  yield->setOperands(yielded);
  loop.erase();
  // The updates of the derived values, unless the trip uses them too.
  for (Value update : dropped)
    eraseIfDead(update.getDefiningOp());
}

/// Rewrites what `loop` carries as the file comment says.
static void lowerCarriedScalars(scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<Carry> plan;
  SmallVector<std::optional<Recurrence>> recs;
  for (auto [arg, yielded, result] : llvm::zip(
           loop.getRegionIterArgs(), yield.getOperands(), loop.getResults())) {
    Carry carry = Carry::Keep;
    std::optional<Recurrence> rec;
    if (isa<FloatType>(arg.getType()))
      carry = Carry::Wrap;
    else if ((rec = matchRecurrence(arg, yielded, loop)) && result.use_empty())
      carry = Carry::Derive;
    plan.push_back(carry);
    recs.push_back(rec);
  }
  if (llvm::all_of(plan, [](Carry c) { return c == Carry::Keep; }))
    return;
  // A loop that goes on carrying a tensor (ktdf-carry-in-scratchpad) and
  // whose trip number only advances one offset runs over that offset, the
  // form in which the row-span and carried-chunk passes read a block loop
  // (`for off in range(0, N, BLOCK)`). A loop left carrying nothing is
  // ktdf-merge-column-blocks', which reads `iv * BLOCK` as well.
  std::optional<int64_t> iterated;
  if (llvm::count(plan, Carry::Derive) == 1 &&
      llvm::any_of(plan, [](Carry c) { return c != Carry::Derive; })) {
    unsigned i = llvm::find(plan, Carry::Derive) - plan.begin();
    if ((iterated = iterableAmount(loop, loop.getRegionIterArg(i).getType(),
                                   *recs[i])))
      plan[i] = Carry::Iterate;
  }
  for (auto [i, carry] : llvm::enumerate(plan))
    if (carry == Carry::Derive)
      loop.getRegionIterArg(i).replaceAllUsesWith(
          deriveValue(loop, loop.getInitArgs()[i], *recs[i]));
  rebuild(loop, plan, iterated);
}

/// Whether `type` is an integer the units would compute without its
/// wrap-around.
static bool isNarrowInteger(Type type) {
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.getWidth() > 1 && integer.getWidth() < 64;
}

/// `v`, a narrow integer computed by additions, subtractions and products
/// from constants, kernel arguments and casts of index values, as the same
/// arithmetic on index values (equal to `v` modulo 2^width), built at
/// `b`; none for anything else.
static Value widenNarrow(OpBuilder &b, Value v, int depth = 0) {
  Location loc = v.getLoc();
  APInt k;
  if (matchPattern(v, m_ConstantInt(&k)))
    return arith::ConstantIndexOp::create(b, loc, k.getSExtValue());
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    // A kernel argument (the runtime keeps it in its type's range).
    if (!isa<func::FuncOp>(arg.getOwner()->getParentOp()))
      return nullptr;
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  }
  Operation *def = v.getDefiningOp();
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def) &&
      def->getOperand(0).getType().isIndex())
    return def->getOperand(0);
  if (depth > 32 || !isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def))
    return nullptr;
  Value lhs = widenNarrow(b, def->getOperand(0), depth + 1);
  Value rhs = lhs ? widenNarrow(b, def->getOperand(1), depth + 1) : nullptr;
  if (!rhs)
    return nullptr;
  if (isa<arith::AddIOp>(def))
    return arith::AddIOp::create(b, loc, lhs, rhs);
  if (isa<arith::SubIOp>(def))
    return arith::SubIOp::create(b, loc, lhs, rhs);
  return arith::MulIOp::create(b, loc, lhs, rhs);
}

/// Replaces `cast`, an index_cast(ui) of a narrow integer to index, by the
/// arithmetic on index values widenNarrow builds, extended from the narrow
/// width (`((x + 2^(w-1)) & (2^w - 1)) - 2^(w-1)`, or `x & (2^w - 1)`
/// unsigned) unless the range of x proves that the identity.
static void widenCast(Operation *cast) {
  Value narrow = cast->getOperand(0);
  if (!isNarrowInteger(narrow.getType()) || isa<BlockArgument>(narrow))
    return;
  OpBuilder b(cast);
  Value wide = widenNarrow(b, narrow);
  if (!wide)
    return;
  Location loc = cast->getLoc();
  unsigned width = narrow.getType().getIntOrFloatBitWidth();
  bool isSigned = isa<arith::IndexCastOp>(cast);
  int64_t low = isSigned ? -(int64_t(1) << (width - 1)) : 0;
  int64_t high = low + (int64_t(1) << width) - 1;
  std::optional<std::pair<int64_t, int64_t>> range = rangeOf(wide);
  if (!range || range->first < low || range->second > high) {
    auto constant = [&](int64_t c) {
      return arith::ConstantIndexOp::create(b, loc, c);
    };
    Value mask = constant(high - low);
    if (isSigned)
      wide = arith::AddIOp::create(b, loc, wide, constant(-low));
    wide = arith::AndIOp::create(b, loc, wide, mask);
    if (isSigned)
      wide = arith::AddIOp::create(b, loc, wide, constant(low));
  }
  cast->getResult(0).replaceAllUsesWith(wide);
  eraseIfDead(cast);
}

namespace {
struct LowerCarriedScalarsPass
    : public ktdf::impl::KTDFLowerCarriedScalarsBase<LowerCarriedScalarsPass> {
  void runOnOperation() override {
    // Post-order: inner loops first; rewriting one replaces only it.
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop.getNumRegionIterArgs() != 0 && !isUnrolledCarriedLoop(loop))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      lowerCarriedScalars(loop);
    SmallVector<Operation *> casts;
    getOperation().walk([&](Operation *op) {
      if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op) &&
          op->getResult(0).getType().isIndex())
        casts.push_back(op);
    });
    for (Operation *cast : casts)
      widenCast(cast);
  }
};
} // namespace
