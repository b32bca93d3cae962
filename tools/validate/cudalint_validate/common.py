"""What every step uses: running a command, finding nvcc, cuobjdump and a
GPU, reading files."""

import os
import shutil
import subprocess

# The package's directory, and the repository's root (the default
# cuda-lint is ROOT/build/bin/cuda-lint).
PACKAGE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(PACKAGE)))


def sh(cmd, timeout=600, env=None, cwd=None):
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=timeout, env=env, cwd=cwd)
        return r.returncode, r.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        if isinstance(out, bytes):
            # subprocess gives the partial output as bytes, text mode or not
            out = out.decode("utf-8", "replace")
        return 124, out + "\n[timed out after %ds]" % timeout
    except FileNotFoundError as e:
        return 127, str(e)


def find_nvcc():
    """NVCC where it is set (and then only it), else nvcc on PATH or in
    CUDA_PATH."""
    if os.environ.get("NVCC"):
        return os.environ["NVCC"] if os.path.exists(os.environ["NVCC"]) else None
    for c in [shutil.which("nvcc"),
              os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "nvcc")]:
        if c and os.path.exists(c):
            return c
    return None


def find_cuobjdump(nvcc):
    """cuobjdump for the SASS evidence: CUOBJDUMP, PATH, beside nvcc, or in
    CUDA_PATH (it needs nvdisasm, which it looks for on PATH: the directory
    it is in goes first there when it is run)."""
    for c in [os.environ.get("CUOBJDUMP"), shutil.which("cuobjdump"),
              os.path.join(os.path.dirname(nvcc), "cuobjdump") if nvcc else None,
              os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "cuobjdump")]:
        if c and os.path.exists(c):
            return c
    return None


def has_gpu():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    rc, out = sh([smi, "-L"], timeout=30)
    return rc == 0 and "GPU" in out


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def read_text(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()
