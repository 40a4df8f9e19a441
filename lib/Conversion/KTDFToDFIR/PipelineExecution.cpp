//===- PipelineExecution.cpp - One execution of a pipeline on a unit -----===//
//
// This file emits what one unit does in one execution of a pipeline: for
// each of its stages, the waits for the buffers and tokens the stage needs
// (carried values just before the first transfer that reads one), then the
// stage's transfers (TransferLowering.cpp), compute (ComputeLowering.cpp),
// all-reduce or tile copy, then the tokens it hands on. The unit's program
// around it (UnitProgram.cpp) counts the executions; the copy of an
// N-buffered resource an execution uses is that count modulo N.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/RowBlocks.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// Whether `op` computes integers or indices from integers or indices,
/// without regions or side effects: what materialize clones.
static bool isIndexArithmetic(Operation &op) {
  auto scalar = [](Type t) { return t.isIntOrIndex(); };
  return op.getDialect() && op.getDialect()->getNamespace() == "arith" &&
         op.getNumRegions() == 0 && llvm::all_of(op.getResultTypes(), scalar) &&
         llvm::all_of(op.getOperandTypes(), scalar);
}

LogicalResult ProgramBuilder::emitPipeline(PipelineOp pipeline, IRMapping &map,
                                           Value execution,
                                           const LaneInstance &li,
                                           StagePart part) {
  OpBuilder &b = *builder;
  Location loc = pipeline.getLoc();
  const PipelineInfo &info = kernel.infoOf(pipeline);
  llvm::SaveAndRestore<bool> idle(syncOnly, !kernel.runsWork(info, li));
  Value copy = info.copies > 1 ? arith::RemUIOp::create(b, loc, execution,
                                                        constant(info.copies))
                                     .getResult()
                               : constant(0);
  if (info.copies > 1)
    for (Value result : pipeline->getResults())
      exportedCopy[{result, &li}] = copy;
  bool unwalkedShare = false;
  auto emitWait = [&](const Channel &ch) {
    std::string sync = KernelLowering::perLane(ch.base, li);
    // A buffer loaded for two lanes: its tokens were taken before
    // (SharedLoads.cpp).
    if (llvm::is_contained(sharedFrees, &ch)) {
      unwalkedShare |= !sharedTurnOf(ch, li);
      return;
    }
    if (ch.copies == 0) {
      dfir::SyncRecvOp::create(b, loc, sync);
      return;
    }
    // The first N executions find their copy free.
    Value reuse = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                        execution, constant(ch.copies));
    emitIf(reuse, [&] { dfir::SyncRecvOp::create(b, loc, sync); });
  };
  auto emitsStage = [&](StageOp stage) {
    return stage->getParentOp() == pipeline &&
           (part == StagePart::All ||
            (part == StagePart::Stores) == waitsForOtherUnit(stage, info, li));
  };
  // Load stages handing their tiles over in blocks of rows go together,
  // their blocks interleaved, after the unit's other loads (which the feed
  // waits for whole) and before its first stage that waits for another
  // of this execution; store stages taking them in blocks go together
  // where the first of them is (RowBlockHandOvers.cpp).
  llvm::MapVector<int64_t, SmallVector<StageOp>> rowBlocked, rowBlockedStores;
  llvm::DenseMap<Operation *, int64_t> blocksOf;
  for (StageOp stage : work[&li]) {
    int64_t blocks = 0;
    if (emitsStage(stage) && rowBlockChannel(info, stage, blocks)) {
      (isRowBlockStore(stage) ? rowBlockedStores : rowBlocked)[blocks]
          .push_back(stage);
      blocksOf[stage] = blocks;
    }
  }
  auto emitRowBlocked = [&]() -> LogicalResult {
    for (auto &[blocks, group] : rowBlocked)
      if (failed(emitRowBlockTransfers(group, blocks, info, map, copy, li,
                                       emitWait)))
        return failure();
    rowBlocked.clear();
    return success();
  };
  auto emitRowBlockedStores = [&](StageOp stage,
                                  int64_t blocks) -> LogicalResult {
    SmallVector<StageOp> &group = rowBlockedStores[blocks];
    if (group.empty() || group.front() != stage)
      return success();
    if (failed(emitRowBlocked()) ||
        failed(emitRowBlockTransfers(group, blocks, info, map, copy, li,
                                     emitWait)))
      return failure();
    group.clear();
    return success();
  };
  for (StageOp stage : work[&li]) {
    if (!emitsStage(stage))
      continue;
    markSegment(SegmentMark::Start);
    if (int64_t merge = syncOnly ? 1 : mergedExecutions(stage, info, li);
        merge > 1) {
      markSegment(SegmentMark::Broken);
      if (failed(emitMergedLoad(stage, merge, info, map, execution, copy, li)))
        return failure();
      continue;
    }
    if (int64_t blocks = blocksOf.lookup(stage)) {
      markSegment(SegmentMark::Broken);
      if (isRowBlockStore(stage) && failed(emitRowBlockedStores(stage, blocks)))
        return failure();
      continue;
    }
    if (llvm::any_of(info.channels,
                     [&](const Channel &ch) {
                       return ch.to == stage && ch.copies == 0;
                     }) &&
        failed(emitRowBlocked()))
      return failure();
    bool transfers =
        !stage.isCompute() && !getAllReduce(stage) && !getTileCopy(stage);
    // The use of the previous trip is done with what this partial writes
    // (LanePipelining.cpp).
    SmallVector<std::pair<const Channel *, Operation *>> backSends;
    if (lanePipeline)
      for (auto [ch, after] :
           llvm::zip_equal(lanePipeline->back, lanePipeline->sendAfter)) {
        if (ch.to == stage && backWaits)
          dfir::SyncRecvOp::create(b, loc,
                                   KernelLowering::perLane(ch.base, li));
        if (ch.from == stage && backSendGuard)
          backSends.push_back({&ch, after});
      }
    SmallVector<const Channel *> carries, keptIn, keptOut;
    // Buffers of this pipeline waited for just before the op that first
    // moves them, and handed on just after the one that last does
    // (BlockHandOvers.cpp).
    SmallVector<std::pair<const Channel *, Operation *>> lateWaits, earlySends;
    // Tiles handed over in blocks of rows: waited for block by block in
    // the feed's row loop, handed on block by block in the drain's.
    SmallVector<RowBlockHandOver> rowHandOvers;
    for (const Channel &ch : info.channels) {
      int64_t blocks = 0;
      StageOp blocked = ch.to == stage ? ch.from : ch.to;
      if ((ch.to == stage || ch.from == stage) && transfers &&
          rowBlockChannel(info, blocked, blocks) == &ch) {
        scf::ForOp rows = getRowBlockLoop(blocked);
        rowHandOvers.push_back(
            {&ch, rows, rows.getStaticTripCount()->getSExtValue() / blocks,
             /*send=*/ch.from == stage});
        continue;
      }
      if (ch.kept && transfers) {
        if (ch.to == stage)
          keptIn.push_back(&ch);
        if (ch.from == stage)
          keptOut.push_back(&ch);
        continue;
      }
      if (ch.to != stage)
        continue;
      if (ch.carry && transfers)
        carries.push_back(&ch);
      else if (Operation *at = transfers ? handOverPoint(ch, true) : nullptr)
        lateWaits.push_back({&ch, at});
      else
        emitWait(ch);
    }
    for (const Channel &ch : info.channels)
      if (ch.from == stage && transfers)
        if (Operation *at = handOverPoint(ch, false))
          earlySends.push_back({&ch, at});
    // The writes of earlier pipelines of the block to scratchpad views it
    // moves are waited for just before its first transfer of a view: the
    // feed moves an attention's V block while the scores are stored.
    // A channel with a token per view is waited for just before each
    // transfer reading one (viewTokens; RegionChannels.cpp), and sent
    // just after each writing one.
    // An all-reduce or tile copy waits for them just before it starts,
    // not when the unit passes the writer: the unit's other stages in
    // between (the next product's weight load) need not wait.
    SmallVector<const Channel *> regionWaits;
    SmallVector<std::pair<const Channel *, size_t>> viewTokens;
    if (!stage.isCompute())
      for (const PipelineInfo &earlier : kernel.pipelines)
        for (const Channel &ch : earlier.regionChannels)
          if (ch.to == stage && waitsInStage(ch, li)) {
            if (ch.viewReads.empty())
              regionWaits.push_back(&ch);
            else
              viewTokens.push_back({&ch, 0});
          }
    if (transfers)
      for (const Channel &ch : info.regionChannels)
        if (ch.from == stage && !ch.viewWrites.empty())
          viewTokens.push_back({&ch, 0});
    // The token of `ch` for view transfer `op`, if `op` is one.
    auto viewToken = [&](Operation *op, bool send) {
      for (auto &[ch, taken] : viewTokens) {
        if ((ch->from == stage) != send ||
            !llvm::is_contained(send ? ch->viewWrites : ch->viewReads, op))
          continue;
        emitRegionToken(loc, *ch, li, send);
        ++taken;
      }
    };
    // A staging pipeline's buffers this stage reads late are waited for
    // just before the op that first reads them, in the first execution
    // after the staging pipeline's (LateStaging.cpp).
    SmallVector<std::pair<const Channel *, Operation *>> stagedWaits;
    if (transfers)
      for (const PipelineInfo &staging : kernel.pipelines)
        for (const Channel &ch : staging.channels)
          if (ch.to == stage && deferredExports.count(&ch))
            stagedWaits.push_back({&ch, lateExportRead(ch, li)});
    auto waitForStaged = [&](Operation *before, IRMapping &m) {
      for (auto &wait : stagedWaits) {
        const Channel *ch = wait.first;
        Operation *&at = wait.second;
        if (!at || (before && at != before))
          continue;
        Value first =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, execution,
                                  deferredExports.lookup(ch));
        if (before)
          first = firstIterationOf(at, stage, m, first);
        emitIf(first, [&] {
          dfir::SyncRecvOp::create(b, loc,
                                   KernelLowering::perLane(ch->base, li));
        });
        at = nullptr;
      }
    };
    auto movesView = [](Operation *op) {
      return op
          ->walk([](DataTransferOp transfer) {
            return isa<ktdp::AccessTileType>(transfer.getSrc().getType()) ||
                           isa<ktdp::AccessTileType>(
                               transfer.getDst().getType())
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted();
    };
    auto waitForRegions = [&] {
      for (const Channel *ch : regionWaits)
        emitRegionToken(loc, *ch, li, /*send=*/false);
      regionWaits.clear();
    };
    // In a transfer stage each is waited for just before the first op of
    // the stage's body whose transfers touch what its sender wrote: the
    // down projections' feed moves the first gate and weight while the
    // second gate is stored.
    auto waitForRegionsOf = [&](Operation *op) {
      llvm::erase_if(regionWaits, [&](const Channel *ch) {
        if (!touchesWhatStageTouches(op, ch->from))
          return false;
        emitRegionToken(loc, *ch, li, /*send=*/false);
        return true;
      });
    };
    // Carried values are waited for just before the first transfer that
    // reads one (or at the end of a stage that reads none).
    auto readsCarried = [](Operation *op) {
      return op
          ->walk([](DataTransferOp transfer) {
            Value src = transfer.getSrc();
            return isa<ktdp::AccessTileType>(src.getType()) &&
                           isCarriedView(ktdp::getAccessTileView(src))
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted();
    };
    // A kept buffer is handed over once per row, around the innermost
    // loop (or transfer) that moves it.
    auto movesKept = [](Operation *op, Value buffer, bool written) {
      auto moves = [&](Operation &inner) {
        auto transfer = dyn_cast<DataTransferOp>(inner);
        return transfer &&
               (written ? transfer.getDst() : transfer.getSrc()) == buffer;
      };
      if (auto loop = dyn_cast<scf::ForOp>(op))
        return llvm::any_of(*loop.getBody(), moves);
      return !isa<scf::ForOp>(op->getParentOp()) && moves(*op);
    };
    auto waitForCarries = [&] {
      for (const Channel *ch : carries)
        emitWait(*ch);
      carries.clear();
    };
    IRMapping stageMap = map;
    if (!transfers)
      waitForRegions();
    if (AllReduceOp allReduce = getAllReduce(stage)) {
      if (failed(emitAllReduce(stage, allReduce, li)))
        return failure();
    } else if (getTileCopy(stage)) {
      if (failed(emitTileCopies(stage, li)))
        return failure();
    } else if (stage.isCompute() && syncOnly) {
      // Nothing reaches the stage's FIFOs in this lane instance.
    } else if (stage.isCompute()) {
      // Loop bounds computed around the pipeline (the rows of a partial
      // merged iteration) are index arithmetic the unit evaluates first.
      LogicalResult bounds = success();
      stage.walk([&](scf::ForOp loop) {
        for (Value v : loop.getOperands().take_front(3))
          if (!stage->isAncestor(v.getParentBlock()->getParentOp()) &&
              !v.getDefiningOp<arith::ConstantOp>() &&
              failed(materialize(v, stageMap)))
            bounds = failure();
      });
      // So are the index values linalg bodies capture (a tile's row
      // origin in a causal mask), which the lowering splats with dfir.iota.
      stage.walk([&](linalg::GenericOp generic) {
        generic.getRegion().walk([&](Operation *op) {
          for (Value v : op->getOperands())
            if (v.getType().isIndex() &&
                !stage->isAncestor(v.getParentBlock()->getParentOp()) &&
                !v.getDefiningOp<arith::ConstantOp>() &&
                failed(materialize(v, stageMap)))
              bounds = failure();
        });
      });
      if (failed(bounds))
        return failure();
      auto fifoOf = [&](Value slot) { return kernel.fifoOf(slot, li); };
      if (failed(lowerComputeStage(b, stage, stageMap, fifoOf,
                                   kernel.runtimeSymbols,
                                   kernel.unitSpecOf(stage))))
        return failure();
    } else {
      // Transfer stages: loops with constant bounds around transfers.
      std::function<LogicalResult(Block &, IRMapping &)> walk =
          [&](Block &block, IRMapping &m) -> LogicalResult {
        for (Operation &op : block) {
          if (&block == &stage.getBody().front())
            markSegment(SegmentMark::Item, &op);
          for (auto &[ch, at] : lateWaits)
            if (at == &op) {
              emitWait(*ch);
              at = nullptr;
            }
          viewToken(&op, /*send=*/false);
          waitForStaged(&op, m);
          if (!regionWaits.empty() && &block == &stage.getBody().front() &&
              movesView(&op))
            waitForRegionsOf(&op);
          if (!carries.empty() && readsCarried(&op))
            waitForCarries();
          for (const Channel *ch : keptIn)
            if (movesKept(&op, ch->kept, /*written=*/false))
              dfir::SyncRecvOp::create(b, loc,
                                       KernelLowering::perLane(ch->base, li));
          auto handOverKept = [&] {
            for (const Channel *ch : keptOut)
              if (movesKept(&op, ch->kept, /*written=*/true))
                dfir::SyncSendOp::create(b, loc,
                                         KernelLowering::perLane(ch->base, li));
          };
          if (auto transfer = dyn_cast<DataTransferOp>(op)) {
            // The other lane may have loaded the block into this one's
            // buffer.
            Value load;
            for (const Channel &ch : info.channels)
              if (const SharedTurn *turn =
                      ch.to == stage ? sharedTurnOf(ch, li) : nullptr)
                load = turn->load;
            LogicalResult moved = success();
            auto move = [&] { moved = emitTransfer(transfer, m, li, copy); };
            if (load)
              emitIf(load, move);
            else
              move();
            if (failed(moved))
              return failure();
            handOverKept();
          } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
            // A wait or send before or after the loop stays in place.
            auto handsOver = [&](Operation *at) {
              auto placed = [&](auto &point) {
                return at != loop && point.second == at;
              };
              return llvm::any_of(rowHandOvers,
                                  [&](auto &h) { return h.loop == at; }) ||
                     llvm::any_of(lateWaits, placed) ||
                     llvm::any_of(earlySends, placed) ||
                     llvm::any_of(backSends, placed);
            };
            FailureOr<bool> run = emitStoreRun(loop, m, li, copy, handsOver);
            if (failed(run))
              return failure();
            if (!*run && failed(emitLoopCopy(loop, m, [&](IRMapping &inner) {
                  emitRowBlockHandOvers(loop, inner, rowHandOvers,
                                        /*sends=*/false, li);
                  if (failed(walk(*loop.getBody(), inner)))
                    return failure();
                  emitRowBlockHandOvers(loop, inner, rowHandOvers,
                                        /*sends=*/true, li);
                  return success();
                })))
              return failure();
            handOverKept();
          } else if (!isa<arith::ConstantOp, scf::YieldOp>(op) &&
                     !isIndexArithmetic(op)) {
            // Index arithmetic (a block's offset in a row span) is computed
            // when a transfer needs it.
            return op.emitError("'")
                   << op.getName() << "' is not supported in a transfer stage";
          }
          viewToken(&op, /*send=*/true);
          for (auto &[ch, at] : earlySends)
            if (at == &op) {
              dfir::SyncSendOp::create(b, loc,
                                       KernelLowering::perLane(ch->base, li));
              at = nullptr;
            }
          for (auto &[ch, at] : backSends)
            if (at == &op) {
              std::string sync = KernelLowering::perLane(ch->base, li);
              emitIf(backSendGuard,
                     [&] { dfir::SyncSendOp::create(b, loc, sync); });
              at = nullptr;
            }
        }
        return success();
      };
      if (failed(walk(stage.getBody().front(), stageMap)))
        return failure();
      waitForRegions();
      waitForCarries();
      waitForStaged(nullptr, stageMap);
      // A point the walk did not reach (inside a loop emitted as one run)
      // falls back to the stage's end.
      for (auto &[ch, at] : lateWaits)
        if (at)
          emitWait(*ch);
      for (auto &[ch, at] : backSends)
        if (at) {
          std::string sync = KernelLowering::perLane(ch->base, li);
          emitIf(backSendGuard,
                 [&] { dfir::SyncSendOp::create(b, loc, sync); });
        }
    }
    auto sentEarly = [&](const Channel &ch) {
      return llvm::any_of(earlySends, [&](auto &sent) {
        return sent.first == &ch && !sent.second;
      });
    };
    // A drain's blocks its row loop did not hand on (emitted as one run)
    // go at its end.
    auto sentInBlocks = [&](const Channel &ch) {
      return llvm::any_of(rowHandOvers, [&](const RowBlockHandOver &h) {
        return h.channel == &ch;
      });
    };
    for (RowBlockHandOver &h : rowHandOvers)
      if (h.send && !h.emitted)
        for (int64_t row = 0; row < h.loop.getStaticTripCount()->getSExtValue();
             row += h.blockRows)
          dfir::SyncSendOp::create(
              b, loc, KernelLowering::perLane(h.channel->base, li));
    for (const Channel &ch : info.channels)
      if (ch.from == stage && !(ch.kept && transfers) && !sentEarly(ch) &&
          !sentInBlocks(ch))
        dfir::SyncSendOp::create(b, loc, KernelLowering::perLane(ch.base, li));
    // The tokens of views whose transfers the walk did not reach.
    for (auto &[ch, taken] : viewTokens)
      for (; taken < tokensOf(*ch); ++taken)
        emitRegionToken(loc, *ch, li, /*send=*/ch->from == stage);
    for (const Channel &ch : info.regionChannels)
      if (ch.from == stage && (ch.viewWrites.empty() || !transfers))
        for (size_t k = 0; k < tokensOf(ch); ++k)
          emitRegionToken(loc, ch, li, /*send=*/true);
    markSegment(SegmentMark::End);
  }
  if (failed(emitRowBlocked()))
    return failure();
  if (unwalkedShare)
    return pipeline.emitError("unit '")
           << unit << "' loads a block for two lanes outside their walk";
  if (part == StagePart::Loads)
    return success();
  if (!deferPassReceipts)
    emitPassReceipts(info, li);
  return success();
}

bool ProgramBuilder::waitsInStage(const Channel &ch, const LaneInstance &li) {
  StageOp to = ch.to;
  auto sender = ch.from->getParentOfType<PipelineOp>();
  auto receiver = to->getParentOfType<PipelineOp>();
  return kernel.unitOf(to, li) == unit && !ch.receiveBefore &&
         sender->getBlock() == receiver->getBlock() && !to.isCompute() &&
         !receiver.getPerInstance() && !sender.getPerInstance();
}
