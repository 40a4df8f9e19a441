//===- KTDPAttrs.td - ktdp attributes and enums ------------*- tablegen -*-===//
//
// This file defines the two memory-space attribute families found in
// published KTIR (`#ktdp.spyre_memory_space<...>` and
// `#ktdp.memory_space<...>`), the interface that normalises both to
// {global, ct_local(k)}, and the runtime_arg_extract kind enum.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDP_IR_KTDPATTRS_TD
#define KTFLOW_DIALECT_KTDP_IR_KTDPATTRS_TD

include "ktflow/Dialect/KTDP/IR/KTDPDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def KTDP_SpyreMemoryType : I32EnumAttr<"SpyreMemoryType",
    "Spyre memory type of the RFC-0682 spelling", [
      I32EnumAttrCase<"unspecified", 0>,
      I32EnumAttrCase<"LX", 1>,
      I32EnumAttrCase<"HBM", 2>,
      I32EnumAttrCase<"L0", 3>
    ]> {
  let cppNamespace = "::mlir::ktdp";
  let genSpecializedAttr = 0;
}

def KTDP_MemoryKind : I32EnumAttr<"MemoryKind",
    "visibility-based memory kind", [
      I32EnumAttrCase<"global", 0>,
      I32EnumAttrCase<"ct_local", 1>
    ]> {
  let cppNamespace = "::mlir::ktdp";
  let genSpecializedAttr = 0;
}

def KTDP_RuntimeArgExtractKind : I32EnumAttr<"RuntimeArgExtractKind",
    "which field of a runtime_arg to extract", [
      I32EnumAttrCase<"value", 0>,
      I32EnumAttrCase<"granularity", 1>,
      I32EnumAttrCase<"upperbound", 2>
    ]> {
  let cppNamespace = "::mlir::ktdp";
}

//===----------------------------------------------------------------------===//
// Memory-space interface
//===----------------------------------------------------------------------===//

def KTDP_MemorySpaceAttrInterface : AttrInterface<"MemorySpaceAttrInterface"> {
  let cppNamespace = "::mlir::ktdp";
  let description = [{
    Implemented by every ktdp memory-space spelling. Passes and the
    interpreter only ever ask this interface, so both published families
    behave identically.
  }];
  let methods = [
    InterfaceMethod<"The normalised memory kind (global or ct_local).",
      "::mlir::ktdp::MemoryKind", "getMemoryKind">,
    InterfaceMethod<[{
        The compute tile that owns this memory, if the spelling names one.
      }], "std::optional<int64_t>", "getComputeTileId">
  ];
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class KTDP_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<KTDP_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def KTDP_SpyreMemorySpaceAttr : KTDP_Attr<"SpyreMemorySpace",
    "spyre_memory_space", [DeclareAttrInterfaceMethods<KTDP_MemorySpaceAttrInterface>]> {
  let summary = "RFC-0682 memory space: HBM, LX, L0 or unspecified";
  let description = [{
    The memory-space spelling of RFC 0682 and the April-2026 reference
    dialect. `HBM` (and `unspecified`) normalise to `global`; `LX` and `L0`
    to `ct_local`, with `core` as the owning compute tile.

    ```mlir
    #ktdp.spyre_memory_space<HBM>
    #ktdp.spyre_memory_space<LX, core = 7>
    ```
  }];
  let parameters = (ins
    EnumParameter<KTDP_SpyreMemoryType>:$value,
    DefaultValuedParameter<"int64_t", "-1">:$core
  );
  let assemblyFormat = "`<` $value (`,` `core` `=` $core^)? `>`";
  let genVerifyDecl = 1;
}

def KTDP_MemorySpaceAttr : KTDP_Attr<"MemorySpace", "memory_space",
    [DeclareAttrInterfaceMethods<KTDP_MemorySpaceAttrInterface>]> {
  let summary = "visibility-based memory space: global or ct_local";
  let description = [{
    The device-agnostic spelling introduced after RFC 0682: `global` memory is
    reachable by every compute tile, `ct_local` memory is private to one
    (`ct_id`).

    ```mlir
    #ktdp.memory_space<global>
    #ktdp.memory_space<ct_local, ct_id = 3>
    ```
  }];
  let parameters = (ins
    EnumParameter<KTDP_MemoryKind>:$kind,
    DefaultValuedParameter<"int64_t", "-1">:$ct_id
  );
  let assemblyFormat = "`<` $kind (`,` `ct_id` `=` $ct_id^)? `>`";
  let genVerifyDecl = 1;
}

#endif // KTFLOW_DIALECT_KTDP_IR_KTDPATTRS_TD
