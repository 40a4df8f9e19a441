# Sourced (not run) by the scripts that run ktflow built with ASan+UBSan
# (scripts/build-sanitized.sh; docs/contributing.md, "Sanitizers"): the
# runtime options every sanitized run uses, unless the caller set its own.
# - ASan: leak checking on, with LLVM's static objects suppressed by name
#   (scripts/lsan.supp), and a failing check ends the process with a report.
#   allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons and unpoisons
#   its slabs in header code, which our instrumented code runs and Debian's
#   uninstrumented libMLIR does not; memory one copy poisoned and the other
#   handed out gave false use-after-poison reports in MLIR's attribute
#   storage (every fuzz harness, on its first device seed).
# - UBSan: a stack trace with every report; the build already makes every
#   check fatal (-fno-sanitize-recover=all, LLVM's UBSan flags).
_ktflow_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allow_user_poisoning=0}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$_ktflow_root/scripts/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
unset _ktflow_root
