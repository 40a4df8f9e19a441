//===- LaunchBinding.h - Bind and read a launch by tensor names -*- C++ -*-===//
//
// This file declares how `ktflow sim` binds one launch of a program bundle
// from command-line assignments (`--arg NAME=VALUE`, `--input NAME=SPEC`,
// with the input specs of makeTensor) and reads its tensors back as `.npy`
// files or printed elements, naming tensors and runtime arguments as the
// bundle does; and writes the timeline of a launch.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_CHECK_LAUNCHBINDING_H
#define KTFLOW_CHECK_LAUNCHBINDING_H

#include "ktflow/Runtime/Runtime.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace ktflow::check {

/// Binds `NAME=VALUE` assignments to the runtime arguments of `launch`.
llvm::Error bindRuntimeArgs(rt::Launch &launch,
                            llvm::ArrayRef<std::string> assignments);

/// Fills tensors from `NAME=SPEC` assignments, generated ones from `seed`
/// as `ktflow run` and `interp` fill the same kernel argument (check::
/// makeTensor); every tensor the kernel reads needs one (outputs start as
/// zeros).
llvm::Error bindTensors(const rt::Program &program, rt::Launch &launch,
                        llvm::ArrayRef<std::string> assignments, uint64_t seed);

/// The tensor `name` names, or an error `--FLAG: the kernel has no tensor`.
llvm::Expected<uint32_t> findTensor(const rt::Program &program,
                                    llvm::StringRef name, llvm::StringRef flag);

/// Writes tensor `tensor` of a finished launch to the `.npy` file `path`.
llvm::Error writeTensor(const rt::Program &program, const rt::Launch &launch,
                        uint32_t tensor, llvm::StringRef path);

/// Prints `NAME =`, NAME the kernel's name for tensor `tensor`
/// (bundle::getKernelName), and every element of it after a finished launch,
/// sixteen to a line.
llvm::Error printTensor(llvm::raw_ostream &os, const rt::Program &program,
                        const rt::Launch &launch, uint32_t tensor);

/// Prints `kernel K on DEVICE` (and `note`), then the cycles and per-unit
/// statistics of a finished launch.
void printLaunch(llvm::raw_ostream &os, const rt::Program &program,
                 const rt::Launch &launch, const sim::SimStats &stats,
                 llvm::StringRef note = "");

/// Writes the Chrome-trace JSON timeline of a finished launch to `path`.
llvm::Error writeTrace(llvm::StringRef path, const rt::Program &program,
                       const rt::Launch &launch, const sim::SimStats &stats,
                       llvm::ArrayRef<sim::TraceEvent> trace);

} // namespace ktflow::check

#endif // KTFLOW_CHECK_LAUNCHBINDING_H
