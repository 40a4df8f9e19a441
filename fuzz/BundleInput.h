//===- BundleInput.h - A fuzz input as a bundle with a valid seal -*- C++ -*-=//
//
// The bundle harnesses (FuzzBundle.cpp, FuzzSimulator.cpp) take a whole
// bundle file as input, seeded with bundles the compiler wrote. A mutated
// payload would almost never match the header's size and xxh3 checksum,
// and the fuzzer would only ever test the checksum check, so the harnesses
// first rewrite those two header fields to match the payload: every
// mutation then reaches the section decoder, the linker and the simulator
// (docs/bundle-format.md: header offsets 16 and 24).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_FUZZ_BUNDLEINPUT_H
#define KTFLOW_FUZZ_BUNDLEINPUT_H

#include "llvm/Support/Endian.h"
#include "llvm/Support/xxhash.h"

#include <cstdint>
#include <vector>

namespace ktflow::fuzz {

/// `data` with the header's payload size and checksum made to match.
inline std::vector<uint8_t> sealBundle(const uint8_t *data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  constexpr size_t kHeader = 32;
  if (bytes.size() < kHeader)
    return bytes;
  llvm::ArrayRef<uint8_t> payload(bytes.data() + kHeader,
                                  bytes.size() - kHeader);
  llvm::support::endian::write64le(bytes.data() + 16, payload.size());
  llvm::support::endian::write64le(bytes.data() + 24,
                                   llvm::xxh3_64bits(payload));
  return bytes;
}

} // namespace ktflow::fuzz

#endif // KTFLOW_FUZZ_BUNDLEINPUT_H
