ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<#ktdp.memory_space<global> = "DDR",
                              #ktdp.memory_space<ct_local> = "L1">
