//===- LargeStack.cpp - Run a tool on a thread with a large stack ---------===//

#include "ktflow/Support/LargeStack.h"

#include "llvm/Support/thread.h"

int ktflow::runOnLargeStack(llvm::function_ref<int()> body) {
  int result = 1;
  llvm::thread worker(std::optional<unsigned>(kLargeStackBytes),
                      [&] { result = body(); });
  worker.join();
  return result;
}
