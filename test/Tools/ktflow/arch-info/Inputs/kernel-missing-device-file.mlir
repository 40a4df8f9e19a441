ktdf_arch.target @nowhere from "no-such-device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR">
