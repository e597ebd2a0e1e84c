#include "models/live_vector_cache_model.h"

#include <fmt/format.h>

#include <algorithm>

#include "models/registry.h"

namespace gpurf {

LiveVectorCacheModel::LiveVectorCacheModel(const LiveVectorCacheSpec& spec) : spec_(spec) {
  Reset();
}

void LiveVectorCacheModel::Reset() {
  lines_.assign(static_cast<size_t>(spec_.entries), std::nullopt);
  job_.reset();
  hits_ = misses_ = 0;
}

bool LiveVectorCacheModel::Hits(uint64_t pc) const {
  const auto& l = lines_[static_cast<size_t>(spec_.Index(pc))];
  return l && l->tag == spec_.Tag(pc);
}

void LiveVectorCacheModel::StartDecode(const Bits& vector) {
  job_->decoding = true;
  job_->left.clear();
  for (int r = 0; r < spec_.vector_bits; ++r) {
    if (vector.bit(r))
      job_->left.push_back(r);
  }
  job_->live = static_cast<int>(job_->left.size());
}

void LiveVectorCacheModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  for (int p = kLkReady; p < kNumPorts; ++p) {
    out[p].clear();
    defined[p].fill_ones();
  }
  if (!in[kRstN].bit(0))
    return;
  const uint64_t pc = in[kLkPc].get(0, spec_.pc_bits);
  const bool idle = !job_.has_value();
  out[kLkReady].set_bit(0, idle);
  out[kLkHit].set_bit(0, idle && in[kLkValid].bit(0) && Hits(pc));
  if (job_ && !job_->requested && !job_->decoding) {
    out[kMemReqValid].set_bit(0, true);
    out[kMemReqPc].set(0, spec_.pc_bits, job_->pc);
  }
  if (job_ && job_->decoding) {
    const int n = std::min<int>(spec_.decode_width, static_cast<int>(job_->left.size()));
    out[kDecValid].set_bit(0, true);
    out[kDecCount].set(0, spec_.cnt_bits, static_cast<uint64_t>(n));
    for (int k = 0; k < n; ++k)
      out[kDecIdx].set(k * spec_.reg_bits, spec_.reg_bits, static_cast<uint64_t>(job_->left[k]));
    out[kDecLast].set_bit(0, static_cast<int>(job_->left.size()) <= spec_.decode_width);
    out[kDecLive].set(0, spec_.live_bits, static_cast<uint64_t>(job_->live));
  }
  out[kHitCount].set(0, 32, hits_ & 0xffffffffULL);
  out[kMissCount].set(0, 32, misses_ & 0xffffffffULL);
}

void LiveVectorCacheModel::Clock(const PortValues& in) {
  if (!in[kRstN].bit(0)) {
    Reset();
    return;
  }
  if (in[kMemRespValid].bit(0) && !(job_ && job_->requested && !job_->decoding) && failure_.empty())
    failure_ = "contract: memory response with no request outstanding";
  if (!job_) {
    if (!in[kLkValid].bit(0))
      return;
    const uint64_t pc = in[kLkPc].get(0, spec_.pc_bits);
    job_.emplace();
    job_->pc = pc;
    if (Hits(pc)) {
      ++hits_;
      StartDecode(lines_[static_cast<size_t>(spec_.Index(pc))]->vector);
    } else {
      ++misses_;
    }
    return;
  }
  if (!job_->decoding && !job_->requested) {
    job_->requested = in[kMemReqReady].bit(0);
    return;
  }
  if (!job_->decoding) {
    if (in[kMemRespValid].bit(0)) {
      lines_[static_cast<size_t>(spec_.Index(job_->pc))] =
          Line{spec_.Tag(job_->pc), in[kMemRespVector]};
      StartDecode(in[kMemRespVector]);
    }
    return;
  }
  if (in[kDecReady].bit(0)) {
    if (static_cast<int>(job_->left.size()) <= spec_.decode_width) {
      job_.reset();
    } else {
      job_->left.erase(job_->left.begin(), job_->left.begin() + spec_.decode_width);
    }
  }
}

GPURF_REGISTER(ModelFamily, live_vector_cache, "live-vector-cache",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<LiveVectorCacheModel>(SpecAs<LiveVectorCacheSpec>(s));
               }})

}  // namespace gpurf
