//===- ktflow-opt.cpp - The ktflow optimizer driver -----------------------===//
//
// This file implements ktflow-opt: MlirOptMain with every ktflow dialect,
// the upstream dialects KTIR uses, and every ktflow pass. lit tests drive
// each pass through it.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Registration/Registration.h"
#include "ktflow/Support/LargeStack.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  ktflow::registerAllPasses();
  mlir::DialectRegistry registry;
  ktflow::registerAllDialects(registry);
  return ktflow::runOnLargeStack([&] {
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, "ktflow optimizer driver\n", registry));
  });
}
