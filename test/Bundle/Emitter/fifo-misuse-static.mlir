// RUN: not ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb 2>&1 | FileCheck %s

// A unit that is not a FIFO's producer sends on it: the verifier refuses
// the program before any bundle is written.

// CHECK: fifo-misuse-static.mlir:[[@LINE+6]]:5: error: 'dfir.send' op FIFO misuse: unit 'core[0]/subcore[0]/L1SU' is not the producer of FIFO @from_sfu (from 'core[0]/subcore[0]/SFU_Block/SFU')
dfir.kernel @not_producer device "sample_device" {
  dfir.fifo @from_sfu from "core[0]/subcore[0]/SFU_Block/SFU" to "core[0]/subcore[0]/L1SU" entry 128
  dfir.unit "core[0]/subcore[0]/L1SU" {
    %v = dfir.splat 1.0 : vector<64xf16>
    // The store unit is the consumer, not the producer.
    dfir.send @from_sfu, %v : vector<64xf16>
  }
}
