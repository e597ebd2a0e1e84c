// Renaming-table specs and a port-level driver of its golden model for the tests.
#pragma once

#include <string>
#include <vector>

#include "gen/structures/renaming_table/renaming_table_ports.h"
#include "gen/structures/renaming_table/renaming_table_spec.h"
#include "models/renaming_table_model.h"

namespace gpurf::test {

struct RenameShape {
  int warps = 48, regs = 63, phys_regs = 1024, capacity_bytes = 1024, banks = 4;
};

inline RenamingTableSpec MakeRenameSpec(const RenameShape& s) {
  ParamSet p(RenamingTableSpec::ParamDescs());
  auto set = [&](const char* name, int v) { p.Set(name, std::to_string(v), {}, name); };
  set("warps", s.warps);
  set("regs", s.regs);
  set("phys_regs", s.phys_regs);
  set("capacity_bytes", s.capacity_bytes);
  set("banks", s.banks);
  return RenamingTableSpec::FromParams(p);
}

// A small table whose cycles are easy to work by hand: 4 warps x 16 registers, 64 physical
// registers (6-bit ids), 4 banks, 8 entries per warp (4*8*6 bits = 24 B).
inline RenamingTableSpec SmallRenameSpec() {
  return MakeRenameSpec({.warps = 4, .regs = 16, .phys_regs = 64, .capacity_bytes = 24});
}

// The model's ports, one request at a time: set the request, Step() evaluates and clocks.
struct RenameIo {
  using P = RenamingTablePort;
  explicit RenameIo(const RenamingTableSpec& spec) : s(spec), model(spec) {
    in = out = def = RenamingTablePortTable(s).ZeroValues();
    in[P::kRstN] = Bits(1, 1);
  }
  void Exempt(int n) { in[P::kExempt] = Bits(s.exempt_bits, static_cast<uint64_t>(n)); }
  void Clear() {
    for (int p = P::kReqValid; p <= P::kRelMask; ++p)
      in[p].clear();
  }
  // An instruction of `warp`: sources {reg, pir} (reg < 0: absent), destination (dst < 0: none).
  void Instr(int warp, std::vector<std::pair<int, bool>> srcs, int dst = -1, int phys = 0) {
    Clear();
    in[P::kReqValid] = Bits(1, 1);
    in[P::kReqOp] = Bits(2, RenamingTableSpec::kInstr);
    in[P::kReqWarp] = Bits(s.warp_bits, static_cast<uint64_t>(warp));
    for (size_t p = 0; p < srcs.size(); ++p) {
      if (srcs[p].first < 0)
        continue;
      in[P::kSrcValid].set_bit(static_cast<int>(p), true);
      in[P::kSrcReg].set(static_cast<int>(p) * s.reg_bits, s.reg_bits,
                         static_cast<uint64_t>(srcs[p].first));
      in[P::kSrcRelease].set_bit(static_cast<int>(p), srcs[p].second);
    }
    if (dst >= 0) {
      in[P::kDstValid] = Bits(1, 1);
      in[P::kDstReg] = Bits(s.reg_bits, static_cast<uint64_t>(dst));
      in[P::kDstPhys] = Bits(s.phys_bits, static_cast<uint64_t>(phys));
    }
  }
  void Release(int warp, const std::vector<int>& regs, bool exit = false) {
    Clear();
    in[P::kReqValid] = Bits(1, 1);
    in[P::kReqOp] = Bits(2, exit ? RenamingTableSpec::kExit : RenamingTableSpec::kRelease);
    in[P::kReqWarp] = Bits(s.warp_bits, static_cast<uint64_t>(warp));
    for (int r : regs)
      in[P::kRelMask].set_bit(r, true);
  }
  // Evaluates this cycle's outputs, clocks, and withdraws the request (it was accepted or is
  // pending).
  void Step() {
    model.Outputs(in, out, def);
    model.Clock(in);
    Clear();
  }
  bool SrcServed(int p) const { return out[P::kSrcServed].bit(p); }
  bool SrcMapped(int p) const { return out[P::kSrcMapped].bit(p); }
  int SrcPhys(int p) const {
    return static_cast<int>(out[P::kSrcPhys].get(p * s.phys_bits, s.phys_bits));
  }
  bool FreeValid(int b) const { return out[P::kFreeValid].bit(b); }
  int FreePhys(int b) const {
    return static_cast<int>(out[P::kFreePhys].get(b * s.phys_bits, s.phys_bits));
  }
  int DstPhys() const { return static_cast<int>(out[P::kDstPhysOut].get(0, s.phys_bits)); }

  const RenamingTableSpec s;
  RenamingTableModel model;
  PortValues in, out, def;
};

}  // namespace gpurf::test
