// The parsed form of a PTX kernel, shared by the parser, the register allocator and the
// functional executor.
//
// The parser decodes every instruction once into a PtxInst: an operation, its types and
// modifiers as small enums, and resolved operands (registers as indexes, immediates as bits,
// symbols as addresses, labels as instruction indexes). Before register allocation, register
// operands name PTX virtual registers (indexes into PtxFunction::vregs); the allocator rewrites
// them in place to architected registers, so the executor runs the allocated code and the
// values it reports are those of the architected registers.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/diag.h"

namespace gpurf::sim::ptx {

enum class Type : uint8_t {
  kNone,
  kPred,
  kB8,
  kB16,
  kB32,
  kB64,
  kU8,
  kU16,
  kU32,
  kU64,
  kS8,
  kS16,
  kS32,
  kS64,
  kF32,
  kF64,
  kF16,    // IEEE half precision in a 16-bit register
  kF16x2,  // two halves packed in a 32-bit register (element 0 in bits 0-15)
};
int TypeBits(Type t);  // 1 for .pred
bool IsSigned(Type t);
bool IsFloat(Type t);  // .f32 and .f64 (half types are IsHalf)
bool IsHalf(Type t);
const char* TypeName(Type t);  // "u32"

enum class Op : uint8_t {
  kMov,
  kAdd,
  kSub,
  kMul,
  kMad,
  kFma,
  kDiv,
  kRem,
  kMin,
  kMax,
  kAbs,
  kNeg,
  kAnd,
  kOr,
  kXor,
  kNot,
  kShl,
  kShr,
  kSetp,
  kSelp,
  kCvt,
  kCvta,
  kLd,
  kSt,
  kAtom,  // atom and red (red has no destination)
  kBra,
  kBar,
  kMembar,
  kRet,  // ret and exit
  kRcp,
  kSqrt,
  kRsqrt,
  kEx2,
  kLg2,
  kSin,
  kCos,
  kPopc,
  kClz,
  kBrev,
  kBfind,  // bfind[.shiftamt].{u32,s32,u64,s64} d (u32), a: nvcc's __ffs / __clz helpers
  kBfe,
  kBfi,
  kPrmt,
  // Warp-level operations (PtxInst::sub says which form).
  kShfl,        // shfl.sync.{up,down,bfly,idx}.b32 d[|p], a, b, c, membermask
  kVote,        // vote.sync.{all,any,uni}.pred d, {!}a, mask / vote.sync.ballot.b32 d, {!}a, mask
  kActivemask,  // activemask.b32 d
  kMatch,       // match.{any,all}.sync.{b32,b64} d[|p], a, membermask
  kRedux,       // redux.sync.{add,min,max}.{u32,s32} / .{and,or,xor}.b32 d, a, membermask
  kBarWarp,     // bar.warp.sync membermask: no effect on the SIMT stack, recorded
  kPrefetch,    // prefetch{.global,.local}.{L1,L2} [a]: no data, recorded with its addresses
  // Packing moves (mov.b32 d, {a,b} / mov.b32 {a,b}, d); an unpack is split into one kUnpack
  // per destination element.
  kPack,    // d = src[0] | src[1] << e | ..., e = element bits (TypeBits(type) / n_src)
  kUnpack,  // d = bits [src[1].imm, src[1].imm + TypeBits(type)) of src[0]
};

enum class ShflMode : uint8_t { kUp, kDown, kBfly, kIdx };
enum class VoteMode : uint8_t { kAll, kAny, kUni, kBallot };

// mul / mad result part.
enum class MulMode : uint8_t { kNone, kLo, kHi, kWide };
// IEEE rounding of float results (rn, rz, rm, rp) and integer rounding of float-to-int or
// float-to-integral-float conversions (rni, rzi, rmi, rpi).
enum class Round : uint8_t { kDefault, kRn, kRz, kRm, kRp, kRni, kRzi, kRmi, kRpi };
enum class Space : uint8_t { kGeneric, kParam, kGlobal, kShared, kLocal };
enum class Cmp : uint8_t {
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kLo,
  kLs,
  kHi,
  kHs,
  kEqu,
  kNeu,
  kLtu,
  kLeu,
  kGtu,
  kGeu,
  kNum,
  kNan,
};
enum class BoolOp : uint8_t { kNone, kAnd, kOr, kXor };
enum class AtomOp : uint8_t { kAdd, kMin, kMax, kExch, kCas, kAnd, kOr, kXor, kInc, kDec };
enum class Special : uint8_t {
  kTidX,
  kTidY,
  kTidZ,
  kNtidX,
  kNtidY,
  kNtidZ,
  kCtaidX,
  kCtaidY,
  kCtaidZ,
  kNctaidX,
  kNctaidY,
  kNctaidZ,
  kLaneId,
  kWarpId,
  kNWarpId,
};

struct Operand {
  enum Kind : uint8_t {
    kNone,
    kReg,      // reg (vreg id, or first architected register after allocation)
    kImm,      // imm holds the bits (floats as their IEEE bit pattern)
    kSpecial,  // special register
    kAddr,     // [reg + imm] when has_base, else [imm]
    kVec,      // {vec[0..n)} of registers
  };
  Kind kind = kNone;
  bool has_base = false;
  uint8_t width = 1;  // 32-bit registers of a kReg / kAddr base (1 or 2), of each kVec element
  uint8_t n = 0;      // elements of a kVec
  Special special = Special::kTidX;
  uint16_t reg = 0;
  std::array<uint16_t, 4> vec{};
  int64_t imm = 0;
};

// A predicate operand: guard, selp selector, setp combiner, setp destinations.
struct PredOperand {
  uint16_t reg = 0;  // predicate vreg id, then architected predicate register
  bool negated = false;
};

struct PtxInst {
  Op op = Op::kMov;
  Type type = Type::kNone;   // the instruction type (destination type of cvt)
  Type type2 = Type::kNone;  // cvt source type; setp comparison type is `type`
  MulMode mul = MulMode::kNone;
  Round round = Round::kDefault;
  Space space = Space::kGeneric;  // ld/st/atom state space; cvta space
  Cmp cmp = Cmp::kEq;
  BoolOp bool_op = BoolOp::kNone;
  AtomOp atom = AtomOp::kAdd;
  bool ftz = false;
  bool sat = false;
  bool approx = false;
  bool uni = false;       // bra.uni
  bool to = false;        // cvta.to (generic -> space) rather than space -> generic
  bool shiftamt = false;  // bfind.shiftamt: the left shift that brings the bit to the top
  bool spill = false;     // inserted by the register allocator
  // Form of a warp-level operation: ShflMode, VoteMode, match (0 any, 1 all), redux (AtomOp
  // in `atom`).
  uint8_t sub = 0;
  uint8_t vec = 1;       // ld/st vector length
  uint8_t cache_op = 0;  // ld/st cache operator, sim/mem/memory.h CacheOp (0 default, 1 .ca,
                         // 2 .cg, 3 .cs, 4 .nc, 5 .lu, 6 .cv)
  uint8_t n_dst = 0;     // register destinations (0 or 1; a kVec for vector loads)
  uint8_t n_src = 0;
  uint8_t n_pdst = 0;  // setp destinations
  bool has_guard = false;
  bool has_psrc = false;  // selp selector or setp combiner
  PredOperand guard;
  PredOperand psrc;
  std::array<PredOperand, 2> pdst{};
  Operand dst;
  std::array<Operand, 4> src{};
  int32_t target = -1;  // branch target instruction index
  std::string opcode;   // the opcode as written ("ld.global.v4.f32")
  SourceLoc loc;
};

struct VReg {
  std::string name;  // "%r12"
  Type type = Type::kB32;
  bool pred() const { return type == Type::kPred; }
  int width() const { return TypeBits(type) > 32 ? 2 : 1; }  // 32-bit registers
};

struct Param {
  std::string name;
  Type type = Type::kU32;
  uint32_t offset = 0;  // byte offset in the parameter buffer
  uint32_t size = 4;
  SourceLoc loc;
};

struct Symbol {  // .shared or .local array of the function
  std::string name;
  Space space = Space::kShared;
  uint32_t offset = 0;
  uint32_t size = 0;  // 0 for a dynamic array (its size is the launch's dynamic_shared_bytes)
  uint32_t align = 1;
  // A module-scope `.extern .shared NAME[]` the kernel uses: the dynamic shared memory, at the
  // static arrays' size rounded up to 16 bytes (or to the extern arrays' alignment if larger;
  // shared_bytes is then padded to it), where the launch's dynamic_shared_bytes start.
  bool dynamic = false;
};

struct PtxFunction {
  std::string name;
  SourceLoc loc;
  std::vector<Param> params;
  uint32_t param_bytes = 0;
  std::vector<VReg> vregs;
  std::vector<Symbol> symbols;
  uint32_t shared_bytes = 0;
  uint32_t local_bytes = 0;
  std::vector<PtxInst> code;
};

struct PtxModule {
  std::string file;
  std::string version;  // ".version 9.0"
  std::string target;   // "sm_80"
  int address_size = 64;
  std::vector<PtxFunction> entries;

  const PtxFunction* Find(const std::string& name) const;
};

}  // namespace gpurf::sim::ptx
