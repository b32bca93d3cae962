//===--- ResultCache.h - cuda-lint ------------------------------*- C++ -*-===//
//
// A results cache: what a run over one translation unit printed and wrote
// (standard output and error, the --export-fixes and --export-command files,
// the exit code), stored under a key, and replayed instead of analysing the
// unit again when nothing it depends on has changed.
//
// The key of a run is a hash of its arguments (the temporary file names a
// bulk run passes removed), its working directory, the environment that
// changes how the CUDA toolkit is found, the configuration (the
// `.clang-tidy` files above the source, the compile database, a
// --config-file), the main source's content and the cuda-lint version and
// build. An entry also lists the files the translation unit reads, as the
// preprocessor found them (device side, with the compatibility headers and
// everything the precompiled prelude holds), with a hash of each one's
// content, and the include paths where a header that is not there now would
// be found first: an entry is a hit only while all of them are unchanged, so
// that any change to any included header misses, as ccache's direct mode
// does. Hashing file contents (not only the preprocessed text) keeps the
// byte offsets of the replayed fixes exact.
//
// Entries are single files written atomically (a temporary file renamed into
// place), with a checksum: a corrupted or truncated entry is a miss and is
// rewritten. No locks are taken; concurrent runs at worst both analyse a unit
// and write the same entry. The cache is bounded in size: the least recently
// used entries (a hit refreshes an entry's time) are removed.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LINT_RESULTCACHE_H
#define CUDA_LINT_RESULTCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cudalint {

/// The results cache directory when none is given: `results` under the
/// cuda-lint cache directory ($CUDA_LINT_CACHE_DIR, $XDG_CACHE_HOME/cuda-lint
/// or ~/.cache/cuda-lint).
std::string defaultResultCacheDir();

/// Parses a size: bytes, or a number with K, M, G or T (binary units, an
/// optional trailing B or iB). Returns false on bad input.
bool parseCacheSize(llvm::StringRef Text, uint64_t &Bytes);

/// The default bound of the cache's size: 2 GiB.
constexpr uint64_t DefaultCacheMaxSize = uint64_t(2) << 30;

/// What a run printed and wrote.
struct CachedRun {
  int ExitCode = 0;
  std::string Stdout, Stderr;
  /// Output files by role ("export-fixes", "export-command") with their
  /// content; a role that is absent was not written.
  std::map<std::string, std::string> Files;
};

/// What an entry's hit depends on, besides its key.
struct CacheDeps {
  /// Files whose content must not change (absolute paths).
  std::vector<std::string> Files;
  /// Files that must keep existing (their name says what is in them, as the
  /// precompiled prelude's does).
  std::vector<std::string> Existing;
  /// Paths that must stay absent: where an `#include` would find a header
  /// that is created later, before the one it found (or for an include that
  /// was not found at all).
  std::vector<std::string> Absent;
};

class ResultCache {
public:
  ResultCache(std::string Dir, uint64_t MaxSize = DefaultCacheMaxSize);

  llvm::StringRef dir() const { return Dir; }

  /// The key of a cuda-lint run over one translation unit with \p Args (the
  /// arguments after argv[0]) in \p Cwd by the executable \p Self, or
  /// nothing when such a run is not cached (several sources, --fix, a
  /// source that cannot be read, ...).
  std::optional<std::string> runKey(llvm::ArrayRef<std::string> Args,
                                    llvm::StringRef Cwd, llvm::StringRef Self);

  /// The stored run for \p Key when all that it depends on is unchanged.
  /// A hit refreshes the entry's time (least recently used goes first).
  std::optional<CachedRun> lookup(llvm::StringRef Key);

  /// Stores \p Run for \p Key, atomically. Returns false when it could not
  /// be written (the run goes on without the cache).
  bool store(llvm::StringRef Key, const CachedRun &Run, const CacheDeps &Deps);

  /// Removes the least recently used entries until the cache is at most
  /// 90% of its bound, and temporary files that a killed run left behind.
  void evict();

  /// The hash of \p File's content, computed once per cache object;
  /// nothing when it cannot be read.
  std::optional<std::string> fileHash(llvm::StringRef File);

private:
  std::string entryPath(llvm::StringRef Key) const;
  std::string Dir;
  uint64_t MaxSize;
  llvm::StringMap<std::optional<std::string>> Hashes;
  llvm::StringMap<bool> Exists;
};

/// The options that control the cache, removed from the arguments a key is
/// computed from (and from what a bulk run passes on).
bool isCacheOption(llvm::StringRef Arg);

/// The files the translation unit compiled with \p ClangArgs (argv[0] first,
/// as analysed; a -include-pch is replaced by the headers it was built from)
/// in \p Directory reads, found by running the preprocessor only, and the
/// paths that must stay absent for its includes to resolve the same way.
/// Returns false when the preprocessor could not be run.
bool preprocessorDeps(llvm::ArrayRef<std::string> ClangArgs,
                      llvm::StringRef Directory, CacheDeps &Deps);

} // namespace cudalint

#endif // CUDA_LINT_RESULTCACHE_H
