//===- PhaseTimer.h - Where a compile or a run of the tier goes -*- C++ -*-===//
//
// KTFLOW_JIT_TIMING=1 makes the tier print, phase by phase, the wall time
// and what the whole process spent meanwhile: user and system CPU time
// (the kernel's page zeroing and faults are system time) and minor page
// faults. A run's wall time beyond its CPU time divided by its threads is
// waiting: for a core on a loaded machine, or for the slowest task.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CPUJIT_PHASETIMER_H
#define KTFLOW_LIB_CPUJIT_PHASETIMER_H

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>

#include <sys/resource.h>

namespace ktflow::jit {

/// Prints how long each phase took, when KTFLOW_JIT_TIMING is set.
class PhaseTimer {
public:
  PhaseTimer() {
    static const bool timing = std::getenv("KTFLOW_JIT_TIMING") != nullptr;
    enabled = timing;
    if (enabled)
      last = sample();
  }
  bool isEnabled() const { return enabled; }
  void end(llvm::StringRef phase) {
    if (!enabled)
      return;
    Sample now = sample();
    llvm::errs() << "ktflow: jit: " << phase << ": "
                 << llvm::format("%.1f ms (process: %.1f ms user, %.1f ms "
                                 "system, %ld minor faults)",
                                 now.wall - last.wall, now.user - last.user,
                                 now.system - last.system,
                                 now.faults - last.faults)
                 << "\n";
    last = now;
  }

private:
  struct Sample {
    double wall = 0, user = 0, system = 0;
    long faults = 0;
  };
  static double millis(const timeval &t) {
    return t.tv_sec * 1e3 + t.tv_usec * 1e-3;
  }
  static Sample sample() {
    Sample s;
    s.wall = std::chrono::duration<double, std::milli>(
                 std::chrono::steady_clock::now().time_since_epoch())
                 .count();
    rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) == 0) {
      s.user = millis(usage.ru_utime);
      s.system = millis(usage.ru_stime);
      s.faults = usage.ru_minflt;
    }
    return s;
  }

  bool enabled = false;
  Sample last;
};

} // namespace ktflow::jit

#endif // KTFLOW_LIB_CPUJIT_PHASETIMER_H
