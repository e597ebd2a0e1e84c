// libFuzzer target: the design-point YAML loader (gen/config/yaml_loader.h), from the YAML text
// through every key, type, range and cross-field check to the DesignSpec and its JSON form.
#include <cstddef>
#include <cstdint>

#include "gen/config/yaml_loader.h"
#include "verif/fuzz/fuzz_contract.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = gpurf::fuzz::AsText(data, size);
  gpurf::fuzz::ParsesOrRejects("LoadDesignFromString", [&] {
    const gpurf::DesignSpec d = gpurf::LoadDesignFromString(text, "fuzz.yaml");
    (void)d.ToJson().dump();
  });
  return 0;
}
