// RUN: ktflow-opt %s --ktdf-compile --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s
// RUN: ktflow-opt %s --ktdf-compile=O0 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=O0

// The scheduler's pipeline, pinned: mapping, scheduling and lowering with
// the four device checkpoints between them. -O0 keeps one SIMD width per
// chunk, no coarsening, single buffering, one lane per core, a grid
// point's iterations, their row tiles and output block on one instance,
// and loads left in their loops.

// CHECK:      builtin.module(
// CHECK-NEXT:   ktdf-select-kernel{func=},
// CHECK-NEXT:   ktdf-uplift-while,
// CHECK-NEXT:   ktdf-lower-if,
// CHECK-NEXT:   ktdf-import-target,
// CHECK-NEXT:   ktdf-lower-carried-scalars,
// CHECK-NEXT:   ktdf-merge-column-blocks{max-block-bytes=32768},
// CHECK-NEXT:   ktdf-unroll-carried-loops{max-trips=64},
// CHECK-NEXT:   ktdf-split-batched-reductions,
// CHECK-NEXT:   ktdf-lift-slices,
// CHECK-NEXT:   ktdf-forward-stores,
// CHECK-NEXT:   ktdf-stream-wide-rows{max-tile-bytes=0},
// CHECK-NEXT:   ktdf-record-tensor-extents,
// CHECK-NEXT:   ktdf-forward-scratchpad-parts,
// CHECK-NEXT:   ktdf-resolve-distributed-views,
// CHECK-NEXT:   ktdf-remote-scratchpad-loads,
// CHECK-NEXT:   ktdf-row-major-views,
// CHECK-NEXT:   ktdf-apply-device-patterns{checkpoint=pre_mapping},
// CHECK-NEXT:   ktir-check-legality,
// CHECK-NEXT:   ktdf-check-supported,
// CHECK-NEXT:   ktdf-split-wide-reductions{min-part-columns=1024},
// CHECK-NEXT:   ktdf-share-left-operands{max-factor=0 merge-points=true min-columns=64 use-lanes=true},
// CHECK-NEXT:   ktdf-split-output-blocks{max-factor=0 min-columns=64 min-reduction-columns=16 use-lanes=true},
// CHECK-NEXT:   ktdf-split-row-tiles{max-factor=0 use-lanes=true},
// CHECK-NEXT:   ktdf-split-point-rows{use-lanes=true},
// CHECK-NEXT:   ktdf-split-index-bound-gathers,
// CHECK-NEXT:   ktdf-lower-inter-tile,
// CHECK-NEXT:   ktdf-merge-exchange-tiles{use-lanes=true},
// CHECK-NEXT:   ktdf-carry-in-scratchpad,
// CHECK-NEXT:   ktdf-store-stats-after-loop,
// CHECK-NEXT:   ktdf-map-memory-spaces,
// CHECK-NEXT:   ktdf-sink-into-loops,
// CHECK-NEXT:   ktdf-generalize,
// CHECK-NEXT:   ktdf-legalize-unit-types,
// CHECK-NEXT:   ktdf-split-matrix-groups,
// CHECK-NEXT:   ktdf-split-shape-groups,
// CHECK-NEXT:   ktir-to-ktdf,
// CHECK-NEXT:   ktdf-apply-device-patterns{checkpoint=pre_scheduling},
// CHECK-NEXT:   ktdf-route-transfers,
// CHECK-NEXT:   ktdf-tile-streams{chunk=0 chunk-scale=0 use-cost-model=true},
// CHECK-NEXT:   ktdf-merge-adjacent-loads{all-engines=false max-bytes=32768},
// CHECK-NEXT:   ktdf-order-grid,
// CHECK-NEXT:   ktdf-spread-iterations{max-factor=0 use-lanes=true},
// CHECK-NEXT:   ktdf-distribute{balance=true use-lanes=true},
// CHECK-NEXT:   ktdf-coarsen{factor=0 factor-scale=0},
// CHECK-NEXT:   ktdf-buffer{depth=0},
// CHECK-NEXT:   ktdf-hoist-invariant-transfers{grid=true repeats=true span-copies=2 spans=true},
// CHECK-NEXT:   ktdf-widen-invariant-columns,
// CHECK-NEXT:   ktdf-keep-carried-chunks,
// CHECK-NEXT:   ktdf-row-blocks{blocks=0 merge-loads=0 store-blocks=0},
// CHECK-NEXT:   ktdf-split-product-columns,
// CHECK-NEXT:   ktdf-join-product-columns,
// CHECK-NEXT:   ktdf-allocate-scratchpad,
// CHECK-NEXT:   ktdf-schedule-all-reduce,
// CHECK-NEXT:   ktdf-apply-device-patterns{checkpoint=post_scheduling},
// CHECK-NEXT:   ktdf-to-dfir,
// CHECK-NEXT:   ktdf-apply-device-patterns{checkpoint=post_lowering}
// CHECK-NEXT: )

// O0: ktdf-lower-carried-scalars,
// O0-NOT: ktdf-merge-column-blocks
// O0-NOT: ktdf-split-wide-reductions
// O0-NOT: ktdf-share-left-operands
// O0-NOT: ktdf-split-output-blocks
// O0-NOT: ktdf-split-row-tiles
// O0-NOT: ktdf-split-point-rows
// O0-NOT: ktdf-split-index-bound-gathers
// O0: ktdf-merge-exchange-tiles{use-lanes=false},
// O0: ktdf-tile-streams{chunk=0 chunk-scale=0 use-cost-model=false},
// O0-NEXT: ktdf-order-grid,
// O0-NEXT: ktdf-distribute{balance=false use-lanes=false},
// O0-NEXT: ktdf-buffer{depth=1},
// O0-NEXT: ktdf-allocate-scratchpad,

// The lowering group takes no option (buildLoweringPipeline has no
// CompileOptions): it reads nothing but the ScheduleIR, so that --tune can
// give candidates of equal ScheduleIR one bundle. (The pipeline dumped,
// lowering this KTIR fails.)
// RUN: not ktflow-opt %s --ktdf-lowering --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOWER
// RUN: not ktflow-opt %s --pass-pipeline='builtin.module(ktdf-lowering{O0=true})' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOWER-O0
// LOWER:      builtin.module(
// LOWER-NEXT:   ktdf-to-dfir,
// LOWER-NEXT:   ktdf-apply-device-patterns{checkpoint=post_lowering}
// LOWER-NEXT: )
// LOWER-O0: error: failed to add `ktdf-lowering` with options `O0=true`

ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
