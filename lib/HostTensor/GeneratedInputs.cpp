//===- GeneratedInputs.cpp - The values of generated inputs ---------------===//
//
// This file implements the generator of input values: a counter-based
// generator keyed by (seed, tensor, element index), so a tensor generated
// page by page, or in another order, gets the same values as one generated
// whole.
//
//===----------------------------------------------------------------------===//

#include "ktflow/HostTensor/GeneratedInputs.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace ktflow::host;

static uint64_t splitMix(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// Uniform in [0, 1) for (stream, index, salt).
static double uniform01(uint64_t stream, int64_t index, uint64_t salt) {
  uint64_t key = splitMix(stream * 0x632be59bd9b4e019ull + salt);
  uint64_t bits = splitMix(key ^ static_cast<uint64_t>(index));
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

uint64_t ktflow::host::inputStream(uint64_t seed, InputIdentity who) {
  return splitMix(seed) ^ splitMix(who.key());
}

void ktflow::host::resolveDefaultSpec(InputSpec &spec, bool storeOnly) {
  if (spec.kind == InputSpec::Kind::Default)
    spec.kind = storeOnly ? InputSpec::Kind::Zeros : InputSpec::Kind::Uniform;
}

double ktflow::host::initialFloat(const InputSpec &spec, uint64_t stream,
                                  int64_t index, DType dtype) {
  double v = 0;
  switch (spec.kind) {
  case InputSpec::Kind::Default:
  case InputSpec::Kind::Zeros:
    return 0.0;
  case InputSpec::Kind::Value:
    v = spec.value;
    break;
  case InputSpec::Kind::Uniform:
    v = -1.0 + 2.0 * uniform01(stream, index, 1);
    // Rounding to a narrow type may reach 1.0; keep the interval half-open.
    if (dtype != DType::F64 && roundToDType(v, dtype) >= 1.0)
      v = -v;
    break;
  case InputSpec::Kind::Normal: {
    double u1 = uniform01(stream, index, 2);
    double u2 = uniform01(stream, index, 3);
    v = std::sqrt(-2.0 * std::log1p(-u1)) * std::cos(2.0 * M_PI * u2);
    break;
  }
  case InputSpec::Kind::Range:
  case InputSpec::Kind::Sequence:
    v = static_cast<double>(initialInt(spec, stream, index, DType::I64));
    break;
  case InputSpec::Kind::Data:
    v = index < spec.data->numElements() ? spec.data->getDouble(index) : 0.0;
    break;
  }
  return roundToDType(v, dtype);
}

int64_t ktflow::host::initialInt(const InputSpec &spec, uint64_t stream,
                                 int64_t index, DType dtype) {
  int64_t v = 0;
  switch (spec.kind) {
  case InputSpec::Kind::Default:
  case InputSpec::Kind::Zeros:
    return 0;
  case InputSpec::Kind::Value:
    v = static_cast<int64_t>(spec.value);
    break;
  case InputSpec::Kind::Uniform:
    // [-1, 1) truncated would be all zeros: small integers of both signs,
    // from the float generator's draw.
    v = static_cast<int64_t>(std::floor(uniform01(stream, index, 1) * 17)) - 8;
    break;
  case InputSpec::Kind::Normal:
    // Integer tensors get the float generator's value truncated.
    v = static_cast<int64_t>(initialFloat(spec, stream, index, DType::F64));
    break;
  case InputSpec::Kind::Range:
  case InputSpec::Kind::Sequence: {
    // In uint64_t: hi - lo and lo + offset may not fit in int64_t.
    uint64_t span =
        static_cast<uint64_t>(spec.hi) - static_cast<uint64_t>(spec.lo);
    uint64_t offset = static_cast<uint64_t>(index) % span;
    if (spec.kind == InputSpec::Kind::Range) {
      // double(span) may round up to 2^64: keep the offset below span.
      double u = uniform01(stream, index, 4);
      offset = std::min(static_cast<uint64_t>(u * static_cast<double>(span)),
                        span - 1);
    }
    v = static_cast<int64_t>(static_cast<uint64_t>(spec.lo) + offset);
    break;
  }
  case InputSpec::Kind::Data:
    v = index < spec.data->numElements() ? spec.data->getInt(index) : 0;
    break;
  }
  return wrapInt(v, dtype);
}

uint64_t ktflow::host::initialBits(const InputSpec &spec, uint64_t stream,
                                   int64_t index, DType dtype) {
  if (!isFloat(dtype))
    return zeroExtend(initialInt(spec, stream, index, dtype), dtype);
  return floatToBits(initialFloat(spec, stream, index, dtype), dtype);
}

void ktflow::host::initialBytes(const InputSpec &spec, uint64_t stream,
                                int64_t first, int64_t count, DType dtype,
                                uint8_t *out) {
  unsigned width = byteSize(dtype);
  for (int64_t i = 0; i < count; ++i) {
    uint64_t bits = initialBits(spec, stream, first + i, dtype);
    std::memcpy(out + i * width, &bits, width);
  }
}

void ktflow::host::initialFloats(const InputSpec &spec, uint64_t stream,
                                 int64_t first, int64_t n, DType dtype,
                                 double *out) {
  if (spec.kind == InputSpec::Kind::Data) {
    // Read in one pass from the data every run shares (--check's runs),
    // rounded unless that is known to change nothing.
    spec.data->readDoubles(first, n, out);
    if (!spec.data->roundsToItself(dtype))
      roundArray(dtype, out, n);
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    out[i] = initialFloat(spec, stream, first + i, DType::F64);
  roundArray(dtype, out, n);
  // Rounding may reach 1.0: keep `random` in [-1, 1), as initialFloat does.
  if (spec.kind == InputSpec::Kind::Uniform)
    for (int64_t i = 0; i < n; ++i)
      if (out[i] >= 1.0)
        out[i] = -out[i];
}

Tensor ktflow::host::generateTensor(const InputSpec &spec, uint64_t stream,
                                    DType dtype,
                                    llvm::ArrayRef<int64_t> shape) {
  Tensor t = Tensor::zeros(dtype, shape);
  int64_t n = t.numElements();
  if (isFloat(dtype))
    initialFloats(spec, stream, 0, n, dtype, t.floats.data());
  else
    for (int64_t i = 0; i < n; ++i)
      t.ints[i] = initialInt(spec, stream, i, dtype);
  return t;
}
