//===- BufferPool.h - Element buffers reused across ops and runs -*- C++
//-*-===//
//
// This file declares the pool of element buffers the interpreter's tensors
// and linalg column buffers take their storage from and give it back to:
// a kernel creates the same shapes at every tile, loop iteration and run,
// and a freed buffer is the next one's storage instead of fresh memory
// (under AddressSanitizer, whose quarantine never hands a freed chunk out
// again soon, every allocation was new pages to fault in and fill). A
// buffer is handed out zero-filled, as a fresh one would be; the pool is
// per thread and keeps at most kMaxPooledBytes.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_INTERPRETER_BUFFERPOOL_H
#define KTFLOW_LIB_INTERPRETER_BUFFERPOOL_H

#include "HostTypes.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ktflow::interp {

/// The most bytes of buffers a thread's pool keeps.
inline constexpr size_t kMaxPooledBytes = size_t(64) << 20;

/// `n` zeros, in a pooled buffer when one fits.
std::vector<double> takeZeroFloats(size_t n);
std::vector<int64_t> takeZeroInts(size_t n);
/// Gives `buffer`'s storage to the pool (or frees it); leaves it empty.
void giveBuffer(std::vector<double> &buffer);
void giveBuffer(std::vector<int64_t> &buffer);

/// Frees every buffer the thread's pool keeps.
void clearBufferPool();

/// Tensor::zeros(dtype, shape), whose storage goes back to the pool when
/// the last reference goes.
std::shared_ptr<Tensor> makeZeroTensor(DType dtype,
                                       llvm::ArrayRef<int64_t> shape);
/// A copy of `tensor`, likewise.
std::shared_ptr<Tensor> makeTensorCopy(const Tensor &tensor);

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERPRETER_BUFFERPOOL_H
