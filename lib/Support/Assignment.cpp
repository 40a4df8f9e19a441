//===- Assignment.cpp - NAME=VALUE options of the commands ----------------===//
//
// This file implements the parser of `NAME=VALUE` option text.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Support/Assignment.h"

using namespace llvm;

Expected<ktflow::Assignment> ktflow::parseAssignment(StringRef text,
                                                     StringRef flag) {
  auto [name, value] = text.split('=');
  if (name.empty() || value.empty())
    return createStringError("--" + flag + " expects NAME=VALUE, got '" + text +
                             "'");
  return Assignment{name, value};
}
