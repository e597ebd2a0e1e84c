// Reg-mem re-indexing (RGen) of the cache-emulated register file (Jing et al., section III-C and
// Fig. 4): a register operand (warp id, register id) becomes a line address of the integrated
// memory, so that registers and cache data are looked up in one tag array.
//
//   register address = warp x regs + reg            (regs a power of two: {warp, reg}; the
//                                                    paper's 10 bits for 32 x 32 = 1,024 warp
//                                                    registers)
//   reg-mem address  = prefix << (Off + RA) | register address << Off
//
// with Off = log2(line_bytes) (7 for 128-byte lines), RA = ceil(log2(warps x regs)) and the
// prefix filling the AW - Off - RA bits above it (15 for the paper's 32-bit addresses; all ones
// unless given). The line index above the offset selects the tag bank with its low log2(banks)
// bits and the set within the bank with the next log2(sets / banks) bits (2 and 6 for the
// paper's 4 banks of 64 sets); the rest is the tag. Consecutive registers of a warp land in
// consecutive banks. Every width derives from the parameters; Params::Problem says why a
// combination is impossible. The tag-array family's own RGen (TagArraySpec::RegMemAddress) is
// the concatenation {warp, reg} with a fixed all-ones prefix; this one packs warps of any
// register count densely, as a register file allocates them, so that a kernel's warp registers
// fill the integrated memory's lines without holes.
#pragma once

#include <cstdint>
#include <string>

namespace gpurf::harness {

class RegMemIndexer {
 public:
  struct Params {
    int warps = 32;        // warp contexts whose registers are mapped
    int regs = 32;         // registers per warp (the allocation per warp; any count >= 1)
    int line_bytes = 128;  // power of two
    int banks = 4;         // tag banks, power of two
    int sets = 256;        // sets in all banks, power of two, a multiple of banks
    int addr_width = 32;   // bits of a line address (<= 63)
    int64_t prefix = -1;   // the reg-mem prefix; -1: all ones
    // Why these parameters cannot be indexed ("" when they can).
    std::string Problem() const;
  };

  // Throws std::invalid_argument with Params::Problem().
  explicit RegMemIndexer(const Params& p);

  const Params& params() const { return p_; }
  int offset_bits() const { return offset_bits_; }
  int reg_addr_bits() const { return reg_addr_bits_; }
  int prefix_bits() const { return prefix_bits_; }
  int bank_bits() const { return bank_bits_; }
  int set_in_bank_bits() const { return set_in_bank_bits_; }
  int tag_bits() const { return p_.addr_width - offset_bits_ - bank_bits_ - set_in_bank_bits_; }
  uint64_t prefix() const { return prefix_; }

  // The register address of (warp, reg) and its reg-mem line address. std::out_of_range for a
  // warp or register outside the parameters.
  uint64_t RegisterAddress(int warp, int reg) const;
  uint64_t Address(int warp, int reg) const;
  // Whether a line address lies in the reg-mem space (its prefix field holds the prefix).
  bool InRegSpace(uint64_t addr) const;
  // The (warp, reg) of a reg-mem address (InRegSpace); false when it names none.
  bool Decode(uint64_t addr, int& warp, int& reg) const;
  // Fields of any line address.
  int Bank(uint64_t addr) const;
  int SetInBank(uint64_t addr) const;
  int Set(uint64_t addr) const;  // global set index: bank bits low, set-in-bank bits above
  uint64_t Tag(uint64_t addr) const;

 private:
  Params p_;
  int offset_bits_ = 0, reg_addr_bits_ = 0, prefix_bits_ = 0, bank_bits_ = 0, set_in_bank_bits_ = 0;
  uint64_t prefix_ = 0;
};

}  // namespace gpurf::harness
