//===- Link.h - Linking a program bundle for one launch ---------*- C++ -*-===//
//
// This file declares the runtime's link step: a bundle's programs carry
// relocation sites for runtime symbols; linking writes the symbols' values
// into them and decodes the result into an executable for the bundle's
// machine. The runtime links once per launch (Runtime.h).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_RUNTIME_LINK_H
#define KTFLOW_RUNTIME_LINK_H

#include "ktflow/Bundle/Bundle.h"
#include "ktflow/Machine/Program.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

namespace ktflow::rt {

/// Writes the 8-byte immediate of every relocation with `values(kind,
/// symbol)` and decodes the patched programs into an executable; validates
/// it against the bundle's machine.
llvm::Expected<machine::Executable>
linkBundle(const bundle::Bundle &bundle,
           llvm::function_ref<int64_t(bundle::SymbolKind, uint32_t)> values);

} // namespace ktflow::rt

#endif // KTFLOW_RUNTIME_LINK_H
