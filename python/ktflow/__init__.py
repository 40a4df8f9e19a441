"""ktflow: compile, simulate and verify KTIR kernels on dataflow devices.

The functions below do what the `ktflow` command's subcommands do, through
the same libraries (no process is started):

    import ktflow, numpy as np
    x = np.random.rand(64, 128).astype(np.float16)
    r = ktflow.run("softmax.mlir", "sample_device.mlir", inputs={"x": x})
    r.cycles, r.ratio, r.passed, r.outputs["y"]

Kernels and devices are paths (str or os.PathLike) or MLIR text (a str
holding a newline or a brace). Inputs are numpy arrays, anything with
`__array__` (a torch tensor), or the command line's spec strings
("random", "seq:0:64", "x.npy", ...); an array must have the tensor's
element type, as a .npy file must. Reports are the dicts `ktflow CMD
--json` prints (docs/json-output.md). Every failure raises `ktflow.Error`.
"""

import json
import os
import re
import tempfile

import numpy as np

from . import _ktflow
from ._errors import Diagnostic, Error

__all__ = [
    "Bundle", "Device", "Diagnostic", "Error", "RunResult", "check",
    "compile", "interp", "run", "__version__",
]

__version__ = _ktflow.version()
#: The commit the native module was built from.
git_hash = _ktflow.git_hash()
#: The version of the JSON reports' schema (docs/json-output.md).
REPORT_SCHEMA_VERSION = _ktflow.REPORT_SCHEMA_VERSION


def _is_text(source):
    return isinstance(source, str) and ("\n" in source or "{" in source)


def _source(kernel, what="kernel"):
    if isinstance(kernel, os.PathLike):
        path = os.fspath(kernel)
        return _ktflow.Source(False, path, path)
    if not isinstance(kernel, str):
        raise TypeError(f"{what} must be a path or MLIR text, not "
                        f"{type(kernel).__name__}")
    if _is_text(kernel):
        return _ktflow.Source(True, kernel, f"<{what}>")
    return _ktflow.Source(False, kernel, kernel)


def _inputs(inputs):
    if inputs is None:
        return []
    items = []
    for name, value in inputs.items():
        if not isinstance(value, str):
            value = np.ascontiguousarray(np.asarray(value))
        items.append((str(name), value))
    return items


def _args(args):
    if args is None:
        return []
    return [f"{name}={_scalar_text(value)}" for name, value in args.items()]


def _scalar_text(value):
    if isinstance(value, bool):
        raise TypeError("runtime arguments are integers or floats, not bool")
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _optimize(opt):
    if opt not in (0, 1, 2, 3):
        raise ValueError(f"opt must be 0 (the simplest legal schedule) or "
                         f"1, 2, 3 (the cost model's), not {opt!r}")
    return opt > 0


def _expected(expected, directory):
    """`NAME=FILE.npy` for each expected output, arrays saved as .npy files
    in `directory`, and the label each file's verdict gets back."""
    specs, labels = [], {}
    for index, (name, value) in enumerate((expected or {}).items()):
        if isinstance(value, (str, os.PathLike)):
            path = os.fspath(value)
        else:
            path = os.path.join(directory, f"{index}.npy")
            np.save(path, np.ascontiguousarray(np.asarray(value)))
            labels[f"{name} ({path})"] = str(name)
        specs.append(f"{name}={path}")
    return specs, labels


class Device:
    """A device description (a path or MLIR text) and its summary, as
    `ktflow arch-info` gives it: `summary` is the `--json` dict, `text` the
    text report. `name` picks one device of a file that has several."""

    def __init__(self, device, name=None):
        self._file = None
        if _is_text(device):
            # Kernels import their device by path, so text gets a file.
            self._file = tempfile.NamedTemporaryFile(
                "w", suffix=".mlir", prefix="ktflow-device-")
            self._file.write(device)
            self._file.flush()
            device = self._file.name
        self.path = os.path.abspath(os.fspath(device))
        summary, self.text = _ktflow.device_summary(
            _source(self.path, "device"), name or "")
        self.summary = json.loads(summary)
        self.name = self.summary["device"]

    @property
    def roofline(self):
        return self.summary["roofline"]

    def __repr__(self):
        return f"ktflow.Device({self.name!r}, path={self.path!r})"

    def __str__(self):
        return self.text


def _device_path(device):
    if device is None:
        return ""
    if isinstance(device, Device):
        return device.path
    if _is_text(device):
        raise TypeError("give a device's MLIR text as ktflow.Device(text)")
    return os.path.abspath(os.fspath(device))


def check(kernel):
    """Parses, verifies and checks the legality of a kernel file; returns
    the `ktflow check --json` report (a summary of every function)."""
    return json.loads(_ktflow.check(_source(kernel)))


def interp(kernel, inputs=None, args=None, func=None, seed=0,
           numerics="accumulate", max_element_ops=1 << 34, max_seconds=3600):
    """Runs a kernel on the reference interpreter; returns every tensor it
    wrote, by name, as numpy arrays. Inputs not given are generated as
    `ktflow interp` generates them (from `seed`)."""
    return _ktflow.interp(_source(kernel), func or "", _args(args),
                          _inputs(inputs), seed, numerics, max_element_ops,
                          max_seconds)


class Bundle:
    """A compiled kernel: the bytes of its program bundle
    (docs/bundle-format.md) and their metadata (`info`, the `ktflow inspect
    --json` report's "bundle")."""

    def __init__(self, data):
        self.data = bytes(data)
        report, self._text = _ktflow.inspect(self.data)
        self.info = json.loads(report)["bundle"]

    @classmethod
    def load(cls, path):
        with open(path, "rb") as f:
            return cls(f.read())

    def save(self, path):
        with open(path, "wb") as f:
            f.write(self.data)

    def inspect(self):
        """The bundle printed as `ktflow inspect` prints it."""
        return self._text

    def __bytes__(self):
        return self.data

    def __repr__(self):
        return (f"ktflow.Bundle(kernel={self.info['kernel']!r}, "
                f"device={self.info['device']!r}, "
                f"programs={self.info['programs']}, bytes={len(self.data)})")


def compile(kernel, device=None, opt=1, func=None):
    """Compiles a kernel for a device (default: the kernel's own
    `ktdf_arch.target`) to a program bundle. `opt=0` is `-O0`."""
    return Bundle(_ktflow.compile(_source(kernel), _device_path(device),
                                  func or "", _optimize(opt)))


def _natural_key(name):
    return [int(part) if part.isdigit() else part
            for part in re.split(r"(\d+)", name)]


class RunResult:
    """A simulated run: `report` is the `ktflow run --json` dict; `outputs`
    the tensors the kernel wrote, as numpy arrays."""

    def __init__(self, report, outputs):
        self.report = report
        self.outputs = outputs

    cycles = property(lambda self: self.report["cycles"])
    ratio = property(lambda self: self.report["ratio"],
                     doc="Simulated cycles over the roofline bound; None when "
                     "the launch has no work (the bound is 0 cycles).")
    roofline = property(lambda self: self.report["roofline"])
    bound = property(lambda self: self.report["roofline"]["cycles"],
                     doc="The roofline bound, in cycles.")
    units = property(lambda self: self.report["units"],
                     doc="Per-unit statistics, one dict per unit program.")
    kernel = property(lambda self: self.report["kernel"])
    device = property(lambda self: self.report["device"])

    @property
    def checks(self):
        """Each output's verdict against the interpreter; None unchecked."""
        check = self.report.get("check")
        return None if check is None else check["outputs"]

    @property
    def expected(self):
        """Each output's verdict against `run(expected=...)`; None without."""
        expected = self.report.get("expected")
        return None if expected is None else expected["outputs"]

    @property
    def passed(self):
        """Whether every output matched the interpreter (`check`) and the
        `expected` values; None when nothing was compared."""
        verdicts = [self.report[key]["pass"] for key in ("check", "expected")
                    if key in self.report]
        return all(verdicts) if verdicts else None

    def units_table(self):
        """The per-unit statistics as a text table, naturally sorted."""
        units = sorted(self.units, key=lambda u: _natural_key(u["name"]))
        width = max([4] + [len(u["name"]) for u in units])
        lines = [f"{'unit':<{width}} {'busy':>11} {'stalled':>11} "
                 f"{'finished':>11} {'util%':>6} {'bytes':>14} {'instrs':>7}"]
        for u in units:
            lines.append(
                f"{u['name']:<{width}} {u['busy']:>11} {u['stalled']:>11} "
                f"{u['finished']:>11} {100 * u['utilization']:>6.1f} "
                f"{u['bytes']:>14} {u['instructions']:>7}")
        return "\n".join(lines)

    def __repr__(self):
        verdict = {None: "", True: ", PASS", False: ", FAIL"}[self.passed]
        return (f"<ktflow.RunResult {self.kernel} on {self.device}: "
                f"{self.cycles} cycles, {self.ratio:.2f}x the roofline"
                f"{verdict}>")


def run(kernel, device=None, inputs=None, args=None, check=True, func=None,
        opt=1, seed=0, trace=None, numerics="accumulate",
        max_instructions=1 << 28, max_element_ops=1 << 34, max_seconds=3600,
        expected=None, rtol=None, atol=None):
    """Compiles a kernel for a device, simulates it and (with `check`)
    compares its outputs with the reference interpreter's, as `ktflow run
    --check` does. `expected` maps output names to your own answers (arrays
    or .npy paths), compared as `ktflow run --expected` does, within `rtol`
    and `atol` (torch.testing.assert_close's defaults for the output's
    type when None). A wrong output is not an error: see `passed`. `trace`
    writes the Chrome-trace timeline to that path."""
    with tempfile.TemporaryDirectory(prefix="ktflow-expected-") as directory:
        specs, labels = _expected(expected, directory)
        report, outputs = _ktflow.run(
            _source(kernel), _device_path(device), func or "",
            _optimize(opt), _args(args), _inputs(inputs), seed, bool(check),
            specs, -1.0 if rtol is None else float(rtol),
            -1.0 if atol is None else float(atol),
            os.fspath(trace) if trace else "", numerics, max_instructions,
            max_element_ops, max_seconds)
    report = json.loads(report)
    for output in report.get("expected", {}).get("outputs", []):
        output["name"] = labels.get(output["name"], output["name"])
    return RunResult(report, outputs)
