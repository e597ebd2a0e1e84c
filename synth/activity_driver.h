// Stimulus for switching-activity characterization, pluggable per structure kind.
//
// The gate-level simulator (gate_sim.h) owns the clock; an ActivityDriver sets every other input
// port each cycle for one stimulus set and counts the accesses it makes. Every driver runs four
// sets, in this order:
//   idle    clock only: every other input holds its value, no access;
//   reads   every read port reads a uniformly random address every cycle, no write;
//   writes  every write port writes uniformly random data to a uniformly random address every
//           cycle, read addresses hold;
//   mixed   each read port and each write port independently does its access with
//           probability 1/2 in each cycle (otherwise it holds its inputs / is disabled).
// The three non-idle sets make the least-squares system for E_read and E_write (characterize.h).
//
// What a driver counts are its access components, declared by name with what one access means
// for its kind (Components(), written into the reports): "read" and "write" first, as every kind
// has them (an operand read through the MRF's collectors, an issue of the warp scheduler, ...),
// then any of the family's own (a tagged cache's operand lookups, say). A driver that counts
// further components adds stimulus sets of its own by name (ExtraSets) so that the fit can
// separate every component; the fit solves for each component the driver declared.
//
// Drivers are found by structure kind. The read/write-port driver works from the manifest's port
// roles alone (clock, reset_n, write_enable, write_address, write_data, read_address,
// read_enable, read_data) and serves flop-array; a structure whose ports are not plain read and
// write ports has its own driver (orf_driver.cc, model_drivers.cc). Each family registers its
// driver as an ActivityFamily in the file that implements it (base/registry.h).
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/diag.h"
#include "base/registry.h"
#include "gen/output/artifact.h"
#include "gen/structures/registry.h"
#include "models/cycle_model.h"

namespace gpurf {

// A stimulus set, by name: one of the four every driver runs or one a driver adds.
using StimulusSet = std::string;
inline constexpr const char* kIdleSet = "idle";
inline constexpr const char* kReadsSet = "reads";
inline constexpr const char* kWritesSet = "writes";
inline constexpr const char* kMixedSet = "mixed";
// The four sets every driver runs, in their order.
std::vector<StimulusSet> StandardStimulusSets();

// One access component a driver counts and the fit prices.
struct AccessComponent {
  std::string name;     // "read", "write", or the family's own
  std::string meaning;  // what one access is for this kind (reports)
  // The key of its energy in characterize-v2 results when that was not "e_<name>_pj" (those
  // files named the components e_<name>_pj / <name>s, characterize.h reads them).
  std::string v2_energy_key;
};

// Every driver's first two components.
inline constexpr size_t kReadComponent = 0;
inline constexpr size_t kWriteComponent = 1;
// The read and write of a plain read/write-port structure.
std::vector<AccessComponent> ReadWriteComponents();

// Accesses made in a stimulus set, one count per component of the driver (Components() order).
using AccessCounts = std::vector<uint64_t>;

// Input values of one cycle, one entry per manifest port (GeneratedStructure::ports order), as
// little-endian 64-bit words. Output ports and the clock are ignored.
using DriveValues = std::vector<std::vector<uint64_t>>;
using ActivityRng = std::mt19937_64;

class ActivityDriver {
 public:
  virtual ~ActivityDriver() = default;
  // Inputs during reset (the simulator holds them for a few cycles), reset asserted.
  virtual void Reset(DriveValues& v) = 0;
  // Unmeasured cycles that bring the structure into a representative state (e.g. fill every
  // entry with random data), and the inputs of cycle `cycle` of them.
  virtual uint64_t WarmupCycles() const = 0;
  virtual void Warmup(uint64_t cycle, ActivityRng& rng, DriveValues& v) = 0;
  // Inputs of one measured cycle of `set`; adds the accesses made to `counts`.
  // `counts` has one entry per component.
  virtual void Drive(const StimulusSet& set, ActivityRng& rng, DriveValues& v,
                     AccessCounts& counts) = 0;
  // Stimulus sets beyond idle/reads/writes/mixed that this driver defines (run after them).
  virtual std::vector<StimulusSet> ExtraSets() const { return {}; }
  // The components it counts: "read" and "write" first (kReadComponent, kWriteComponent).
  virtual std::vector<AccessComponent> Components() const { return ReadWriteComponents(); }
};

using ActivityDriverFactory =
    std::function<std::unique_ptr<ActivityDriver>(const GeneratedStructure&)>;

// The structure's spec rebuilt from its manifest parameters (the values the generator used).
template <typename Spec>
Spec SpecOf(const GeneratedStructure& g) {
  const StructureKind* k = FindStructureKind(g.kind);
  if (k == nullptr)
    throw ToolError(fmt::format("{}: unknown structure kind '{}'", g.top, g.kind));
  ParamSet ps(k->params);
  for (auto it = g.parameters.begin(); it != g.parameters.end(); ++it) {
    const auto& v = it.value();
    const std::string text = v.is_string()    ? v.get<std::string>()
                             : v.is_boolean() ? (v.get<bool>() ? "true" : "false")
                                              : v.dump();
    // Values at their default stay defaulted (cross-field checks reject some given explicitly,
    // e.g. l0_entries of a one-level RFC).
    const ParamDesc* d = ps.Find(it.key());
    if (d != nullptr && d->default_value == text)
      continue;
    ps.Set(it.key(), text, {}, it.key());
  }
  const StructureSpec spec = k->make_spec(ps);
  if (spec.If<Spec>() == nullptr)
    throw ToolError(fmt::format("{}: parameters do not describe a {}", g.top, g.kind));
  return SpecAs<Spec>(spec);
}

// The activity layer of a structure family.
struct ActivityFamily {
  ActivityDriverFactory make;
  // Part of the characterization cache key: bumped whenever the driver's stimulus changes, so
  // that results cached with the old stimulus are not reused ("" = the driver has no version).
  std::string version;
};

// The family of a driver class constructed from the generated structure alone.
template <class Driver>
ActivityFamily DriverFamily(std::string version) {
  return ActivityFamily{[](const GeneratedStructure& g) -> std::unique_ptr<ActivityDriver> {
                          return std::make_unique<Driver>(g);
                        },
                        std::move(version)};
}

bool HasActivityDriver(const std::string& kind);
std::string ActivityDriverVersion(const std::string& kind);
// The driver of g.kind; ToolError naming the kind when none is registered.
std::unique_ptr<ActivityDriver> MakeActivityDriver(const GeneratedStructure& g);

// The role-based read/write-port driver. Addresses are drawn from [0, entries); ToolError when a
// port has a role it does not know.
std::unique_ptr<ActivityDriver> MakeReadWritePortDriver(const GeneratedStructure& g, int entries);

// Bit helpers on little-endian word vectors (public for drivers of other kinds).
void SetBits(std::vector<uint64_t>& words, int lo, int width, uint64_t value);
void RandomBits(std::vector<uint64_t>& words, int lo, int width, ActivityRng& rng);
// The values of the input ports of `ports` (all but the clock) copied into `v` (one entry per
// port, as DriveValues): how a driver that runs a golden model hands its inputs on.
void CopyInputs(const std::vector<PortInfo>& ports, const PortValues& in, DriveValues& v);

}  // namespace gpurf
