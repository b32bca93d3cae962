"""`cuda-lint ARGS` and `python -m cuda_lint ARGS`: run the bundled executable.

The process is replaced by the executable (exec), so its exit status, signals
and standard streams are those of cuda-lint itself.
"""

import os
import sys

from cuda_lint import executable


def main() -> None:
    exe = executable()
    if not os.access(exe, os.X_OK):
        sys.stderr.write(f"cuda-lint: error: the bundled executable {exe} is missing\n")
        sys.exit(2)
    os.execv(exe, [exe] + sys.argv[1:])


if __name__ == "__main__":
    main()
