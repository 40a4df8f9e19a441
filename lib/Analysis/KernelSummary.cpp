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
  return dialect == "arith" || dialect == "math" || dialect == "linalg" ||
         dialect == "spyreop";
}

static void countView(ConstructMemoryViewOp view, ktflow::KernelSummary &s) {
  if (view.getMemorySpaceInterface().getMemoryKind() == MemoryKind::global)
    ++s.globalViews;
  else
    ++s.ctLocalViews;
}

SmallVector<ktflow::KernelSummary> ktflow::summarizeKernels(ModuleOp module) {
  SmallVector<KernelSummary> summaries;
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
      else if (isComputeDialect(op->getName().getDialectNamespace()) &&
               !op->hasTrait<OpTrait::ConstantLike>() &&
               !op->hasTrait<OpTrait::IsTerminator>() &&
               !op->getParentOfType<linalg::LinalgOp>())
        ++s.computeOps[op->getName().getStringRef()];
    });
  });
  return summaries;
}

void ktflow::printKernelSummary(const KernelSummary &s, llvm::raw_ostream &os) {
  os << "kernel @" << s.name << "\n";
  os << "  grid:          ";
  if (s.grid) {
    os << "[";
    llvm::interleaveComma(*s.grid, os);
    os << "] (" << getNumTiles(*s.grid) << " compute tiles)\n";
  } else {
    os << "none (1 compute tile)\n";
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
  llvm::interleaveComma(s.computeOps, os, [&](const auto &entry) {
    os << entry.first << " x" << entry.second;
  });
  os << "\n";
}
