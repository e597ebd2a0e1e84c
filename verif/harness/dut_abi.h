// The boundary between gpurf and a Verilated design it builds at run time.
//
// gpurf emits a small adaptor (dut_adaptor.cc, generated per design from the manifest's port
// list) that implements DutModel over the Verilated class, compiles it with the Verilated model
// into a shared object, and loads it with dlopen. The harness, the golden models and, later,
// the SM harness all drive the RTL through this interface only. Ports are addressed by their
// index in the manifest's port list; values are little-endian arrays of 64-bit words.
//
// This header is compiled into both sides; keep it free of other includes and bump
// kDutAbiVersion on any change.
#pragma once

#include <cstdint>

namespace gpurf {

inline constexpr int kDutAbiVersion = 1;

class DutModel {
 public:
  virtual ~DutModel() = default;

  virtual int NumPorts() const = 0;
  virtual const char* PortName(int port) const = 0;
  virtual int PortWidth(int port) const = 0;

  // Inputs are applied at the next Eval(); outputs reflect the last Eval().
  virtual void SetPort(int port, const uint64_t* words) = 0;
  virtual void GetPort(int port, uint64_t* words) const = 0;
  virtual void Eval() = 0;

  // True once an assertion ($error) has fired; ClearError() re-arms it.
  virtual bool GotError() const = 0;
  virtual void ClearError() = 0;

  // Value-change dump of every signal; time is in simulation time units.
  virtual bool OpenTrace(const char* path) = 0;
  virtual void DumpTrace(uint64_t time) = 0;
  virtual void CloseTrace() = 0;
};

}  // namespace gpurf

// Entry point of the shared object. Returns nullptr when abi_version does not match.
extern "C" gpurf::DutModel* gpurf_dut_create(int abi_version);
using GpurfDutCreateFn = gpurf::DutModel* (*)(int);
