// Malformed input to the workload / simulation side of the real gpurf binary, one row per case:
// launch files, PTX snippets, Accel-Sim trace lines and the flags of `workload analyze`,
// `compile`, `sim` and `energy`. Each row builds its files in a folder of its own, runs gpurf and
// expects an exit code and a fragment of the message (stderr). Every row must pass: none may
// crash (exit 134/139), hang, or exit 0/1 on bad input.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/tests/cli_fixture.h"

namespace gpurf {
namespace {

namespace fs = std::filesystem;

const std::string kSrc = GPURF_SOURCE_DIR;
const std::string kCorpus = kSrc + "/workloads/corpus";
const std::string kTrace = kSrc + "/workloads/accelsim/vectoradd";
const std::string kFermi = kSrc + "/configs/fermi_gebhart.yaml";
const std::string kMrfOnly = kSrc + "/configs/examples/mrf_only.yaml";
const std::string kSmall = kSrc + "/configs/examples/small_arrays.yaml";

using Files = std::map<std::string, std::string>;  // path in the case folder -> contents
using Edits = std::vector<std::pair<std::string, std::string>>;

std::string Apply(std::string text, const Edits& edits) {
  for (const auto& [from, to] : edits) {
    const size_t at = text.find(from);
    if (at == std::string::npos)
      throw std::logic_error("test table: '" + from + "' not in the base text");
    text.replace(at, from.size(), to);
  }
  return text;
}

// A corpus workload's launch.yaml and PTX, edited.
Files Workload(const std::string& name, const Edits& launch_edits, const Edits& ptx_edits = {}) {
  return {
      {"w/launch.yaml", Apply(test::Slurp(kCorpus + "/" + name + "/launch.yaml"), launch_edits)},
      {"w/" + name + ".ptx",
       Apply(test::Slurp(kCorpus + "/" + name + "/" + name + ".ptx"), ptx_edits)}};
}
Files VecAdd(const Edits& launch_edits, const Edits& ptx_edits = {}) {
  return Workload("vectorAdd", launch_edits, ptx_edits);
}
// The vectoradd Accel-Sim trace, its .traceg edited.
Files Trace(const Edits& edits) {
  return {{"t/kernelslist.g", test::Slurp(kTrace + "/kernelslist.g")},
          {"t/kernel-1.traceg", Apply(test::Slurp(kTrace + "/kernel-1.traceg"), edits)}};
}

const Edits kNoReference = {{"reference: vectorAdd\n", ""},
                            {"outputs:\n  - {buffer: c, tolerance: 0}\n", ""}};
// vectorAdd's PTX with an endless loop before the ret.
const Edits kEndless = {{"$L__BB0_2:\n\tret;",
                         "$L__BB0_2:\n\tadd.s32 %r2, %r2, 1;\n"
                         "\tbra.uni $L__BB0_2;\n\tret;"}};

struct Case {
  std::string name;
  Files files;
  std::string args;  // {d} = the case folder
  int code;
  std::string fragment;  // expected in stderr
};

std::vector<Case> Cases() {
  const std::string an = "workload analyze {d}/w/launch.yaml";
  const std::string cp = "compile {d}/w/launch.yaml --config " + kFermi;
  const std::string tr = "workload analyze {d}/t";
  return {
      // ---- reference bounds (heap corruption before): every reference checks its buffers
      {"VecAddNBeyondBuffers", VecAdd({{"c, 4000]", "c, 5000]"}}), an, 2,
       "buffer 'a' holds 4096 elements but reference vectorAdd needs 5000"},
      {"VecAddNBeyondBuffersCompile", VecAdd({{"c, 4000]", "c, 5000]"}}), cp, 2,
       "launch.yaml:7:5: error: buffers[0].count"},
      {"NbodyAccCountOne",
       Workload("nbody", {{"acc, type: f32, count: 1536", "acc, type: f32, count: 1"}}), an, 2,
       "buffer 'acc' holds 1 elements but reference nbody needs 1536"},
      {"BfsRowOffsets257",
       Workload("bfs",
                {{"row_offsets, type: u32, count: 2049", "row_offsets, type: u32, count: 257"}}),
       an, 2, "buffer 'row_offsets' holds 257 elements but reference bfs needs 2049"},
      {"ReductionPartialShort",
       Workload("reduction", {{"partial, type: s32, count: 16", "partial, type: s32, count: 15"}}),
       an, 2, "buffer 'partial' holds 15 elements but reference reduction needs 16"},
      {"TransposeOutShort",
       Workload("transpose", {{"out, type: f32, count: 6144", "out, type: f32, count: 6000"}}), an,
       2, "needs 6144"},
      {"VecAddNegativeN", VecAdd({{"c, 4000]", "c, -1]"}}), an, 2,
       "params[3]: out of range for parameter vectorAdd_param_3 (.u32)"},
      // ---- out-of-bounds kernel accesses (per buffer, not per arena)
      {"KernelOverrunsBufferA",
       VecAdd(Edits{kNoReference[0],
                    kNoReference[1],
                    {"a, type: f32, count: 4096", "a, type: f32, count: 100"}}),
       an, 2, "past the end of buffer 'a'"},
      {"KernelOverrunNamesWarpAndPc",
       VecAdd(Edits{kNoReference[0],
                    kNoReference[1],
                    {"a, type: f32, count: 4096", "a, type: f32, count: 100"}}),
       an, 2, "by warp 3 of CTA (0,0,0), lane 4, instruction"},
      {"ScalarWhereReferenceReadsBuffer", VecAdd({{"[a, b, c, 4000]", "[1, b, c, 4000]"}}), an, 2,
       "params[0]: reference vectorAdd reads this parameter as a buffer"},
      {"ScalarForPointerParam",
       VecAdd(Edits{kNoReference[0], kNoReference[1], {"[a, b, c, 4000]", "[4096, b, c, 4000]"}}),
       an, 2, "below the first buffer"},
      {"MisalignedAccess",
       VecAdd(kNoReference, {{"mul.wide.s32 \t%rd5, %r1, 4;", "mul.wide.s32 \t%rd5, %r1, 2;"}}), an,
       2, "misaligned address"},
      // ---- memory before the runaway guard
      {"EndlessLoopHitsRecordLimit", VecAdd({}, kEndless), an, 2, "raise it with --max-record-mb"},
      {"EndlessLoopLowerLimit", VecAdd({}, kEndless), an + " --max-record-mb 16", 2,
       "exceed the limit of 16 MiB"},
      {"EndlessLoopSim", VecAdd({}, kEndless), "sim " + kMrfOnly + " --workload {d}/w/launch.yaml",
       2, "runaway loop"},
      {"HugeGridRecordLimit", Workload("bfs", {{"grid: [1]", "grid: [256]"}}),
       an + " --max-record-mb 64", 2, "exceed the limit of 64 MiB"},
      // ---- non-regular files
      {"PtxIsDevZero", VecAdd({{"ptx: vectorAdd.ptx", "ptx: /dev/zero"}}), an, 2,
       "launch.yaml:3:6: error: ptx: not a regular file"},
      {"PtxIsAFolder", VecAdd({{"ptx: vectorAdd.ptx", "ptx: ."}}), an, 2, "a folder"},
      {"PtxMissing", VecAdd({{"ptx: vectorAdd.ptx", "ptx: nope.ptx"}}), an, 2,
       "PTX file not found"},
      {"AnalyzeDevZero",
       {},
       "workload analyze /dev/zero",
       2,
       "/dev/zero: error: workload: not a regular file or folder"},
      {"LaunchFileIsAFolder", {{"dir.yaml/x", ""}}, "workload analyze {d}/dir.yaml", 2, "dir.yaml"},
      {"TraceFolderWithoutList", {{"t/x", ""}}, tr, 2, "kernelslist"},
      {"SimWorkloadDevZero",
       {},
       "sim " + kMrfOnly + " --workload /dev/zero",
       2,
       "not a regular file or folder"},
      {"EnergiesDevZero",
       {},
       "compile " + kTrace + " --config " + kFermi + " --energies /dev/zero",
       2,
       "/dev/zero"},
      // ---- launch files
      {"SecondYamlDocument", VecAdd({{"outputs:", "---\noutputs:"}}), an, 2,
       "launch.yaml:12:1: error: launch file: a second YAML document"},
      {"EmptyLaunch", {{"w/launch.yaml", "\n"}}, an, 2, "empty launch file"},
      {"UnknownKey", VecAdd({{"kernel: vectorAdd", "kernal: vectorAdd"}}), an, 2,
       "did you mean 'kernel'"},
      {"MissingKernelKey", VecAdd({{"kernel: vectorAdd\n", ""}}), an, 2, "missing required key"},
      {"GridZero", VecAdd({{"grid: [16]", "grid: [0]"}}), an, 2, "grid[0]: out of range"},
      {"GridFourDims", VecAdd({{"grid: [16]", "grid: [16, 1, 1, 1]"}}), an, 2,
       "expected 1 to 3 dimensions"},
      {"BlockTooLarge", VecAdd({{"block: [256]", "block: [2048]"}}), an, 2,
       "too many threads per CTA"},
      // 2^24 in every dimension: the 64-bit product wraps to 0 unless it saturates.
      {"BlockProductWraps", VecAdd({{"block: [256]", "block: [16777216, 16777216, 16777216]"}}), an,
       2, "launch.yaml:5:8: error: block: too many threads per CTA"},
      {"BlockZAbove64", VecAdd({{"block: [256]", "block: [1, 1, 128]"}}), an, 2,
       "block: block z above 64"},
      {"GridTooManyCtas", VecAdd({{"grid: [16]", "grid: [16777216, 16777216, 16777216]"}}), an, 2,
       "launch.yaml:4:7: error: grid: too many CTAs (got '16777216x16777216x16777216')"},
      {"BadBufferType", VecAdd({{"a, type: f32", "a, type: f16"}}), an, 2, "unknown buffer type"},
      {"BufferCountZero", VecAdd({{"a, type: f32, count: 4096", "a, type: f32, count: 0"}}), an, 2,
       "buffers[0].count: out of range"},
      {"BufferCountNegative", VecAdd({{"a, type: f32, count: 4096", "a, type: f32, count: -5"}}),
       an, 2, "expected a non-negative integer"},
      {"BufferCountHuge", VecAdd({{"a, type: f32, count: 4096", "a, type: f32, count: 1e12"}}), an,
       2, "buffers[0].count"},
      {"DuplicateBuffer", VecAdd({{"name: b,", "name: a,"}}), an, 2, "duplicate buffer name"},
      {"ParamUnknownBuffer", VecAdd({{"[a, b, c, 4000]", "[a, b, x, 4000]"}}), an, 2,
       "neither a number nor a buffer name"},
      {"ParamCountMismatch", VecAdd({{"[a, b, c, 4000]", "[a, b, c]"}}), an, 2,
       "declares 4 parameters"},
      {"BufferForScalarParam", VecAdd({{"[a, b, c, 4000]", "[a, b, c, a]"}}), an, 2,
       "cannot hold a buffer address"},
      {"FractionForIntParam", VecAdd({{"c, 4000]", "c, 4000.5]"}}), an, 2, "an integer is needed"},
      {"UnknownReference", VecAdd({{"reference: vectorAdd", "reference: vectorMul"}}), an, 2,
       "no C++ reference of this name"},
      {"OutputUnknownBuffer", VecAdd({{"{buffer: c,", "{buffer: z,"}}), an, 2,
       "no buffer of this name"},
      {"NegativeTolerance", VecAdd({{"tolerance: 0}", "tolerance: -1}"}}), an, 2,
       "tolerance must be >= 0"},
      {"OutputsWithoutReference", VecAdd({{"reference: vectorAdd\n", ""}}), an, 2,
       "outputs to check need a reference"},
      {"RandomMaxBelowMin", VecAdd({{"min: -1, max: 1}}}", "min: 1, max: -1}}}"}}), an, 2,
       "max is below min"},
      {"KernelNotInPtx", VecAdd({{"kernel: vectorAdd", "kernel: vectorSub"}}), an, 2, "vectorSub"},
      {"YamlSyntaxError", VecAdd({{"grid: [16]", "grid: [16"}}), an, 2, "error: yaml"},
      // ---- PTX
      {"DuplicateEntry",
       VecAdd({}, {{"\t// .globl\tvectorAdd\n",
                    ".visible .entry vectorAdd(\n\t.param .u64 p\n)\n{\n\tret;\n}\n"}}),
       an, 2, "vectorAdd.ptx:20:17: error: .entry: duplicate kernel name"},
      {"PtxDeviceFunction", VecAdd({}, {{"\t// .globl\tvectorAdd\n", ".func f()\n{\n\tret;\n}\n"}}),
       an, 2, "device functions (.func)"},
      {"PtxUnknownOpcode", VecAdd({}, {{"add.f32 \t%f3", "fma.rx.f32 \t%f3"}}), an, 2,
       "vectorAdd.ptx:46:2: error: instruction"},
      {"PtxUndeclaredRegister",
       VecAdd({}, {{"add.f32 \t%f3, %f2, %f1", "add.f32 \t%f3, %f2, %f9"}}), an, 2, "%f9"},
      {"PtxUnknownDirective", VecAdd({}, {{".address_size 64", ".address_size 64\n.foo"}}), an, 2,
       "unknown or unsupported module directive"},
      {"PtxUnterminatedComment", VecAdd({}, {{"\tret;\n\n}", "\tret;\n/* open\n}"}}), an, 2,
       "unterminated block comment"},
      {"PtxUnknownLabel", VecAdd({}, {{"@%p1 bra \t$L__BB0_2;", "@%p1 bra \t$L__BB0_9;"}}), an, 2,
       "$L__BB0_9"},
      {"PtxModuleVariable", VecAdd({}, {{".address_size 64", ".address_size 64\n.global .u32 g;"}}),
       an, 2, "module-scope variables are not supported"},
      {"PtxNoEntry",
       {{"w/launch.yaml", test::Slurp(kCorpus + "/vectorAdd/launch.yaml")},
        {"w/vectorAdd.ptx", ".version 9.0\n.target sm_80\n.address_size 64\n"}},
       an,
       2,
       "no .entry kernel in the file"},
      // ---- Accel-Sim traces
      {"TraceBlockDimZero", Trace({{"-block dim = (1024,1,1)", "-block dim = (0,1,1)"}}), tr, 2,
       "kernel-1.traceg:4:14: error: block dim: dimensions must be positive"},
      {"TraceGridDimZero", Trace({{"-grid dim = (1,1,1)", "-grid dim = (1,0,1)"}}), tr, 2,
       "kernel-1.traceg:3:13: error: grid dim: dimensions must be positive"},
      {"TraceBlockDimTooLarge", Trace({{"-block dim = (1024,1,1)", "-block dim = (1024,2,1)"}}), tr,
       2, "kernel-1.traceg:4:14: error: block dim: more than 1024 threads"},
      {"TraceBlockDimMalformed", Trace({{"-block dim = (1024,1,1)", "-block dim = (1024,1)"}}), tr,
       2, "kernel-1.traceg:4:14: error: block dim: malformed dimensions"},
      {"TraceBlockDimProductWraps",
       Trace({{"-block dim = (1024,1,1)", "-block dim = (4194304,4194304,1048576)"}}), tr, 2,
       "kernel-1.traceg:4:14: error: block dim: more than 1024 threads"},
      {"TraceUnknownOpcode", Trace({{"FADD", "FZZZ"}}), tr, 2, "unknown SASS opcode"},
      {"TraceBadTracerVersion",
       Trace({{"-accelsim tracer version = 4", "-accelsim tracer version = 9"}}), tr, 2,
       "unsupported tracer version"},
      {"TraceMissingKernelName", Trace({{"-kernel name = _Z6vecAddIfEvPT_S1_S1_i\n", ""}}), tr, 2,
       "missing header line '-kernel name"},
      {"TraceListNamesMissingFile",
       {{"t/kernelslist.g", "kernel-7.traceg\n"}, {"t/kernel-1.traceg", ""}},
       tr,
       2,
       "kernel-7.traceg"},
      {"TraceEmptyTraceg", {{"t/k.traceg", ""}}, "workload analyze {d}/t/k.traceg", 2, "k.traceg"},
      // ---- flags
      {"SimActiveWarpsZero",
       {},
       "sim " + kMrfOnly + " --workload vectorAdd --active-warps 0",
       2,
       "--active-warps: out of range (got '0'); allowed: 1 to 64"},
      {"SimActiveWarpsNegative",
       {},
       "sim " + kMrfOnly + " --workload vectorAdd --active-warps -3",
       2,
       "--active-warps"},
      {"EnergyActiveWarps65",
       {},
       "energy " + kMrfOnly + " --workload vectorAdd --active-warps 65",
       2,
       "--active-warps"},
      {"SimActiveWarpsNotANumber",
       {},
       "sim " + kMrfOnly + " --workload vectorAdd --active-warps x",
       2,
       "--active-warps"},
      {"SimMaxRecordZero",
       {},
       "sim " + kMrfOnly + " --workload vectorAdd --max-record-mb 0",
       2,
       "--max-record-mb"},
      {"WorkloadRunRecordLimit",
       {},
       "workload run bitonicSort --max-record-mb 1",
       2,
       "exceed the limit of 1 MiB"},
      {"AnalyzeMaxRecordNegative",
       {},
       "workload analyze vectorAdd --max-record-mb -1",
       2,
       "--max-record-mb"},
      {"AnalyzeKernelNoMatch",
       {},
       "workload analyze vectorAdd --kernel nomatch",
       2,
       "--kernel: no kernel of workload vectorAdd has a name containing this text (got "
       "'nomatch'); allowed: a part of vectorAdd"},
      {"CompileKernelNoMatch",
       {},
       "compile " + kTrace + " --config " + kFermi + " --kernel nomatch",
       2,
       "allowed: a part of _Z6vecAddIfEvPT_S1_S1_i"},
      {"AnalyzeCsvMissingFolder",
       {},
       "workload analyze vectorAdd --csv {d}/no/such/u.csv",
       2,
       "--csv: folder '"},
      {"AnalyzeCsvIsAFolder",
       {{"out/x", ""}},
       "workload analyze vectorAdd --csv {d}/out",
       2,
       "--csv: is a folder, not a file"},
      {"EnergySvgMissingFolder",
       {},
       "energy " + kMrfOnly + " --workload vectorAdd --svg {d}/no/e.svg",
       2,
       "--svg"},
      {"EnergyCsvMissingFolder",
       {},
       "energy " + kMrfOnly + " --workload vectorAdd --csv {d}/no/e.csv",
       2,
       "--csv"},
      {"EnergyMdIsAFolder",
       {{"out/x", ""}},
       "energy " + kMrfOnly + " --workload vectorAdd --md {d}/out",
       2,
       "--md: is a folder"},
      {"SimJsonMissingFolder",
       {},
       "sim " + kMrfOnly + " --workload vectorAdd --json {d}/no/s.json",
       2,
       "--json"},
      {"SimSchedulerBogus",
       {},
       "sim " + kMrfOnly + " --workload vectorAdd --scheduler bogus",
       2,
       "--scheduler"},
      {"SimKernelDoesNotFit",
       {},
       "sim " + kSmall + " --workload bfs",
       2,
       "kernel bfs does not fit one CTA on the SM"},
      {"EnergyKernelDoesNotFit",
       {},
       "energy " + kSmall + " --workload vectorAdd",
       2,
       "--workload: kernel vectorAdd does not fit one CTA on the SM"},
      {"AnalyzeUnknownWorkload", {}, "workload analyze vectorAd", 2, "did you mean 'vectorAdd'"},
      {"CompileWithoutConfig", {}, "compile " + kTrace, 2, "--config"},
      {"SimNoWorkload", {}, "sim " + kMrfOnly, 2, "--workload"},
  };
}

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name << ": gpurf " << c.args;
}

class RobustnessInputs : public test::CliFixture, public testing::WithParamInterface<Case> {
 protected:
  RobustnessInputs() : CliFixture("gpurf-robustness-") {}
};

TEST_P(RobustnessInputs, ExitCodeAndMessage) {
  const Case& c = GetParam();
  for (const auto& [rel, text] : c.files) {
    const fs::path p = dir_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  std::string args = c.args;
  for (size_t at; (at = args.find("{d}")) != std::string::npos;)
    args.replace(at, 3, dir_.string());
  const test::CliResult r = Run(args);
  EXPECT_EQ(r.code, c.code) << "gpurf " << args << "\nstderr: " << r.err
                            << "\nstdout: " << r.out.substr(0, 2000);
  EXPECT_NE(r.err.find(c.fragment), std::string::npos)
      << "gpurf " << args << "\nexpected in stderr: " << c.fragment << "\nstderr: " << r.err;
}

INSTANTIATE_TEST_SUITE_P(Table, RobustnessInputs, testing::ValuesIn(Cases()),
                         [](const testing::TestParamInfo<Case>& i) { return i.param.name; });

TEST(RobustnessInputsTable, HasAtLeastSixtyDistinctRows) {
  const std::vector<Case> cases = Cases();
  EXPECT_GE(cases.size(), 60u);
  std::map<std::string, int> names;
  for (const auto& c : cases)
    EXPECT_EQ(++names[c.name], 1) << c.name;
}

}  // namespace
}  // namespace gpurf
