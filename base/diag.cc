#include "base/diag.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
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

std::string PrintableText(const std::string& text, size_t max_chars) {
  std::string out;
  size_t shown = 0;
  size_t i = 0;
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  while (i < text.size() && shown < max_chars) {
    const unsigned char c = byte(i);
    // Length of a well-formed UTF-8 sequence starting at i (RFC 3629: no overlongs, no
    // surrogates, at most U+10FFFF), or 0.
    size_t len = 0;
    if (c >= 0x20 && c < 0x7f) {
      len = 1;
    } else if (c >= 0xc2 && c <= 0xf4) {
      const size_t n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
      bool ok = i + n <= text.size();
      for (size_t k = 1; ok && k < n; ++k)
        ok = (byte(i + k) & 0xc0) == 0x80;
      if (ok && n == 3) {
        const unsigned char c1 = byte(i + 1);
        ok = !(c == 0xe0 && c1 < 0xa0) && !(c == 0xed && c1 >= 0xa0);
      }
      if (ok && n == 4) {
        const unsigned char c1 = byte(i + 1);
        ok = !(c == 0xf0 && c1 < 0x90) && !(c == 0xf4 && c1 >= 0x90);
      }
      len = ok ? n : 0;
    }
    if (len == 0) {
      // Control characters and bytes that are not UTF-8 are shown escaped, never raw: a message
      // must not move the cursor, ring the bell or break the terminal's encoding.
      if (c == '\n')
        out += "\\n";
      else if (c == '\t')
        out += "\\t";
      else if (c == '\r')
        out += "\\r";
      else
        out += fmt::format("\\x{:02x}", c);
      ++i;
    } else {
      out.append(text, i, len);
      i += len;
    }
    ++shown;
  }
  if (i < text.size())
    out += fmt::format("... ({} bytes in all)", text.size());
  return out;
}

int SecondYamlDocumentLine(const std::string& text) {
  bool content = false;
  int n = 1;
  for (size_t at = 0; at < text.size(); ++n) {
    const size_t eol = std::min(text.find('\n', at), text.size());
    const std::string_view l(text.data() + at, eol - at);
    const bool marker =
        l.starts_with("---") && (l.size() == 3 || l[3] == ' ' || l[3] == '\r' || l[3] == '\t');
    if (marker && content)
      return n;
    if (!marker && !l.empty() && l[0] != '#' && l.find_first_not_of(" \t\r") != l.npos)
      content = true;
    at = eol + 1;
  }
  return 0;
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
    msg += fmt::format("{}: ", PrintableText(field, kMaxShownFieldChars));
  msg += problem;
  if (!value.empty())
    msg += fmt::format(" (got '{}')", PrintableText(value, kMaxShownValueChars));
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
