"""Writes the odd-shaped inputs of file-formats.test, or with --verify checks
what --fix made of them."""
import os
import sys

d = sys.argv[1]
KERNEL = "__global__ void k{n}(float *x) {{\n  x[threadIdx.x] = x[threadIdx.x] * 0.5;\n}}\n"
FIXED = "  x[threadIdx.x] = x[threadIdx.x] * 0.5f;"

def files():
    yield "crlf.cu", KERNEL.format(n=0).replace("\n", "\r\n").encode()
    yield "bom.cu", b"\xef\xbb\xbf" + KERNEL.format(n=0).encode()
    yield "tabs.cu", KERNEL.format(n=0).replace("  x[", "\tx[").encode()
    long_expr = " + ".join("x[%d]" % i for i in range(2000))
    yield "long.cu", ("__global__ void k(float *x) {\n  x[0] = (%s) * 0.5;\n}\n" % long_expr).encode()
    body = "".join("__device__ int f%d(int v) { return v + %d; }\n" % (i, i) for i in range(10000))
    yield "big.cu", (body + KERNEL.format(n=1)).encode()

if len(sys.argv) < 3:
    for name, data in files():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    sys.exit(0)

errors = []
for name, data in files():
    with open(os.path.join(d, name), "rb") as f:
        got = f.read()
    want = data.replace(b"* 0.5;", b"* 0.5f;")
    if got != want:
        errors.append("%s: not fixed as expected (%d bytes, expected %d)" % (name, len(got), len(want)))
if errors:
    sys.exit("\n".join(errors))
print("all formats fixed exactly")
