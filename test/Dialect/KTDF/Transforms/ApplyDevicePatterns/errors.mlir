// RUN: ktflow-opt %s --ktdf-import-target --ktdf-apply-device-patterns=checkpoint=after_lunch -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown checkpoint 'after_lunch'}}
module {
  ktdf_arch.target @checkpoint_device from "Inputs/checkpoint_device.mlir"
      memory_map #ktdf_arch.map<"global" = "DDR">
}
