ktdf_arch.device @bad {
  %m = memory { kind = "M", size = -5 }
}
