//===--- CudaClangd.cpp - clangd with the cuda-lint checks built in -------===//
//
// clangd cannot load clang-tidy plugins: the checks it runs are those linked
// into it. cuda-clangd is clangd's own main (from Debian's libclangdMain.a)
// linked with the cuda module, so that a `.clangd` file's
// `Diagnostics: ClangTidy: Add: [cuda-*]` works, fixes included.
//
//===----------------------------------------------------------------------===//

namespace clang {
namespace clangd {
int clangdMain(int argc, char *argv[]);
} // namespace clangd
} // namespace clang

#include <cstring>
#include <string>
#include <vector>

int main(int argc, char *argv[]) {
  // clangd looks for Clang's builtin and CUDA wrapper headers next to its
  // own executable; point it at the installed LLVM's unless told otherwise.
  std::vector<char *> Args(argv, argv + argc);
  bool HasResourceDir = false;
  for (int I = 1; I < argc; ++I)
    HasResourceDir |= std::strncmp(argv[I], "--resource-dir", 14) == 0 ||
                      std::strncmp(argv[I], "-resource-dir", 13) == 0;
  static std::string ResourceDir =
      std::string("--resource-dir=") + CUDA_LINT_CLANG_RESOURCE_DIR;
  if (!HasResourceDir)
    Args.insert(Args.begin() + 1, ResourceDir.data());
  Args.push_back(nullptr);
  return clang::clangd::clangdMain(static_cast<int>(Args.size()) - 1,
                                   Args.data());
}
