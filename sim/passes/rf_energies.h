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
#include <string>

namespace gpurf::sim::passes {

// Register-file level of an operand or a result copy.
enum class RfLevel : uint8_t { kMrf = 0, kL1 = 1, kL0 = 2 };
const char* RfLevelName(RfLevel l);

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
