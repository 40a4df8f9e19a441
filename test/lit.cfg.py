# -*- Python -*-
# lit configuration for ktflow's tests.

import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "KTFLOW"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs", "CMakeLists.txt", "lib"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ktflow_obj_root, "test")
# Order: lit starts the slowest tests first when it has their times, from
# the build tree's test/.lit_test_times.txt (every run writes it) or, in a
# tree that has none (a clean clone, CI's), from this directory's: the
# sanitized tree's wall seconds of the tests that took 2 s or more. By
# name, the sanitized suite ended on Tools/ktflow/tune/tune.test (36 s)
# with the other worker idle.

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%examples", os.path.join(config.ktflow_src_root, "examples")))
# The install test (test/Install) installs this build tree and builds a
# project against it with the same tools.
config.substitutions.append(("%ktflow_obj_root", config.ktflow_obj_root))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%cpack", config.cpack_command))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(("%python", config.python_executable))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])

# A sanitized tree (scripts/build-sanitized.sh) runs every tool with the
# runtime options of scripts/sanitizer-env.sh unless the caller set its own:
# leak checking on with LLVM's static objects suppressed, UBSan's reports
# with a stack trace. Reports go to files in sanitizer-logs/ of the tree,
# not to stderr: a test that expects a tool to fail (`not ktflow ...`) or
# ignores its status would pass over a report on stderr, and
# scripts/test.sh counts every file there as a failure.
if "asan" in config.available_features or "ubsan" in config.available_features:
    suppressions = os.path.join(config.ktflow_src_root, "scripts", "lsan.supp")
    log_path = os.path.join(config.ktflow_obj_root, "sanitizer-logs", "report")
    # Made here, before any tool starts: each sanitized process creates a
    # missing log directory at start-up, and two starting together race
    # (the loser dies with "Can't create directory", an empty output).
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    defaults = {
        "ASAN_OPTIONS": "detect_leaks=1:allow_user_poisoning=0",
        "LSAN_OPTIONS": "suppressions=%s:print_suppressions=0" % suppressions,
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
    }
    for name, value in defaults.items():
        value = os.environ.get(name, value)
        if name != "LSAN_OPTIONS":
            value += ":log_path=" + log_path
        config.environment[name] = value

# What runs the installed tree from outside it (test/Install): in a
# sanitized tree the consumer project links the sanitizer runtimes the
# installed libraries call, and python3, which does not link them, gets
# ASan's preloaded, leak checking off for that process alone (Python's own
# allocations outlive the interpreter by design; the same libraries are
# leak-checked in every tool run).
consumer_flags = ""
import_python = config.python_executable
if "asan" in config.available_features:
    consumer_flags = "'-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address -fsanitize=undefined'"
    runtime = subprocess.run(
        [config.cxx_compiler, "-print-file-name=libclang_rt.asan-x86_64.so"],
        capture_output=True, text=True, check=True).stdout.strip()
    options = config.environment["ASAN_OPTIONS"].replace("detect_leaks=1", "detect_leaks=0")
    import_python = "env LD_PRELOAD=%s ASAN_OPTIONS=%s %s" % (runtime, options, import_python)
config.substitutions.append(("%consumer_cmake_flags", consumer_flags))
config.substitutions.append(("%import_python", import_python))
llvm_config.use_default_substitutions()

tool_dirs = [config.ktflow_tools_dir, config.llvm_tools_dir]
tools = ["ktflow", "ktflow-opt", "ktflow-lsp-server"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# The check's results that do not depend on the device (the reference
# interpreter's outputs and reorder bounds, ktflow/Check/ReferenceCache.h)
# are shared by the `ktflow run --check` invocations of one lit run: most
# tests check one kernel with the same inputs on the three devices. The
# directory is emptied here, once per lit run, so that no entry outlives
# the run that wrote it (the key also holds the executable's size and
# modification time).
reference_cache = os.path.join(config.test_exec_root, "reference-cache")
shutil.rmtree(reference_cache, ignore_errors=True)
os.makedirs(reference_cache, exist_ok=True)
config.environment["KTFLOW_REFERENCE_CACHE"] = reference_cache
