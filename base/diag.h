// Diagnostics shared by every front end of gpurf: a source location, and the one error type
// that bad user input raises. Every rejection names where (file:line:column, or the flag),
// which field, the offending value, and what is allowed; the CLI maps it to exit code 2.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

namespace gpurf {

// Exit codes of every gpurf subcommand.
enum ExitCode : int { kExitOk = 0, kExitCheckFailed = 1, kExitBadInput = 2 };

struct SourceLoc {
  std::string file;  // empty for command-line flags
  int line = 0;      // 1-based; 0 when unknown
  int column = 0;    // 1-based; 0 when unknown

  bool known() const { return !file.empty(); }
  std::string str() const;  // "file:line:column" or "" when unknown
};

// What an error message shows of user-supplied text: control characters and bytes that are not
// well-formed UTF-8 escaped as \xNN (\n, \t, \r by name), and at most `max_chars` characters
// followed by "... (N bytes in all)", so a 10 MB value or a binary file never floods one line.
std::string PrintableText(const std::string& text, size_t max_chars);

inline constexpr size_t kMaxShownValueChars = 120;
inline constexpr size_t kMaxShownFieldChars = 120;

// The 1-based line of a second YAML document in `text` (a "---" line after content), or 0. A text
// scan: yaml-cpp's LoadAll never returns on some malformed inputs (",z").
int SecondYamlDocumentLine(const std::string& text);

// Bad input: a malformed file, an unknown key, a wrong type, an out-of-range value or an
// inconsistent combination. what() is the full one-line message.
class InputError : public std::runtime_error {
 public:
  InputError(SourceLoc loc, std::string field, std::string value, std::string problem,
             std::string allowed = {});

  const SourceLoc& loc() const { return loc_; }
  const std::string& field() const { return field_; }
  const std::string& value() const { return value_; }
  const std::string& problem() const { return problem_; }
  const std::string& allowed() const { return allowed_; }

 private:
  static std::string Format(const SourceLoc& loc, const std::string& field,
                            const std::string& value, const std::string& problem,
                            const std::string& allowed);
  SourceLoc loc_;
  std::string field_;
  std::string value_;
  std::string problem_;
  std::string allowed_;
};

// A failure of an external tool or of the environment (Verilator missing, disk full...).
class ToolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Edit distance based suggestion: the candidate closest to `word`, if close enough to be a
// plausible typo (distance <= max(2, len/3)).
std::optional<std::string> ClosestMatch(const std::string& word,
                                        const std::initializer_list<std::string>& candidates);
template <typename Range>
std::optional<std::string> ClosestMatchIn(const std::string& word, const Range& candidates);

size_t EditDistance(const std::string& a, const std::string& b);

template <typename Range>
std::optional<std::string> ClosestMatchIn(const std::string& word, const Range& candidates) {
  std::optional<std::string> best;
  size_t best_d = 0;
  for (const auto& c : candidates) {
    const std::string cand{c};
    const size_t d = EditDistance(word, cand);
    if (!best || d < best_d) {
      best = cand;
      best_d = d;
    }
  }
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  if (best && best_d <= limit)
    return best;
  return std::nullopt;
}

}  // namespace gpurf
