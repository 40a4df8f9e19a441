//===- FromDevice.h - Machines from device models ---------------*- C++ -*-===//
//
// This file declares the adapter from ktflow's device model (built from a
// `ktdf_arch.device` description) to the Machine: every group
// instance is expanded, so each memory, unit and datapath of the model
// becomes one Machine entry per copy in the device.
//
// Instance names join the scope labels from the device down, each label
// suffixed `[i]` when its group has several instances, then the node's own
// name: "DDR", "core[2]/L1", "core[0]/MNILU_Block/MNILU",
// "core[1]/subcore[0]/SFU_Block/SFU".
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_MACHINE_FROMDEVICE_H
#define KTFLOW_MACHINE_FROMDEVICE_H

#include "ktflow/Device/DeviceModel.h"
#include "ktflow/Machine/Machine.h"
#include "ktflow/Support/ModuleLoader.h"

namespace ktflow::machine {

/// Cycles from a sync_send to the matching sync_recv, for devices whose
/// description states no sync latency.
constexpr uint32_t kDefaultSyncLatency = 1;

Machine buildMachine(const device::DeviceModel &model);

/// Loads the one device of a description file (or the one named `name`),
/// builds its model and machine. Errors are printed (located where
/// possible); returns failure after that.
mlir::FailureOr<Machine> loadMachine(ModuleLoader &loader, llvm::StringRef path,
                                     llvm::StringRef name = "");

} // namespace ktflow::machine

#endif // KTFLOW_MACHINE_FROMDEVICE_H
