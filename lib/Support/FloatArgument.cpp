//===- FloatArgument.cpp - The value of a float scalar argument -----------===//
//
// This file implements the reading of `--arg NAME=VALUE` for float scalar
// arguments, shared by the runtime and the interpreter.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Support/FloatArgument.h"

#include "llvm/ADT/APInt.h"
#include "llvm/Support/Error.h"

using namespace llvm;

std::optional<double>
ktflow::parseFloatArgument(StringRef text, const fltSemantics &semantics) {
  unsigned bits = APFloat::getSizeInBits(semantics);
  StringRef digits = text;
  // A bit pattern: 0x and hex digits only (0x1.8p3 is a hex float).
  if ((digits.consume_front("0x") || digits.consume_front("0X")) &&
      !digits.empty() &&
      digits.find_first_not_of("0123456789abcdefABCDEF") == StringRef::npos) {
    APInt pattern;
    if (digits.getAsInteger(16, pattern) || pattern.getActiveBits() > bits)
      return std::nullopt;
    APFloat value(semantics, pattern.zextOrTrunc(bits));
    bool lost = false;
    value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
    return value.convertToDouble();
  }
  if (text.empty())
    return std::nullopt;
  APFloat value(semantics);
  Expected<APFloat::opStatus> status =
      value.convertFromString(text, APFloat::rmNearestTiesToEven);
  if (!status) {
    consumeError(status.takeError());
    return std::nullopt;
  }
  if (*status & APFloat::opOverflow)
    return std::nullopt;
  bool lost = false;
  value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return value.convertToDouble();
}
