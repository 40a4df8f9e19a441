# -*- Python -*-
# lit configuration for ktflow's tests.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "KTFLOW"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs", "CMakeLists.txt", "lib"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ktflow_obj_root, "test")

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
llvm_config.use_default_substitutions()

tool_dirs = [config.ktflow_tools_dir, config.llvm_tools_dir]
tools = ["ktflow", "ktflow-opt", "ktflow-lsp-server"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
