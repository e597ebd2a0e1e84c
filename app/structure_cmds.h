// The structure commands of gpurf on one target (a design point or a single structure): gen,
// lint, verify, synth, characterize, and `gpurf flow`, which chains them (generate, lint,
// verify, synthesize, characterize, energies) into one output folder, marked incomplete until
// every step has run. Each returns the process exit code (base/diag.h).
#pragma once

#include <string>
#include <vector>

#include "app/target.h"
#include "synth/characterize.h"
#include "synth/synth.h"
#include "verif/verify.h"

namespace gpurf {

// Warns about the design's structures that are described but not generated.
void ReportSkipped(const Target& t);

// `flow`: the RTL is the first step of a flow (the folder is marked incomplete).
int CmdGen(const Target& t, const std::string& out_dir, bool flow = false);
// `keep`: a folder to keep the lint work in ("" = a temporary one).
int CmdLint(const Target& t, const std::string& keep);
int VerifyAll(const std::vector<TargetStructure>& structures, const VerifyOptions& opt);
int CmdSynth(const Target& t, const std::string& liberty, const std::string& out_dir,
             const SynthOptions& opt);
// `target` and `extras`: design files or structure kinds; `gebhart`: also Gebhart's Table IV
// arrays and the side-by-side comparison.
int CmdCharacterize(const std::string& target, const std::vector<std::string>& extras, bool gebhart,
                    const std::string& liberty, const std::string& out_dir,
                    const CharacterizeOptions& opt);
int CmdFlow(const Target& t, const std::string& out_dir, const VerifyOptions& vopt,
            const CharacterizeOptions& copt);

}  // namespace gpurf
