//===- GeneratedPagesTest.cpp - Native tensors generated page by page -----===//
//
// This file tests tensors whose pages are generated as they are touched
// (GeneratedPages.h): touched elements hold the generator's values, a page
// is generated once however many threads fault on it at once, a store to an
// untouched page keeps the page's other values, only touched pages count
// against the budget, and a tensor written to a file holds every value.
//
//===----------------------------------------------------------------------===//

#include "ktflow/HostTensor/GeneratedPages.h"
#include "ktflow/HostTensor/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <cstring>
#include <sys/mman.h>
#include <thread>
#include <vector>

using namespace ktflow::host;

namespace {

constexpr int64_t kPageElements = (int64_t(1) << 16) / 4;

/// An i32 tensor whose element i is 3i + 1; counts the elements it made.
struct Counted {
  std::shared_ptr<std::atomic<int64_t>> generated =
      std::make_shared<std::atomic<int64_t>>(0);

  PageGenerator generator() const {
    return [generated = generated](int64_t first, int64_t count, uint8_t *out) {
      for (int64_t i = 0; i < count; ++i) {
        int32_t v = static_cast<int32_t>(3 * (first + i) + 1);
        std::memcpy(out + 4 * i, &v, 4);
      }
      generated->fetch_add(count);
    };
  }
};

int32_t element(const NativeTensor &t, int64_t i) {
  int32_t v;
  std::memcpy(&v, t.data() + 4 * i, 4);
  return v;
}

TEST(GeneratedPagesTest, LargeTensorCostsTheTouchedPages) {
  // 2^30 elements (4 GiB) of which three pages are read.
  Counted counted;
  auto budget = std::make_shared<PageBudget>(int64_t(1) << 20);
  llvm::Expected<NativeTensor> t =
      makeGeneratedTensor(DType::I32, {int64_t(1) << 15, int64_t(1) << 15},
                          counted.generator(), budget);
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  int64_t last = (int64_t(1) << 30) - 1;
  EXPECT_EQ(element(*t, 0), 1);
  EXPECT_EQ(element(*t, 12345678), 3 * 12345678 + 1);
  EXPECT_EQ(element(*t, last), static_cast<int32_t>(3 * last + 1));
  // One element when it was made, then one page each.
  EXPECT_EQ(counted.generated->load(), 1 + 3 * kPageElements);
  EXPECT_FALSE(budget->isExceeded());
}

TEST(GeneratedPagesTest, StoreToUntouchedPageKeepsItsOtherValues) {
  Counted counted;
  llvm::Expected<NativeTensor> t =
      makeGeneratedTensor(DType::I32, {4 * kPageElements}, counted.generator(),
                          std::make_shared<PageBudget>(int64_t(1) << 20));
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  int32_t stored = -7;
  std::memcpy(t->data() + 4 * (kPageElements + 5), &stored, 4);
  EXPECT_EQ(element(*t, kPageElements + 5), -7);
  EXPECT_EQ(element(*t, kPageElements + 4), 3 * (kPageElements + 4) + 1);
  EXPECT_EQ(element(*t, 2 * kPageElements - 1),
            3 * (2 * kPageElements - 1) + 1);
}

TEST(GeneratedPagesTest, ConcurrentFaultsGenerateAPageOnce) {
  Counted counted;
  int64_t pages = 64;
  llvm::Expected<NativeTensor> t = makeGeneratedTensor(
      DType::I32, {pages * kPageElements}, counted.generator(),
      std::make_shared<PageBudget>(int64_t(1) << 30));
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  // Every thread reads every page, starting at the same one.
  std::vector<std::thread> threads;
  std::vector<int64_t> wrong(8, 0);
  for (int thread = 0; thread < 8; ++thread)
    threads.emplace_back([&, thread] {
      for (int64_t page = 0; page < pages; ++page)
        for (int64_t i : {page * kPageElements + kPageElements - 1 - thread,
                          page * kPageElements + thread})
          wrong[thread] += element(*t, i) != static_cast<int32_t>(3 * i + 1);
    });
  for (std::thread &thread : threads)
    thread.join();
  for (int64_t w : wrong)
    EXPECT_EQ(w, 0);
  EXPECT_EQ(counted.generated->load(), 1 + pages * kPageElements);
}

TEST(GeneratedPagesTest, PagesPastTheBudgetAreReported) {
  Counted counted;
  auto budget = std::make_shared<PageBudget>(2 * 4 * kPageElements);
  llvm::Expected<NativeTensor> t = makeGeneratedTensor(
      DType::I32, {8 * kPageElements}, counted.generator(), budget);
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(element(*t, 0), 1);
  EXPECT_EQ(element(*t, 3 * kPageElements), 3 * 3 * kPageElements + 1);
  EXPECT_FALSE(budget->isExceeded());
  // The third page goes to the scratch page, which takes stores.
  int32_t stored = 5;
  std::memcpy(t->data() + 4 * 5 * kPageElements, &stored, 4);
  EXPECT_TRUE(budget->isExceeded());
  EXPECT_EQ(counted.generated->load(), 1 + 2 * kPageElements);
  // Freed pages make room again.
  auto other = makeGeneratedTensor(DType::I32, {kPageElements},
                                   counted.generator(), budget);
  ASSERT_TRUE(static_cast<bool>(other));
  *t = NativeTensor();
  EXPECT_EQ(element(*other, 7), 22);
}

TEST(GeneratedPagesTest, FileHoldsEveryValue) {
  Counted counted;
  int64_t n = 3 * kPageElements + 11;
  llvm::Expected<NativeTensor> t =
      makeGeneratedTensor(DType::I32, {n}, counted.generator(),
                          std::make_shared<PageBudget>(int64_t(1) << 20));
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(element(*t, kPageElements), 3 * kPageElements + 1);
  llvm::SmallString<128> path;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("generated-pages", "npy", path));
  generateUntouchedPages(*t);
  ASSERT_FALSE(static_cast<bool>(writeNpyFile(path, *t)));
  llvm::Expected<NativeTensor> back = readNpyFileNative(path);
  llvm::sys::fs::remove(path);
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  ASSERT_EQ(back->numElements(), n);
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(element(*back, i), static_cast<int32_t>(3 * i + 1)) << i;
}

TEST(GeneratedPagesTest, OtherFaultsStillCrash) {
  Counted counted;
  llvm::Expected<NativeTensor> t =
      makeGeneratedTensor(DType::I32, {kPageElements}, counted.generator(),
                          std::make_shared<PageBudget>(int64_t(1) << 20));
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  void *guard =
      ::mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(guard, MAP_FAILED);
  EXPECT_DEATH({ *static_cast<volatile int *>(guard) = element(*t, 1); }, "");
  ::munmap(guard, 4096);
}

} // namespace
