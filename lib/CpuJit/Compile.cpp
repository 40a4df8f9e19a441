//===- Compile.cpp - A KTIR kernel to native code -------------------------===//
//
// This file compiles a kernel to a native `ktflow_tile` function: a copy of
// the module has its callees inlined, becomes a tile function
// (TileFunction.h), gets the interpreter's reduction numerics
// (Numerics.h), and goes through upstream MLIR: element-wise tensor ops to
// linalg, one-shot bufferization with ownership-based deallocation,
// reductions blocked in registers (RegisterTiles.h), linalg to loops,
// 16-bit float arithmetic and math emulated in f32 one op at a time
// (arith-emulate-unsupported-floats, math-extend-to-supported-types: each
// op extends its operands, computes in f32 and truncates, the
// interpreter's one rounding per op), then everything to the LLVM dialect,
// which MLIR's ExecutionEngine optimises (O3 without loop unrolling, host
// CPU) and JITs. The
// object is cached on disk by a hash of the tile function (ObjectCache.h),
// so a later run of the same kernel skips everything after building it.
//
//===----------------------------------------------------------------------===//

#include "CompiledKernel.h"
#include "GrownViews.h"
#include "Interleave.h"
#include "LoopOrder.h"
#include "NarrowMathTables.h"
#include "Numerics.h"
#include "ObjectCache.h"
#include "PhaseTimer.h"
#include "RegisterTiles.h"
#include "TileFunction.h"

// The conversion passes one at a time: mlir/Conversion/Passes.h declares
// every upstream conversion (GPU, SPIR-V, ...), two fifths of this file's
// compile time.
#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/TargetSelect.h"

#include <chrono>
#include <cstring>
#include <vector>

using namespace mlir;
using namespace ktflow::jit;

/// `value` rounded to bf16, to nearest with ties to even, a NaN becoming
/// 0x7fc0: what arith-expand's expansion of the tier's `arith.truncf` to bf16
/// computes. x86 code generation calls this libgcc function for what it
/// still leaves as a conversion (a bf16 constant such as the 0 of a masked
/// load is materialised as a rounded f32), and the JIT links no libgcc.
/// A bf16 is returned in the low 16 bits of xmm0 (x86-64 System V), where
/// this float's bits put it: C++ has no bf16 type that does not itself
/// convert through this function.
static float truncateToBF16(float value) {
  uint32_t bits = llvm::bit_cast<uint32_t>(value);
  uint32_t rounded = (bits & 0x7fffffffu) > 0x7f800000u
                         ? 0x7fc0u
                         : (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16;
  return llvm::bit_cast<float>(rounded);
}

/// memref.copy between strided memrefs, which MLIR lowers to a call of
/// `memrefCopy` from its C runner library (a copy of a window: the tier's
/// bufferized tensor.extract_slice, insert_slice, concat). The JIT links no
/// runner library, so this is the same element-by-element walk over the
/// sizes in row-major order, each element `elemSize` bytes.
static void copyStridedMemRef(int64_t elemSize,
                              ::UnrankedMemRefType<char> *from,
                              ::UnrankedMemRefType<char> *to) {
  DynamicMemRefType<char> src(*from), dst(*to);
  char *srcData = src.data + src.offset * elemSize;
  char *dstData = dst.data + dst.offset * elemSize;
  int64_t rank = src.rank;
  for (int64_t d = 0; d < rank; ++d)
    if (src.sizes[d] == 0)
      return;
  // Called for every window copied (per row in a loop): no heap for the
  // ranks kernels have.
  llvm::SmallVector<int64_t, 8> index(rank, 0);
  int64_t srcAt = 0, dstAt = 0;
  while (true) {
    std::memcpy(dstData + dstAt * elemSize, srcData + srcAt * elemSize,
                elemSize);
    int64_t axis = rank - 1;
    for (; axis >= 0; --axis) {
      if (++index[axis] < src.sizes[axis]) {
        srcAt += src.strides[axis];
        dstAt += dst.strides[axis];
        break;
      }
      srcAt -= (src.sizes[axis] - 1) * src.strides[axis];
      dstAt -= (dst.sizes[axis] - 1) * dst.strides[axis];
      index[axis] = 0;
    }
    if (axis < 0)
      return;
  }
}

/// The functions of ktflow the compiled code calls.
static ArrayRef<std::pair<StringRef, void *>> runtimeSymbols() {
  static const std::vector<std::pair<StringRef, void *>> symbols = [] {
    std::vector<std::pair<StringRef, void *>> all = {
        {kStoredRangeFunctionName, reinterpret_cast<void *>(&recordStoredRows)},
        {kViewFunctionName, reinterpret_cast<void *>(&recordView)},
        {kYieldFunctionName, reinterpret_cast<void *>(&yieldTurn)},
        {kNarrowMathTableFunctionName,
         reinterpret_cast<void *>(&narrowMathTable)},
        {"__truncsfbf2", reinterpret_cast<void *>(&truncateToBF16)},
        {"memrefCopy", reinterpret_cast<void *>(&copyStridedMemRef)}};
    llvm::append_range(all, interTileRuntimeSymbols());
    return all;
  }();
  return symbols;
}

/// Makes `context` able to run the tier's passes and translation.
static void prepareContext(MLIRContext &context) {
  DialectRegistry registry;
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  arith::registerBufferDeallocationOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  cf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  func::registerInlinerExtension(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  memref::registerAllocationOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  context.appendDialectRegistry(registry);
  context.loadDialect<arith::ArithDialect, bufferization::BufferizationDialect,
                      cf::ControlFlowDialect, func::FuncDialect,
                      linalg::LinalgDialect, LLVM::LLVMDialect,
                      math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                      tensor::TensorDialect, vector::VectorDialect>();
}

/// The passes from a tile function on tensors to linalg on memrefs.
static void buildBufferizePipeline(PassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createConvertElementwiseToLinalgPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::buildBufferDeallocationPipeline(pm);
}

/// The passes from linalg on memrefs (reductions blocked in registers,
/// RegisterTiles.h) to loops.
static void buildLoopPipeline(PassManager &pm) {
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(memref::createExpandStridedMetadataPass());
}

/// arith.maximumf and minimumf as llvm.maximum and llvm.minimum, which order
/// -0 below +0 as MLIR's semantics and the interpreter do: arith-expand's
/// compare-and-select expansion returns the second operand where the two
/// compare equal, so maximumf(+0, -0) was -0. (Its expansion of maxnumf
/// and minnumf stays: MLIR lets them return either zero, and the selects
/// this would wrap around llvm.maximum keep the loop vectoriser from
/// seeing a reduction, softmax 4096x1024 ran 1.3x longer.) Only f32 and
/// f64 values, which is what emulateNarrowFloats leaves of the arithmetic.
static void lowerMaximumMinimumToLLVM(ModuleOp module) {
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<arith::MaximumFOp, arith::MinimumFOp>(op) &&
        isa<Float32Type, Float64Type>(
            getElementTypeOrSelf(op->getResult(0).getType())))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    Value result = isa<arith::MaximumFOp>(op)
                       ? LLVM::MaximumOp::create(b, loc, lhs, rhs).getResult()
                       : LLVM::MinimumOp::create(b, loc, lhs, rhs).getResult();
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }
}

/// The passes from loops on memrefs (16-bit floats emulated) to the LLVM
/// dialect.
static void buildLLVMPipeline(PassManager &pm) {
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

/// LLVM's O3 pipeline, vectorisers included, without loop unrolling: full
/// unrolling of the tiles' constant-trip loops (1024-element rows) made
/// basic blocks of hundreds of memory operations whose scheduling and
/// alias queries (quadratic in the block) were most of a cold compile:
/// layernorm 1151x8192's code generation took 1.2-1.3 s with it, 0.1-0.16
/// s without (load ~9), and the kernels' run times did not move beyond the
/// noise (bench/README.md).
static void optimizeWithoutUnrolling(llvm::Module &module,
                                     llvm::TargetMachine *machine) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = false;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder builder(machine, tuning);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::ModulePassManager pipeline =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  pipeline.run(module, modules);
}

/// Runs `pm` on `module`; on failure `why` holds the first diagnostic.
static LogicalResult runQuietly(PassManager &pm, ModuleOp module,
                                std::string &why) {
  std::string first;
  ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &diag) {
    if (first.empty() && diag.getSeverity() == DiagnosticSeverity::Error)
      first = diag.str();
    return success();
  });
  if (succeeded(pm.run(module)))
    return success();
  why = first.empty() ? "a lowering pass failed" : first;
  return failure();
}

FailureOr<std::unique_ptr<CompiledKernel>>
CompiledKernel::compile(ModuleOp module, StringRef kernelName,
                        ArrayRef<interp::ArgumentInfo> args, int64_t numTiles,
                        bool interleaved, interp::NumericsPolicy numerics,
                        std::string &why) {
  MLIRContext &context = *module.getContext();
  prepareContext(context);
  // Checked before canonicalization, which may erase what the interpreter
  // would run (an endless loop without effects).
  SmallVector<Operation *> worklist;
  DenseSet<Operation *> checked;
  if (Operation *kernel = module.lookupSymbol(kernelName))
    worklist.push_back(kernel);
  while (!worklist.empty()) {
    Operation *fn = worklist.pop_back_val();
    if (!checked.insert(fn).second)
      continue;
    why = findUnsupportedConstruct(fn);
    if (!why.empty())
      return failure();
    fn->walk([&](func::CallOp call) {
      if (Operation *callee = module.lookupSymbol(call.getCallee()))
        worklist.push_back(callee);
    });
  }
  OwningOpRef<ModuleOp> copy = module.clone();
  // No simplification yet: it would erase loads whose result is unused,
  // which the interpreter still checks (and reports errors of).
  PassManager inliner(&context);
  inliner.addPass(createInlinerPass({}, [](OpPassManager &) {}));
  if (failed(runQuietly(inliner, *copy, why))) {
    why = "inlining failed: " + why;
    return failure();
  }
  FailureOr<TileFunctionLayout> layout =
      buildTileFunction(*copy, kernelName, args, numTiles, interleaved, why);
  if (failed(layout))
    return failure();
  if (numerics == interp::NumericsPolicy::Accumulate)
    applyAccumulateNumerics(*copy);
  orderContractionLoops(*copy);
  auto kernel = std::unique_ptr<CompiledKernel>(new CompiledKernel());
  kernel->layout = std::move(*layout);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  std::optional<std::string> cachePath;
  if (std::optional<std::string> directory = cacheDirectory()) {
    cachePath = cachedObjectPath(*directory, *copy);
    if (std::optional<LoadedObject> loaded =
            loadCachedObject(*cachePath, kTileFunctionName, runtimeSymbols())) {
      kernel->cachedJit = std::move(loaded->jit);
      kernel->entry = loaded->entry;
      kernel->fromCache = true;
      return kernel;
    }
  }
  PassManager bufferize(&context), loops(&context), llvmLowering(&context);
  buildBufferizePipeline(bufferize);
  buildLoopPipeline(loops);
  buildLLVMPipeline(llvmLowering);
  // KTFLOW_JIT_TIMING=1 prints where a cold compile goes.
  PhaseTimer phases;
  if (phases.isEnabled()) {
    bufferize.enableTiming();
    loops.enableTiming();
    llvmLowering.enableTiming();
  }
  if (failed(runQuietly(bufferize, *copy, why))) {
    why = "bufferization failed: " + why;
    return failure();
  }
  blockReductionsInRegisters(*copy);
  if (failed(runQuietly(loops, *copy, why))) {
    why = "the lowering to loops failed: " + why;
    return failure();
  }
  lookUpNarrowMath(*copy);
  emulateNarrowFloats(*copy);
  lowerMaximumMinimumToLLVM(*copy);
  if (failed(runQuietly(llvmLowering, *copy, why))) {
    why = "the lowering to LLVM failed: " + why;
    return failure();
  }

  auto hostMachine = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!hostMachine) {
    why = llvm::toString(hostMachine.takeError());
    return failure();
  }
  auto targetMachine = hostMachine->createTargetMachine();
  if (!targetMachine) {
    why = llvm::toString(targetMachine.takeError());
    return failure();
  }
  // ExecutionEngineOptions holds a function_ref: keep the callee alive.
  std::function<llvm::Error(llvm::Module *)> optimize =
      [&phases, machine = targetMachine->get()](llvm::Module *module) {
        phases.end("MLIR pipelines and translation to LLVM IR");
        optimizeWithoutUnrolling(*module, machine);
        phases.end("LLVM O3 without unrolling");
        return llvm::Error::success();
      };
  ExecutionEngineOptions options;
  options.transformer = optimize;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  options.enableObjectDump = cachePath.has_value();
  std::string first;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (first.empty())
      first = diag.str();
    return success();
  });
  auto engine = ExecutionEngine::create(*copy, options);
  if (!engine) {
    why = "JIT compilation failed: " + llvm::toString(engine.takeError()) +
          (first.empty() ? "" : ": " + first);
    return failure();
  }
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    for (auto [name, address] : runtimeSymbols())
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                 llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  auto entry = (*engine)->lookupPacked(kTileFunctionName);
  if (!entry) {
    why = llvm::toString(entry.takeError());
    return failure();
  }
  phases.end("x86 code generation and linking");
  if (cachePath)
    storeCachedObject(**engine, *cachePath);
  kernel->engine = std::move(*engine);
  kernel->entry = *entry;
  return kernel;
}

CompiledKernel::~CompiledKernel() = default;
