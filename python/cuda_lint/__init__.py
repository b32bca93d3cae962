"""cuda-lint: CUDA checks and fixes on LLVM/Clang, as a self-contained executable.

The wheel carries the `cuda-lint` executable (Clang, LLVM and clang-tidy linked
in), Clang's resource headers and cuda-lint's bundled CUDA declarations, under
this package's directory; `cuda-lint` on PATH runs it (see __main__.py).
"""

import os

__all__ = ["executable"]


def executable() -> str:
    """The path of the bundled cuda-lint executable."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "cuda-lint")
