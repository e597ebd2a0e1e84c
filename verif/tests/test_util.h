// Helpers shared by the verification tests: building a flop-array spec from a compact shape.
#pragma once

#include <fmt/format.h>

#include <string>

#include "gen/params/param.h"
#include "gen/structures/flop_array/flop_array_spec.h"

namespace gpurf::test {

struct Shape {
  int entries, width, read_ports, write_ports;
  bool registered, bypass, clock_gate;

  std::string Name() const {
    return fmt::format("e{}_w{}_{}r{}w_{}{}{}", entries, width, read_ports, write_ports,
                       registered ? "reg" : "comb", bypass ? "_bypass" : "",
                       clock_gate ? "_cg" : "_nocg");
  }
};

inline FlopArraySpec MakeSpec(const Shape& s) {
  ParamSet p(FlopArraySpec::ParamDescs());
  p.Set("entries", std::to_string(s.entries), {}, "entries");
  p.Set("width", std::to_string(s.width), {}, "width");
  p.Set("read_ports", std::to_string(s.read_ports), {}, "read_ports");
  p.Set("write_ports", std::to_string(s.write_ports), {}, "write_ports");
  p.Set("read_mode", s.registered ? "reg" : "comb", {}, "read_mode");
  p.Set("bypass", s.bypass ? "true" : "false", {}, "bypass");
  p.Set("clock_gate", s.clock_gate ? "true" : "false", {}, "clock_gate");
  return FlopArraySpec::FromParams(p);
}

}  // namespace gpurf::test
