# CUDA_LINT_STATIC_LLVM: the link of a self-contained cuda-lint.
#
# LLVM's exported CMake targets cannot be used for this: on Debian (and in any
# LLVM built with LLVM_LINK_LLVM_DYLIB) the static clang* targets carry
# `LLVM` and `clang-cpp`, the shared libraries, in their link interface. So
# the target below lists the archives themselves, every libclang*.a and
# libLLVM*.a of the LLVM found, in one group: the linker takes from them only
# the members that are used, and --gc-sections drops the unused functions of
# those. libstdc++ and libgcc are linked statically too, so the executable
# needs no more than glibc (and the few system libraries that LLVM was
# configured with and that have no archive here; auditwheel bundles those).

file(GLOB CUDA_LINT_CLANG_ARCHIVES "${LLVM_LIBRARY_DIR}/libclang[A-Z]*.a")
file(GLOB CUDA_LINT_LLVM_ARCHIVES "${LLVM_LIBRARY_DIR}/libLLVM[A-Z]*.a")
if(NOT CUDA_LINT_CLANG_ARCHIVES OR NOT CUDA_LINT_LLVM_ARCHIVES)
  message(FATAL_ERROR "CUDA_LINT_STATIC_LLVM needs the static Clang and LLVM "
    "libraries (libclang*.a, libLLVM*.a) in ${LLVM_LIBRARY_DIR}: Debian's "
    "llvm-${CUDA_LINT_LLVM_MAJOR}-dev and libclang-${CUDA_LINT_LLVM_MAJOR}-dev "
    "ship them")
endif()
list(LENGTH CUDA_LINT_CLANG_ARCHIVES NClang)
list(LENGTH CUDA_LINT_LLVM_ARCHIVES NLLVM)
message(STATUS "cuda-lint: static link with ${NClang} Clang and ${NLLVM} LLVM "
  "archives from ${LLVM_LIBRARY_DIR}")

# The system libraries LLVM was configured with (llvm-config --link-static
# --system-libs): zlib and zstd from their archives where installed, the
# others as they are (with --as-needed, only those used are recorded;
# auditwheel bundles any outside the manylinux policy into the wheel).
find_program(CUDA_LINT_LLVM_CONFIG llvm-config
  HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH REQUIRED)
execute_process(COMMAND ${CUDA_LINT_LLVM_CONFIG} --link-static --system-libs
  OUTPUT_VARIABLE CUDA_LINT_LLVM_SYSTEM_LIBS OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(CUDA_LINT_LLVM_SYSTEM_LIBS UNIX_COMMAND
  "${CUDA_LINT_LLVM_SYSTEM_LIBS}")
set(CUDA_LINT_STATIC_SYSTEM_LIBS)
foreach(Lib ${CUDA_LINT_LLVM_SYSTEM_LIBS})
  # Z3: tools/cuda-lint/NoZ3.cpp stands in for LLVM's Z3 solver.
  if(Lib MATCHES "z3")
    continue()
  endif()
  set(Found)
  if(Lib MATCHES "^-l(z|zstd)$")
    find_library(Found NAMES lib${CMAKE_MATCH_1}.a NO_CACHE)
  endif()
  string(REGEX REPLACE "^-l" "" Name "${Lib}")
  if(NOT Found AND Lib MATCHES "^-l" AND NOT Name MATCHES "^(rt|dl|m|pthread)$")
    # No development package: the runtime library itself (libzstd.so.1).
    find_library(Found NAMES ${Name} NO_CACHE)
    if(NOT Found)
      file(GLOB Found "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/lib${Name}.so.[0-9]*")
      if(Found)
        list(SORT Found)
        list(GET Found 0 Found)
      endif()
    endif()
  endif()
  if(Found)
    list(APPEND CUDA_LINT_STATIC_SYSTEM_LIBS "${Found}")
  else()
    list(APPEND CUDA_LINT_STATIC_SYSTEM_LIBS "${Lib}")
  endif()
endforeach()
message(STATUS "cuda-lint: system libraries ${CUDA_LINT_STATIC_SYSTEM_LIBS}")

find_package(Threads REQUIRED)
add_library(cudaLintStaticLLVM INTERFACE)
target_link_libraries(cudaLintStaticLLVM INTERFACE
  -Wl,--start-group
  ${CUDA_LINT_CLANG_ARCHIVES}
  ${CUDA_LINT_LLVM_ARCHIVES}
  -Wl,--end-group
  ${CUDA_LINT_STATIC_SYSTEM_LIBS}
  Threads::Threads)
target_link_options(cudaLintStaticLLVM INTERFACE
  -static-libstdc++ -static-libgcc
  -Wl,--gc-sections -Wl,--as-needed -Wl,-O1)

# lld links clang and LLVM in a fraction of the time and memory of GNU ld.
find_program(CUDA_LINT_LLD NAMES ld.lld-${CUDA_LINT_LLVM_MAJOR} ld.lld
  HINTS ${LLVM_TOOLS_BINARY_DIR})
if(CUDA_LINT_LLD)
  message(STATUS "cuda-lint: linking with ${CUDA_LINT_LLD}")
  target_link_options(cudaLintStaticLLVM INTERFACE
    "-fuse-ld=lld" "--ld-path=${CUDA_LINT_LLD}")
endif()
