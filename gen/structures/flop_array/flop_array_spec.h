// Specification of the multi-ported flip-flop register array, the storage of every ORF, RFC,
// RSP and register-cache level (Gebhart et al. section 6.3; Bailey et al.).
//
// Port contract (fixed, so any testbench can drive any generated array):
//   clk_i, rst_ni, we_i[W-1:0], waddr_i[W*AW-1:0], wdata_i[W*DW-1:0], raddr_i[R*AW-1:0],
//   rdata_o[R*DW-1:0]; AW = max(1, ceil(log2(entries))), DW = width; port p uses bits
//   [p*AW +: AW] / [p*DW +: DW].
// Semantics: writes take effect at the rising clock edge; when several write ports write one
// address in a cycle the highest-numbered port wins; storage is not reset. Reads:
//   comb,  no bypass: rdata(t)   = mem before edge t [raddr(t)]
//   comb,  bypass:    rdata(t)   = wdata of the highest port writing raddr(t) in cycle t, else
//                                  mem before edge t [raddr(t)]
//   reg,   no bypass: rdata(t+1) = mem before edge t [raddr(t)]; rdata is 0 after reset
//   reg,   bypass:    rdata(t+1) = mem after edge t [raddr(t)];  rdata is 0 after reset
// A read or write address >= entries is a misuse caught by an assertion; its data is undefined.
#pragma once

#include <string>
#include <vector>

#include "gen/params/param.h"

namespace gpurf {

struct FlopArraySpec {
  enum class ReadMode { kComb, kReg };

  // Parameters.
  int entries = 0;
  int width = 0;
  int read_ports = 0;
  int write_ports = 0;
  ReadMode read_mode = ReadMode::kComb;
  bool bypass = false;
  bool clock_gate = true;
  // Write-data segmentation: rows are grouped into segments of write_segment_rows rows (a power
  // of two); each segment's copy of the write data is ANDed with "a write port targets this
  // segment", so the row D inputs of the other segments do not toggle. 0 = off (the write data
  // is broadcast to every row). The parameter is "auto", "off" or the row count.
  int write_segment_rows = 0;

  // Derived once.
  int addr_width = 0;       // max(1, ceil(log2(entries)))
  std::string kind;         // "flop-array"
  std::string config_hash;  // 6 hex digits over kind and parameters
  std::string module_name;  // rf_flop_3r1w_48x128_a1b2c3
  ParamSet params;          // the checked values this spec came from

  static const std::vector<ParamDesc>& ParamDescs();
  // Cross-field validation and derivation; throws InputError.
  static FlopArraySpec FromParams(const ParamSet& p);

  bool registered() const { return read_mode == ReadMode::kReg; }
  bool segmented() const { return write_segment_rows > 0; }
  int write_segments() const {
    return segmented() ? (entries + write_segment_rows - 1) / write_segment_rows : 1;
  }
  // The rows per segment that "auto" picks for an array of `entries` rows (0 = off).
  static int AutoWriteSegmentRows(int entries);
};

}  // namespace gpurf
