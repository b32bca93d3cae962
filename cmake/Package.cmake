# A .deb of the self-contained cuda-lint (CUDA_LINT_STATIC_LLVM):
#   cmake --build build-static --target package   ->  cuda-lint_<version>_amd64.deb
# Installed under /opt/cuda-lint (bin/, lib/clang/N/include, share/cuda-lint/),
# the layout the executable looks for beside itself, with /usr/bin/cuda-lint
# a symbolic link to it. It depends on libc6 only where zstd's archive is
# installed (libzstd-dev; scripts/build-wheel.sh installs it): libstdc++, zlib
# and zstd are linked in, so it installs on a machine without LLVM.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME cuda-lint)
set(CPACK_PACKAGE_VERSION ${CUDA_LINT_VERSION})
set(CPACK_PACKAGE_CONTACT "cuda-lint maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "CUDA performance and correctness checks with fixes (clang-tidy, LLVM ${LLVM_VERSION_MAJOR} linked in)")
set(CPACK_PACKAGING_INSTALL_PREFIX /opt/cuda-lint)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_STRIP_FILES ON)
# /usr/bin/cuda-lint -> /opt/cuda-lint/bin/cuda-lint, made by the package's
# scripts (an install rule for /usr/bin would also write there from the
# wheel's `cmake --install`).
file(WRITE ${CMAKE_BINARY_DIR}/deb/postinst
  "#!/bin/sh\nset -e\nln -sf /opt/cuda-lint/bin/cuda-lint /usr/bin/cuda-lint\n")
file(WRITE ${CMAKE_BINARY_DIR}/deb/prerm
  "#!/bin/sh\nset -e\nif [ -L /usr/bin/cuda-lint ]; then rm -f /usr/bin/cuda-lint; fi\n")
file(CHMOD ${CMAKE_BINARY_DIR}/deb/postinst ${CMAKE_BINARY_DIR}/deb/prerm
  PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
  WORLD_READ WORLD_EXECUTE)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  "${CMAKE_BINARY_DIR}/deb/postinst;${CMAKE_BINARY_DIR}/deb/prerm")
include(CPack)
