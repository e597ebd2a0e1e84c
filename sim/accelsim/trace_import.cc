#include "sim/accelsim/trace_import.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <unordered_map>

#include "base/fs.h"
#include "sim/accelsim/sass.h"
#include "sim/mem/memory.h"

namespace gpurf::sim::accelsim {
namespace {

namespace fs = std::filesystem;

constexpr int kWarpSize = 32;
constexpr uint16_t kRz = 255;  // the zero register: reads give 0, writes are dropped

[[noreturn]] void Fail(const std::string& file, int line, int col, const std::string& field,
                       std::string_view value, const std::string& problem,
                       const std::string& allowed = {}) {
  throw InputError(SourceLoc{file, line, col}, field, std::string(value), problem, allowed);
}

// Splits a line into whitespace-separated tokens, remembering columns for messages.
class Tokens {
 public:
  Tokens(std::string_view line, const std::string& file, int line_no)
      : line_(line), file_(file), line_no_(line_no) {}

  bool AtEnd() {
    Skip();
    return pos_ >= line_.size();
  }
  // The next token; fails with "truncated line" naming `field` when there is none.
  std::string_view Next(const char* field) {
    Skip();
    if (pos_ >= line_.size())
      Fail(file_, line_no_, static_cast<int>(pos_) + 1, field, "",
           fmt::format("truncated instruction line: expected {}", field));
    const size_t start = pos_;
    while (pos_ < line_.size() && line_[pos_] != ' ' && line_[pos_] != '\t')
      ++pos_;
    col_ = static_cast<int>(start) + 1;
    return line_.substr(start, pos_ - start);
  }
  int col() const { return col_; }
  [[noreturn]] void Bad(const char* field, std::string_view tok, const std::string& problem,
                        const std::string& allowed = {}) const {
    Fail(file_, line_no_, col_, field, tok, problem, allowed);
  }

  uint64_t Hex(const char* field, bool allow_prefix = true) {
    std::string_view t = Next(field);
    std::string_view digits = t;
    if (allow_prefix && digits.size() > 2 && digits[0] == '0' &&
        (digits[1] == 'x' || digits[1] == 'X'))
      digits.remove_prefix(2);
    uint64_t v = 0;
    const auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, 16);
    if (ec != std::errc() || p != digits.data() + digits.size() || digits.empty())
      Bad(field, t, "not a hexadecimal number");
    return v;
  }
  template <typename Int>
  Int Dec(const char* field, Int lo, Int hi) {
    std::string_view t = Next(field);
    Int v = 0;
    const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v, 10);
    if (ec != std::errc() || p != t.data() + t.size())
      Bad(field, t, "not a decimal number");
    if (v < lo || v > hi)
      Bad(field, t, "out of range", fmt::format("{}..{}", lo, hi));
    return v;
  }
  uint16_t Reg(const char* field) {
    std::string_view t = Next(field);
    uint16_t v = 0;
    if (t.size() < 2 || t[0] != 'R')
      Bad(field, t, "bad register operand", "R0..R255");
    const auto [p, ec] = std::from_chars(t.data() + 1, t.data() + t.size(), v, 10);
    if (ec != std::errc() || p != t.data() + t.size() || v > 255)
      Bad(field, t, "bad register operand", "R0..R255");
    return v;
  }

 private:
  void Skip() {
    while (pos_ < line_.size() && (line_[pos_] == ' ' || line_[pos_] == '\t'))
      ++pos_;
  }
  std::string_view line_;
  const std::string& file_;
  int line_no_;
  size_t pos_ = 0;
  int col_ = 1;
};

struct StaticInst {
  uint64_t pc = 0;
  std::string opcode;
  SassOpInfo info;
  std::vector<uint16_t> dsts, srcs;  // registers as traced (first of each operand, RZ kept)
  uint32_t mem_width = 0;
  int line = 0;                   // first line it appears on
  bool guarded = false;           // inferred from masks
  bool divergent = false;         // a branch that split its mask or ran with an empty mask
  bool fell_through = false;      // a branch seen continuing at its fall-through PC
  bool continued = false;         // an exit or return seen followed by more instructions
  std::vector<uint64_t> targets;  // a branch's observed successors other than fall-through
};

// Fall-through PC by architecture: 16-byte instructions from Volta on; 8-byte instructions with
// a scheduling control word opening every 32-byte bundle on Maxwell/Pascal and every 64-byte
// bundle on Kepler.
uint64_t FallThrough(uint64_t pc, int binary_version) {
  if (binary_version >= 70)
    return pc + 16;
  const uint64_t bundle = binary_version >= 50 ? 32 : 64;
  uint64_t next = pc + 8;
  if (next % bundle == 0)
    next += 8;
  return next;
}

bool IsMemoryClass(OpClass c) {
  return c == OpClass::kGlobalMem || c == OpClass::kLocalMem || c == OpClass::kSharedMem ||
         c == OpClass::kConstMem || c == OpClass::kTexture;
}

// Cache operator from the SASS modifiers of a memory instruction (sim/mem/memory.h CacheOp): .CA,
// .CG, .CS/.EF (evict first: streaming), .CONSTANT/.NC (the read-only path, what ld.global.nc
// compiles to), .LU, .CV; none of them: default.
uint8_t SassCacheOp(std::string_view opcode) {
  using mem::CacheOp;
  CacheOp op = CacheOp::kDefault;
  size_t start = opcode.find('.');
  while (start != std::string_view::npos) {
    const size_t end = opcode.find('.', start + 1);
    const std::string_view m =
        opcode.substr(start + 1, end == std::string_view::npos ? end : end - start - 1);
    if (m == "CA")
      op = CacheOp::kCa;
    else if (m == "CG")
      op = CacheOp::kCg;
    else if (m == "CS" || m == "EF")
      op = CacheOp::kCs;
    else if (m == "CONSTANT" || m == "NC")
      op = CacheOp::kNc;
    else if (m == "LU")
      op = CacheOp::kLu;
    else if (m == "CV")
      op = CacheOp::kCv;
    start = end;
  }
  return static_cast<uint8_t>(op);
}

bool IsSubset(uint32_t a, uint32_t b) {
  return (a & ~b) == 0;
}

class KernelParser {
 public:
  KernelParser(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

  ImportedKernel Parse() {
    ImportedKernel out;
    out.file = file_;
    out.bytes = text_.size();
    size_t pos = 0;
    int line_no = 0;
    while (pos < text_.size()) {
      size_t nl = text_.find('\n', pos);
      if (nl == std::string_view::npos)
        nl = text_.size();
      std::string_view line = text_.substr(pos, nl - pos);
      pos = nl + 1;
      ++line_no;
      if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
      Line(line, line_no);
    }
    Finish(line_no);
    out.header = header_;
    out.trace_lines = inst_lines_;
    Build(out);
    return out;
  }

 private:
  // ------------------------------------------------------------------------- line dispatch
  void Line(std::string_view line, int n) {
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos)
      return;
    line.remove_prefix(first);
    if (line[0] == '-') {
      if (seen_tb_)
        Fail(file_, n, 1, "header", line, "header line after the first thread block");
      Header(line, n);
      return;
    }
    if (line[0] == '#') {
      if (line.starts_with("#BEGIN_TB")) {
        CheckHeader(n);
        if (in_tb_)
          Fail(file_, n, 1, "#BEGIN_TB", line, "thread block opened before the previous one ended");
        in_tb_ = true;
        seen_tb_ = true;
        have_tb_id_ = false;
        warp_ = -1;
      } else if (line.starts_with("#END_TB")) {
        if (!in_tb_)
          Fail(file_, n, 1, "#END_TB", line, "#END_TB without #BEGIN_TB");
        EndWarp(n);
        in_tb_ = false;
      }
      return;  // other '#' lines are comments (the format description)
    }
    if (line.starts_with("thread block")) {
      if (!in_tb_)
        Fail(file_, n, 1, "thread block", line, "outside #BEGIN_TB ... #END_TB");
      ThreadBlock(line, n);
      return;
    }
    if (line.starts_with("warp")) {
      if (!in_tb_ || !have_tb_id_)
        Fail(file_, n, 1, "warp", line, "warp line outside a thread block");
      EndWarp(n);
      const int w = static_cast<int>(KeyValueInt(line, n, "warp", 0, MaxWarpInCta()));
      const uint64_t key = (uint64_t{cta_} << 32) | static_cast<uint32_t>(w);
      if (!warp_keys_.insert({key, streams_.size()}).second)
        Fail(file_, n, 1, "warp", line,
             fmt::format("warp {} of thread block {} appears twice", w, cta_));
      warp_ = w;
      WarpStream ws;
      ws.cta = cta_;
      ws.warp_in_cta = static_cast<uint32_t>(w);
      ws.has_addrs = true;  // SASS traces carry every memory instruction's lane addresses
      streams_.push_back(std::move(ws));
      expected_ = -1;
      return;
    }
    if (line.starts_with("insts")) {
      if (warp_ < 0 || expected_ >= 0)
        Fail(file_, n, 1, "insts", line, "insts line must follow a warp line");
      expected_ = KeyValueInt(line, n, "insts", 0, int64_t{1} << 40);
      warp_line_ = n;
      streams_.back().insts.reserve(static_cast<size_t>(std::min<int64_t>(expected_, 1 << 20)));
      return;
    }
    if (warp_ < 0 || expected_ < 0)
      Fail(file_, n, 1, "instruction", line.substr(0, line.find(' ')),
           "instruction line outside a warp block (or unknown line)",
           "header '-key = value', '#' comments, #BEGIN_TB, thread block, warp, insts, "
           "instruction lines");
    if (static_cast<int64_t>(streams_.back().insts.size()) >= expected_)
      Fail(file_, n, 1, "insts", line.substr(0, line.find(' ')),
           fmt::format("more instruction lines than the {} announced at line {}", expected_,
                       warp_line_));
    Instruction(line, n);
  }

  int64_t KeyValueInt(std::string_view line, int n, const char* field, int64_t lo, int64_t hi) {
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos)
      Fail(file_, n, 1, field, line, "expected 'key = value'");
    Tokens t(line.substr(eq + 1), file_, n);
    const int64_t v = t.Dec<int64_t>(field, lo, hi);
    if (!t.AtEnd())
      Fail(file_, n, static_cast<int>(eq) + 2, field, line.substr(eq + 1), "trailing text");
    return v;
  }

  Dim3 ParseDim3(std::string_view v, int n, int col, const char* field, char open, char close) {
    const std::string allowed =
        fmt::format("{}x,y,z{} with positive integers", open ? std::string(1, open) : "",
                    close ? std::string(1, close) : "");
    std::string_view s = v;
    while (!s.empty() && s.front() == ' ')
      s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
      s.remove_suffix(1);
    if (open) {
      if (s.size() < 2 || s.front() != open || s.back() != close)
        Fail(file_, n, col, field, v, "malformed dimensions", allowed);
      s = s.substr(1, s.size() - 2);
    }
    uint32_t d[3];
    for (int i = 0; i < 3; ++i) {
      const size_t comma = s.find(',');
      if ((i < 2) != (comma != std::string_view::npos))
        Fail(file_, n, col, field, v, "malformed dimensions", allowed);
      std::string_view part = i < 2 ? s.substr(0, comma) : s;
      const auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), d[i]);
      if (ec != std::errc() || p != part.data() + part.size())
        Fail(file_, n, col, field, v, "malformed dimensions", allowed);
      if (i < 2)
        s.remove_prefix(comma + 1);
    }
    return Dim3{d[0], d[1], d[2]};
  }

  void Header(std::string_view line, int n) {
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos)
      Fail(file_, n, 1, "header", line, "expected '-key = value'");
    std::string_view key = line.substr(1, eq - 1);
    while (!key.empty() && key.back() == ' ')
      key.remove_suffix(1);
    std::string_view value = line.substr(eq + 1);
    if (!value.empty() && value.front() == ' ')
      value.remove_prefix(1);
    const int vcol = static_cast<int>(value.data() - line.data()) + 1;  // 1-based
    auto int_value = [&](int64_t lo, int64_t hi) {
      return KeyValueInt(line, n, std::string(key).c_str(), lo, hi);
    };
    if (key == "kernel name") {
      header_.kernel_name = std::string(value);
    } else if (key == "kernel id") {
      header_.kernel_id = static_cast<int>(int_value(0, INT32_MAX));
    } else if (key == "grid dim") {
      header_.grid = ParseDim3(value, n, vcol, "grid dim", '(', ')');
      if (header_.grid.count() == 0)
        Fail(file_, n, vcol, "grid dim", value, "dimensions must be positive",
             "(x,y,z) with positive integers");
      have_grid_ = true;
    } else if (key == "block dim") {
      header_.block = ParseDim3(value, n, vcol, "block dim", '(', ')');
      if (header_.block.count() == 0)
        Fail(file_, n, vcol, "block dim", value, "dimensions must be positive",
             "(x,y,z) with positive integers");
      if (header_.block.count() > 1024)
        Fail(file_, n, vcol, "block dim", value, "more than 1024 threads per thread block",
             "(x,y,z) with x*y*z <= 1024");
      have_block_ = true;
    } else if (key == "shmem") {
      header_.shmem = static_cast<uint32_t>(int_value(0, UINT32_MAX));
    } else if (key == "nregs") {
      header_.nregs = static_cast<int>(int_value(0, 255));
    } else if (key == "binary version") {
      header_.binary_version = static_cast<int>(int_value(10, 200));
    } else if (key == "accelsim tracer version") {
      header_.tracer_version = static_cast<int>(int_value(0, 1000));
      if (header_.tracer_version < 3 || header_.tracer_version > 5)
        Fail(file_, n, vcol, "accelsim tracer version", value, "unsupported tracer version",
             "3, 4 or 5");
      have_version_ = true;
    } else if (key == "enable lineinfo") {
      header_.lineinfo = int_value(0, 1) != 0;
    }
    // Other keys (cuda stream id, shmem/local mem base_addr, nvbit version) carry nothing the
    // passes or the SM harness use.
  }

  void CheckHeader(int n) {
    if (header_checked_)
      return;
    header_checked_ = true;
    auto missing = [&](const char* key) {
      Fail(file_, n, 1, "header", fmt::format("-{} = ...", key),
           fmt::format("missing header line '-{} = ...' before the first thread block", key));
    };
    if (header_.kernel_name.empty())
      missing("kernel name");
    if (!have_grid_)
      missing("grid dim");
    if (!have_block_)
      missing("block dim");
    if (header_.binary_version == 0)
      missing("binary version");
    if (!have_version_)
      missing("accelsim tracer version");
    if (header_.grid.count() == 0 || header_.block.count() == 0)
      Fail(file_, n, 1, "grid dim", "0", "grid and block dimensions must be positive");
  }

  int64_t MaxWarpInCta() const {
    return static_cast<int64_t>((header_.block.count() + kWarpSize - 1) / kWarpSize) - 1;
  }

  void ThreadBlock(std::string_view line, int n) {
    EndWarp(n);
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos)
      Fail(file_, n, 1, "thread block", line, "expected 'thread block = x,y,z'");
    const Dim3 id =
        ParseDim3(line.substr(eq + 1), n, static_cast<int>(eq) + 2, "thread block", 0, 0);
    const Dim3& g = header_.grid;
    if (id.x >= g.x || id.y >= g.y || id.z >= g.z)
      Fail(file_, n, static_cast<int>(eq) + 2, "thread block", line.substr(eq + 1),
           "thread block outside the grid",
           fmt::format("0..{},0..{},0..{}", g.x - 1, g.y - 1, g.z - 1));
    cta_ = static_cast<uint32_t>(id.x + uint64_t{id.y} * g.x + uint64_t{id.z} * g.x * g.y);
    have_tb_id_ = true;
    warp_ = -1;
  }

  void EndWarp(int n) {
    if (warp_ >= 0) {
      if (expected_ < 0)
        Fail(file_, n, 1, "insts", "", fmt::format("warp {} has no 'insts = N' line", warp_));
      const auto got = static_cast<int64_t>(streams_.back().insts.size());
      if (got != expected_)
        Fail(file_, n, 1, "insts", std::to_string(got),
             fmt::format("truncated trace: warp {} of thread block {} announced {} instructions "
                         "at line {} but has {}",
                         warp_, cta_, expected_, warp_line_, got));
    }
    warp_ = -1;
    expected_ = -1;
    have_prev_ = false;
  }

  void Finish(int last_line) {
    if (in_tb_)
      Fail(file_, last_line, 1, "#END_TB", "",
           "truncated trace: the file ends inside a thread block (no #END_TB)");
    if (!seen_tb_) {
      CheckHeader(last_line);
      Fail(file_, last_line, 1, "#BEGIN_TB", "", "the trace has no thread block");
    }
  }

  // ------------------------------------------------------------------------- instructions
  void Instruction(std::string_view line, int n) {
    ++inst_lines_;
    Tokens t(line, file_, n);
    if (header_.lineinfo)
      t.Dec<uint64_t>("line number", 0, UINT64_MAX);
    const uint64_t pc = t.Hex("PC", false);
    const int pc_col = t.col();
    const uint64_t mask64 = t.Hex("mask", false);
    if (mask64 > 0xffffffffu)
      t.Bad("mask", "", "active mask wider than 32 lanes");
    const auto mask = static_cast<uint32_t>(mask64);
    const int ndst = t.Dec<int>("dest_num", 0, 8);
    uint16_t dst[8], src[16];
    for (int i = 0; i < ndst; ++i)
      dst[i] = t.Reg("destination register");
    const std::string_view opcode = t.Next("opcode");
    const int op_col = t.col();
    const int nsrc = t.Dec<int>("src_num", 0, 16);
    for (int i = 0; i < nsrc; ++i)
      src[i] = t.Reg("source register");
    const uint32_t mem_width = t.Dec<uint32_t>("mem_width", 0, 255);
    // Per-lane addresses (inactive lanes 0), decompressed as Accel-Sim's tracer wrote them.
    std::array<uint64_t, kWarpSize> lane_addr{};
    if (mem_width > 0) {
      const int fmt_id = t.Dec<int>("address format", 0, 2);
      if (fmt_id == 0) {
        // One address per active lane, in lane order.
        for (uint32_t m = mask; m; m &= m - 1)
          lane_addr[static_cast<size_t>(std::countr_zero(m))] = t.Hex("address");
      } else if (fmt_id == 1) {
        // Base of the first active lane, then `stride` bytes further for each next lane. The
        // tracer uses this form only for a contiguous run of active lanes; any other mask would
        // leave lanes without an address, so it is refused.
        const uint64_t base = t.Hex("base address");
        const int base_col = t.col();
        const auto stride = t.Dec<int64_t>("address stride", INT64_MIN, INT64_MAX);
        if (mask != 0) {
          const int first = std::countr_zero(mask);
          const uint32_t run = mask >> first;
          if ((run & (run + 1)) != 0)
            Fail(file_, n, base_col, "address format", "1",
                 fmt::format("base+stride addresses with the non-contiguous active mask {:08x}",
                             mask),
                 "format 1 for a contiguous run of active lanes; format 0 or 2 otherwise");
          uint64_t a = base;
          for (uint32_t m = mask; m; m &= m - 1) {
            lane_addr[static_cast<size_t>(std::countr_zero(m))] = a;
            a += static_cast<uint64_t>(stride);
          }
        }
      } else {
        // Base of the first active lane, then for each further active lane its distance from
        // the previous active lane's address.
        uint64_t a = t.Hex("base address");
        bool first = true;
        for (uint32_t m = mask; m; m &= m - 1) {
          if (!first)
            a += static_cast<uint64_t>(t.Dec<int64_t>("address delta", INT64_MIN, INT64_MAX));
          first = false;
          lane_addr[static_cast<size_t>(std::countr_zero(m))] = a;
        }
      }
    }
    if (header_.tracer_version >= 5 && !t.AtEnd())
      t.Dec<int64_t>("immediate", INT64_MIN, INT64_MAX);
    if (!t.AtEnd()) {
      const std::string_view extra = t.Next("end of line");
      t.Bad("end of line", extra, "unexpected trailing text (wrong operand count?)");
    }

    // The static instruction at this PC.
    uint32_t id = Lookup(pc);
    if (id == kNoId) {
      const auto info = LookupSassOpcode(opcode);
      if (!info)
        Fail(file_, n, op_col, "opcode", opcode, "unknown SASS opcode",
             "a Kepler..Hopper SASS opcode (see sim/accelsim/sass.cc)");
      id = static_cast<uint32_t>(statics_.size());
      StaticInst s;
      s.pc = pc;
      s.opcode = std::string(opcode);
      s.info = *info;
      s.dsts.assign(dst, dst + ndst);
      s.srcs.assign(src, src + nsrc);
      s.mem_width = mem_width;
      s.line = n;
      statics_.push_back(std::move(s));
      Insert(pc, id);
    } else {
      const StaticInst& s = statics_[id];
      const bool same = s.opcode == opcode && s.mem_width == mem_width &&
                        std::equal(s.dsts.begin(), s.dsts.end(), dst, dst + ndst) &&
                        std::equal(s.srcs.begin(), s.srcs.end(), src, src + nsrc);
      if (!same)
        Fail(file_, n, pc_col, "PC", fmt::format("{:x}", pc),
             fmt::format("PC 0x{:x} holds a different instruction than at line {} ({})", pc, s.line,
                         s.opcode));
    }

    // Edges and guards from the previous instruction of this warp.
    StaticInst& cur = statics_[id];
    if (mask == 0)
      cur.guarded = true;
    if (have_prev_) {
      StaticInst& prev = statics_[prev_id_];
      const uint64_t ft = FallThrough(prev.pc, header_.binary_version);
      const OpClass pc_class = prev.info.op_class;
      if (pc_class == OpClass::kBranch) {
        const bool overlap = (mask & prev_mask_) != 0;
        const bool accepted =
            prev_mask_ == 0 || mask == 0
                ? pc == ft
                : overlap && (IsSubset(mask, prev_mask_) || IsSubset(prev_mask_, mask));
        if (accepted) {
          if (pc == ft) {
            prev.fell_through = true;
          } else if (std::find(prev.targets.begin(), prev.targets.end(), pc) ==
                     prev.targets.end()) {
            prev.targets.push_back(pc);
          }
          if (mask != prev_mask_ && IsSubset(mask, prev_mask_))
            prev.divergent = true;
        }
        if (prev_mask_ == 0)
          prev.divergent = true;
      } else if (pc_class == OpClass::kExit) {
        // Lanes that did not exit go on at the fall-through; a jump elsewhere is the SIMT stack
        // resuming another divergent path.
        if (pc == ft)
          prev.continued = true;
      } else if (pc == ft && pc_class != OpClass::kBarrier && !prev.info.reconverge) {
        // Between two sequential non-branch instructions the active mask does not change, so a
        // smaller mask on either side is its guard predicate at work.
        if (mask != prev_mask_ && IsSubset(mask, prev_mask_))
          cur.guarded = true;
        else if (mask != prev_mask_ && IsSubset(prev_mask_, mask))
          prev.guarded = true;
      }
    }
    have_prev_ = true;
    prev_id_ = id;
    prev_mask_ = mask;
    WarpStream& ws = streams_.back();
    uint32_t at = 0;
    if (IsMemoryClass(cur.info.op_class) || mem_width > 0) {
      // Every memory instruction owns 32 entries (zeros when the trace gives no addresses, as
      // for constant loads), so WarpStream::Addresses is valid for each of them.
      at = static_cast<uint32_t>(ws.addrs.size());
      ws.addrs.insert(ws.addrs.end(), lane_addr.begin(), lane_addr.end());
    }
    ws.insts.push_back(DynInst{id, mask, 0, at});
  }

  static constexpr uint32_t kNoId = UINT32_MAX;
  static constexpr uint64_t kDirectLimit = uint64_t{1} << 24;  // PCs below 16 MiB: flat table

  uint32_t Lookup(uint64_t pc) const {
    if (pc < kDirectLimit && pc % 8 == 0) {
      const uint64_t i = pc / 8;
      return i < direct_.size() ? direct_[i] : kNoId;
    }
    const auto it = far_.find(pc);
    return it == far_.end() ? kNoId : it->second;
  }
  void Insert(uint64_t pc, uint32_t id) {
    if (pc < kDirectLimit && pc % 8 == 0) {
      const uint64_t i = pc / 8;
      if (i >= direct_.size())
        direct_.resize(std::max<size_t>(static_cast<size_t>(i) + 1, direct_.size() * 2), kNoId);
      direct_[i] = id;
    } else {
      far_[pc] = id;
    }
  }

  // ------------------------------------------------------------------------- build
  std::vector<RegOperand> Operands(const StaticInst& s, const std::vector<uint16_t>& regs,
                                   const std::vector<uint8_t>& widths, const char* field) const {
    std::vector<RegOperand> ops;
    for (size_t i = 0; i < regs.size(); ++i) {
      if (regs[i] == kRz)
        continue;
      const uint8_t count = widths[i];
      if (regs[i] + count > kMaxRegs || regs[i] % count != 0)
        Fail(file_, s.line, 1, field, fmt::format("R{}", regs[i]),
             fmt::format("{} operand R{} of {} registers is not an aligned group inside R0..R254",
                         s.opcode, regs[i], count));
      ops.push_back(RegOperand{regs[i], count});
    }
    return ops;
  }

  void Build(ImportedKernel& out) {
    // Static code in PC order.
    std::vector<uint32_t> order(statics_.size());
    for (uint32_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return statics_[a].pc < statics_[b].pc; });
    std::vector<uint32_t> index_of(statics_.size());
    std::unordered_map<uint64_t, int32_t> index_of_pc;
    for (uint32_t i = 0; i < order.size(); ++i) {
      index_of[order[i]] = i;
      index_of_pc[statics_[order[i]].pc] = static_cast<int32_t>(i);
    }

    auto kernel = std::make_unique<Kernel>();
    kernel->name = header_.kernel_name;
    kernel->source = file_;
    kernel->regs_per_thread = header_.nregs;
    kernel->shared_bytes = header_.shmem;
    kernel->code.reserve(order.size());
    for (uint32_t i = 0; i < order.size(); ++i) {
      StaticInst& s = statics_[order[i]];
      sim::Instruction in;
      in.pc = s.pc;
      in.opcode = s.opcode;
      in.op_class = s.info.op_class;
      // BAR.SYNC / BAR.RED / BAR.ARV wait for the CTA; MEMBAR, DEPBAR, WARPSYNC do not.
      in.cta_barrier =
          s.opcode.rfind("BAR", 0) == 0 && (s.opcode.size() == 3 || s.opcode[3] == '.');
      const OperandWidths w =
          SassOperandWidths(s.opcode, s.info, static_cast<int>(s.dsts.size()),
                            static_cast<int>(s.srcs.size()), header_.binary_version);
      in.dsts = Operands(s, s.dsts, w.dst_regs, "destination register");
      in.srcs = Operands(s, s.srcs, w.src_regs, "source register");
      const bool far_memory = in.op_class == OpClass::kGlobalMem ||
                              in.op_class == OpClass::kLocalMem || in.op_class == OpClass::kTexture;
      in.long_latency = far_memory && (s.info.load || s.info.atomic) && !in.dsts.empty();
      in.mem_bytes = static_cast<uint8_t>(s.mem_width);
      if (IsMemoryClass(in.op_class)) {
        in.mem_write = s.info.store || s.info.atomic;
        in.mem_atomic = s.info.atomic;
        in.cache_op = SassCacheOp(s.opcode);
      }
      in.loc = SourceLoc{file_, s.line, 0};
      if (s.guarded)
        in.guard = kUnknownGuard;
      if (in.op_class == OpClass::kExit) {
        if (s.continued)
          in.guard = kUnknownGuard;
      } else if (in.op_class == OpClass::kBranch) {
        std::sort(s.targets.begin(), s.targets.end());
        if (s.info.ret) {
          in.target = -1;  // leaves the kernel (see the header comment)
          if (s.fell_through || s.divergent || s.guarded)
            in.guard = kUnknownGuard;
        } else if (s.targets.empty()) {
          // Never seen taken: it goes to the next instruction, or nowhere known.
          const auto ft = index_of_pc.find(FallThrough(s.pc, header_.binary_version));
          in.target = ft == index_of_pc.end() ? -1 : ft->second;
        } else {
          in.target = index_of_pc.at(s.targets[0]);
          for (size_t t = 1; t < s.targets.size(); ++t)
            in.extra_targets.push_back(index_of_pc.at(s.targets[t]));
          if (s.info.call) {
            in.conditional = true;  // the return site is a fall-through successor
          } else if (s.fell_through || s.divergent || s.guarded) {
            in.conditional = true;
            in.guard = kUnknownGuard;
          }
        }
      }
      kernel->code.push_back(std::move(in));
    }
    kernel->BuildCfg();

    out.run.kernel = kernel.get();
    out.run.grid = header_.grid;
    out.run.block = header_.block;
    for (auto& ws : streams_) {
      for (auto& d : ws.insts)
        d.inst = index_of[d.inst];
    }
    std::sort(streams_.begin(), streams_.end(), [](const WarpStream& a, const WarpStream& b) {
      return a.cta != b.cta ? a.cta < b.cta : a.warp_in_cta < b.warp_in_cta;
    });
    out.run.warps = std::move(streams_);
    out.kernel = std::move(kernel);
  }

  std::string_view text_;
  std::string file_;
  TraceHeader header_;
  bool have_grid_ = false, have_block_ = false, have_version_ = false, header_checked_ = false;
  bool in_tb_ = false, seen_tb_ = false, have_tb_id_ = false;
  uint32_t cta_ = 0;
  int warp_ = -1;
  int64_t expected_ = -1;
  int warp_line_ = 0;
  bool have_prev_ = false;
  uint32_t prev_id_ = 0;
  uint32_t prev_mask_ = 0;
  uint64_t inst_lines_ = 0;
  std::vector<StaticInst> statics_;
  std::vector<uint32_t> direct_;
  std::unordered_map<uint64_t, uint32_t> far_;
  std::vector<WarpStream> streams_;
  std::unordered_map<uint64_t, size_t> warp_keys_;
};

std::string Trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos)
    return {};
  const size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

TraceWorkload ImportList(const std::string& list_path) {
  const std::string text = ReadInputFile(list_path, "kernelslist", kMaxYamlBytes);
  return ImportKernelsListText(
      text, list_path,
      [](const std::string& p, const SourceLoc& named_at, const std::string& listed_as) {
        std::error_code ec;
        if (!fs::is_regular_file(p, ec))
          throw InputError(named_at, "kernel trace", listed_as,
                           "the listed trace file does not exist");
        return ImportKernelTrace(p);
      });
}

}  // namespace

TraceWorkload ImportKernelsListText(std::string_view text, const std::string& list_path,
                                    const KernelTraceLoader& load_kernel) {
  TraceWorkload w;
  w.list_file = list_path;
  const fs::path dir = fs::path(list_path).parent_path();
  std::string_view rest = text;
  int n = 0;
  while (!rest.empty()) {
    const size_t nl = rest.find('\n');
    const std::string line = Trim(rest.substr(0, nl));
    rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
    ++n;
    if (line.empty() || line[0] == '#')
      continue;
    if (line.starts_with("Memcpy")) {
      // MemcpyHtoD,0xADDRESS,BYTES (MemcpyDtoH likewise).
      const size_t c1 = line.find(','), c2 = line.find(',', c1 == std::string::npos ? 0 : c1 + 1);
      MemcpyCommand m;
      bool ok = c1 != std::string::npos && c2 != std::string::npos &&
                line.find(',', c2 + 1) == std::string::npos;
      if (ok) {
        std::string_view a = std::string_view(line).substr(c1 + 1, c2 - c1 - 1);
        std::string_view b = std::string_view(line).substr(c2 + 1);
        if (a.starts_with("0x"))
          a.remove_prefix(2);
        const auto r1 = std::from_chars(a.data(), a.data() + a.size(), m.address, 16);
        const auto r2 = std::from_chars(b.data(), b.data() + b.size(), m.bytes, 10);
        ok = r1.ec == std::errc() && r1.ptr == a.data() + a.size() && r2.ec == std::errc() &&
             r2.ptr == b.data() + b.size();
      }
      if (!ok)
        throw InputError(SourceLoc{list_path, n, 1}, "memcpy", line, "malformed copy command",
                         "MemcpyHtoD,0xADDRESS,BYTES");
      if (line.starts_with("MemcpyHtoD"))
        w.memcpys.push_back(m);
      continue;
    }
    if (line.starts_with("kernel")) {
      if (line.ends_with(".xz"))
        throw InputError(SourceLoc{list_path, n, 1}, "kernel trace", line,
                         "compressed traces are not read directly",
                         "decompress first: xz -dk " + (dir / line).string());
      w.kernels.push_back(load_kernel((dir / line).string(), SourceLoc{list_path, n, 1}, line));
      w.bytes += w.kernels.back().bytes;
      continue;
    }
    throw InputError(SourceLoc{list_path, n, 1}, "kernelslist", line, "unknown command",
                     "MemcpyHtoD,0xADDRESS,BYTES or a kernel-N.traceg file name");
  }
  if (w.kernels.empty())
    throw InputError(SourceLoc{list_path, n, 0}, "kernelslist", "", "lists no kernel trace",
                     "kernel-N.traceg lines");
  return w;
}

ImportedKernel ImportKernelTraceText(std::string_view text, const std::string& file_name) {
  return KernelParser(text, file_name).Parse();
}

ImportedKernel ImportKernelTrace(const std::string& traceg_path) {
  const std::string text = ReadInputFile(traceg_path, "kernel trace", kMaxTraceBytes);
  return ImportKernelTraceText(text, traceg_path);
}

TraceWorkload ImportTrace(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    const fs::path list = fs::path(path) / "kernelslist.g";
    if (!fs::is_regular_file(list, ec))
      throw InputError(SourceLoc{list.string(), 0, 0}, "trace folder", path,
                       "no kernelslist.g in the folder",
                       "an Accel-Sim trace folder (kernelslist.g + kernel-N.traceg)");
    return ImportList(list.string());
  }
  if (path.ends_with(".traceg")) {
    TraceWorkload w;
    w.list_file = path;
    w.kernels.push_back(ImportKernelTrace(path));
    w.bytes = w.kernels.back().bytes;
    return w;
  }
  if (!fs::exists(path, ec))
    throw InputError(SourceLoc{path, 0, 0}, "trace", path, "no such file or folder");
  return ImportList(path);
}

}  // namespace gpurf::sim::accelsim
