#include "base/fs.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "base/diag.h"
#include "base/gpurf_version.h"
#include "base/hash.h"
#include "base/process.h"

namespace gpurf {

namespace {
// ".<name><suffix>": the hidden sibling of a destination. Built by appending, which also avoids
// a GCC 12 -Wrestrict false positive on chained operator+ (GCC bug 105651).
std::string HiddenName(const fs::path& dest, const char* suffix) {
  std::string s = ".";
  s += dest.filename().string();
  s += suffix;
  return s;
}

// The process's umask, read without changing it (umask(2) can only be read by setting it, which
// would race with other threads creating files).
mode_t CurrentUmask() {
  static const mode_t mask = [] {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.rfind("Umask:", 0) == 0)
        return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
    }
    return static_cast<mode_t>(022);
  }();
  return mask;
}

}  // namespace

fs::path MakeTempDir(const fs::path& parent, const std::string& prefix) {
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) {
    throw ToolError(fmt::format("cannot create folder '{}': {}", parent.string(), ec.message()));
  }
  std::string templ = (parent / (prefix + "-XXXXXX")).string();
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data()) == nullptr) {
    throw ToolError(fmt::format("cannot create temporary folder in '{}': {}", parent.string(),
                                std::strerror(errno)));
  }
  // mkdtemp creates 0700; a folder that becomes an output or a cache entry gets the permissions
  // any other new folder would get under the user's umask.
  chmod(buf.data(), 0777 & ~CurrentUmask());
  return fs::path(buf.data());
}

StagingDir::StagingDir(fs::path dest) : dest_(std::move(dest)) {
  if (dest_.empty())
    throw ToolError("empty output folder name");
  dest_ = fs::absolute(dest_).lexically_normal();
  if (dest_.filename().empty())
    dest_ = dest_.parent_path();
  for (fs::path p = dest_.parent_path(); !p.empty() && p != p.root_path(); p = p.parent_path()) {
    std::error_code ec;
    const fs::file_status st = fs::status(p, ec);
    if (fs::exists(st) && !fs::is_directory(st))
      throw InputError(
          {}, "-o", dest_.string(),
          fmt::format("'{}' is not a folder, so the output cannot go inside it", p.string()),
          "a path whose parents are folders");
    if (fs::exists(st))
      break;
  }
  // Refuse before any work is done, not only at the end (Commit checks again).
  if (const auto why = ReplaceRefusal(dest_))
    throw InputError({}, "-o", dest_.string(), "refusing to replace the output folder: " + *why,
                     "a new or empty folder, or one gpurf wrote (move the other files away)");
  staging_ = MakeTempDir(dest_.parent_path(), HiddenName(dest_, ".staging"));
  GuardPath(staging_);
}

StagingDir::~StagingDir() {
  if (!committed_) {
    std::error_code ec;
    fs::remove_all(staging_, ec);
    UnguardPath(staging_);
  }
}

void StagingDir::Commit() {
  WriteSeal(staging_, kOutputMarker);
  std::error_code ec;
  fs::path old;
  if (fs::exists(fs::symlink_status(dest_))) {
    if (const auto why = ReplaceRefusal(dest_))
      throw InputError({}, "-o", dest_.string(), "refusing to replace the output folder: " + *why,
                       "a new or empty folder, or one gpurf wrote (move the other files away)");
    old = MakeTempDir(dest_.parent_path(), HiddenName(dest_, ".old"));
    fs::remove(old);
    fs::rename(dest_, old, ec);
    if (ec)
      throw ToolError(fmt::format("cannot move '{}': {}", dest_.string(), ec.message()));
  }
  fs::rename(staging_, dest_, ec);
  if (ec) {
    if (!old.empty())
      fs::rename(old, dest_);
    throw ToolError(fmt::format("cannot move output into '{}': {}", dest_.string(), ec.message()));
  }
  committed_ = true;
  UnguardPath(staging_);
  if (!old.empty()) {
    // Only gpurf's own, unchanged files are in `old` (checked above); removed after the new
    // output is in place, guarded so that a kill now does not leave it behind.
    GuardPath(old);
    fs::remove_all(old, ec);
    UnguardPath(old);
  }
}

std::optional<SealedFile> DigestFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in)
    return std::nullopt;
  SealedFile d;
  uint64_t h = 0xcbf29ce484222325ULL;
  std::vector<char> buf(size_t{1} << 16);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const auto n = static_cast<size_t>(in.gcount());
    h = Fnv1a64(std::string_view(buf.data(), n), h);
    d.size += n;
  }
  if (in.bad())
    return std::nullopt;
  d.fnv1a64 = fmt::format("{:016x}", h);
  return d;
}

namespace {

bool IsSealOrLock(const std::string& name) {
  return name == kOutputMarker || name == kSealFile || name == ".lock";
}

// gpurf's own temporaries inside an output folder (a nested report folder being staged or
// replaced when gpurf was killed): ".<name>.staging-XXXXXX" and ".<name>.old-XXXXXX".
bool IsGpurfTemporary(const std::string& name) {
  return name.starts_with(".") &&
         (name.find(".staging-") != std::string::npos || name.find(".old-") != std::string::npos);
}

}  // namespace

void WriteSeal(const fs::path& dir, const std::string& seal_name) {
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::end(it); ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory() && IsGpurfTemporary(name))
      it.disable_recursion_pending();
    else if (it->is_regular_file() && !IsSealOrLock(name) && !name.starts_with(seal_name + ".tmp-"))
      files.push_back(it->path().lexically_relative(dir).generic_string());
  }
  std::sort(files.begin(), files.end());
  nlohmann::ordered_json j;
  j["generator"] = "gpurf";
  j["version"] = kGpurfVersion;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const std::string& rel : files) {
    const auto d = DigestFile(dir / rel);
    if (!d)
      throw ToolError(fmt::format("cannot read '{}' to seal it", (dir / rel).string()));
    list.push_back({{"path", rel}, {"size", d->size}, {"fnv1a64", d->fnv1a64}});
  }
  j["files"] = std::move(list);
  // Replaced with one rename: a reader never sees half a seal.
  const fs::path tmp = dir / fmt::format("{}.tmp-{}", seal_name, getpid());
  WriteFile(tmp, j.dump(1) + "\n");
  std::error_code ec;
  fs::rename(tmp, dir / seal_name, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw ToolError(fmt::format("cannot write '{}'", (dir / seal_name).string()));
  }
}

std::vector<SealedFile> ReadSeal(const fs::path& seal_file) {
  const nlohmann::json j = nlohmann::json::parse(ReadFile(seal_file));
  if (j.at("generator").get<std::string>() != "gpurf")
    throw std::runtime_error("not a gpurf seal");
  std::vector<SealedFile> files;
  for (const auto& f : j.at("files")) {
    SealedFile s;
    s.path = f.at("path").get<std::string>();
    s.size = f.at("size").get<uint64_t>();
    s.fnv1a64 = f.at("fnv1a64").get<std::string>();
    if (s.path.empty() || s.path.starts_with("/") || s.path.find("..") != std::string::npos)
      throw std::runtime_error("bad path in seal: " + s.path);
    files.push_back(std::move(s));
  }
  return files;
}

std::optional<std::string> ReplaceRefusal(const fs::path& dest) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(dest, ec);
  if (ec || !fs::exists(st))
    return std::nullopt;
  if (fs::is_symlink(st))
    return fmt::format("'{}' is a symbolic link", dest.string());
  if (!fs::is_directory(st))
    return fmt::format("'{}' exists and is not a folder", dest.string());
  // Every file gpurf wrote under `dest`, from the markers of `dest` and of its sub-folders.
  std::map<std::string, SealedFile> ours;
  std::vector<std::string> foreign, changed;
  std::vector<fs::path> files;
  bool any_marker = false;
  auto it = fs::recursive_directory_iterator(dest, ec);
  for (; !ec && it != fs::end(it); it.increment(ec)) {
    const fs::path& p = it->path();
    const std::string name = p.filename().string();
    if (it->is_symlink()) {
      foreign.push_back(p.lexically_relative(dest).generic_string());
      continue;
    }
    if (it->is_directory()) {
      if (IsGpurfTemporary(name))
        it.disable_recursion_pending();
      continue;
    }
    if (name == kOutputMarker) {
      any_marker = true;
      try {
        for (SealedFile& f : ReadSeal(p)) {
          const std::string key = (p.parent_path() / f.path).lexically_normal().string();
          ours[key] = std::move(f);
        }
      } catch (const std::exception& e) {
        return fmt::format("its gpurf marker {} is unreadable ({})", p.string(), e.what());
      }
      continue;
    }
    files.push_back(p);
  }
  if (ec)
    return fmt::format("cannot list '{}': {}", dest.string(), ec.message());
  if (!any_marker && !files.empty())
    return fmt::format("'{}' was not written by gpurf (no {} marker) and is not empty",
                       dest.string(), kOutputMarker);
  for (const fs::path& p : files) {
    const std::string rel = p.lexically_relative(dest).generic_string();
    const auto f = ours.find(p.lexically_normal().string());
    if (f == ours.end()) {
      foreign.push_back(rel);
      continue;
    }
    const auto d = DigestFile(p);
    if (!d || d->size != f->second.size || d->fnv1a64 != f->second.fnv1a64)
      changed.push_back(rel);
  }
  const auto list = [](const std::vector<std::string>& v) {
    std::vector<std::string> shown(v.begin(), v.begin() + std::min<size_t>(v.size(), 5));
    return fmt::format("{}{}", fmt::join(shown, ", "),
                       v.size() > shown.size() ? fmt::format(" and {} more", v.size() - 5) : "");
  };
  if (!foreign.empty())
    return fmt::format("'{}' holds {} file(s) gpurf did not write: {}", dest.string(),
                       foreign.size(), list(foreign));
  if (!changed.empty())
    return fmt::format("'{}' holds {} file(s) changed since gpurf wrote them: {}", dest.string(),
                       changed.size(), list(changed));
  return std::nullopt;
}

TempDir::TempDir(const std::string& prefix)
    : path_(MakeTempDir(fs::temp_directory_path(), prefix)) {
  GuardPath(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
  UnguardPath(path_);
}

void WriteFile(const fs::path& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    throw ToolError(fmt::format("cannot open '{}' for writing", path.string()));
  out << contents;
  out.close();
  if (!out)
    throw ToolError(fmt::format("cannot write '{}'", path.string()));
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw ToolError(fmt::format("cannot read '{}'", path.string()));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string ReadInputFile(const fs::path& path, const std::string& field, uint64_t max_bytes) {
  const SourceLoc loc{path.string(), 0, 0};
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st))
    throw InputError(loc, field, path.string(), "no such file", "an existing regular file");
  if (fs::is_directory(st))
    throw InputError(loc, field, path.string(), "is a folder, not a file", "a regular file");
  if (!fs::is_regular_file(st))
    throw InputError(loc, field, path.string(), "is not a regular file (a device, FIFO or socket)",
                     "a regular file");
  const uintmax_t size = fs::file_size(path, ec);
  if (ec)
    throw InputError(loc, field, path.string(), "cannot read the file: " + ec.message(),
                     "a readable regular file");
  if (size > max_bytes)
    throw InputError(loc, field, path.string(), fmt::format("file too large ({} bytes)", size),
                     fmt::format("at most {} bytes", max_bytes));
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(loc, field, path.string(),
                     fmt::format("cannot open the file: {}", std::strerror(errno)),
                     "a readable regular file");
  std::string text(static_cast<size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  // A file that grew since file_size keeps its first max_bytes-checked part only if it still
  // fits; one that shrank is read short and truncated to what was read.
  text.resize(static_cast<size_t>(in.gcount()));
  if (in.bad())
    throw InputError(loc, field, path.string(), "read error", "a readable regular file");
  return text;
}

}  // namespace gpurf
