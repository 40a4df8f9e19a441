//===- Session.cpp - One call of the Python package into ktflow -----------===//
//
// This file implements the context, the kept diagnostics and the worker
// thread of a call from Python.
//
//===----------------------------------------------------------------------===//

#include "Session.h"

#include "ktflow/Registration/Registration.h"
#include "ktflow/Support/ExitStatus.h"
#include "ktflow/Support/LargeStack.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/thread.h"

#include <pybind11/pybind11.h>

using namespace ktflow;
using namespace ktflow::python;

static mlir::DialectRegistry &withAllDialects(mlir::DialectRegistry &registry) {
  registerAllDialects(registry);
  return registry;
}

Session::Session()
    : context(withAllDialects(registry)), textStream(text),
      loader(context, textStream) {
  context.printOpOnDiagnostic(false);
  // Registered after the loader's handler, so it sees each diagnostic first
  // and passes it on to be printed into `text`.
  recorder = context.getDiagEngine().registerHandler(
      [this](mlir::Diagnostic &diagnostic) {
        record(diagnostic);
        return mlir::failure();
      });
}

Session::~Session() { context.getDiagEngine().eraseHandler(recorder); }

static LocatedDiagnostic locate(mlir::Diagnostic &diagnostic) {
  LocatedDiagnostic located;
  switch (diagnostic.getSeverity()) {
  case mlir::DiagnosticSeverity::Error:
    located.severity = "error";
    break;
  case mlir::DiagnosticSeverity::Warning:
    located.severity = "warning";
    break;
  case mlir::DiagnosticSeverity::Note:
    located.severity = "note";
    break;
  case mlir::DiagnosticSeverity::Remark:
    located.severity = "remark";
    break;
  }
  if (auto loc = diagnostic.getLocation()->findInstanceOf<mlir::FileLineColLoc>()) {
    located.file = loc.getFilename().str();
    located.line = loc.getLine();
    located.column = loc.getColumn();
  }
  located.message = diagnostic.str();
  for (mlir::Diagnostic &note : diagnostic.getNotes())
    located.notes.push_back(locate(note));
  return located;
}

void Session::record(mlir::Diagnostic &diagnostic) {
  std::lock_guard<std::mutex> lock(mutex);
  diagnostics.push_back(locate(diagnostic));
}

mlir::OwningOpRef<mlir::ModuleOp> Session::load(const Source &source) {
  mlir::OwningOpRef<mlir::ModuleOp> module =
      source.isText ? loader.loadText(source.value, source.name)
                    : loader.load(source.value);
  if (!module)
    fail(reportedError());
  return module;
}

void Session::fail(llvm::Error error) {
  Failure failure;
  llvm::handleAllErrors(
      std::move(error),
      [&](const StatusError &e) {
        failure.status = e.getStatus();
        if (!e.getMessage().empty())
          textStream << "ktflow: error: " << e.getMessage() << "\n";
      },
      [&](const llvm::ErrorInfoBase &e) {
        textStream << "ktflow: error: " << e.message() << "\n";
      });
  std::lock_guard<std::mutex> lock(mutex);
  failure.message = llvm::StringRef(text).rtrim().str();
  failure.diagnostics = diagnostics;
  throw failure;
}

void ktflow::python::runOffThread(const std::function<void()> &work) {
  std::exception_ptr thrown;
  {
    pybind11::gil_scoped_release release;
    llvm::thread worker(std::optional<unsigned>(kLargeStackBytes), [&] {
      try {
        work();
      } catch (...) {
        thrown = std::current_exception();
      }
    });
    worker.join();
  }
  if (thrown)
    std::rethrow_exception(thrown);
}
