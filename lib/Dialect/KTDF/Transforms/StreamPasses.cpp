//===- StreamPasses.cpp - The passes over a row a streamed stage makes ----===//
//
// This file implements the part of --ktdf-tile-streams that decides what
// each pass over a row reads, computes, folds and writes (planPasses), and
// cuts a pass whose reads feed computations that share nothing into one
// chunk loop per computation (splitIndependentParts), so each runs over its
// own block of the row before the next.
//
//===----------------------------------------------------------------------===//

#include "StreamTiler.h"

#include "llvm/ADT/EquivalenceClasses.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::detail;

void StreamTiler::planPasses() {
  if (plan.columnMajor)
    return;
  passes.resize(plan.numPasses);
  for (auto [op, role] : plan.roles)
    if (role == OpRole::RowReduction)
      passes[plan.passOf(op->getResult(0)) - 1].reductions.push_back(op);
  for (WriteToFifoOp write : plan.writes)
    if (plan.isStreamed(write.getValue()))
      passes[plan.passOf(write.getValue())].writes.push_back(write);
  for (PassContents &pass : passes) {
    SmallVector<Value> worklist;
    for (auto op : pass.reductions)
      for (Value v : op.getDpsInputs())
        worklist.push_back(v);
    for (auto write : pass.writes)
      worklist.push_back(write.getValue());
    llvm::SmallPtrSet<Operation *, 16> needed;
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      Operation *def = v.getDefiningOp();
      if (!def || !plan.isStreamed(v) || !needed.insert(def).second)
        continue;
      for (Value operand : def->getOperands())
        worklist.push_back(operand);
    }
    for (ReadFromFifoOp read : plan.reads)
      if (needed.contains(read))
        pass.reads.push_back(read);
    for (auto [op, role] : plan.roles)
      if (role == OpRole::Stream && needed.contains(op))
        pass.streamOps.insert(op);
  }
}

void StreamTiler::splitIndependentParts() {
  if (plan.columnMajor)
    return;
  SmallVector<PassContents, 0> split;
  for (PassContents &pass : passes) {
    // Kept values and held columns tie a pass to others chunk by chunk:
    // those stay whole.
    if (!pass.keptReads.empty() || !pass.keptWrites.empty() ||
        pass.readsColumns || pass.reads.size() < 2) {
      split.push_back(std::move(pass));
      continue;
    }
    SmallVector<Operation *> ops(pass.reads.begin(), pass.reads.end());
    ops.append(pass.streamOps.begin(), pass.streamOps.end());
    ops.append(pass.reductions.begin(), pass.reductions.end());
    ops.append(pass.writes.begin(), pass.writes.end());
    llvm::SmallPtrSet<Operation *, 16> inPass(ops.begin(), ops.end());
    llvm::EquivalenceClasses<Operation *> parts;
    for (Operation *op : ops)
      parts.insert(op);
    for (Operation *op : ops)
      for (Value v : op->getOperands())
        if (Operation *def = v.getDefiningOp(); def && inPass.contains(def))
          parts.unionSets(op, def);
    // One part per class, in the order of their first reads; a class
    // without a read (a generated stream) leaves the pass whole.
    SmallVector<Operation *> leaders;
    for (ReadFromFifoOp read : pass.reads)
      if (!llvm::is_contained(leaders, parts.getLeaderValue(read)))
        leaders.push_back(parts.getLeaderValue(read));
    bool everyPartReads = llvm::all_of(ops, [&](Operation *op) {
      return llvm::is_contained(leaders, parts.getLeaderValue(op));
    });
    if (leaders.size() < 2 || !everyPartReads) {
      split.push_back(std::move(pass));
      continue;
    }
    for (Operation *leader : leaders) {
      auto inPart = [&](Operation *op) {
        return parts.getLeaderValue(op) == leader;
      };
      PassContents part;
      llvm::copy_if(pass.reads, std::back_inserter(part.reads), inPart);
      for (Operation *op : pass.streamOps)
        if (inPart(op))
          part.streamOps.insert(op);
      llvm::copy_if(pass.reductions, std::back_inserter(part.reductions),
                    [&](linalg::GenericOp op) { return inPart(op); });
      llvm::copy_if(pass.writes, std::back_inserter(part.writes), inPart);
      part.endsPass = leader == leaders.back();
      part.isPart = true;
      split.push_back(std::move(part));
    }
  }
  passes = std::move(split);
}
