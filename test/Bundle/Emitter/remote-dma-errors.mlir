// RUN: not ktflow emit %s --kernel same_core --arch %examples/devices/sample_device.mlir -o %t 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: not ktflow emit %s --kernel to_ddr --arch %examples/devices/sample_device.mlir -o %t 2>&1 | FileCheck %s --check-prefix=DDR
// RUN: not ktflow emit %s --kernel unreachable_source --arch %examples/devices/sample_device.mlir -o %t 2>&1 | FileCheck %s --check-prefix=SOURCE
// RUN: not ktflow emit %s --kernel no_interconnect --arch %S/../../Simulator/Inputs/outstanding_device.mlir -o %t 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: ktflow emit %s --kernel ok --arch %examples/devices/sample_device.mlir -o %t.ktfb
// RUN: ktflow inspect %t.ktfb | FileCheck %s --check-prefix=DISASM

// A remote dma reads its source through the executing unit's datapaths and
// writes a memory of another core over the interconnect: the emitter
// refuses anything else, located, and writes no bundle.

// SAME: remote-dma-errors.mlir:[[@LINE+5]]:5: error: a remote dma writes a memory of another core than the unit's (core 0); 'core[0]/subcore[1]/SFU_Block/SFU_RF' is in core 0
dfir.kernel @same_core device "sample_device" {
  dfir.unit "core[0]/MNISU_Block/MNISU" {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    dfir.remote_dma %c64 bytes from "core[0]/L1"[%c0] to "core[0]/subcore[1]/SFU_Block/SFU_RF"[%c0]
  }
}

// DDR: remote-dma-errors.mlir:[[@LINE+5]]:5: error: a remote dma writes a memory of another core than the unit's (core 2); 'DDR' is in no core
dfir.kernel @to_ddr device "sample_device" {
  dfir.unit "core[2]/MNISU_Block/MNISU" {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    dfir.remote_dma %c64 bytes from "core[2]/L1"[%c0] to "DDR"[%c0]
  }
}

// SOURCE: remote-dma-errors.mlir:[[@LINE+5]]:5: error: no datapath route from 'core[1]/L1' to 'core[0]/MNISU_Block/MNISU' on device 'sample_device'
dfir.kernel @unreachable_source device "sample_device" {
  dfir.unit "core[0]/MNISU_Block/MNISU" {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    dfir.remote_dma %c64 bytes from "core[1]/L1"[%c0] to "core[2]/L1"[%c0]
  }
}

// NONE: remote-dma-errors.mlir:[[@LINE+5]]:5: error: device 'outstanding_device' has no interconnect between cores to carry a remote dma
dfir.kernel @no_interconnect device "outstanding_device" {
  dfir.unit "core/FAST" {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    dfir.remote_dma %c64 bytes from "core/L1"[%c0] to "DDR"[%c0]
  }
}

// DISASM: remote_dma {{.*}} bytes from core[3]/L1[{{.*}}] to core[0]/L1[{{.*}}]{{$}}
dfir.kernel @ok device "sample_device" {
  dfir.unit "core[3]/MNISU_Block/MNISU" {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    dfir.remote_dma %c64 bytes from "core[3]/L1"[%c0] to "core[0]/L1"[%c0]
  }
}
