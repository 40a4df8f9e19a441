//===- Session.h - One call of the Python package into ktflow ---*- C++ -*-===//
//
// This file declares what every function of the `ktflow` Python package
// does around the libraries it calls: an MLIR context with ktflow's
// dialects, a loader whose diagnostics are kept (as the text the command
// line prints and as located records) instead of printed, the work run on a
// thread with a large stack without Python's lock, and failures turned into
// a `Failure` the module raises as `ktflow.Error`.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_PYTHON_SESSION_H
#define KTFLOW_PYTHON_SESSION_H

#include "ktflow/Support/ModuleLoader.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace ktflow::python {

/// A diagnostic with its location, as `ktflow.Error.diagnostics` lists it.
struct LocatedDiagnostic {
  std::string severity;
  /// Empty (and line, column 0) for a diagnostic without a file location.
  std::string file;
  unsigned line = 0, column = 0;
  std::string message;
  std::vector<LocatedDiagnostic> notes;
};

/// What `ktflow.Error` carries: the text the command line would print, each
/// located diagnostic, and the exit status the command line would give.
struct Failure {
  std::string message;
  std::vector<LocatedDiagnostic> diagnostics;
  int status = 1;
};

/// A kernel or device given to the package: a file, or MLIR text.
struct Source {
  bool isText = false;
  /// The path, or the text.
  std::string value;
  /// What diagnostics name text by ("<kernel>").
  std::string name;
};

class Session {
public:
  Session();
  ~Session();

  mlir::MLIRContext &getContext() { return context; }
  ModuleLoader &getLoader() { return loader; }

  /// Loads `source`; throws a Failure with its diagnostics on error.
  mlir::OwningOpRef<mlir::ModuleOp> load(const Source &source);

  /// Throws a Failure: `error`'s message (with its exit status, for a
  /// StatusError) after the diagnostics reported so far.
  [[noreturn]] void fail(llvm::Error error);

private:
  void record(mlir::Diagnostic &diagnostic);

  mlir::DialectRegistry registry;
  mlir::MLIRContext context;
  std::string text;
  llvm::raw_string_ostream textStream;
  ModuleLoader loader;
  std::mutex mutex;
  std::vector<LocatedDiagnostic> diagnostics;
  mlir::DiagnosticEngine::HandlerID recorder;
};

/// Runs `work` on a thread with a kLargeStackBytes stack (deeply nested
/// input must not overflow Python's), without holding Python's lock, and
/// rethrows what it threw. `work` must not touch Python objects.
void runOffThread(const std::function<void()> &work);

} // namespace ktflow::python

#endif // KTFLOW_PYTHON_SESSION_H
