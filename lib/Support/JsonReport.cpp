//===- JsonReport.cpp - How every `--json` report starts ------------------===//

#include "ktflow/Support/JsonReport.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

json::Object ktflow::beginReport(StringRef command) {
  return json::Object{{"schema_version", kReportSchemaVersion},
                      {"command", command.str()}};
}

void ktflow::writeReport(raw_ostream &os, json::Object report) {
  os << formatv("{0:2}", json::Value(std::move(report))) << "\n";
}
