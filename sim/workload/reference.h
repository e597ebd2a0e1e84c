// C++ reference computations of the corpus kernels' outputs, written from each kernel's
// specification (what it computes), not from its PTX. A reference receives the buffers with
// their initial contents and overwrites the output buffers with the expected final contents.
//
// Bounds: a reference reaches the launch's buffers only through RefBuffer, a checked view.
// Before its loops it states what it will touch (Need: "n elements, n = params[3]"); a buffer
// the launch made smaller is an InputError at that buffer's line in the launch file naming
// the buffer, its count and the count needed. Every element access is checked too, so a
// reference that forgets a Need (or reads indices that come from data, as bfs does) still
// fails with an InputError instead of touching memory outside the buffer.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/workload/launch.h"

namespace gpurf::sim {

class ReferenceContext;

// Saturating arithmetic for element counts computed from the launch's scalars: an overflowing
// product becomes UINT64_MAX, which no buffer holds, so it is reported as too small.
uint64_t CountMul(uint64_t a, uint64_t b);
uint64_t CountAdd(uint64_t a, uint64_t b);

// A checked view of one launch buffer, of element type T.
template <typename T>
class RefBuffer {
 public:
  RefBuffer(const ReferenceContext& ctx, const BufferSpec& spec, std::span<T> data)
      : ctx_(&ctx), spec_(&spec), data_(data) {}

  uint64_t size() const { return data_.size(); }
  const std::string& name() const { return spec_->name; }

  // Requires at least `count` elements; `why` says where the count comes from, e.g.
  // "n = 4096 (params[3])". Returns *this to chain.
  const RefBuffer& Need(uint64_t count, const std::string& why) const;

  T& operator[](uint64_t i) const {
    if (i >= data_.size())
      Overrun(i);
    return data_[i];
  }
  // Elements [first, first + count), checked.
  std::span<T> Slice(uint64_t first, uint64_t count, const std::string& why) const {
    Need(CountAdd(first, count), why);
    return data_.subspan(first, count);
  }

 private:
  [[noreturn]] void Overrun(uint64_t index) const;
  const ReferenceContext* ctx_;
  const BufferSpec* spec_;
  std::span<T> data_;
};

// What a reference sees of the launch: its spec (grid, block, params) and, only through
// Buffer() and the RefBuffer views it returns, the buffers. The host buffers themselves are
// private, so a reference cannot index one unchecked.
class ReferenceContext {
 public:
  ReferenceContext(HostBuffers& buffers, const LaunchSpec& launch)
      : spec(launch), buffers_(buffers) {}

  const LaunchSpec& spec;

  // Scalar parameter number `index` (0-based position in the launch file's params list).
  int64_t Int(size_t index) const;
  double Float(size_t index) const;
  // A scalar parameter used as a count or size: an integer in [min, max], else an InputError
  // at that parameter in the launch file naming `what` ("n", "width").
  uint64_t Count(size_t index, const std::string& what, uint64_t min = 0,
                 uint64_t max = UINT32_MAX) const;
  // The buffer bound to parameter `index`, as elements of type T (InputError when the
  // parameter is a scalar or the buffer's element type is not T's).
  template <typename T>
  RefBuffer<T> Buffer(size_t index) const;

  // The error a too-small buffer raises (used by RefBuffer).
  [[noreturn]] void TooSmall(const BufferSpec& b, uint64_t needed, const std::string& why) const;

 private:
  HostBuffers& buffers_;
};

using ReferenceFn = void (*)(ReferenceContext&);

// nullptr when there is no reference of that name.
ReferenceFn FindReference(const std::string& name);
std::vector<std::string> ReferenceNames();

// ------------------------------------------------------------------------------ inline

template <typename T>
const RefBuffer<T>& RefBuffer<T>::Need(uint64_t count, const std::string& why) const {
  if (count > data_.size())
    ctx_->TooSmall(*spec_, count, why);
  return *this;
}

template <typename T>
void RefBuffer<T>::Overrun(uint64_t index) const {
  ctx_->TooSmall(*spec_, CountAdd(index, 1),
                 "its element " + std::to_string(index) + " is read or written");
}

}  // namespace gpurf::sim
