//===- Sweep.cpp - The jobs and the table of `ktflow sweep` ---------------===//
//
// This file writes a sweep's job directory and merges the reports its jobs
// leave there into one table (Sweep.h). Each job is a plain shell command so
// that any engine that runs command lines (the sweep itself, GNU parallel, a
// Slurm job array) can run it; everything the merge needs is in files.
//
//===----------------------------------------------------------------------===//

#include "Sweep.h"

#include "ktflow/Support/JsonReport.h"
#include "ktflow/Support/OutputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace ktflow;
using namespace ktflow::driver;

/// `text` as one word of a POSIX shell command.
static std::string shellQuote(StringRef text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'')
      quoted += "'\\''";
    else
      quoted += c;
  }
  return quoted + "'";
}

static std::string jobId(size_t index) { return formatv("{0:4}", index).str(); }

static std::string resultPath(StringRef directory, StringRef id,
                              StringRef extension) {
  SmallString<256> path(directory);
  sys::path::append(path, "results", id + extension);
  return path.str().str();
}

static Error writeTextFile(StringRef path, StringRef text) {
  return writeOutputFile(
      path, [&](raw_ostream &os) { os << text; }, sys::fs::OF_Text);
}

/// The Slurm batch script: one array task per line of jobs.txt.
static std::string slurmScript(StringRef directory, size_t numJobs) {
  SmallString<256> jobs(directory), log(directory);
  sys::path::append(jobs, "jobs.txt");
  sys::path::append(log, "results", "slurm-%a.log");
  std::string script;
  raw_string_ostream os(script);
  os << "#!/bin/sh\n"
     << "#SBATCH --job-name=ktflow-sweep\n"
     << "#SBATCH --array=0-" << numJobs - 1 << "\n"
     << "#SBATCH --output=" << log << "\n"
     << "# One `ktflow run` per array task, line SLURM_ARRAY_TASK_ID + 1 of\n"
     << "# jobs.txt; when all have run: ktflow sweep --merge " << directory
     << "\n"
     << "exec /bin/sh -c \"$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" "
     << shellQuote(jobs) << ")\"\n";
  return script;
}

Expected<std::vector<std::string>>
ktflow::driver::writeJobDirectory(StringRef directory, StringRef ktflow,
                                  const std::vector<SweepJob> &jobs,
                                  bool check) {
  SmallString<256> results(directory);
  sys::path::append(results, "results");
  if (std::error_code ec = sys::fs::create_directories(results))
    return createStringError(ec, "cannot create '%s': %s",
                             results.str().str().c_str(), ec.message().c_str());
  std::vector<std::string> commands;
  json::Array described;
  std::string lines;
  for (auto [index, job] : llvm::enumerate(jobs)) {
    std::string id = jobId(index);
    std::string command =
        shellQuote(ktflow) + " run " + shellQuote(job.kernel) + " --arch " +
        shellQuote(job.device) + " -O" + std::to_string(job.optLevel);
    for (const std::string &argument : job.arguments)
      command += " --arg " + shellQuote(argument);
    if (check)
      command += " --check";
    command += " --json > " + shellQuote(resultPath(directory, id, ".json")) +
               " 2> " + shellQuote(resultPath(directory, id, ".err")) +
               "; echo $? > " +
               shellQuote(resultPath(directory, id, ".status"));
    lines += command + "\n";
    commands.push_back(std::move(command));
    described.push_back(json::Object{{"id", id},
                                     {"kernel", job.kernel},
                                     {"device", job.device},
                                     {"opt", job.optLevel}});
  }
  json::Object index = beginReport("sweep-jobs");
  index["jobs"] = std::move(described);
  auto path = [&](StringRef name) {
    SmallString<256> file(directory);
    sys::path::append(file, name);
    return file.str().str();
  };
  if (Error e = writeOutputFile(
          path("jobs.json"),
          [&](raw_ostream &os) { writeReport(os, std::move(index)); },
          sys::fs::OF_Text))
    return std::move(e);
  if (Error e = writeTextFile(path("jobs.txt"), lines))
    return std::move(e);
  if (!jobs.empty())
    if (Error e = writeTextFile(path("slurm.sh"),
                                slurmScript(directory, jobs.size())))
      return std::move(e);
  return commands;
}

//===----------------------------------------------------------------------===//
// Merging the results
//===----------------------------------------------------------------------===//

namespace {
/// One job's outcome, read back from its files.
struct SweepRow {
  std::string kernel, device;
  int64_t optLevel = 2;
  std::optional<int64_t> status;
  /// The `run --json` report of a job that ran (exit 0, or 2 for a failed
  /// check).
  std::optional<json::Object> report;
  /// Why a job that did not run failed.
  std::string error;

  std::optional<int64_t> cycles() const {
    return report ? report->getInteger("cycles") : std::nullopt;
  }
  std::optional<int64_t> bound() const {
    const json::Object *roofline =
        report ? report->getObject("roofline") : nullptr;
    return roofline ? roofline->getInteger("cycles") : std::nullopt;
  }
  std::optional<double> ratio() const {
    return report ? report->getNumber("ratio") : std::nullopt;
  }
  std::string binding() const {
    const json::Object *roofline =
        report ? report->getObject("roofline") : nullptr;
    std::optional<StringRef> binding =
        roofline ? roofline->getString("binding") : std::nullopt;
    return binding ? binding->str() : "";
  }
  /// PASS or FAIL with --check, "" without.
  std::string verdict() const {
    const json::Object *check = report ? report->getObject("check") : nullptr;
    if (!check)
      return "";
    return check->getBoolean("pass").value_or(false) ? "PASS" : "FAIL";
  }
};
} // namespace

static std::optional<std::string> readFile(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return std::nullopt;
  return (*buffer)->getBuffer().str();
}

/// The first `error:` line of a job's stderr, without its prefix.
static std::string firstError(StringRef stderrText) {
  SmallVector<StringRef> lines;
  stderrText.split(lines, '\n');
  for (StringRef line : lines) {
    size_t at = line.find("error: ");
    if (at != StringRef::npos)
      return line.drop_front(at + 7).trim().str();
  }
  return lines.empty() ? "" : lines.front().trim().str();
}

static Expected<std::vector<SweepRow>> readRows(StringRef directory) {
  SmallString<256> indexPath(directory);
  sys::path::append(indexPath, "jobs.json");
  std::optional<std::string> indexText = readFile(indexPath);
  if (!indexText)
    return createStringError("'%s' is not a sweep job directory (no "
                             "jobs.json)",
                             directory.str().c_str());
  Expected<json::Value> index = json::parse(*indexText);
  if (!index)
    return createStringError("%s: %s", indexPath.c_str(),
                             toString(index.takeError()).c_str());
  const json::Object *object = index->getAsObject();
  const json::Array *jobs = object ? object->getArray("jobs") : nullptr;
  if (!jobs)
    return createStringError("%s: no 'jobs' array", indexPath.c_str());
  std::vector<SweepRow> rows;
  for (const json::Value &entry : *jobs) {
    const json::Object *job = entry.getAsObject();
    std::optional<StringRef> id = job ? job->getString("id") : std::nullopt;
    if (!id)
      return createStringError("%s: a job without an 'id'", indexPath.c_str());
    SweepRow row;
    row.kernel = job->getString("kernel").value_or("").str();
    row.device = job->getString("device").value_or("").str();
    row.optLevel = job->getInteger("opt").value_or(2);
    std::optional<std::string> status =
        readFile(resultPath(directory, *id, ".status"));
    int64_t value = 0;
    if (status && !StringRef(*status).trim().getAsInteger(10, value))
      row.status = value;
    if (!row.status) {
      row.error = "not run";
    } else if (*row.status == 0 || *row.status == 2) {
      std::optional<std::string> text =
          readFile(resultPath(directory, *id, ".json"));
      Expected<json::Value> report =
          text ? json::parse(*text)
               : Expected<json::Value>(createStringError("no report"));
      if (report && report->getAsObject())
        row.report = std::move(*report->getAsObject());
      else
        row.error = report ? "the report is not a JSON object"
                           : toString(report.takeError());
    } else {
      row.error =
          firstError(readFile(resultPath(directory, *id, ".err")).value_or(""));
      if (row.error.empty())
        row.error = "exit status " + std::to_string(*row.status);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

static std::string stem(StringRef path) { return sys::path::stem(path).str(); }

static std::string formatRatio(const SweepRow &row) {
  std::optional<double> ratio = row.ratio();
  return ratio ? formatv("{0:F2}", *ratio).str() : "";
}

static std::string optional(std::optional<int64_t> value) {
  return value ? std::to_string(*value) : "";
}

static void printMarkdown(ArrayRef<SweepRow> rows, raw_ostream &os) {
  os << "| kernel | device | -O | cycles | roofline | ratio | bound | check "
        "|\n|---|---|---:|---:|---:|---:|---|---|\n";
  for (const SweepRow &row : rows) {
    os << "| " << stem(row.kernel) << " | " << stem(row.device) << " | "
       << row.optLevel << " | ";
    if (!row.report) {
      std::string error = row.error;
      for (char &c : error)
        if (c == '|')
          c = '/';
      os << "| | | | " << error << " |\n";
      continue;
    }
    std::string ratio = formatRatio(row);
    os << optional(row.cycles()) << " | " << optional(row.bound()) << " | "
       << (ratio.empty() ? "" : ratio + "x") << " | " << row.binding() << " | "
       << row.verdict() << " |\n";
  }
}

static std::string csvField(StringRef text) {
  if (!text.contains(',') && !text.contains('"') && !text.contains('\n'))
    return text.str();
  std::string quoted = "\"";
  for (char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

static void printCsv(ArrayRef<SweepRow> rows, raw_ostream &os) {
  os << "kernel,device,opt,cycles,roofline,ratio,bound,check,error\n";
  for (const SweepRow &row : rows)
    os << csvField(stem(row.kernel)) << "," << csvField(stem(row.device)) << ","
       << row.optLevel << "," << optional(row.cycles()) << ","
       << optional(row.bound()) << "," << formatRatio(row) << ","
       << row.binding() << "," << row.verdict() << "," << csvField(row.error)
       << "\n";
}

static void printJson(ArrayRef<SweepRow> rows, raw_ostream &os) {
  json::Array described;
  for (const SweepRow &row : rows) {
    json::Object object{
        {"kernel", row.kernel}, {"device", row.device}, {"opt", row.optLevel}};
    if (row.status)
      object["status"] = *row.status;
    if (row.report)
      object["report"] = json::Object(*row.report);
    else
      object["error"] = row.error;
    described.push_back(std::move(object));
  }
  json::Object report = beginReport("sweep");
  report["rows"] = std::move(described);
  writeReport(os, std::move(report));
}

Error ktflow::driver::printSweepTable(StringRef directory, SweepFormat format,
                                      raw_ostream &os) {
  Expected<std::vector<SweepRow>> rows = readRows(directory);
  if (!rows)
    return rows.takeError();
  switch (format) {
  case SweepFormat::Markdown:
    printMarkdown(*rows, os);
    break;
  case SweepFormat::Csv:
    printCsv(*rows, os);
    break;
  case SweepFormat::Json:
    printJson(*rows, os);
    break;
  }
  return Error::success();
}
