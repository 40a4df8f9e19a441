//===- OutputFile.cpp - Write a tool's outputs, reporting I/O errors ------===//
//
// A raw_fd_ostream destroyed with an unreported error aborts the process, so
// every error is taken out of the stream (clear_error) once it is reported.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Support/OutputFile.h"

using namespace llvm;

Error ktflow::takeWriteError(raw_fd_ostream &os, StringRef name) {
  if (!os.has_error())
    return Error::success();
  std::error_code ec = os.error();
  os.clear_error();
  return createStringError(ec, "cannot write '%s': %s", name.str().c_str(),
                           ec.message().c_str());
}

Error ktflow::flushStdout() {
  outs().flush();
  return takeWriteError(outs(), "<stdout>");
}

Error ktflow::writeOutputFile(StringRef path,
                              function_ref<void(raw_ostream &)> write,
                              sys::fs::OpenFlags flags) {
  if (path == "-") {
    write(outs());
    return flushStdout();
  }
  std::error_code ec;
  raw_fd_ostream os(path, ec, flags);
  if (ec)
    return createStringError(ec, "cannot write '%s': %s", path.str().c_str(),
                             ec.message().c_str());
  write(os);
  os.close();
  return takeWriteError(os, path);
}
