// RUN: ktflow emit %s --kernel wrong_size --arch %examples/devices/sample_device.mlir -o %t.size.ktfb
// RUN: not ktflow sim %t.size.ktfb 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: ktflow emit %s --kernel leftover --arch %examples/devices/sample_device.mlir -o %t.left.ktfb
// RUN: not ktflow sim %t.left.ktfb 2>&1 | FileCheck %s --check-prefix=LEFT
// RUN: ktflow emit %s --kernel crossing --arch %examples/devices/sample_device.mlir -o %t.cross.ktfb
// RUN: not ktflow sim %t.cross.ktfb 2>&1 | FileCheck %s --check-prefix=CROSS

// FIFO misuse that only shows at run time stops the simulation with the
// unit, the instruction and the FIFO (fifo-misuse-static.mlir: caught when
// the bundle is emitted).

// SIZE: error: {{.*}}simulation failed: core[0]/subcore[0]/SFU_Block/SFU (instruction 0, recv, cycle 6, at {{.*}}fifo-misuse.mlir:21:10): FIFO misuse: receives vector<32xf16> (64 bytes) from FIFO 'to_sfu' but its next entry holds 128 bytes
dfir.kernel @wrong_size device "sample_device" {
  dfir.fifo @to_sfu from "core[0]/subcore[0]/L1LU" to "core[0]/subcore[0]/SFU_Block/SFU" entry 128
  dfir.unit "core[0]/subcore[0]/L1LU" {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    dfir.load @to_sfu from "core[0]/L1"[%c0] size %c128
  }
  dfir.unit "core[0]/subcore[0]/SFU_Block/SFU" {
    %v = dfir.recv @to_sfu : vector<32xf16>
  }
}

// LEFT: error: {{.*}}simulation failed: FIFO 'to_sfu' still holds 1 entries after every unit finished: core[0]/subcore[0]/L1LU sends more than core[0]/subcore[0]/SFU_Block/SFU receives
dfir.kernel @leftover device "sample_device" {
  dfir.fifo @to_sfu from "core[0]/subcore[0]/L1LU" to "core[0]/subcore[0]/SFU_Block/SFU" entry 128
  dfir.unit "core[0]/subcore[0]/L1LU" {
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    dfir.load @to_sfu from "core[0]/L1"[%c0] size %c256
  }
  dfir.unit "core[0]/subcore[0]/SFU_Block/SFU" {
    %v = dfir.recv @to_sfu : vector<64xf16>
  }
}

// CROSS: error: {{.*}}simulation failed: core[0]/subcore[0]/L1SU (instruction 2, store, cycle 2, at {{.*}}fifo-misuse.mlir:48:5): FIFO misuse: the store has 64 of 64 bytes left but the next entry of FIFO 'from_sfu' holds 128 bytes
dfir.kernel @crossing device "sample_device" {
  dfir.fifo @from_sfu from "core[0]/subcore[0]/SFU_Block/SFU" to "core[0]/subcore[0]/L1SU" entry 128
  dfir.unit "core[0]/subcore[0]/SFU_Block/SFU" {
    %v = dfir.splat 1.0 : vector<64xf16>
    dfir.send @from_sfu, %v : vector<64xf16>
  }
  dfir.unit "core[0]/subcore[0]/L1SU" {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    dfir.store @from_sfu to "core[0]/L1"[%c0] size %c64
  }
}
