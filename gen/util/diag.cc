#include "gen/util/diag.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace gpurf {

std::string SourceLoc::str() const {
  if (!known())
    return {};
  if (line <= 0)
    return file;
  if (column <= 0)
    return fmt::format("{}:{}", file, line);
  return fmt::format("{}:{}:{}", file, line, column);
}

InputError::InputError(SourceLoc loc, std::string field, std::string value, std::string problem,
                       std::string allowed)
    : std::runtime_error(Format(loc, field, value, problem, allowed)),
      loc_(std::move(loc)),
      field_(std::move(field)),
      value_(std::move(value)),
      problem_(std::move(problem)),
      allowed_(std::move(allowed)) {}

std::string InputError::Format(const SourceLoc& loc, const std::string& field,
                               const std::string& value, const std::string& problem,
                               const std::string& allowed) {
  std::string msg;
  if (loc.known())
    msg += loc.str() + ": ";
  msg += "error: ";
  if (!field.empty())
    msg += fmt::format("{}: ", field);
  msg += problem;
  if (!value.empty())
    msg += fmt::format(" (got '{}')", value);
  if (!allowed.empty())
    msg += fmt::format("; allowed: {}", allowed);
  return msg;
}

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::optional<std::string> ClosestMatch(const std::string& word,
                                        const std::initializer_list<std::string>& candidates) {
  return ClosestMatchIn(word, candidates);
}

}  // namespace gpurf
