#include "gen/structures/flop_array/flop_array_spec.h"

#include <fmt/format.h>

#include <string>

#include "base/hash.h"

namespace gpurf {

const std::vector<ParamDesc>& FlopArraySpec::ParamDescs() {
  static const std::vector<ParamDesc> descs = {
      IntParam("entries", 1, 1024, 24, "rows (registers of a lane cluster); any value"),
      IntParam("width", 1, 1024, 128, "bits per row (128 = 4 lanes x 32 bit)"),
      IntParam("read_ports", 1, 12, 3, "read ports R"),
      IntParam("write_ports", 1, 4, 1, "write ports W"),
      EnumParam("read_mode", {"comb", "reg"}, "comb",
                "comb: data in the same cycle; reg: registered, one cycle of latency"),
      BoolParam("bypass", false, "forward same-cycle write data to reads of that address"),
      BoolParam("clock_gate", true, "gate each row's clock with its write enable"),
      EnumParam("write_segment_rows",
                {"auto", "off", "2", "4", "8", "16", "32", "64", "128", "256", "512"}, "auto",
                "rows per write-data segment: only the segment holding the written row sees the"
                " write data on its D inputs; auto: 8 from 24 entries up, off below"),
  };
  return descs;
}

int FlopArraySpec::AutoWriteSegmentRows(int entries) {
  // A gated segment copy returns to zero after each write, so a written segment's D pins see
  // about twice the toggles of a plain broadcast: S segments cut the D-pin toggles by about
  // S / 2. With two segments that is no gain (16 x 64 2R1W measured 57.6 pJ per write against
  // 54.5 pJ unsegmented); from 24 rows up (three or more segments of 8) it pays for the one
  // AND2 per 8 storage bits (docs/perf.md, quality of results).
  return entries >= 24 ? 8 : 0;
}

FlopArraySpec FlopArraySpec::FromParams(const ParamSet& p) {
  FlopArraySpec s;
  s.params = p;
  s.entries = p.IntAsInt("entries");
  s.width = p.IntAsInt("width");
  s.read_ports = p.IntAsInt("read_ports");
  s.write_ports = p.IntAsInt("write_ports");
  s.read_mode = p.Enum("read_mode") == "reg" ? ReadMode::kReg : ReadMode::kComb;
  s.bypass = p.Bool("bypass");
  s.clock_gate = p.Bool("clock_gate");
  const std::string seg = p.Enum("write_segment_rows");
  s.write_segment_rows = seg == "auto"  ? AutoWriteSegmentRows(s.entries)
                         : seg == "off" ? 0
                                        : std::stoi(seg);
  // One segment holding every row is the broadcast itself: no gating to generate.
  if (s.write_segment_rows >= s.entries)
    s.write_segment_rows = 0;

  // Every parameter is independently legal within its range; the flat port vectors bound the
  // product of ports and width (Verilator and Yosys handle vectors of this size comfortably).
  const long long storage_bits = static_cast<long long>(s.entries) * s.width;
  if (storage_bits > 256 * 1024) {
    p.Reject("entries",
             fmt::format("entries x width = {} bits is larger than a flop array should be",
                         storage_bits),
             "entries x width <= 262144 bits (32 KiB); use an SRAM-based MRF bank beyond that");
  }

  s.addr_width = 1;
  while ((1LL << s.addr_width) < s.entries)
    ++s.addr_width;
  s.kind = "flop-array";
  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  s.module_name = fmt::format("rf_flop_{}r{}w_{}x{}_{}", s.read_ports, s.write_ports, s.entries,
                              s.width, s.config_hash);
  return s;
}

}  // namespace gpurf
