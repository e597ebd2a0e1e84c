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

}  // namespace gpurf::test
