//===- ktflow-lsp-server.cpp - Editor support for KTIR --------------------===//
//
// This file implements ktflow-lsp-server, the MLIR language server with
// every dialect a KTIR kernel may use, so editors show ktflow's parser and
// verifier diagnostics as you type.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Registration/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  ktflow::registerAllDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
