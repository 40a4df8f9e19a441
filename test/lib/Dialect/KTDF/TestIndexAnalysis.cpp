//===- TestIndexAnalysis.cpp - Shows what the index analyses find ---------===//
//
// This file implements --ktdf-test-index-analysis, a test pass that reports
// the index analyses coarsening relies on (IndexAnalysis.h) as remarks, so
// lit can check them on hand-written index arithmetic. The induction
// variables of an op are the arguments of every `ktdf.parallel` and
// `scf.for` around it, outermost first. Every index-typed op but a constant
// gets its coefficient in each of them and its upper bound; every access
// tile gets, for each dimension of its anchor, the coefficient in each of
// them. "?" stands for "not an affine function of it" or "no bound".
//
//===----------------------------------------------------------------------===//

#include "IndexAnalysis.h"
#include "TestPasses.h"

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::ktdf;

/// The induction variables around `op`, outermost first.
static SmallVector<Value> enclosingInductionVars(Operation *op) {
  SmallVector<Value> ivs;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (auto loop = dyn_cast<scf::ForOp>(parent))
      ivs.push_back(loop.getInductionVar());
    else if (auto parallel = dyn_cast<ParallelOp>(parent))
      for (BlockArgument arg :
           llvm::reverse(parallel.getBody().front().getArguments()))
        ivs.push_back(arg);
  }
  std::reverse(ivs.begin(), ivs.end());
  return ivs;
}

static void printOptional(llvm::raw_ostream &os, std::optional<int64_t> v) {
  if (v)
    os << *v;
  else
    os << "?";
}

/// "(c0, c1, ...)": `of` applied to each variable in turn.
static std::string
formatCoefficients(ArrayRef<Value> ivs,
                   llvm::function_ref<std::optional<int64_t>(Value)> of) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "(";
  llvm::interleaveComma(ivs, os, [&](Value iv) { printOptional(os, of(iv)); });
  os << ")";
  return text;
}

namespace {
struct TestIndexAnalysisPass
    : public PassWrapper<TestIndexAnalysisPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestIndexAnalysisPass)

  StringRef getArgument() const final { return "ktdf-test-index-analysis"; }
  StringRef getDescription() const final {
    return "Report index coefficients, upper bounds and access-tile anchor "
           "coefficients as remarks";
  }

  void runOnOperation() override {
    getOperation().walk([&](Operation *op) {
      if (auto tile = dyn_cast<ktdp::ConstructAccessTileOp>(op))
        return reportTile(tile);
      if (op->getNumResults() != 1 || !op->getResult(0).getType().isIndex() ||
          isa<arith::ConstantOp>(op))
        return;
      Value v = op->getResult(0);
      SmallVector<Value> ivs = enclosingInductionVars(op);
      InFlightDiagnostic remark = op->emitRemark();
      remark << "coefficients " << formatCoefficients(ivs, [&](Value iv) {
        return coefficient(v, iv);
      }) << ", upper bound ";
      std::optional<int64_t> bound = upperBoundOf(v);
      if (bound)
        remark << *bound;
      else
        remark << "?";
    });
  }

  static void reportTile(ktdp::ConstructAccessTileOp tile) {
    SmallVector<Value> ivs = enclosingInductionVars(tile);
    InFlightDiagnostic remark = tile.emitRemark();
    remark << "anchor coefficients";
    for (unsigned r = 0, e = tile.getBaseMap().getNumResults(); r < e; ++r)
      remark << " " << formatCoefficients(ivs, [&](Value iv) {
        return anchorCoefficient(tile, r, iv);
      });
  }
};
} // namespace

void ktflow::test::registerTestIndexAnalysisPass() {
  PassRegistration<TestIndexAnalysisPass>();
}
