//===- LoopOrder.cpp - Loop orders the compiled tier chooses --------------===//
//
// linalg-to-loops nests a contraction's loops in iterator order, which for
// a matmul is (m, n, k): the innermost loop walks a column of B (a stride
// of a whole row per step) and a single accumulator, which LLVM cannot
// vectorise. Moving the reduction loops outside the last parallel loop,
// (m, k, n), makes the innermost loop walk rows of B and of the output
// contiguously, and LLVM vectorises it.
//
// The results are unchanged bit for bit: every output element still sums
// its products in ascending k, one product at a time (no reassociation;
// the body's ops, and the f32 accumulator of Numerics.cpp, are kept as
// they are); only which element is being summed at a time changes.
//
//===----------------------------------------------------------------------===//

#include "LoopOrder.h"
#include "LinalgForms.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

/// The interchange that moves the reduction loops just outside the last
/// parallel loop, or an empty vector when the last loop is not a
/// reduction or there is no parallel loop.
static SmallVector<unsigned>
reductionsOutsideLastParallel(linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators.empty() || iterators.back() != utils::IteratorType::reduction)
    return {};
  std::optional<unsigned> lastParallel;
  for (auto [d, kind] : llvm::enumerate(iterators))
    if (kind == utils::IteratorType::parallel)
      lastParallel = d;
  if (!lastParallel)
    return {};
  SmallVector<unsigned> order;
  for (unsigned d = 0; d < iterators.size(); ++d)
    if (d != *lastParallel)
      order.push_back(d);
  order.push_back(*lastParallel);
  return order;
}

void ktflow::jit::orderContractionLoops(Operation *root) {
  SmallVector<linalg::LinalgOp> contractions;
  root->walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics() && linalg::isaContractionOpInterface(op) &&
        !reductionsOutsideLastParallel(op).empty())
      contractions.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  for (linalg::LinalgOp op : contractions) {
    SmallVector<unsigned> order = reductionsOutsideLastParallel(op);
    FailureOr<linalg::GenericOp> generic = asGeneric(rewriter, op);
    if (succeeded(generic))
      (void)linalg::interchangeGenericOp(rewriter, *generic, order);
  }
}
