// RUN: not ktflow emit %s --kernel other_device --arch %examples/devices/sample_device.mlir -o %t 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not ktflow emit %s --kernel no_unit --arch %examples/devices/sample_device.mlir -o %t 2>&1 | FileCheck %s --check-prefix=UNIT
// RUN: not ktflow emit %s --kernel no_memory --arch %examples/devices/sample_device.mlir -o %t 2>&1 | FileCheck %s --check-prefix=MEMORY
// RUN: not ktflow emit %s --kernel no_datapath --arch %examples/devices/sample_device.mlir -o %t 2>&1 | FileCheck %s --check-prefix=DATAPATH
// RUN: not ktflow emit %s --kernel too_deep --arch %examples/devices/sample_device.mlir -o %t 2>&1 | FileCheck %s --check-prefix=DEPTH
// RUN: not ktflow emit %s --kernel no_route --arch %examples/devices/sample_device.mlir -o %t 2>&1 | FileCheck %s --check-prefix=ROUTE
// RUN: not ktflow emit %s --kernel bad_type --arch %examples/devices/sample_device.mlir -o %t 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not ktflow emit %s --kernel no_matrix --arch %examples/devices/sample_device.mlir -o %t 2>&1 | FileCheck %s --check-prefix=MATRIX
// RUN: not ktflow emit %s --kernel unsupported_op --arch %examples/devices/sample_device.mlir -o %t 2>&1 | FileCheck %s --check-prefix=OP
// RUN: not ktflow emit %s --kernel unsigned_loop --arch %examples/devices/sample_device.mlir -o %t 2>&1 | FileCheck %s --check-prefix=UNSIGNED

// The emitter checks a DataflowIR kernel against the device: each error is
// located and the command exits 1 without writing a bundle.

// DEVICE: device-errors.mlir:[[@LINE+1]]:1: error: kernel is compiled for device 'spyre_like' but the description is of 'sample_device'
dfir.kernel @other_device device "spyre_like" {
}

// UNIT: device-errors.mlir:[[@LINE+2]]:3: error: device 'sample_device' has no execution unit 'core[9]/MNILU_Block/MNILU'
dfir.kernel @no_unit device "sample_device" {
  dfir.unit "core[9]/MNILU_Block/MNILU" {}
}

// MEMORY: device-errors.mlir:[[@LINE+2]]:3: error: device 'sample_device' has no memory 'HBM'
dfir.kernel @no_memory device "sample_device" {
  dfir.tensor input @x : tensor<64xf16> in "HBM"
}

// DATAPATH: device-errors.mlir:[[@LINE+2]]:3: error: FIFO endpoints 'core[0]/subcore[0]/L1LU' and 'core[0]/subcore[0]/L1SU' are not joined by a datapath of the device
dfir.kernel @no_datapath device "sample_device" {
  dfir.fifo @q from "core[0]/subcore[0]/L1LU" to "core[0]/subcore[0]/L1SU" entry 128
}

// DEPTH: device-errors.mlir:[[@LINE+2]]:3: error: depth 32 exceeds the datapath's queue depth 16
dfir.kernel @too_deep device "sample_device" {
  dfir.fifo @q from "core[0]/subcore[0]/L1LU" to "core[0]/subcore[0]/SFU_Block/SFU" entry 128 depth 32
}

// ROUTE: device-errors.mlir:[[@LINE+5]]:5: error: no datapath route from 'DDR' to 'core[0]/subcore[0]/SFU_Block/SFU' on device 'sample_device'
dfir.kernel @no_route device "sample_device" {
  dfir.unit "core[0]/subcore[0]/SFU_Block/SFU" {
    %c0 = arith.constant 0 : index
    // The SFU has no path from device memory: only the DMA units do.
    dfir.dma %c0 bytes from "DDR"[%c0] to "core[0]/L1"[%c0]
  }
}

// TYPE: device-errors.mlir:[[@LINE+6]]:12: error: unit 'core[0]/subcore[0]/SFU_Block/SFU' cannot compute arith.addf (elementwise) on f64
dfir.kernel @bad_type device "sample_device" {
  dfir.unit "core[0]/subcore[0]/SFU_Block/SFU" {
    %v = dfir.splat 1.0 : vector<16xf64>
    %w = dfir.map %v : vector<16xf64> -> vector<16xf64> {
    ^bb0(%p: f64):
      %s = arith.addf %p, %p : f64
      dfir.yield %s : f64
    }
  }
}

// The SFU multiplies matrices of the float types it has lanes for (at its
// f32 rate), not bf16.
// MATRIX: device-errors.mlir:[[@LINE+5]]:10: error: unit 'core[0]/subcore[0]/SFU_Block/SFU' cannot compute dfir.matmul (matrix) on bf16
dfir.kernel @no_matrix device "sample_device" {
  dfir.unit "core[0]/subcore[0]/SFU_Block/SFU" {
    %a = dfir.splat 1.0 : vector<8x8xbf16>
    %c = dfir.splat 0.0 : vector<8x8xf32>
    %d = dfir.matmul %a, %a, %c : vector<8x8xbf16>, vector<8x8xbf16> -> vector<8x8xf32>
  }
}

// OP: device-errors.mlir:[[@LINE+5]]:10: error: operation 'arith.addf' is not supported in a unit program
dfir.kernel @unsupported_op device "sample_device" {
  dfir.unit "core[0]/subcore[0]/SFU_Block/SFU" {
    %a = dfir.splat 1.0 : vector<4xf32>
    // Vector arithmetic goes in a dfir.map body, not directly in a program.
    %b = arith.addf %a, %a : vector<4xf32>
  }
}

// The machine's loops compare signed; the scheduler never emits an unsigned
// loop (ktdf-uplift-while signs it or ktdf-check-supported refuses it).
// UNSIGNED: device-errors.mlir:[[@LINE+5]]:5: error: scf.for unsigned is not supported: the machine's loops compare their bounds signed
dfir.kernel @unsigned_loop device "sample_device" {
  dfir.unit "core[0]/subcore[0]/SFU_Block/SFU" {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for unsigned %i = %c1 to %c8 step %c1 {
    }
  }
}
