#include "sim/ptx/ptx_parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "base/fs.h"

namespace gpurf::sim::ptx {

// ------------------------------------------------------------------------------- type helpers

int TypeBits(Type t) {
  switch (t) {
    case Type::kPred:
      return 1;
    case Type::kB8:
    case Type::kU8:
    case Type::kS8:
      return 8;
    case Type::kB16:
    case Type::kU16:
    case Type::kS16:
      return 16;
    case Type::kB32:
    case Type::kU32:
    case Type::kS32:
    case Type::kF32:
      return 32;
    case Type::kB64:
    case Type::kU64:
    case Type::kS64:
    case Type::kF64:
      return 64;
    case Type::kF16:
      return 16;
    case Type::kF16x2:
      return 32;
    case Type::kNone:
      return 0;
  }
  return 0;
}

bool IsSigned(Type t) {
  return t == Type::kS8 || t == Type::kS16 || t == Type::kS32 || t == Type::kS64;
}

bool IsFloat(Type t) {
  return t == Type::kF32 || t == Type::kF64;
}

bool IsHalf(Type t) {
  return t == Type::kF16 || t == Type::kF16x2;
}

namespace {
constexpr std::pair<const char*, Type> kTypeNames[] = {
    {"pred", Type::kPred},   {"b8", Type::kB8},   {"b16", Type::kB16}, {"b32", Type::kB32},
    {"b64", Type::kB64},     {"u8", Type::kU8},   {"u16", Type::kU16}, {"u32", Type::kU32},
    {"u64", Type::kU64},     {"s8", Type::kS8},   {"s16", Type::kS16}, {"s32", Type::kS32},
    {"s64", Type::kS64},     {"f32", Type::kF32}, {"f64", Type::kF64}, {"f16", Type::kF16},
    {"f16x2", Type::kF16x2},
};
}  // namespace

const char* TypeName(Type t) {
  for (const auto& [n, ty] : kTypeNames) {
    if (ty == t)
      return n;
  }
  return "none";
}

const PtxFunction* PtxModule::Find(const std::string& name) const {
  for (const auto& f : entries) {
    if (f.name == name)
      return &f;
  }
  return nullptr;
}

const char* PtxOpcodes() {
  return "mov, add, sub, mul (.lo/.hi/.wide), mad (.lo/.hi/.wide), fma, div, rem, min, max, abs, "
         "neg, and, or, xor, not, shl, shr, setp, selp, cvt, cvta, ld, st (param/global/shared/"
         "local/generic, .v2/.v4), atom and red (global/shared: add/min/max/exch/cas/and/or/xor/"
         "inc/dec), bra, bar.sync/barrier.sync, membar/fence, ret, exit, rcp, sqrt, rsqrt, ex2, "
         "lg2, sin, cos, popc, clz, brev, bfind, bfe, bfi, prmt, shfl.sync (up/down/bfly/idx), "
         "vote.sync (all/any/uni/ballot), activemask, match.sync (any/all), redux.sync, "
         "bar.warp.sync, prefetch; .f16/.f16x2 add, sub, mul, fma, min, max, abs, neg, setp, cvt; "
         "mov packing {a,b}";
}

namespace {

// ------------------------------------------------------------------------------------ lexer

struct Token {
  enum Kind : uint8_t { kIdent, kNumber, kPunct, kString, kEnd };
  Kind kind = kEnd;
  std::string text;
  int line = 0, col = 0;
};

std::vector<Token> Lex(const std::string& s, const std::string& file) {
  std::vector<Token> out;
  int line = 1, col = 1;
  size_t i = 0;
  auto adv = [&](size_t k) {
    for (size_t j = 0; j < k && i < s.size(); ++j, ++i) {
      if (s[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
  };
  auto ident_start = [](char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' ||
           c == '.';
  };
  auto ident_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
  };
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n' || c == ' ' || c == '\t' || c == '\r') {
      adv(1);
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n')
        adv(1);
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const int l0 = line, c0 = col;
      adv(2);
      while (i + 1 < s.size() && !(s[i] == '*' && s[i + 1] == '/'))
        adv(1);
      if (i + 1 >= s.size())
        throw InputError({file, l0, c0}, "comment", "/*", "unterminated block comment");
      adv(2);
      continue;
    }
    Token t;
    t.line = line;
    t.col = col;
    const size_t start = i;
    if (ident_start(c)) {
      t.kind = Token::kIdent;
      adv(1);
      while (i < s.size()) {
        if (ident_char(s[i])) {
          adv(1);
        } else if (s[i] == ':' && i + 1 < s.size() && s[i + 1] == ':') {
          adv(2);  // cache hints such as L1::no_allocate
        } else {
          break;
        }
      }
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      t.kind = Token::kNumber;
      adv(1);
      while (i < s.size()) {
        const char d = s[i];
        if (std::isalnum(static_cast<unsigned char>(d)) || d == '.') {
          adv(1);
        } else if ((d == '+' || d == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E') &&
                   !(s[start] == '0' && start + 1 < s.size() &&
                     std::strchr("xXfFdD", s[start + 1]))) {
          adv(1);  // decimal exponent
        } else {
          break;
        }
      }
    } else if (c == '"') {
      t.kind = Token::kString;
      adv(1);
      while (i < s.size() && s[i] != '"' && s[i] != '\n')
        adv(1);
      if (i >= s.size() || s[i] != '"')
        throw InputError({file, t.line, t.col}, "string", "", "unterminated string literal");
      adv(1);
    } else if (std::strchr(",;:[]{}()+-<>|!@=", c) != nullptr) {
      t.kind = Token::kPunct;
      adv(1);
    } else {
      throw InputError({file, line, col}, "character", std::string(1, c),
                       "unexpected character in PTX");
    }
    t.text = s.substr(start, i - start);
    out.push_back(std::move(t));
  }
  Token end;
  end.kind = Token::kEnd;
  end.line = line;
  end.col = col;
  out.push_back(end);
  return out;
}

// ------------------------------------------------------------------------------ raw operands

// An operand as written, before the instruction decides what it must be.
struct RawOperand {
  enum Kind : uint8_t { kReg, kNumber, kAddr, kVec, kIdent };
  Kind kind = kReg;
  std::string name;  // register, identifier, or number text (with sign)
  bool negated = false;
  // kAddr: base (register or symbol name, may be empty) and offset
  std::string base;
  bool base_is_reg = false;
  int64_t offset = 0;
  std::vector<RawOperand> elems;  // kVec
  std::string pipe;               // setp "%p|%q": the second destination
  int line = 0, col = 0;
};

// Opcode modifiers, classified.
struct Mods {
  std::vector<Type> types;
  std::optional<Space> space;
  bool space_const = false;
  Round round = Round::kDefault;
  std::optional<Cmp> cmp;
  BoolOp bool_op = BoolOp::kNone;
  MulMode mul = MulMode::kNone;
  std::optional<AtomOp> atom;
  int vec = 1;
  bool ftz = false, sat = false, approx = false, full = false, uni = false, to = false;
  bool sync = false, shiftamt = false;
  uint8_t cache_op = 0;  // sim/mem/memory.h CacheOp numbering
  std::string sub;       // shfl/vote/match/redux form, prefetch level, bar.warp
};

const std::unordered_map<std::string, Special>& SpecialRegs() {
  static const std::unordered_map<std::string, Special> m = {
      {"%tid.x", Special::kTidX},       {"%tid.y", Special::kTidY},
      {"%tid.z", Special::kTidZ},       {"%ntid.x", Special::kNtidX},
      {"%ntid.y", Special::kNtidY},     {"%ntid.z", Special::kNtidZ},
      {"%ctaid.x", Special::kCtaidX},   {"%ctaid.y", Special::kCtaidY},
      {"%ctaid.z", Special::kCtaidZ},   {"%nctaid.x", Special::kNctaidX},
      {"%nctaid.y", Special::kNctaidY}, {"%nctaid.z", Special::kNctaidZ},
      {"%laneid", Special::kLaneId},    {"%warpid", Special::kWarpId},
      {"%nwarpid", Special::kNWarpId},
  };
  return m;
}

std::optional<Type> ParseTypeName(const std::string& s) {
  for (const auto& [n, t] : kTypeNames) {
    if (s == n)
      return t;
  }
  return std::nullopt;
}

class Parser {
 public:
  Parser(const std::string& text, std::string file) : file_(std::move(file)) {
    toks_ = Lex(text, file_);
  }

  PtxModule Run() {
    PtxModule m;
    m.file = file_;
    while (Peek().kind != Token::kEnd) {
      const Token& t = Peek();
      if (t.kind != Token::kIdent) {
        throw Error(t, "module", t.text, "expected a directive (.version, .target, .entry, ...)");
      }
      if (t.text == ".version") {
        Next();
        m.version = Expect(Token::kNumber, "PTX version").text;
      } else if (t.text == ".target") {
        Next();
        m.target = Expect(Token::kIdent, "target").text;
        while (Accept(","))
          Expect(Token::kIdent, "target option");
      } else if (t.text == ".address_size") {
        Next();
        const Token& n = Expect(Token::kNumber, "address size");
        if (n.text != "64" && n.text != "32")
          throw Error(n, ".address_size", n.text, "unsupported address size", "32, 64");
        m.address_size = std::stoi(n.text);
      } else if (t.text == ".extern" && Peek(1).kind == Token::kIdent &&
                 Peek(1).text == ".shared") {
        Next();
        ParseExternShared(Next());
      } else if (t.text == ".visible" || t.text == ".weak" || t.text == ".extern") {
        Next();
      } else if (t.text == ".entry") {
        Next();
        m.entries.push_back(ParseEntry(m.address_size));
        for (size_t e = 0; e + 1 < m.entries.size(); ++e) {
          if (m.entries[e].name == m.entries.back().name)
            throw InputError(
                m.entries.back().loc, ".entry", m.entries.back().name,
                fmt::format("duplicate kernel name: already defined at {}", m.entries[e].loc.str()),
                "one .entry per kernel name");
        }
      } else if (t.text == ".file") {
        Next();
        Expect(Token::kNumber, "file index");
        Expect(Token::kString, "file name");
        while (Accept(","))
          Next();
      } else if (t.text == ".func") {
        throw Error(t, "directive", t.text,
                    "device functions (.func) and calls are not supported; inline them "
                    "(__forceinline__) so the kernel is a single .entry");
      } else if (t.text == ".global") {
        // Module-scope global variables are not supported, except the unused one-byte objects
        // nvcc emits for the C++ library headers (cooperative groups, cuda::std):
        // `.global .align 1 .b8 NAME[1];`. Those are accepted so such a module parses; a
        // kernel that uses one is refused where it does.
        const Token& g = Next();
        bool byte = false;
        while (Peek().kind == Token::kIdent && Peek().text.starts_with(".")) {
          const Token& q = Next();
          if (q.text == ".align")
            Expect(Token::kNumber, "alignment");
          byte |= q.text == ".b8";
        }
        const Token& n = Expect(Token::kIdent, "variable name");
        bool one = !Accept("[");
        if (!one) {
          one = Peek().kind == Token::kNumber && Peek().text == "1";
          Next();
          ExpectPunct("]");
        }
        if (!byte || !one || !(Peek().kind == Token::kPunct && Peek().text == ";"))
          throw Error(g, "directive", g.text,
                      "module-scope variables are not supported (declare shared arrays inside "
                      "the kernel; pass data through parameters)");
        Next();
        globals_[n.text] = Loc(n);
      } else if (t.text == ".const" || t.text == ".shared" || t.text == ".tex" ||
                 t.text == ".surfref" || t.text == ".texref") {
        throw Error(t, "directive", t.text,
                    "module-scope variables are not supported (declare shared arrays inside the "
                    "kernel, or dynamic ones as `.extern .shared .align N .b8 NAME[];`; pass "
                    "data through parameters)");
      } else {
        throw Error(t, "directive", t.text, "unknown or unsupported module directive",
                    ".version, .target, .address_size, .visible, .entry, .file");
      }
    }
    if (m.entries.empty())
      throw InputError({file_, 1, 1}, "module", "", "no .entry kernel in the file");
    return m;
  }

 private:
  // ---------------------------------------------------------------------- token helpers
  const Token& Peek(size_t k = 0) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  const Token& Next() {
    const Token& t = toks_[pos_];
    if (pos_ + 1 < toks_.size())
      ++pos_;
    return t;
  }
  bool Accept(const char* punct) {
    if (Peek().kind == Token::kPunct && Peek().text == punct) {
      Next();
      return true;
    }
    return false;
  }
  SourceLoc Loc(const Token& t) const { return {file_, t.line, t.col}; }
  SourceLoc Loc(int line, int col) const { return {file_, line, col}; }
  InputError Error(const Token& t, const std::string& field, const std::string& value,
                   const std::string& problem, const std::string& allowed = {}) const {
    return InputError(Loc(t), field, value, problem, allowed);
  }
  const Token& Expect(Token::Kind k, const char* what) {
    const Token& t = Peek();
    if (t.kind != k)
      throw Error(t, what, t.kind == Token::kEnd ? "end of file" : t.text,
                  fmt::format("expected {}", what));
    return Next();
  }
  void ExpectPunct(const char* p) {
    const Token& t = Peek();
    if (t.kind != Token::kPunct || t.text != p)
      throw Error(t, "syntax", t.kind == Token::kEnd ? "end of file" : t.text,
                  fmt::format("expected '{}'", p));
    Next();
  }
  uint64_t ExpectUInt(const char* what) {
    const Token& t = Expect(Token::kNumber, what);
    const auto v = ParseInt(t.text);
    if (!v)
      throw Error(t, what, t.text, "expected an integer");
    return static_cast<uint64_t>(*v);
  }

  static std::optional<int64_t> ParseInt(const std::string& s) {
    if (s.empty())
      return std::nullopt;
    bool neg = false;
    size_t i = 0;
    if (s[0] == '-') {
      neg = true;
      i = 1;
    }
    std::string body = s.substr(i);
    if (!body.empty() && (body.back() == 'U' || body.back() == 'u'))
      body.pop_back();
    int base = 10;
    if (body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) {
      base = 16;
      body = body.substr(2);
    } else if (body.size() > 2 && body[0] == '0' && (body[1] == 'b' || body[1] == 'B')) {
      base = 2;
      body = body.substr(2);
    } else if (body.size() > 1 && body[0] == '0') {
      base = 8;
      body = body.substr(1);
    }
    if (body.empty())
      return std::nullopt;
    uint64_t v = 0;
    for (char c : body) {
      int d;
      if (c >= '0' && c <= '9')
        d = c - '0';
      else if (c >= 'a' && c <= 'f')
        d = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        d = c - 'A' + 10;
      else
        return std::nullopt;
      if (d >= base)
        return std::nullopt;
      if (v > (UINT64_MAX - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base))
        return std::nullopt;  // does not fit in 64 bits
      v = v * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
    }
    if (neg && v > uint64_t{1} << 63)
      return std::nullopt;  // below INT64_MIN
    // Two's complement: 64-bit literals above INT64_MAX keep their bits (0xffffffffffffffff).
    return static_cast<int64_t>(neg ? 0 - v : v);
  }

  // ---------------------------------------------------------------------- entries

  PtxFunction ParseEntry(int address_size) {
    PtxFunction f;
    const Token& name = Expect(Token::kIdent, "kernel name");
    f.name = name.text;
    f.loc = Loc(name);
    fn_ = &f;
    address_size_ = address_size;
    regs_.clear();
    scopes_.clear();
    labels_.clear();
    fixups_.clear();
    dynamic_placed_.reset();
    ExpectPunct("(");
    if (!Accept(")")) {
      do {
        ParseParam(f);
      } while (Accept(","));
      ExpectPunct(")");
    }
    // Performance directives.
    while (Peek().kind == Token::kIdent && Peek().text != "{" &&
           (Peek().text == ".maxntid" || Peek().text == ".reqntid" ||
            Peek().text == ".minnctapersm" || Peek().text == ".maxnctapersm" ||
            Peek().text == ".maxnreg" || Peek().text == ".noreturn" ||
            Peek().text == ".maxclusterrank" || Peek().text == ".reqnctapercluster")) {
      Next();
      while (Peek().kind == Token::kNumber) {
        Next();
        if (!Accept(","))
          break;
      }
    }
    ExpectPunct("{");
    int depth = 1;
    while (depth > 0) {
      const Token& t = Peek();
      if (t.kind == Token::kEnd)
        throw Error(t, "kernel", f.name, "missing '}' at the end of the kernel body");
      if (t.kind == Token::kPunct && t.text == "{") {
        Next();
        ++depth;
        scopes_.emplace_back();  // a nested block (inline asm): registers declared in it are local
        continue;
      }
      if (t.kind == Token::kPunct && t.text == "}") {
        Next();
        if (--depth > 0)
          PopScope();
        continue;
      }
      ParseStatement();
    }
    for (const auto& [label, at] : fixups_) {
      auto it = labels_.find(label);
      if (it == labels_.end()) {
        throw InputError(f.code[at.first].loc, "label", label,
                         "branch to a label that is not defined in the kernel");
      }
      f.code[at.first].target = static_cast<int32_t>(it->second);
      (void)at.second;
    }
    // Every path must end: a kernel whose last instruction falls through is still fine
    // (threads exit at the end of the code), as in nvcc's output after a final ret.
    fn_ = nullptr;
    return f;
  }

  void ParseParam(PtxFunction& f) {
    const Token& kw = Peek();
    if (kw.kind != Token::kIdent || kw.text != ".param")
      throw Error(kw, "parameter", kw.text, "expected .param");
    Next();
    Param p;
    p.loc = Loc(kw);
    uint32_t align = 0;
    std::optional<Type> type;
    while (Peek().kind == Token::kIdent && Peek().text.starts_with(".")) {
      const Token& m = Next();
      const std::string mod = m.text.substr(1);
      if (mod == "align") {
        align = static_cast<uint32_t>(ExpectUInt("alignment"));
      } else if (mod == "ptr" || mod == "global" || mod == "shared" || mod == "local" ||
                 mod == "const") {
        // pointer annotations: no effect on the value
      } else if (auto t = ParseTypeName(mod); t && *t != Type::kPred) {
        type = t;
      } else {
        throw Error(m, "parameter", m.text, "unknown parameter qualifier",
                    ".align N, .ptr, a state space, a type such as .u64");
      }
    }
    if (!type)
      throw Error(Peek(), "parameter", Peek().text, "parameter without a type");
    const Token& n = Expect(Token::kIdent, "parameter name");
    p.name = n.text;
    p.type = *type;
    p.size = static_cast<uint32_t>(TypeBits(*type) / 8);
    if (Accept("[")) {
      const uint64_t count = ExpectUInt("array size");
      ExpectPunct("]");
      p.size *= static_cast<uint32_t>(count);
    }
    if (align == 0)
      align = static_cast<uint32_t>(TypeBits(*type) / 8);
    f.param_bytes = (f.param_bytes + align - 1) / align * align;
    p.offset = f.param_bytes;
    f.param_bytes += p.size;
    for (const auto& q : f.params) {
      if (q.name == p.name)
        throw Error(n, "parameter", p.name, "duplicate parameter name");
    }
    f.params.push_back(p);
  }

  void ParseStatement() {
    const Token& t = Peek();
    if (t.kind == Token::kIdent && Peek(1).kind == Token::kPunct && Peek(1).text == ":" &&
        !t.text.starts_with(".") && !t.text.starts_with("%")) {
      Next();
      Next();
      if (labels_.count(t.text))
        throw Error(t, "label", t.text, "label defined twice");
      labels_[t.text] = static_cast<uint32_t>(fn_->code.size());
      return;
    }
    if (t.kind == Token::kIdent && t.text.starts_with(".")) {
      ParseDirective();
      return;
    }
    ParseInstruction();
  }

  void SkipToSemicolon() {
    while (!(Peek().kind == Token::kPunct && Peek().text == ";")) {
      if (Peek().kind == Token::kEnd)
        throw Error(Peek(), "syntax", "end of file", "expected ';'");
      Next();
    }
    Next();
  }

  void ParseDirective() {
    const Token& d = Next();
    if (d.text == ".reg") {
      ParseReg(d);
    } else if (d.text == ".shared" || d.text == ".local") {
      ParseArray(d, d.text == ".shared" ? Space::kShared : Space::kLocal);
    } else if (d.text == ".loc" || d.text == ".pragma") {
      SkipToSemicolon();
    } else if (d.text == ".param" || d.text == ".const" || d.text == ".global") {
      throw Error(d, "directive", d.text,
                  "variables in this state space are not supported inside a kernel");
    } else {
      throw Error(d, "directive", d.text, "unknown or unsupported directive in a kernel body",
                  ".reg, .shared, .local, .loc, .pragma");
    }
  }

  void ParseReg(const Token& d) {
    std::optional<Type> type;
    while (Peek().kind == Token::kIdent && Peek().text.starts_with(".")) {
      const Token& m = Next();
      auto t = ParseTypeName(m.text.substr(1));
      if (!t) {
        throw Error(m, ".reg", m.text,
                    m.text == ".bf16" || m.text == ".bf16x2"
                        ? "bfloat16 registers are not supported"
                        : "unknown register type",
                    ".pred, .b16, .b32, .b64, .u16, .u32, .u64, .s16, .s32, .s64, .f16, .f16x2, "
                    ".f32, .f64");
      }
      type = t;
    }
    if (!type)
      throw Error(d, ".reg", "", "register declaration without a type");
    if (TypeBits(*type) == 8)
      throw Error(d, ".reg", TypeName(*type), "8-bit registers do not exist in PTX");
    do {
      const Token& n = Expect(Token::kIdent, "register name");
      if (n.text.starts_with("."))
        throw Error(n, ".reg", n.text, "expected a register name");
      if (Accept("<")) {
        const uint64_t count = ExpectUInt("register count");
        ExpectPunct(">");
        if (count > 100000)
          throw Error(n, ".reg", std::to_string(count), "too many registers", "<= 100000");
        for (uint64_t i = 0; i < count; ++i)
          DeclareReg(n, n.text + std::to_string(i), *type);
      } else {
        DeclareReg(n, n.text, *type);
      }
    } while (Accept(","));
    ExpectPunct(";");
  }

  void DeclareReg(const Token& at, const std::string& name, Type type) {
    if (SpecialRegs().count(name))
      throw Error(at, ".reg", name, "register declared twice");
    const auto prev = regs_.find(name);
    if (prev != regs_.end()) {
      // A nested block may shadow a register of an enclosing scope, once.
      const bool here =
          scopes_.empty() || std::any_of(scopes_.back().begin(), scopes_.back().end(),
                                         [&](const auto& e) { return e.first == name; });
      if (here)
        throw Error(at, ".reg", name, "register declared twice");
    }
    if (!scopes_.empty())
      scopes_.back().push_back(
          {name, prev == regs_.end() ? std::nullopt : std::optional<uint16_t>(prev->second)});
    regs_[name] = static_cast<uint16_t>(fn_->vregs.size());
    if (fn_->vregs.size() >= 0xfff0)
      throw Error(at, ".reg", name, "too many virtual registers", "< 65520");
    fn_->vregs.push_back(VReg{name, type});
  }

  // Leaves a nested block: its registers go out of scope, shadowed ones come back.
  void PopScope() {
    if (scopes_.empty())
      return;
    auto& sc = scopes_.back();
    for (auto it = sc.rbegin(); it != sc.rend(); ++it) {
      if (it->second)
        regs_[it->first] = *it->second;
      else
        regs_.erase(it->first);
    }
    scopes_.pop_back();
  }

  [[noreturn]] void GlobalVariableError(const RawOperand& r, const std::string& name) const {
    const auto g = globals_.find(name);
    OperandError(r, name,
                 fmt::format("module-scope .global variable (declared at {}) is not supported; "
                             "pass the data through a parameter",
                             g->second.str()));
  }

  void ParseArray(const Token& d, Space space) {
    Symbol s;
    s.space = space;
    std::optional<Type> type;
    while (Peek().kind == Token::kIdent && Peek().text.starts_with(".")) {
      const Token& m = Next();
      if (m.text == ".align") {
        s.align = static_cast<uint32_t>(ExpectUInt("alignment"));
        if (s.align == 0 || (s.align & (s.align - 1)) != 0)
          throw Error(m, ".align", std::to_string(s.align), "alignment must be a power of two");
      } else if (auto t = ParseTypeName(m.text.substr(1)); t && *t != Type::kPred) {
        type = t;
      } else {
        throw Error(m, d.text, m.text, "unknown qualifier", ".align N and a type such as .b8");
      }
    }
    if (!type)
      throw Error(d, d.text, "", "variable without a type");
    const Token& n = Expect(Token::kIdent, "variable name");
    s.name = n.text;
    uint64_t size = static_cast<uint64_t>(TypeBits(*type) / 8);
    if (s.align < size)
      s.align = static_cast<uint32_t>(size);
    while (Accept("[")) {
      if (Accept("]"))
        throw Error(n, d.text, s.name,
                    "unsized (extern, dynamically sized) arrays are only supported at module "
                    "scope, as nvcc writes them: `.extern .shared .align N .b8 NAME[];`");
      size *= ExpectUInt("array size");
      ExpectPunct("]");
    }
    if (Peek().kind == Token::kPunct && Peek().text == "=")
      throw Error(Peek(), d.text, s.name, "initializers are not supported");
    ExpectPunct(";");
    if (size > (1u << 24))
      throw Error(n, d.text, std::to_string(size), "array too large", "<= 16 MiB");
    if (space == Space::kShared && dynamic_placed_)
      throw Error(n, d.text, s.name,
                  fmt::format("static .shared array declared after the kernel used the dynamic "
                              "(extern) shared array '{}', which is placed after the static ones",
                              *dynamic_placed_),
                  "declare .shared arrays before the first instruction that uses an extern one");
    uint32_t& top = space == Space::kShared ? fn_->shared_bytes : fn_->local_bytes;
    top = (top + s.align - 1) / s.align * s.align;
    s.offset = top;
    s.size = static_cast<uint32_t>(size);
    top += s.size;
    for (const auto& o : fn_->symbols) {
      if (o.name == s.name)
        throw Error(n, d.text, s.name, "variable declared twice");
    }
    fn_->symbols.push_back(s);
  }

  // A module-scope `.extern .shared [.align N] .TYPE NAME[];` (`extern __shared__ T NAME[];`):
  // the launch's dynamic shared memory. Only unsized arrays; every one names the same memory.
  void ParseExternShared(const Token& d) {
    uint32_t align = 1;
    std::optional<Type> type;
    while (Peek().kind == Token::kIdent && Peek().text.starts_with(".")) {
      const Token& m = Next();
      if (m.text == ".align") {
        align = static_cast<uint32_t>(ExpectUInt("alignment"));
        if (align == 0 || (align & (align - 1)) != 0 || align > 4096)
          throw Error(m, ".align", std::to_string(align),
                      "alignment must be a power of two up to 4096");
      } else if (auto t = ParseTypeName(m.text.substr(1)); t && *t != Type::kPred) {
        type = t;
      } else {
        throw Error(m, ".extern .shared", m.text, "unknown qualifier",
                    ".align N and a type such as .b8");
      }
    }
    if (!type)
      throw Error(d, ".extern .shared", "", "variable without a type");
    const Token& n = Expect(Token::kIdent, "variable name");
    if (!Accept("[") || !Accept("]"))
      throw Error(n, ".extern .shared", n.text,
                  "a module-scope shared variable must be an unsized extern array (dynamic "
                  "shared memory)",
                  "`.extern .shared .align N .b8 NAME[];`");
    if (Peek().kind == Token::kPunct && Peek().text == "[")
      throw Error(Peek(), ".extern .shared", n.text,
                  "a dynamic shared array has one unsized dimension");
    ExpectPunct(";");
    align = std::max(align, static_cast<uint32_t>(TypeBits(*type) / 8));
    if (externs_.count(n.text) || globals_.count(n.text))
      throw Error(n, ".extern .shared", n.text, "module-scope variable declared twice");
    externs_[n.text] = Loc(n);
    extern_align_ = std::max(extern_align_, align);
  }

  // Places the module's extern shared arrays in the current kernel on first use: after the
  // static arrays, at the static size rounded up to 16 bytes (where the launch side,
  // SharedBytesWithDynamic, starts a CTA's dynamic shared memory), or to the extern arrays'
  // largest alignment when that is more (the static size is then padded to that offset, so the
  // launch side's rounding lands on it too). Every extern array aliases that offset.
  const Symbol* PlaceExtern(const std::string& name) {
    if (!externs_.count(name))
      return nullptr;
    const uint32_t a = std::max(16u, extern_align_);
    const uint32_t base = (fn_->shared_bytes + a - 1) / a * a;
    if (a > 16)
      fn_->shared_bytes = base;
    Symbol s;
    s.name = name;
    s.space = Space::kShared;
    s.offset = base;
    s.size = 0;
    s.align = a;
    s.dynamic = true;
    fn_->symbols.push_back(s);
    if (!dynamic_placed_)
      dynamic_placed_ = name;
    return &fn_->symbols.back();
  }

  // ---------------------------------------------------------------------- instructions

  RawOperand ParseRawOperand(bool in_vector = false) {
    RawOperand r;
    const Token& t = Peek();
    r.line = t.line;
    r.col = t.col;
    if (Accept("!")) {
      const Token& p = Expect(Token::kIdent, "predicate register");
      r.kind = RawOperand::kReg;
      r.name = p.text;
      r.negated = true;
      return r;
    }
    if (Accept("-")) {
      const Token& n = Expect(Token::kNumber, "number");
      r.kind = RawOperand::kNumber;
      r.name = "-" + n.text;
      return r;
    }
    if (t.kind == Token::kNumber) {
      Next();
      r.kind = RawOperand::kNumber;
      r.name = t.text;
      return r;
    }
    if (Accept("[")) {
      r.kind = RawOperand::kAddr;
      const Token& b = Peek();
      if (b.kind == Token::kIdent) {
        Next();
        r.base = b.text;
        r.base_is_reg = b.text.starts_with("%");
        bool neg = false;
        if (Accept("+")) {
          neg = Accept("-");
        } else if (Accept("-")) {
          neg = true;
        } else {
          ExpectPunct("]");
          return r;
        }
        const Token& o = Expect(Token::kNumber, "address offset");
        const auto v = ParseInt(o.text);
        if (!v)
          throw Error(o, "address offset", o.text, "expected an integer offset");
        // Wraps like the 64-bit address arithmetic it feeds (negating INT64_MIN is not UB).
        r.offset =
            static_cast<int64_t>(neg ? 0 - static_cast<uint64_t>(*v) : static_cast<uint64_t>(*v));
      } else if (b.kind == Token::kNumber) {
        Next();
        const auto v = ParseInt(b.text);
        if (!v)
          throw Error(b, "address", b.text, "expected an integer address");
        r.offset = *v;
      } else {
        throw Error(b, "address", b.text, "expected a register, a variable or a number");
      }
      ExpectPunct("]");
      return r;
    }
    if (Accept("{")) {
      // Vector elements are registers: a '{' inside is an error here, not a recursion that a
      // long run of '{' would take to a stack overflow.
      if (in_vector)
        throw Error(t, "operand", "{", "vector operands do not nest");
      r.kind = RawOperand::kVec;
      do {
        r.elems.push_back(ParseRawOperand(true));
      } while (Accept(","));
      ExpectPunct("}");
      return r;
    }
    if (t.kind == Token::kIdent) {
      Next();
      // Registers usually start with %, but inline asm declares plain names ("low, high").
      r.kind =
          t.text.starts_with("%") || regs_.count(t.text) ? RawOperand::kReg : RawOperand::kIdent;
      r.name = t.text;
      if (r.kind == RawOperand::kReg && Accept("|")) {
        const Token& q = Expect(Token::kIdent, "second predicate destination");
        r.pipe = q.text;
      }
      return r;
    }
    throw Error(t, "operand", t.kind == Token::kEnd ? "end of file" : t.text,
                "expected an operand");
  }

  void ParseInstruction() {
    PtxInst in;
    const Token& first = Peek();
    in.loc = Loc(first);
    if (Accept("@")) {
      const bool neg = Accept("!");
      const Token& p = Expect(Token::kIdent, "guard predicate");
      in.has_guard = true;
      in.guard = {PredReg(p.text, p.line, p.col), neg};
    }
    const Token& op = Peek();
    if (op.kind != Token::kIdent || op.text.starts_with("%") || op.text.starts_with(".")) {
      throw Error(op, "instruction", op.kind == Token::kEnd ? "end of file" : op.text,
                  "expected an instruction");
    }
    Next();
    in.opcode = op.text;
    in.loc = Loc(op);
    std::vector<RawOperand> ops;
    if (!(Peek().kind == Token::kPunct && Peek().text == ";")) {
      do {
        ops.push_back(ParseRawOperand());
      } while (Accept(","));
    }
    const Token& semi = Peek();
    if (!(semi.kind == Token::kPunct && semi.text == ";")) {
      throw Error(semi, "operand", semi.kind == Token::kEnd ? "end of file" : semi.text,
                  fmt::format("unexpected token after the operands of {}", in.opcode),
                  "',' between operands and ';' at the end");
    }
    Next();
    Decode(in, op, ops);
    if (in.op == Op::kUnpack) {
      // One instruction per unpacked element. Liveness sees each of them, so no element is
      // given the source's register before the last element has read it.
      for (const auto& [dst, shift] : unpack_) {
        PtxInst e = in;
        e.dst = dst;
        e.src[1].imm = shift;
        fn_->code.push_back(std::move(e));
      }
      return;
    }
    fn_->code.push_back(std::move(in));
  }

  // ---------------------------------------------------------------------- decoding

  [[noreturn]] void BadModifier(const Token& op, const std::string& m) const {
    throw Error(op, "instruction", op.text, fmt::format("unknown or unsupported modifier .{}", m));
  }

  Mods ParseMods(const Token& op, const std::string& base, const std::vector<std::string>& parts) {
    Mods m;
    const bool is_setp = base == "setp";
    const bool is_mul = base == "mul" || base == "mad";
    const bool is_atom = base == "atom" || base == "red";
    static const std::map<std::string, std::vector<std::string>> kForms = {
        {"shfl", {"up", "down", "bfly", "idx"}},
        {"vote", {"all", "any", "uni", "ballot"}},
        {"match", {"any", "all"}},
        {"redux", {"add", "min", "max", "and", "or", "xor"}},
        {"prefetch", {"L1", "L2"}},
        {"bar", {"warp"}}};
    const auto forms = kForms.find(base);
    for (size_t i = 1; i < parts.size(); ++i) {
      const std::string& s = parts[i];
      if (forms != kForms.end() && m.sub.empty() &&
          std::find(forms->second.begin(), forms->second.end(), s) != forms->second.end()) {
        m.sub = s;
      } else if (auto t = ParseTypeName(s)) {
        m.types.push_back(*t);
      } else if (s == "bf16" || s == "bf16x2" || s == "tf32" || s == "e4m3" || s == "e5m2") {
        throw Error(op, "instruction", op.text,
                    "bfloat16, tf32 and fp8 types are not supported (.f16 and .f16x2 are)");
      } else if (s == "global") {
        m.space = Space::kGlobal;
      } else if (s == "shared" || s == "shared::cta") {
        m.space = Space::kShared;
      } else if (s == "local") {
        m.space = Space::kLocal;
      } else if (s == "param") {
        m.space = Space::kParam;
      } else if (s == "const") {
        m.space_const = true;
      } else if (s == "rn" || s == "rz" || s == "rm" || s == "rp" || s == "rni" || s == "rzi" ||
                 s == "rmi" || s == "rpi") {
        static const std::map<std::string, Round> r = {
            {"rn", Round::kRn},   {"rz", Round::kRz},   {"rm", Round::kRm},   {"rp", Round::kRp},
            {"rni", Round::kRni}, {"rzi", Round::kRzi}, {"rmi", Round::kRmi}, {"rpi", Round::kRpi}};
        m.round = r.at(s);
      } else if (is_mul && (s == "lo" || s == "hi" || s == "wide")) {
        m.mul = s == "lo" ? MulMode::kLo : s == "hi" ? MulMode::kHi : MulMode::kWide;
      } else if (is_setp && !m.cmp) {
        static const std::map<std::string, Cmp> c = {
            {"eq", Cmp::kEq},   {"ne", Cmp::kNe},   {"lt", Cmp::kLt},   {"le", Cmp::kLe},
            {"gt", Cmp::kGt},   {"ge", Cmp::kGe},   {"lo", Cmp::kLo},   {"ls", Cmp::kLs},
            {"hi", Cmp::kHi},   {"hs", Cmp::kHs},   {"equ", Cmp::kEqu}, {"neu", Cmp::kNeu},
            {"ltu", Cmp::kLtu}, {"leu", Cmp::kLeu}, {"gtu", Cmp::kGtu}, {"geu", Cmp::kGeu},
            {"num", Cmp::kNum}, {"nan", Cmp::kNan}};
        auto it = c.find(s);
        if (it == c.end())
          BadModifier(op, s);
        m.cmp = it->second;
      } else if (is_setp && (s == "and" || s == "or" || s == "xor")) {
        m.bool_op = s == "and" ? BoolOp::kAnd : s == "or" ? BoolOp::kOr : BoolOp::kXor;
      } else if (is_atom && !m.atom &&
                 (s == "add" || s == "min" || s == "max" || s == "exch" || s == "cas" ||
                  s == "and" || s == "or" || s == "xor" || s == "inc" || s == "dec")) {
        static const std::map<std::string, AtomOp> a = {
            {"add", AtomOp::kAdd},   {"min", AtomOp::kMin}, {"max", AtomOp::kMax},
            {"exch", AtomOp::kExch}, {"cas", AtomOp::kCas}, {"and", AtomOp::kAnd},
            {"or", AtomOp::kOr},     {"xor", AtomOp::kXor}, {"inc", AtomOp::kInc},
            {"dec", AtomOp::kDec}};
        m.atom = a.at(s);
      } else if (s == "v2") {
        m.vec = 2;
      } else if (s == "v4") {
        m.vec = 4;
      } else if (s == "ftz") {
        m.ftz = true;
      } else if (s == "sat") {
        m.sat = true;
      } else if (s == "approx") {
        m.approx = true;
      } else if (s == "full") {
        m.full = true;
      } else if (s == "shiftamt") {
        m.shiftamt = true;
      } else if (s == "uni") {
        m.uni = true;
      } else if (s == "to") {
        m.to = true;
      } else if (s == "sync" || s == "aligned") {
        m.sync = true;
      } else if (s == "ca" || s == "cg" || s == "cs" || s == "nc" || s == "lu" || s == "cv") {
        // Cache operators, kept for the memory model (sim/mem/memory.h CacheOp numbering).
        m.cache_op = s == "ca"   ? 1
                     : s == "cg" ? 2
                     : s == "cs" ? 3
                     : s == "nc" ? 4
                     : s == "lu" ? 5
                                 : 6;
      } else if (s == "wb" || s == "wt" || s == "volatile" || s == "weak" || s == "relaxed" ||
                 s == "acquire" || s == "release" || s == "acq_rel" || s == "sc" || s == "cta" ||
                 s == "gpu" || s == "sys" || s == "gl" || s == "L1::no_allocate" ||
                 s == "L1::evict_last" || s == "L1::evict_first" || s == "L1::evict_normal" ||
                 s == "L1::evict_unchanged" || s == "L2::64B" || s == "L2::128B" ||
                 s == "L2::256B") {
        // caching, memory-order and scope qualifiers: no functional effect when every warp
        // runs to completion in program order
      } else {
        BadModifier(op, s);
      }
    }
    if (m.space_const)
      throw Error(op, "instruction", op.text,
                  "the constant state space is not supported (no module-scope .const data)");
    return m;
  }

  static std::vector<std::string> Split(const std::string& s) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t i = 0; i <= s.size(); ++i) {
      if (i == s.size() || s[i] == '.') {
        parts.push_back(s.substr(start, i - start));
        start = i + 1;
      } else if (s[i] == ':' && i + 1 < s.size() && s[i + 1] == ':') {
        ++i;
      }
    }
    return parts;
  }

  uint16_t PredReg(const std::string& name, int line, int col) {
    auto it = regs_.find(name);
    if (it == regs_.end())
      throw InputError(Loc(line, col), "register", name, "undeclared register");
    if (!fn_->vregs[it->second].pred())
      throw InputError(Loc(line, col), "register", name, "expected a predicate register (.pred)");
    return it->second;
  }

  [[noreturn]] void OperandError(const RawOperand& r, const std::string& what,
                                 const std::string& problem) const {
    throw InputError(Loc(r.line, r.col), "operand", what, problem);
  }

  static std::string RawText(const RawOperand& r) {
    switch (r.kind) {
      case RawOperand::kAddr:
        return "[" + r.base + (r.offset ? fmt::format("+{}", r.offset) : "") + "]";
      case RawOperand::kVec:
        return "{...}";
      default:
        return (r.negated ? "!" : "") + r.name;
    }
  }

  // A data register operand of `bits` width (exact width unless `wider_ok`).
  Operand RegOperand(const RawOperand& r, int bits, bool wider_ok) {
    if (r.kind != RawOperand::kReg || r.negated)
      OperandError(r, RawText(r), "expected a register");
    auto it = regs_.find(r.name);
    if (it == regs_.end()) {
      if (SpecialRegs().count(r.name))
        OperandError(r, r.name, "a special register cannot be written or used here");
      OperandError(r, r.name, "undeclared register");
    }
    const VReg& v = fn_->vregs[it->second];
    if (v.pred())
      OperandError(r, r.name, "expected a data register, got a predicate");
    const int vb = TypeBits(v.type);
    if (vb != bits && !(wider_ok && vb > bits) && !((bits == 8 || bits == 16) && wider_ok) &&
        !(bits <= 16 && vb <= 16)) {
      OperandError(
          r, r.name,
          fmt::format("register of {} bits where the instruction needs {} bits", vb, bits));
    }
    Operand o;
    o.kind = Operand::kReg;
    o.reg = it->second;
    o.width = static_cast<uint8_t>(v.width());
    return o;
  }

  uint64_t ImmBits(const RawOperand& r, Type t) {
    const std::string& s = r.name;
    const bool neg = s.starts_with("-");
    const std::string body = neg ? s.substr(1) : s;
    if (body.size() == 10 && body[0] == '0' && (body[1] == 'f' || body[1] == 'F')) {
      const auto v = ParseInt("0x" + body.substr(2));
      if (!v)
        OperandError(r, s, "malformed single-precision literal");
      uint32_t bits = static_cast<uint32_t>(*v);
      if (neg)
        bits ^= 0x80000000u;
      if (t == Type::kF64)
        return std::bit_cast<uint64_t>(static_cast<double>(std::bit_cast<float>(bits)));
      if (!IsFloat(t))
        OperandError(r, s, "float literal for an integer operand");
      return bits;
    }
    if (body.size() == 18 && body[0] == '0' && (body[1] == 'd' || body[1] == 'D')) {
      const auto v = ParseInt("0x" + body.substr(2));
      if (!v)
        OperandError(r, s, "malformed double-precision literal");
      uint64_t bits = static_cast<uint64_t>(*v);
      if (neg)
        bits ^= 0x8000000000000000ull;
      if (t == Type::kF32)
        return std::bit_cast<uint32_t>(static_cast<float>(std::bit_cast<double>(bits)));
      if (!IsFloat(t))
        OperandError(r, s, "float literal for an integer operand");
      return bits;
    }
    if (const auto v = ParseInt(s)) {
      if (t == Type::kF32)
        return std::bit_cast<uint32_t>(static_cast<float>(*v));
      if (t == Type::kF64)
        return std::bit_cast<uint64_t>(static_cast<double>(*v));
      return static_cast<uint64_t>(*v);
    }
    if (IsFloat(t) && body.find_first_not_of("0123456789.eE+-") == std::string::npos &&
        body.find('.') != std::string::npos) {
      char* end = nullptr;
      const double d = std::strtod(s.c_str(), &end);
      if (end && *end == '\0') {
        if (t == Type::kF32)
          return std::bit_cast<uint32_t>(static_cast<float>(d));
        return std::bit_cast<uint64_t>(d);
      }
    }
    OperandError(r, s, "malformed number");
  }

  // A source: register, immediate, special register, or (for mov/cvta) a variable address.
  Operand SrcOperand(const RawOperand& r, Type t, bool wider_ok = false, bool allow_symbol = false,
                     bool allow_special = false) {
    const int bits = TypeBits(t);
    if (r.kind == RawOperand::kNumber) {
      Operand o;
      o.kind = Operand::kImm;
      o.imm = static_cast<int64_t>(ImmBits(r, t));
      return o;
    }
    if (r.kind == RawOperand::kReg && !regs_.count(r.name)) {
      auto sp = SpecialRegs().find(r.name);
      if (sp != SpecialRegs().end()) {
        if (!allow_special)
          OperandError(r, r.name, "special registers can only be read by mov or cvt");
        Operand o;
        o.kind = Operand::kSpecial;
        o.special = sp->second;
        return o;
      }
    }
    if (r.kind == RawOperand::kIdent) {
      if (!allow_symbol)
        OperandError(r, r.name, "expected a register or an immediate");
      const Symbol* s = FindSymbol(r.name);
      if (!s && globals_.count(r.name))
        GlobalVariableError(r, r.name);
      if (!s) {
        for (const auto& p : fn_->params) {
          if (p.name == r.name)
            OperandError(r, r.name,
                         "taking the address of a parameter is not supported; use ld.param");
        }
        OperandError(r, r.name, "undeclared variable");
      }
      Operand o;
      o.kind = Operand::kImm;
      o.imm = s->offset;
      return o;
    }
    return RegOperand(r, bits, wider_ok);
  }

  const Symbol* FindSymbol(const std::string& name) {
    for (const auto& s : fn_->symbols) {
      if (s.name == name)
        return &s;
    }
    return PlaceExtern(name);
  }

  // An address operand for `space`; returns the resolved space (param/shared/local symbols fix
  // a generic access's space).
  Operand AddrOperand(const RawOperand& r, Space& space) {
    if (r.kind != RawOperand::kAddr)
      OperandError(r, RawText(r), "expected an address [reg+offset] or [variable+offset]");
    Operand o;
    o.kind = Operand::kAddr;
    o.imm = r.offset;
    if (r.base.empty())
      return o;
    if (r.base_is_reg) {
      auto it = regs_.find(r.base);
      if (it == regs_.end())
        OperandError(r, r.base, "undeclared register");
      const VReg& v = fn_->vregs[it->second];
      if (v.pred() || TypeBits(v.type) < 32)
        OperandError(r, r.base, "an address register must have 32 or 64 bits");
      if ((space == Space::kGeneric || space == Space::kGlobal) && address_size_ == 64 &&
          TypeBits(v.type) != 64)
        OperandError(r, r.base, "a generic or global address needs a 64-bit register");
      o.has_base = true;
      o.reg = it->second;
      o.width = static_cast<uint8_t>(v.width());
      return o;
    }
    for (const auto& p : fn_->params) {
      if (p.name == r.base) {
        if (space != Space::kParam)
          OperandError(r, r.base, "kernel parameters are read with ld.param");
        o.imm += p.offset;
        return o;
      }
    }
    const Symbol* s = FindSymbol(r.base);
    if (!s && globals_.count(r.base))
      GlobalVariableError(r, r.base);
    if (!s)
      OperandError(r, r.base, "undeclared variable or parameter");
    if (space == Space::kGeneric)
      space = s->space;
    if (space != s->space)
      OperandError(r, r.base,
                   fmt::format("variable of the {} space accessed in another state space",
                               s->space == Space::kShared ? "shared" : "local"));
    o.imm += s->offset;
    return o;
  }

  // A destination data register (or a vector of them for ld).
  Operand DstOperand(const RawOperand& r, Type t, bool wider_ok = false) {
    if (r.kind == RawOperand::kNumber || r.kind == RawOperand::kIdent ||
        r.kind == RawOperand::kAddr)
      OperandError(r, RawText(r), "expected a destination register");
    return RegOperand(r, TypeBits(t), wider_ok);
  }

  PredOperand PredOp(const RawOperand& r, bool negation_ok) {
    if (r.kind != RawOperand::kReg)
      OperandError(r, RawText(r), "expected a predicate register");
    if (r.negated && !negation_ok)
      OperandError(r, RawText(r), "a negated predicate is not allowed here");
    return {PredReg(r.name, r.line, r.col), r.negated};
  }

  Operand VecOperand(const RawOperand& r, Type t, int n, bool dst) {
    if (r.kind != RawOperand::kVec)
      OperandError(r, RawText(r), fmt::format("expected a vector of {} registers {{...}}", n));
    if (static_cast<int>(r.elems.size()) != n)
      OperandError(r, RawText(r),
                   fmt::format("expected {} vector elements, got {}", n, r.elems.size()));
    Operand o;
    o.kind = Operand::kVec;
    o.n = static_cast<uint8_t>(n);
    for (int i = 0; i < n; ++i) {
      const RawOperand& e = r.elems[static_cast<size_t>(i)];
      if (e.kind == RawOperand::kIdent && e.name == "_")
        OperandError(e, "_", "sink elements in vectors are not supported");
      if (!dst && e.kind == RawOperand::kNumber)
        OperandError(e, e.name, "immediate vector elements are not supported");
      const Operand x = RegOperand(e, TypeBits(t), dst);
      o.vec[static_cast<size_t>(i)] = x.reg;
      o.width = x.width;
    }
    // Elements must be of one register width.
    for (int i = 0; i < n; ++i) {
      if (fn_->vregs[o.vec[static_cast<size_t>(i)]].width() != o.width)
        OperandError(r, RawText(r), "vector elements of different register widths");
    }
    return o;
  }

  void NeedOps(const Token& op, const std::vector<RawOperand>& ops, size_t lo, size_t hi = 0) {
    if (hi == 0)
      hi = lo;
    if (ops.size() < lo || ops.size() > hi) {
      throw Error(op, "instruction", op.text,
                  fmt::format("wrong number of operands ({})", ops.size()),
                  lo == hi ? fmt::format("{}", lo) : fmt::format("{} to {}", lo, hi));
    }
  }

  Type OneType(const Token& op, const Mods& m, const char* allowed, bool (*ok)(Type) = nullptr) {
    if (m.types.size() != 1)
      throw Error(op, "instruction", op.text, "expected exactly one type modifier", allowed);
    if (ok && !ok(m.types[0]))
      throw Error(op, "instruction", op.text,
                  fmt::format("type .{} not supported here", TypeName(m.types[0])), allowed);
    return m.types[0];
  }

  static bool IntType(Type t) { return !IsFloat(t) && t != Type::kPred && TypeBits(t) >= 16; }
  static bool AnyData(Type t) { return t != Type::kPred && TypeBits(t) >= 16; }
  static bool FloatType(Type t) { return IsFloat(t); }
  static bool BitType(Type t) {
    return t == Type::kB16 || t == Type::kB32 || t == Type::kB64 || t == Type::kPred;
  }

  void Decode(PtxInst& in, const Token& op, const std::vector<RawOperand>& ops) {
    const std::vector<std::string> parts = Split(op.text);
    const std::string& base = parts[0];
    static const std::map<std::string, Op> kOps = {{"mov", Op::kMov},
                                                   {"add", Op::kAdd},
                                                   {"sub", Op::kSub},
                                                   {"mul", Op::kMul},
                                                   {"mad", Op::kMad},
                                                   {"fma", Op::kFma},
                                                   {"div", Op::kDiv},
                                                   {"rem", Op::kRem},
                                                   {"min", Op::kMin},
                                                   {"max", Op::kMax},
                                                   {"abs", Op::kAbs},
                                                   {"neg", Op::kNeg},
                                                   {"and", Op::kAnd},
                                                   {"or", Op::kOr},
                                                   {"xor", Op::kXor},
                                                   {"not", Op::kNot},
                                                   {"shl", Op::kShl},
                                                   {"shr", Op::kShr},
                                                   {"setp", Op::kSetp},
                                                   {"selp", Op::kSelp},
                                                   {"cvt", Op::kCvt},
                                                   {"cvta", Op::kCvta},
                                                   {"ld", Op::kLd},
                                                   {"st", Op::kSt},
                                                   {"atom", Op::kAtom},
                                                   {"red", Op::kAtom},
                                                   {"bra", Op::kBra},
                                                   {"bar", Op::kBar},
                                                   {"barrier", Op::kBar},
                                                   {"membar", Op::kMembar},
                                                   {"fence", Op::kMembar},
                                                   {"ret", Op::kRet},
                                                   {"exit", Op::kRet},
                                                   {"rcp", Op::kRcp},
                                                   {"sqrt", Op::kSqrt},
                                                   {"rsqrt", Op::kRsqrt},
                                                   {"ex2", Op::kEx2},
                                                   {"lg2", Op::kLg2},
                                                   {"sin", Op::kSin},
                                                   {"cos", Op::kCos},
                                                   {"popc", Op::kPopc},
                                                   {"clz", Op::kClz},
                                                   {"brev", Op::kBrev},
                                                   {"bfind", Op::kBfind},
                                                   {"bfe", Op::kBfe},
                                                   {"bfi", Op::kBfi},
                                                   {"prmt", Op::kPrmt},
                                                   {"shfl", Op::kShfl},
                                                   {"vote", Op::kVote},
                                                   {"activemask", Op::kActivemask},
                                                   {"match", Op::kMatch},
                                                   {"redux", Op::kRedux},
                                                   {"prefetch", Op::kPrefetch}};
    auto it = kOps.find(base);
    if (it == kOps.end()) {
      std::vector<std::string> names;
      for (const auto& [n, o] : kOps)
        names.push_back(n);
      std::string problem = fmt::format("unsupported PTX instruction '{}'", base);
      if (auto s = ClosestMatchIn(base, names))
        problem += fmt::format(" (did you mean '{}'?)", *s);
      throw Error(op, "instruction", op.text, problem, PtxOpcodes());
    }
    in.op = it->second;
    const Mods m = ParseMods(op, base, parts);
    in.ftz = m.ftz;
    in.sat = m.sat;
    in.approx = m.approx;
    in.round = m.round;
    auto dst_src = [&](size_t n_src, Type t, bool (*ok)(Type)) {
      NeedOps(op, ops, n_src + 1);
      in.type = t;
      if (ok && !ok(t))
        throw Error(op, "instruction", op.text, fmt::format("type .{} not supported", TypeName(t)));
      in.dst = DstOperand(ops[0], t);
      in.n_dst = 1;
      in.n_src = static_cast<uint8_t>(n_src);
      for (size_t i = 0; i < n_src; ++i)
        in.src[i] = SrcOperand(ops[i + 1], t);
    };
    auto pred_logic = [&](size_t n_src) {
      NeedOps(op, ops, n_src + 1);
      in.type = Type::kPred;
      in.n_pdst = 1;
      in.pdst[0] = PredOp(ops[0], false);
      // Predicate sources are kept in src[i].reg as predicate registers (kind kReg, width 0).
      in.n_src = static_cast<uint8_t>(n_src);
      for (size_t i = 0; i < n_src; ++i) {
        const PredOperand p = PredOp(ops[i + 1], false);
        in.src[i].kind = Operand::kReg;
        in.src[i].reg = p.reg;
        in.src[i].width = 0;
      }
    };
    switch (in.op) {
      case Op::kMov: {
        const Type t =
            OneType(op, m, ".pred, .b16/.u16/.s16, .b32/.u32/.s32/.f32, .b64/.u64/.s64/.f64");
        NeedOps(op, ops, 2);
        in.type = t;
        if (t == Type::kPred && ops[1].kind == RawOperand::kNumber) {
          // mov.pred %p, 0 / 1: a predicate immediate (src[0] kImm, 0 or all lanes).
          in.n_pdst = 1;
          in.pdst[0] = PredOp(ops[0], false);
          in.n_src = 1;
          in.src[0].kind = Operand::kImm;
          const auto v = ParseInt(ops[1].name);
          if (!v || (*v != 0 && *v != 1))
            OperandError(ops[1], ops[1].name, "a predicate immediate is 0 or 1");
          in.src[0].imm = *v;
        } else if (t == Type::kPred) {
          pred_logic(1);
        } else if (ops[0].kind == RawOperand::kVec || ops[1].kind == RawOperand::kVec) {
          // Packing mov.b32 d, {a,b} and unpacking mov.b32 {a,b}, d (also .b64 from/to two
          // .b32 or four .b16, .b32 from/to two .b16); `_` skips an element when unpacking.
          const bool pack = ops[1].kind == RawOperand::kVec;
          const RawOperand& v = pack ? ops[1] : ops[0];
          const RawOperand& whole = pack ? ops[0] : ops[1];
          const int bits = TypeBits(t), n = static_cast<int>(v.elems.size());
          if (ops[0].kind == RawOperand::kVec && ops[1].kind == RawOperand::kVec)
            throw Error(op, "instruction", op.text, "mov between two vectors");
          if ((t != Type::kB32 && t != Type::kB64) || (n != 2 && n != 4) || bits / n < 16)
            OperandError(v, RawText(v),
                         "packing mov needs .b32 with 2 elements or .b64 with 2 "
                         "or 4 elements of 16 or 32 bits");
          const int eb = bits / n;
          const Type et = eb == 16 ? Type::kB16 : Type::kB32;
          in.type = et;
          if (pack) {
            in.op = Op::kPack;
            in.dst = DstOperand(whole, t);
            in.n_dst = 1;
            for (int k = 0; k < n; ++k)
              in.src[static_cast<size_t>(k)] = SrcOperand(v.elems[static_cast<size_t>(k)], et);
            in.n_src = static_cast<uint8_t>(n);
          } else {
            in.op = Op::kUnpack;
            in.src[0] = SrcOperand(whole, t);
            in.src[1].kind = Operand::kImm;
            in.n_src = 2;
            in.n_dst = 1;
            unpack_.clear();
            for (int k = 0; k < n; ++k) {
              const RawOperand& e = v.elems[static_cast<size_t>(k)];
              if (e.kind == RawOperand::kIdent && e.name == "_")
                continue;
              unpack_.push_back({DstOperand(e, et), k * eb});
            }
            if (unpack_.empty())
              OperandError(v, RawText(v), "every element is a sink '_'");
          }
        } else {
          in.dst = DstOperand(ops[0], t);
          in.n_dst = 1;
          in.n_src = 1;
          in.src[0] = SrcOperand(ops[1], t, false, true, true);
        }
        break;
      }
      case Op::kAdd:
      case Op::kSub:
      case Op::kMin:
      case Op::kMax:
        dst_src(2, OneType(op, m, ".s/.u/.b 16..64, .f32, .f64", AnyData), nullptr);
        break;
      case Op::kMul:
      case Op::kMad: {
        const Type t = OneType(op, m, ".s/.u 16..64 with .lo/.hi/.wide, .f32, .f64", AnyData);
        const size_t n = in.op == Op::kMul ? 2 : 3;
        in.mul = m.mul;
        if (IsFloat(t) || IsHalf(t)) {
          if (m.mul != MulMode::kNone)
            throw Error(op, "instruction", op.text, ".lo/.hi/.wide apply to integer types only");
          if (in.op == Op::kMad)
            in.op = Op::kFma;  // mad.rn.f32 is a fused multiply-add
          dst_src(n, t, nullptr);
        } else {
          if (m.mul == MulMode::kNone)
            throw Error(op, "instruction", op.text, "integer mul/mad needs .lo, .hi or .wide");
          NeedOps(op, ops, n + 1);
          in.type = t;
          if (m.mul == MulMode::kWide) {
            if (TypeBits(t) == 64)
              throw Error(op, "instruction", op.text, ".wide applies to 16- and 32-bit types");
            const Type wide = IsSigned(t) ? (TypeBits(t) == 32 ? Type::kS64 : Type::kS32)
                                          : (TypeBits(t) == 32 ? Type::kU64 : Type::kU32);
            in.dst = DstOperand(ops[0], wide);
            for (size_t i = 0; i < 2; ++i)
              in.src[i] = SrcOperand(ops[i + 1], t);
            if (n == 3)
              in.src[2] = SrcOperand(ops[3], wide);
          } else {
            in.dst = DstOperand(ops[0], t);
            for (size_t i = 0; i < n; ++i)
              in.src[i] = SrcOperand(ops[i + 1], t);
          }
          in.n_dst = 1;
          in.n_src = static_cast<uint8_t>(n);
        }
        break;
      }
      case Op::kFma: {
        const Type t = OneType(op, m, ".f16, .f16x2, .f32, .f64",
                               [](Type x) { return IsFloat(x) || IsHalf(x); });
        if (m.round == Round::kDefault)
          throw Error(op, "instruction", op.text, "fma needs a rounding modifier",
                      ".rn, .rz, .rm, .rp");
        if (IsHalf(t) && m.round != Round::kRn)
          throw Error(op, "instruction", op.text, "half-precision fma rounds to nearest", ".rn");
        dst_src(3, t, nullptr);
        break;
      }
      case Op::kDiv:
      case Op::kRem: {
        const Type t = OneType(op, m, ".s/.u 16..64, div also .f32/.f64",
                               in.op == Op::kDiv ? AnyData : IntType);
        if (IsFloat(t) && !m.approx && !m.full && m.round == Round::kDefault)
          throw Error(op, "instruction", op.text,
                      "float division needs .approx, .full or a rounding modifier");
        dst_src(2, t, nullptr);
        break;
      }
      case Op::kAbs:
      case Op::kNeg:
        dst_src(1,
                OneType(op, m, ".s16..64, .f16, .f16x2, .f32, .f64",
                        [](Type t) {
                          return IsFloat(t) || IsHalf(t) || (IsSigned(t) && TypeBits(t) >= 16);
                        }),
                nullptr);
        break;
      case Op::kAnd:
      case Op::kOr:
      case Op::kXor:
      case Op::kNot: {
        const Type t = OneType(op, m, ".pred, .b16, .b32, .b64", BitType);
        const size_t n = in.op == Op::kNot ? 1 : 2;
        if (t == Type::kPred)
          pred_logic(n);
        else
          dst_src(n, t, nullptr);
        break;
      }
      case Op::kShl:
      case Op::kShr: {
        const Type t = OneType(op, m, ".b/.u/.s 16..64", IntType);
        if (in.op == Op::kShl && !BitType(t))
          throw Error(op, "instruction", op.text, "shl takes a .b16/.b32/.b64 type");
        NeedOps(op, ops, 3);
        in.type = t;
        in.dst = DstOperand(ops[0], t);
        in.src[0] = SrcOperand(ops[1], t);
        in.src[1] = SrcOperand(ops[2], Type::kU32);
        in.n_dst = 1;
        in.n_src = 2;
        break;
      }
      case Op::kSetp: {
        if (!m.cmp)
          throw Error(op, "instruction", op.text, "setp needs a comparison (.eq, .lt, ...)");
        const Type t = OneType(op, m, ".b/.u/.s 16..64, .f32, .f64", AnyData);
        in.cmp = *m.cmp;
        if (t == Type::kF16x2)
          throw Error(op, "instruction", op.text, "setp.f16x2 is not supported", "setp.f16");
        if (!IsFloat(t) && !IsHalf(t) && in.cmp >= Cmp::kEqu)
          throw Error(op, "instruction", op.text, "unordered comparisons apply to float types");
        if (!IsFloat(t) && !IsSigned(t) &&
            (in.cmp == Cmp::kLt || in.cmp == Cmp::kLe || in.cmp == Cmp::kGt ||
             in.cmp == Cmp::kGe) &&
            (t == Type::kB16 || t == Type::kB32 || t == Type::kB64))
          throw Error(op, "instruction", op.text,
                      "ordered comparisons of .b types are not defined");
        in.bool_op = m.bool_op;
        NeedOps(op, ops, in.bool_op == BoolOp::kNone ? 3 : 4);
        in.type = t;
        in.pdst[0] = PredOp(ops[0], false);
        in.n_pdst = 1;
        if (!ops[0].pipe.empty()) {
          in.pdst[1] = {PredReg(ops[0].pipe, ops[0].line, ops[0].col), false};
          in.n_pdst = 2;
        }
        in.src[0] = SrcOperand(ops[1], t);
        in.src[1] = SrcOperand(ops[2], t);
        in.n_src = 2;
        if (in.bool_op != BoolOp::kNone) {
          in.has_psrc = true;
          in.psrc = PredOp(ops[3], true);
        }
        break;
      }
      case Op::kSelp: {
        const Type t = OneType(op, m, ".b/.u/.s 16..64, .f32, .f64", AnyData);
        NeedOps(op, ops, 4);
        in.type = t;
        in.dst = DstOperand(ops[0], t);
        in.src[0] = SrcOperand(ops[1], t);
        in.src[1] = SrcOperand(ops[2], t);
        in.n_dst = 1;
        in.n_src = 2;
        in.has_psrc = true;
        in.psrc = PredOp(ops[3], false);
        break;
      }
      case Op::kCvt: {
        if (m.types.size() != 2)
          throw Error(op, "instruction", op.text, "cvt needs a destination and a source type",
                      "cvt.dtype.atype, e.g. cvt.rn.f32.s32");
        const Type d = m.types[0], a = m.types[1];
        if (d == Type::kPred || a == Type::kPred)
          throw Error(op, "instruction", op.text, "cvt does not convert predicates");
        in.type = d;
        in.type2 = a;
        if (d == Type::kF16x2 || a == Type::kF16x2)
          throw Error(op, "instruction", op.text, "cvt of .f16x2 is not supported");
        const auto fp = [](Type x) { return IsFloat(x) || IsHalf(x); };
        const bool fi = fp(a) && !fp(d), ff = fp(a) && fp(d), itf = !fp(a) && fp(d);
        const bool int_round = m.round == Round::kRni || m.round == Round::kRzi ||
                               m.round == Round::kRmi || m.round == Round::kRpi;
        if (fi && !int_round)
          throw Error(op, "instruction", op.text, "float-to-integer cvt needs .rni/.rzi/.rmi/.rpi");
        if (itf && int_round)
          throw Error(op, "instruction", op.text, "integer-to-float cvt takes .rn/.rz/.rm/.rp");
        if (ff && TypeBits(d) < TypeBits(a) && !int_round && m.round == Round::kDefault)
          throw Error(op, "instruction", op.text, "narrowing float cvt needs a rounding modifier");
        if (!fp(a) && !fp(d) && m.round != Round::kDefault)
          throw Error(op, "instruction", op.text, "integer-to-integer cvt takes no rounding");
        NeedOps(op, ops, 2);
        in.dst = DstOperand(ops[0], d, true);
        in.src[0] = SrcOperand(ops[1], a, true, false, true);
        in.n_dst = 1;
        in.n_src = 1;
        break;
      }
      case Op::kCvta: {
        const Type t =
            OneType(op, m, ".u32, .u64", [](Type x) { return x == Type::kU32 || x == Type::kU64; });
        if (!m.space || *m.space == Space::kParam)
          throw Error(op, "instruction", op.text, "cvta needs a state space",
                      ".global, .shared, .local");
        in.space = *m.space;
        in.to = m.to;
        NeedOps(op, ops, 2);
        in.type = t;
        in.dst = DstOperand(ops[0], t);
        in.src[0] = SrcOperand(ops[1], t, false, true);
        in.n_dst = 1;
        in.n_src = 1;
        break;
      }
      case Op::kLd:
      case Op::kSt: {
        const Type t =
            OneType(op, m, ".b/.u/.s 8..64, .f32, .f64", [](Type x) { return x != Type::kPred; });
        in.type = t;
        in.vec = static_cast<uint8_t>(m.vec);
        in.cache_op = m.cache_op;
        in.space = m.space.value_or(Space::kGeneric);
        if (in.space == Space::kParam && in.op == Op::kSt)
          throw Error(op, "instruction", op.text, "kernel parameters are read-only");
        if (m.vec != 1 && TypeBits(t) * m.vec > 128)
          throw Error(op, "instruction", op.text, "vector accesses are limited to 128 bits");
        NeedOps(op, ops, 2);
        const RawOperand& data = in.op == Op::kLd ? ops[0] : ops[1];
        const RawOperand& addr = in.op == Op::kLd ? ops[1] : ops[0];
        in.src[0] = AddrOperand(addr, in.space);
        if (in.op == Op::kLd) {
          in.dst = m.vec == 1 ? DstOperand(data, t, true) : VecOperand(data, t, m.vec, true);
          in.n_dst = 1;
          in.n_src = 1;
        } else {
          in.src[1] = m.vec == 1 ? SrcOperand(data, t, true) : VecOperand(data, t, m.vec, false);
          in.n_src = 2;
        }
        break;
      }
      case Op::kAtom: {
        const bool red = base == "red";
        if (!m.atom)
          throw Error(op, "instruction", op.text, "atomic operation missing",
                      ".add, .min, .max, .exch, .cas, .and, .or, .xor, .inc, .dec");
        in.atom = *m.atom;
        const Type t = OneType(op, m, ".b32/.u32/.s32/.f32/.b64/.u64/.s64/.f64",
                               [](Type x) { return TypeBits(x) >= 32; });
        in.type = t;
        in.space = m.space.value_or(Space::kGeneric);
        if (in.space == Space::kParam || in.space == Space::kLocal)
          throw Error(op, "instruction", op.text, "atomics apply to global and shared memory");
        if (IsFloat(t) && in.atom != AtomOp::kAdd && in.atom != AtomOp::kExch)
          throw Error(op, "instruction", op.text, "float atomics support .add and .exch");
        const size_t n_val = in.atom == AtomOp::kCas ? 2 : 1;
        NeedOps(op, ops, n_val + (red ? 1 : 2));
        size_t k = 0;
        if (!red) {
          in.dst = DstOperand(ops[k++], t);
          in.n_dst = 1;
        }
        in.src[0] = AddrOperand(ops[k++], in.space);
        for (size_t i = 0; i < n_val; ++i)
          in.src[1 + i] = SrcOperand(ops[k++], t);
        in.n_src = static_cast<uint8_t>(1 + n_val);
        break;
      }
      case Op::kBra: {
        in.uni = m.uni;
        if (!m.types.empty())
          throw Error(op, "instruction", op.text, "bra takes no type");
        NeedOps(op, ops, 1);
        if (ops[0].kind != RawOperand::kIdent)
          OperandError(ops[0], RawText(ops[0]),
                       "expected a label (indirect branches are not supported)");
        fixups_.push_back({ops[0].name, {static_cast<uint32_t>(fn_->code.size()), 0}});
        break;
      }
      case Op::kBar: {
        if (m.sub == "warp") {
          // bar.warp.sync membermask (__syncwarp).
          if (!m.sync || !m.types.empty() || parts.size() != 3)
            throw Error(op, "instruction", op.text, "expected bar.warp.sync membermask");
          NeedOps(op, ops, 1);
          in.op = Op::kBarWarp;
          in.src[0] = SrcOperand(ops[0], Type::kB32);
          in.n_src = 1;
          break;
        }
        if (!m.sync || !m.types.empty() || (parts.size() >= 2 && parts[1] != "sync"))
          throw Error(op, "instruction", op.text, "only bar.sync / barrier.sync are supported");
        NeedOps(op, ops, 0, 1);
        if (!ops.empty() && (ops[0].kind != RawOperand::kNumber || ops[0].name != "0"))
          throw Error(op, "instruction", op.text,
                      "only barrier 0 with all threads of the CTA is supported");
        break;
      }
      case Op::kMembar:
        NeedOps(op, ops, 0);
        break;
      case Op::kRet:
        if (!m.types.empty() || parts.size() > 2 || (parts.size() == 2 && parts[1] != "uni"))
          throw Error(op, "instruction", op.text, "ret/exit take no modifiers");
        NeedOps(op, ops, 0);
        break;
      case Op::kRcp:
      case Op::kSqrt:
      case Op::kRsqrt:
      case Op::kEx2:
      case Op::kLg2:
      case Op::kSin:
      case Op::kCos: {
        const Type t = OneType(op, m, ".f32, .f64", FloatType);
        const bool rounded = in.op == Op::kRcp || in.op == Op::kSqrt;
        if (!m.approx && !(rounded && m.round != Round::kDefault))
          throw Error(op, "instruction", op.text,
                      rounded ? "needs .approx or a rounding modifier" : "needs .approx");
        dst_src(1, t, nullptr);
        break;
      }
      case Op::kPopc:
      case Op::kClz:
      case Op::kBrev: {
        const Type t =
            OneType(op, m, ".b32, .b64", [](Type x) { return x == Type::kB32 || x == Type::kB64; });
        NeedOps(op, ops, 2);
        in.type = t;
        in.dst = DstOperand(ops[0], in.op == Op::kBrev ? t : Type::kU32);
        in.src[0] = SrcOperand(ops[1], t);
        in.n_dst = 1;
        in.n_src = 1;
        break;
      }
      case Op::kBfind: {
        const Type t = OneType(op, m, ".u32, .s32, .u64, .s64", [](Type x) {
          return x == Type::kU32 || x == Type::kS32 || x == Type::kU64 || x == Type::kS64;
        });
        NeedOps(op, ops, 2);
        in.type = t;
        in.shiftamt = m.shiftamt;
        in.dst = DstOperand(ops[0], Type::kU32);
        in.src[0] = SrcOperand(ops[1], t);
        in.n_dst = 1;
        in.n_src = 1;
        break;
      }
      case Op::kBfe: {
        const Type t = OneType(op, m, ".u32, .s32, .u64, .s64", [](Type x) {
          return TypeBits(x) >= 32 && !IsFloat(x) && x != Type::kB32 && x != Type::kB64;
        });
        NeedOps(op, ops, 4);
        in.type = t;
        in.dst = DstOperand(ops[0], t);
        in.src[0] = SrcOperand(ops[1], t);
        in.src[1] = SrcOperand(ops[2], Type::kU32);
        in.src[2] = SrcOperand(ops[3], Type::kU32);
        in.n_dst = 1;
        in.n_src = 3;
        break;
      }
      case Op::kBfi: {
        const Type t =
            OneType(op, m, ".b32, .b64", [](Type x) { return x == Type::kB32 || x == Type::kB64; });
        NeedOps(op, ops, 5);
        in.type = t;
        in.dst = DstOperand(ops[0], t);
        in.src[0] = SrcOperand(ops[1], t);
        in.src[1] = SrcOperand(ops[2], t);
        in.src[2] = SrcOperand(ops[3], Type::kU32);
        in.src[3] = SrcOperand(ops[4], Type::kU32);
        in.n_dst = 1;
        in.n_src = 4;
        break;
      }
      case Op::kShfl: {
        if (!m.sync)
          throw Error(op, "instruction", op.text,
                      "shfl without .sync (before PTX 6.0) is not supported", "shfl.sync");
        if (m.sub.empty())
          throw Error(op, "instruction", op.text, "shfl.sync needs a mode",
                      ".up, .down, .bfly, .idx");
        OneType(op, m, ".b32", [](Type x) { return x == Type::kB32; });
        NeedOps(op, ops, 5);
        in.type = Type::kB32;
        in.sub = static_cast<uint8_t>(m.sub == "up"     ? ShflMode::kUp
                                      : m.sub == "down" ? ShflMode::kDown
                                      : m.sub == "bfly" ? ShflMode::kBfly
                                                        : ShflMode::kIdx);
        in.dst = DstOperand(ops[0], Type::kB32);
        in.n_dst = 1;
        if (!ops[0].pipe.empty()) {
          in.pdst[0] = {PredReg(ops[0].pipe, ops[0].line, ops[0].col), false};
          in.n_pdst = 1;
        }
        for (size_t k = 0; k < 4; ++k)
          in.src[k] = SrcOperand(ops[k + 1], Type::kB32);
        in.n_src = 4;
        break;
      }
      case Op::kVote: {
        if (!m.sync)
          throw Error(op, "instruction", op.text,
                      "vote without .sync (before PTX 6.0) is not supported", "vote.sync");
        if (m.sub.empty())
          throw Error(op, "instruction", op.text, "vote.sync needs a mode",
                      ".all, .any, .uni (.pred), .ballot (.b32)");
        const bool ballot = m.sub == "ballot";
        const Type t = OneType(op, m, ballot ? ".b32" : ".pred",
                               [](Type x) { return x == Type::kB32 || x == Type::kPred; });
        if ((t == Type::kB32) != ballot)
          throw Error(op, "instruction", op.text, "vote.sync.ballot is .b32, all/any/uni .pred");
        NeedOps(op, ops, 3);
        in.type = t;
        in.sub = static_cast<uint8_t>(m.sub == "all"   ? VoteMode::kAll
                                      : m.sub == "any" ? VoteMode::kAny
                                      : m.sub == "uni" ? VoteMode::kUni
                                                       : VoteMode::kBallot);
        if (ballot) {
          in.dst = DstOperand(ops[0], Type::kB32);
          in.n_dst = 1;
        } else {
          in.pdst[0] = PredOp(ops[0], false);
          in.n_pdst = 1;
        }
        in.has_psrc = true;
        in.psrc = PredOp(ops[1], true);
        in.src[0] = SrcOperand(ops[2], Type::kB32);
        in.n_src = 1;
        break;
      }
      case Op::kActivemask:
        OneType(op, m, ".b32", [](Type x) { return x == Type::kB32; });
        if (parts.size() != 2)
          throw Error(op, "instruction", op.text, "expected activemask.b32");
        NeedOps(op, ops, 1);
        in.type = Type::kB32;
        in.dst = DstOperand(ops[0], Type::kB32);
        in.n_dst = 1;
        break;
      case Op::kMatch: {
        if (!m.sync || m.sub.empty())
          throw Error(op, "instruction", op.text, "expected match.any.sync or match.all.sync");
        const Type t =
            OneType(op, m, ".b32, .b64", [](Type x) { return x == Type::kB32 || x == Type::kB64; });
        NeedOps(op, ops, 3);
        in.type = t;
        in.sub = m.sub == "all" ? 1 : 0;
        in.dst = DstOperand(ops[0], Type::kB32);
        in.n_dst = 1;
        if (!ops[0].pipe.empty()) {
          if (in.sub == 0)
            OperandError(ops[0], ops[0].pipe, "match.any has no predicate destination");
          in.pdst[0] = {PredReg(ops[0].pipe, ops[0].line, ops[0].col), false};
          in.n_pdst = 1;
        }
        in.src[0] = SrcOperand(ops[1], t);
        in.src[1] = SrcOperand(ops[2], Type::kB32);
        in.n_src = 2;
        break;
      }
      case Op::kRedux: {
        if (!m.sync || m.sub.empty())
          throw Error(op, "instruction", op.text, "expected redux.sync.op.type",
                      ".add/.min/.max with .u32/.s32, .and/.or/.xor with .b32");
        const bool arith = m.sub == "add" || m.sub == "min" || m.sub == "max";
        const Type t = OneType(op, m, arith ? ".u32, .s32" : ".b32", [](Type x) {
          return x == Type::kU32 || x == Type::kS32 || x == Type::kB32;
        });
        if (arith == (t == Type::kB32))
          throw Error(op, "instruction", op.text,
                      arith ? "redux.sync add/min/max take .u32 or .s32"
                            : "redux.sync and/or/xor take .b32");
        NeedOps(op, ops, 3);
        static const std::map<std::string, AtomOp> kRedOps = {
            {"add", AtomOp::kAdd}, {"min", AtomOp::kMin}, {"max", AtomOp::kMax},
            {"and", AtomOp::kAnd}, {"or", AtomOp::kOr},   {"xor", AtomOp::kXor}};
        in.atom = kRedOps.at(m.sub);
        dst_src(2, t, nullptr);
        in.src[1] = SrcOperand(ops[2], Type::kB32);
        break;
      }
      case Op::kPrefetch: {
        if (!m.types.empty() || m.sub.empty())
          throw Error(op, "instruction", op.text, "expected prefetch{.global,.local}.L1/.L2 [a]");
        in.space = m.space.value_or(Space::kGeneric);
        if (in.space != Space::kGlobal && in.space != Space::kLocal && in.space != Space::kGeneric)
          throw Error(op, "instruction", op.text, "prefetch applies to global and local memory");
        NeedOps(op, ops, 1);
        in.src[0] = AddrOperand(ops[0], in.space);
        in.n_src = 1;
        break;
      }
      case Op::kBarWarp:
      case Op::kPack:
      case Op::kUnpack:
        break;  // produced by bar and mov above, never looked up by name
      case Op::kPrmt: {
        if (parts.size() != 2)
          throw Error(op, "instruction", op.text, "only the default prmt.b32 mode is supported");
        dst_src(3, OneType(op, m, ".b32", [](Type x) { return x == Type::kB32; }), nullptr);
        break;
      }
    }
    // Modifiers that only some instructions accept.
    if (m.vec != 1 && in.op != Op::kLd && in.op != Op::kSt)
      throw Error(op, "instruction", op.text, "vector modifier not allowed here");
    if (m.space && in.op != Op::kLd && in.op != Op::kSt && in.op != Op::kAtom &&
        in.op != Op::kCvta && in.op != Op::kPrefetch)
      throw Error(op, "instruction", op.text, "state space modifier not allowed here");
    if (m.cache_op != 0 && in.op != Op::kLd && in.op != Op::kSt)
      throw Error(op, "instruction", op.text, "cache operators apply to ld and st",
                  ".ca, .cg, .cs, .nc, .lu, .cv on ld/st");
    if (m.uni && in.op != Op::kBra && in.op != Op::kRet)
      throw Error(op, "instruction", op.text, ".uni applies to bra and ret");
    if (m.to && in.op != Op::kCvta)
      throw Error(op, "instruction", op.text, ".to applies to cvta");
    if (m.shiftamt && in.op != Op::kBfind)
      throw Error(op, "instruction", op.text, ".shiftamt applies to bfind");
  }

  std::string file_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  PtxFunction* fn_ = nullptr;
  int address_size_ = 64;
  std::unordered_map<std::string, uint16_t> regs_;
  // Nested blocks: per open block, the registers it declared and what they shadowed.
  std::vector<std::vector<std::pair<std::string, std::optional<uint16_t>>>> scopes_;
  std::unordered_map<std::string, SourceLoc> globals_;  // module-scope .global variables
  std::unordered_map<std::string, SourceLoc> externs_;  // module-scope .extern .shared arrays
  uint32_t extern_align_ = 1;                           // their largest alignment
  std::optional<std::string> dynamic_placed_;           // the first extern array the kernel used
  std::vector<std::pair<Operand, int>> unpack_;         // unpacking mov: destination, bit offset
  std::unordered_map<std::string, uint32_t> labels_;
  std::vector<std::pair<std::string, std::pair<uint32_t, int>>> fixups_;
};

}  // namespace

PtxModule ParsePtx(const std::string& text, const std::string& file) {
  return Parser(text, file).Run();
}

PtxModule LoadPtx(const std::string& path) {
  return ParsePtx(ReadInputFile(path, "ptx", kMaxPtxBytes), path);
}

}  // namespace gpurf::sim::ptx
