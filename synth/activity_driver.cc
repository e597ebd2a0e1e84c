#include "synth/activity_driver.h"

#include <fmt/format.h>

#include <map>

#include "base/diag.h"

namespace gpurf {

std::vector<StimulusSet> StandardStimulusSets() {
  return {kIdleSet, kReadsSet, kWritesSet, kMixedSet};
}

std::vector<AccessComponent> ReadWriteComponents() {
  return {{"read", "one read port presenting a new random address", ""},
          {"write", "one write port writing random data to a random address", ""}};
}

void SetBits(std::vector<uint64_t>& words, int lo, int width, uint64_t value) {
  for (int b = 0; b < width; ++b) {
    const int i = lo + b;
    const uint64_t m = uint64_t{1} << (i % 64);
    auto& w = words[static_cast<size_t>(i / 64)];
    w = (b < 64 && ((value >> b) & 1U)) ? (w | m) : (w & ~m);
  }
}

void CopyInputs(const std::vector<PortInfo>& ports, const PortValues& in, DriveValues& v) {
  for (size_t i = 0; i < ports.size(); ++i) {
    if (ports[i].dir != PortDir::kInput || ports[i].role == "clock")
      continue;
    for (size_t w = 0; w < v[i].size() && w < in[i].words().size(); ++w)
      v[i][w] = in[i].words()[w];
  }
}

void RandomBits(std::vector<uint64_t>& words, int lo, int width, ActivityRng& rng) {
  for (int b = 0; b < width; b += 64)
    SetBits(words, lo + b, std::min(64, width - b), rng());
}

namespace {

// Drives plain read and write ports from their manifest roles.
class ReadWritePortDriver final : public ActivityDriver {
 public:
  ReadWritePortDriver(const GeneratedStructure& g, int entries) : entries_(entries) {
    if (entries < 1)
      throw ToolError(fmt::format("{}: read/write activity driver needs entries >= 1", g.top));
    for (size_t i = 0; i < g.ports.size(); ++i) {
      const PortInfo& p = g.ports[i];
      const int idx = static_cast<int>(i);
      if (p.dir == PortDir::kOutput)
        continue;
      if (p.role == "clock") {
        continue;
      } else if (p.role == "reset_n") {
        reset_n_.push_back(idx);
      } else if (p.role == "write_enable") {
        we_ = idx;
      } else if (p.role == "write_address") {
        waddr_ = idx;
      } else if (p.role == "write_data") {
        wdata_ = idx;
      } else if (p.role == "read_address") {
        raddr_ = idx;
      } else if (p.role == "read_enable") {
        re_ = idx;
      } else {
        throw ToolError(fmt::format(
            "{} ({}): input port {} has role '{}', which the read/write-port activity driver "
            "does not drive; register an ActivityDriver for kind '{}' (synth/activity_driver.h)",
            g.top, g.kind, p.name, p.role, g.kind));
      }
    }
    if (raddr_ < 0 && waddr_ < 0)
      throw ToolError(fmt::format("{}: no read_address or write_address port to drive", g.top));
    if (waddr_ >= 0 && (we_ < 0 || wdata_ < 0))
      throw ToolError(fmt::format("{}: write_address without write_enable/write_data", g.top));
    if (raddr_ >= 0) {
      reads_ = g.ports[static_cast<size_t>(raddr_)].count;
      raw_ = g.ports[static_cast<size_t>(raddr_)].slice_width();
    }
    if (waddr_ >= 0) {
      writes_ = g.ports[static_cast<size_t>(waddr_)].count;
      waw_ = g.ports[static_cast<size_t>(waddr_)].slice_width();
      dw_ = g.ports[static_cast<size_t>(wdata_)].slice_width();
    }
  }

  void Reset(DriveValues& v) override {
    for (auto& w : v)
      std::fill(w.begin(), w.end(), 0);
    for (const int r : reset_n_)
      SetBits(v[static_cast<size_t>(r)], 0, 1, 0);
  }

  uint64_t WarmupCycles() const override {
    return writes_ > 0 ? static_cast<uint64_t>((entries_ + writes_ - 1) / writes_) : 0;
  }

  void Warmup(uint64_t cycle, ActivityRng& rng, DriveValues& v) override {
    Release(v);
    // Every entry once, in order, with random data.
    for (int w = 0; w < writes_; ++w) {
      const int e = static_cast<int>(cycle) * writes_ + w;
      const bool on = e < entries_;
      SetBits(v[static_cast<size_t>(we_)], w, 1, on ? 1 : 0);
      if (on) {
        SetBits(v[static_cast<size_t>(waddr_)], w * waw_, waw_, static_cast<uint64_t>(e));
        RandomBits(v[static_cast<size_t>(wdata_)], w * dw_, dw_, rng);
      }
    }
    if (re_ >= 0)
      SetBits(v[static_cast<size_t>(re_)], 0, reads_, 0);
  }

  void Drive(const StimulusSet& set, ActivityRng& rng, DriveValues& v,
             AccessCounts& counts) override {
    Release(v);
    const bool mixed = set == kMixedSet;
    const bool reads = set == kReadsSet;
    const bool writes = set == kWritesSet;
    for (int r = 0; r < reads_; ++r) {
      const bool on = reads || (mixed && (rng() & 1U));
      if (re_ >= 0)
        SetBits(v[static_cast<size_t>(re_)], r, 1, on ? 1 : 0);
      if (on) {
        SetBits(v[static_cast<size_t>(raddr_)], r * raw_, raw_, Address(rng));
        ++counts[kReadComponent];
      }
    }
    for (int w = 0; w < writes_; ++w) {
      const bool on = writes || (mixed && (rng() & 1U));
      SetBits(v[static_cast<size_t>(we_)], w, 1, on ? 1 : 0);
      if (on) {
        SetBits(v[static_cast<size_t>(waddr_)], w * waw_, waw_, Address(rng));
        RandomBits(v[static_cast<size_t>(wdata_)], w * dw_, dw_, rng);
        ++counts[kWriteComponent];
      }
    }
  }

 private:
  void Release(DriveValues& v) {
    for (const int r : reset_n_)
      SetBits(v[static_cast<size_t>(r)], 0, 1, 1);
  }
  uint64_t Address(ActivityRng& rng) {
    return std::uniform_int_distribution<uint64_t>(0, static_cast<uint64_t>(entries_ - 1))(rng);
  }

  int entries_;
  std::vector<int> reset_n_;
  int we_ = -1, waddr_ = -1, wdata_ = -1, raddr_ = -1, re_ = -1;
  int reads_ = 0, writes_ = 0, raw_ = 0, waw_ = 0, dw_ = 0;
};

int EntriesParameter(const GeneratedStructure& g) {
  if (g.parameters.contains("entries")) {
    const auto& e = g.parameters["entries"];
    if (e.is_number_integer())
      return e.get<int>();
    if (e.is_string())
      return std::stoi(e.get<std::string>());
  }
  throw ToolError(
      fmt::format("{} ({}): no 'entries' parameter to draw addresses from", g.top, g.kind));
}

}  // namespace

std::unique_ptr<ActivityDriver> MakeReadWritePortDriver(const GeneratedStructure& g, int entries) {
  return std::make_unique<ReadWritePortDriver>(g, entries);
}

bool HasActivityDriver(const std::string& kind) {
  return Registry<ActivityFamily>::Get().Find(kind) != nullptr;
}

std::string ActivityDriverVersion(const std::string& kind) {
  const ActivityFamily* f = Registry<ActivityFamily>::Get().Find(kind);
  return f != nullptr ? f->version : "";
}

std::unique_ptr<ActivityDriver> MakeActivityDriver(const GeneratedStructure& g) {
  const ActivityFamily* f = Registry<ActivityFamily>::Get().Find(g.kind);
  if (f == nullptr)
    throw ToolError(
        fmt::format("{}: no activity driver for structure kind '{}' (a family "
                    "registers one: docs/adding-a-structure.md)",
                    g.top, g.kind));
  return f->make(g);
}

// The driver of the structures with plain read and write ports; the ORF levels register theirs in
// orf_driver.cc, the handshake structures in model_drivers.cc.
GPURF_REGISTER(ActivityFamily, flop_array, "flop-array",
               (ActivityFamily{[](const GeneratedStructure& g) {
                                 return MakeReadWritePortDriver(g, EntriesParameter(g));
                               },
                               ""}))
}  // namespace gpurf
