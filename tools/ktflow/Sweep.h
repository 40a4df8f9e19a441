//===- Sweep.h - The jobs and the table of `ktflow sweep` -------*- C++ -*-===//
//
// This file declares the two halves of `ktflow sweep` that do not run
// anything: the job directory (one shell command per kernel x device x
// optimisation level, written so that the sweep itself, GNU parallel or a
// Slurm job array can run them) and the merge of the jobs' `run --json`
// reports into one table.
//
// A job directory holds
//   jobs.json        what each job is: {id, kernel, device, opt}
//   jobs.txt         one /bin/sh command per line, job i on line i + 1
//   slurm.sh         a Slurm job array over jobs.txt
//   results/ID.json  the job's `ktflow run --json` report
//   results/ID.err   its stderr
//   results/ID.status  its exit status
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_TOOLS_KTFLOW_SWEEP_H
#define KTFLOW_TOOLS_KTFLOW_SWEEP_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace ktflow::driver {

/// One `ktflow run` of the sweep.
struct SweepJob {
  std::string kernel;
  std::string device;
  unsigned optLevel = 2;
  /// `NAME=VALUE` runtime arguments the kernel declares.
  std::vector<std::string> arguments;
};

/// Writes jobs.json, jobs.txt and slurm.sh for `jobs` into `directory`
/// (created, with results/), each job running `ktflow` (an absolute path)
/// with `--check` when `check` is set. Returns the commands, in job order.
llvm::Expected<std::vector<std::string>>
writeJobDirectory(llvm::StringRef directory, llvm::StringRef ktflow,
                  const std::vector<SweepJob> &jobs, bool check);

enum class SweepFormat { Markdown, Csv, Json };

/// Reads a job directory's jobs.json and results/ and prints one row per
/// job in `format`: its cycles, roofline bound, ratio, binding bound and
/// check verdict, or why it did not run (the first error line of its
/// stderr; "not run" for a job without a status). Fails when jobs.json is
/// missing or malformed.
llvm::Error printSweepTable(llvm::StringRef directory, SweepFormat format,
                            llvm::raw_ostream &os);

} // namespace ktflow::driver

#endif // KTFLOW_TOOLS_KTFLOW_SWEEP_H
