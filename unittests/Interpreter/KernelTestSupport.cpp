//===- KernelTestSupport.cpp - Running kernels in interpreter tests -------===//
//
// This file implements the kernel-test helpers: parsing with captured
// diagnostics, seeded data and tolerant comparison.
//
//===----------------------------------------------------------------------===//

#include "KernelTestSupport.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/SpyreOp/IR/SpyreOp.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace ktflow;
using namespace ktflow::testing;
using host::DType;
using host::Tensor;

Tensor ktflow::testing::randomTensor(DType dtype, std::vector<int64_t> shape,
                                     uint64_t seed, double lo, double hi) {
  Tensor t = Tensor::zeros(dtype, shape);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(lo, hi);
  int64_t n = t.numElements();
  for (int64_t i = 0; i < n; ++i) {
    double v = uniform(rng);
    switch (dtype) {
    case DType::F16:
      t.floats[i] = f16(v);
      break;
    case DType::F32:
      t.floats[i] = f32(v);
      break;
    case DType::F64:
      t.floats[i] = v;
      break;
    default:
      t.ints[i] = static_cast<int64_t>(std::floor(v));
      break;
    }
  }
  return t;
}

static std::unique_ptr<KernelRun> parseKernel(llvm::StringRef text,
                                              llvm::StringRef sourceName,
                                              llvm::StringRef func,
                                              interp::InterpreterOptions options) {
  auto run = std::make_unique<KernelRun>();
  // The dialects KTIR kernels use (the interpreter's own dependencies, so
  // these tests do not link the rest of ktflow).
  mlir::DialectRegistry registry;
  registry.insert<mlir::ktdp::KTDPDialect, mlir::spyreop::SpyreOpDialect,
                  mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::linalg::LinalgDialect,
                  mlir::math::MathDialect, mlir::memref::MemRefDialect,
                  mlir::scf::SCFDialect, mlir::tensor::TensorDialect>();
  run->context = std::make_unique<mlir::MLIRContext>(registry);
  run->context->printOpOnDiagnostic(false);
  KernelRun *raw = run.get();
  run->context->getDiagEngine().registerHandler([raw](mlir::Diagnostic &d) {
    std::string loc;
    if (auto fileLoc = llvm::dyn_cast<mlir::FileLineColLoc>(d.getLocation()))
      loc = std::to_string(fileLoc.getLine()) + ":" +
            std::to_string(fileLoc.getColumn()) + ": ";
    raw->errors += loc + d.str() + "\n";
    for (const mlir::Diagnostic &note : d.getNotes())
      raw->errors += "  note: " + note.str() + "\n";
    return mlir::success();
  });
  mlir::ParserConfig config(run->context.get());
  run->module =
      mlir::parseSourceString<mlir::ModuleOp>(text, config, sourceName);
  if (!run->module)
    return run;
  auto interpreter =
      std::make_unique<interp::Interpreter>(*run->module, options);
  if (llvm::Error err = interpreter->selectFunction(func)) {
    run->errors += llvm::toString(std::move(err)) + "\n";
    return run;
  }
  interpreter->recoverArgumentNames(text);
  run->interpreter = std::move(interpreter);
  return run;
}

std::unique_ptr<KernelRun> KernelRun::fromExample(llvm::StringRef file,
                                                  llvm::StringRef func) {
  std::string path = std::string(KTFLOW_EXAMPLES_DIR) + "/" + file.str();
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    auto run = std::make_unique<KernelRun>();
    run->errors = "cannot read " + path;
    return run;
  }
  return parseKernel((*buffer)->getBuffer(), path, func, {});
}

std::unique_ptr<KernelRun>
KernelRun::fromText(llvm::StringRef text, llvm::StringRef func,
                    interp::InterpreterOptions options) {
  return parseKernel(text, "kernel.mlir", func, options);
}

void KernelRun::input(llvm::StringRef name, Tensor tensor) {
  input(name, host::InputSpec::fromTensor(std::move(tensor)));
}

void KernelRun::input(llvm::StringRef name, host::InputSpec spec) {
  if (llvm::Error err = interpreter->setInput(name, std::move(spec)))
    errors += llvm::toString(std::move(err)) + "\n";
}

void KernelRun::arg(llvm::StringRef name, llvm::StringRef value) {
  if (llvm::Error err = interpreter->setScalar(name, value))
    errors += llvm::toString(std::move(err)) + "\n";
}

bool KernelRun::run() {
  return errors.empty() && interpreter && mlir::succeeded(interpreter->run());
}

Tensor KernelRun::output(llvm::StringRef name) {
  llvm::Expected<Tensor> t = interpreter->getTensor(name);
  if (!t) {
    errors += llvm::toString(t.takeError()) + "\n";
    return Tensor();
  }
  return std::move(*t);
}

void ktflow::testing::expectClose(const Tensor &got,
                                  const std::vector<double> &ref,
                                  Tolerance tol, llvm::StringRef what) {
  ASSERT_EQ(got.numElements(), static_cast<int64_t>(ref.size()))
      << what.str() << ": element count";
  int64_t mismatches = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    double g = got.getDouble(static_cast<int64_t>(i)), r = ref[i];
    bool same = (std::isnan(g) && std::isnan(r)) ||
                std::fabs(g - r) <= tol.atol + tol.rtol * std::fabs(r);
    if (!same && ++mismatches <= 5)
      ADD_FAILURE() << what.str() << "[" << i << "]: got " << g
                    << ", expected " << r;
  }
  EXPECT_EQ(mismatches, 0) << what.str() << ": mismatching elements";
}
