"""The Python example of docs/quickstart.md, run as the page writes it: the
snippet is read from the page and executed, so the page cannot drift from
the package. Its assertion compares the simulated output with numpy's
max(x * 0.5, 0), an independent computation (exact in f16: halving and
clamping at zero round nothing)."""

import os
import re

from conftest import SOURCE


def test_quickstart_python_example():
    page = (SOURCE / "docs" / "quickstart.md").read_text()
    snippets = re.findall(r"```python\n(.*?)```", page, re.S)
    assert len(snippets) == 1
    cwd = os.getcwd()
    os.chdir(SOURCE)
    try:
        scope = {}
        exec(snippets[0], scope)
    finally:
        os.chdir(cwd)
    assert scope["r"].passed
    assert scope["r"].cycles > 0
