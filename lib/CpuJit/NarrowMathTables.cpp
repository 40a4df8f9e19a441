//===- NarrowMathTables.cpp - Math functions of 16-bit floats as tables ---===//
//
// This file makes the tier evaluate a math function of one f16 operand (exp,
// tanh, log, ...) by looking its result up in a table of the 65536 inputs'
// results (NarrowMathTables.h), which the process builds the first time a
// kernel asks for it: the interpreter's own scalar function
// (interp::unaryMathFunction), the same libm call in double, rounded once as
// the interpreter rounds. A softmax spends most of
// its time in exp otherwise: a libm call per element, where the lookup is a
// load.
//
//===----------------------------------------------------------------------===//

#include "NarrowMathTables.h"

#include "ktflow/HostTensor/ElementType.h"
#include "ktflow/Interpreter/MathFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <array>
#include <memory>
#include <mutex>

using namespace mlir;
using namespace ktflow;
using host::DType;

namespace {
struct Table {
  std::once_flag built;
  std::unique_ptr<uint16_t[]> results;
};

/// One per id of the interpreter's functions (UnaryMathFunction::id).
constexpr unsigned kMaxFunctionIds = 256;
std::array<Table, kMaxFunctionIds> tables;

/// The interpreter's function of `op`, when the tier has a table for it.
std::optional<interp::UnaryMathFunction> tabledFunction(Operation *op) {
  std::optional<interp::UnaryMathFunction> function =
      interp::unaryMathFunction(op);
  if (function && function->id < kMaxFunctionIds)
    return function;
  return std::nullopt;
}
} // namespace

const uint16_t *ktflow::jit::narrowMathTable(int64_t function) {
  Table &table = tables[function];
  double (*evaluate)(double) = interp::unaryMathFunction(function)->evaluate;
  std::call_once(table.built, [&] {
    DType dtype = DType::F16;
    table.results = std::make_unique<uint16_t[]>(1 << 16);
    // What the interpreter stores for each input it reads from memory.
    for (uint32_t bits = 0; bits < (1u << 16); ++bits) {
      double x = host::bitsToFloat(bits, dtype);
      double y = host::roundToDType(evaluate(x), dtype);
      table.results[bits] = uint16_t(host::floatToBits(y, dtype));
    }
  });
  return table.results.get();
}

void ktflow::jit::lookUpNarrowMath(ModuleOp module) {
  MLIRContext *context = module.getContext();
  context->getOrLoadDialect<LLVM::LLVMDialect>();
  OpBuilder b(context);
  auto pointer = LLVM::LLVMPointerType::get(context);
  Type i64 = b.getI64Type(), i16 = b.getI16Type();
  bool declared = false;
  // One table pointer per (func.func, math function), fetched at the
  // func.func's entry.
  DenseMap<std::pair<Operation *, int64_t>, Value> pointers;
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (op->getNumOperands() == 1 && op->getNumResults() == 1 &&
        op->getOperand(0).getType() == op->getResult(0).getType() &&
        op->getResult(0).getType().isF16() && tabledFunction(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    auto fn = op->getParentOfType<func::FuncOp>();
    if (!fn)
      continue;
    if (!declared) {
      b.setInsertionPointToStart(module.getBody());
      func::FuncOp::create(b, module.getLoc(), kNarrowMathTableFunctionName,
                           b.getFunctionType({i64}, {pointer}))
          .setPrivate();
      declared = true;
    }
    int64_t function = tabledFunction(op)->id;
    Value &table = pointers[{fn, function}];
    Location loc = op->getLoc();
    if (!table) {
      b.setInsertionPointToStart(&fn.getBody().front());
      table =
          func::CallOp::create(
              b, loc, kNarrowMathTableFunctionName, TypeRange{pointer},
              ValueRange{arith::ConstantIntOp::create(b, loc, function, 64)})
              .getResult(0);
    }
    b.setInsertionPoint(op);
    Value bits = arith::BitcastOp::create(b, loc, i16, op->getOperand(0));
    Value index = arith::ExtUIOp::create(b, loc, i64, bits);
    Value element = LLVM::GEPOp::create(b, loc, pointer, i16, table,
                                        ArrayRef<LLVM::GEPArg>{index});
    Value result = LLVM::LoadOp::create(b, loc, i16, element);
    op->replaceAllUsesWith(
        arith::BitcastOp::create(b, loc, op->getResult(0).getType(), result));
    op->erase();
  }
}
