//===- Registration.cpp - Register every ktflow dialect and pass ----------===//

#include "ktflow/Registration/Registration.h"

#include "ktflow/Compiler/Passes.h"
#include "ktflow/Compiler/Pipelines.h"
#include "ktflow/Conversion/Passes.h"
#include "ktflow/Dialect/DFIR/IR/DFIR.h"
#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDFArch/IR/KTDFArch.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Transforms/Passes.h"
#include "ktflow/Dialect/SpyreOp/IR/SpyreOp.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void ktflow::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::ktdp::KTDPDialect, mlir::spyreop::SpyreOpDialect,
                  mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::linalg::LinalgDialect,
                  mlir::math::MathDialect, mlir::memref::MemRefDialect,
                  mlir::pdl::PDLDialect, mlir::pdl_interp::PDLInterpDialect,
                  mlir::scf::SCFDialect, mlir::tensor::TensorDialect>();
  registry.insert<mlir::ktdf_arch::KTDFArchDialect>();
  registry.insert<mlir::dfir::DFIRDialect>();
  registry.insert<mlir::ktdf::KTDFDialect>();
}

void ktflow::registerAllPasses() {
  mlir::ktdp::registerKTDPPasses();
  mlir::ktdf::registerKTDFPasses();
  mlir::registerKTFlowConversionPasses();
  mlir::registerKTFlowCompilerPasses();
  ktflow::registerCompilePipelines();
  mlir::registerTransformsPasses();
}
