"""ktflow.compile, ktflow.run and ktflow.Device: the same bundles, reports
and verdicts as the command line."""

import json
import subprocess

import numpy as np
import pytest

import ktflow
from test_check_interp import softmax_rows


def test_device_summary(devices):
    device = ktflow.Device(devices / "sample_device.mlir")
    assert device.name == "sample_device"
    assert device.summary["device"] == "sample_device"
    assert "roofline" in device.summary
    assert str(device).startswith("device @sample_device")
    text = (devices / "sample_device.mlir").read_text()
    assert ktflow.Device(text).summary == device.summary


def test_compile_matches_the_command_line(kernels, devices, ktflow_tool,
                                          tmp_path):
    kernel = kernels / "softmax.mlir"
    device = devices / "sample_device.mlir"
    bundle = ktflow.compile(kernel, ktflow.Device(device))
    assert bundle.info["kernel"] == "softmax"
    assert bundle.info["device"] == "sample_device"
    assert [t["name"] for t in bundle.info["tensors"]] == ["x", "y"]
    out = tmp_path / "softmax.ktfb"
    subprocess.run([ktflow_tool, "compile", str(kernel), "--arch",
                    str(device), "-o", str(out)], check=True,
                   capture_output=True)
    assert bundle.data == out.read_bytes()
    assert ktflow.Bundle.load(out).info == bundle.info
    assert "softmax" in bundle.inspect()
    o0 = ktflow.compile(kernel, device, opt=0)
    assert o0.data != bundle.data
    with pytest.raises(ValueError):
        ktflow.compile(kernel, device, opt=4)


def test_run_checks_and_returns_outputs(kernels, devices):
    rng = np.random.default_rng(3)
    x = rng.uniform(-2, 2, size=(64, 128)).astype(np.float16)
    result = ktflow.run(kernels / "softmax.mlir",
                        devices / "sample_device.mlir", inputs={"x": x})
    assert result.passed is True
    assert [c["name"] for c in result.checks] == ["y"]
    assert result.cycles > 0
    assert result.bound == result.roofline["cycles"] > 0
    assert result.ratio == pytest.approx(result.cycles / result.bound)
    assert sum(u["instructions"] for u in result.units) == \
        result.report["instructions"]
    assert all(u["finished"] <= result.cycles for u in result.units)
    np.testing.assert_allclose(result.outputs["y"].astype(np.float64),
                               softmax_rows(x), atol=2.0 ** -11, rtol=0)
    table = result.units_table().splitlines()
    assert table[0].split()[0] == "unit"
    assert len(table) == 1 + len(result.units)
    unchecked = ktflow.run(kernels / "softmax.mlir",
                           devices / "sample_device.mlir", check=False)
    assert unchecked.passed is None and unchecked.checks is None


def test_run_report_is_the_command_lines(kernels, devices, ktflow_tool):
    kernel = kernels / "softmax.mlir"
    device = devices / "spyre_like.mlir"
    cli = subprocess.run([ktflow_tool, "run", str(kernel), "--arch",
                          str(device), "--check", "--json", "--seed", "5"],
                         check=True, capture_output=True, text=True)
    result = ktflow.run(kernel, device, seed=5)
    assert result.report == json.loads(cli.stdout)
    # Natural order: core[2] before core[10].
    names = [line.split()[0] for line in result.units_table().splitlines()[1:]]
    cores = [int(n.split("]")[0].split("[")[1]) for n in names]
    assert cores == sorted(cores)


def test_run_simulation_error_has_status_3(kernels, devices):
    with pytest.raises(ktflow.Error) as caught:
        ktflow.run(kernels / "softmax.mlir", devices / "sample_device.mlir",
                   max_instructions=100)
    assert caught.value.status == 3
    assert "simulation failed" in caught.value.message


def test_run_device_text_needs_a_device_object(kernels, devices):
    text = (devices / "sample_device.mlir").read_text()
    with pytest.raises(TypeError):
        ktflow.run(kernels / "softmax.mlir", text)
    result = ktflow.run(kernels / "softmax.mlir", ktflow.Device(text))
    assert result.device == "sample_device" and result.passed


def test_run_bad_input_name_is_an_error(kernels, devices):
    with pytest.raises(ktflow.Error, match="nosuch"):
        ktflow.run(kernels / "softmax.mlir", devices / "sample_device.mlir",
                   inputs={"nosuch": np.zeros(4, np.float16)})


def test_run_compares_with_expected_arrays(kernels, devices, tmp_path):
    rng = np.random.default_rng(5)
    x = rng.uniform(-2, 2, size=(64, 128)).astype(np.float16)
    want = softmax_rows(x)  # float64, computed by numpy
    result = ktflow.run(kernels / "softmax.mlir",
                        devices / "sample_device.mlir", inputs={"x": x},
                        check=False, expected={"y": want})
    assert result.checks is None
    assert [e["name"] for e in result.expected] == ["y"]
    assert result.passed is True
    # A wrong answer fails, named as given; a .npy path works too.
    wrong = want.copy()
    wrong[3, 7] += 0.25
    path = tmp_path / "wrong.npy"
    np.save(path, wrong)
    failed = ktflow.run(kernels / "softmax.mlir",
                        devices / "sample_device.mlir", inputs={"x": x},
                        expected={"y": path})
    assert failed.checks[0]["pass"] is True
    assert failed.expected[0]["pass"] is False
    assert failed.expected[0]["name"] == f"y ({path})"
    assert failed.passed is False
    # A loose enough tolerance accepts it.
    loose = ktflow.run(kernels / "softmax.mlir",
                       devices / "sample_device.mlir", inputs={"x": x},
                       check=False, expected={"y": wrong}, atol=0.3)
    assert loose.passed is True
    with pytest.raises(ktflow.Error):
        ktflow.run(kernels / "softmax.mlir", devices / "sample_device.mlir",
                   expected={"nope": want})


def test_run_opt_levels(kernels, devices):
    o0 = ktflow.run(kernels / "add.mlir", devices / "sample_device.mlir",
                    opt=0, check=False)
    o2 = ktflow.run(kernels / "add.mlir", devices / "sample_device.mlir",
                    opt=2, check=False)
    assert o0.report["optimized"] is False and o2.report["optimized"] is True
    assert o2.cycles < o0.cycles
    with pytest.raises(ValueError):
        ktflow.run(kernels / "add.mlir", devices / "sample_device.mlir", opt=4)
