#include "sim/workload/launch.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <set>

#include "base/fs.h"
#include "sim/ptx/ptx_parser.h"
#include "sim/workload/reference.h"

namespace gpurf::sim {

namespace fs = std::filesystem;

const BufferSpec* LaunchSpec::Buffer(const std::string& n) const {
  for (const auto& b : buffers) {
    if (b.name == n)
      return &b;
  }
  return nullptr;
}

namespace {

class Yaml {
 public:
  explicit Yaml(std::string file) : file_(std::move(file)) {}

  SourceLoc Loc(const YAML::Node& n) const {
    const YAML::Mark m = n.Mark();
    if (m.is_null())
      return {file_, 0, 0};
    return {file_, m.line + 1, m.column + 1};
  }

  void Keys(const YAML::Node& map, const std::string& where,
            const std::vector<std::string>& allowed) const {
    if (!map.IsMap())
      throw InputError(Loc(map), where, "", "expected a mapping (key: value)");
    for (const auto& kv : map) {
      if (!kv.first.IsScalar())  // `? [a, b] : 1`: as<std::string>() would throw a YAML error
        throw InputError(Loc(kv.first), where.empty() ? "launch file" : where, "",
                         "keys must be plain names", fmt::format("{}", fmt::join(allowed, ", ")));
      const std::string k = kv.first.as<std::string>();
      if (std::find(allowed.begin(), allowed.end(), k) == allowed.end()) {
        std::string problem = "unknown key";
        if (auto s = ClosestMatchIn(k, allowed))
          problem += fmt::format(" (did you mean '{}'?)", *s);
        throw InputError(Loc(kv.first), where.empty() ? k : where + "." + k, k, problem,
                         fmt::format("{}", fmt::join(allowed, ", ")));
      }
    }
  }

  std::string Str(const YAML::Node& n, const std::string& field) const {
    if (!n.IsScalar())
      throw InputError(Loc(n), field, "", "expected a string");
    return n.as<std::string>();
  }

  double Num(const YAML::Node& n, const std::string& field) const {
    if (!n.IsScalar())
      throw InputError(Loc(n), field, "", "expected a number");
    const std::string s = n.as<std::string>();
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end == nullptr || *end != '\0' || std::isnan(v))
      throw InputError(Loc(n), field, s, "expected a number");
    return v;
  }

  uint64_t UInt(const YAML::Node& n, const std::string& field, uint64_t lo, uint64_t hi) const {
    if (!n.IsScalar())
      throw InputError(Loc(n), field, "", "expected an integer");
    const std::string s = n.as<std::string>();
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(s.c_str(), &end, 0);
    if (s.empty() || s[0] == '-' || *end != '\0' || errno != 0)
      throw InputError(Loc(n), field, s, "expected a non-negative integer");
    if (v < lo || v > hi)
      throw InputError(Loc(n), field, s, "out of range", fmt::format("{}..{}", lo, hi));
    return v;
  }

  Dim3 Dims(const YAML::Node& n, const std::string& field) const {
    Dim3 d;
    if (n.IsScalar()) {
      d.x = static_cast<uint32_t>(UInt(n, field, 1, 1u << 24));
      return d;
    }
    if (!n.IsSequence() || n.size() < 1 || n.size() > 3)
      throw InputError(Loc(n), field, "", "expected 1 to 3 dimensions, e.g. [16, 16, 1]");
    uint32_t* dims[3] = {&d.x, &d.y, &d.z};
    for (size_t i = 0; i < n.size(); ++i)
      *dims[i] = static_cast<uint32_t>(UInt(n[i], fmt::format("{}[{}]", field, i), 1, 1u << 24));
    return d;
  }

  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

const std::vector<std::pair<std::string, ptx::Type>>& BufferTypes() {
  static const std::vector<std::pair<std::string, ptx::Type>> t = {
      {"u8", ptx::Type::kU8},   {"u16", ptx::Type::kU16}, {"u32", ptx::Type::kU32},
      {"u64", ptx::Type::kU64}, {"s8", ptx::Type::kS8},   {"s16", ptx::Type::kS16},
      {"s32", ptx::Type::kS32}, {"s64", ptx::Type::kS64}, {"f32", ptx::Type::kF32},
      {"f64", ptx::Type::kF64}};
  return t;
}

uint64_t SplitMix64(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Encodes a number as an element of type t (integers wrap to the type's width).
uint64_t Encode(double v, ptx::Type t) {
  if (t == ptx::Type::kF32)
    return std::bit_cast<uint32_t>(static_cast<float>(v));
  if (t == ptx::Type::kF64)
    return std::bit_cast<uint64_t>(v);
  if (v < 0)
    return static_cast<uint64_t>(static_cast<int64_t>(v));
  return static_cast<uint64_t>(v);
}

double Decode(const uint8_t* p, ptx::Type t) {
  uint64_t v = 0;
  const int bytes = ptx::TypeBits(t) / 8;
  std::memcpy(&v, p, static_cast<size_t>(bytes));
  switch (t) {
    case ptx::Type::kF32:
      return std::bit_cast<float>(static_cast<uint32_t>(v));
    case ptx::Type::kF64:
      return std::bit_cast<double>(v);
    default:
      if (ptx::IsSigned(t)) {
        const int s = 64 - 8 * bytes;
        return static_cast<double>(static_cast<int64_t>(v << s) >> s);
      }
      return static_cast<double>(v);
  }
}

BufferInit ParseInit(const Yaml& y, const YAML::Node& n, const std::string& field, bool is_float) {
  BufferInit init;
  y.Keys(n, field, {"constant", "sequence", "random"});
  if (n.size() != 1)
    throw InputError(y.Loc(n), field, "", "give exactly one of constant, sequence, random");
  if (n["constant"]) {
    init.kind = BufferInit::kConstant;
    init.a = y.Num(n["constant"], field + ".constant");
  } else if (n["sequence"]) {
    const YAML::Node s = n["sequence"];
    y.Keys(s, field + ".sequence", {"start", "step"});
    init.kind = BufferInit::kSequence;
    init.a = s["start"] ? y.Num(s["start"], field + ".sequence.start") : 0;
    init.b = s["step"] ? y.Num(s["step"], field + ".sequence.step") : 1;
  } else {
    const YAML::Node r = n["random"];
    y.Keys(r, field + ".random", {"seed", "min", "max"});
    init.kind = BufferInit::kRandom;
    init.seed = r["seed"] ? y.UInt(r["seed"], field + ".random.seed", 0, UINT64_MAX) : 1;
    if (!r["min"] || !r["max"])
      throw InputError(y.Loc(r), field + ".random", "", "random needs min and max");
    init.a = y.Num(r["min"], field + ".random.min");
    init.b = y.Num(r["max"], field + ".random.max");
    if (init.b < init.a)
      throw InputError(y.Loc(r["max"]), field + ".random.max", fmt::format("{}", init.b),
                       "max is below min");
    if (!is_float && (init.a != std::floor(init.a) || init.b != std::floor(init.b)))
      throw InputError(y.Loc(r), field + ".random", "", "integer buffers need integer bounds");
  }
  return init;
}

}  // namespace

LaunchSpec LoadLaunch(const std::string& path) {
  return LoadLaunchFromString(ReadInputFile(path, "launch file", kMaxYamlBytes), path);
}

LaunchSpec LoadLaunchFromString(const std::string& text, const std::string& path) {
  YAML::Node root;
  try {
    if (const int line = SecondYamlDocumentLine(text); line > 0)
      throw InputError({path, line, 1}, "launch file", "---",
                       "a second YAML document: a launch file describes one launch",
                       "one YAML document");
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError({path, e.mark.line + 1, e.mark.column + 1}, "yaml", "", e.msg);
  }
  const Yaml y(path);
  LaunchSpec s;
  s.file = path;
  s.name = fs::path(path).parent_path().filename().string();
  if (!root || root.IsNull())
    throw InputError({path, 1, 1}, "launch file", "", "empty launch file");
  y.Keys(root, "",
         {"description", "kernel", "ptx", "grid", "block", "buffers", "params", "reference",
          "outputs"});
  for (const char* k : {"kernel", "ptx", "grid", "block", "params"}) {
    if (!root[k])
      throw InputError(y.Loc(root), k, "", "missing required key");
  }
  if (root["description"])
    s.description = y.Str(root["description"], "description");
  s.kernel = y.Str(root["kernel"], "kernel");
  const std::string ptx_rel = y.Str(root["ptx"], "ptx");
  s.ptx = (fs::path(path).parent_path() / ptx_rel).string();
  {
    // A name too long for the file system is an error code, not a throw.
    std::error_code ec;
    const fs::file_status st = fs::status(s.ptx, ec);
    if (!fs::exists(st))
      throw InputError(y.Loc(root["ptx"]), "ptx", ptx_rel,
                       ec && ec != std::errc::no_such_file_or_directory
                           ? "cannot look up the PTX file: " + ec.message()
                           : "PTX file not found next to the launch file");
    if (!fs::is_regular_file(st))
      throw InputError(y.Loc(root["ptx"]), "ptx", ptx_rel,
                       fmt::format("not a regular file ({})",
                                   fs::is_directory(st) ? "a folder" : "a device, FIFO or socket"),
                       "a .ptx file, relative to the launch file");
  }
  s.grid = y.Dims(root["grid"], "grid");
  s.block = y.Dims(root["block"], "block");
  auto shape = [](const Dim3& d) { return fmt::format("{}x{}x{}", d.x, d.y, d.z); };
  if (s.block.count() > 1024)
    throw InputError(y.Loc(root["block"]), "block", shape(s.block), "too many threads per CTA",
                     "<= 1024");
  if (s.block.z > 64)
    throw InputError(y.Loc(root["block"]), "block", shape(s.block), "block z above 64",
                     "z <= 64 (x * y * z <= 1024)");
  if (s.grid.count() > (uint64_t{1} << 24))
    throw InputError(y.Loc(root["grid"]), "grid", shape(s.grid), "too many CTAs",
                     "x * y * z <= 16777216");

  if (const YAML::Node bufs = root["buffers"]) {
    if (!bufs.IsSequence())
      throw InputError(y.Loc(bufs), "buffers", "", "expected a list of buffers");
    for (size_t i = 0; i < bufs.size(); ++i) {
      const YAML::Node b = bufs[i];
      const std::string f = fmt::format("buffers[{}]", i);
      y.Keys(b, f, {"name", "type", "count", "init"});
      BufferSpec bs;
      bs.loc = y.Loc(b);
      if (!b["name"] || !b["type"] || !b["count"])
        throw InputError(y.Loc(b), f, "", "a buffer needs name, type and count");
      bs.name = y.Str(b["name"], f + ".name");
      if (s.Buffer(bs.name))
        throw InputError(y.Loc(b["name"]), f + ".name", bs.name, "duplicate buffer name");
      const std::string ty = y.Str(b["type"], f + ".type");
      bool found = false;
      std::vector<std::string> names;
      for (const auto& [n, t] : BufferTypes()) {
        names.push_back(n);
        if (n == ty) {
          bs.type = t;
          found = true;
        }
      }
      if (!found)
        throw InputError(y.Loc(b["type"]), f + ".type", ty, "unknown buffer type",
                         fmt::format("{}", fmt::join(names, ", ")));
      bs.count = y.UInt(b["count"], f + ".count", 1, uint64_t{1} << 26);
      if (b["init"])
        bs.init = ParseInit(y, b["init"], f + ".init", ptx::IsFloat(bs.type));
      s.buffers.push_back(bs);
    }
  }

  const YAML::Node params = root["params"];
  if (!params.IsSequence())
    throw InputError(y.Loc(params), "params", "", "expected a list (buffer names and numbers)");
  for (size_t i = 0; i < params.size(); ++i) {
    const YAML::Node p = params[i];
    const std::string f = fmt::format("params[{}]", i);
    ParamBinding pb;
    pb.loc = y.Loc(p);
    if (!p.IsScalar())
      throw InputError(pb.loc, f, "", "expected a buffer name or a number");
    pb.text = p.as<std::string>();
    char* end = nullptr;
    std::strtod(pb.text.c_str(), &end);
    if (!pb.text.empty() && end && *end == '\0') {
      pb.is_buffer = false;
    } else {
      if (!s.Buffer(pb.text)) {
        std::vector<std::string> names;
        for (const auto& b : s.buffers)
          names.push_back(b.name);
        throw InputError(pb.loc, f, pb.text, "neither a number nor a buffer name",
                         names.empty() ? "a number" : fmt::format("{}", fmt::join(names, ", ")));
      }
      pb.is_buffer = true;
      pb.buffer = pb.text;
    }
    s.params.push_back(pb);
  }

  if (root["reference"]) {
    s.reference = y.Str(root["reference"], "reference");
    s.reference_loc = y.Loc(root["reference"]);
    if (!FindReference(s.reference)) {
      throw InputError(s.reference_loc, "reference", s.reference, "no C++ reference of this name",
                       fmt::format("{}", fmt::join(ReferenceNames(), ", ")));
    }
  }
  if (const YAML::Node outs = root["outputs"]) {
    if (!outs.IsSequence())
      throw InputError(y.Loc(outs), "outputs", "", "expected a list of {buffer, tolerance}");
    for (size_t i = 0; i < outs.size(); ++i) {
      const YAML::Node o = outs[i];
      const std::string f = fmt::format("outputs[{}]", i);
      y.Keys(o, f, {"buffer", "tolerance"});
      OutputCheck oc;
      oc.loc = y.Loc(o);
      if (!o["buffer"])
        throw InputError(oc.loc, f, "", "missing buffer");
      oc.buffer = y.Str(o["buffer"], f + ".buffer");
      if (!s.Buffer(oc.buffer))
        throw InputError(y.Loc(o["buffer"]), f + ".buffer", oc.buffer, "no buffer of this name");
      if (o["tolerance"]) {
        oc.tolerance = y.Num(o["tolerance"], f + ".tolerance");
        if (oc.tolerance < 0)
          throw InputError(y.Loc(o["tolerance"]), f + ".tolerance", fmt::format("{}", oc.tolerance),
                           "tolerance must be >= 0");
      }
      s.outputs.push_back(oc);
    }
  }
  if (!s.outputs.empty() && s.reference.empty())
    throw InputError(y.Loc(root["outputs"]), "outputs", "", "outputs to check need a reference");
  return s;
}

// ------------------------------------------------------------------------------ buffers

void HostBuffers::Add(const std::string& name, ptx::Type type, std::vector<uint8_t> bytes) {
  bufs_[name] = Buf{type, std::move(bytes)};
}

const HostBuffers::Buf& HostBuffers::Get(const std::string& name) const {
  auto it = bufs_.find(name);
  if (it == bufs_.end())
    throw std::logic_error("reference asks for an unknown buffer '" + name + "'");
  return it->second;
}

HostBuffers::Buf& HostBuffers::Get(const std::string& name) {
  return const_cast<Buf&>(std::as_const(*this).Get(name));
}

void HostBuffers::CheckElement(const std::string& name, ptx::Type t, size_t size, bool is_float) {
  if (static_cast<size_t>(ptx::TypeBits(t) / 8) != size || ptx::IsFloat(t) != is_float)
    throw std::logic_error(
        fmt::format("buffer '{}' is {} but the reference reads {}-byte {} elements", name,
                    ptx::TypeName(t), size, is_float ? "float" : "integer"));
}

std::vector<uint8_t> InitialContents(const BufferSpec& b) {
  const int eb = ptx::TypeBits(b.type) / 8;
  std::vector<uint8_t> out(b.bytes());
  uint64_t state = b.init.seed;
  const bool fl = ptx::IsFloat(b.type);
  for (uint64_t i = 0; i < b.count; ++i) {
    double v = 0;
    uint64_t bits = 0;
    switch (b.init.kind) {
      case BufferInit::kConstant:
        v = b.init.a;
        bits = Encode(v, b.type);
        break;
      case BufferInit::kSequence:
        v = b.init.a + b.init.b * static_cast<double>(i);
        bits = Encode(v, b.type);
        break;
      case BufferInit::kRandom: {
        const uint64_t r = SplitMix64(state);
        if (fl) {
          v = b.init.a + (b.init.b - b.init.a) * static_cast<double>(r >> 11) * 0x1.0p-53;
          bits = Encode(v, b.type);
        } else {
          const auto span = static_cast<uint64_t>(b.init.b - b.init.a) + 1;
          const uint64_t off = span == 0 ? r : r % span;
          bits = static_cast<uint64_t>(static_cast<int64_t>(b.init.a)) + off;
        }
        break;
      }
    }
    std::memcpy(out.data() + i * static_cast<uint64_t>(eb), &bits, static_cast<size_t>(eb));
  }
  return out;
}

// ------------------------------------------------------------------------------ running

bool WorkloadRun::passed() const {
  for (const auto& o : outputs) {
    if (o.mismatches > 0)
      return false;
  }
  return true;
}

namespace {

std::vector<uint8_t> BuildParams(const LaunchSpec& spec, const ptx::PtxFunction& fn,
                                 const std::map<std::string, uint64_t>& addr) {
  if (spec.params.size() != fn.params.size()) {
    throw InputError(spec.params.empty() ? SourceLoc{spec.file, 0, 0} : spec.params.front().loc,
                     "params", std::to_string(spec.params.size()),
                     fmt::format("kernel {} declares {} parameters", fn.name, fn.params.size()),
                     fmt::format("{} values", fn.params.size()));
  }
  std::vector<uint8_t> buf(fn.param_bytes, 0);
  for (size_t i = 0; i < fn.params.size(); ++i) {
    const ptx::Param& p = fn.params[i];
    const ParamBinding& b = spec.params[i];
    const std::string field = fmt::format("params[{}]", i);
    const int bits = ptx::TypeBits(p.type);
    uint64_t v;
    if (b.is_buffer) {
      if (bits != 64 || p.size != 8 || ptx::IsFloat(p.type))
        throw InputError(b.loc, field, b.text,
                         fmt::format("parameter {} is .{} and cannot hold a buffer address", p.name,
                                     ptx::TypeName(p.type)),
                         "a buffer for a .u64/.b64/.s64 parameter");
      v = addr.at(b.buffer);
    } else {
      if (p.size != static_cast<uint32_t>(bits / 8))
        throw InputError(b.loc, field, b.text,
                         fmt::format("parameter {} is an array and takes no scalar", p.name));
      const double d = std::strtod(b.text.c_str(), nullptr);
      if (!ptx::IsFloat(p.type)) {
        if (d != std::floor(d))
          throw InputError(b.loc, field, b.text,
                           fmt::format("parameter {} is .{}: an integer is needed", p.name,
                                       ptx::TypeName(p.type)));
        const double lo = ptx::IsSigned(p.type) ? -std::ldexp(1.0, bits - 1) : 0;
        const double hi =
            ptx::IsSigned(p.type) ? std::ldexp(1.0, bits - 1) - 1 : std::ldexp(1.0, bits) - 1;
        if (d < lo || d > hi)
          throw InputError(
              b.loc, field, b.text,
              fmt::format("out of range for parameter {} (.{})", p.name, ptx::TypeName(p.type)),
              fmt::format("{}..{}", lo, hi));
      }
      v = Encode(d, p.type);
    }
    std::memcpy(buf.data() + p.offset, &v, p.size);
  }
  return buf;
}

std::string Format(double v, ptx::Type t) {
  return ptx::IsFloat(t) ? fmt::format("{:.9g}", v) : fmt::format("{}", static_cast<int64_t>(v));
}

}  // namespace

std::unique_ptr<WorkloadRun> RunWorkload(const LaunchSpec& spec, const RunOptions& opt) {
  auto wr = std::make_unique<WorkloadRun>();
  wr->spec = spec;
  const ptx::PtxModule module = ptx::LoadPtx(spec.ptx);
  wr->compiled = ptx::CompileKernel(module, spec.kernel, opt.alloc);

  DeviceMemory mem;
  std::map<std::string, uint64_t> addr;
  HostBuffers initial;
  for (const auto& b : spec.buffers) {
    addr[b.name] = mem.Allocate(b.bytes(), b.name);
    std::vector<uint8_t> bytes = InitialContents(b);
    std::memcpy(mem.At(addr[b.name], b.bytes()), bytes.data(), bytes.size());
    initial.Add(b.name, b.type, std::move(bytes));
  }
  const std::vector<uint8_t> params = BuildParams(spec, wr->compiled.fn, addr);

  // The reference needs only the initial contents: it runs first, so a launch whose buffers
  // are too small for its scalars is reported by the reference's bounds checks (naming the
  // buffer and the count needed) before the kernel runs.
  const bool check = opt.check && !spec.reference.empty();
  HostBuffers expected;
  if (check) {
    expected = initial;
    ReferenceContext ctx{expected, spec};
    try {
      FindReference(spec.reference)(ctx);
    } catch (const std::logic_error& e) {  // the launch binds what the reference cannot read
      throw InputError(
          spec.reference_loc, "reference", spec.reference,
          fmt::format("the launch's buffers and params do not fit this reference: {}", e.what()));
    }
  }

  // CPU time of this thread: the machines are shared, wall time would measure the neighbours.
  auto cpu_now = [] {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  };
  const double t0 = cpu_now();
  wr->run = Execute(wr->compiled, spec.grid, spec.block, params, mem, opt.exec);
  wr->exec_seconds = cpu_now() - t0;
  wr->run.kernel = &wr->compiled.kernel;

  for (const auto& b : spec.buffers) {
    const uint8_t* p = mem.At(addr[b.name], b.bytes());
    wr->final_buffers.Add(b.name, b.type, std::vector<uint8_t>(p, p + b.bytes()));
  }
  if (!check)
    return wr;

  for (const auto& oc : spec.outputs) {
    const BufferSpec& b = *spec.Buffer(oc.buffer);
    const auto& got = wr->final_buffers.Get(oc.buffer).bytes;
    const auto& exp = expected.Get(oc.buffer).bytes;
    OutputResult r;
    r.buffer = oc.buffer;
    r.elements = b.count;
    const int eb = ptx::TypeBits(b.type) / 8;
    for (uint64_t i = 0; i < b.count; ++i) {
      const double g = Decode(got.data() + i * static_cast<uint64_t>(eb), b.type);
      const double e = Decode(exp.data() + i * static_cast<uint64_t>(eb), b.type);
      const double err = std::fabs(g - e) / std::max(1.0, std::fabs(e));
      const bool bad = std::isnan(g) != std::isnan(e) || (!std::isnan(e) && !(err <= oc.tolerance));
      if (!std::isnan(err))
        r.max_error = std::max(r.max_error, err);
      if (bad) {
        if (r.mismatches == 0)
          r.first_mismatch = fmt::format("{}[{}]: got {}, expected {}", oc.buffer, i,
                                         Format(g, b.type), Format(e, b.type));
        ++r.mismatches;
      }
    }
    wr->outputs.push_back(r);
  }
  return wr;
}

std::vector<std::string> ListWorkloads(const std::string& corpus_dir) {
  std::error_code ec;
  if (!fs::is_directory(corpus_dir, ec))
    throw InputError({}, "--corpus-dir", corpus_dir, "not a folder");
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(corpus_dir)) {
    if (e.is_directory() && fs::exists(e.path() / "launch.yaml"))
      names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string WorkloadLaunchPath(const std::string& corpus_dir, const std::string& name) {
  const std::vector<std::string> names = ListWorkloads(corpus_dir);
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string problem = fmt::format("no workload of this name in {}", corpus_dir);
    if (auto s = ClosestMatchIn(name, names))
      problem += fmt::format(" (did you mean '{}'?)", *s);
    throw InputError({}, "workload", name, problem, fmt::format("{}", fmt::join(names, ", ")));
  }
  return (fs::path(corpus_dir) / name / "launch.yaml").string();
}

std::string DefaultCorpusDir() {
  if (const char* h = std::getenv("GPURF_HOME"); h != nullptr && *h)
    return (fs::path(h) / "workloads" / "corpus").string();
  return GPURF_SOURCE_DIR "/workloads/corpus";
}

}  // namespace gpurf::sim
