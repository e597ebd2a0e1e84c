// File-system helpers with the "loses nothing" guarantee: outputs are assembled in a staging
// folder next to the destination and moved into place with one rename at the end; a failed run
// leaves neither a partial destination nor the staging folder behind.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

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

  // Seals the staged contents with kOutputMarker and replaces `dest` with them. An existing
  // `dest` is replaced only if it is an empty folder or holds nothing but files gpurf wrote
  // there, unchanged (each listed, with its checksum, in the kOutputMarker of its folder or of
  // an enclosing one); anything else is refused with InputError (exit 2) naming what would be
  // lost, so a typo in -o or a file a user added never disappears.
  void Commit();

 private:
  fs::path dest_;
  fs::path staging_;
  bool committed_ = false;
};

// The marker of a folder gpurf wrote (-o, --keep and the flow's report folders): generator,
// version and every file's size and checksum (a seal, below).
inline constexpr const char* kOutputMarker = ".gpurf-output";
// The seal of a cache entry (base/cache.h).
inline constexpr const char* kSealFile = ".gpurf-entry";

// Why `dest` may not be replaced by a gpurf output (a file gpurf did not write, one changed
// since, a symbolic link, not a folder), or nullopt when it is absent, empty or all gpurf's.
std::optional<std::string> ReplaceRefusal(const fs::path& dest);

// Seals: a JSON file (the generator, its version, and each regular file under a folder with its
// size and FNV-1a 64 checksum) written last into the folder, so that a reader can tell later
// that the folder is complete and unchanged. Cache entries and output folders are sealed.
struct SealedFile {
  std::string path;  // relative to the sealed folder, '/'-separated
  uint64_t size = 0;
  std::string fnv1a64;
};
// Size and checksum of a file, or nullopt when it cannot be read.
std::optional<SealedFile> DigestFile(const fs::path& p);
// Writes `dir / seal_name` listing every regular file under `dir` except seals and locks.
void WriteSeal(const fs::path& dir, const std::string& seal_name);
// The files a seal lists; throws std::runtime_error when the seal is unreadable.
std::vector<SealedFile> ReadSeal(const fs::path& seal_file);

// A temporary work folder removed with everything in it when the object goes out of scope.
// Registered with the process guardian (base/process.h): also removed when gpurf is killed.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix);
  ~TempDir();
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
