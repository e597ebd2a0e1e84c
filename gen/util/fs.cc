#include "gen/util/fs.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "gen/util/diag.h"

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
  return fs::path(buf.data());
}

StagingDir::StagingDir(fs::path dest) : dest_(std::move(dest)) {
  if (dest_.empty())
    throw ToolError("empty output folder name");
  dest_ = fs::absolute(dest_).lexically_normal();
  if (dest_.filename().empty())
    dest_ = dest_.parent_path();
  staging_ = MakeTempDir(dest_.parent_path(), HiddenName(dest_, ".staging"));
}

StagingDir::~StagingDir() {
  if (!committed_) {
    std::error_code ec;
    fs::remove_all(staging_, ec);
  }
}

void StagingDir::Commit() {
  std::error_code ec;
  fs::path old;
  if (fs::exists(dest_)) {
    const bool replaceable =
        fs::is_directory(dest_) && (fs::is_empty(dest_) || fs::exists(dest_ / "manifest.json") ||
                                    fs::exists(dest_ / "design.json"));
    if (!replaceable) {
      throw ToolError(fmt::format(
          "refusing to replace '{}': it exists and was not produced by gpurf (no manifest.json)",
          dest_.string()));
    }
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
  if (!old.empty())
    fs::remove_all(old, ec);
}

void PublishCacheEntry(const fs::path& tmp, const fs::path& dest, const fs::path& marker,
                       const std::string& what) {
  std::error_code ec;
  fs::rename(tmp, dest, ec);
  if (!ec)
    return;
  std::error_code ignored;
  fs::remove_all(tmp, ignored);
  if (!fs::exists(dest / marker))
    throw ToolError(
        fmt::format("cannot place {} in cache {}: {}", what, dest.string(), ec.message()));
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
