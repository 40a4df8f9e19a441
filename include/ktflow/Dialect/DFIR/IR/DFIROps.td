//===- DFIROps.td - The dfir operations --------------------*- tablegen -*-===//
//
// This file defines the operations of DataflowIR: the kernel container and
// its declarations, the per-unit program container, and the data movement,
// compute and synchronisation operations of unit programs.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_DFIR_IR_DFIROPS_TD
#define KTFLOW_DIALECT_DFIR_IR_DFIROPS_TD

include "ktflow/Dialect/DFIR/IR/DFIRDialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def DFIR_TensorRole : I32EnumAttr<"TensorRole", "direction of a tensor", [
    I32EnumAttrCase<"input", 0>, I32EnumAttrCase<"output", 1>,
    I32EnumAttrCase<"inout", 2>]> {
  let cppNamespace = "::mlir::dfir";
}

// max/min propagate NaN (arith.maximumf/minimumf, arith.maxsi/minsi);
// maxnum/minnum skip it (arith.maxnumf/minnumf); maxafternan/minafternan
// are `cmpf ogt/olt %acc, %x` + select with the accumulator on the left
// (the extremum of what follows the last NaN), folded from an initial
// accumulator. The values are the machine's (ktflow::machine::ReduceKind),
// which the bundle encodes.
def DFIR_ReduceKind : I32EnumAttr<"ReduceKind", "reduction", [
    I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"mul", 1>,
    I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
    I32EnumAttrCase<"maxnum", 4>, I32EnumAttrCase<"minnum", 5>,
    I32EnumAttrCase<"maxafternan", 6>, I32EnumAttrCase<"minafternan", 7>]> {
  let cppNamespace = "::mlir::dfir";
}

//===----------------------------------------------------------------------===//
// Kernel and declarations
//===----------------------------------------------------------------------===//

def DFIR_KernelOp : DFIR_Op<"kernel", [SymbolTable, Symbol,
    IsolatedFromAbove, NoTerminator, SingleBlock, NoRegionArguments]> {
  let summary = "a DataflowIR kernel for one device";
  let description = [{
    Holds the declarations and the unit programs of one kernel compiled for
    the device named by `device` (the `ktdf_arch.device` symbol name).

    ```mlir
    dfir.kernel @copy device "sample_device" {
      dfir.tensor input @x : tensor<1024xf16> in "DDR"
      dfir.unit "core0.mnilu" { ... }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$device);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name `device` $device attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
}

def DFIR_TensorOp : DFIR_Op<"tensor", [Symbol, HasParent<"KernelOp">]> {
  let summary = "a tensor argument of the kernel";
  let description = [{
    The runtime allocates the tensor in device memory `memory` and patches
    its base address into every `dfir.address` of it at launch. Dynamic
    dimensions (`?`) take, in order, the values of the runtime arguments in
    `dims`, each multiplied by its entry of `scaled` when given (a tensor
    of two halves of n rows of 64 at `ptr` and `ptr + 64n`:
    `tensor<?xf16> dims [@arg2] scaled [128]`).

    Where the tensor comes from in the kernel, for the tools to name it as
    the kernel does: `argument` is the position of the kernel argument that
    holds its start address and `named` that argument's name in the source
    (`%x` is "x"); `at` is the literal address of a tensor the kernel places
    itself. A tensor has at most one of `argument` and `at`. A tensor
    `of_tile` K is what tile K's scratchpad `memory` holds at literal
    address `at` before the kernel (an input the kernel reads and never
    writes, named `lx<K>@ADDR`): the runtime places it there, at `at` times
    its element size, rather than where it likes.

    ```mlir
    dfir.tensor input @arg1 : tensor<?x64xf16> in "DDR" dims [@arg0] argument 1 named "x"
    dfir.tensor input @arg0 : tensor<?xf16> in "DDR" dims [@arg2] scaled [128] argument 0
    dfir.tensor output @lit8192 : tensor<64x64xf16> in "DDR" at 8192
    dfir.tensor input @lx1_256 : tensor<64xf16> in "LX1" at 256 of_tile 1
    ```
  }];
  let arguments = (ins DFIR_TensorRole:$role, SymbolNameAttr:$sym_name,
                       TypeAttrOf<AnyRankedTensor>:$type, StrAttr:$memory,
                       OptionalAttr<FlatSymbolRefArrayAttr>:$dims,
                       OptionalAttr<I64Attr>:$argument,
                       OptionalAttr<StrAttr>:$arg_name,
                       OptionalAttr<I64Attr>:$address,
                       OptionalAttr<I64Attr>:$tile,
                       OptionalAttr<DenseI64ArrayAttr>:$dim_scales);
  let assemblyFormat = [{
    $role $sym_name `:` $type `in` $memory (`dims` $dims^)?
    (`scaled` $dim_scales^)?
    (`argument` $argument^)? (`named` $arg_name^)? (`at` $address^)?
    (`of_tile` $tile^)? attr-dict
  }];
  let hasVerifier = 1;
}

def DFIR_RuntimeArgOp : DFIR_Op<"runtime_arg", [Symbol, HasParent<"KernelOp">]> {
  let summary = "an integer or float argument known at launch";
  let description = [{
    A launch-time value (a shape, a count, an offset) that must be a
    multiple of `granularity` between `lowerbound` and `upperbound`. Without
    `lowerbound` it must be positive (a `!ktdp.runtime_arg`); a plain
    integer argument of the kernel takes the range of its type. `argument`
    and `named` say which kernel argument it is, as on `dfir.tensor`.

    With `float` it is a float scalar of that type (f16, bf16 or f32, e.g.
    a norm's epsilon), which compute units read with `dfir.splat_arg`; the
    runtime rounds the value given at launch to the type once. Its bounds
    are unused (granularity 1, upperbound 0).

    ```mlir
    dfir.runtime_arg @n granularity 64 upperbound 4096
    dfir.runtime_arg @k lowerbound -2147483648 granularity 1 upperbound 2147483647
    dfir.runtime_arg @arg0 granularity 32 upperbound 1024 argument 0 named "M"
    dfir.runtime_arg @arg4 float f16 granularity 1 upperbound 0 argument 4 named "eps"
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<TypeAttrOf<AnyFloat>>:$float_type,
                       OptionalAttr<I64Attr>:$lowerbound,
                       I64Attr:$granularity, I64Attr:$upperbound,
                       OptionalAttr<I64Attr>:$argument,
                       OptionalAttr<StrAttr>:$arg_name);
  let assemblyFormat = [{
    $sym_name (`float` $float_type^)? (`lowerbound` $lowerbound^)?
    `granularity` $granularity
    `upperbound` $upperbound (`argument` $argument^)? (`named` $arg_name^)?
    attr-dict
  }];
  let builders = [OpBuilder<(ins "::llvm::StringRef":$sym_name,
                                 "int64_t":$granularity, "int64_t":$upperbound), [{
    build($_builder, $_state, sym_name, ::mlir::TypeAttr(),
          ::mlir::IntegerAttr(), granularity,
          upperbound, ::mlir::IntegerAttr(), ::mlir::StringAttr());
  }]>];
  let extraClassDeclaration = [{
    /// The smallest value the runtime accepts (1 without `lowerbound`).
    int64_t getMinimum() {
      return getLowerbound() ? static_cast<int64_t>(*getLowerbound()) : 1;
    }
  }];
  let hasVerifier = 1;
}

def DFIR_BufferOp : DFIR_Op<"buffer", [Symbol, HasParent<"KernelOp">]> {
  let summary = "a statically placed scratchpad buffer";
  let description = [{
    `size` bytes of memory instance `memory`, at `offset` or, without one,
    after the previous buffer of that memory. The emitter checks that the
    buffers of each memory fit its capacity.

    ```mlir
    dfir.buffer @a in "core0.L1" size 8192
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$memory,
                       I64Attr:$size, OptionalAttr<I64Attr>:$offset);
  let assemblyFormat = [{
    $sym_name `in` $memory `size` $size (`offset` $offset^)? attr-dict
  }];
  let hasVerifier = 1;
}

def DFIR_FifoOp : DFIR_Op<"fifo", [Symbol, HasParent<"KernelOp">]> {
  let summary = "a hardware FIFO between two units";
  let description = [{
    Entries of at most `entry` bytes flow from unit `from` to unit `to`
    over the device datapath between them. The depth is the datapath's
    queue depth unless `depth` asks for fewer entries.

    ```mlir
    dfir.fifo @q from "core0.l1lu" to "core0.sfu" entry 128
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$from, StrAttr:$to,
                       I64Attr:$entry, OptionalAttr<I64Attr>:$depth);
  let assemblyFormat = [{
    $sym_name `from` $from `to` $to `entry` $entry (`depth` $depth^)? attr-dict
  }];
  let hasVerifier = 1;
}

def DFIR_SyncOp : DFIR_Op<"sync", [Symbol, HasParent<"KernelOp">]> {
  let summary = "a synchronisation channel between two units";
  let description = [{
    A counting channel of tokens from `from` to `to`.

    ```mlir
    dfir.sync @ready from "core0.mnilu" to "core0.l1lu"
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$from, StrAttr:$to);
  let assemblyFormat = "$sym_name `from` $from `to` $to attr-dict";
}

def DFIR_UnitOp : DFIR_Op<"unit", [HasParent<"KernelOp">, NoTerminator,
    SingleBlock, NoRegionArguments]> {
  let summary = "the program of one execution-unit instance";
  let description = [{
    ```mlir
    dfir.unit "core0.sfu" {
      %v = dfir.recv @in : vector<64xf16>
      dfir.send @out, %v : vector<64xf16>
    }
    ```
  }];
  let arguments = (ins StrAttr:$unit);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$unit attr-dict-with-keyword $body";
}

//===----------------------------------------------------------------------===//
// Symbolic values
//===----------------------------------------------------------------------===//

def DFIR_AddressOp : DFIR_Op<"address", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the base address of a tensor or buffer";
  let description = [{
    A tensor's address is a relocation patched at launch; a buffer's is its
    offset in its memory.

    ```mlir
    %base = dfir.address @x
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$symbol);
  let results = (outs Index:$result);
  let assemblyFormat = "$symbol attr-dict";
}

def DFIR_RuntimeValueOp : DFIR_Op<"runtime_value", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the launch-time value of a runtime argument";
  let arguments = (ins FlatSymbolRefAttr:$symbol);
  let results = (outs Index:$result);
  let assemblyFormat = "$symbol attr-dict";
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def DFIR_DmaOp : DFIR_Op<"dma", [AttrSizedOperandSegments]> {
  let summary = "copy bytes between two memories";
  let description = [{
    Copies `size` bytes from `src_memory` at byte address `src` to
    `dst_memory` at `dst`, through the executing unit. With `rows`, copies
    `rows` rows of `size` bytes whose starts are `src_stride` and
    `dst_stride` bytes apart. With `planes` too, copies `planes` such
    blocks of rows whose first rows are `src_plane_stride` and
    `dst_plane_stride` bytes apart, as one transfer (a transposed block: a
    column of 2-byte rows per key, one plane per key). The unit waits until
    the last byte has landed.

    ```mlir
    dfir.dma %n bytes from "DDR"[%a] to "core0.L1"[%b]
    dfir.dma %n bytes from "DDR"[%a] to "core0.L1"[%b] rows %r strides %s, %t
    dfir.dma %n bytes from "DDR"[%a] to "core0.L1"[%b] rows %r strides %s, %t
      planes %p strides %u, %v
    ```
  }];
  let arguments = (ins Index:$size, StrAttr:$src_memory, Index:$src,
                       StrAttr:$dst_memory, Index:$dst,
                       Optional<Index>:$rows, Optional<Index>:$src_stride,
                       Optional<Index>:$dst_stride, Optional<Index>:$planes,
                       Optional<Index>:$src_plane_stride,
                       Optional<Index>:$dst_plane_stride);
  let assemblyFormat = [{
    $size `bytes` `from` $src_memory `[` $src `]` `to` $dst_memory `[` $dst `]`
    (`rows` $rows^ `strides` $src_stride `,` $dst_stride)?
    (`planes` $planes^ `strides` $src_plane_stride `,` $dst_plane_stride)?
    attr-dict
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$size, "::llvm::StringRef":$src_memory,
                   "::mlir::Value":$src, "::llvm::StringRef":$dst_memory,
                   "::mlir::Value":$dst, "::mlir::Value":$rows,
                   "::mlir::Value":$src_stride, "::mlir::Value":$dst_stride), [{
      build($_builder, $_state, size, src_memory, src, dst_memory, dst, rows,
            src_stride, dst_stride, ::mlir::Value(), ::mlir::Value(),
            ::mlir::Value());
    }]>
  ];
  let hasVerifier = 1;
}

def DFIR_RemoteDmaOp : DFIR_Op<"remote_dma", [AttrSizedOperandSegments]> {
  let summary = "copy bytes into the scratchpad of another core";
  let description = [{
    Copies `size` bytes from `src_memory` at `src` to `dst_memory`, a
    memory of another core, at `dst`, over the interconnect between cores
    (`ktdf_arch.interconnect`). The executing unit reads the source through
    its datapaths; the bytes then cross one interconnect link per hop
    between the unit's core and the destination's, each link shared by
    every transfer that crosses it in that direction. `rows` and strides as
    on `dfir.dma`. The unit waits until the last byte has landed (or, with
    several transfers in flight, until it has left).

    ```mlir
    dfir.remote_dma %n bytes from "core[0]/L1"[%a] to "core[1]/L1"[%b]
    ```
  }];
  let arguments = (ins Index:$size, StrAttr:$src_memory, Index:$src,
                       StrAttr:$dst_memory, Index:$dst,
                       Optional<Index>:$rows, Optional<Index>:$src_stride,
                       Optional<Index>:$dst_stride);
  let assemblyFormat = [{
    $size `bytes` `from` $src_memory `[` $src `]` `to` $dst_memory `[` $dst `]`
    (`rows` $rows^ `strides` $src_stride `,` $dst_stride)? attr-dict
  }];
  let hasVerifier = 1;
}

def DFIR_FillOp : DFIR_Op<"fill", [AttrSizedOperandSegments]> {
  let summary = "write zero bytes to a memory";
  let description = [{
    Writes `size` zero bytes to `memory` at byte address `addr`, through the
    executing unit: a DMA whose source is zeros, routed unit -> memory. With
    `rows`, writes `rows` rows of `size` bytes whose starts are `stride`
    bytes apart. The unit waits until the last byte has landed. The
    lowering zeroes the part of a load's buffer that a masked transfer
    leaves out, so the buffer holds what the reference interpreter loads
    there (0).

    ```mlir
    dfir.fill %n bytes to "core0.L1"[%a]
    dfir.fill %n bytes to "core0.L1"[%a] rows %r stride %s
    ```
  }];
  let arguments = (ins Index:$size, StrAttr:$memory, Index:$addr,
                       Optional<Index>:$rows, Optional<Index>:$stride);
  let assemblyFormat = [{
    $size `bytes` `to` $memory `[` $addr `]`
    (`rows` $rows^ `stride` $stride)? attr-dict
  }];
  let hasVerifier = 1;
}

def DFIR_ReadIndexOp : DFIR_Op<"read_index"> {
  let summary = "read an index of a memory into a scalar register";
  let description = [{
    Reads the signed integer of type `elem_type` (i8, i16, i32 or i64) at
    byte address `addr` of `memory`, through the executing unit, as an
    index: the scalar the unit's address arithmetic then computes a
    transfer's address from (an index-gated transfer: a gather's or
    scatter's per-row `dfir.dma`). A value outside `[0, bound)` stops the
    run with an error naming the unit, the instruction, the address and
    the value, so an index the kernel's view does not hold never becomes a
    wild read or write. The unit waits until the value has arrived.

    ```mlir
    %i = dfir.read_index "DDR"[%a] : i32 below %c64
    ```
  }];
  let arguments = (ins StrAttr:$memory, Index:$addr, TypeAttr:$elem_type,
                       Index:$bound);
  let results = (outs Index:$result);
  let assemblyFormat = [{
    $memory `[` $addr `]` `:` $elem_type `below` $bound attr-dict
  }];
  let hasVerifier = 1;
}

def DFIR_LoadOp : DFIR_Op<"load", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "stream bytes of a memory into a FIFO";
  let description = [{
    Pushes `size` bytes read from `memory` at `addr` into FIFO `fifo`, one
    entry (the FIFO's entry size, the last possibly shorter) at a time. The
    executing unit must be the FIFO's producer. With `rows`, reads `rows`
    rows of `size` bytes whose starts are `stride` bytes apart, as one
    stream: an entry continues over the rows (a column block of a wider
    row-major tile).

    ```mlir
    dfir.load @q from "core0.L1"[%a] size %n
    dfir.load @q from "core0.L1"[%a] size %n rows %r stride %s
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$fifo, StrAttr:$memory, Index:$addr,
                       Index:$size, Optional<Index>:$rows,
                       Optional<Index>:$stride);
  let assemblyFormat = [{
    $fifo `from` $memory `[` $addr `]` `size` $size
    (`rows` $rows^ `stride` $stride)? attr-dict
  }];
  let builders = [
    OpBuilder<(ins "::mlir::FlatSymbolRefAttr":$fifo, "::mlir::StringAttr":$memory,
                   "::mlir::Value":$addr, "::mlir::Value":$size), [{
      build($_builder, $_state, fifo, memory, addr, size, ::mlir::Value(),
            ::mlir::Value());
    }]>
  ];
}

def DFIR_StoreOp : DFIR_Op<"store", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "write entries popped from a FIFO into a memory";
  let description = [{
    Pops entries of FIFO `fifo` and writes their bytes to `memory` from
    `addr` until `size` bytes are written; an entry that would cross `size`
    is a FIFO misuse. The executing unit must be the FIFO's consumer. With
    `rows`, writes `rows` rows of `size` bytes whose starts are `stride`
    bytes apart, an entry continuing over the rows (`size` is then a row's
    bytes and an entry may not cross the last row's end).

    ```mlir
    dfir.store @q to "core0.L1"[%a] size %n
    dfir.store @q to "core0.L1"[%a] size %n rows %r stride %s
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$fifo, StrAttr:$memory, Index:$addr,
                       Index:$size, Optional<Index>:$rows,
                       Optional<Index>:$stride);
  let assemblyFormat = [{
    $fifo `to` $memory `[` $addr `]` `size` $size
    (`rows` $rows^ `stride` $stride)? attr-dict
  }];
  let builders = [
    OpBuilder<(ins "::mlir::FlatSymbolRefAttr":$fifo, "::mlir::StringAttr":$memory,
                   "::mlir::Value":$addr, "::mlir::Value":$size), [{
      build($_builder, $_state, fifo, memory, addr, size, ::mlir::Value(),
            ::mlir::Value());
    }]>
  ];
}

def DFIR_SendOp : DFIR_Op<"send", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "push a vector onto a FIFO";
  let arguments = (ins FlatSymbolRefAttr:$fifo, AnyVectorOfNonZeroRank:$value);
  let assemblyFormat = "$fifo `,` $value attr-dict `:` type($value)";
}

def DFIR_RecvOp : DFIR_Op<"recv", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "pop a vector from a FIFO";
  let description = [{
    Pops one entry, which must hold exactly the bytes of the result type.

    ```mlir
    %v = dfir.recv @q : vector<64xf16>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$fifo);
  let results = (outs AnyVectorOfNonZeroRank:$result);
  let assemblyFormat = "$fifo attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

def DFIR_MapOp : DFIR_Op<"map", [SingleBlock, RecursiveMemoryEffects]> {
  let summary = "apply a scalar body to every element";
  let description = [{
    The body takes one scalar per input (the element type of that input)
    and yields one scalar of the result's element type; every input and
    the result have the same shape. The body may use `arith`, `math` and
    `spyreop` scalar operations.

    ```mlir
    %r = dfir.map %a, %b : vector<64xf16>, vector<64xf16> -> vector<64xf16> {
    ^bb0(%x: f16, %y: f16):
      %s = arith.addf %x, %y : f16
      dfir.yield %s : f16
    }
    ```

    `accumulator N` marks input N as a loop-carried accumulator the map
    folds values into (a reduction's chunk result, or a row of a column
    reduction). The unit then holds 16-bit float values computed from it
    in f32, reads inputs written by `dfir.reduce` or another accumulating
    map at that precision, and keeps its result wide for the next fold;
    every other reader sees the result rounded to its type. The input must
    have the result's type.

    ```mlir
    %acc1 = dfir.map %sum, %acc accumulator 1 : vector<1xf16>, vector<1xf16> -> vector<1xf16> {
    ^bb0(%s: f16, %a: f16):
      %t = arith.addf %s, %a : f16
      dfir.yield %t : f16
    }
    ```
  }];
  let arguments = (ins Variadic<AnyVectorOfNonZeroRank>:$inputs,
                       OptionalAttr<I64Attr>:$accumulator);
  let results = (outs AnyVectorOfNonZeroRank:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs (`accumulator` $accumulator^)? attr-dict `:` type($inputs) `->`
    type($result) $body
  }];
  let hasRegionVerifier = 1;
}

def DFIR_YieldOp : DFIR_Op<"yield", [Pure, Terminator, HasParent<"MapOp">]> {
  let summary = "the result of a map body";
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

def DFIR_ReduceOp : DFIR_Op<"reduce", [Pure,
    OptionalTypesMatchWith<"the initial accumulator has the result type",
                           "result", "init", "$_self">]> {
  let summary = "reduce the innermost dimension of a vector";
  let description = [{
    Sequentially (element 0 first). f32 and f64 round to the element type
    at each step; f16 and bf16 accumulate in f32 inside the unit (at the
    reduction rate of the 16-bit type) and round once, and an accumulating
    `dfir.map` reading the result sees the f32 value. The result drops the
    innermost dimension (a 1-D input gives `vector<1xT>`). `max`/`min`
    propagate NaN (arith.maximumf/minimumf); `maxnum`/`minnum`, of floats
    only, skip it (arith.maxnumf/minnumf: a row of NaN alone reduces to NaN,
    which the fold into the accumulator then skips); all order -0 below +0.

    `maxafternan`/`minafternan`, of floats only, step as
    `cmpf ogt/olt %acc, %x` + `select %c, %acc, %x` does: a NaN element
    makes the accumulator NaN and the next element replaces it, so a row
    folds to the extremum of the elements after its last NaN (NaN when the
    last element is NaN). What a chunk holding a NaN gives does not depend
    on what came before it, which one value per row cannot tell the fold
    into the accumulator; so these kinds fold from `init` (required, of the
    result's type: the accumulator, one value per row) and the result is
    the new accumulator. `add` and `mul` of integers or of 32- and 64-bit
    floats may fold from `init` too (its first step combines the
    accumulator with element 0, as the kernel's loop does), so no map
    folds their result in; 16-bit floats, accumulated in f32 inside the
    unit, may not. The other kinds take no `init`.

    ```mlir
    %s = dfir.reduce add %v : vector<64xf16> -> vector<1xf16>
    %t = dfir.reduce add %w from %sum : vector<64xf32> -> vector<1xf32>
    %m = dfir.reduce maxafternan %v from %acc : vector<64xf16> -> vector<1xf16>
    ```
  }];
  let arguments = (ins DFIR_ReduceKind:$kind, AnyVectorOfNonZeroRank:$input,
                       Optional<AnyVectorOfNonZeroRank>:$init);
  let results = (outs AnyVectorOfNonZeroRank:$result);
  let assemblyFormat = "$kind $input (`from` $init^)? attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def DFIR_BroadcastOp : DFIR_Op<"broadcast", [Pure]> {
  let summary = "repeat each element along a new innermost dimension";
  let description = [{
    The inverse shape rule of `dfir.reduce`: `vector<4xf16>` to
    `vector<4x64xf16>` repeats each element 64 times; a one-element input is
    splat to any shape.

    ```mlir
    %b = dfir.broadcast %s : vector<1xf16> -> vector<64xf16>
    ```
  }];
  let arguments = (ins AnyVectorOfNonZeroRank:$input);
  let results = (outs AnyVectorOfNonZeroRank:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def DFIR_SplatOp : DFIR_Op<"splat", [Pure]> {
  let summary = "a vector with every element equal to a constant";
  let description = [{
    The value is written as a float literal and converted to the element
    type (truncated toward zero for integers).

    ```mlir
    %z = dfir.splat 0.0 : vector<64xf16>
    ```
  }];
  let arguments = (ins F64Attr:$value);
  let results = (outs AnyVectorOfNonZeroRank:$result);
  let assemblyFormat = "$value attr-dict `:` type($result)";
}

def DFIR_SplatArgOp : DFIR_Op<"splat_arg", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a vector with every element equal to a runtime argument";
  let description = [{
    The launch-time value of a float `dfir.runtime_arg` (a kernel's `%eps:
    f16`) broadcast over the vector; the element type must be the
    argument's. Of an integer `dfir.runtime_arg` (a layernorm's `%N` as the
    divisor of its mean, `arith.sitofp`), its value converted to the float
    element type, rounded once to nearest even. The emitter writes a
    `splat` whose immediate is a relocation site the runtime patches, so
    one program serves every value.

    ```mlir
    %e = dfir.splat_arg @arg4 : vector<1xf16>
    %n = dfir.splat_arg @arg7 : vector<64xf16>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$symbol);
  let results = (outs AnyVectorOfNonZeroRank:$result);
  let assemblyFormat = "$symbol attr-dict `:` type($result)";
}

def DFIR_IotaOp : DFIR_Op<"iota", [Pure]> {
  let summary = "a vector of element coordinates plus a scalar";
  let description = [{
    Every element is `base` plus its coordinate along `dimension` of the
    result, converted to the element type (rounded once to nearest even);
    without a dimension, every element is `base`. The compute lowering
    builds the coordinates a `linalg.index` reads, and the index values a
    `linalg.generic` body captures, with it.

    ```mlir
    %j = dfir.iota %c0 dimension 1 : vector<16x32xf32>
    %q = dfir.iota %row0 : vector<16x32xf32>
    ```
  }];
  let arguments = (ins Index:$base, OptionalAttr<I64Attr>:$dimension);
  let results = (outs AnyVectorOfNonZeroRank:$result);
  let assemblyFormat = [{
    $base (`dimension` $dimension^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def DFIR_MatmulOp : DFIR_Op<"matmul", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "matrix-engine multiply-accumulate";
  let description = [{
    `result = acc + lhs x rhs` with `lhs : MxK`, `rhs : KxN`,
    `acc : MxN`, accumulated in the element type of `acc`. A dot product
    has rank-1 operands: `lhs : K` is one row, `rhs : K` one column and
    `acc : 1` the 1x1 result (a row's sum of squares on a vector unit).

    ```mlir
    %c = dfir.matmul %a, %b, %acc : vector<8x8xf16>, vector<8x8xf16> -> vector<8x8xf32>
    %d = dfir.matmul %x, %x, %s : vector<32xf16>, vector<32xf16> -> vector<1xf32>
    ```
  }];
  let arguments = (ins VectorOfRank<[1, 2]>:$lhs, VectorOfRank<[1, 2]>:$rhs,
                       VectorOfRank<[1, 2]>:$acc);
  let results = (outs VectorOfRank<[1, 2]>:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Synchronisation
//===----------------------------------------------------------------------===//

def DFIR_SyncSendOp : DFIR_Op<"sync_send", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "send one token on a sync channel";
  let arguments = (ins FlatSymbolRefAttr:$sync);
  let assemblyFormat = "$sync attr-dict";
}

def DFIR_SyncRecvOp : DFIR_Op<"sync_recv", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "wait for and consume one token of a sync channel";
  let arguments = (ins FlatSymbolRefAttr:$sync);
  let assemblyFormat = "$sync attr-dict";
}

#endif // KTFLOW_DIALECT_DFIR_IR_DFIROPS_TD
