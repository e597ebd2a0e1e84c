#include "gen/structures/pcrf/pcrf_spec.h"

#include <fmt/format.h>

#include <bit>

#include "base/hash.h"
#include "base/int_math.h"

namespace gpurf {

const std::vector<ParamDesc>& PcrfSpec::ParamDescs() {
  static const std::vector<ParamDesc> descs = {
      IntParam("entries", 4, 4096, 1024,
               "PCRF entries E, one saved warp register each (FineReg: 1024 for 128 KB)"),
      IntParam("row_bytes", 4, 256, 128, "bytes per register row (FineReg: 128, 32 lanes x 4 B)"),
      IntParam("ctas", 2, 256, 128, "pending CTA slots of the pointer table (FineReg: 128)"),
      IntParam("warps", 2, 64, 32, "warps per CTA: the warp id field (FineReg: 32, 5 bits)"),
      IntParam("regs", 2, 256, 64,
               "registers per thread: the register index field (FineReg: 63, 6 bits)"),
      IntParam("hop_cycles", 4, 16, 4,
               "cycles per chain entry from tag read to restored row (FineReg: at least 4)"),
      BoolParam("pipelined", true,
                "walks issue one entry per cycle (true) or one per hop_cycles (false)"),
      EnumParam("data_impl", {"macro", "flops"}, "macro",
                "data array behind gpurf_sram_1r1w: hard macro or flip-flops"),
  };
  return descs;
}

PcrfSpec PcrfSpec::FromParams(const ParamSet& p) {
  PcrfSpec s;
  s.params = p;
  s.entries = p.IntAsInt("entries");
  s.row_bytes = p.IntAsInt("row_bytes");
  s.ctas = p.IntAsInt("ctas");
  s.warps = p.IntAsInt("warps");
  s.regs = p.IntAsInt("regs");
  s.hop_cycles = p.IntAsInt("hop_cycles");
  s.pipelined = p.Bool("pipelined");
  s.data_impl = p.Enum("data_impl") == "macro" ? DataImpl::kMacro : DataImpl::kFlops;
  s.row_bits = 8 * s.row_bytes;
  s.entry_bits = IndexBits(s.entries);
  s.count_bits = std::bit_width(static_cast<unsigned>(s.entries));
  s.cta_bits = IndexBits(s.ctas);
  s.warp_bits = IndexBits(s.warps);
  s.reg_bits = IndexBits(s.regs);
  s.tag_bits = 2 + s.entry_bits + s.warp_bits + s.reg_bits;
  const long long data_bits = static_cast<long long>(s.entries) * s.row_bits;
  if (s.data_impl == DataImpl::kFlops && data_bits > 1024LL * 1024) {
    p.Reject("data_impl",
             fmt::format("flops for {} data bits (entries {} x row_bytes {}) exceeds the "
                         "flip-flop limit of 1 Mbit",
                         data_bits, s.entries, s.row_bytes),
             "macro, or flops with entries x row_bytes x 8 <= 1048576");
  }
  s.kind = "pcrf";
  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  s.module_name = fmt::format("rf_pcrf_{}x{}b_c{}_h{}{}_{}", s.entries, s.row_bytes, s.ctas,
                              s.hop_cycles, s.pipelined ? "p" : "s", s.config_hash);
  return s;
}

}  // namespace gpurf
