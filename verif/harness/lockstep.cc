#include "verif/harness/lockstep.h"

#include <fmt/format.h>

#include <chrono>

#include "base/diag.h"

namespace gpurf {

namespace {

std::string Hex(const Bits& b) {
  return fmt::format("{}'h{}", b.width(), b.hex());
}

// Describes the first differing logical port of a packed output vector.
std::string DescribeMismatch(const PortInfo& p, const Bits& exp, const Bits& act,
                             const Bits& mask) {
  const int sw = p.slice_width();
  for (int k = 0; k < p.count; ++k) {
    const Bits e = exp.slice(k * sw, sw), a = act.slice(k * sw, sw), m = mask.slice(k * sw, sw);
    if (!e.equal_masked(a, m)) {
      Bits diff(sw);
      for (int i = 0; i < sw; ++i)
        diff.set_bit(i, m.bit(i) && e.bit(i) != a.bit(i));
      const std::string name =
          p.count > 1 ? fmt::format("{}[{}*{} +: {}] ({} port {})", p.name, k, sw, sw, p.role, k)
                      : fmt::format("{} ({})", p.name, p.role);
      std::string s = fmt::format("signal {}: expected {}, actual {}, differing bits {}", name,
                                  Hex(e), Hex(a), Hex(diff));
      Bits all(sw);
      all.fill_ones();
      if (m != all)
        s += fmt::format(", defined bits {}", Hex(m));
      return s;
    }
  }
  return fmt::format("signal {}: expected {}, actual {}", p.name, Hex(exp), Hex(act));
}

}  // namespace

LockstepResult RunLockstep(DutModel& dut, const GeneratedStructure& g, CycleModel& model,
                           Stimulus& stim, const LockstepOptions& opt) {
  const int n = static_cast<int>(g.ports.size());
  if (dut.NumPorts() != n) {
    throw ToolError(
        fmt::format("model of {} has {} ports, manifest lists {}", g.top, dut.NumPorts(), n));
  }
  int clk = -1;
  PortValues in, out, exp, defined;
  for (int i = 0; i < n; ++i) {
    const PortInfo& p = g.ports[i];
    if (dut.PortWidth(i) != p.width || g.ports[i].name != dut.PortName(i)) {
      throw ToolError(
          fmt::format("model port {} ({}, {} bits) does not match the manifest ({}, {} bits)", i,
                      dut.PortName(i), dut.PortWidth(i), p.name, p.width));
    }
    if (p.role == "clock")
      clk = i;
    in.emplace_back(p.width);
    out.emplace_back(p.width);
    exp.emplace_back(p.width);
    defined.emplace_back(p.width);
  }
  if (clk < 0)
    throw ToolError(g.top + " has no port with role 'clock'");

  const bool tracing = !opt.trace_path.empty();
  if (tracing && !dut.OpenTrace(opt.trace_path.c_str())) {
    throw ToolError("cannot open waveform file " + opt.trace_path.string());
  }
  LockstepResult r;
  const Bits low(1, 0), high(1, 1);
  auto inputs_text = [&] {
    std::string s;
    for (int i = 0; i < n; ++i) {
      if (g.ports[i].dir == PortDir::kInput && i != clk)
        s += fmt::format(" {}={}", g.ports[i].name, Hex(in[i]));
    }
    return s;
  };

  const auto t0 = std::chrono::steady_clock::now();
  uint64_t c = 0;
  for (; c < opt.cycles && c < opt.stop_after; ++c) {
    stim.Next(c, in);
    in[clk] = low;
    for (int i = 0; i < n; ++i) {
      if (g.ports[i].dir == PortDir::kInput)
        dut.SetPort(i, in[i].data());
    }
    dut.Eval();
    if (tracing)
      dut.DumpTrace(10 * c);

    for (auto& d : defined)
      d.clear();
    model.Outputs(in, exp, defined);
    bool checked = false;
    for (int i = 0; i < n && r.passed; ++i) {
      if (g.ports[i].dir != PortDir::kOutput)
        continue;
      checked = checked || defined[i].any();
      out[i].clear();
      dut.GetPort(i, out[i].data());
      out[i].canonicalize();
      if (!out[i].equal_masked(exp[i], defined[i])) {
        r.passed = false;
        r.fail_cycle = c;
        r.failure = fmt::format(
            "mismatch at cycle {} (seed {}, stimulus phase '{}'): {}\n  inputs:{}", c, opt.seed,
            stim.Phase(), DescribeMismatch(g.ports[i], exp[i], out[i], defined[i]), inputs_text());
      }
    }
    if (!r.passed)
      break;
    if (checked)
      ++r.checked_cycles;
    stim.Observe(c, exp);

    in[clk] = high;
    dut.SetPort(clk, in[clk].data());
    dut.Eval();
    model.Clock(in);
    if (tracing)
      dut.DumpTrace(10 * c + 5);
    if (std::string f = model.Failure(); !f.empty()) {
      r.passed = false;
      r.fail_cycle = c;
      r.failure = fmt::format(
          "golden model invariant violated at the rising edge of cycle {} (seed {}, stimulus "
          "phase '{}'): {}\n  inputs:{}",
          c, opt.seed, stim.Phase(), f, inputs_text());
      break;
    }
    if (dut.GotError()) {
      r.passed = false;
      r.assertion = true;
      r.fail_cycle = c;
      r.failure = fmt::format(
          "RTL assertion fired at the rising edge of cycle {} (seed {}, stimulus phase '{}'); "
          "see the %Error line above\n  inputs:{}",
          c, opt.seed, stim.Phase(), inputs_text());
      break;
    }
  }
  r.cycles = r.passed ? c : c + 1;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (tracing) {
    dut.DumpTrace(10 * c + 10);
    dut.CloseTrace();
  }
  return r;
}

}  // namespace gpurf
