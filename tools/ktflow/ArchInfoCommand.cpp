//===- ArchInfoCommand.cpp - `ktflow arch-info` ---------------------------===//
//
// This file implements `ktflow arch-info FILE [--json]`: load an architecture
// description (or a kernel whose `ktdf_arch.target` names one), build its
// device model and print what the scheduler and simulator will see
// (ktflow/Device/DeviceSummary.h): cores and interconnect, memories, units
// per core with roles and features, datapaths, routes between memory levels
// and to every compute unit, and roofline figures.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "ktflow/Device/DeviceModel.h"
#include "ktflow/Device/DeviceSummary.h"
#include "ktflow/Device/Target.h"
#include "ktflow/Registration/Registration.h"
#include "ktflow/Support/CrashRecovery.h"
#include "ktflow/Support/ModuleLoader.h"

#include "mlir/IR/MLIRContext.h"

using namespace llvm;
using namespace ktflow::device;

cl::SubCommand ktflow::driver::archInfoCommand(
    "arch-info", "Summarise an architecture description: units, memories, "
                 "datapaths, routes and roofline figures");

static cl::opt<std::string> archInput(cl::Positional, cl::Required,
                                      cl::desc("<device.mlir>"),
                                      cl::sub(ktflow::driver::archInfoCommand));
static cl::opt<bool> archJson("json", cl::desc("Print JSON instead of text"),
                              cl::sub(ktflow::driver::archInfoCommand));
static cl::opt<std::string>
    archDevice("device",
               cl::desc("The device to describe when the file has several"),
               cl::value_desc("name"),
               cl::sub(ktflow::driver::archInfoCommand));

int ktflow::driver::runArchInfo() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  ModuleLoader loader(context);
  mlir::OwningOpRef<mlir::ModuleOp> module = loader.load(archInput);
  if (!module)
    return 1;

  mlir::FailureOr<TargetDevice> target =
      resolveDeviceOrTarget(*module, archDevice);
  if (failed(target))
    return 1;

  CrashPhase phase("device model", archInput);
  mlir::FailureOr<DeviceModel> model = DeviceModel::build(target->device);
  if (failed(model))
    return 1;
  DeviceSummary summary(*model);
  if (archJson) {
    printDeviceSummaryJson(summary, outs());
    return 0;
  }
  if (target->target)
    outs() << "target of " << archInput << ": global -> \""
           << target->globalMemory << "\", ct_local -> \""
           << target->ctLocalMemory << "\"\n";
  printDeviceSummary(summary, outs());
  return 0;
}
