// RUN: ktflow-opt %s --split-input-file --verify-diagnostics --ktdf-set-target
// RUN: not ktflow-opt %s --arch %t.missing.mlir --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not ktflow-opt %s --arch %s --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NO-DEVICE

// Without arch=FILE there is nothing to target.
// expected-error @below {{--ktdf-set-target needs arch=FILE, the device description}}
module {
}

// MISSING: cannot open input file '{{.*}}missing.mlir'
// MISSING: errors.mlir:[[@LINE-4]]:1: error: cannot load device description '{{.*}}missing.mlir'

// A file that describes no device (this one).
// NO-DEVICE: errors.mlir:[[@LINE-7]]:1: error: no ktdf_arch.device in this file
