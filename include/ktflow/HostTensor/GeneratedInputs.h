//===- GeneratedInputs.h - The values of generated inputs -------*- C++ -*-===//
//
// This file declares the one generator of input values every command uses
// (`ktflow run`, `sim`, `interp` on both engines, `compile --tune`): for a
// given `--seed`, an input spec (random, randn, range:LO:HI, ...) and the
// identity of the tensor it fills, element i's value is a function of
// (seed, identity, i) only. Each tensor draws from its own stream, so the
// commands agree whatever order they fill tensors in, and giving another
// tensor an input changes nothing in this one.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_HOSTTENSOR_GENERATEDINPUTS_H
#define KTFLOW_HOSTTENSOR_GENERATEDINPUTS_H

#include "ktflow/HostTensor/InputSpec.h"
#include "ktflow/HostTensor/Tensor.h"

#include <cstdint>

namespace ktflow::host {

/// Whose initial contents a generated tensor is: a tensor argument of the
/// kernel (by position, the one thing every command knows of it) or the
/// memory at a literal address.
class InputIdentity {
public:
  static InputIdentity argument(unsigned position) {
    return InputIdentity(uint64_t(position) + 1);
  }
  static InputIdentity address(int64_t address) {
    return InputIdentity(static_cast<uint64_t>(address) ^ (uint64_t(1) << 63));
  }
  uint64_t key() const { return value; }

private:
  explicit InputIdentity(uint64_t value) : value(value) {}
  uint64_t value;
};

/// The stream of the tensor `who` under `seed`, which the functions below
/// take.
uint64_t inputStream(uint64_t seed, InputIdentity who);

/// Resolves a Default spec: zeros for a tensor the kernel only stores
/// into, else `random` (uniform in [-1, 1) for floats, integers in
/// [-8, 8]).
void resolveDefaultSpec(InputSpec &spec, bool storeOnly);

/// Element `index` of a tensor of `dtype` filled by `spec` from `stream`
/// (a Data spec gives its element, 0 past its end). A Default spec gives
/// zeros: resolve it first.
double initialFloat(const InputSpec &spec, uint64_t stream, int64_t index,
                    DType dtype);
int64_t initialInt(const InputSpec &spec, uint64_t stream, int64_t index,
                   DType dtype);
/// The same in the bits of `dtype`.
uint64_t initialBits(const InputSpec &spec, uint64_t stream, int64_t index,
                     DType dtype);
/// Elements [first, first + count) in the bits of `dtype`, packed into
/// `out` (byteSize(dtype) bytes each): what initialBits gives, for filling
/// device memory lazily, page by page, without a host tensor.
void initialBytes(const InputSpec &spec, uint64_t stream, int64_t first,
                  int64_t count, DType dtype, uint8_t *out);
/// Float elements [first, first + n) as initialFloat gives them, computed in
/// double and rounded to `dtype` in one pass (a Data spec's read in one
/// pass, 0 past its end).
void initialFloats(const InputSpec &spec, uint64_t stream, int64_t first,
                   int64_t n, DType dtype, double *out);

/// A whole tensor of `dtype` and `shape` filled by `spec` (not Data) from
/// `stream`.
Tensor generateTensor(const InputSpec &spec, uint64_t stream, DType dtype,
                      llvm::ArrayRef<int64_t> shape);

} // namespace ktflow::host

#endif // KTFLOW_HOSTTENSOR_GENERATEDINPUTS_H
