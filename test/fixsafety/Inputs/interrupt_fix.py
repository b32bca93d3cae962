"""Kill `cuda-lint --fix` at many points and check that no file is left
half-written: each must equal the original or the fixed text.

  interrupt_fix.py CUDA_LINT SOURCE WORKDIR
"""
import os
import shutil
import signal
import subprocess
import sys
import time

lint, source, work = sys.argv[1:4]
N = 12
orig = open(source, "rb").read()

# The fixed text, from an uninterrupted run.
os.makedirs(work, exist_ok=True)
ref = os.path.join(work, "ref.cu")
shutil.copy(source, ref)
subprocess.run([lint, "--fix", ref], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
fixed = open(ref, "rb").read()
if fixed == orig:
    sys.exit("the reference run fixed nothing")


def files(d):
    return [os.path.join(d, "f%02d.cu" % i) for i in range(N)]


def reset(d):
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for f in files(d):
        with open(f, "wb") as fh:
            fh.write(orig)


def run(mode, args):
    d = os.path.join(work, mode)
    # How long an uninterrupted run takes, then kills spread over it with
    # more of them near the end, where the files are written.
    reset(d)
    t0 = time.perf_counter()
    subprocess.run(args(d), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    total = time.perf_counter() - t0
    if any(open(f, "rb").read() != fixed for f in files(d)):
        sys.exit("%s: the uninterrupted run did not fix every file" % mode)
    points = [total * x for x in (0.3, 0.8, 0.93, 0.97, 0.99, 1.0, 1.02)]
    broken = 0
    for at in points:
        reset(d)
        p = subprocess.Popen(args(d), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
        time.sleep(at)
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait()
        for f in files(d):
            text = open(f, "rb").read()
            if text not in (orig, fixed):
                broken += 1
                print("%s: %s half-written after a kill at %.2fs" % (mode, f, at))
    print("%s: %d kills, %d broken files" % (mode, len(points), broken))
    return broken


bad = run("single", lambda d: [lint, "--fix"] + files(d))
bad += run("bulk", lambda d: [lint, "--fix", "--progress=none", "-j", "2", d])
sys.exit(1 if bad else 0)
