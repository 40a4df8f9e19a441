//===- FuzzBundle.cpp - libFuzzer harness: the bundle reader --------------===//
//
// Feeds each input, as a bundle file with its seal recomputed
// (BundleInput.h), to what `ktflow inspect` and the runtime's link step
// run: readBundle, printBundle with the disassembly of every program, and
// linkBundle with every symbol bound to 0. A hostile file must end in an
// error. Seeds: bundles compiled from examples/kernels (scripts/fuzz.sh
// writes them).
//
//===----------------------------------------------------------------------===//

#include "BundleInput.h"

#include "ktflow/Bundle/Bundle.h"
#include "ktflow/Runtime/Link.h"

#include "llvm/Support/raw_ostream.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<uint8_t> bytes = ktflow::fuzz::sealBundle(data, size);
  auto bundle = ktflow::bundle::readBundle(bytes);
  if (!bundle) {
    llvm::consumeError(bundle.takeError());
    return 0;
  }
  ktflow::bundle::printBundle(llvm::nulls(), *bundle, bytes.size());
  auto linked = ktflow::rt::linkBundle(
      *bundle, [](ktflow::bundle::SymbolKind, uint32_t) { return 0; });
  if (!linked)
    llvm::consumeError(linked.takeError());
  return 0;
}
