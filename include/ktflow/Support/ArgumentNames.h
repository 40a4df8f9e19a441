//===- ArgumentNames.h - The names a source gives arguments -----*- C++ -*-===//
//
// This file declares how ktflow keeps the names a kernel's source gives its
// arguments (`%x` is "x"), which MLIR forgets when it parses: the tools name
// tensors and runtime arguments as the kernel does. Loading a file
// (ModuleLoader) wraps each function argument's location in a NameLoc
// carrying its name, which every pass keeps, so the interpreter, the
// compiler and a bundle's argument table all see it.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SUPPORT_ARGUMENTNAMES_H
#define KTFLOW_SUPPORT_ARGUMENTNAMES_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include <string>

namespace ktflow {

/// The name the source gives `arg` ("x" for `%x`): its NameLoc's, else the
/// `%name` that its file location points at in `source` (the text it was
/// parsed from); "" when neither says.
std::string getArgumentName(mlir::BlockArgument arg,
                            llvm::StringRef source = "");

/// Wraps the location of every argument of every function in `root` that
/// points at `%name` in `source` (the text `root` was parsed from) in
/// NameLoc(name, location).
void nameArguments(mlir::Operation *root, llvm::StringRef source);

} // namespace ktflow

#endif // KTFLOW_SUPPORT_ARGUMENTNAMES_H
