//===- StridedStores.cpp - A FIFO's stores to evenly spaced buffers -------===//
//
// This file merges a run of `dfir.store`s of one FIFO whose addresses are
// evenly spaced into one store of rows. A compute stage with several
// outputs of one shape sends each chunk of every output in turn to one
// FIFO, and the store unit writes each chunk to its own buffer: the
// buffers, allocated one after the other at equal sizes, sit a constant
// stride apart, so the chunks' addresses differ by that stride. A store
// waits until its last byte has landed, so the unit pays the route's
// latency once a store: the shipped element-wise kernel's three outputs on
// sample_device (L1 store unit, 4 cycles of latency) cost 5 cycles a
// 128-byte chunk, 15 a row, where one store of three rows costs 7; the
// store unit, not the SFU, set the pace (675 -> 632 cycles).
//
// The merged store writes the same bytes in the same order, popping the
// same entries; only pure ops (the address arithmetic) may lie between the
// stores of a run.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

namespace {
/// An index value as a constant plus integer multiples of leaf values.
struct Linear {
  int64_t constant = 0;
  llvm::SmallMapVector<Value, int64_t, 4> terms;

  void add(const Linear &o, int64_t scale) {
    constant += scale * o.constant;
    for (auto [v, k] : o.terms)
      terms[v] += scale * k;
  }
};
} // namespace

/// The buffers' static offsets, by symbol.
static llvm::StringMap<int64_t> bufferOffsets(dfir::KernelOp kernel) {
  llvm::StringMap<int64_t> offsets;
  for (auto buffer : kernel.getBody().getOps<dfir::BufferOp>())
    if (std::optional<uint64_t> offset = buffer.getOffset())
      offsets[buffer.getSymName()] = static_cast<int64_t>(*offset);
  return offsets;
}

static std::optional<int64_t> constantIndex(Value v) {
  if (auto c = v.getDefiningOp<arith::ConstantIndexOp>())
    return c.value();
  return std::nullopt;
}

/// `v` as a Linear: constants, sums, differences, products by a constant
/// and placed buffers' addresses fold; anything else is a leaf.
static Linear linearize(Value v, const llvm::StringMap<int64_t> &offsets,
                        unsigned depth = 0) {
  Linear out;
  if (std::optional<int64_t> c = constantIndex(v)) {
    out.constant = *c;
    return out;
  }
  Operation *def = v.getDefiningOp();
  if (def && depth < 32) {
    if (auto address = dyn_cast<dfir::AddressOp>(def)) {
      auto it = offsets.find(address.getSymbol());
      if (it != offsets.end()) {
        out.constant = it->second;
        return out;
      }
    }
    if (isa<arith::AddIOp, arith::SubIOp>(def)) {
      out.add(linearize(def->getOperand(0), offsets, depth + 1), 1);
      out.add(linearize(def->getOperand(1), offsets, depth + 1),
              isa<arith::AddIOp>(def) ? 1 : -1);
      return out;
    }
    if (isa<arith::MulIOp>(def)) {
      for (unsigned i = 0; i < 2; ++i)
        if (std::optional<int64_t> c = constantIndex(def->getOperand(i))) {
          out.add(linearize(def->getOperand(1 - i), offsets, depth + 1), *c);
          return out;
        }
    }
  }
  out.terms[v] = 1;
  return out;
}

/// b - a when it is a constant.
static std::optional<int64_t> constantDistance(const Linear &a,
                                               const Linear &b) {
  Linear d = b;
  d.add(a, -1);
  for (auto [v, k] : d.terms)
    if (k != 0)
      return std::nullopt;
  return d.constant;
}

static bool isPlainStore(dfir::StoreOp store) {
  return !store.getRows() && constantIndex(store.getSize());
}

/// Whether `next` may join the run that `first` starts: same FIFO, memory
/// and size, nothing but pure ops in between.
static bool continuesRun(dfir::StoreOp first, dfir::StoreOp next) {
  if (!isPlainStore(next) || next.getFifo() != first.getFifo() ||
      next.getMemory() != first.getMemory() ||
      constantIndex(next.getSize()) != constantIndex(first.getSize()))
    return false;
  for (Operation *op = first->getNextNode(); op != next.getOperation();
       op = op->getNextNode())
    if (!isMemoryEffectFree(op) || op->getNumRegions() != 0)
      return false;
  return true;
}

/// Erases `op` and the pure ops that computed only its operands.
static void eraseWithDeadOperands(Operation *op) {
  SmallVector<Operation *> work{op};
  while (!work.empty()) {
    Operation *dead = work.pop_back_val();
    SmallVector<Value> operands(dead->getOperands());
    dead->erase();
    for (Value v : operands) {
      Operation *def = v.getDefiningOp();
      if (def && def->use_empty() && isMemoryEffectFree(def) &&
          def->getNumRegions() == 0 && !llvm::is_contained(work, def))
        work.push_back(def);
    }
  }
}

/// Merges the run of stores starting at `first` when its addresses step
/// by one stride at least a row's bytes; returns the op after the run.
static Operation *mergeRun(dfir::StoreOp first,
                           const llvm::StringMap<int64_t> &offsets) {
  Operation *after = first->getNextNode();
  if (!isPlainStore(first))
    return after;
  int64_t size = *constantIndex(first.getSize());
  Linear base = linearize(first.getAddr(), offsets);
  SmallVector<dfir::StoreOp> run{first};
  std::optional<int64_t> stride;
  for (Operation *op = after; op; op = op->getNextNode()) {
    auto next = dyn_cast<dfir::StoreOp>(op);
    if (!next) {
      if (isMemoryEffectFree(op) && op->getNumRegions() == 0)
        continue;
      break;
    }
    if (!continuesRun(run.back(), next))
      break;
    std::optional<int64_t> d =
        constantDistance(base, linearize(next.getAddr(), offsets));
    int64_t rows = static_cast<int64_t>(run.size());
    if (!d || (stride ? *d != *stride * rows : *d < size))
      break;
    if (!stride)
      stride = *d;
    run.push_back(next);
  }
  if (run.size() < 2)
    return after;
  OpBuilder b(first);
  Location loc = first.getLoc();
  Value rows = arith::ConstantIndexOp::create(b, loc, run.size());
  Value step = arith::ConstantIndexOp::create(b, loc, *stride);
  dfir::StoreOp::create(b, loc, first.getFifoAttr(), first.getMemoryAttr(),
                        first.getAddr(), first.getSize(), rows, step);
  after = run.back()->getNextNode();
  first->erase();
  for (dfir::StoreOp store : llvm::drop_begin(run))
    eraseWithDeadOperands(store);
  return after;
}

namespace mlir::ktdf::lowering {
void mergeStridedStores(dfir::KernelOp kernel);
} // namespace mlir::ktdf::lowering

void lowering::mergeStridedStores(dfir::KernelOp kernel) {
  llvm::StringMap<int64_t> offsets = bufferOffsets(kernel);
  SmallVector<Block *> blocks;
  kernel.walk([&](dfir::StoreOp store) {
    if (blocks.empty() || blocks.back() != store->getBlock())
      blocks.push_back(store->getBlock());
  });
  for (Block *block : llvm::make_early_inc_range(blocks))
    for (Operation *op = &block->front(); op;) {
      auto store = dyn_cast<dfir::StoreOp>(op);
      op = store ? mergeRun(store, offsets) : op->getNextNode();
    }
}
