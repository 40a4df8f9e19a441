"""The error every ktflow function raises, and the diagnostics it carries.

Kept apart from the native module so that the module can build instances of
it: `ktflow.Error` is this class.
"""

from typing import NamedTuple, Optional, Tuple


class Diagnostic(NamedTuple):
    """One diagnostic as the command line prints it: `file:line:column:
    severity: message`. `file` is None (line and column 0) when it has no
    location in a file; kernels given as text are located in `<kernel>`."""

    severity: str
    file: Optional[str]
    line: int
    column: int
    message: str
    notes: Tuple["Diagnostic", ...] = ()

    def __str__(self):
        where = f"{self.file}:{self.line}:{self.column}: " if self.file else ""
        return f"{where}{self.severity}: {self.message}"


class Error(Exception):
    """A kernel or device that does not load, check or compile, a bad input
    or argument, a failed simulation.

    `message` is what `ktflow` on the command line would print to stderr,
    `diagnostics` the located diagnostics in it, and `status` the exit
    status the command line would give (1 for a user error, 3 for a failed
    simulation; README.md, "Errors and exit status").
    """

    def __init__(self, message, diagnostics=(), status=1):
        super().__init__(message)
        self.message = message
        self.diagnostics = tuple(diagnostics)
        self.status = status

    @property
    def errors(self):
        """The diagnostics of severity error."""
        return tuple(d for d in self.diagnostics if d.severity == "error")
