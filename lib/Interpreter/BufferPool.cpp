//===- BufferPool.cpp - Element buffers reused across ops and runs --------===//
//
// This file implements the per-thread buffer pool of BufferPool.h. A
// request takes the smallest pooled buffer that holds it, if that wastes
// no more than its own size; buffers under kMinPooled elements are not
// worth keeping.
//
//===----------------------------------------------------------------------===//

#include "BufferPool.h"

#include <map>

using namespace ktflow::interp;

namespace {
/// Smaller buffers are left to the allocator.
constexpr size_t kMinPooled = 16;

/// Set when this thread's pools are destroyed (it is exiting): later
/// buffers are freed. Trivially destructible, so valid until then.
thread_local bool poolsGone = false;

template <typename T> struct Pool {
  /// Pooled buffers by capacity: a request finds the smallest that holds
  /// it in log time however many buffers the pool keeps (a run of many
  /// live tiles gives back thousands).
  std::multimap<size_t, std::vector<T>> buffers;
  size_t bytes = 0;

  ~Pool() { poolsGone = true; }

  /// An empty buffer with room for `n`, pooled when one fits.
  std::vector<T> reuse(size_t n) {
    std::vector<T> buffer;
    auto best = buffers.lower_bound(n);
    if (best != buffers.end() && best->first <= 2 * n) {
      buffer = std::move(best->second);
      buffers.erase(best);
      bytes -= buffer.capacity() * sizeof(T);
      buffer.clear();
    }
    return buffer;
  }

  void clear() {
    buffers.clear();
    bytes = 0;
  }

  void give(std::vector<T> &buffer) {
    size_t capacity = buffer.capacity();
    size_t size = capacity * sizeof(T);
    if (capacity >= kMinPooled && bytes + size <= kMaxPooledBytes) {
      bytes += size;
      buffers.emplace(capacity, std::move(buffer));
    }
    std::vector<T>().swap(buffer);
  }
};

thread_local Pool<double> floatPool;
thread_local Pool<int64_t> intPool;

/// Gives a tensor's storage back to the pools when it is deleted.
struct ReturnStorage {
  void operator()(Tensor *tensor) const {
    giveBuffer(tensor->floats);
    giveBuffer(tensor->ints);
    delete tensor;
  }
};
} // namespace

template <typename T> static Pool<T> *pool();
template <> Pool<double> *pool() { return poolsGone ? nullptr : &floatPool; }
template <> Pool<int64_t> *pool() { return poolsGone ? nullptr : &intPool; }

/// A buffer holding [first, last), or `n` zeros when `first` is null.
template <typename T>
static std::vector<T> take(size_t n, const T *first = nullptr) {
  std::vector<T> buffer;
  if (Pool<T> *p = pool<T>())
    buffer = p->reuse(n);
  if (first)
    buffer.assign(first, first + n);
  else
    buffer.assign(n, T(0));
  return buffer;
}

template <typename T> static void give(std::vector<T> &buffer) {
  if (Pool<T> *p = pool<T>())
    p->give(buffer);
}

std::vector<double> ktflow::interp::takeZeroFloats(size_t n) {
  return take<double>(n);
}

std::vector<int64_t> ktflow::interp::takeZeroInts(size_t n) {
  return take<int64_t>(n);
}

void ktflow::interp::giveBuffer(std::vector<double> &buffer) { give(buffer); }

void ktflow::interp::giveBuffer(std::vector<int64_t> &buffer) { give(buffer); }

void ktflow::interp::clearBufferPool() {
  if (poolsGone)
    return;
  floatPool.clear();
  intPool.clear();
}

std::shared_ptr<Tensor>
ktflow::interp::makeZeroTensor(DType dtype, llvm::ArrayRef<int64_t> shape) {
  auto *tensor = new Tensor;
  tensor->dtype = dtype;
  tensor->shape.assign(shape.begin(), shape.end());
  size_t n = static_cast<size_t>(productOf(shape));
  if (isFloat(dtype))
    tensor->floats = take<double>(n);
  else
    tensor->ints = take<int64_t>(n);
  return std::shared_ptr<Tensor>(tensor, ReturnStorage());
}

std::shared_ptr<Tensor> ktflow::interp::makeTensorCopy(const Tensor &source) {
  auto *tensor = new Tensor;
  tensor->dtype = source.dtype;
  tensor->shape = source.shape;
  if (!source.floats.empty())
    tensor->floats = take(source.floats.size(), source.floats.data());
  if (!source.ints.empty())
    tensor->ints = take(source.ints.size(), source.ints.data());
  return std::shared_ptr<Tensor>(tensor, ReturnStorage());
}
