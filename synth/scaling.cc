#include "synth/scaling.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <regex>

#include "base/diag.h"

namespace gpurf {
namespace {

struct Row {
  int nm;
  double energy, area;
};
// Stillmaker & Baas 2017, relative to 45 nm (DESIGN.md).
constexpr std::array<Row, 6> kTable = {{{180, 30.6, 19.0},
                                        {130, 7.3, 6.4},
                                        {90, 3.7, 2.8},
                                        {65, 1.95, 1.5},
                                        {45, 1.0, 1.0},
                                        {32, 0.53, 0.46}}};

double Interpolate(int nm, bool energy) {
  for (size_t i = 0; i + 1 < kTable.size(); ++i) {
    const Row& a = kTable[i];
    const Row& b = kTable[i + 1];
    if (nm <= a.nm && nm >= b.nm) {
      const double fa = energy ? a.energy : a.area, fb = energy ? b.energy : b.area;
      if (nm == a.nm)
        return fa;
      // Power law between the neighbours: log f linear in log nm.
      const double t = (std::log(a.nm) - std::log(nm)) / (std::log(a.nm) - std::log(b.nm));
      return std::exp(std::log(fa) + t * (std::log(fb) - std::log(fa)));
    }
  }
  throw InputError({}, "node", std::to_string(nm), "outside the Stillmaker & Baas table",
                   "32..180 nm");
}

}  // namespace

double StillmakerBaasEnergy(int nm) {
  return Interpolate(nm, true);
}
double StillmakerBaasArea(int nm) {
  return Interpolate(nm, false);
}

ScalingFactors StillmakerBaasScaling(int from_nm, int to_nm) {
  ScalingFactors f;
  f.from_nm = from_nm;
  f.to_nm = to_nm;
  f.energy = StillmakerBaasEnergy(to_nm) / StillmakerBaasEnergy(from_nm);
  f.area = StillmakerBaasArea(to_nm) / StillmakerBaasArea(from_nm);
  const bool interpolated = [&] {
    for (const auto& r : kTable)
      if (r.nm == to_nm)
        return false;
    return true;
  }();
  f.source = fmt::format(
      "Stillmaker & Baas 2017 (Integration 58:74-81) factors relative to 45 nm{}; area x{:.5f}, "
      "energy x{:.5f} from {} nm to {} nm; timing and leakage not scaled",
      interpolated ? ", target node interpolated log-log between its table neighbours" : "", f.area,
      f.energy, from_nm, to_nm);
  return f;
}

std::optional<int> GuessLibraryNodeNm(const LibertyLibrary& lib) {
  const std::string text = lib.name + " " + lib.path.filename().string();
  std::smatch m;
  static const std::regex osu(R"(osu0?(\d{2,3}))", std::regex::icase);
  static const std::regex nm(R"((\d{2,3})\s*nm)", std::regex::icase);
  static const std::regex sky(R"(sky(\d{2,3}))", std::regex::icase);
  static const std::regex trailing(R"([a-z](\d{2,3})(?:\D|$))", std::regex::icase);
  if (std::regex_search(text, m, osu)) {
    // osu018 = 0.18 um, osu035 = 0.35 um, osu050 = 0.5 um.
    return std::stoi(m[1].str()) * 10;
  }
  if (std::regex_search(text, m, nm))
    return std::stoi(m[1].str());
  if (std::regex_search(text, m, sky))
    return std::stoi(m[1].str());
  if (std::regex_search(text, m, trailing))
    return std::stoi(m[1].str());
  return std::nullopt;
}

}  // namespace gpurf
