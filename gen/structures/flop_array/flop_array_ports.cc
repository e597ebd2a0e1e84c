#include "gen/structures/flop_array/flop_array_ports.h"

#include "gen/vlog/expr.h"

namespace gpurf {

PortTable FlopArrayPortTable(const FlopArraySpec& s) {
  using P = FlopArrayPort;
  using vlog::Msb;
  const int aw = s.addr_width;
  return PortTable({
      ClockPort(P::kClk, "clock; writes and registered reads at its rising edge"),
      ResetPort(P::kRstN),
      {P::kWe, "we_i", PortDir::kInput, s.write_ports, Msb("NumWritePorts"), s.write_ports,
       "write_enable", "write enable per write port", "write enable per write port"},
      {P::kWaddr, "waddr_i", PortDir::kInput, s.write_ports * aw, "NumWritePorts*AddrWidth-1",
       s.write_ports, "write_address", "write address per write port",
       "write addresses, port w at [w*AddrWidth +: AddrWidth]"},
      {P::kWdata, "wdata_i", PortDir::kInput, s.write_ports * s.width, "NumWritePorts*Width-1",
       s.write_ports, "write_data", "write data per write port",
       "write data, port w at [w*Width +: Width]"},
      {P::kRaddr, "raddr_i", PortDir::kInput, s.read_ports * aw, "NumReadPorts*AddrWidth-1",
       s.read_ports, "read_address", "read address per read port",
       "read addresses, port p at [p*AddrWidth +: AddrWidth]"},
      {P::kRdata, "rdata_o", PortDir::kOutput, s.read_ports * s.width, "NumReadPorts*Width-1",
       s.read_ports, "read_data", "read data per read port",
       "read data, port p at [p*Width +: Width]"},
  });
}

}  // namespace gpurf
