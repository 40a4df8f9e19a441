//===- RegisterTiles.cpp - Reductions accumulated in registers ------------===//
//
// After LoopOrder.cpp a matmul's loops run (m, k, n): the innermost loop
// walks a row of B and of the f32 accumulator, so every 8 products load
// and store 8 accumulators (the store port bounds it). linalg-to-loops
// cannot keep the accumulators in registers, and neither can LLVM after
// strip-mining the n loop: it does not prove the accumulator buffer apart
// from the operands (docs/cpu-jit.md). Here the accumulators are SSA
// values: for each block of `mr` output rows and a vector of `nr` columns,
// the reduction loop carries one vector per row (iter_args), loads what
// each step needs (a contiguous vector of an operand that varies along the
// columns, a scalar broadcast of one that does not) and runs the generic's
// body on vectors; the block is stored once after the loop.
//
// Each output element still applies the body's ops in the generic's order
// to its own accumulator, one reduction step at a time in ascending order:
// the same operations on the same values as linalg-to-loops, so the
// results are unchanged bit for bit. Only arith ops on f32 and wider (and
// extensions from 16-bit floats) are vectorised: narrow arithmetic and math
// functions get the tier's own numerics later (Numerics.cpp), which work on
// scalars.
//
//===----------------------------------------------------------------------===//

#include "RegisterTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace {
/// How one generic is blocked.
struct BlockPlan {
  unsigned n;                  // the output's innermost dimension
  std::optional<unsigned> m;   // the output's next dimension, if any
  unsigned k;                  // the reduction dimension
  SmallVector<unsigned> outer; // the other (parallel) dimensions
  SmallVector<int64_t> ranges; // every dimension's trip count
  int64_t mr = 1, nr = 1;      // rows and columns of a block
  // Scalar accumulators, `mr` consecutive elements along n (an input does
  // not vary contiguously along n: a row reduction).
  bool scalar = false;
  /// The dimension along which a block's accumulators lie.
  std::optional<unsigned> rowDim() const {
    return scalar ? std::optional<unsigned>(n) : m;
  }
};
} // namespace

/// Whether the last dimension of `type` is contiguous.
static bool hasUnitInnerStride(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || memref.getRank() == 0)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(memref.getStridesAndOffset(strides, offset)) &&
         strides.back() == 1;
}

static bool isNarrowFloat(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isF16() || element.isBF16();
}

/// Whether every op of the body can run on vectors with unchanged results.
static bool hasVectorizableBody(Block &body) {
  for (Operation &op : body.without_terminator()) {
    if (!isa<arith::ArithDialect>(op.getDialect()) || op.getNumRegions() != 0 ||
        op.getNumResults() != 1)
      return false;
    if (!isa<arith::ConstantOp>(op) &&
        !OpTrait::hasElementwiseMappableTraits(&op))
      return false;
    if (isNarrowFloat(op.getResult(0).getType()))
      return false;
    if (!isa<arith::ExtFOp>(op) &&
        llvm::any_of(op.getOperandTypes(), isNarrowFloat))
      return false;
  }
  return true;
}

/// `plan` with scalar accumulators, 4 (or 2) of them interleaved where the
/// output has as many elements along n (a row reduction's add latency).
static BlockPlan scalarPlan(BlockPlan plan) {
  plan.scalar = true;
  if (plan.m)
    plan.outer.push_back(*plan.m);
  plan.m.reset();
  plan.nr = 1;
  for (int64_t rows : {4, 2, 1})
    if (plan.ranges[plan.n] % rows == 0) {
      plan.mr = rows;
      break;
    }
  return plan;
}

static std::optional<BlockPlan> planBlocks(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1 || op.hasIndexSemantics() ||
      !hasVectorizableBody(op.getRegion().front()))
    return std::nullopt;
  BlockPlan plan;
  plan.ranges = op.getStaticLoopRanges();
  if (llvm::any_of(plan.ranges, ShapedType::isDynamic))
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!llvm::all_of(maps, [](AffineMap map) {
        return map.isProjectedPermutation(/*allowZeroInResults=*/false);
      }))
    return std::nullopt;
  AffineMap outputMap = maps.back();
  Value output = op.getDpsInits()[0];
  if (outputMap.getNumResults() == 0 || !hasUnitInnerStride(output.getType()))
    return std::nullopt;
  auto dim = [](AffineExpr e) { return cast<AffineDimExpr>(e).getPosition(); };
  plan.n = dim(outputMap.getResults().back());
  if (outputMap.getNumResults() >= 2)
    plan.m = dim(outputMap.getResults()[outputMap.getNumResults() - 2]);
  for (auto [d, kind] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (kind == utils::IteratorType::reduction)
      plan.k = d;
    else if (!outputMap.isFunctionOfDim(d))
      return std::nullopt; // a parallel dimension the output does not index
    else if (d != plan.n && d != plan.m)
      plan.outer.push_back(d);
  }
  // An operand that varies along n is loaded as a vector: n must be its
  // innermost, contiguous dimension. Otherwise a row reduction has scalar
  // accumulators; a contraction keeps LoopOrder.cpp's order, which LLVM
  // vectorises.
  bool contraction = linalg::isaContractionOpInterface(op);
  for (auto [operand, map] : llvm::zip(op->getOperands(), maps)) {
    if (!map.isFunctionOfDim(plan.n))
      continue;
    if (dim(map.getResults().back()) != plan.n ||
        !hasUnitInnerStride(operand.getType())) {
      if (contraction)
        return std::nullopt;
      return scalarPlan(plan);
    }
  }
  // Two 256-bit registers of columns (one when the row is too short for
  // two), and as many rows as keep 8 of the 16 registers accumulating.
  unsigned width =
      getElementTypeOrSelf(output.getType()).getIntOrFloatBitWidth();
  if (width < 8 || 256 % width != 0)
    return std::nullopt;
  int64_t columns = plan.ranges[plan.n];
  for (int64_t registers : {2, 1})
    if (columns % (registers * 256 / width) == 0) {
      plan.nr = registers * 256 / width;
      break;
    }
  if (plan.nr == 1)
    return contraction ? std::nullopt : std::optional(scalarPlan(plan));
  int64_t maxRows = 8 * 256 / (plan.nr * width);
  if (plan.m)
    for (int64_t rows : {8, 4, 2, 1})
      if (rows <= maxRows && plan.ranges[*plan.m] % rows == 0) {
        plan.mr = rows;
        break;
      }
  return plan;
}

/// Whether `v` is the f32 product of two 16-bit IEEE floats (f16) extended
/// to f32. Such a product is exact in f32 (22 significant bits, exponents
/// far from f32's limits), so adding it to an accumulator rounds once, as a
/// fused multiply-add does: the two agree bit for bit (NaN payloads aside,
/// docs/cpu-jit.md). Not so for bf16, whose products can underflow f32.
static arith::MulFOp exactProduct(Value v) {
  auto mul = v.getDefiningOp<arith::MulFOp>();
  if (!mul || !mul.getType().isF32())
    return {};
  for (Value operand : mul->getOperands()) {
    auto extension = operand.getDefiningOp<arith::ExtFOp>();
    if (!extension || !extension.getIn().getType().isF16())
      return {};
  }
  return mul;
}

/// `op`'s results as vectors of `lanes`: scalar operands broadcast.
static Value vectorize(OpBuilder &b, Operation &op, IRMapping &map,
                       int64_t lanes) {
  auto asVector = [&](Type type) { return VectorType::get({lanes}, type); };
  bool anyVector = llvm::any_of(op.getOperands(), [&](Value v) {
    return isa<VectorType>(map.lookup(v).getType());
  });
  // An extension of a converted input (convertInputs) is its operand.
  if (isa<arith::ExtFOp>(op) &&
      getElementTypeOrSelf(map.lookup(op.getOperand(0))) ==
          getElementTypeOrSelf(op.getResult(0)))
    return map.lookup(op.getOperand(0));
  // A 16-bit float is broadcast before it is extended: the scalar
  // conversion's load merges into a register the accumulators use, a false
  // dependency that serialises the reduction loop.
  if (lanes > 1 && !anyVector && isa<arith::ExtFOp>(op) &&
      isNarrowFloat(op.getOperand(0).getType()))
    anyVector = true;
  if (!anyVector)
    return b.clone(op, map)->getResult(0);
  auto vectorOf = [&](Value operand) {
    Value mapped = map.lookup(operand);
    if (!isa<VectorType>(mapped.getType()))
      mapped = vector::BroadcastOp::create(b, op.getLoc(),
                                           asVector(mapped.getType()), mapped);
    return mapped;
  };
  // Half the vector instructions of a multiply and an add (the machine's
  // vector units are what bounds a matmul); the multiply is left dead.
  if (auto add = dyn_cast<arith::AddFOp>(op))
    for (auto [product, addend] : {std::pair(add.getLhs(), add.getRhs()),
                                   std::pair(add.getRhs(), add.getLhs())})
      if (arith::MulFOp mul = exactProduct(product))
        return vector::FMAOp::create(b, op.getLoc(), vectorOf(mul.getLhs()),
                                     vectorOf(mul.getRhs()), vectorOf(addend));
  SmallVector<Value> operands;
  for (Value operand : op.getOperands())
    operands.push_back(vectorOf(operand));
  OperationState state(op.getLoc(), op.getName(), operands,
                       TypeRange{asVector(op.getResult(0).getType())},
                       op.getAttrs());
  return b.create(state)->getResult(0);
}

/// The inputs of `op`, those its body reads only through an extension
/// from a 16-bit float replaced by a buffer of the extended values. Each
/// element is converted once instead of once per block that reads it (a
/// matmul's B once per block of rows), and the blocks' loop then spends its
/// vector units on the body's arithmetic alone. The buffers, to be freed
/// after the blocks, are appended to `buffers`.
static SmallVector<Value> convertInputs(OpBuilder &b, linalg::GenericOp op,
                                        SmallVector<Value> &buffers) {
  Location loc = op.getLoc();
  Block &body = op.getRegion().front();
  SmallVector<Value> inputs(op.getDpsInputs());
  for (auto [i, input] : llvm::enumerate(inputs)) {
    BlockArgument arg = body.getArgument(i);
    auto type = dyn_cast<MemRefType>(input.getType());
    if (!arg.hasOneUse() || !isNarrowFloat(arg.getType()) || !type ||
        type.getRank() == 0 || !type.hasStaticShape())
      continue;
    auto extension = dyn_cast<arith::ExtFOp>(*arg.getUsers().begin());
    if (!extension)
      continue;
    auto wideType = MemRefType::get(type.getShape(), extension.getType());
    Value buffer =
        memref::AllocOp::create(b, loc, wideType, b.getI64IntegerAttr(64));
    SmallVector<Value> zeros, ends, ones;
    for (int64_t extent : type.getShape()) {
      zeros.push_back(arith::ConstantIndexOp::create(b, loc, 0));
      ends.push_back(arith::ConstantIndexOp::create(b, loc, extent));
      ones.push_back(arith::ConstantIndexOp::create(b, loc, 1));
    }
    scf::buildLoopNest(b, loc, zeros, ends, ones,
                       [&](OpBuilder &b, Location loc, ValueRange ivs) {
                         Value narrow =
                             memref::LoadOp::create(b, loc, input, ivs);
                         Value wide = arith::ExtFOp::create(
                             b, loc, extension.getType(), narrow);
                         memref::StoreOp::create(b, loc, wide, buffer, ivs);
                       });
    input = buffer;
    buffers.push_back(buffer);
  }
  return inputs;
}

static void emitBlocks(linalg::GenericOp op, const BlockPlan &plan) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  SmallVector<Value> buffers;
  SmallVector<Value> inputs = convertInputs(b, op, buffers);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  Value output = op.getDpsInits()[0];
  Type outputType = getElementTypeOrSelf(output.getType());
  auto accType = VectorType::get({plan.nr}, outputType);
  Block &body = op.getRegion().front();
  unsigned numInputs = op.getNumDpsInputs();

  // Blocks of columns outside blocks of rows: the rows of one block of
  // columns reuse its strip of an operand that varies along the columns (a
  // matmul's B: 128 cache lines for K = 128) while it is in L1.
  SmallVector<unsigned> blockDims(plan.outer);
  blockDims.push_back(plan.n);
  if (plan.m)
    blockDims.push_back(*plan.m);
  SmallVector<Value> lbs, ubs, steps;
  for (unsigned d : blockDims) {
    lbs.push_back(constant(0));
    ubs.push_back(constant(plan.ranges[d]));
    steps.push_back(constant(d == plan.rowDim() ? plan.mr
                             : d == plan.n      ? plan.nr
                                                : 1));
  }
  scf::buildLoopNest(
      b, loc, lbs, ubs, steps, [&](OpBuilder &b, Location loc, ValueRange ivs) {
        SmallVector<Value> dims(plan.ranges.size());
        for (auto [d, iv] : llvm::zip(blockDims, ivs))
          dims[d] = iv;
        // The dimensions of row `r` of the block at reduction step `k`.
        auto rowDims = [&](int64_t r, Value k) {
          SmallVector<Value> at(dims);
          if (std::optional<unsigned> rowDim = plan.rowDim(); rowDim && r != 0)
            at[*rowDim] = arith::AddIOp::create(
                b, loc, dims[*rowDim],
                arith::ConstantIndexOp::create(b, loc, r));
          if (k)
            at[plan.k] = k;
          return at;
        };
        auto indices = [&](AffineMap map, ArrayRef<Value> at) {
          SmallVector<Value> result;
          for (AffineExpr e : map.getResults())
            result.push_back(at[cast<AffineDimExpr>(e).getPosition()]);
          return result;
        };
        SmallVector<Value> accs;
        for (int64_t r = 0; r < plan.mr; ++r) {
          SmallVector<Value> at = indices(maps.back(), rowDims(r, {}));
          accs.push_back(
              plan.scalar
                  ? Value(memref::LoadOp::create(b, loc, output, at))
                  : Value(vector::LoadOp::create(b, loc, accType, output, at)));
        }
        Value zero = arith::ConstantIndexOp::create(b, loc, 0);
        Value trips =
            arith::ConstantIndexOp::create(b, loc, plan.ranges[plan.k]);
        Value one = arith::ConstantIndexOp::create(b, loc, 1);
        auto loop = scf::ForOp::create(
            b, loc, zero, trips, one, accs,
            [&](OpBuilder &b, Location loc, Value k, ValueRange carried) {
              SmallVector<Value> next;
              for (int64_t r = 0; r < plan.mr; ++r) {
                SmallVector<Value> at = rowDims(r, k);
                IRMapping map;
                for (unsigned i = 0; i < numInputs; ++i) {
                  Value input = inputs[i];
                  SmallVector<Value> idx = indices(maps[i], at);
                  Type element = getElementTypeOrSelf(input.getType());
                  Value loaded =
                      !plan.scalar && maps[i].isFunctionOfDim(plan.n)
                          ? Value(vector::LoadOp::create(
                                b, loc, VectorType::get({plan.nr}, element),
                                input, idx))
                          : Value(memref::LoadOp::create(b, loc, input, idx));
                  map.map(body.getArgument(i), loaded);
                }
                map.map(body.getArgument(numInputs), carried[r]);
                for (Operation &bodyOp : body.without_terminator())
                  map.map(bodyOp.getResult(0),
                          vectorize(b, bodyOp, map, plan.nr));
                Value yielded = map.lookup(body.getTerminator()->getOperand(0));
                if (!plan.scalar && !isa<VectorType>(yielded.getType()))
                  yielded =
                      vector::BroadcastOp::create(b, loc, accType, yielded);
                next.push_back(yielded);
              }
              scf::YieldOp::create(b, loc, next);
            });
        for (int64_t r = 0; r < plan.mr; ++r) {
          SmallVector<Value> at = indices(maps.back(), rowDims(r, {}));
          if (plan.scalar)
            memref::StoreOp::create(b, loc, loop.getResult(r), output, at);
          else
            vector::StoreOp::create(b, loc, loop.getResult(r), output, at);
        }
      });
  for (Value buffer : buffers)
    memref::DeallocOp::create(b, loc, buffer);
  op.erase();
}

void ktflow::jit::blockReductionsInRegisters(Operation *root) {
  SmallVector<std::pair<linalg::GenericOp, BlockPlan>> blocked;
  root->walk([&](linalg::GenericOp op) {
    if (std::optional<BlockPlan> plan = planBlocks(op))
      blocked.push_back({op, std::move(*plan)});
  });
  for (auto &[op, plan] : blocked)
    emitBlocks(op, plan);
}
