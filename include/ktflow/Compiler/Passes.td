//===- Passes.td - Passes of the compiler driver ----------*- tablegen -*-===//
//
// This file declares the passes that belong to the compiler driver rather
// than to a dialect: pointing a kernel at a device description.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_COMPILER_PASSES_TD
#define KTFLOW_COMPILER_PASSES_TD

include "mlir/Pass/PassBase.td"

def KTDFSetTarget : Pass<"ktdf-set-target", "::mlir::ModuleOp"> {
  let summary = "Make the kernel target the device a description file holds";
  let description = [{
    What `ktflow compile --arch FILE` does, for `ktflow-opt` (whose `--arch
    FILE` runs this pass first): a kernel that declares no
    `ktdf_arch.target` gets one importing FILE, with KTIR's `global` mapped
    to the device memory at the root of the memory tree and `ct_local` to
    the first scratchpad of a core; a kernel that declares one keeps its
    memory map and now imports FILE (the map is checked against the
    device). A missing, unparsable or device-less file is an error.

    ```mlir
    // ktflow-opt kernel.mlir --ktdf-set-target=arch=sample_device.mlir
    ktdf_arch.target @sample_device from "/abs/path/sample_device.mlir"
        memory_map {global = "DDR", ct_local = "L1"}
    ```
  }];
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"",
           "The device description file">,
  ];
  let dependentDialects = ["::mlir::ktdf_arch::KTDFArchDialect",
                           "::mlir::pdl::PDLDialect"];
}

#endif // KTFLOW_COMPILER_PASSES_TD
