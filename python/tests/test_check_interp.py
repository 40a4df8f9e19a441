"""ktflow.check and ktflow.interp: reports as `--json` gives them, arrays in
and out, and located errors."""

import numpy as np
import pytest

import ktflow


def softmax_rows(x):
    """The softmax kernel's result, computed independently in float64."""
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_version():
    assert ktflow.__version__.count(".") == 2
    assert ktflow.git_hash
    assert ktflow.REPORT_SCHEMA_VERSION == 1


def test_check_reports_every_function(kernels):
    report = ktflow.check(kernels / "two_functions.mlir")
    assert report["schema_version"] == 1
    assert report["command"] == "check"
    assert report["legal"] is True
    names = [f["name"] for f in report["functions"]]
    assert len(names) == 2
    softmax = ktflow.check(str(kernels / "softmax.mlir"))["functions"][0]
    assert softmax["name"] == "softmax"
    assert softmax["grid"] == [32]
    assert softmax["loads"] == 1 and softmax["stores"] == 1


def test_check_text_error_is_located():
    with pytest.raises(ktflow.Error) as caught:
        ktflow.check("func.func @f() {\n  %0 = arith.constant 1 : i32x\n}\n")
    error = caught.value
    assert error.status == 1
    assert error.message.startswith("<kernel>:2:26: error: ")
    (diagnostic,) = error.diagnostics
    assert (diagnostic.file, diagnostic.line, diagnostic.column) == (
        "<kernel>", 2, 26)
    assert diagnostic.severity == "error"
    assert str(diagnostic) == error.message.splitlines()[0]


def test_missing_file_is_an_error(tmp_path):
    with pytest.raises(ktflow.Error, match="no such file|No such file"):
        ktflow.check(tmp_path / "absent.mlir")


def test_interp_with_an_array_matches_numpy(kernels):
    rng = np.random.default_rng(1)
    x = rng.uniform(-4, 4, size=(64, 128)).astype(np.float16)
    outputs = ktflow.interp(kernels / "softmax.mlir", inputs={"x": x})
    y = outputs["y"]
    assert y.dtype == np.float16 and y.shape == (64, 128)
    # f16 output: half an ulp at 1 is 2^-11; values are below 1.
    np.testing.assert_allclose(y.astype(np.float64), softmax_rows(x),
                               atol=2.0 ** -11, rtol=0)


class ArrayLike:
    """What torch tensors look like to numpy: only __array__."""

    def __init__(self, array):
        self.array = array

    def __array__(self, dtype=None):
        return self.array if dtype is None else self.array.astype(dtype)


def test_interp_accepts_array_likes_and_specs(kernels):
    x = np.random.default_rng(2).standard_normal((64, 128)).astype(np.float16)
    direct = ktflow.interp(kernels / "softmax.mlir", inputs={"x": x})["y"]
    wrapped = ktflow.interp(kernels / "softmax.mlir",
                            inputs={"x": ArrayLike(x)})["y"]
    np.testing.assert_array_equal(direct, wrapped)
    # A spec string takes the command line's grammar: zeros give 1/128.
    zeros = ktflow.interp(kernels / "softmax.mlir", inputs={"x": "zeros"})
    np.testing.assert_array_equal(zeros["y"], np.full((64, 128), 1 / 128,
                                                      np.float16))


def test_interp_with_a_torch_tensor(kernels):
    torch = pytest.importorskip("torch")
    x = torch.rand(64, 128, dtype=torch.float16)
    y = ktflow.interp(kernels / "softmax.mlir", inputs={"x": x})["y"]
    np.testing.assert_allclose(y.astype(np.float64), softmax_rows(x.numpy()),
                               atol=2.0 ** -11, rtol=0)


def test_interp_wrong_dtype_is_an_error(kernels):
    x = np.zeros((64, 128), np.float32)
    with pytest.raises(ktflow.Error) as caught:
        ktflow.interp(kernels / "softmax.mlir", inputs={"x": x})
    assert "f16" in caught.value.message or "<f2" in caught.value.message


def test_interp_unsupported_dtype_is_refused(kernels):
    with pytest.raises(ValueError, match="uint8"):
        ktflow.interp(kernels / "softmax.mlir",
                      inputs={"x": np.zeros((64, 128), np.uint8)})


def test_interp_binds_runtime_arguments(kernels):
    kernel = kernels / "realworld" / "vector_add_dyn.mlir"
    n = 1000
    x = np.arange(n, dtype=np.float32)
    y = np.full(n, 0.5, np.float32)
    out = ktflow.interp(kernel, inputs={"x_ptr": x, "y_ptr": y},
                        args={"n_elements": n})["output_ptr"]
    np.testing.assert_array_equal(out[:n], x + y)
    with pytest.raises(ktflow.Error, match="n_elements"):
        ktflow.interp(kernel, inputs={"x_ptr": x, "y_ptr": y})
