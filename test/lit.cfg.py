# -*- Python -*-
import os
import shutil

import lit.formats

config.name = "cuda-lint"
config.test_format = lit.formats.ShTest(not lit_config.useValgrind)
config.suffixes = [".cu", ".cuh", ".test", ".cpp"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "check_cuda_lint.py", "test_tools.py", "unit", "gpu", "regressions"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.cuda_lint_obj_root, "test")

# Tools by substitution only, never by relative path.
path = os.path.pathsep.join([config.cuda_lint_tools_dir, config.llvm_tools_dir,
                             config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["PATH"] = path
# A precompiled-prelude cache of the build's own, shared by the tests.
config.environment["CUDA_LINT_CACHE_DIR"] = os.path.join(config.cuda_lint_obj_root, "test", "cache")
# CUDA_LINT_PREFIX_PCH=eager runs the suite with every include prefix
# precompiled (the findings must not change).
for var in ("HOME", "TMPDIR", "CUDA_PATH", "CUDA_HOME", "CUDA_LINT_PREFIX_PCH"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

cuda_lint = os.path.join(config.cuda_lint_tools_dir, "cuda-lint")
check_script = os.path.join(config.test_source_root, "check_cuda_lint.py")
config.substitutions.append(("%cuda_lint", cuda_lint))
config.substitutions.append(
    ("%check_cuda_lint",
     "%s %s --cuda-lint=%s" % (config.python_executable, check_script, cuda_lint)))
config.substitutions.append(("%clang_tidy", config.clang_tidy))
config.substitutions.append(("%tidy_plugin", config.cuda_lint_plugin))
config.substitutions.append(("%clangxx", config.clang))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%resource_dir", config.clang_resource_dir))
config.substitutions.append(("%src_root", config.cuda_lint_src_root))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%corpus_py", os.path.join(config.cuda_lint_src_root, "bench", "corpus.py")))

cuda_path = "/usr/local/cuda"
if os.path.exists(os.path.join(cuda_path, "include", "cuda_runtime.h")):
    config.available_features.add("cuda-toolkit")
    config.substitutions.append(("%cuda_path", cuda_path))
if config.nvcc and os.path.exists(config.nvcc):
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", config.nvcc))
    config.substitutions.append(("%{nvcc_dir}", os.path.dirname(config.nvcc)))
# cuobjdump (and the nvdisasm it runs) for the validator's SASS evidence.
cuobjdump = shutil.which("cuobjdump", path=path) or os.path.join(cuda_path, "bin", "cuobjdump")
if os.path.exists(cuobjdump) and shutil.which(
        "nvdisasm", path=os.path.pathsep.join([os.path.dirname(cuobjdump), path])):
    config.available_features.add("cuobjdump")
if config.clang_tidy and os.path.exists(config.clang_tidy):
    config.available_features.add("clang-tidy")
fuzzer = os.path.join(config.cuda_lint_tools_dir, "cuda-lint-fuzzer")
if os.path.exists(fuzzer):
    config.available_features.add("fuzzer")
    config.substitutions.append(("%fuzzer", fuzzer))
    config.substitutions.append(("%fuzz_seconds", os.environ.get("CUDA_LINT_FUZZ_SECONDS", "30")))
if getattr(config, "sanitized", False):
    # An ASan-instrumented plugin cannot load into the uninstrumented
    # clang-tidy-22.
    config.available_features.add("asan")
# A wheel built by scripts/build-wheel.sh: driver/wheel-smoke.test installs
# and runs it (the newest one in dist/). Without one, nothing is spent.
import glob
wheels = sorted(glob.glob(os.path.join(config.cuda_lint_src_root, "dist", "cuda_lint-*.whl")),
                key=os.path.getmtime)
if wheels:
    config.available_features.add("wheel")
    config.substitutions.append(("%wheel", wheels[-1]))
if shutil.which("git"):
    config.available_features.add("git")
if os.getuid() == 0:
    config.available_features.add("root")
import subprocess
if subprocess.call([config.python_executable, "-c", "import jsonschema"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0:
    config.available_features.add("jsonschema")
if shutil.which("pre-commit"):
    config.available_features.add("pre-commit")
if shutil.which("make"):
    config.available_features.add("make")
if shutil.which("cmake"):
    config.available_features.add("cmake")
if shutil.which("ninja"):
    config.available_features.add("ninja")
if shutil.which("ccache"):
    config.available_features.add("ccache")
if shutil.which("strace"):
    config.available_features.add("strace")
cuda_clangd = os.path.join(config.cuda_lint_tools_dir, "cuda-clangd")
if os.path.exists(cuda_clangd):
    config.available_features.add("cuda-clangd")
    config.substitutions.append(("%cuda_clangd", cuda_clangd))
if shutil.which("script"):
    config.available_features.add("script")
