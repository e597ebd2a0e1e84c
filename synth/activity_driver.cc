#include "synth/activity_driver.h"

#include <fmt/format.h>

#include <map>

#include "base/diag.h"

namespace gpurf {

const char* StimulusSetName(StimulusSet s) {
  switch (s) {
    case StimulusSet::kIdle:
      return "idle";
    case StimulusSet::kReads:
      return "reads";
    case StimulusSet::kWrites:
      return "writes";
    case StimulusSet::kMixed:
      return "mixed";
    case StimulusSet::kMisses:
      return "misses";
    case StimulusSet::kL0Reads:
      return "l0-reads";
  }
  return "?";
}

void SetBits(std::vector<uint64_t>& words, int lo, int width, uint64_t value) {
  for (int b = 0; b < width; ++b) {
    const int i = lo + b;
    const uint64_t m = uint64_t{1} << (i % 64);
    auto& w = words[static_cast<size_t>(i / 64)];
    w = (b < 64 && ((value >> b) & 1U)) ? (w | m) : (w & ~m);
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

  void Drive(StimulusSet set, ActivityRng& rng, DriveValues& v, AccessCounts& counts) override {
    Release(v);
    const bool mixed = set == StimulusSet::kMixed;
    for (int r = 0; r < reads_; ++r) {
      const bool on = set == StimulusSet::kReads || (mixed && (rng() & 1U));
      if (re_ >= 0)
        SetBits(v[static_cast<size_t>(re_)], r, 1, on ? 1 : 0);
      if (on) {
        SetBits(v[static_cast<size_t>(raddr_)], r * raw_, raw_, Address(rng));
        ++counts.reads;
      }
    }
    for (int w = 0; w < writes_; ++w) {
      const bool on = set == StimulusSet::kWrites || (mixed && (rng() & 1U));
      SetBits(v[static_cast<size_t>(we_)], w, 1, on ? 1 : 0);
      if (on) {
        SetBits(v[static_cast<size_t>(waddr_)], w * waw_, waw_, Address(rng));
        RandomBits(v[static_cast<size_t>(wdata_)], w * dw_, dw_, rng);
        ++counts.writes;
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

// Drives a software-managed ORF level (orf-l1, orf-l0; gen/structures/orf): rows are addressed by
// (active slot, entry) from the instruction, with no tags. Reads draw a uniformly random slot and
// entry (in a split L0, read port k reads operand-slot bank k, as the datapath does); writes a
// uniformly random slot and entry with random data. The invalidation port is a checker input
// (descheduling) and stays idle: the ORF's storage does not see it.
class OrfDriver final : public ActivityDriver {
 public:
  OrfDriver(const GeneratedStructure& g, int slots, int entries, bool split)
      : slots_(slots), entries_(entries), split_(split) {
    for (size_t i = 0; i < g.ports.size(); ++i) {
      const PortInfo& p = g.ports[i];
      const int idx = static_cast<int>(i);
      if (p.dir == PortDir::kOutput || p.role == "clock")
        continue;
      if (p.role == "reset_n")
        reset_n_.push_back(idx);
      else if (p.role == "write_enable")
        we_ = idx;
      else if (p.role == "write_slot")
        wslot_ = idx;
      else if (p.role == "write_entry")
        wentry_ = idx;
      else if (p.role == "write_data")
        wdata_ = idx;
      else if (p.role == "read_enable")
        re_ = idx;
      else if (p.role == "read_slot")
        rslot_ = idx;
      else if (p.role == "read_entry")
        rentry_ = idx;
      else if (p.role == "invalidate" || p.role == "invalidate_slot")
        idle_.push_back(idx);
      else
        throw ToolError(
            fmt::format("{} ({}): input port {} has role '{}', which the ORF activity "
                        "driver does not drive",
                        g.top, g.kind, p.name, p.role));
    }
    if (we_ < 0 || wslot_ < 0 || wentry_ < 0 || wdata_ < 0 || re_ < 0 || rslot_ < 0 || rentry_ < 0)
      throw ToolError(fmt::format("{} ({}): ORF port roles incomplete", g.top, g.kind));
    reads_ = g.ports[static_cast<size_t>(rslot_)].count;
    sw_ = g.ports[static_cast<size_t>(wslot_)].slice_width();
    ew_ = g.ports[static_cast<size_t>(wentry_)].slice_width();
    rsw_ = g.ports[static_cast<size_t>(rslot_)].slice_width();
    rew_ = g.ports[static_cast<size_t>(rentry_)].slice_width();
    dw_ = g.ports[static_cast<size_t>(wdata_)].slice_width();
  }

  void Reset(DriveValues& v) override {
    for (auto& w : v)
      std::fill(w.begin(), w.end(), 0);
  }
  uint64_t WarmupCycles() const override { return static_cast<uint64_t>(slots_ * entries_); }
  void Warmup(uint64_t cycle, ActivityRng& rng, DriveValues& v) override {
    Release(v);
    const auto row = static_cast<int>(cycle);
    Write(v, rng, row / entries_, row % entries_);
    SetBits(v[static_cast<size_t>(re_)], 0, reads_, 0);
  }
  void Drive(StimulusSet set, ActivityRng& rng, DriveValues& v, AccessCounts& counts) override {
    Release(v);
    const bool mixed = set == StimulusSet::kMixed;
    for (int r = 0; r < reads_; ++r) {
      const bool on = set == StimulusSet::kReads || (mixed && (rng() & 1U));
      SetBits(v[static_cast<size_t>(re_)], r, 1, on ? 1 : 0);
      if (on) {
        SetBits(v[static_cast<size_t>(rslot_)], r * rsw_, rsw_, Pick(rng, slots_));
        SetBits(v[static_cast<size_t>(rentry_)], r * rew_, rew_,
                split_ ? static_cast<uint64_t>(r) : Pick(rng, entries_));
        ++counts.reads;
      }
    }
    const bool wr = set == StimulusSet::kWrites || (mixed && (rng() & 1U));
    SetBits(v[static_cast<size_t>(we_)], 0, 1, wr ? 1 : 0);
    if (wr) {
      Write(v, rng, static_cast<int>(Pick(rng, slots_)), static_cast<int>(Pick(rng, entries_)));
      ++counts.writes;
    }
  }
  AccessSemantics Semantics() const override {
    AccessSemantics s;
    s.read = split_ ? "one operand read of a random slot's entry in its operand-slot bank"
                    : "one operand read of a random (slot, entry)";
    s.write = "one result write of random data to a random (slot, entry)";
    return s;
  }

 private:
  void Release(DriveValues& v) {
    for (const int r : reset_n_)
      SetBits(v[static_cast<size_t>(r)], 0, 1, 1);
    for (const int i : idle_)
      std::fill(v[static_cast<size_t>(i)].begin(), v[static_cast<size_t>(i)].end(), 0);
  }
  void Write(DriveValues& v, ActivityRng& rng, int slot, int entry) {
    SetBits(v[static_cast<size_t>(we_)], 0, 1, 1);
    SetBits(v[static_cast<size_t>(wslot_)], 0, sw_, static_cast<uint64_t>(slot));
    SetBits(v[static_cast<size_t>(wentry_)], 0, ew_, static_cast<uint64_t>(entry));
    RandomBits(v[static_cast<size_t>(wdata_)], 0, dw_, rng);
  }
  static uint64_t Pick(ActivityRng& rng, int n) {
    return std::uniform_int_distribution<uint64_t>(0, static_cast<uint64_t>(n - 1))(rng);
  }

  int slots_, entries_;
  bool split_;
  std::vector<int> reset_n_, idle_;
  int we_ = -1, wslot_ = -1, wentry_ = -1, wdata_ = -1, re_ = -1, rslot_ = -1, rentry_ = -1;
  int reads_ = 0, sw_ = 0, ew_ = 0, rsw_ = 0, rew_ = 0, dw_ = 0;
};

int IntParameter(const GeneratedStructure& g, const char* name) {
  if (!g.parameters.contains(name) || !g.parameters[name].is_number_integer())
    throw ToolError(fmt::format("{} ({}): no integer '{}' parameter", g.top, g.kind, name));
  return g.parameters[name].get<int>();
}

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

// The drivers of the structures with plain read and write ports; the handshake structures
// register theirs in model_drivers.cc.
GPURF_REGISTER(ActivityFamily, flop_array, "flop-array",
               (ActivityFamily{[](const GeneratedStructure& g) {
                                 return MakeReadWritePortDriver(g, EntriesParameter(g));
                               },
                               ""}))
GPURF_REGISTER(ActivityFamily, orf_l1, "orf-l1",
               (ActivityFamily{[](const GeneratedStructure& g) -> std::unique_ptr<ActivityDriver> {
                                 return std::make_unique<OrfDriver>(
                                     g, IntParameter(g, "active_warps"),
                                     IntParameter(g, "entries_per_thread"), false);
                               },
                               ""}))
GPURF_REGISTER(ActivityFamily, orf_l0, "orf-l0",
               (ActivityFamily{[](const GeneratedStructure& g) -> std::unique_ptr<ActivityDriver> {
                                 const bool split = g.parameters.value("split", false);
                                 return std::make_unique<OrfDriver>(
                                     g, IntParameter(g, "active_warps"), split ? 3 : 1, split);
                               },
                               ""}))

}  // namespace gpurf
