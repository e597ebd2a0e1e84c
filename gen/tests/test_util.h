// Small helpers shared by the gen/ test files.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace gpurf::test {

// The lines of `text`, without their line breaks.
inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    out.push_back(l);
  return out;
}

// Occurrences of `part` in `s`, overlapping ones included ("aaa" holds "aa" twice).
inline int Count(const std::string& s, const std::string& part) {
  int n = 0;
  for (size_t at = s.find(part); at != std::string::npos; at = s.find(part, at + 1))
    ++n;
  return n;
}

}  // namespace gpurf::test
