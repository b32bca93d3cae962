import importlib.machinery
import importlib.util
import sys

loader = importlib.machinery.SourceFileLoader("validate", sys.argv[1])
spec = importlib.util.spec_from_loader("validate", loader)
v = importlib.util.module_from_spec(spec)
loader.exec_module(v)
for line in ["NRepetitions=100 N=7 elapsed time=5.02764e+06 GDOF/s=0.5",
             "Time for 100 iterations: 45.2 ms",
             "Average kernel execution time: 12.3 (us)",
             "Kernel time: 1.5 ms, bandwidth 300 GB/s",
             "Bandwidth: 512.5 GB/s",
             "Average execution time of kernel 0: 1.2e-03 (s)",
             "TIME_MS 2.05"]:
    print(line, "->", v.timing_value(line))
