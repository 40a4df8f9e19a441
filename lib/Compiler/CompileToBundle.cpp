//===- CompileToBundle.cpp - Compile a KTIR module to a bundle ------------===//
//
// This file chains the scheduler's pipeline, the device model of the
// module's target, the machine lowered from it and the bundle emitter: the
// compile->bundle step the driver's commands share.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Compiler/CompileToBundle.h"
#include "ktflow/Bundle/Emitter.h"
#include "ktflow/Compiler/Compile.h"
#include "ktflow/Device/Target.h"
#include "ktflow/Machine/FromDevice.h"
#include "ktflow/Support/CrashRecovery.h"
#include "ktflow/Support/OutputFile.h"

#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace ktflow;

FailureOr<CompiledBundle> ktflow::compileToBundle(ModuleOp module,
                                                  const CompileOptions &options,
                                                  StringRef subject) {
  {
    CrashPhase phase("passes", subject);
    if (failed(compile(module, options, CompileStage::Dataflow)))
      return failure();
  }
  return emitCompiledBundle(module, subject);
}

LogicalResult ktflow::lowerSchedule(ModuleOp module, StringRef subject) {
  CrashPhase phase("passes", subject);
  PassManager pm(module.getContext());
  buildLoweringPipeline(pm);
  return pm.run(module);
}

FailureOr<CompiledBundle> ktflow::emitCompiledBundle(ModuleOp module,
                                                     StringRef subject) {
  CrashPhase phase("emit", subject);
  dfir::KernelOp kernel = getCompiledKernel(module);
  if (!kernel)
    return failure();
  FailureOr<device::DeviceModel> model = device::buildTargetModel(module);
  if (failed(model))
    return failure();
  // The pipeline checked the memory map: the global space has a memory.
  FailureOr<device::TargetDevice> target =
      device::resolveTarget(module, device::TargetImport::InModule);
  if (failed(target))
    return failure();
  std::optional<device::NodeId> deviceMemory =
      model->findByKind(target->globalMemory);
  if (!deviceMemory)
    return module.emitError("the device has no memory of kind '")
           << target->globalMemory << "' for KTIR's global space";
  machine::Machine machine = machine::buildMachine(*model);
  FailureOr<bundle::Bundle> built = bundle::emitBundle(kernel, machine);
  if (failed(built))
    return failure();
  return CompiledBundle{std::move(*built), std::move(*model), *deviceMemory};
}

llvm::Expected<size_t> ktflow::writeBundleFile(const bundle::Bundle &bundle,
                                               StringRef path) {
  std::vector<uint8_t> bytes = bundle::writeBundle(bundle);
  if (llvm::Error error = writeOutputFile(path, [&](llvm::raw_ostream &os) {
        os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
      }))
    return std::move(error);
  return bytes.size();
}
