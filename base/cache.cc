#include "base/cache.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <mutex>
#include <set>

#include "base/diag.h"
#include "base/fs.h"
#include "base/process.h"

namespace gpurf {

namespace {

constexpr const char* kLockFile = ".lock";
constexpr auto kUnlockedBuildAge = std::chrono::hours(1);

// Moves `dir` out of the way (one rename, so concurrent readers see it whole or not at all) and
// removes it.
void Discard(const fs::path& dir) {
  const fs::path aside = MakeTempDir(dir.parent_path(), ".damaged-" + dir.filename().string());
  std::error_code ec;
  fs::remove(aside, ec);
  fs::rename(dir, aside, ec);
  fs::remove_all(ec ? fs::path() : aside, ec);
  if (ec)
    fs::remove_all(aside, ec);
}

}  // namespace

std::optional<std::string> CheckCacheEntry(const fs::path& dir,
                                           const std::vector<std::string>& required) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return "missing";
  if (!fs::is_regular_file(dir / kSealFile, ec))
    return fmt::format("no {} seal (left by an interrupted or older gpurf, or damaged)", kSealFile);
  std::vector<SealedFile> files;
  try {
    files = ReadSeal(dir / kSealFile);
  } catch (const std::exception& e) {
    return fmt::format("unreadable seal: {}", e.what());
  }
  std::set<std::string> sealed;
  for (const SealedFile& f : files) {
    sealed.insert(f.path);
    const auto d = DigestFile(dir / f.path);
    if (!d)
      return fmt::format("{} is missing or unreadable", f.path);
    if (d->size != f.size)
      return fmt::format("{} has {} bytes, sealed with {}", f.path, d->size, f.size);
    if (d->fnv1a64 != f.fnv1a64)
      return fmt::format("{} changed since it was sealed (checksum differs)", f.path);
  }
  for (const std::string& r : required)
    if (!sealed.count(r))
      return fmt::format("the seal does not list {}", r);
  return std::nullopt;
}

bool VerifyCacheEntry(const fs::path& dir, const std::string& what,
                      const std::vector<std::string>& required) {
  std::error_code ec;
  if (!fs::exists(dir, ec))
    return false;
  const auto damage = CheckCacheEntry(dir, required);
  if (!damage)
    return true;
  spdlog::warn("damaged {} in the cache ({}): {}; removing it and building it again", what,
               dir.string(), *damage);
  Discard(dir);
  return false;
}

int RemoveStaleBuilds(const fs::path& root) {
  int removed = 0;
  std::error_code ec;
  for (auto it = fs::directory_iterator(root, ec); !ec && it != fs::end(it); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const bool build = name.starts_with(".build-");
    if (!build && !name.starts_with(".damaged-"))
      continue;
    bool stale = !build;
    if (build) {
      const int fd = open((it->path() / kLockFile).c_str(), O_RDWR | O_CLOEXEC);
      if (fd >= 0) {
        stale = flock(fd, LOCK_EX | LOCK_NB) == 0;  // its builder no longer holds it
        close(fd);
      } else {
        std::error_code tec;
        const auto age = fs::file_time_type::clock::now() - fs::last_write_time(it->path(), tec);
        stale = !tec && age > kUnlockedBuildAge;
      }
    }
    if (stale) {
      std::error_code rec;
      fs::remove_all(it->path(), rec);
      if (!rec) {
        ++removed;
        spdlog::debug("removed stale cache folder {}", it->path().string());
      }
    }
  }
  return removed;
}

CacheBuild::CacheBuild(const fs::path& root, const std::string& name) : root_(root), name_(name) {
  std::error_code ec;
  fs::create_directories(root_, ec);
  if (ec)
    throw ToolError(fmt::format("cannot create cache folder {}: {}", root_.string(), ec.message()));
  {
    static std::mutex mu;
    static std::set<std::string> cleaned;
    const std::lock_guard<std::mutex> lock(mu);
    if (cleaned.insert(fs::absolute(root_).lexically_normal().string()).second) {
      if (const int n = RemoveStaleBuilds(root_); n > 0)
        spdlog::info("removed {} unfinished build folder(s) of dead gpurf processes from {}", n,
                     root_.string());
    }
  }
  tmp_ = MakeTempDir(root_, ".build-" + name_);
  GuardPath(tmp_);
  lock_fd_ = open((tmp_ / kLockFile).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock_fd_ < 0 || flock(lock_fd_, LOCK_EX) != 0) {
    std::error_code rec;
    fs::remove_all(tmp_, rec);
    UnguardPath(tmp_);
    throw ToolError(fmt::format("cannot lock cache build folder {}", tmp_.string()));
  }
}

CacheBuild::~CacheBuild() {
  if (!published_) {
    std::error_code ec;
    fs::remove_all(tmp_, ec);
    UnguardPath(tmp_);
  }
  if (lock_fd_ >= 0)
    close(lock_fd_);
}

void CacheBuild::Publish(const std::string& what) {
  std::error_code ec;
  fs::remove(tmp_ / kLockFile, ec);  // the descriptor keeps the lock until the rename is done
  WriteSeal(tmp_, kSealFile);
  const fs::path dst = dest();
  for (int attempt = 0; attempt < 5; ++attempt) {
    fs::rename(tmp_, dst, ec);
    if (!ec) {
      published_ = true;
      UnguardPath(tmp_);
      return;
    }
    // Something is in the way: another process's entry (keep it if it is valid and drop ours)
    // or a damaged one (VerifyCacheEntry removes it; try again).
    if (VerifyCacheEntry(dst, what))
      return;  // the destructor removes our copy
  }
  throw ToolError(fmt::format("cannot place {} in cache {}: {}", what, dst.string(), ec.message()));
}

}  // namespace gpurf
