//===- InterpreterBench.cpp - Throughput of the KTIR interpreter ----------===//
//
// This file measures the reference interpreter on the kernels the issue
// names: a 32-tile softmax over 4096x1024 f16, a 32-tile layernorm of the
// same shape, and a 512x512x512 matmul (f16 inputs, f32 accumulation) over
// 32 tiles. Kernels are generated from the shapes of examples/kernels;
// parsing and input generation are outside the timed loop, binding the
// inputs and running inside.
// Throughput is reported in elements per second (input elements for the
// normalisations, multiply-accumulates for the matmul).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Interpreter/Interpreter.h"
#include "ktflow/Registration/Registration.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "benchmark/benchmark.h"

#include <malloc.h>
#include <random>
#include <string>

using namespace ktflow::host;
using namespace ktflow::interp;

namespace {

/// Replaces every `@NAME@` in `text`.
std::string substitute(std::string text,
                       std::initializer_list<std::pair<const char *, int64_t>>
                           values) {
  for (const auto &[name, value] : values) {
    std::string token = std::string("@") + name + "@";
    for (size_t at = text.find(token); at != std::string::npos;
         at = text.find(token, at))
      text.replace(at, token.size(), std::to_string(value));
  }
  return text;
}

const char *kSoftmax = R"mlir(
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + @RM1@ >= 0, d1 >= 0, -d1 + @CM1@ >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + @BM1@ >= 0, d1 >= 0, -d1 + @CM1@ >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @softmax(%x: index, %y: index) attributes {grid = [32]} {
    %id = ktdp.get_compute_tile_id : index
    %cb = arith.constant @B@ : index
    %row0 = arith.muli %id, %cb : index
    %X = ktdp.construct_memory_view %x, sizes: [@R@, @C@], strides: [@C@, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<@R@x@C@xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [@R@, @C@], strides: [@C@, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<@R@x@C@xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<@R@x@C@xf16> -> !ktdp.access_tile<@B@x@C@xindex>
    %ty = ktdp.construct_access_tile %Y[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<@R@x@C@xf16> -> !ktdp.access_tile<@B@x@C@xindex>
    %xh = ktdp.load %tx : <@B@x@C@xindex> -> tensor<@B@x@C@xf16>
    %xf = arith.extf %xh : tensor<@B@x@C@xf16> to tensor<@B@x@C@xf32>
    %neg_inf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %row_init = tensor.empty() : tensor<@B@xf32>
    %max_init = linalg.fill ins(%neg_inf : f32) outs(%row_init : tensor<@B@xf32>) -> tensor<@B@xf32>
    %max = linalg.reduce ins(%xf : tensor<@B@x@C@xf32>) outs(%max_init : tensor<@B@xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %m = arith.maximumf %in, %acc : f32
        linalg.yield %m : f32
      }
    %full = tensor.empty() : tensor<@B@x@C@xf32>
    %exp = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%xf, %max : tensor<@B@x@C@xf32>, tensor<@B@xf32>) outs(%full : tensor<@B@x@C@xf32>) {
      ^bb0(%in: f32, %m: f32, %out: f32):
        %d = arith.subf %in, %m : f32
        %ex = math.exp %d : f32
        linalg.yield %ex : f32
    } -> tensor<@B@x@C@xf32>
    %sum_init = linalg.fill ins(%zero : f32) outs(%row_init : tensor<@B@xf32>) -> tensor<@B@xf32>
    %sum = linalg.reduce ins(%exp : tensor<@B@x@C@xf32>) outs(%sum_init : tensor<@B@xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    %out = tensor.empty() : tensor<@B@x@C@xf16>
    %yh = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%exp, %sum : tensor<@B@x@C@xf32>, tensor<@B@xf32>) outs(%out : tensor<@B@x@C@xf16>) {
      ^bb0(%e: f32, %s: f32, %o: f16):
        %q = arith.divf %e, %s : f32
        %h = arith.truncf %q : f32 to f16
        linalg.yield %h : f16
    } -> tensor<@B@x@C@xf16>
    ktdp.store %yh, %ty : tensor<@B@x@C@xf16>, <@B@x@C@xindex>
    return
  }
}
)mlir";

const char *kLayernorm = R"mlir(
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + @RM1@ >= 0, d1 >= 0, -d1 + @CM1@ >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + @CM1@ >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + @BM1@ >= 0, d1 >= 0, -d1 + @CM1@ >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
module {
  func.func @layernorm(%x: index, %w: index, %b: index, %y: index) attributes {grid = [32]} {
    %id = ktdp.get_compute_tile_id : index
    %cb = arith.constant @B@ : index
    %row0 = arith.muli %id, %cb : index
    %X = ktdp.construct_memory_view %x, sizes: [@R@, @C@], strides: [@C@, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<@R@x@C@xf16>
    %W = ktdp.construct_memory_view %w, sizes: [@C@], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<@C@xf16>
    %B = ktdp.construct_memory_view %b, sizes: [@C@], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<@C@xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [@R@, @C@], strides: [@C@, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<@R@x@C@xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<@R@x@C@xf16> -> !ktdp.access_tile<@B@x@C@xindex>
    %tw = ktdp.construct_access_tile %W[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<@C@xf16> -> !ktdp.access_tile<@C@xindex>
    %tb = ktdp.construct_access_tile %B[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<@C@xf16> -> !ktdp.access_tile<@C@xindex>
    %ty = ktdp.construct_access_tile %Y[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<@R@x@C@xf16> -> !ktdp.access_tile<@B@x@C@xindex>
    %xh = ktdp.load %tx : <@B@x@C@xindex> -> tensor<@B@x@C@xf16>
    %wh = ktdp.load %tw : <@C@xindex> -> tensor<@C@xf16>
    %bh = ktdp.load %tb : <@C@xindex> -> tensor<@C@xf16>
    %xf = arith.extf %xh : tensor<@B@x@C@xf16> to tensor<@B@x@C@xf32>
    %wf = arith.extf %wh : tensor<@C@xf16> to tensor<@C@xf32>
    %bf = arith.extf %bh : tensor<@C@xf16> to tensor<@C@xf32>
    %zero = arith.constant 0.0 : f32
    %n = arith.constant dense<@C@.0> : tensor<@B@xf32>
    %eps = arith.constant dense<1.0e-05> : tensor<@B@xf32>
    %rows = tensor.empty() : tensor<@B@xf32>
    %acc0 = linalg.fill ins(%zero : f32) outs(%rows : tensor<@B@xf32>) -> tensor<@B@xf32>
    %sum = linalg.reduce ins(%xf : tensor<@B@x@C@xf32>) outs(%acc0 : tensor<@B@xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    %mean = arith.divf %sum, %n : tensor<@B@xf32>
    %full = tensor.empty() : tensor<@B@x@C@xf32>
    %centered = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%xf, %mean : tensor<@B@x@C@xf32>, tensor<@B@xf32>) outs(%full : tensor<@B@x@C@xf32>) {
      ^bb0(%in: f32, %m: f32, %out: f32):
        %d = arith.subf %in, %m : f32
        linalg.yield %d : f32
    } -> tensor<@B@x@C@xf32>
    %sqsum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
        ins(%centered : tensor<@B@x@C@xf32>) outs(%acc0 : tensor<@B@xf32>) {
      ^bb0(%c: f32, %acc: f32):
        %sq = arith.mulf %c, %c : f32
        %s = arith.addf %sq, %acc : f32
        linalg.yield %s : f32
    } -> tensor<@B@xf32>
    %var = arith.divf %sqsum, %n : tensor<@B@xf32>
    %var_eps = arith.addf %var, %eps : tensor<@B@xf32>
    %rstd = math.rsqrt %var_eps : tensor<@B@xf32>
    %out = tensor.empty() : tensor<@B@x@C@xf16>
    %yh = linalg.generic {indexing_maps = [#id2, #row, #col, #col, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%centered, %rstd, %wf, %bf : tensor<@B@x@C@xf32>, tensor<@B@xf32>, tensor<@C@xf32>, tensor<@C@xf32>) outs(%out : tensor<@B@x@C@xf16>) {
      ^bb0(%c: f32, %r: f32, %wj: f32, %bj: f32, %o: f16):
        %n1 = arith.mulf %c, %r : f32
        %n2 = arith.mulf %n1, %wj : f32
        %n3 = arith.addf %n2, %bj : f32
        %h = arith.truncf %n3 : f32 to f16
        linalg.yield %h : f16
    } -> tensor<@B@x@C@xf16>
    ktdp.store %yh, %ty : tensor<@B@x@C@xf16>, <@B@x@C@xindex>
    return
  }
}
)mlir";

const char *kMatmul = R"mlir(
#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + @MM1@ >= 0, d1 >= 0, -d1 + @KM1@ >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + @KM1@ >= 0, d1 >= 0, -d1 + @NM1@ >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + @MM1@ >= 0, d1 >= 0, -d1 + @NM1@ >= 0)>
#a_tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + @BM1@ >= 0, d1 >= 0, -d1 + @KM1@ >= 0)>
#c_tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + @BM1@ >= 0, d1 >= 0, -d1 + @NM1@ >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul(%a: index, %b: index, %c: index) attributes {grid = [32]} {
    %id = ktdp.get_compute_tile_id : index
    %cb = arith.constant @B@ : index
    %m0 = arith.muli %id, %cb : index
    %A = ktdp.construct_memory_view %a, sizes: [@M@, @K@], strides: [@K@, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<@M@x@K@xf16>
    %B = ktdp.construct_memory_view %b, sizes: [@K@, @N@], strides: [@N@, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<@K@x@N@xf16>
    %C = ktdp.construct_memory_view %c, sizes: [@M@, @N@], strides: [@N@, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<@M@x@N@xf32>
    %ta = ktdp.construct_access_tile %A[%m0, 0] {access_tile_set = #a_tile, access_tile_order = #id2} : memref<@M@x@K@xf16> -> !ktdp.access_tile<@B@x@K@xindex>
    %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #b_set, access_tile_order = #id2} : memref<@K@x@N@xf16> -> !ktdp.access_tile<@K@x@N@xindex>
    %tc = ktdp.construct_access_tile %C[%m0, 0] {access_tile_set = #c_tile, access_tile_order = #id2} : memref<@M@x@N@xf32> -> !ktdp.access_tile<@B@x@N@xindex>
    %at = ktdp.load %ta : <@B@x@K@xindex> -> tensor<@B@x@K@xf16>
    %bt = ktdp.load %tb : <@K@x@N@xindex> -> tensor<@K@x@N@xf16>
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<@B@x@N@xf32>
    %acc0 = linalg.fill ins(%zero : f32) outs(%empty : tensor<@B@x@N@xf32>) -> tensor<@B@x@N@xf32>
    %c_val = linalg.matmul ins(%at, %bt : tensor<@B@x@K@xf16>, tensor<@K@x@N@xf16>) outs(%acc0 : tensor<@B@x@N@xf32>) -> tensor<@B@x@N@xf32>
    ktdp.store %c_val, %tc : tensor<@B@x@N@xf32>, <@B@x@N@xindex>
    return
  }
}
)mlir";

struct Kernel {
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

Kernel parse(const std::string &text) {
  mlir::DialectRegistry registry;
  ktflow::registerAllDialects(registry);
  Kernel k;
  k.context = std::make_unique<mlir::MLIRContext>(registry);
  k.context->loadAllAvailableDialects();
  k.module = mlir::parseSourceString<mlir::ModuleOp>(text, k.context.get());
  return k;
}

/// Seeded uniform inputs in [-1, 1), generated once outside the timed loop
/// so that the numbers measure interpretation, not input generation.
Tensor randomInput(DType dtype, llvm::ArrayRef<int64_t> shape, uint64_t seed) {
  Tensor t = Tensor::zeros(dtype, shape);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (double &v : t.floats)
    v = uniform(rng);
  roundArray(dtype, t.floats.data(), t.floats.size());
  return t;
}

void runKernel(benchmark::State &state, const std::string &text,
               int64_t itemsPerRun,
               std::vector<std::pair<std::string, Tensor>> inputs) {
  Kernel k = parse(text);
  if (!k.module) {
    state.SkipWithError("kernel does not parse");
    return;
  }
  std::vector<std::pair<std::string, InputSpec>> specs;
  for (auto &[name, tensor] : inputs)
    specs.push_back({name, InputSpec::fromTensor(std::move(tensor))});
  for (auto _ : state) {
    Interpreter interpreter(*k.module);
    if (llvm::Error err = interpreter.selectFunction()) {
      state.SkipWithError(llvm::toString(std::move(err)).c_str());
      return;
    }
    interpreter.recoverArgumentNames(text);
    for (const auto &[name, spec] : specs)
      if (llvm::Error err = interpreter.setInput(name, spec)) {
        state.SkipWithError(llvm::toString(std::move(err)).c_str());
        return;
      }
    if (mlir::failed(interpreter.run())) {
      state.SkipWithError("interpreter run failed");
      return;
    }
    benchmark::DoNotOptimize(interpreter.getOutputs().size());
  }
  state.SetItemsProcessed(state.iterations() * itemsPerRun);
}

void BM_Softmax4096x1024(benchmark::State &state) {
  const int64_t r = 4096, c = 1024, b = r / 32;
  runKernel(state,
            substitute(kSoftmax, {{"RM1", r - 1}, {"CM1", c - 1},
                                  {"BM1", b - 1}, {"R", r}, {"C", c},
                                  {"B", b}}),
            r * c, {{"x", randomInput(DType::F16, {r, c}, 1)}});
}

void BM_Layernorm4096x1024(benchmark::State &state) {
  const int64_t r = 4096, c = 1024, b = r / 32;
  runKernel(state,
            substitute(kLayernorm, {{"RM1", r - 1}, {"CM1", c - 1},
                                    {"BM1", b - 1}, {"R", r}, {"C", c},
                                    {"B", b}}),
            r * c,
            {{"x", randomInput(DType::F16, {r, c}, 1)},
             {"w", randomInput(DType::F16, {c}, 2)},
             {"b", randomInput(DType::F16, {c}, 3)}});
}

void BM_Matmul512(benchmark::State &state) {
  const int64_t n = 512, b = n / 32;
  runKernel(state,
            substitute(kMatmul, {{"MM1", n - 1}, {"KM1", n - 1},
                                 {"NM1", n - 1}, {"BM1", b - 1}, {"M", n},
                                 {"K", n}, {"N", n}, {"B", b}}),
            n * n * n,
            {{"a", randomInput(DType::F16, {n, n}, 1)},
             {"b", randomInput(DType::F16, {n, n}, 2)}});
}

} // namespace

BENCHMARK(BM_Softmax4096x1024)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Layernorm4096x1024)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Matmul512)->Unit(benchmark::kMillisecond)->Iterations(2);

int main(int argc, char **argv) {
  // Every op allocates and frees megabyte tensors; keep freed memory in the
  // heap rather than returning it to the kernel each time, as `ktflow interp`
  // does.
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
