// File-system helpers with the "loses nothing" guarantee: outputs are assembled in a staging
// folder next to the destination and moved into place with one rename at the end; a failed run
// leaves neither a partial destination nor the staging folder behind.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace gpurf {

namespace fs = std::filesystem;

// A fresh unique temporary folder under `parent` (created), named prefix-XXXXXX.
fs::path MakeTempDir(const fs::path& parent, const std::string& prefix);

class StagingDir {
 public:
  // Prepares a hidden staging folder beside `dest` (same file system, so the final rename is
  // atomic). `dest` itself is untouched until Commit().
  explicit StagingDir(fs::path dest);
  ~StagingDir();
  StagingDir(const StagingDir&) = delete;
  StagingDir& operator=(const StagingDir&) = delete;

  const fs::path& path() const { return staging_; }
  const fs::path& dest() const { return dest_; }

  // Replaces `dest` with the staged contents. An existing `dest` is replaced only if it is a
  // folder that a previous gpurf run produced (it holds a manifest.json) or is empty; anything
  // else is refused with ToolError, so a typo in -o never wipes unrelated files.
  void Commit();

 private:
  fs::path dest_;
  fs::path staging_;
  bool committed_ = false;
};

// Moves a fully built cache entry from `tmp` to `dest` with one rename. When another process
// placed the same entry first (the rename fails and `dest / marker` exists), `tmp` is dropped and
// theirs is used; any other failure removes `tmp` and throws ToolError naming `what`.
void PublishCacheEntry(const fs::path& tmp, const fs::path& dest, const fs::path& marker,
                       const std::string& what);

// A temporary work folder removed with everything in it when the object goes out of scope.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix)
      : path_(MakeTempDir(fs::temp_directory_path(), prefix)) {}
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void WriteFile(const fs::path& path, const std::string& contents);
std::string ReadFile(const fs::path& path);

// Size limits of the user inputs gpurf reads whole (ReadInputFile): generous for real files,
// small enough that /dev/zero or a mistyped multi-GB file is a clear error, not bad_alloc.
inline constexpr uint64_t kMaxYamlBytes = uint64_t{16} << 20;       // design and launch files
inline constexpr uint64_t kMaxPtxBytes = uint64_t{256} << 20;       // one PTX module
inline constexpr uint64_t kMaxTraceBytes = uint64_t{4} << 30;       // one Accel-Sim .traceg
inline constexpr uint64_t kMaxLibertyBytes = uint64_t{1} << 30;     // one Liberty library
inline constexpr uint64_t kMaxJsonInputBytes = uint64_t{16} << 20;  // energies and similar JSON

// Reads a file the user named, whole. Anything but a readable regular file of at most
// `max_bytes` (a folder, a device such as /dev/zero, a FIFO, a missing or unreadable file, an
// oversized one) is an InputError naming `field`, the path and what is allowed (exit 2).
std::string ReadInputFile(const fs::path& path, const std::string& field, uint64_t max_bytes);

}  // namespace gpurf
