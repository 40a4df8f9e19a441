// A kernel module that imports its target device and maps KTIR memory spaces
// onto the device's memories.
ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<#ktdp.memory_space<global> = "DDR",
                              #ktdp.memory_space<ct_local> = "LX">

func.func @copy(%src: index, %dst: index) attributes {grid = [32]} {
  return
}
