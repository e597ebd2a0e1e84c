#include "gen/structures/cta_status_monitor/cta_status_monitor_spec.h"

#include <fmt/format.h>

#include <bit>

#include "base/hash.h"

namespace gpurf {

const std::vector<ParamDesc>& CtaStatusMonitorSpec::ParamDescs() {
  static const std::vector<ParamDesc> descs = {
      IntParam("ctas", 2, 256, 128,
               "resident CTA slots: active and pending (FineReg: 128; the pascal-finereg preset's "
               "baseline limit is 32)"),
      IntParam("pcrf_entries", 4, 4096, 1024,
               "PCRF entries: the range of free and live counts (FineReg: 1024)"),
  };
  return descs;
}

CtaStatusMonitorSpec CtaStatusMonitorSpec::FromParams(const ParamSet& p) {
  CtaStatusMonitorSpec s;
  s.params = p;
  s.ctas = p.IntAsInt("ctas");
  s.pcrf_entries = p.IntAsInt("pcrf_entries");
  s.cta_bits = s.ctas <= 2 ? 1 : std::bit_width(static_cast<unsigned>(s.ctas - 1));
  s.count_bits = std::bit_width(static_cast<unsigned>(s.pcrf_entries));
  s.avail_bits = s.count_bits + 1;
  s.slot_bits = std::bit_width(static_cast<unsigned>(s.ctas));
  s.kind = "cta-status-monitor";
  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  s.module_name = fmt::format("rf_ctamon_c{}_e{}_{}", s.ctas, s.pcrf_entries, s.config_hash);
  return s;
}

}  // namespace gpurf
