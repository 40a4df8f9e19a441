//===- KTDFArchAttrs.td - ktdf_arch attributes -------------*- tablegen -*-===//
//
// This file defines `#ktdf_arch.map<key = value, ...>`, the ordered map the
// published descriptions use for SIMD lanes per element type, word sizes per
// memory kind, access granularities and memory-space mappings.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDFARCH_IR_KTDFARCHATTRS_TD
#define KTFLOW_DIALECT_KTDFARCH_IR_KTDFARCHATTRS_TD

include "ktflow/Dialect/KTDFArch/IR/KTDFArchDialect.td"
include "mlir/IR/AttrTypeBase.td"

def KTDFArch_MapAttr : AttrDef<KTDFArch_Dialect, "Map"> {
  let mnemonic = "map";
  let summary = "an ordered map from types or attributes to attributes";
  let description = [{
    Keys are types (`f16`), strings (`"L1"`) or any other attribute (such as
    `#ktdp.memory_space<global>`); a type key is stored as a `TypeAttr`.
    Values are any attribute: integers, strings, lists of dictionaries.
    Keys are unique.

    ```mlir
    #ktdf_arch.map<f16 = 64, f32 = 32>
    #ktdf_arch.map<"L1" = [ {size_in_words = 64, align_in_words = 64} ]>
    #ktdf_arch.map<#ktdp.memory_space<global> = "DDR">
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"::mlir::Attribute">:$keys,
    ArrayRefParameter<"::mlir::Attribute">:$values
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The value stored under `key`, or null.
    ::mlir::Attribute lookup(::mlir::Attribute key) const;
    /// The value stored under the type key `type`, or null.
    ::mlir::Attribute lookup(::mlir::Type type) const;
    /// The value stored under the string key `key`, or null.
    ::mlir::Attribute lookup(::llvm::StringRef key) const;
    size_t size() const { return getKeys().size(); }
  }];
}

#endif // KTFLOW_DIALECT_KTDFARCH_IR_KTDFARCHATTRS_TD
