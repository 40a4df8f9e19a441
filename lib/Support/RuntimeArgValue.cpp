//===- RuntimeArgValue.cpp - What a runtime_arg value must be -------------===//

#include "ktflow/Support/RuntimeArgValue.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace llvm;

static std::string show(int64_t value) { return std::to_string(value); }
static std::string show(double value) {
  std::string text;
  raw_string_ostream(text) << format("%g", value);
  return text;
}

static bool isMultiple(int64_t value, int64_t granularity) {
  return value % granularity == 0;
}
static bool isMultiple(double value, int64_t granularity) {
  return std::fmod(value, static_cast<double>(granularity)) == 0;
}

template <typename T>
static Error check(StringRef name, T value, std::optional<int64_t> granularity,
                   std::optional<int64_t> upperbound) {
  auto error = [&](const Twine &what) {
    return createStringError("runtime argument '" + name + "' = " +
                             show(value) + " " + what);
  };
  // `!(value > 0)` also refuses NaN.
  if (!(value > 0))
    return error("must be positive");
  if (granularity && !isMultiple(value, *granularity))
    return error("is not a multiple of its granularity " +
                 Twine(*granularity));
  if (upperbound && value > static_cast<T>(*upperbound))
    return error("exceeds its upperbound " + Twine(*upperbound));
  return Error::success();
}

Error ktflow::checkRuntimeArgValue(StringRef name, int64_t value,
                                   std::optional<int64_t> granularity,
                                   std::optional<int64_t> upperbound) {
  return check(name, value, granularity, upperbound);
}

Error ktflow::checkRuntimeArgValue(StringRef name, double value,
                                   std::optional<int64_t> granularity,
                                   std::optional<int64_t> upperbound) {
  return check(name, value, granularity, upperbound);
}
