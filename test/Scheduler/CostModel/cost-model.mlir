// RUN: ktflow-opt %s -split-input-file -verify-diagnostics --ktdf-test-cost-model

// The scheduler's cost model (include/ktflow/Scheduler/CostModel.h) on
// queries written as attributes, answered by the test pass. Expected by
// hand (W: chunk, f: factor, n = ceil(iterations / f)):
//
// Chunks: a row costs ceil(cols / W) * max(sum ceil(W / rate),
// W * bytes / bandwidth). 128 columns, one op at 64 per cycle, 2 bytes at
// 256 per cycle: W = 32 -> 4 * max(1, 0.25) = 4, 64 -> 2 * max(1, 0.5) = 2,
// 128 -> 1 * max(2, 1) = 2; the tie goes to the smaller, 64, past the
// 32-element granule. 256 columns at rates 64 and 16, 4 bytes at 128:
// every width costs 20, so the first, 64. 96 columns, granule 64: no
// multiple of 64 divides 96, so every divisor competes: ceil(96 / W) *
// ceil(W / 16) is 12, 6, 8, 6 for W = 8, 16, 24, 96: 16.
//
// Depths: 1 + ceil(latency / stage) within [2, 4], then no more copies
// than the capacity holds, at least 1: 1 + ceil(100 / 40) = 4; 1 + 0 -> 2;
// 1 + 100 -> 4, but 12288 / 4096 = 3 copies fit; not one 4096-byte copy
// fits in 1000 bytes -> 1.
//
// Coarsening, one 1024-byte load and store per iteration at 64 bytes per
// cycle, latency 100, one transfer in flight: a DMA stage takes 16f + 100,
// compute 16f, hand-over 10. Separate engines: (n - 1) * (16f + 100) +
// (16f + 100) + 10 + 16f + (16f + 100) = n(16f + 100) + 32f + 110: 1070,
// 702, 566, 594 for f = 1, 2, 4, 8 -> 4. With 8192 bytes for 2 copies of
// 2048f bytes only f <= 2 fit -> 2 (at f = 4 one copy fits, so the second
// execution waits for it, 64 + 100 + 10 after the first: 576). One engine for both: executions do not
// overlap, n(2 (16f + 100) + 10 + 16f) = n(48f + 210): 2064, 1224, 804,
// 594 -> 8. Two 512-byte loads, 2 lanes sharing the engines, 4 transfers
// in flight, no hand-over, 4 iterations: loads occupy 2 * 16f = 32f and
// wait for the latency once (4 transfers, 4 in flight), steady max(32f,
// (32f + 400) / 4); the store occupies 32f, steady max(32f, (32f + 200) /
// 4). f = 1: 3 * 108 + 132 + 16 + 132 = 604; f = 2: 116 + 164 + 32 + 164 =
// 476; f = 4: 228 + 64 + 228 = 520 -> 2.
//
// A misspelt field or a value of the wrong kind is an error.

// expected-remark @+1 {{chunk 64; cycles per row: 32 -> 4, 64 -> 2, 128 -> 2}}
func.func private @chunk_past_the_granule() attributes {chunk_query = {cols = 128, granule = 32, op_rates = [64], fifo_bytes_per_element = 2, fifo_bandwidth = 256, widths = [32, 64, 128]}}
// expected-remark @+1 {{chunk 64; cycles per row: 64 -> 20, 128 -> 20, 256 -> 20}}
func.func private @chunk_ties() attributes {chunk_query = {cols = 256, granule = 64, op_rates = [64, 16], fifo_bytes_per_element = 4, fifo_bandwidth = 128, widths = [64, 128, 256]}}
// expected-remark @+1 {{chunk 16; cycles per row: 8 -> 12, 16 -> 6, 24 -> 8, 96 -> 6}}
func.func private @chunk_no_granule_divides() attributes {chunk_query = {cols = 96, granule = 64, op_rates = [16], widths = [8, 16, 24, 96]}}
// expected-remark @+1 {{depth 4}}
func.func private @depth_latency() attributes {depth_query = {dma_latency = 100, stage_cycles = 40}}
// expected-remark @+1 {{depth 2}}
func.func private @depth_at_least_two() attributes {depth_query = {dma_latency = 0, stage_cycles = 40}}
// expected-remark @+1 {{depth 3}}
func.func private @depth_capacity() attributes {depth_query = {dma_latency = 1000, stage_cycles = 10, bytes_per_copy = 4096, capacity = 12288}}
// expected-remark @+1 {{depth 1}}
func.func private @depth_one_copy() attributes {depth_query = {dma_latency = 100, stage_cycles = 40, bytes_per_copy = 4096, capacity = 1000}}
// expected-remark @+1 {{factor 4; cycles: 1 -> 1070, 2 -> 702, 4 -> 566, 8 -> 594}}
func.func private @coarsen_separate_engines() attributes {coarsen_query = {candidates = [2, 4, 8], iterations = 8, load_bytes = [1024], store_bytes = [1024], latency = 100, bandwidth = 64, compute_cycles = 16, handover_cycles = 10, bytes_per_copy = 2048, copies = 2, capacity = 1048576}}
// expected-remark @+1 {{factor 2; cycles: 1 -> 1070, 2 -> 702, 4 -> 576, 8 -> 594}}
func.func private @coarsen_capacity() attributes {coarsen_query = {candidates = [2, 4, 8], iterations = 8, load_bytes = [1024], store_bytes = [1024], latency = 100, bandwidth = 64, compute_cycles = 16, handover_cycles = 10, bytes_per_copy = 2048, copies = 2, capacity = 8192}}
// expected-remark @+1 {{factor 8; cycles: 1 -> 2064, 2 -> 1224, 4 -> 804, 8 -> 594}}
func.func private @coarsen_shared_engine() attributes {coarsen_query = {candidates = [2, 4, 8], iterations = 8, load_bytes = [1024], store_bytes = [1024], latency = 100, bandwidth = 64, compute_cycles = 16, handover_cycles = 10, shared_dma = true}}
// expected-remark @+1 {{factor 2; cycles: 1 -> 588, 2 -> 444, 4 -> 456}}
func.func private @coarsen_in_flight() attributes {coarsen_query = {candidates = [2, 4], iterations = 4, load_bytes = [512, 512], store_bytes = [1024], latency = 100, bandwidth = 64, dma_sharing = 2, max_outstanding = 4, compute_cycles = 16}}

// -----

// expected-error @+1 {{depth_query has no field 'stage_cyles'}}
func.func private @typo() attributes {depth_query = {dma_latency = 100, stage_cyles = 40}}

// -----

// expected-error @+1 {{chunk_query.cols must be an integer}}
func.func private @not_a_number() attributes {chunk_query = {cols = "many"}}
