// Not MLIR: its sweep row says why.
module {
  func.func @broken(
