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
  y.Keys(n, field, {"constant", "sequence", "random", "file"});
  if (n.size() != 1)
    throw InputError(y.Loc(n), field, "", "give exactly one of constant, sequence, random, file");
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

namespace {

// The launch file's folder: where the `ptx:` and `init: {file:}` paths are resolved.
fs::path BaseDir(const std::string& launch_path) {
  return fs::path(launch_path).parent_path();
}

// A path written in the launch file must name an existing regular file (a name too long for
// the file system is an error code, not a throw).
void CheckInputPath(const Yaml& y, const YAML::Node& n, const std::string& field,
                    const std::string& written, const std::string& resolved,
                    const std::string& what) {
  std::error_code ec;
  const fs::file_status st = fs::status(resolved, ec);
  if (!fs::exists(st))
    throw InputError(y.Loc(n), field, written,
                     ec && ec != std::errc::no_such_file_or_directory
                         ? fmt::format("cannot look up the {}: {}", what, ec.message())
                         : fmt::format("{} not found next to the launch file", what));
  if (!fs::is_regular_file(st))
    throw InputError(y.Loc(n), field, written,
                     fmt::format("not a regular file ({})",
                                 fs::is_directory(st) ? "a folder" : "a device, FIFO or socket"),
                     fmt::format("a {}, relative to the launch file", what));
}

std::string Shape(const Dim3& d) {
  return fmt::format("{}x{}x{}", d.x, d.y, d.z);
}

// kernel, grid, block, dynamic_shared_bytes and repeat of one launch (`prefix` is "" for the
// single-kernel form, "launches[i]." in the list); params come after the buffers.
LaunchStep ParseStep(const Yaml& y, const YAML::Node& n, const std::string& prefix) {
  LaunchStep st;
  st.loc = y.Loc(n);
  st.kernel = y.Str(n["kernel"], prefix + "kernel");
  st.grid = y.Dims(n["grid"], prefix + "grid");
  st.block = y.Dims(n["block"], prefix + "block");
  if (st.block.count() > 1024)
    throw InputError(y.Loc(n["block"]), prefix + "block", Shape(st.block),
                     "too many threads per CTA", "<= 1024");
  if (st.block.z > 64)
    throw InputError(y.Loc(n["block"]), prefix + "block", Shape(st.block), "block z above 64",
                     "z <= 64 (x * y * z <= 1024)");
  if (st.grid.count() > (uint64_t{1} << 24))
    throw InputError(y.Loc(n["grid"]), prefix + "grid", Shape(st.grid), "too many CTAs",
                     "x * y * z <= 16777216");
  if (n["dynamic_shared_bytes"])
    st.dynamic_shared_bytes = static_cast<uint32_t>(
        y.UInt(n["dynamic_shared_bytes"], prefix + "dynamic_shared_bytes", 0, uint64_t{1} << 24));
  if (n["repeat"])
    st.repeat = static_cast<uint32_t>(y.UInt(n["repeat"], prefix + "repeat", 1, 100000));
  return st;
}

std::vector<ParamBinding> ParseParams(const Yaml& y, const YAML::Node& params,
                                      const std::string& field, const LaunchSpec& s) {
  if (!params.IsSequence())
    throw InputError(y.Loc(params), field, "", "expected a list (buffer names and numbers)");
  std::vector<ParamBinding> out;
  for (size_t i = 0; i < params.size(); ++i) {
    const YAML::Node p = params[i];
    const std::string f = fmt::format("{}[{}]", field, i);
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
    out.push_back(pb);
  }
  return out;
}

BufferSpec ParseBuffer(const Yaml& y, const YAML::Node& b, const std::string& f,
                       const LaunchSpec& s) {
  y.Keys(b, f, {"name", "type", "count", "init", "shape"});
  BufferSpec bs;
  bs.loc = y.Loc(b);
  if (!b["name"] || !b["type"] || (!b["count"] && !b["shape"]))
    throw InputError(y.Loc(b), f, "", "a buffer needs name, type and count (or shape)");
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
  constexpr uint64_t kMaxCount = uint64_t{1} << 26;
  if (b["count"] && b["shape"])
    throw InputError(y.Loc(b["shape"]), f + ".shape", "",
                     "give count or shape, not both (shape's product is the count)");
  if (b["count"]) {
    bs.count = y.UInt(b["count"], f + ".count", 1, kMaxCount);
  } else {
    const YAML::Node sh = b["shape"];
    if (!sh.IsSequence() || sh.size() < 1 || sh.size() > 3)
      throw InputError(y.Loc(sh), f + ".shape", "",
                       "expected 1 to 3 dimensions, e.g. [rows, columns]");
    bs.count = 1;
    for (size_t i = 0; i < sh.size(); ++i) {
      const uint64_t d = y.UInt(sh[i], fmt::format("{}.shape[{}]", f, i), 1, kMaxCount);
      bs.shape.push_back(d);
      bs.count *= d;  // each factor <= 2^26 and the running product is checked: no overflow
      if (bs.count > kMaxCount)
        throw InputError(y.Loc(sh), f + ".shape", "", fmt::format("{} elements in all", bs.count),
                         fmt::format("a product of at most {}", kMaxCount));
    }
  }
  if (b["init"]) {
    const YAML::Node in = b["init"];
    const std::string field = f + ".init";
    if (in.IsMap() && in["file"]) {
      y.Keys(in, field, {"file"});
      bs.init.kind = BufferInit::kFile;
      bs.file_text = y.Str(in["file"], field + ".file");
      bs.file = (BaseDir(y.file()) / bs.file_text).string();
      bs.file_loc = y.Loc(in["file"]);
      CheckInputPath(y, in["file"], field + ".file", bs.file_text, bs.file, "data file");
      std::error_code ec;
      const uint64_t size = fs::file_size(bs.file, ec);
      if (ec || size != bs.bytes())
        throw InputError(bs.file_loc, field + ".file", bs.file_text,
                         ec ? "cannot read the file's size: " + ec.message()
                            : fmt::format("the file holds {} bytes", size),
                         fmt::format("exactly {} bytes ({} {} elements, raw little-endian)",
                                     bs.bytes(), bs.count, ty));
    } else {
      bs.init = ParseInit(y, in, field, ptx::IsFloat(bs.type));
    }
  }
  return bs;
}

}  // namespace

uint64_t LaunchSpec::ExecutedLaunches() const {
  uint64_t n = 0;
  for (const auto& l : launches)
    n += l.repeat;
  return n;
}

uint32_t SharedBytesWithDynamic(uint32_t static_bytes, uint32_t dynamic_bytes) {
  if (dynamic_bytes == 0)
    return static_bytes;
  return (static_bytes + 15u) / 16u * 16u + dynamic_bytes;
}

LaunchSpec LoadLaunchFromString(const std::string& text, const std::string& path) {
  YAML::Node root;
  try {
    if (const int line = SecondYamlDocumentLine(text); line > 0)
      throw InputError({path, line, 1}, "launch file", "---",
                       "a second YAML document: a launch file describes one workload",
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
         {"description", "kernel", "ptx", "grid", "block", "dynamic_shared_bytes", "buffers",
          "params", "launches", "reference", "outputs"});
  const bool sequence = static_cast<bool>(root["launches"]);
  const std::vector<const char*> per_launch = {"kernel", "grid", "block", "params"};
  if (sequence) {
    if (!root["ptx"])
      throw InputError(y.Loc(root), "ptx", "", "missing required key");
    for (const char* k : {"kernel", "grid", "block", "params", "dynamic_shared_bytes"}) {
      if (root[k])
        throw InputError(y.Loc(root[k]), k, "",
                         "with launches:, each launch gives its own kernel, grid, block, "
                         "params and dynamic_shared_bytes",
                         "these keys inside the entries of launches:");
    }
  } else {
    for (const char* k : {"kernel", "ptx", "grid", "block", "params"}) {
      if (!root[k])
        throw InputError(y.Loc(root), k, "", "missing required key");
    }
  }
  if (root["description"])
    s.description = y.Str(root["description"], "description");
  const std::string ptx_rel = y.Str(root["ptx"], "ptx");
  s.ptx = (BaseDir(path) / ptx_rel).string();
  CheckInputPath(y, root["ptx"], "ptx", ptx_rel, s.ptx, "PTX file");

  std::vector<YAML::Node> step_nodes;
  std::vector<std::string> prefixes;
  if (sequence) {
    const YAML::Node ls = root["launches"];
    if (!ls.IsSequence() || ls.size() == 0)
      throw InputError(y.Loc(ls), "launches", "",
                       "expected a non-empty list of {kernel, grid, block, params}");
    for (size_t i = 0; i < ls.size(); ++i) {
      const std::string f = fmt::format("launches[{}]", i);
      y.Keys(ls[i], f, {"kernel", "grid", "block", "params", "dynamic_shared_bytes", "repeat"});
      for (const char* k : per_launch) {
        if (!ls[i][k])
          throw InputError(y.Loc(ls[i]), f + "." + k, "", "missing required key");
      }
      step_nodes.push_back(ls[i]);
      prefixes.push_back(f + ".");
    }
  } else {
    step_nodes.push_back(root);
    prefixes.emplace_back();
  }
  for (size_t i = 0; i < step_nodes.size(); ++i)
    s.launches.push_back(ParseStep(y, step_nodes[i], prefixes[i]));

  if (const YAML::Node bufs = root["buffers"]) {
    if (!bufs.IsSequence())
      throw InputError(y.Loc(bufs), "buffers", "", "expected a list of buffers");
    for (size_t i = 0; i < bufs.size(); ++i)
      s.buffers.push_back(ParseBuffer(y, bufs[i], fmt::format("buffers[{}]", i), s));
  }
  for (size_t i = 0; i < step_nodes.size(); ++i)
    s.launches[i].params = ParseParams(y, step_nodes[i]["params"], prefixes[i] + "params", s);
  s.kernel = s.launches[0].kernel;
  s.grid = s.launches[0].grid;
  s.block = s.launches[0].block;
  s.params = s.launches[0].params;

  if (root["reference"]) {
    s.reference = y.Str(root["reference"], "reference");
    s.reference_loc = y.Loc(root["reference"]);
    if (!FindReference(s.reference)) {
      throw InputError(s.reference_loc, "reference", s.reference, "no C++ reference of this name",
                       fmt::format("{}", fmt::join(ReferenceNames(), ", ")));
    }
  }
  bool tolerance_given = false;
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
        tolerance_given = true;
        oc.tolerance = y.Num(o["tolerance"], f + ".tolerance");
        if (oc.tolerance < 0)
          throw InputError(y.Loc(o["tolerance"]), f + ".tolerance", fmt::format("{}", oc.tolerance),
                           "tolerance must be >= 0");
      }
      s.outputs.push_back(oc);
    }
  }
  // Without a reference, `outputs` only names the buffers to report; a tolerance there is a
  // check that cannot happen.
  if (tolerance_given && s.reference.empty())
    throw InputError(y.Loc(root["outputs"]), "outputs", "",
                     "outputs to check need a reference (a tolerance compares with it)",
                     "a reference: key, or outputs without tolerance (reported, not checked)");
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
  if (b.init.kind == BufferInit::kFile) {
    const std::string field = b.name + ".init.file";
    std::string data;
    try {
      data = ReadInputFile(b.file, field, b.bytes());
    } catch (const InputError&) {  // changed since the launch file was read: say where it is
      data.clear();
      data.resize(b.bytes() + 1);
    }
    if (data.size() != b.bytes())
      throw InputError(b.file_loc, field, b.file_text,
                       "the data file no longer has the buffer's size (or cannot be read)",
                       fmt::format("exactly {} bytes", b.bytes()));
    return {data.begin(), data.end()};
  }
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
      case BufferInit::kFile:  // read whole above
        break;
    }
    std::memcpy(out.data() + i * static_cast<uint64_t>(eb), &bits, static_cast<size_t>(eb));
  }
  return out;
}

// ------------------------------------------------------------------------------ running

double ElementValue(const std::vector<uint8_t>& bytes, ptx::Type t, uint64_t i) {
  const uint64_t eb = static_cast<uint64_t>(ptx::TypeBits(t) / 8);
  return Decode(bytes.data() + i * eb, t);
}

std::string ElementText(const std::vector<uint8_t>& bytes, ptx::Type t, uint64_t i) {
  const uint64_t eb = static_cast<uint64_t>(ptx::TypeBits(t) / 8);
  if (ptx::IsFloat(t))
    return fmt::format("{:.9g}", Decode(bytes.data() + i * eb, t));
  uint64_t v = 0;
  std::memcpy(&v, bytes.data() + i * eb, static_cast<size_t>(eb));
  if (ptx::IsSigned(t)) {
    const int sh = static_cast<int>(64 - 8 * eb);
    return fmt::format("{}", static_cast<int64_t>(v << sh) >> sh);
  }
  return fmt::format("{}", v);
}

WorkloadRun::WorkloadRun(std::vector<std::unique_ptr<LaunchRun>> runs)
    : launches(std::move(runs)), compiled(*launches.at(0)->compiled), run(launches.at(0)->run) {}

bool WorkloadRun::passed() const {
  for (const auto& o : outputs) {
    if (o.mismatches > 0)
      return false;
  }
  return true;
}

namespace {

std::vector<uint8_t> BuildParams(const LaunchStep& step, const std::string& prefix,
                                 const ptx::PtxFunction& fn,
                                 const std::map<std::string, uint64_t>& addr) {
  if (step.params.size() != fn.params.size()) {
    throw InputError(step.params.empty() ? step.loc : step.params.front().loc, prefix + "params",
                     std::to_string(step.params.size()),
                     fmt::format("kernel {} declares {} parameters", fn.name, fn.params.size()),
                     fmt::format("{} values", fn.params.size()));
  }
  std::vector<uint8_t> buf(fn.param_bytes, 0);
  for (size_t i = 0; i < fn.params.size(); ++i) {
    const ptx::Param& p = fn.params[i];
    const ParamBinding& b = step.params[i];
    const std::string field = fmt::format("{}params[{}]", prefix, i);
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

namespace {

// Stream memory a run recorded, counted as the executor counts it against
// ExecOptions::max_recorded_bytes.
uint64_t RecordedBytes(const KernelRun& r) {
  uint64_t n = r.warps.size() * sizeof(WarpStream);
  for (const auto& w : r.warps)
    n += w.insts.size() * sizeof(DynInst) + w.values.size() * sizeof(uint32_t) +
         w.addrs.size() * sizeof(uint64_t) +
         w.resolved.size() * sizeof(WarpStream::ResolvedGeneric);
  return n;
}

}  // namespace

std::unique_ptr<WorkloadRun> RunWorkload(const LaunchSpec& spec, const RunOptions& opt) {
  const ptx::PtxModule module = ptx::LoadPtx(spec.ptx);
  // One compilation per kernel, one copy per (kernel, dynamic shared size) whose shared_bytes
  // count the dynamic memory: the executor sizes a CTA's shared memory and the SM model its
  // occupancy from them.
  std::map<std::string, std::shared_ptr<const ptx::CompiledKernel>> base;
  std::map<std::pair<std::string, uint32_t>, std::shared_ptr<const ptx::CompiledKernel>> sized;
  auto kernel_for = [&](const LaunchStep& st) {
    auto& b = base[st.kernel];
    if (!b) {
      try {
        b = std::make_shared<const ptx::CompiledKernel>(
            ptx::CompileKernel(module, st.kernel, opt.alloc));
      } catch (const InputError& e) {
        if (module.Find(st.kernel) != nullptr)
          throw;
        std::vector<std::string> names;
        for (const auto& f : module.entries)
          names.push_back(f.name);
        throw InputError(st.loc, "kernel", st.kernel,
                         fmt::format("no .entry of this name in {}", spec.ptx),
                         fmt::format("{}", fmt::join(names, ", ")));
      }
    }
    if (st.dynamic_shared_bytes == 0)
      return b;
    auto& s = sized[{st.kernel, st.dynamic_shared_bytes}];
    if (!s) {
      auto c = std::make_shared<ptx::CompiledKernel>(*b);
      c->fn.shared_bytes = SharedBytesWithDynamic(b->fn.shared_bytes, st.dynamic_shared_bytes);
      c->kernel.shared_bytes =
          SharedBytesWithDynamic(b->kernel.shared_bytes, st.dynamic_shared_bytes);
      s = std::move(c);
    }
    return s;
  };
  std::vector<std::shared_ptr<const ptx::CompiledKernel>> step_kernels;
  for (const auto& st : spec.launches)
    step_kernels.push_back(kernel_for(st));

  DeviceMemory mem;
  std::map<std::string, uint64_t> addr;
  HostBuffers initial;
  for (const auto& b : spec.buffers) {
    addr[b.name] = mem.Allocate(b.bytes(), b.name);
    std::vector<uint8_t> bytes = InitialContents(b);
    std::memcpy(mem.At(addr[b.name], b.bytes()), bytes.data(), bytes.size());
    initial.Add(b.name, b.type, std::move(bytes));
  }
  const bool multi = spec.launches.size() > 1;
  std::vector<std::vector<uint8_t>> params;
  for (size_t i = 0; i < spec.launches.size(); ++i)
    params.push_back(BuildParams(spec.launches[i], multi ? fmt::format("launches[{}].", i) : "",
                                 step_kernels[i]->fn, addr));

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
  std::vector<std::unique_ptr<LaunchRun>> runs;
  const bool labelled = spec.ExecutedLaunches() > 1;
  ExecOptions exec = opt.exec;
  double seconds = 0;
  for (size_t i = 0; i < spec.launches.size(); ++i) {
    const LaunchStep& st = spec.launches[i];
    for (uint32_t it = 0; it < st.repeat; ++it) {
      auto lr = std::make_unique<LaunchRun>();
      lr->step = i;
      lr->iteration = it;
      lr->compiled = step_kernels[i];
      if (labelled)
        lr->label = fmt::format("#{}", runs.size() + 1);
      const double t0 = cpu_now();
      lr->run = Execute(*lr->compiled, st.grid, st.block, params[i], mem, exec);
      lr->exec_seconds = cpu_now() - t0;
      seconds += lr->exec_seconds;
      lr->run.kernel = &lr->compiled->kernel;
      // The recording limit covers the whole sequence: each launch gets what is left.
      const uint64_t used = RecordedBytes(lr->run);
      exec.max_recorded_bytes = used < exec.max_recorded_bytes ? exec.max_recorded_bytes - used : 0;
      runs.push_back(std::move(lr));
    }
  }
  auto wr = std::make_unique<WorkloadRun>(std::move(runs));
  wr->spec = spec;
  wr->exec_seconds = seconds;

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
