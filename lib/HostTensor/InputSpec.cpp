//===- InputSpec.cpp - How an input tensor is filled ----------------------===//
//
// This file implements the parser of `--input` specs.
//
//===----------------------------------------------------------------------===//

#include "ktflow/HostTensor/InputSpec.h"

#include "ktflow/HostTensor/Npy.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace ktflow::host;
using llvm::StringRef;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

InputData::InputData(Tensor tensor)
    : cameNative(false), elementType(tensor.dtype), dims(tensor.shape),
      asTensor(std::move(tensor)) {}

InputData::InputData(NativeTensor native)
    : cameNative(true), elementType(native.getDType()), dims(native.getShape()),
      asNative(std::move(native)) {}

double InputData::getDouble(int64_t i) const {
  return cameNative ? asNative->getDouble(i) : asTensor->getDouble(i);
}

int64_t InputData::getInt(int64_t i) const {
  return cameNative ? asNative->getInt(i) : asTensor->getInt(i);
}

void InputData::readDoubles(int64_t first, int64_t n, double *out) const {
  int64_t end = std::clamp<int64_t>(numElements() - first, 0, n);
  if (!cameNative && isFloat(elementType)) {
    std::copy_n(asTensor->floats.data() + first, end, out);
  } else {
    for (int64_t i = 0; i < end; ++i)
      out[i] = getDouble(first + i);
  }
  std::fill(out + end, out + n, 0.0);
}

bool InputData::roundsToItself(DType dtype) const {
  if (dtype != elementType || !isFloat(dtype))
    return false;
  std::call_once(roundingChecked, [&] {
    // On the heap: an interpreter tile's stack is small.
    constexpr int64_t kChunk = 4096;
    std::vector<double> values(kChunk), roundedValues(kChunk);
    int64_t n = numElements();
    rounded = true;
    for (int64_t first = 0; first < n && rounded; first += kChunk) {
      int64_t count = std::min(kChunk, n - first);
      readDoubles(first, count, values.data());
      std::copy_n(values.data(), count, roundedValues.data());
      roundArray(dtype, roundedValues.data(), count);
      rounded = std::memcmp(values.data(), roundedValues.data(),
                            count * sizeof(double)) == 0;
    }
  });
  return rounded;
}

const Tensor &InputData::tensor() const {
  std::call_once(tensorMade, [&] {
    if (!asTensor)
      asTensor = asNative->toTensor();
  });
  return *asTensor;
}

const NativeTensor &InputData::native() const {
  std::call_once(nativeMade, [&] {
    if (!asNative)
      asNative = NativeTensor::fromTensor(*asTensor);
  });
  return *asNative;
}

InputSpec InputSpec::fromTensor(Tensor t) {
  InputSpec spec;
  spec.kind = Kind::Data;
  spec.data = std::make_shared<const InputData>(std::move(t));
  return spec;
}

InputSpec InputSpec::fromNative(NativeTensor t) {
  InputSpec spec;
  spec.kind = Kind::Data;
  spec.data = std::make_shared<const InputData>(std::move(t));
  return spec;
}

llvm::Expected<InputSpec> InputSpec::parse(StringRef text) {
  InputSpec spec;
  if (text == "random") {
    spec.kind = Kind::Uniform;
  } else if (text == "randn") {
    spec.kind = Kind::Normal;
  } else if (text == "zeros") {
    spec.kind = Kind::Zeros;
  } else if (text.consume_front("value:")) {
    spec.kind = Kind::Value;
    // to_float takes "" for 0.
    if (text.trim().empty() || !llvm::to_float(text, spec.value))
      return makeError("invalid value in 'value:" + text + "'");
  } else if (text.starts_with("range:") || text.starts_with("seq:")) {
    auto [kind, bounds] = text.split(':');
    spec.kind = kind == "seq" ? Kind::Sequence : Kind::Range;
    auto [lo, hi] = bounds.split(':');
    if (lo.getAsInteger(10, spec.lo) || hi.getAsInteger(10, spec.hi) ||
        spec.lo >= spec.hi)
      return makeError("invalid '" + text + "' (expected " + kind +
                       ":LO:HI with LO < HI, both 64-bit integers)");
  } else if (text.ends_with(".npy")) {
    llvm::Expected<NativeTensor> tensor = readNpyFileNative(text);
    if (!tensor)
      return tensor.takeError();
    return fromNative(std::move(*tensor));
  } else {
    return makeError("invalid input '" + text +
                     "' (expected FILE.npy, random, randn, zeros, value:V, "
                     "range:LO:HI or seq:LO:HI)");
  }
  return spec;
}

std::string InputSpec::str() const {
  switch (kind) {
  case Kind::Default:
    return "default";
  case Kind::Zeros:
    return "zeros";
  case Kind::Value: {
    char text[32];
    std::snprintf(text, sizeof text, "value:%.17g", value);
    return text;
  }
  case Kind::Uniform:
    return "random";
  case Kind::Normal:
    return "randn";
  case Kind::Range:
  case Kind::Sequence:
    return (kind == Kind::Range ? "range:" : "seq:") + std::to_string(lo) +
           ":" + std::to_string(hi);
  case Kind::Data:
    return "data";
  }
  llvm_unreachable("unknown input spec kind");
}
