//===- EmitCommand.cpp - `ktflow emit` ------------------------------------===//
//
// This file implements `ktflow emit FILE --arch DEVICE [-o BUNDLE]`: check a
// DataflowIR kernel against a device description and write its program
// bundle.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "ktflow/Bundle/Emitter.h"
#include "ktflow/Compiler/CompileToBundle.h"
#include "ktflow/Machine/FromDevice.h"
#include "ktflow/Registration/Registration.h"
#include "ktflow/Support/CrashRecovery.h"
#include "ktflow/Support/ModuleLoader.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace ktflow;

cl::SubCommand ktflow::driver::emitCommand(
    "emit", "Check a DataflowIR kernel against a device and write its "
            "program bundle");

static cl::opt<std::string> emitInput(cl::Positional,
                                      cl::desc("<dataflow.mlir>"),
                                      cl::sub(ktflow::driver::emitCommand));
static cl::opt<std::string> emitArch("arch", cl::Required,
                                     cl::desc("Device description (.mlir)"),
                                     cl::value_desc("file"),
                                     cl::sub(ktflow::driver::emitCommand));
static cl::opt<std::string>
    emitOutput("o", cl::desc("Output bundle (default: input with .ktfb)"),
               cl::value_desc("file"), cl::sub(ktflow::driver::emitCommand));
static cl::opt<bool> emitListMachine(
    "list-machine",
    cl::desc("Print the device's memory, unit and datapath instances (the "
             "names DataflowIR uses) and exit"),
    cl::sub(ktflow::driver::emitCommand));
static cl::opt<std::string>
    emitKernel("kernel", cl::desc("Kernel to emit when the file has several"),
               cl::value_desc("name"), cl::sub(ktflow::driver::emitCommand));

static void printMachine(raw_ostream &os, const machine::Machine &m) {
  os << "device " << m.name << "\n";
  for (const machine::MachineMemory &mem : m.memories)
    os << "memory " << mem.name << " (" << mem.kind << ", " << mem.size
       << " bytes)\n";
  for (const machine::MachineUnit &u : m.units)
    os << "unit " << u.name << " (" << u.kind << ")\n";
  for (const machine::MachineLink &l : m.links) {
    os << "datapath " << m.nodeName(l.from) << " -> " << m.nodeName(l.to)
       << ": " << format("%g", l.bandwidth) << " B/cycle, latency "
       << l.latency;
    if (l.fifoDepth)
      os << ", FIFO depth " << l.fifoDepth;
    os << "\n";
  }
}

int ktflow::driver::runEmit() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  ModuleLoader loader(context);
  mlir::FailureOr<machine::Machine> machine =
      machine::loadMachine(loader, emitArch);
  if (failed(machine))
    return 1;
  if (emitListMachine) {
    printMachine(outs(), *machine);
    return 0;
  }
  if (emitInput.empty()) {
    WithColor::error(errs(), "ktflow") << "emit: no input file given\n";
    return 1;
  }
  mlir::OwningOpRef<mlir::ModuleOp> module = loader.load(emitInput);
  if (!module)
    return 1;
  CrashPhase phase("emit", emitInput);
  SmallVector<mlir::dfir::KernelOp> kernels;
  module->walk([&](mlir::dfir::KernelOp k) {
    if (emitKernel.empty() || k.getSymName() == emitKernel)
      kernels.push_back(k);
  });
  if (kernels.size() != 1) {
    WithColor::error(errs(), "ktflow")
        << emitInput << ": "
        << (kernels.empty() ? "no dfir.kernel" : "several dfir.kernels")
        << (emitKernel.empty() ? std::string()
                               : " named '" + emitKernel + "'")
        << " found" << (kernels.size() > 1 ? "; choose one with --kernel" : "")
        << "\n";
    return 1;
  }
  mlir::FailureOr<bundle::Bundle> bundle =
      bundle::emitBundle(kernels.front(), *machine);
  if (failed(bundle))
    return 1;
  std::string out = emitOutput;
  if (out.empty()) {
    SmallString<128> path(emitInput.getValue());
    sys::path::replace_extension(path, "ktfb");
    out = path.str().str();
  }
  Expected<size_t> bytes = writeBundleFile(*bundle, out);
  if (!bytes) {
    WithColor::error(errs(), "ktflow") << toString(bytes.takeError()) << "\n";
    return 1;
  }
  outs() << "wrote " << out << ": kernel " << bundle->kernel << " for "
         << bundle->device << ", " << bundle->programs.size()
         << " unit programs, " << *bytes << " bytes\n";
  return 0;
}
