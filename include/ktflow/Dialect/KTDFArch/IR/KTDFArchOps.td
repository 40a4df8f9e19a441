//===- KTDFArchOps.td - ktdf_arch operations ---------------*- tablegen -*-===//
//
// This file defines the operations of an architecture description: the
// device, its memories, execution units, groups and datapaths, the PDL
// pattern blocks it carries, and the kernel-side `target` declaration.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDFARCH_IR_KTDFARCHOPS_TD
#define KTFLOW_DIALECT_KTDFARCH_IR_KTDFARCHOPS_TD

include "ktflow/Dialect/KTDFArch/IR/KTDFArchAttrs.td"
include "ktflow/Dialect/KTDFArch/IR/KTDFArchDialect.td"
include "ktflow/Dialect/KTDFArch/IR/KTDFArchTypes.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// Ops whose regions hold ktdf_arch ops print and parse them without the
// `ktdf_arch.` prefix, as the published descriptions are written.
defvar KTDFArch_DefaultDialect =
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getDefaultDialect"]>;
defvar KTDFArch_InDeviceBody = ParentOneOf<["DeviceOp", "GroupOp"]>;

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

def KTDFArch_DeviceOp : KTDFArch_Op<"device", [
    Symbol, IsolatedFromAbove, NoTerminator, SingleBlock, NoRegionArguments,
    KTDFArch_DefaultDialect]> {
  let summary = "an architecture description";
  let description = [{
    The body defines the device-level nodes (usually the device memory),
    the groups that replicate cores and sub-cores, the datapaths between
    nodes, and `patterns` blocks. Device-wide properties such as the clock
    go in the attribute dictionary.

    ```mlir
    ktdf_arch.device @sample attributes {ktdf_arch.clock_mhz = 1000} {
      %ddr = memory #DDR
      ...
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

def KTDFArch_MemoryOp : KTDFArch_Op<"memory", [
    KTDFArch_InDeviceBody, Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "a memory node";
  let description = [{
    `spec` is a dictionary with the memory's `kind` (the name memory maps
    and word-size maps refer to) and `size` in bytes, plus optional
    `ktdf_arch.bandwidth` (bytes/cycle over all ports). Keys of other
    dialects are kept.

    ```mlir
    %l1 = memory {kind = "L1", size = 1048576}
    ```
  }];
  let arguments = (ins DictionaryAttr:$spec);
  let results = (outs KTDFArch_MemoryType:$result);
  let assemblyFormat = "$spec attr-dict";
  let hasVerifier = 1;
}

def KTDFArch_ExecUnitOp : KTDFArch_Op<"exec_unit", [
    KTDFArch_InDeviceBody, Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "an execution-unit node";
  let description = [{
    `spec` is a dictionary with an optional `kind` and the unit's
    `ktdf_arch.features` (compute, simd, matrix, load, store, queue,
    throughput). A unit's role is derived from its features and its place
    in the graph, never from its kind.

    ```mlir
    %sfu = exec_unit {kind = "SFU", ktdf_arch.features = {
        ktdf_arch.feature.compute,
        ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64>}}}
    ```
  }];
  let arguments = (ins DictionaryAttr:$spec);
  let results = (outs KTDFArch_ExecUnitType:$result);
  let assemblyFormat = "$spec attr-dict";
  let hasVerifier = 1;
}

def KTDFArch_GroupOp : KTDFArch_Op<"group", [
    KTDFArch_InDeviceBody,
    DeclareOpInterfaceMethods<OpAsmOpInterface,
                              ["getDefaultDialect", "getAsmResultNames"]>,
    SingleBlockImplicitTerminator<"YieldOp">, NoRegionArguments]> {
  let summary = "a replicated part of the device graph";
  let description = [{
    The body is one instance of a core, sub-core or unit block; the nodes in
    `share(...)` are defined outside and shared by every instance. A group
    that stands for one unit yields it and has a result.
    `ktdf_arch.instances = N` in the dictionary replicates the body N times;
    `ktdf_arch.interconnect` says how those instances are linked.

    ```mlir
    group {kind = "core", ktdf_arch.instances = 32} share(%ddr) { ... }
    %sfu = group {kind = "SFU_Block"} share() {
      %u = exec_unit #SFU
      yield %u
    } -> exec_unit
    ```
  }];
  let arguments = (ins OptionalAttr<DictionaryAttr>:$spec,
                       Variadic<KTDFArch_NodeType>:$shared);
  let results = (outs Optional<KTDFArch_NodeType>:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def KTDFArch_YieldOp : KTDFArch_Op<"yield", [
    Pure, Terminator, HasParent<"GroupOp">]> {
  let summary = "the node a group stands for";
  let description = [{
    Ends a group body; `yield %unit` makes the group's result denote
    `%unit`. A group without a result ends with an implicit `yield`.
  }];
  let arguments = (ins Variadic<KTDFArch_NodeType>:$nodes);
  let builders = [OpBuilder<(ins), [{ /* no nodes */ }]>];
  let hasCustomAssemblyFormat = 1;
}

def KTDFArch_DatapathOp : KTDFArch_Op<"datapath", [KTDFArch_InDeviceBody]> {
  let summary = "a directed link between two nodes";
  let description = [{
    Moves data from `src` to `dst`. The optional dictionary holds
    `ktdf_arch.transfer_granularity` (bytes, alternatives),
    `ktdf_arch.bandwidth` (bytes/cycle), `ktdf_arch.latency` (cycles) and a
    `ktdf_arch.feature.queue` feature that makes the link a FIFO.

    ```mlir
    datapath #Q16 %l1 to %l1lu : memory, exec_unit
    datapath %l1lu to %sfu : exec_unit, exec_unit
    ```
  }];
  let arguments = (ins OptionalAttr<DictionaryAttr>:$spec,
                       KTDFArch_NodeType:$src, KTDFArch_NodeType:$dst);
  let assemblyFormat = [{
    ($spec^)? $src `to` $dst `:` custom<NodeType>(type($src)) `,`
    custom<NodeType>(type($dst)) attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

def KTDFArch_PatternsOp : KTDFArch_Op<"patterns", [
    HasParent<"DeviceOp">, NoTerminator, SingleBlock, NoRegionArguments,
    SymbolTable,
    KTDFArch_DefaultDialect]> {
  let summary = "PDL rewrite patterns applied at pipeline checkpoints";
  let description = [{
    Holds `pdl.pattern` ops that the compiler applies at each listed
    checkpoint: `pre_mapping`, `pre_scheduling`, `post_scheduling`,
    `post_lowering`.

    ```mlir
    patterns ["pre_scheduling"] {
      pdl.pattern @widen_exp : benefit(1) { ... }
    }
    ```
  }];
  let arguments = (ins StrArrayAttr:$checkpoints);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$checkpoints attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Kernel-side target declaration
//===----------------------------------------------------------------------===//

def KTDFArch_TargetOp : KTDFArch_Op<"target", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the device a kernel module is compiled for";
  let description = [{
    Names the target device, either defined in the same module or imported
    from a description file (a path relative to this file's directory), and
    maps KTIR memory spaces onto device memory kinds. Keys of `memory_map`
    are ktdp memory spaces of either spelling, or the strings `"global"` /
    `"ct_local"`; values are memory kinds of the device.

    ```mlir
    ktdf_arch.target @sample_device from "../devices/sample_device.mlir"
        memory_map #ktdf_arch.map<#ktdp.memory_space<global> = "DDR",
                                  #ktdp.memory_space<ct_local> = "L1">
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$device,
                       OptionalAttr<StrAttr>:$path,
                       KTDFArch_MapAttr:$memory_map);
  let assemblyFormat = [{
    $device (`from` $path^)? `memory_map` qualified($memory_map) attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Checks that `device` defines every memory kind the map names;
    /// reports against this op.
    ::mlir::LogicalResult verifyDevice(DeviceOp device);
    /// The device memory kind that KTIR's "global" or "ct_local" space maps
    /// to, if the map has it.
    std::optional<::llvm::StringRef>
    getDeviceMemoryKind(::llvm::StringRef ktirSpace);
  }];
}

#endif // KTFLOW_DIALECT_KTDFARCH_IR_KTDFARCHOPS_TD
