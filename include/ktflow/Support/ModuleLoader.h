//===- ModuleLoader.h - Read MLIR files with located errors -----*- C++ -*-===//
//
// This file declares how ktflow's tools read an MLIR file: a missing or
// unreadable file, a parse error or a verifier error becomes a located
// diagnostic (`file:line:col: error: ...`) and a null module, never a crash.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SUPPORT_MODULELOADER_H
#define KTFLOW_SUPPORT_MODULELOADER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <string>

namespace ktflow {

/// `path` as written if it is absolute or `loc` names no file, else relative
/// to the directory of the file `loc` points into: how a file that loads
/// another (a kernel importing its device) names it.
std::string resolvePathNextTo(mlir::Location loc, llvm::StringRef path);

/// Gives every op under `root` without a location the location of its
/// nearest located ancestor. The parser builds the ops of a linalg named
/// op's implicit body (the `arith.addf` of a `linalg.add`) without one;
/// they survive generalisation and fusion into the compute bodies the
/// scheduler and the device checks see, so a diagnostic on them would
/// print `<unknown>:0` instead of pointing at the named op in the user's
/// file. ModuleLoader applies it to what it loads; ktdf-generalize to
/// modules that reach it otherwise (ktflow-opt).
void locateImplicitOps(mlir::Operation *root);

/// Loads MLIR files into a context and, for as long as it lives, prints every
/// diagnostic of that context against the loaded sources. Parsing and
/// verifying are crash phases, and the context's passes name themselves in
/// a crash report (CrashRecovery.h).
class ModuleLoader {
public:
  explicit ModuleLoader(mlir::MLIRContext &context);
  /// Prints diagnostics, and the errors of files it cannot open, to
  /// `errors` instead of stderr (the Python package collects them).
  ModuleLoader(mlir::MLIRContext &context, llvm::raw_ostream &errors);

  /// Parses and verifies `path` ("-" for stdin) and names the arguments of
  /// its functions as the source does (ArgumentNames.h). Returns null on any
  /// error, after printing it.
  mlir::OwningOpRef<mlir::ModuleOp> load(llvm::StringRef path);

  /// Parses and verifies MLIR `text` as load does a file, its diagnostics
  /// located in `bufferName` (the Python package's kernels given as text).
  mlir::OwningOpRef<mlir::ModuleOp> loadText(llvm::StringRef text,
                                             llvm::StringRef bufferName);

private:
  /// Parses and verifies `file`, named `subject` in crash reports.
  mlir::OwningOpRef<mlir::ModuleOp>
  loadBuffer(std::unique_ptr<llvm::MemoryBuffer> file, llvm::StringRef subject);

  mlir::MLIRContext &context;
  llvm::raw_ostream &errors;
  /// Every buffer loaded so far, so diagnostics can quote any of them.
  llvm::SourceMgr sourceMgr;
  /// One manager per file for the parser, which always reads the first.
  std::vector<std::unique_ptr<llvm::SourceMgr>> fileManagers;
  mlir::SourceMgrDiagnosticHandler handler;
};

} // namespace ktflow

#endif // KTFLOW_SUPPORT_MODULELOADER_H
