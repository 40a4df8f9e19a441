//===- SinkIntoLoops.cpp - Loop-invariant tensors used in inner loops -----===//
//
// This file implements --ktdf-sink-into-loops. A compute group (the loads,
// tensor computation and stores ktir-to-ktdf makes one pipeline) lives in
// one block, but real kernels load a tile once in an outer loop and use it
// in an inner one (RoPE's cos/sin chunk, reused by every head), or splat a
// row's statistic before the column loop that applies it. This pass clones
// such a value's computation, back to its loads and constants, into the
// block of each loop body that uses it, so that every group is whole in one
// block.
// Reloading is correct only when nothing the kernel stores may change the
// data in between: a load is sunk only when no store of the kernel writes
// its tensor. ktdf-hoist-invariant-transfers later moves a load whose tile
// does not change across the loop back out of it, so the data still
// crosses the DMA route once per outer iteration.
// Sinking recomputes: a row statistic (RMSNorm's rstd: four reductions and
// a chain of scalar arithmetic) sunk into a column loop of four trips is
// computed four times per row. A loop with a few constant trips whose body
// uses arithmetic done outside it is therefore unrolled instead: the work
// is done once, and the iterations join the enclosing block's group.
// Unrolled, the column loop loads again the blocks of the row the pass
// before it loaded: a load of a tile loaded earlier in the same block, of a
// tensor no store writes, is replaced by the earlier one, so the row stays
// in the scratchpad instead of crossing the DMA route twice.
//
//===----------------------------------------------------------------------===//

#include "SameAccessTile.h"
#include "ScratchpadViews.h"

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSINKINTOLOOPS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// The start of the tensor `view` is in: its kernel argument (also for a
/// view at a computed address, argument + offset), else its address.
static Value tensorStart(ktdp::ConstructMemoryViewOp view) {
  if (auto address = ktflow::getViewAddress(view.getOffset()))
    return address->argument;
  return view.getOffset();
}

namespace {
class LoopSinker {
public:
  explicit LoopSinker(func::FuncOp func) : func(func), cursor(func) {
    // The device memory ktdf-map-memory-spaces gave the scratchpad views.
    func.walk([&](ktdp::ConstructMemoryViewOp view) {
      if (ktdp::isScratchpadView(view))
        if (auto kind = view->getAttrOfType<StringAttr>(kMemoryAttrName))
          localKind = kind;
    });
    // The start addresses of the tensors the kernel stores to.
    func.walk([&](ktdp::StoreOp store) {
      if (auto view = ktdp::getAccessTileView(store.getAccessTile()))
        storedTensors.insert(tensorStart(view));
      else
        storesUnknown = true;
    });
  }

  /// Unrolls each loop of at most kMaxRecomputingTrips constant trips whose
  /// body uses a value computed with arithmetic outside it.
  void unrollRecomputingLoops(func::FuncOp func) {
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) {
      if (usesArithmeticFromOutside(loop))
        loops.push_back(loop);
    });
    // Inner loops first: unrolling one leaves the loops around it valid.
    for (scf::ForOp loop : loops)
      (void)unrollConstantLoop(loop, kMaxRecomputingTrips);
  }

  /// Replaces each load by an earlier load of the same tile in its block
  /// when no store of the kernel writes the tensor.
  void mergeRepeatedLoads(func::FuncOp func) {
    func.walk([&](Block *block) {
      SmallVector<ktdp::LoadOp> earlier;
      for (Operation &op : llvm::make_early_inc_range(*block)) {
        // A compute group lies on one side of an exchange
        // (ktdf-lower-inter-tile loads again what is used after it).
        if (isa<AllReduceOp, TileCopyOp>(op))
          earlier.clear();
        auto load = dyn_cast<ktdp::LoadOp>(&op);
        if (!load || !canClone(load) ||
            isCarriedView(ktdp::getAccessTileView(load.getAccessTile())) ||
            isExchangeView(ktdp::getAccessTileView(load.getAccessTile())))
          continue;
        auto same = llvm::find_if(earlier, [&](ktdp::LoadOp other) {
          return other.getType() == load.getType() &&
                 sameAccessTile(other.getAccessTile(), load.getAccessTile());
        });
        if (same == earlier.end()) {
          earlier.push_back(load);
          continue;
        }
        Operation *tile = load.getAccessTile().getDefiningOp();
        load.replaceAllUsesWith(same->getResult());
        load.erase();
        if (tile && tile->use_empty() && isMemoryEffectFree(tile))
          tile->erase();
      }
    });
  }

  /// Replaces every use, by an op directly in a loop body or captured by
  /// one's region (a row scalar a linalg body divides by), of a tensor (or
  /// a scalar extracted from one) defined outside that body with a clone
  /// of its computation at the start of the body, where it can be cloned.
  void run(func::FuncOp func) {
    SmallVector<std::pair<OpOperand *, Place>> uses;
    func.walk([&](scf::ForOp loop) {
      Block *body = loop.getBody();
      auto collect = [&](Operation *user) {
        for (OpOperand &use : user->getOpOperands())
          if (carriesData(use.get()) &&
              !body->getParent()->isAncestor(use.get().getParentRegion()))
            uses.push_back({&use, placeOf(user, body)});
      };
      for (Operation &op : *body) {
        collect(&op);
        // An inner loop's body is collected for the inner loop.
        if (!isa<scf::ForOp>(op))
          op.walk([&](Operation *inner) {
            if (inner != &op)
              collect(inner);
          });
      }
    });
    for (auto [use, place] : uses)
      if (std::optional<Value> clone = sink(use->get(), place))
        use->set(*clone);
    SmallVector<Operation *> reads;
    for (auto [v, tile] : kept)
      readKeptOutsideLoops(v, tile, reads);
    // What was sunk into every loop that used it is dead where it was, and
    // so are the reads of a kept statistic by such ops.
    llvm::SetVector<Operation *> candidates(sunk.begin(), sunk.end());
    candidates.insert_range(reads);
    SmallVector<Operation *> dead = candidates.takeVector();
    for (bool erased = true; erased;) {
      erased = false;
      for (Operation *&op : llvm::reverse(dead))
        if (op && op->use_empty()) {
          op->erase();
          op = nullptr;
          erased = true;
        }
    }
  }

private:
  /// Where the clones a use needs go: the start of a loop body, or right
  /// after the last exchange before the use in it (a compute group lies on
  /// one side of an exchange: a row loop whose body all-reduces each row's
  /// statistic loads the weights it applies after the exchange).
  struct Place {
    Block *body;
    Operation *after;
    OpBuilder builder() const {
      return after ? OpBuilder(after->getBlock(), ++Block::iterator(after))
                   : OpBuilder::atBlockBegin(body);
    }
  };

  static Place placeOf(Operation *user, Block *body) {
    Operation *op = body->findAncestorOpInBlock(*user);
    while (op && !isa<AllReduceOp, TileCopyOp>(op))
      op = op->getPrevNode();
    return {body, op};
  }

  /// The most trips of a loop unrolled rather than recomputing into it:
  /// the unrolled block keeps every trip's tiles in one group.
  static constexpr int64_t kMaxRecomputingTrips = 16;

  /// Element arithmetic (not index arithmetic, constants or data movement):
  /// a float arith or math op, or a linalg op whose body computes.
  static bool isArithmetic(Operation *op) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      return !linalgOp.getBlock()->without_terminator().empty();
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        op->hasTrait<OpTrait::ConstantLike>())
      return false;
    return llvm::any_of(op->getResultTypes(), [](Type t) {
      return isa<FloatType>(getElementTypeOrSelf(t));
    });
  }

  /// Whether sinking `v` into `loop` would clone arithmetic.
  static bool computedWithArithmetic(Value v, scf::ForOp loop,
                                     DenseSet<Operation *> &seen) {
    Operation *def = v.getDefiningOp();
    if (!def || loop->isAncestor(def) || !seen.insert(def).second ||
        isa<ktdp::LoadOp>(def))
      return false;
    if (isArithmetic(def))
      return true;
    return llvm::any_of(def->getOperands(), [&](Value operand) {
      return computedWithArithmetic(operand, loop, seen);
    });
  }

  static bool usesArithmeticFromOutside(scf::ForOp loop) {
    DenseSet<Operation *> seen;
    for (Operation &op : *loop.getBody())
      for (Value operand : op.getOperands())
        if (carriesData(operand) && computedWithArithmetic(operand, loop, seen))
          return true;
    return false;
  }

  /// Tensors, the scalars `tensor.extract` takes out of them, and float
  /// arithmetic on scalars (a row's mean computed from its sum).
  static bool carriesData(Value v) {
    if (isa<RankedTensorType>(v.getType()) ||
        v.getDefiningOp<tensor::ExtractOp>())
      return true;
    Operation *def = v.getDefiningOp();
    return def && isa<FloatType>(v.getType()) &&
           isa<arith::ArithDialect, math::MathDialect>(def->getDialect()) &&
           !def->hasTrait<OpTrait::ConstantLike>();
  }

  bool canClone(Operation *op) {
    if (auto load = dyn_cast<ktdp::LoadOp>(op)) {
      auto view = ktdp::getAccessTileView(load.getAccessTile());
      // What a loop carried, loaded after it: nothing writes it again
      // before the loops that follow in its block are done (the next
      // write is the init of the next execution of that block, which the
      // compute unit reaches only after them).
      if (isCarriedView(view))
        return true;
      // What an inter-tile reduction combined: its all-reduce is the last
      // write, before every load of it.
      if (isExchangeView(view))
        return true;
      return view && !storesUnknown &&
             !storedTensors.contains(tensorStart(view));
    }
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      return linalgOp.hasPureTensorSemantics();
    return op->getNumRegions() == 0 && isMemoryEffectFree(op);
  }

  /// The value of `v` in `body`: `v` itself where it is defined inside,
  /// else a clone of its computation at the start of `body`.
  std::optional<Value> sink(Value v, Place place) {
    Block *body = place.body;
    if (body->getParent()->isAncestor(v.getParentRegion()) || !carriesData(v))
      return v;
    if (auto it = clones.find({v, body, place.after}); it != clones.end())
      return it->second;
    if (std::optional<Value> kept = keepStatistic(v, place))
      return clones[{v, body, place.after}] = *kept;
    Operation *def = v.getDefiningOp();
    // Constants stay: ktir-to-ktdf captures them into the compute stage.
    if (def && def->hasTrait<OpTrait::ConstantLike>())
      return v;
    if (!def || !canClone(def))
      return std::nullopt;
    IRMapping mapping;
    for (Value operand : def->getOperands()) {
      std::optional<Value> inside = sink(operand, place);
      if (!inside)
        return std::nullopt;
      mapping.map(operand, *inside);
    }
    OpBuilder builder = place.builder();
    // After the clones of its operands, which are at the place too.
    for (Value operand : def->getOperands())
      if (Operation *inner = mapping.lookup(operand).getDefiningOp())
        if (inner->getBlock() == body &&
            !inner->isBeforeInBlock(&*builder.getInsertionPoint()))
          builder.setInsertionPointAfter(inner);
    Operation *clone = builder.clone(*def, mapping);
    sunk.insert(def);
    for (auto [from, to] : llvm::zip(def->getResults(), clone->getResults()))
      clones[{from, body, place.after}] = to;
    return clones[{v, body, place.after}];
  }

  /// Whether `op` computes data (a tensor, or a float from floats or
  /// tensors), as opposed to addresses, tiles, constants and conversions
  /// of index scalars, which a clone of a computation can share.
  static bool computesData(Operation *op) {
    if (op->hasTrait<OpTrait::ConstantLike>())
      return false;
    if (isa<ktdp::LoadOp>(op) || op->getNumRegions() > 0 ||
        llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>))
      return true;
    auto isData = [](Type t) { return isa<FloatType, RankedTensorType>(t); };
    return llvm::any_of(op->getResultTypes(), isData) &&
           llvm::any_of(op->getOperandTypes(), isData);
  }

  /// The ops of `block` that compute `v`, in program order, when they can
  /// be cloned and one of them is a linalg op (a reduction: too costly to
  /// repeat on every trip); else none.
  std::optional<SmallVector<Operation *>> statisticSlice(Value v,
                                                         Block *block) {
    llvm::SetVector<Operation *> slice;
    SmallVector<Value> worklist{v};
    bool reduces = false;
    while (!worklist.empty()) {
      Operation *def = worklist.pop_back_val().getDefiningOp();
      if (!def || def->getBlock() != block || slice.contains(def) ||
          !computesData(def))
        continue;
      if (!canClone(def))
        return std::nullopt;
      reduces |= isa<linalg::LinalgOp>(def);
      slice.insert(def);
      llvm::append_range(worklist, def->getOperands());
    }
    if (!reduces)
      return std::nullopt;
    SmallVector<Operation *> ops = slice.takeVector();
    llvm::sort(
        ops, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    return ops;
  }

  /// A row statistic (a float scalar computed with a reduction in the
  /// block around the loop whose body is `body`) is computed once there
  /// and kept in a one-element scratchpad view, which each trip reads,
  /// instead of being recomputed on every trip. The computation is cloned
  /// for the view's store, so that it forms a compute group of its own
  /// right after the statistic (a group sharing it with a later store
  /// would be scheduled after that store, past the loops that read it).
  std::optional<Value> keepStatistic(Value v, Place place) {
    auto loop = dyn_cast_or_null<scf::ForOp>(place.body->getParentOp());
    Operation *def = v.getDefiningOp();
    if (!loop || !localKind || !isa<FloatType>(v.getType()) || !def ||
        def->getBlock() != loop->getBlock())
      return std::nullopt;
    Location loc = def->getLoc();
    auto type = RankedTensorType::get({1}, v.getType());
    Value tile = kept.lookup(v);
    if (!tile) {
      std::optional<SmallVector<Operation *>> slice =
          statisticSlice(v, def->getBlock());
      if (!slice)
        return std::nullopt;
      tile =
          createScratchpadTile(func, cursor, type, loc, kCarriedViewAttrName);
      ktdp::getAccessTileView(tile)->setAttr(kMemoryAttrName, localKind);
      OpBuilder b(def->getContext());
      b.setInsertionPointAfter(def);
      IRMapping mapping;
      for (Operation *op : *slice) {
        b.clone(*op, mapping);
        // Erased at the end if nothing else uses it.
        sunk.insert(op);
      }
      Value one =
          tensor::SplatOp::create(b, loc, type, mapping.lookupOrDefault(v));
      ktdp::StoreOp::create(b, loc, one, tile);
      kept[v] = tile;
    }
    OpBuilder b = place.builder();
    Value one = ktdp::LoadOp::create(b, loc, type, tile);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    return tensor::ExtractOp::create(b, loc, one, ValueRange{zero}).getResult();
  }

  /// Makes the uses of the kept statistic `v` left in its own block,
  /// outside loops (the MEAN / RSTD a row stores), read the kept element
  /// (the ops made go to `reads`). Else the original computation stays for
  /// them, and every row reduces the statistic twice, once for the kept
  /// view and once for the store. Runs once every loop has its clones:
  /// the sunk originals may still use `v`.
  void readKeptOutsideLoops(Value v, Value tile,
                            SmallVectorImpl<Operation *> &reads) {
    Block *block = v.getDefiningOp()->getBlock();
    auto type = RankedTensorType::get({1}, v.getType());
    DenseMap<Operation *, Value> elements;
    for (OpOperand &use : llvm::make_early_inc_range(v.getUses())) {
      Operation *user = block->findAncestorOpInBlock(*use.getOwner());
      if (!user || (user != use.getOwner() && isa<scf::ForOp>(user)))
        continue;
      if (Value element = elements.lookup(user)) {
        use.set(element);
        continue;
      }
      OpBuilder b(user);
      Location loc = user->getLoc();
      auto one = ktdp::LoadOp::create(b, loc, type, tile);
      reads.push_back(one);
      // A splat of it into one element (the row's store) is what was kept.
      if (auto splat = dyn_cast<tensor::SplatOp>(use.getOwner());
          splat && splat.getType() == type) {
        splat.replaceAllUsesWith(one.getResult());
        reads.push_back(splat);
        continue;
      }
      auto zero = arith::ConstantIndexOp::create(b, loc, 0);
      auto element = tensor::ExtractOp::create(b, loc, one, ValueRange{zero});
      reads.append({zero, element});
      use.set(element);
      elements[user] = element;
    }
  }

  func::FuncOp func;
  ScratchpadCursor cursor;
  static constexpr llvm::StringLiteral kMemoryAttrName = "ktdf.memory";
  StringAttr localKind;
  /// The one-element scratchpad tiles holding row statistics, in the order
  /// they were kept.
  llvm::MapVector<Value, Value> kept;
  llvm::SmallPtrSet<Value, 8> storedTensors;
  bool storesUnknown = false;
  DenseMap<std::tuple<Value, Block *, Operation *>, Value> clones;
  llvm::SetVector<Operation *> sunk;
};

struct SinkIntoLoopsPass
    : public ktdf::impl::KTDFSinkIntoLoopsBase<SinkIntoLoopsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal()) {
        LoopSinker sinker(func);
        sinker.unrollRecomputingLoops(func);
        sinker.mergeRepeatedLoads(func);
        sinker.run(func);
      }
  }
};
} // namespace
