import sys

# argv[1]: tools/validate, the directory of the cudalint_validate package.
sys.path.insert(0, sys.argv[1])
from cudalint_validate import program_output as v  # noqa: E402

for line in ["NRepetitions=100 N=7 elapsed time=5.02764e+06 GDOF/s=0.5",
             "Time for 100 iterations: 45.2 ms",
             "Average kernel execution time: 12.3 (us)",
             "Kernel time: 1.5 ms, bandwidth 300 GB/s",
             "Bandwidth: 512.5 GB/s",
             "Average execution time of kernel 0: 1.2e-03 (s)",
             "TIME_MS 2.05"]:
    print(line, "->", v.timing_value(line))

# "100 times" counts repetitions: not a timing line.
print("repeat:", bool(v.TIMING_LINE.search(
    v.NUMBER.sub(" ", "Repeat the kernel execution: 100 times"))))
print("times:", bool(v.TIMING_LINE.search(
    v.NUMBER.sub(" ", "Execution times: 1.5 ms"))))
# A line printed once per kernel (the same text, numbers masked) is paired
# by position: the first kernel 2x faster, the second unchanged.
out = "kernel time: 1.0 (us)\nkernel time: 2.0 (us)\n"
fix = "kernel time: 0.5 (us)\nkernel time: 2.0 (us)\n"
to = v.program_times([v.parse_output(out)], [1.0])
tf = v.program_times([v.parse_output(fix)], [1.0])
print("speedup: %.3f" % v.program_speedup(to, tf)[0])
# A line with a time and a rate: its number is the time (lower is better),
# though the line also prints a rate; a rate alone is higher-is-better.
for a, b in [("NRepetitions=100 elapsed time=4.0e+06 GDOF/s=0.5",
              "NRepetitions=100 elapsed time=2.0e+06 GDOF/s=1.0"),
             ("Bandwidth: 100 GB/s", "Bandwidth: 200 GB/s"),
             ("Kernel time: 1.5 ms, bandwidth 300 GB/s",
              "Kernel time: 0.75 ms, bandwidth 600 GB/s")]:
    to = v.program_times([v.parse_output(a)], [1.0])
    tf = v.program_times([v.parse_output(b)], [1.0])
    print("%s: %.3f" % (a.split()[0], v.program_speedup(to, tf)[0]))
# A command line echoed with its options (`-s 1`) is not a timing line.
print("command:", bool(v.TIMING_LINE.search(v.NUMBER.sub(" ", "./main -q -n 64 -s 1"))))
# Clock counts and efficiencies computed from them are timings (the clock
# sample's output differs from run to run); a clock rate is not a result.
for line in ["Total clocks = 17879829", "Execution efficiency = 90.282810"]:
    print("clock:", bool(v.TIMING_LINE.search(v.NUMBER.sub(" ", line))))
print("efficiency is a rate:", v.timing_pick("Execution efficiency = 90.28")[1])
