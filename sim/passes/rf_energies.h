// Per-access energies of the register-file levels, as the ORF allocator and the access-count
// energy estimates use them. Values are for one 128-bit row access (four 32-bit lanes, the unit
// of Gebhart's Tables IV and V) plus the wire energy of moving the 128 bits between the level and
// the unit that reads or writes it.
//
// Defaults: Gebhart et al. (TOCS 2012) Table V (MRF 8/11 pJ, L0 0.7/2 pJ, 1.9 pJ/mm per 32 bits,
// distances MRF 1 mm, L1 0.2 mm / 0.4 mm to private / shared units, L0 0.05 mm) and Table IV for
// the L1 ORF, looked up by its total rows (entries per thread x active warps; the table's
// energies depend only on that product: 4x6 and 6x4 agree) and interpolated linearly between
// 16, 24, 32, 36, 48 and 64 rows, clamped outside.
//
// A characterization JSON (the per-access energies measured by gpurf's own flow) overrides any
// subset:
//   { "source": "text",
//     "mrf":  {"read_pj": 8.0, "write_pj": 11.0},
//     "l1":   {"read_pj": 1.2, "write_pj": 4.4},
//     "l0":   {"read_pj": 0.7, "write_pj": 2.0},
//     "rfc":  {"tag_pj": 0.26},                (tag check per operand lookup of a HW RFC)
//     "wire": {"pj_per_mm_32bit": 1.9, "mrf_private_mm": 1.0, "mrf_shared_mm": 1.0,
//              "l1_private_mm": 0.2, "l1_shared_mm": 0.4, "l0_private_mm": 0.05} }
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gpurf::sim::passes {

// Register-file level of an operand or a result copy.
enum class RfLevel : uint8_t { kMrf = 0, kL1 = 1, kL0 = 2 };
const char* RfLevelName(RfLevel l);

// One structure's own characterization: a module of the characterization.json `gpurf
// characterize` writes (synth/characterize_report.h), at the node it was scaled to. Components
// are per access as the family's activity driver defines them (README, each family's
// "Characterization components"), the gate-level logic only; a module whose data array is an
// SRAM macro cut out of the gate-level simulation adds the SRAM model's per bank access
// (`sram_macro`) to its reads and writes, kept apart here so that a hierarchy can rescale it to
// its own geometry (ReadPj / WritePj).
struct StructureCharacterization {
  std::string file;                              // where it was read
  int index = 0;                                 // its position in the file's `modules`
  std::string kind;                              // "pcrf"
  std::string module;                            // "rf_pcrf_64x128b_c16_h4p_e4a822"
  std::map<std::string, double> parameters;      // its numeric structure parameters
  int node_nm = 0;                               // the node of the energies (the scaled target)
  std::map<std::string, double> components;      // pJ per access at node_nm, logic only
  double macro_read_pj = 0, macro_write_pj = 0;  // SRAM model per bank access at node_nm

  // "gpurf characterize pcrf (entries 64, ...; 40 nm), FILE".
  std::string Source() const;
  // The component's pJ; InputError (file, `modules[i].scaled.components.NAME`, the components
  // there are) when the characterization has none of that name.
  double Component(const std::string& name) const;
  bool Has(const std::string& name) const { return components.count(name) > 0; }
  // The parameter's value; InputError (file, `modules[i].parameters.NAME`) when missing.
  double Parameter(const std::string& name) const;
  // "read" / "write" plus the SRAM macro's access with its energy scaled by `macro_scale`.
  double ReadPj(double macro_scale = 1) const;
  double WritePj(double macro_scale = 1) const;
};

// Reads the characterization.json `gpurf characterize` writes. InputError (file:line:column for
// syntax errors; the key path, value and what is allowed otherwise) when the file is missing,
// is not such a report, or has a module without scaled energies (`--no-scale`).
std::vector<StructureCharacterization> LoadStructureCharacterizations(const std::string& path);
std::vector<StructureCharacterization> ParseStructureCharacterizations(const std::string& text,
                                                                       const std::string& file);

struct RegisterFileEnergies {
  double mrf_read_pj = 8.0, mrf_write_pj = 11.0;
  double l1_read_pj = 1.2, l1_write_pj = 4.4;
  double l0_read_pj = 0.7, l0_write_pj = 2.0;
  double wire_pj_per_mm_32bit = 1.9;
  double mrf_private_mm = 1.0, mrf_shared_mm = 1.0;
  double l1_private_mm = 0.2, l1_shared_mm = 0.4;
  double l0_private_mm = 0.05;  // the L0 is never wired to the shared units
  double rfc_tag_pj = -1;       // per lookup; < 0: not given (the energy model's default)
  std::string source = "Gebhart TOCS 2012 Tables IV and V";
  // Structures' own characterizations (`--characterization`), at most one per kind; a
  // hierarchy prices the structures it has from them (HarnessHierarchy::characterized_kinds).
  std::vector<StructureCharacterization> structures;
  // The characterization of `kind`, nullptr when none was given.
  const StructureCharacterization* Structure(const std::string& kind) const;

  // Access plus wire energy of one 128-bit access by a private (ALU) or shared unit.
  double Read(RfLevel level, bool shared_unit) const;
  double Write(RfLevel level, bool shared_unit) const;
};

// Gebhart's defaults with the L1 ORF energy for `l1_entries_per_thread` x `active_warps` rows.
RegisterFileEnergies GebhartEnergies(int l1_entries_per_thread = 3, int active_warps = 8);

// Reads a characterization JSON over `base`. Throws InputError (file:line:column for syntax
// errors; the key path, value and what is allowed otherwise) on bad input or a missing file.
RegisterFileEnergies LoadRegisterFileEnergies(const std::string& path,
                                              const RegisterFileEnergies& base);
RegisterFileEnergies ParseRegisterFileEnergies(const std::string& text, const std::string& file,
                                               const RegisterFileEnergies& base);

}  // namespace gpurf::sim::passes
