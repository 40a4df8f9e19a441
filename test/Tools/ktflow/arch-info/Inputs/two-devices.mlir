ktdf_arch.device @first {
  %m = memory { kind = "M", size = 64 }
}
ktdf_arch.device @second attributes { ktdf_arch.clock_mhz = 250 } {
  %m = memory { kind = "M", size = 128 }
  %u = exec_unit { kind = "U", ktdf_arch.features = { ktdf_arch.feature.compute,
       ktdf_arch.feature.simd = { lanes = #ktdf_arch.map<f32 = 4> } } }
  datapath %m to %u : memory, exec_unit
}
