#include "sim/accelsim/sass.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>

namespace gpurf::sim::accelsim {
namespace {

enum Flag : uint16_t {
  kNone = 0,
  kLoad = 1 << 0,
  kStore = 1 << 1,
  kAtomic = 1 << 2,
  kCall = 1 << 3,
  kRet = 1 << 4,
  kIndirect = 1 << 5,
  kReconverge = 1 << 6,
  kWideAddr = 1 << 7,
};

struct Entry {
  std::string_view name;
  OpClass op_class;
  uint16_t flags;
};

// Base opcodes of Kepler (sm_3x), Maxwell/Pascal (sm_5x/6x), Volta/Turing (sm_7x), Ampere/Ada
// (sm_8x) and Hopper (sm_90) SASS, from NVIDIA's CUDA Binary Utilities instruction-set
// reference. Kept sorted by name (checked once at start-up) for binary search.
constexpr OpClass A = OpClass::kAlu;
constexpr OpClass S = OpClass::kSfu;
constexpr OpClass C = OpClass::kConstMem;
constexpr OpClass G = OpClass::kGlobalMem;
constexpr OpClass L = OpClass::kLocalMem;
constexpr OpClass Sh = OpClass::kSharedMem;
constexpr OpClass T = OpClass::kTexture;
constexpr OpClass B = OpClass::kBranch;
constexpr OpClass Ba = OpClass::kBarrier;
constexpr OpClass E = OpClass::kExit;

constexpr auto kTable = std::to_array<Entry>({
    {"ACQBULK", Ba, kNone},
    {"AL2P", A, kNone},
    {"ALD", G, kLoad},
    {"AST", G, kStore},
    {"ATOM", G, kAtomic | kWideAddr},  // generic atomic
    {"ATOMG", G, kAtomic | kWideAddr},
    {"ATOMS", Sh, kAtomic},
    {"B2R", A, kNone},
    {"BAR", Ba, kNone},
    {"BFE", A, kNone},
    {"BFI", A, kNone},
    {"BMMA", A, kNone},
    {"BMOV", A, kNone},
    {"BMSK", A, kNone},
    {"BPT", B, kNone},
    {"BRA", B, kNone},
    {"BREAK", A, kNone},  // Volta+: leaves a convergence barrier, no jump
    {"BREV", A, kNone},
    {"BRK", B, kReconverge},  // Maxwell/Pascal: jumps to the PBK address
    {"BRX", B, kIndirect},
    {"BRXU", B, kIndirect},
    {"BSSY", A, kNone},
    {"BSYNC", Ba, kReconverge},
    {"CAL", B, kCall},
    {"CALL", B, kCall},
    {"CCTL", G, kNone},
    {"CCTLL", L, kNone},
    {"CCTLT", T, kNone},
    {"CONT", B, kReconverge},
    {"CS2R", A, kNone},
    {"CSET", A, kNone},
    {"CSETP", A, kNone},
    {"DADD", A, kNone},
    {"DEPBAR", Ba, kNone},
    {"DFMA", A, kNone},
    {"DMMA", A, kNone},
    {"DMNMX", A, kNone},
    {"DMUL", A, kNone},
    {"DSET", A, kNone},
    {"DSETP", A, kNone},
    {"ERRBAR", Ba, kNone},
    {"EXIT", E, kNone},
    {"F2F", A, kNone},
    {"F2FP", A, kNone},
    {"F2I", A, kNone},
    {"FADD", A, kNone},
    {"FADD32I", A, kNone},
    {"FCHK", A, kNone},
    {"FCMP", A, kNone},
    {"FENCE", Ba, kNone},
    {"FFMA", A, kNone},
    {"FFMA32I", A, kNone},
    {"FLO", A, kNone},
    {"FMNMX", A, kNone},
    {"FMUL", A, kNone},
    {"FMUL32I", A, kNone},
    {"FRND", A, kNone},
    {"FSEL", A, kNone},
    {"FSET", A, kNone},
    {"FSETP", A, kNone},
    {"FSWZADD", A, kNone},
    {"GETCRSPTR", A, kNone},
    {"GETLMEMBASE", A, kNone},
    {"HADD2", A, kNone},
    {"HADD2_32I", A, kNone},
    {"HFMA2", A, kNone},
    {"HFMA2_32I", A, kNone},
    {"HGMMA", A, kNone},
    {"HMMA", A, kNone},
    {"HMNMX2", A, kNone},
    {"HMUL2", A, kNone},
    {"HMUL2_32I", A, kNone},
    {"HSET2", A, kNone},
    {"HSETP2", A, kNone},
    {"I2F", A, kNone},
    {"I2FP", A, kNone},
    {"I2I", A, kNone},
    {"I2IP", A, kNone},
    {"IABS", A, kNone},
    {"IADD", A, kNone},
    {"IADD3", A, kNone},
    {"IADD32I", A, kNone},
    {"ICMP", A, kNone},
    {"IDE", A, kNone},
    {"IDP", A, kNone},
    {"IDP4A", A, kNone},
    {"IGMMA", A, kNone},
    {"IMAD", A, kNone},
    {"IMAD32I", A, kNone},
    {"IMADSP", A, kNone},
    {"IMMA", A, kNone},
    {"IMNMX", A, kNone},
    {"IMUL", A, kNone},
    {"IMUL32I", A, kNone},
    {"IPA", A, kNone},
    {"ISBERD", A, kNone},
    {"ISCADD", A, kNone},
    {"ISCADD32I", A, kNone},
    {"ISET", A, kNone},
    {"ISETP", A, kNone},
    {"JCAL", B, kCall},
    {"JMP", B, kNone},
    {"JMX", B, kIndirect},
    {"JMXU", B, kIndirect},
    {"KILL", E, kNone},
    {"LD", G, kLoad | kWideAddr},  // generic load
    {"LDC", C, kLoad},
    {"LDG", G, kLoad | kWideAddr},
    {"LDGDEPBAR", Ba, kNone},
    {"LDGSTS", G, kWideAddr},  // async global -> shared copy: no register result
    {"LDL", L, kLoad},
    {"LDS", Sh, kLoad},
    {"LDSM", Sh, kLoad},
    {"LEA", A, kNone},
    {"LEPC", A, kNone},
    {"LONGJMP", B, kNone},
    {"LOP", A, kNone},
    {"LOP3", A, kNone},
    {"LOP32I", A, kNone},
    {"MATCH", A, kNone},
    {"MEMBAR", Ba, kNone},
    {"MOV", A, kNone},
    {"MOV32I", A, kNone},
    {"MOVM", Sh, kNone},  // matrix transpose through the shared-memory crossbar
    {"MUFU", S, kNone},
    {"NANOSLEEP", Ba, kNone},
    {"NANOTRAP", Ba, kNone},
    {"NOP", A, kNone},
    {"OUT", A, kNone},
    {"P2R", A, kNone},
    {"PBK", A, kNone},  // pushes a break address; no jump
    {"PCNT", A, kNone},
    {"PEXIT", A, kNone},
    {"PIXLD", A, kNone},
    {"PLONGJMP", A, kNone},
    {"PLOP3", A, kNone},
    {"PMTRIG", A, kNone},
    {"POPC", A, kNone},
    {"PRET", A, kNone},
    {"PRMT", A, kNone},
    {"PSET", A, kNone},
    {"PSETP", A, kNone},
    {"R2B", A, kNone},
    {"R2P", A, kNone},
    {"R2UR", A, kNone},
    {"RED", G, kAtomic | kWideAddr},
    {"REDUX", A, kNone},
    {"RET", B, kRet},
    {"RPCMOV", A, kNone},
    {"RRO", S, kNone},
    {"RTT", B, kRet},
    {"S2R", A, kNone},
    {"S2UR", A, kNone},
    {"SAM", A, kNone},
    {"SEL", A, kNone},
    {"SETCRSPTR", A, kNone},
    {"SETLMEMBASE", A, kNone},
    {"SGXT", A, kNone},
    {"SHF", A, kNone},
    {"SHFL", Sh, kNone},  // runs on the shared-memory (MIO) crossbar, variable latency
    {"SHL", A, kNone},
    {"SHR", A, kNone},
    {"SSY", A, kNone},              // pushes a reconvergence address; no jump
    {"ST", G, kStore | kWideAddr},  // generic store
    {"STG", G, kStore | kWideAddr},
    {"STL", L, kStore},
    {"STP", A, kNone},
    {"STS", Sh, kStore},
    {"SUATOM", T, kAtomic},
    {"SULD", T, kLoad},
    {"SURED", T, kAtomic},
    {"SUST", T, kStore},
    {"SYNC", B, kReconverge},  // Maxwell/Pascal: jumps to the SSY reconvergence address
    {"TEX", T, kLoad},
    {"TEXS", T, kLoad},
    {"TLD", T, kLoad},
    {"TLD4", T, kLoad},
    {"TLD4S", T, kLoad},
    {"TLDS", T, kLoad},
    {"TMML", T, kLoad},
    {"TXA", T, kLoad},
    {"TXD", T, kLoad},
    {"TXQ", T, kLoad},
    {"UBLKCP", G, kNone},
    {"UBMSK", A, kNone},
    {"UBREV", A, kNone},
    {"UCLEA", A, kNone},
    {"UFLO", A, kNone},
    {"UIADD3", A, kNone},
    {"UIMAD", A, kNone},
    {"UISETP", A, kNone},
    {"ULDC", C, kLoad},
    {"ULEA", A, kNone},
    {"ULOP", A, kNone},
    {"ULOP3", A, kNone},
    {"ULOP32I", A, kNone},
    {"UMOV", A, kNone},
    {"UP2UR", A, kNone},
    {"UPLOP3", A, kNone},
    {"UPOPC", A, kNone},
    {"UPRMT", A, kNone},
    {"UPSETP", A, kNone},
    {"UR2UP", A, kNone},
    {"USEL", A, kNone},
    {"USGXT", A, kNone},
    {"USHF", A, kNone},
    {"USHL", A, kNone},
    {"USHR", A, kNone},
    {"UTMALDG", G, kNone},
    {"UTMAPF", G, kNone},
    {"UTMASTG", G, kNone},
    {"VABSDIFF", A, kNone},
    {"VABSDIFF4", A, kNone},
    {"VADD", A, kNone},
    {"VMAD", A, kNone},
    {"VMNMX", A, kNone},
    {"VOTE", A, kNone},
    {"VOTEU", A, kNone},
    {"VSET", A, kNone},
    {"VSETP", A, kNone},
    {"VSHL", A, kNone},
    {"VSHR", A, kNone},
    {"WARPGROUP", Ba, kNone},
    {"WARPSYNC", Ba, kReconverge},
    {"XMAD", A, kNone},
    {"YIELD", A, kNone},
});

bool TableSorted() {
  return std::is_sorted(kTable.begin(), kTable.end(),
                        [](const Entry& a, const Entry& b) { return a.name < b.name; });
}

std::string_view BaseOf(std::string_view opcode) {
  const size_t dot = opcode.find('.');
  return dot == std::string_view::npos ? opcode : opcode.substr(0, dot);
}

// Calls f(token) for each '.'-separated modifier after the base opcode.
template <typename F>
void ForEachModifier(std::string_view opcode, F f) {
  size_t pos = opcode.find('.');
  while (pos != std::string_view::npos) {
    const size_t next = opcode.find('.', pos + 1);
    f(opcode.substr(pos + 1,
                    next == std::string_view::npos ? std::string_view::npos : next - pos - 1));
    pos = next;
  }
}

bool Is64BitType(std::string_view t) {
  return t == "F64" || t == "S64" || t == "U64";
}

}  // namespace

std::optional<SassOpInfo> LookupSassOpcode(std::string_view opcode) {
  static const bool sorted = TableSorted();
  if (!sorted)
    std::abort();  // a programming error in kTable, caught by the unit tests
  const std::string_view base = BaseOf(opcode);
  const auto it = std::lower_bound(kTable.begin(), kTable.end(), base,
                                   [](const Entry& e, std::string_view n) { return e.name < n; });
  if (it == kTable.end() || it->name != base)
    return std::nullopt;
  SassOpInfo info;
  info.op_class = it->op_class;
  info.load = (it->flags & kLoad) != 0;
  info.store = (it->flags & kStore) != 0;
  info.atomic = (it->flags & kAtomic) != 0;
  info.call = (it->flags & kCall) != 0;
  info.ret = (it->flags & kRet) != 0;
  info.indirect = (it->flags & kIndirect) != 0;
  info.reconverge = (it->flags & kReconverge) != 0;
  info.wide_address = (it->flags & kWideAddr) != 0;
  return info;
}

std::vector<std::string_view> SassOpcodeNames() {
  std::vector<std::string_view> names;
  for (const Entry& e : kTable)
    names.push_back(e.name);
  return names;
}

OperandWidths SassOperandWidths(std::string_view opcode, const SassOpInfo& info, int num_dsts,
                                int num_srcs, int binary_version) {
  OperandWidths w;
  w.dst_regs.assign(static_cast<size_t>(num_dsts), 1);
  w.src_regs.assign(static_cast<size_t>(num_srcs), 1);
  const std::string_view base = BaseOf(opcode);

  int width_regs = 1;  // from a .64/.128 modifier
  bool extended = false;
  std::vector<std::string_view> types;  // F64, U32, ... in order (conversions)
  ForEachModifier(opcode, [&](std::string_view m) {
    if (m == "64")
      width_regs = 2;
    else if (m == "128")
      width_regs = 4;
    else if (m == "E")
      extended = true;
    if (m.size() >= 2 && (m[0] == 'F' || m[0] == 'S' || m[0] == 'U') &&
        (m.substr(1) == "8" || m.substr(1) == "16" || m.substr(1) == "32" || m.substr(1) == "64"))
      types.push_back(m);
  });

  const bool memory = info.load || info.store || info.atomic;
  if (memory) {
    // Sources: the address first (the tracer lists the memory reference before data operands of
    // stores and atomics), then data. Loads have the address only.
    const bool pair_address = info.wide_address && (extended || binary_version >= 70);
    if (num_srcs > 0 && pair_address)
      w.src_regs[0] = 2;
    for (int i = 1; i < num_srcs; ++i)
      w.src_regs[static_cast<size_t>(i)] = static_cast<uint8_t>(width_regs);
    for (auto& d : w.dst_regs)
      d = static_cast<uint8_t>(width_regs);
    // Atomic CAS reads compare and swap values as one pair-sized group each; leave as traced.
    return w;
  }
  if (base == "DADD" || base == "DMUL" || base == "DFMA" || base == "DMNMX" || base == "DSET" ||
      base == "DSETP") {
    for (auto& s : w.src_regs)
      s = 2;
    if (base != "DSET" && base != "DSETP") {
      for (auto& d : w.dst_regs)
        d = 2;
    }
    return w;
  }
  if (base == "F2F" || base == "F2I" || base == "I2F" || base == "I2I") {
    // Modifiers name the destination type first, then the source type (F2F.F64.F32).
    if (!types.empty() && Is64BitType(types[0])) {
      for (auto& d : w.dst_regs)
        d = 2;
    }
    if (types.size() >= 2 && Is64BitType(types[1])) {
      for (auto& s : w.src_regs)
        s = 2;
    }
    return w;
  }
  if (base == "IMAD" && opcode.find(".WIDE") != std::string_view::npos) {
    for (auto& d : w.dst_regs)
      d = 2;
    if (num_srcs >= 3)
      w.src_regs[2] = 2;
    return w;
  }
  if (width_regs > 1) {
    for (auto& d : w.dst_regs)
      d = static_cast<uint8_t>(width_regs);
    for (auto& s : w.src_regs)
      s = static_cast<uint8_t>(width_regs);
  }
  return w;
}

}  // namespace gpurf::sim::accelsim
