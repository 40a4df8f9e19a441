//===- LinalgRun.h - One execution of a linalg structured op ----*- C++ -*-===//
//
// This file declares LinalgRun, which executes a decoded linalg op (a
// LinalgPlan) once on one tile, in three steps kept in three files:
// binding (LinalgBind.cpp) checks the operands against the plan, infers the
// loop extents and turns each linear indexing map into a flat offset over
// the loop nest; the strategy (LinalgExec.cpp) chooses how iteration points
// are grouped into columns and walks the nest; the column kernels
// (LinalgColumns.cpp) run the body over one column and write or fold it
// into the outputs.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_INTERPRETER_LINALGRUN_H
#define KTFLOW_LIB_INTERPRETER_LINALGRUN_H

#include "Executor.h"
#include "Linalg.h"

namespace ktflow::interp {

/// The most iteration points of one column.
inline constexpr int64_t kColumnCapacity = 4096;

/// One operand of the op, bound to its value.
struct LinalgOperand {
  bool isScalar = false;
  const Tensor *tensor = nullptr; ///< Input data, or the output being built.
  Tensor *output = nullptr;
  DType dtype = DType::F32;
  llvm::SmallVector<int64_t, 4> strides;
  /// Linear offset: constant + Σ coeff[d] * i_d over the current loop nest.
  llvm::SmallVector<int64_t, 4> coeff;
  int64_t constant = 0;
};

class LinalgRun {
public:
  LinalgRun(TileExecutor &exec, mlir::Operation *op, const LinalgPlan &plan)
      : exec(exec), op(op), plan(plan) {}
  /// Gives the column buffers back to the buffer pool.
  ~LinalgRun();
  LinalgRun(const LinalgRun &) = delete;
  LinalgRun &operator=(const LinalgRun &) = delete;

  /// Computes the outputs and binds them to the op's results.
  mlir::LogicalResult run();

private:
  /// Computes the outputs (without binding the op's results).
  mlir::LogicalResult compute();

  // Binding (LinalgBind.cpp).
  mlir::LogicalResult bindOperands();
  mlir::LogicalResult computeRanges();
  mlir::LogicalResult checkLinearBounds();
  int chooseColumnDim() const;

  // Walking the iteration space (LinalgExec.cpp).
  mlir::LogicalResult runNest(int colDim, bool combine);
  mlir::LogicalResult runPointwise();

  // Column kernels (LinalgColumns.cpp).
  /// Sizes and fills the slots' column buffers for an op of `points`
  /// iteration points.
  void prepareSlots(uint64_t points);
  mlir::LogicalResult processChunk(llvm::ArrayRef<int64_t> point, int colDim,
                                   int64_t n, llvm::ArrayRef<int64_t> bases,
                                   llvm::ArrayRef<int64_t> steps, bool combine);
  void loadColumn(unsigned slot, const LinalgOperand &operand, int64_t base,
                  int64_t step, int64_t n);
  mlir::LogicalResult foldCombine(unsigned k, int64_t base, int64_t step,
                                  int64_t n);
  /// Runs a multiply-accumulate body (`mulAcc`) over one column in one
  /// loop.
  void multiplyAccumulate(int64_t n, llvm::ArrayRef<int64_t> bases,
                          llvm::ArrayRef<int64_t> steps);

  TileExecutor &exec;
  mlir::Operation *op;
  const LinalgPlan &plan;
  /// The plan's body as one multiply-accumulate, when it is one.
  std::optional<MultiplyAccumulate> mulAcc;
  llvm::SmallVector<LinalgOperand, 4> operands;
  llvm::SmallVector<std::shared_ptr<Tensor>, 2> outputs;
  /// The `outs` operands, as the op received them.
  llvm::SmallVector<const Tensor *, 2> inits;
  llvm::SmallVector<int64_t, 4> ranges;
  /// Loop nest actually iterated (possibly collapsed).
  llvm::SmallVector<int64_t, 4> nestRanges;
  // One buffer per slot, of the slot's type (the other pointer is null),
  // from the thread's buffer pool (BufferPool.h). `cols` point at the
  // current column data.
  llvm::SmallVector<std::vector<double>, 8> bufF;
  llvm::SmallVector<std::vector<int64_t>, 8> bufI;
  llvm::SmallVector<ColumnOut, 16> slotBufs;
  llvm::SmallVector<ColumnIn, 16> cols;
};

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERPRETER_LINALGRUN_H
