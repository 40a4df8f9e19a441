"""Shared fixtures of the ktflow package's tests: where the shipped kernels
and devices are, and the command-line tool the package is compared with.
CMake's test sets KTFLOW_SOURCE_DIR and KTFLOW_BIN_DIR; run by hand, the
defaults are this checkout and its build/bin."""

import os
import pathlib

import pytest

SOURCE = pathlib.Path(os.environ.get(
    "KTFLOW_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
BIN = pathlib.Path(os.environ.get("KTFLOW_BIN_DIR", SOURCE / "build" / "bin"))


@pytest.fixture
def kernels():
    return SOURCE / "examples" / "kernels"


@pytest.fixture
def devices():
    return SOURCE / "examples" / "devices"


@pytest.fixture
def ktflow_tool():
    return str(BIN / "ktflow")
