// Self-verifying cache entries (Verilator models, synthesis results, characterizations).
//
// An entry is a folder <root>/<name>. One process builds it in a hidden sibling
// <root>/.build-<name>-XXXXXX, holding an exclusive lock on the folder's `.lock` file while it
// works, then seals it (kSealFile: the gpurf version and every file's size and FNV-1a hash, written
// last) and publishes it with one rename. Readers use an entry only after VerifyCacheEntry
// passes; a damaged one (truncated, emptied or rewritten file, a file deleted, no seal) is moved
// aside and removed with a warning, and the caller builds it again, so a damaged cache repairs
// itself instead of failing forever. `.build-*` folders whose builder died (its lock is free) are
// removed by the next process that builds in the same root.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "base/fs.h"  // kSealFile, seals

namespace gpurf {

namespace fs = std::filesystem;

// Why `dir` is not a usable entry (missing, unsealed, a file missing or changed), or nullopt
// when it is complete and every sealed file matches. `required` files must be among the sealed.
std::optional<std::string> CheckCacheEntry(const fs::path& dir,
                                           const std::vector<std::string>& required = {});

// True when `dir` is a complete, undamaged entry. A damaged one is removed, with a warning that
// names `what` and the damage, and false is returned so that the caller rebuilds it; a missing
// one returns false silently.
bool VerifyCacheEntry(const fs::path& dir, const std::string& what,
                      const std::vector<std::string>& required = {});

// Removes the `.build-*` folders under `root` whose builder is gone (its lock is free, or an
// unlocked folder older than an hour) and leftover `.damaged-*` folders. Returns how many.
int RemoveStaleBuilds(const fs::path& root);

class CacheBuild {
 public:
  // Creates <root>/.build-<name>-XXXXXX (and `root`), locks it and registers it with the
  // process guardian. The first build in a root in this process also removes stale builds.
  CacheBuild(const fs::path& root, const std::string& name);
  ~CacheBuild();  // removes the build folder unless it was published
  CacheBuild(const CacheBuild&) = delete;
  CacheBuild& operator=(const CacheBuild&) = delete;

  const fs::path& path() const { return tmp_; }
  fs::path dest() const { return root_ / name_; }

  // Seals the folder and renames it to dest(). When another process published a valid entry
  // first, this build is dropped and theirs kept; a damaged entry in the way is replaced. Throws
  // ToolError naming `what` on any other failure.
  void Publish(const std::string& what);

 private:
  fs::path root_;
  std::string name_;
  fs::path tmp_;
  int lock_fd_ = -1;
  bool published_ = false;
};

}  // namespace gpurf
