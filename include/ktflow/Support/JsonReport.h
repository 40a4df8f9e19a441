//===- JsonReport.h - How every `--json` report starts ----------*- C++ -*-===//
//
// This file declares the frame of the JSON reports `ktflow CMD --json`
// prints and the Python package returns (docs/json-output.md): one object,
// opening with the schema version and the command's name, so a script can
// refuse a report it does not understand. The reports themselves are built
// next to the structures they describe (ktflow/Driver/Reports.h).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SUPPORT_JSONREPORT_H
#define KTFLOW_SUPPORT_JSONREPORT_H

#include "llvm/Support/JSON.h"

namespace ktflow {

/// The version of every report's schema: raised when a field changes its
/// meaning or goes away, not when one is added.
inline constexpr int64_t kReportSchemaVersion = 1;

/// {"schema_version": kReportSchemaVersion, "command": `command`}.
llvm::json::Object beginReport(llvm::StringRef command);

/// Writes `report` indented, then a newline.
void writeReport(llvm::raw_ostream &os, llvm::json::Object report);

} // namespace ktflow

#endif // KTFLOW_SUPPORT_JSONREPORT_H
