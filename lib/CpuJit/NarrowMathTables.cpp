//===- NarrowMathTables.cpp - Math functions of 16-bit floats as tables ---===//
//
// This file makes the tier evaluate a math function of one f16 operand (exp,
// tanh, log, ...) by looking its result up in a table of the 65536 inputs'
// results (NarrowMathTables.h), which the process builds the first time a
// kernel asks for it: the interpreter's own scalar function, the same libm call
// in double, rounded once as the interpreter rounds. A softmax spends most of
// its time in exp otherwise: a libm call per element, where the lookup is a
// load.
//
//===----------------------------------------------------------------------===//

#include "NarrowMathTables.h"

#include "ktflow/HostTensor/ElementType.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cmath>
#include <memory>
#include <mutex>

using namespace mlir;
using namespace ktflow;
using host::DType;

namespace {
/// A math op and the scalar function the interpreter evaluates it with
/// (lib/Interpreter/ElementwiseKernels.cpp), in double.
struct TabledFunction {
  llvm::StringLiteral op;
  double (*evaluate)(double);
};

const TabledFunction kFunctions[] = {
    {"math.exp", [](double a) { return std::exp(a); }},
    {"math.exp2", [](double a) { return std::exp2(a); }},
    {"math.expm1", [](double a) { return std::expm1(a); }},
    {"math.log", [](double a) { return std::log(a); }},
    {"math.log2", [](double a) { return std::log2(a); }},
    {"math.log10", [](double a) { return std::log10(a); }},
    {"math.log1p", [](double a) { return std::log1p(a); }},
    {"math.sqrt", [](double a) { return std::sqrt(a); }},
    {"math.rsqrt", [](double a) { return 1.0 / std::sqrt(a); }},
    {"math.cbrt", [](double a) { return std::cbrt(a); }},
    {"math.tanh", [](double a) { return std::tanh(a); }},
    {"math.sinh", [](double a) { return std::sinh(a); }},
    {"math.cosh", [](double a) { return std::cosh(a); }},
    {"math.sin", [](double a) { return std::sin(a); }},
    {"math.cos", [](double a) { return std::cos(a); }},
    {"math.tan", [](double a) { return std::tan(a); }},
    {"math.asin", [](double a) { return std::asin(a); }},
    {"math.acos", [](double a) { return std::acos(a); }},
    {"math.atan", [](double a) { return std::atan(a); }},
    {"math.asinh", [](double a) { return std::asinh(a); }},
    {"math.acosh", [](double a) { return std::acosh(a); }},
    {"math.atanh", [](double a) { return std::atanh(a); }},
    {"math.erf", [](double a) { return std::erf(a); }},
    {"math.erfc", [](double a) { return std::erfc(a); }},
};
constexpr size_t kNumFunctions = std::size(kFunctions);

struct Table {
  std::once_flag built;
  std::unique_ptr<uint16_t[]> results;
};

std::array<Table, kNumFunctions> tables;

std::optional<int64_t> functionIndex(Operation *op) {
  for (auto [k, function] : llvm::enumerate(kFunctions))
    if (op->getName().getStringRef() == function.op)
      return k;
  return std::nullopt;
}
} // namespace

const uint16_t *ktflow::jit::narrowMathTable(int64_t function) {
  Table &table = tables[function];
  std::call_once(table.built, [&] {
    DType dtype = DType::F16;
    table.results = std::make_unique<uint16_t[]>(1 << 16);
    // What the interpreter stores for each input it reads from memory.
    for (uint32_t bits = 0; bits < (1u << 16); ++bits) {
      double x = host::bitsToFloat(bits, dtype);
      double y = host::roundToDType(kFunctions[function].evaluate(x), dtype);
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
        op->getResult(0).getType().isF16() && functionIndex(op))
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
    int64_t function = *functionIndex(op);
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
