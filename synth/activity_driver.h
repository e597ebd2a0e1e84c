// Stimulus for switching-activity characterization, pluggable per structure kind.
//
// The gate-level simulator (gate_sim.h) owns the clock; an ActivityDriver sets every other input
// port each cycle for one of four stimulus sets and counts the accesses it makes:
//   idle    clock only: every other input holds its value, no access;
//   reads   every read port reads a uniformly random address every cycle, no write;
//   writes  every write port writes uniformly random data to a uniformly random address every
//           cycle, read addresses hold;
//   mixed   each read port and each write port independently does its access with
//           probability 1/2 in each cycle (otherwise it holds its inputs / is disabled).
// The three non-idle sets make the least-squares system for E_read and E_write (characterize.h).
// A driver may add sets (ExtraSets) and count further access components (AccessCounts): the RFC
// adds a `misses` set (operand lookups of registers it does not hold: tag checks without data
// reads) and, with two levels, an `l0-reads` set (lookups that hit in L0 or miss), and counts
// tag checks and L0 hits, so that the fit separates E_tag and E_read(L0).
// What a read and a write mean for a kind (an operand read through the MRF's collectors, an
// issue of the warp scheduler, ...) is the driver's Semantics(), written into the reports.
//
// Drivers are found by structure kind. The read/write-port driver works from the manifest's port
// roles alone (clock, reset_n, write_enable, write_address, write_data, read_address,
// read_enable, read_data) and serves flop-array; the ORF driver addresses (slot, entry) rows of
// orf-l1 and orf-l0; a structure whose ports are not plain read and write ports (a scheduler, a
// tagged cache with handshakes) has its own driver (model_drivers.cc). Each family registers its
// driver as an ActivityFamily in the file that implements it (base/registry.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/registry.h"
#include "gen/output/artifact.h"

namespace gpurf {

enum class StimulusSet { kIdle, kReads, kWrites, kMixed, kMisses, kL0Reads };
const char* StimulusSetName(StimulusSet s);

// Accesses made in a stimulus set. `reads` and `writes` are the two components of every kind;
// `tag_checks` (operand lookups of a tagged cache, hit or miss) and `l0_reads` (hits in the upper
// level of a two-level cache, whose data array is another one) stay zero for other kinds, and
// the fit leaves a component out when no set made any.
struct AccessCounts {
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t tag_checks = 0;
  uint64_t l0_reads = 0;
};

// What each counted component means for a kind (for reports); empty: the component is unused.
struct AccessSemantics {
  std::string read = "one read port presenting a new random address";
  std::string write = "one write port writing random data to a random address";
  std::string tag_check;
  std::string l0_read;
};

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
  virtual void Drive(StimulusSet set, ActivityRng& rng, DriveValues& v, AccessCounts& counts) = 0;
  // Stimulus sets beyond idle/reads/writes/mixed that this driver defines (run after them).
  virtual std::vector<StimulusSet> ExtraSets() const { return {}; }
  virtual AccessSemantics Semantics() const { return {}; }
};

using ActivityDriverFactory =
    std::function<std::unique_ptr<ActivityDriver>(const GeneratedStructure&)>;

// The activity layer of a structure family.
struct ActivityFamily {
  ActivityDriverFactory make;
  // Part of the characterization cache key: bumped whenever the driver's stimulus changes, so
  // that results cached with the old stimulus are not reused ("" = the driver has no version).
  std::string version;
};

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

}  // namespace gpurf
