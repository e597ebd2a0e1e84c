// Hand-written sim::Kernels for the pass tests, and a generator of random structured kernels
// (straight code, if-then, if-else, loops; ALU, SFU and memory instructions; register pairs;
// guarded instructions) for the allocation invariants.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "sim/kernel/kernel.h"

namespace gpurf::sim::test {

inline Instruction Op(std::string opcode, OpClass c, std::vector<RegOperand> dsts,
                      std::vector<RegOperand> srcs) {
  Instruction i;
  i.opcode = std::move(opcode);
  i.op_class = c;
  i.dsts = std::move(dsts);
  i.srcs = std::move(srcs);
  return i;
}
inline RegOperand R(uint16_t r, uint8_t n = 1) {
  return RegOperand{r, n};
}
inline Instruction Add(uint16_t d, uint16_t a, uint16_t b) {
  return Op("add", OpClass::kAlu, {R(d)}, {R(a), R(b)});
}
inline Instruction Fma(uint16_t d, uint16_t a, uint16_t b, uint16_t c) {
  return Op("fma", OpClass::kAlu, {R(d)}, {R(a), R(b), R(c)});
}
inline Instruction Mov(uint16_t d) {
  return Op("mov", OpClass::kAlu, {R(d)}, {});
}
inline Instruction Load(uint16_t d, uint16_t addr) {
  Instruction i = Op("ld.global", OpClass::kGlobalMem, {R(d)}, {R(addr)});
  i.long_latency = true;
  i.mem_bytes = 4;
  return i;
}
inline Instruction Store(uint16_t addr, uint16_t v) {
  Instruction i = Op("st.global", OpClass::kGlobalMem, {}, {R(addr), R(v)});
  i.mem_bytes = 4;
  return i;
}
inline Instruction Sfu(uint16_t d, uint16_t a) {
  return Op("sin", OpClass::kSfu, {R(d)}, {R(a)});
}
inline Instruction Bra(int32_t target, bool conditional) {
  Instruction i = Op("bra", OpClass::kBranch, {}, {});
  i.target = target;
  if (conditional) {
    i.guard = 0;
    i.conditional = true;
  }
  return i;
}
inline Instruction Exit() {
  return Op("exit", OpClass::kExit, {}, {});
}

inline Kernel Make(std::string name, std::vector<Instruction> code) {
  Kernel k;
  k.name = std::move(name);
  k.code = std::move(code);
  for (uint32_t i = 0; i < k.code.size(); ++i)
    k.code[i].pc = i * 8;
  k.regs_per_thread = 64;
  k.BuildCfg();
  return k;
}

// Random structured kernel: nested regions up to `depth`, registers R0..R(regs-1).
class RandomKernel {
 public:
  RandomKernel(uint32_t seed, int regs) : rng_(seed), regs_(regs) {}

  Kernel Build(const std::string& name, int regions) {
    code_.clear();
    for (int r = 0; r < regs_; ++r)
      code_.push_back(Mov(static_cast<uint16_t>(r)));
    for (int i = 0; i < regions; ++i)
      Region(2);
    code_.push_back(Exit());
    return Make(name, code_);
  }

 private:
  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  uint16_t Reg() { return static_cast<uint16_t>(Pick(regs_)); }

  void Straight(int n) {
    for (int i = 0; i < n; ++i) {
      switch (Pick(10)) {
        case 0:
          code_.push_back(Load(Reg(), Reg()));
          break;
        case 1:
          code_.push_back(Store(Reg(), Reg()));
          break;
        case 2:
          code_.push_back(Sfu(Reg(), Reg()));
          break;
        case 3: {
          // A 64-bit value: write a pair, read it as a pair.
          const auto p = static_cast<uint16_t>(2 * Pick(regs_ / 2));
          code_.push_back(Op("add.64", OpClass::kAlu, {R(p, 2)}, {R(Reg()), R(p, 2)}));
          break;
        }
        case 4: {
          Instruction g = Add(Reg(), Reg(), Reg());
          g.guard = 1;  // predicated: does not kill
          code_.push_back(g);
          break;
        }
        case 5:
          code_.push_back(Fma(Reg(), Reg(), Reg(), Reg()));
          break;
        default:
          code_.push_back(Add(Reg(), Reg(), Reg()));
      }
    }
  }

  void Region(int depth) {
    const int kind = depth > 0 ? Pick(4) : 0;
    if (kind == 0) {
      Straight(1 + Pick(6));
    } else if (kind == 1) {  // if-then
      const size_t br = code_.size();
      code_.push_back(Bra(-1, true));
      Region(depth - 1);
      code_[br].target = static_cast<int32_t>(code_.size());
      Straight(1 + Pick(3));
    } else if (kind == 2) {  // if-else
      const size_t br = code_.size();
      code_.push_back(Bra(-1, true));
      Region(depth - 1);
      const size_t jmp = code_.size();
      code_.push_back(Bra(-1, false));
      code_[br].target = static_cast<int32_t>(code_.size());
      Region(depth - 1);
      code_[jmp].target = static_cast<int32_t>(code_.size());
      Straight(1 + Pick(3));
    } else {  // do-while loop
      const auto head = static_cast<int32_t>(code_.size());
      Straight(1 + Pick(2));
      Region(depth - 1);
      code_.push_back(Bra(head, true));
      Straight(1 + Pick(2));
    }
  }

  std::mt19937 rng_;
  int regs_;
  std::vector<Instruction> code_;
};

}  // namespace gpurf::sim::test
