#include "sim/passes/analysis.h"

#include <fmt/format.h>

#include <map>

namespace gpurf::sim::passes {

KernelAnalysis AnalyzeKernel(const Kernel& k, const PassOptions& o) {
  KernelAnalysis a;
  a.live = ComputeLiveness(k);
  a.strands = FormStrands(k, a.live, o.strands);
  a.alloc = AllocateOrf(k, a.live, a.strands, o.orf, o.energies);
  a.release = ComputeReleaseFlags(k, a.live, o.release);
  a.live_vectors = FineRegLiveVectors(k, a.live);
  return a;
}

AccessCounts CountAccesses(const Kernel& k, const OrfAllocation& alloc,
                           const RegisterFileEnergies& e, const KernelRun* run) {
  std::vector<double> weight(k.code.size(), run ? 0.0 : 1.0);
  if (run) {
    for (const auto& w : run->warps) {
      for (const auto& d : w.insts)
        weight[d.inst] += 1;
    }
  }
  AccessCounts c;
  for (size_t i = 0; i < k.code.size(); ++i) {
    const double w = weight[i];
    if (w == 0)
      continue;
    const Instruction& in = k.code[i];
    const bool sh = IsSharedUnit(in.op_class);
    for (size_t s = 0; s < in.srcs.size(); ++s) {
      const double n = w * in.srcs[s].count;
      const OperandAlloc& oa = alloc.insts[i].srcs[s];
      c.reads[static_cast<size_t>(oa.level)] += n;
      c.energy_pj += n * e.Read(oa.level, sh);
      if (oa.fill != RfLevel::kMrf) {
        c.writes[static_cast<size_t>(oa.fill)] += n;
        c.energy_pj += n * e.Write(oa.fill, sh);
      }
      c.baseline_pj += n * e.Read(RfLevel::kMrf, sh);
    }
    for (size_t d = 0; d < in.dsts.size(); ++d) {
      const double n = w * in.dsts[d].count;
      const ResultAlloc& ra = alloc.insts[i].dsts[d];
      if (ra.mrf) {
        c.writes[0] += n;
        c.energy_pj += n * e.Write(RfLevel::kMrf, sh);
      }
      if (ra.orf != RfLevel::kMrf) {
        c.writes[static_cast<size_t>(ra.orf)] += n;
        c.energy_pj += n * e.Write(ra.orf, sh);
      }
      c.baseline_pj += n * e.Write(RfLevel::kMrf, sh);
    }
  }
  return c;
}

namespace {

std::string Loc(const OrfConfig& cfg, RfLevel l, const std::array<uint8_t, 4>& entries, int count) {
  std::string s = RfLevelName(l);
  if (l == RfLevel::kL0) {
    if (cfg.l0_split)
      s += fmt::format(".{}", static_cast<char>('A' + entries[0]));
    return s;
  }
  s += ".";
  for (int j = 0; j < count; ++j)
    s += fmt::format("{}{}", j ? "," : "", entries[static_cast<size_t>(j)]);
  return s;
}

std::string RegName(const RegOperand& o) {
  if (o.count == 1)
    return fmt::format("R{}", o.first);
  return fmt::format("R{}:{}", o.first, o.first + o.count - 1);
}

}  // namespace

std::string AnnotatedListing(const Kernel& k, const KernelAnalysis& a) {
  std::string out =
      fmt::format("  {:>5} {:>6} {:>16}  instruction\n", "index", "pc", "live registers");
  std::map<uint32_t, const PbrRelease*> pbr;
  for (const auto& p : a.release.pbr)
    pbr[p.inst] = &p;
  std::map<uint32_t, const PirGroup*> pir;
  for (const auto& g : a.release.pir)
    pir[g.first] = &g;
  const OrfConfig& cfg = a.alloc.config;
  for (uint32_t i = 0; i < k.code.size(); ++i) {
    const Instruction& in = k.code[i];
    const uint32_t s = a.strands.strand_of[i];
    if (a.strands.strands[s].first == i) {
      out += fmt::format("  ---- strand {} ({}) ----\n", s,
                         StrandStartName(a.strands.strands[s].reason));
    }
    if (auto it = pbr.find(i); it != pbr.end()) {
      std::vector<std::string> regs;
      for (uint16_t r : it->second->regs)
        regs.push_back(fmt::format("R{}", r));
      out +=
          fmt::format("  pbr release {} ({} meta instruction{})\n", fmt::join(regs, " "),
                      it->second->meta_instructions, it->second->meta_instructions == 1 ? "" : "s");
    }
    if (auto it = pir.find(i); it != pir.end() && it->second->flags != 0) {
      std::string bits;
      for (uint32_t j = 0; j < it->second->count * kPirSlots; ++j)
        bits.push_back((it->second->flags >> j) & 1 ? '1' : '0');
      out += fmt::format("  pir {}\n", bits);
    }
    std::vector<std::string> dsts, srcs;
    for (size_t d = 0; d < in.dsts.size(); ++d) {
      const ResultAlloc& ra = a.alloc.insts[i].dsts[d];
      std::string t = RegName(in.dsts[d]) + ">";
      if (ra.mrf)
        t += "MRF";
      if (ra.orf != RfLevel::kMrf)
        t += (ra.mrf ? "+" : "") + Loc(cfg, ra.orf, ra.entries, in.dsts[d].count);
      if (!ra.mrf && ra.orf == RfLevel::kMrf)
        t += "none";
      dsts.push_back(t);
    }
    for (size_t sl = 0; sl < in.srcs.size(); ++sl) {
      const OperandAlloc& oa = a.alloc.insts[i].srcs[sl];
      std::string t = RegName(in.srcs[sl]) + "@";
      t += oa.level == RfLevel::kMrf ? "MRF" : Loc(cfg, oa.level, oa.entries, in.srcs[sl].count);
      if (oa.fill != RfLevel::kMrf)
        t += ">" + Loc(cfg, oa.fill, oa.entries, in.srcs[sl].count);
      if (a.live.warp_dead_after[i][sl])
        t += "*";
      if (a.release.release[i][sl])
        t += "^";
      srcs.push_back(t);
    }
    std::string guard;
    if (in.guard != kNoPred)
      guard =
          in.guard == 0xfe ? "@P? " : fmt::format("@{}P{} ", in.guard_negated ? "!" : "", in.guard);
    std::string target;
    if (in.op_class == OpClass::kBranch)
      target = in.target >= 0 ? fmt::format(" -> {}", in.target) : " -> exit";
    std::string line =
        fmt::format("{}{:5} {:6x} {:016x}  {}{}", a.strands.ends_strand[i] ? "|" : " ", i, in.pc,
                    a.live_vectors.bits[i], guard, in.opcode);
    if (!dsts.empty())
      line += fmt::format("  {}", fmt::join(dsts, " "));
    if (!srcs.empty())
      line += fmt::format(" <- {}", fmt::join(srcs, " "));
    out += line + target + "\n";
  }
  return out;
}

std::string AnalysisSummary(const Kernel& k, const KernelAnalysis& a, const AccessCounts& c,
                            const PassOptions& o) {
  const OrfConfig& cfg = o.orf;
  size_t ll = 0;
  for (const auto& s : a.strands.strands)
    ll += s.reason == StrandStart::kLongLatencyUse;
  const double reads = c.reads[0] + c.reads[1] + c.reads[2];
  const double writes = c.writes[0] + c.writes[1] + c.writes[2];
  auto pct = [](double n, double d) { return d > 0 ? 100.0 * n / d : 0.0; };
  std::string t;
  t += fmt::format("kernel {}: {} instructions, {} blocks, {} registers/thread\n", k.name,
                   k.code.size(), k.blocks.size(), k.regs_per_thread);
  t += fmt::format("  strands: {} ({} after long-latency dependences), {:.1f} instructions each\n",
                   a.strands.strands.size(), ll,
                   a.strands.strands.empty() ? 0.0
                                             : static_cast<double>(k.code.size()) /
                                                   static_cast<double>(a.strands.strands.size()));
  t += fmt::format(
      "  ORF ({} levels, {} L1 entries, {} L0): {} candidates, {} in L0, {} in L1 "
      "({} read operands, {} partial ranges)\n",
      cfg.levels, cfg.l1_entries, cfg.l0_split ? "split" : "unified", a.alloc.stats.candidates,
      a.alloc.stats.l0_values, a.alloc.stats.l1_values, a.alloc.stats.read_operand_values,
      a.alloc.stats.partial_values);
  t += fmt::format(
      "  reads:  MRF {:5.1f}%  L1 {:5.1f}%  L0 {:5.1f}%   writes: MRF {:5.1f}%  L1 {:5.1f}%  "
      "L0 {:5.1f}% (of {} reads, {} writes)\n",
      pct(c.reads[0], reads), pct(c.reads[1], reads), pct(c.reads[2], reads),
      pct(c.writes[0], writes), pct(c.writes[1], writes), pct(c.writes[2], writes), reads, writes);
  t += fmt::format("  register-file energy {:.1f}% of the MRF-only baseline ({})\n",
                   100.0 * c.Ratio(), o.energies.source);
  size_t pir_nonzero = 0;
  for (const auto& g : a.release.pir)
    pir_nonzero += g.flags != 0;
  int pbr_meta = 0;
  for (const auto& p : a.release.pbr)
    pbr_meta += p.meta_instructions;
  t += fmt::format(
      "  release flags: {} of {} registers renamed (table {} registers/warp), {} pir groups "
      "({} non-empty), {} pbr meta instructions\n",
      a.release.renamed.size(), a.release.ranking.size(), a.release.table_registers,
      a.release.pir.size(), pir_nonzero, pbr_meta);
  if (!a.live_vectors.unrepresentable.empty())
    t += fmt::format("  warning: registers >= 64 do not fit FineReg's 64-bit live vectors ({})\n",
                     a.live_vectors.unrepresentable.size());
  return t;
}

RegisterFileEnergies DefaultEnergies(const PassOptions& options, int active_warps) {
  return GebhartEnergies(options.orf.l1_entries, active_warps);
}

std::string AllocationSweep(const Kernel& k, const PassOptions& options, const KernelRun* run,
                            bool default_energies) {
  std::string line = "  sweep (energy % of baseline):";
  for (int levels = 2; levels <= 3; ++levels) {
    line += levels == 2 ? " 2-level L1=" : " | 3-level split L0, L1=";
    for (int l1 = 1; l1 <= 6; ++l1) {
      PassOptions o = options;
      o.orf.levels = levels;
      o.orf.l1_entries = l1;
      o.orf.l0_split = true;
      if (default_energies)
        o.energies = GebhartEnergies(l1, 8);
      const KernelAnalysis an = AnalyzeKernel(k, o);
      const AccessCounts c = CountAccesses(k, an.alloc, o.energies, run);
      line += fmt::format("{}{}:{:.1f}", l1 > 1 ? " " : "", l1, 100.0 * c.Ratio());
    }
  }
  return line;
}

}  // namespace gpurf::sim::passes
