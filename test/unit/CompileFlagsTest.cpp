//===--- CompileFlagsTest.cpp - cuda-lint unit tests ----------------------===//

#include "cudalint/driver/CompileFlags.h"
#include "gtest/gtest.h"

using namespace cudalint;

namespace {

std::vector<std::string> nvcc(std::vector<std::string> Args) {
  Args.insert(Args.begin(), "/usr/local/cuda/bin/nvcc");
  return translateNvccCommand(Args, "", nullptr);
}

bool contains(const std::vector<std::string> &V, const std::string &S) {
  return std::find(V.begin(), V.end(), S) != V.end();
}

TEST(CompileFlagsTest, FileNames) {
  EXPECT_TRUE(isCudaFileName("a/b.cu"));
  EXPECT_TRUE(isCudaFileName("b.cuh"));
  EXPECT_FALSE(isCudaFileName("b.cpp"));
  EXPECT_FALSE(isCudaFileName("cu"));
  EXPECT_TRUE(isNvccCompiler("/usr/local/cuda/bin/nvcc"));
  EXPECT_FALSE(isNvccCompiler("/usr/bin/clang++"));
}

TEST(CompileFlagsTest, ArchSpellings) {
  EXPECT_TRUE(contains(nvcc({"-arch=sm_80", "a.cu"}), "--cuda-gpu-arch=sm_80"));
  EXPECT_TRUE(
      contains(nvcc({"-arch", "sm_75", "a.cu"}), "--cuda-gpu-arch=sm_75"));
  EXPECT_TRUE(contains(nvcc({"--gpu-architecture=compute_70", "a.cu"}),
                       "--cuda-gpu-arch=sm_70"));
  auto Native = nvcc({"-arch=native", "a.cu"});
  EXPECT_FALSE(std::any_of(Native.begin(), Native.end(), [](auto &A) {
    return A.rfind("--cuda-gpu-arch", 0) == 0;
  }));
}

TEST(CompileFlagsTest, GenCode) {
  auto Out = nvcc({"-gencode", "arch=compute_90,code=sm_90",
                   "-gencode=arch=compute_80,code=[sm_80,compute_80]", "a.cu"});
  EXPECT_TRUE(contains(Out, "--cuda-gpu-arch=sm_90"));
  EXPECT_FALSE(contains(Out, "--cuda-gpu-arch=sm_80"));
  auto CMake =
      nvcc({"--generate-code=arch=compute_52,code=[compute_52,sm_52]", "a.cu"});
  EXPECT_TRUE(contains(CMake, "--cuda-gpu-arch=sm_52"));
  auto PtxOnly = nvcc({"-gencode", "arch=compute_86,code=compute_86", "a.cu"});
  EXPECT_TRUE(contains(PtxOnly, "--cuda-gpu-arch=sm_86"));
}

TEST(CompileFlagsTest, HostCompilerAndDroppedFlags) {
  auto Out =
      nvcc({"-Xcompiler", "-fPIC,-Wall", "-Xcompiler=-O2", "-ccbin",
            "/usr/bin/g++-12", "--expt-relaxed-constexpr", "--extended-lambda",
            "-forward-unknown-to-host-compiler", "-Xptxas", "-v",
            "-maxrregcount=64", "-lineinfo", "--use_fast_math", "a.cu"});
  std::vector<std::string> Want = {"clang++", "-fPIC", "-Wall", "-O2", "a.cu"};
  EXPECT_EQ(Out, Want);
}

TEST(CompileFlagsTest, RdcLanguageIncludes) {
  auto Out = nvcc({"-rdc=true", "-x", "cu", "-isystem=/opt/inc", "-I/x",
                   "--include-path", "/y", "-DA=1", "--std", "c++17",
                   "--default-stream", "per-thread", "a.cu"});
  std::vector<std::string> Want = {
      "clang++",    "-x",
      "cuda",       "-isystem",
      "/opt/inc",   "-I/x",
      "-I/y",       "-DA=1",
      "-std=c++17", "-fgpu-default-stream=per-thread",
      "a.cu",       "-fgpu-rdc"};
  EXPECT_EQ(Out, Want);
  EXPECT_TRUE(contains(nvcc({"-dc", "a.cu"}), "-fgpu-rdc"));
}

TEST(CompileFlagsTest, UnknownFlagsDropped) {
  std::vector<std::string> Dropped;
  auto Out = dropUnknownClangFlags(
      {"clang++", "-O2", "--totally-unknown-flag", "-I", "inc", "a.cu"},
      &Dropped);
  std::vector<std::string> Want = {"clang++", "-O2", "-I", "inc", "a.cu"};
  EXPECT_EQ(Out, Want);
  ASSERT_EQ(Dropped.size(), 1u);
  EXPECT_EQ(Dropped[0], "--totally-unknown-flag");
}

TEST(CompileFlagsTest, DefaultsAdded) {
  CudaEnvironment Env;
  Env.CudaPath = "/opt/cuda-13";
  Env.ResourceDir = "/res";
  auto Out = addCudaDefaults({"clang++", "a.cuh"}, Env, /*IsHeader=*/true);
  EXPECT_EQ(Out.front(), "clang++");
  EXPECT_EQ(Out.back(), "a.cuh");
  EXPECT_TRUE(contains(Out, "cuda"));
  EXPECT_TRUE(contains(Out, "--cuda-path=/opt/cuda-13"));
  EXPECT_TRUE(contains(Out, "--cuda-gpu-arch=sm_90"));
  EXPECT_TRUE(contains(Out, "--cuda-device-only"));
  EXPECT_TRUE(contains(Out, "-Wno-unknown-cuda-version"));
  EXPECT_TRUE(contains(Out, "-resource-dir=/res"));
}

TEST(CompileFlagsTest, DefaultsRespectCommand) {
  CudaEnvironment Env;
  Env.CudaPath = "/opt/cuda-13";
  auto Out = addCudaDefaults(
      {"clang++", "--cuda-path=/mine", "--cuda-gpu-arch=sm_80", "a.cu"}, Env,
      false);
  EXPECT_FALSE(contains(Out, "--cuda-path=/opt/cuda-13"));
  EXPECT_FALSE(contains(Out, "--cuda-gpu-arch=sm_90"));
  EXPECT_FALSE(contains(Out, "-x"));
}

TEST(CompileFlagsTest, FallbackWithoutToolkit) {
  CudaEnvironment Env;
  Env.FallbackHeader = "/share/fallback.h";
  auto Out = addCudaDefaults({"clang++", "a.cu"}, Env, false);
  EXPECT_TRUE(contains(Out, "-nocudainc"));
  EXPECT_TRUE(contains(Out, "-nocudalib"));
  EXPECT_TRUE(contains(Out, "/share/fallback.h"));
}

TEST(CompileFlagsTest, CudaCommands) {
  EXPECT_TRUE(
      isCudaCommand({"/usr/local/cuda/bin/nvcc", "-c", "a.cu"}, "a.cu"));
  EXPECT_TRUE(isCudaCommand({"clang++", "-x", "cuda", "a.cpp"}, "a.cpp"));
  EXPECT_FALSE(isCudaCommand({"g++", "-c", "a.cpp"}, "a.cpp"));
}

TEST(CompileFlagsTest, RemovedApiPreScan) {
  EXPECT_TRUE(mentionsRemovedApi("int main() { cudaThreadSynchronize(); }"));
  EXPECT_TRUE(mentionsRemovedApi("cudaLaunch((const void *)k);"));
  EXPECT_TRUE(mentionsRemovedApi("surface<void, 2> s;\n__global__ void k() { "
                                 "surf2Dwrite(1.0f, s, 0, 0); }"));
  EXPECT_TRUE(
      mentionsRemovedApi("texture<float, 1, cudaReadModeElementType> t;"));
  // Names in comments, the launch calls that still exist and a program's own
  // class templates are not uses.
  EXPECT_FALSE(mentionsRemovedApi("// CUDA 13 dropped cudaConfigureCall\n"));
  EXPECT_FALSE(mentionsRemovedApi("/* cudaThreadExit() */ int x;"));
  EXPECT_FALSE(mentionsRemovedApi(
      "const char *s = \"//\"; cudaLaunchKernel(f, 1, 1, 0);"));
  EXPECT_TRUE(mentionsRemovedApi("const char *s = \"//\"; cudaThreadExit();"));
  EXPECT_FALSE(mentionsRemovedApi(
      "template <class T, int N> struct surface {};\nsurface<int, 2> s; "
      "void f() { surf2Dwrite(s); }"));
  // Fields CUDA 13 removed from cudaDeviceProp, read through `.` or `->`;
  // the name alone, or a longer name, is not a use.
  EXPECT_TRUE(mentionsRemovedApi("int r = prop.clockRate;"));
  EXPECT_TRUE(mentionsRemovedApi("if (p -> deviceOverlap) {}"));
  EXPECT_TRUE(mentionsRemovedApi("f(props[0].computeMode);"));
  EXPECT_FALSE(mentionsRemovedApi("int clockRate = 0;"));
  EXPECT_FALSE(mentionsRemovedApi("int r = prop.clockRateKHz;"));
  EXPECT_FALSE(mentionsRemovedApi("// prop.memoryClockRate\n"));
}

TEST(CompileFlagsTest, NvccDialect) {
  CudaEnvironment Env;
  Env.CudaPath = "/opt/cuda-13";
  auto Out = addCudaDefaults({"clang++", "a.cu"}, Env, false);
  EXPECT_TRUE(contains(Out, "-fgpu-defer-diag"));
  EXPECT_TRUE(contains(Out, "-fgpu-rdc"));
  EXPECT_TRUE(contains(Out, "-Wno-register"));
  EXPECT_FALSE(contains(Out, "-fopenmp"));
  // The command's own choice is kept.
  Out = addCudaDefaults(
      {"clang++", "-fno-gpu-rdc", "-fno-gpu-defer-diag", "a.cu"}, Env, false);
  EXPECT_FALSE(contains(Out, "-fgpu-defer-diag"));
  EXPECT_FALSE(contains(Out, "-fgpu-rdc"));
  Out = addCudaDefaults({"clang++", "-fgpu-rdc", "a.cu"}, Env, false);
  EXPECT_EQ(llvm::count(Out, "-fgpu-rdc"), 1);
}

TEST(CompileFlagsTest, OpenMP) {
  CudaEnvironment Env;
  Env.CudaPath = "/opt/cuda-13";
  // From the command (nvcc's -Xcompiler -fopenmp): `_OPENMP` on the device
  // side, where the clang driver does not pass -fopenmp on.
  auto Out = addCudaDefaults({"clang++", "-fopenmp", "a.cu"}, Env, false);
  EXPECT_TRUE(contains(Out, "-D_OPENMP=201511"));
  EXPECT_EQ(llvm::count(Out, "-fopenmp"), 1);
  // From the pre-scan (the source includes omp.h).
  Env.OpenMP = true;
  Out = addCudaDefaults({"clang++", "a.cu"}, Env, false);
  EXPECT_TRUE(contains(Out, "-fopenmp"));
  EXPECT_TRUE(contains(Out, "-D_OPENMP=201511"));
  // Not when the command turns it off, nor on the host side.
  Out = addCudaDefaults({"clang++", "-fno-openmp", "a.cu"}, Env, false);
  EXPECT_FALSE(contains(Out, "-fopenmp"));
  EXPECT_FALSE(contains(Out, "-D_OPENMP=201511"));
  Env.DeviceOnly = false;
  Out = addCudaDefaults({"clang++", "a.cu"}, Env, false);
  EXPECT_TRUE(contains(Out, "-fopenmp"));
  EXPECT_FALSE(contains(Out, "-D_OPENMP=201511"));
}

} // namespace
