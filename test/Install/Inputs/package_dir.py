"""Prints the directory the ktflow Python package is imported from (the
package name is spelled here because lit substitutes it in RUN lines)."""
import os

import ktflow

print(os.path.dirname(ktflow.__file__))
