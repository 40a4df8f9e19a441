// RUN: ktflow-opt %s -split-input-file -verify-diagnostics

dfir.kernel @k device "d" {
  // expected-error @+1 {{has 1 dynamic dimension but 0 runtime arguments in dims}}
  dfir.tensor input @x : tensor<?xf16> in "DDR"
}

// -----

dfir.kernel @k device "d" {
  // expected-error @+1 {{dimension @y is not a dfir.runtime_arg}}
  dfir.tensor input @x : tensor<?xf16> in "DDR" dims [@y]
  dfir.tensor input @y : tensor<4xf16> in "DDR"
}

// -----

dfir.kernel @k device "d" {
  dfir.runtime_arg @n granularity 1 upperbound 64
  // expected-error @+1 {{needs one positive scale per runtime argument in dims [...]}}
  dfir.tensor input @x : tensor<?xf16> in "DDR" dims [@n] scaled [0]
}

// -----

dfir.kernel @k device "d" {
  dfir.runtime_arg @n granularity 1 upperbound 64
  // expected-error @+1 {{needs one positive scale per runtime argument in dims [...]}}
  dfir.tensor input @x : tensor<?xf16> in "DDR" dims [@n] scaled [2, 3]
}

// -----

dfir.kernel @k device "d" {
  // expected-error @+1 {{granularity must be positive, got 0}}
  dfir.runtime_arg @n granularity 0 upperbound 64
}

// -----

dfir.kernel @k device "d" {
  // expected-error @+1 {{upperbound 32 is below the granularity 64}}
  dfir.runtime_arg @n granularity 64 upperbound 32
}

// -----

dfir.kernel @k device "d" {
  // expected-error @+1 {{upperbound -3 is below the lowerbound 0}}
  dfir.runtime_arg @n lowerbound 0 granularity 1 upperbound -3
}

// -----

dfir.kernel @k device "d" {
  // expected-error @+1 {{has both an argument position and a literal address}}
  dfir.tensor input @x : tensor<4xf16> in "DDR" argument 0 at 64
}

// -----

dfir.kernel @k device "d" {
  // expected-error @+1 {{names an argument but has no argument position}}
  dfir.tensor input @x : tensor<4xf16> in "DDR" named "x"
}

// -----

dfir.kernel @k device "d" {
  // expected-error @+1 {{argument position must be in [0, 2^32 - 1), got -1}}
  dfir.tensor input @x : tensor<4xf16> in "DDR" argument -1
}

// -----

dfir.kernel @k device "d" {
  // expected-error @+1 {{literal address must be non-negative, got -64}}
  dfir.tensor input @x : tensor<4xf16> in "DDR" at -64
}

// -----

dfir.kernel @k device "d" {
  // expected-error @+1 {{argument position must be in [0, 2^32 - 1), got 4294967295}}
  dfir.runtime_arg @n granularity 1 upperbound 8 argument 4294967295
}

// -----

dfir.kernel @k device "d" {
  // expected-error @+1 {{names an argument but has no argument position}}
  dfir.runtime_arg @n granularity 1 upperbound 8 named "n"
}

// -----

dfir.kernel @k device "d" {
  // expected-error @+1 {{size must be positive, got -4}}
  dfir.buffer @b in "L1" size -4
}

// -----

dfir.kernel @k device "d" {
  // expected-error @+1 {{entry size must be in [1, 1048576] bytes, got 0}}
  dfir.fifo @q from "a" to "b" entry 0
}

// -----

dfir.kernel @k device "d" {
  // expected-error @+1 {{joins unit 'a' to itself}}
  dfir.fifo @q from "a" to "a" entry 128
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "a" {}
  // expected-error @+1 {{a second program for unit 'a'}}
  dfir.unit "a" {}
}

// -----

dfir.kernel @k device "d" {
  // expected-error @+1 {{is not allowed directly in a dfir.kernel}}
  %c = arith.constant 0 : index
}

// -----

dfir.kernel @k device "d" {
  dfir.fifo @q from "a" to "b" entry 128
  dfir.unit "b" {
    %v = dfir.splat 0.0 : vector<64xf16>
    // expected-error @+1 {{FIFO misuse: unit 'b' is not the producer of FIFO @q (from 'a')}}
    dfir.send @q, %v : vector<64xf16>
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.fifo @q from "a" to "b" entry 128
  dfir.unit "a" {
    // expected-error @+1 {{FIFO misuse: unit 'a' is not the consumer of FIFO @q (to 'b')}}
    %v = dfir.recv @q : vector<64xf16>
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.fifo @q from "a" to "b" entry 128
  dfir.unit "a" {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{FIFO misuse: unit 'a' is not the consumer of FIFO @q (to 'b')}}
    dfir.store @q to "L1"[%c0] size %c0
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.fifo @q from "a" to "b" entry 128
  dfir.unit "b" {
    // expected-error @+1 {{FIFO misuse: 256 bytes do not fit one 128-byte entry of FIFO @q}}
    %v = dfir.recv @q : vector<128xf16>
  }
}

// -----

// An element takes its bit width rounded up to whole bytes
// (ktflow::bytesPerElement): 64 i12 elements are 128 bytes, not 64.
dfir.kernel @k device "d" {
  dfir.fifo @q from "a" to "b" entry 64
  dfir.unit "b" {
    // expected-error @+1 {{FIFO misuse: 128 bytes do not fit one 64-byte entry of FIFO @q}}
    %v = dfir.recv @q : vector<64xi12>
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.sync @s from "a" to "b"
  dfir.unit "a" {
    // expected-error @+1 {{unit 'a' is not the receiver of sync @s (to 'b')}}
    dfir.sync_recv @s
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.fifo @q from "a" to "b" entry 128
  dfir.unit "a" {
    // expected-error @+1 {{@q is not a dfir.sync}}
    dfir.sync_send @q
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.runtime_arg @n granularity 1 upperbound 8
  dfir.unit "a" {
    // expected-error @+1 {{@n is neither a dfir.tensor nor a dfir.buffer}}
    %a = dfir.address @n
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "a" {
    // expected-error @+1 {{refers to @nowhere, which the kernel does not declare}}
    %a = dfir.runtime_value @nowhere
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "a" {
    %v = dfir.splat 0.0 : vector<64xf16>
    // expected-error @+1 {{body has 2 arguments for 1 inputs}}
    %r = dfir.map %v : vector<64xf16> -> vector<64xf16> {
    ^bb0(%x: f16, %y: f16):
      dfir.yield %x : f16
    }
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "a" {
    %v = dfir.splat 0.0 : vector<64xf16>
    // expected-error @+1 {{input 0 has type 'vector<64xf16>', whose shape differs from the result 'vector<32xf16>'}}
    %r = dfir.map %v : vector<64xf16> -> vector<32xf16> {
    ^bb0(%x: f16):
      dfir.yield %x : f16
    }
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "a" {
    %v = dfir.splat 0.0 : vector<64xf16>
    %r = dfir.map %v : vector<64xf16> -> vector<64xf32> {
    ^bb0(%x: f16):
      // expected-error @+1 {{yields 'f16' but the map produces 'vector<64xf32>'}}
      dfir.yield %x : f16
    }
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "a" {
    %v = dfir.splat 0.0 : vector<64xf16>
    // expected-error @+1 {{accumulator 1 is not one of the 1 inputs}}
    %r = dfir.map %v accumulator 1 : vector<64xf16> -> vector<64xf16> {
    ^bb0(%x: f16):
      dfir.yield %x : f16
    }
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "a" {
    %v = dfir.splat 0.0 : vector<64xf16>
    // expected-error @+1 {{accumulator input 0 must have the result type 'vector<64xf32>'}}
    %r = dfir.map %v accumulator 0 : vector<64xf16> -> vector<64xf32> {
    ^bb0(%x: f16):
      %y = arith.extf %x : f16 to f32
      dfir.yield %y : f32
    }
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "a" {
    %v = dfir.splat 0.0 : vector<4x64xf16>
    // expected-error @+1 {{result must drop the innermost dimension of 'vector<4x64xf16>' ('vector<4xf16>')}}
    %r = dfir.reduce add %v : vector<4x64xf16> -> vector<64xf16>
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "a" {
    %v = dfir.splat 0.0 : vector<64xi32>
    // expected-error @+1 {{maxnum and minnum reduce floats}}
    %r = dfir.reduce maxnum %v : vector<64xi32> -> vector<1xi32>
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "a" {
    %v = dfir.splat 0.0 : vector<64xi32>
    %i = dfir.splat 0.0 : vector<1xi32>
    // expected-error @+1 {{maxafternan and minafternan reduce floats}}
    %r = dfir.reduce maxafternan %v from %i : vector<64xi32> -> vector<1xi32>
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "a" {
    %v = dfir.splat 0.0 : vector<64xf16>
    // expected-error @+1 {{maxafternan and minafternan fold from an initial accumulator ('from')}}
    %r = dfir.reduce minafternan %v : vector<64xf16> -> vector<1xf16>
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "a" {
    %v = dfir.splat 0.0 : vector<64xf16>
    %i = dfir.splat 0.0 : vector<1xf16>
    // expected-error @+1 {{only maxafternan, minafternan, and add or mul of 32- or 64-bit elements take an initial accumulator}}
    %r = dfir.reduce max %v from %i : vector<64xf16> -> vector<1xf16>
  }
}

// -----

// An f16 add accumulates in f32 inside the unit: no f16 accumulator starts it.
dfir.kernel @k device "d" {
  dfir.unit "a" {
    %v = dfir.splat 0.0 : vector<64xf16>
    %i = dfir.splat 0.0 : vector<1xf16>
    // expected-error @+1 {{only maxafternan, minafternan, and add or mul of 32- or 64-bit elements take an initial accumulator}}
    %r = dfir.reduce add %v from %i : vector<64xf16> -> vector<1xf16>
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "a" {
    %v = dfir.splat 0.0 : vector<2xf16>
    // expected-error @+1 {{can only add an innermost dimension: 'vector<2xf16>' does not broadcast to 'vector<64xf16>'}}
    %r = dfir.broadcast %v : vector<2xf16> -> vector<64xf16>
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "a" {
    %a = dfir.splat 0.0 : vector<8x4xf16>
    %c = dfir.splat 0.0 : vector<8x8xf32>
    // expected-error @+1 {{shapes do not agree}}
    %r = dfir.matmul %a, %a, %c : vector<8x4xf16>, vector<8x4xf16> -> vector<8x8xf32>
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "a" {
    %a = dfir.splat 0.0 : vector<32xf16>
    %b = dfir.splat 0.0 : vector<16xf16>
    %c = dfir.splat 0.0 : vector<1xf32>
    // expected-error @+1 {{a dot product takes two vectors of one length into a vector of one element}}
    %r = dfir.matmul %a, %b, %c : vector<32xf16>, vector<16xf16> -> vector<1xf32>
  }
}

// -----

// Only the right operand may be the narrower one.
dfir.kernel @k device "d" {
  dfir.unit "a" {
    %a = dfir.splat 0.0 : vector<8x8xf16>
    %b = dfir.splat 0.0 : vector<8x8xf32>
    %c = dfir.splat 0.0 : vector<8x8xf32>
    // expected-error @+1 {{operands must have the same element type, or the right one a narrower float than the left one and the accumulator}}
    %r = dfir.matmul %a, %b, %c : vector<8x8xf16>, vector<8x8xf32> -> vector<8x8xf32>
  }
}

// -----

// Float runtime arguments: f16, bf16 or f32 only, read with dfir.splat_arg
// at their own element type, never with dfir.runtime_value.
dfir.kernel @k device "d" {
  // expected-error @+1 {{a float runtime argument must be f16, bf16 or f32, got 'f64'}}
  dfir.runtime_arg @e float f64 granularity 1 upperbound 0
}

// -----

dfir.kernel @k device "d" {
  dfir.runtime_arg @e float f16 granularity 1 upperbound 0
  dfir.runtime_arg @n granularity 1 upperbound 8
  dfir.unit "a" {
    // expected-error @+1 {{element type 'f32' is not the argument's type 'f16'}}
    %a = dfir.splat_arg @e : vector<4xf32>
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.runtime_arg @n granularity 1 upperbound 8
  dfir.unit "a" {
    // expected-error @+1 {{element type 'i32' is not a float type}}
    %a = dfir.splat_arg @n : vector<4xi32>
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.runtime_arg @e float f16 granularity 1 upperbound 0
  dfir.unit "a" {
    // expected-error @+1 {{@e is a float runtime argument (read it with dfir.splat_arg)}}
    %a = dfir.runtime_value @e
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "dma" {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{copies within memory 'core[0]/L1': a remote dma writes the scratchpad of another core}}
    dfir.remote_dma %c0 bytes from "core[0]/L1"[%c0] to "core[0]/L1"[%c0]
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "dma" {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{needs rows and both strides together}}
    "dfir.remote_dma"(%c0, %c0, %c0, %c0) <{src_memory = "core[0]/L1", dst_memory = "core[1]/L1", operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>}> : (index, index, index, index) -> ()
  }
}

// -----

// Planes are planes of rows.
dfir.kernel @k device "d" {
  dfir.unit "dma" {
    %c2 = arith.constant 2 : index
    // expected-error @+1 {{moves planes of rows: planes need rows}}
    dfir.dma %c2 bytes from "DDR"[%c2] to "L1"[%c2] planes %c2 strides %c2, %c2
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "dma" {
    %c2 = arith.constant 2 : index
    // expected-error @+1 {{needs planes and both plane strides together}}
    "dfir.dma"(%c2, %c2, %c2, %c2, %c2, %c2, %c2) <{src_memory = "DDR", dst_memory = "L1", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0>}> : (index, index, index, index, index, index, index) -> ()
  }
}

// -----

// A fill's rows need their stride (the custom form cannot spell one
// without the other).
dfir.kernel @k device "d" {
  dfir.unit "a" {
    %n = arith.constant 64 : index
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{needs rows and a stride together}}
    "dfir.fill"(%n, %c0, %n) <{memory = "L1", operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (index, index, index) -> ()
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "a" {
    %n = arith.constant 64 : index
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{needs rows and a stride together}}
    "dfir.fill"(%n, %c0, %n) <{memory = "L1", operandSegmentSizes = array<i32: 1, 1, 0, 1>}> : (index, index, index) -> ()
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "a" {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'dfir.iota' op dimension 2 is not a dimension of 'vector<4x8xf32>'}}
    %a = dfir.iota %c0 dimension 2 : vector<4x8xf32>
  }
}

// -----

// An index is a signed integer of 8, 16, 32 or 64 bits.
dfir.kernel @k device "d" {
  dfir.unit "a" {
    %n = arith.constant 64 : index
    // expected-error @+1 {{reads an i8, i16, i32 or i64 index, not 'f16'}}
    %i = dfir.read_index "DDR"[%n] : f16 below %n
  }
}

// -----

dfir.kernel @k device "d" {
  dfir.unit "a" {
    %n = arith.constant 64 : index
    // expected-error @+1 {{reads an i8, i16, i32 or i64 index, not 'i7'}}
    %i = dfir.read_index "DDR"[%n] : i7 below %n
  }
}
