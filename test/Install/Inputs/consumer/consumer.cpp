//===- consumer.cpp - Compile a kernel through installed ktflow -----------===//
//
// Usage: consumer KERNEL.mlir DEVICE.mlir. Parses the kernel, targets the
// device and compiles it to a program bundle with ktflow's libraries, as
// any tool linking an installed ktflow would, then prints what it built.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Compiler/Compile.h"
#include "ktflow/Compiler/CompileToBundle.h"
#include "ktflow/Registration/Registration.h"
#include "ktflow/Support/ModuleLoader.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: consumer KERNEL.mlir DEVICE.mlir\n";
    return 1;
  }
  mlir::DialectRegistry registry;
  ktflow::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  ktflow::ModuleLoader loader(context);
  mlir::OwningOpRef<mlir::ModuleOp> module = loader.load(argv[1]);
  if (!module || mlir::failed(ktflow::setTarget(*module, argv[2], loader)))
    return 1;
  mlir::FailureOr<ktflow::CompiledBundle> compiled =
      ktflow::compileToBundle(*module, ktflow::CompileOptions());
  if (mlir::failed(compiled))
    return 1;
  llvm::outs() << "kernel " << compiled->bundle.kernel << " for "
               << compiled->bundle.device << ": "
               << compiled->bundle.programs.size() << " unit programs, "
               << compiled->bundle.tensors.size() << " tensors\n";
  return 0;
}
