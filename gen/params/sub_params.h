// A sub-structure's ParamSet filled from a composite structure's parameters (the system tops:
// rf-system, renaming-system). Each value keeps the location and field of the system parameter it
// came from, so a rejection by the sub-spec points at what the user wrote.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "gen/params/param.h"

namespace gpurf {

class SubParams {
 public:
  SubParams(const std::vector<ParamDesc>& descs, const ParamSet& sys, std::string prefix)
      : p_(descs), sys_(sys), prefix_(std::move(prefix)) {}
  // Sets `key` of the sub-structure to `text`, located at system parameter `from`.
  void Set(const std::string& key, const std::string& text, const std::string& from) {
    const ParamValue& v = sys_.Get(from);
    const std::string field = v.field.empty() ? from : v.field;
    p_.Set(key, text, v.loc, field + " (-> " + prefix_ + "." + key + ")");
  }
  // Copies system parameter `key` to the sub-structure's parameter `to` (default: same name).
  void Copy(const std::string& key, const std::string& to = "") {
    Set(to.empty() ? key : to, sys_.Get(key).s, key);
  }
  const ParamSet& params() const { return p_; }

 private:
  ParamSet p_;
  const ParamSet& sys_;
  std::string prefix_;
};

}  // namespace gpurf
