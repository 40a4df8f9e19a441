//===- KernelSummary.cpp - What a KTIR kernel contains --------------------===//

#include "ktflow/Analysis/KernelSummary.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::ktdp;

static bool isComputeDialect(StringRef dialect) {
  return dialect == "arith" || dialect == "math" || dialect == "linalg";
}

/// Whether `op` is part of the body of a linalg op or an inter-tile region,
/// whose scalar computation is summarised by the enclosing op.
static bool isNestedInComputeRegion(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (llvm::isa<linalg::LinalgOp, InterTileProduceOp, InterTileReduceOp>(
            parent))
      return true;
  return false;
}

static void countView(ConstructMemoryViewOp view, ktflow::KernelSummary &s) {
  if (view.getMemorySpaceInterface().getMemoryKind() == MemoryKind::global)
    ++s.globalViews;
  else
    ++s.ctLocalViews;
}

std::vector<ktflow::KernelSummary> ktflow::summarizeKernels(ModuleOp module) {
  std::vector<KernelSummary> summaries;
  module.walk([&](func::FuncOp func) {
    if (func.isExternal())
      return;
    KernelSummary &s = summaries.emplace_back();
    s.name = func.getSymName().str();
    if (auto grid = getLaunchGrid(func); succeeded(grid))
      s.grid = *grid;
    s.numArguments = func.getNumArguments();
    s.numRuntimeArgs = llvm::count_if(func.getArgumentTypes(), [](Type t) {
      return llvm::isa<RuntimeArgType>(t);
    });
    func.walk([&](Operation *op) {
      if (auto view = llvm::dyn_cast<ConstructMemoryViewOp>(op))
        countView(view, s);
      else if (llvm::isa<ConstructDistributedMemoryViewOp>(op))
        ++s.distributedViews;
      else if (llvm::isa<ConstructAccessTileOp>(op))
        ++s.accessTiles;
      else if (llvm::isa<ConstructIndirectAccessTileOp>(op))
        ++s.indirectAccessTiles;
      else if (llvm::isa<LoadOp>(op))
        ++s.loads;
      else if (llvm::isa<StoreOp>(op))
        ++s.stores;
      else if (llvm::isa<InterTileProduceOp, InterTileConsumeOp,
                         InterTileReduceOp>(op))
        ++s.interTileOps;
      else if (llvm::isa<LoopLikeOpInterface>(op))
        ++s.loops;
      else if (op->getName().getDialectNamespace() == "spyreop")
        ++s.intrinsics[op->getName().getStringRef()];
      else if (isComputeDialect(op->getName().getDialectNamespace()) &&
               !op->hasTrait<OpTrait::ConstantLike>() &&
               !op->hasTrait<OpTrait::IsTerminator>() &&
               !isNestedInComputeRegion(op))
        ++s.computeOps[op->getName().getStringRef()];
    });
  });

  // Record who calls whom, to tell kernels from helper functions.
  module.walk([&](func::CallOp call) {
    auto caller = call->getParentOfType<func::FuncOp>();
    for (KernelSummary &s : summaries)
      if (s.name == call.getCallee() && caller)
        s.callers.push_back(caller.getSymName().str());
  });
  return summaries;
}

void ktflow::printKernelSummary(const KernelSummary &s, llvm::raw_ostream &os) {
  if (s.isKernel()) {
    os << "kernel @" << s.name << "\n";
  } else {
    os << "function @" << s.name << " (helper, called by ";
    llvm::interleaveComma(s.callers, os,
                          [&](const std::string &c) { os << "@" << c; });
    os << ")\n";
  }
  os << "  grid:          ";
  if (s.grid) {
    os << "[";
    llvm::interleaveComma(*s.grid, os);
    int64_t tiles = getNumTiles(*s.grid);
    os << "] (" << tiles << " compute tile" << (tiles == 1 ? "" : "s")
       << ")\n";
  } else {
    os << "none (runs on the caller's tiles, or on 1 tile)\n";
  }
  os << "  arguments:     " << s.numArguments << " (" << s.numRuntimeArgs
     << " runtime_arg)\n";
  os << "  memory views:  " << s.globalViews << " global, " << s.ctLocalViews
     << " ct_local, " << s.distributedViews << " distributed\n";
  os << "  access tiles:  " << s.accessTiles << " direct, "
     << s.indirectAccessTiles << " indirect\n";
  os << "  data movement: " << s.loads << " load, " << s.stores << " store"
     << ", " << s.interTileOps << " inter-tile\n";
  os << "  loops:         " << s.loops << "\n";
  os << "  compute:       ";
  if (s.computeOps.empty())
    os << "none";
  auto printCounts = [&](const llvm::MapVector<StringRef, unsigned> &ops) {
    llvm::interleaveComma(ops, os, [&](const auto &entry) {
      os << entry.first << " x" << entry.second;
    });
  };
  printCounts(s.computeOps);
  os << "\n";
  if (!s.intrinsics.empty()) {
    os << "  intrinsics:    ";
    printCounts(s.intrinsics);
    os << "\n";
  }
}
