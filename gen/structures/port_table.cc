#include "gen/structures/port_table.h"

#include <fmt/format.h>

#include <stdexcept>
#include <utility>

namespace gpurf {

PortTable::PortTable(std::vector<PortDef> ports) : ports_(std::move(ports)) {
  for (size_t i = 0; i < ports_.size(); ++i) {
    if (ports_[i].handle != static_cast<int>(i)) {
      throw std::logic_error(fmt::format("port table: {} has handle {}, listed at {}",
                                         ports_[i].name, ports_[i].handle, i));
    }
    index_.push_back(ports_[i].present ? present_++ : -1);
  }
}

std::vector<PortInfo> PortTable::Manifest() const {
  std::vector<PortInfo> out;
  for (const PortDef& p : ports_) {
    if (p.present)
      out.push_back({p.name, p.dir, p.width, p.count, p.role, p.description});
  }
  return out;
}

std::vector<Bits> PortTable::ZeroValues() const {
  std::vector<Bits> out;
  for (const PortDef& p : ports_) {
    if (p.present)
      out.emplace_back(p.width);
  }
  return out;
}

std::vector<vlog::Port> PortTable::Verilog() const {
  std::vector<vlog::Port> out;
  for (const PortDef& p : ports_) {
    if (p.present) {
      out.push_back({p.dir == PortDir::kInput ? vlog::Dir::kInput : vlog::Dir::kOutput, p.name,
                     p.msb, p.comment});
    }
  }
  return out;
}

PortDef ClockPort(int handle, std::string description) {
  return {handle, "clk_i", PortDir::kInput, 1, "", 1, "clock", std::move(description), "clock"};
}

PortDef ResetPort(int handle) {
  return {handle,
          "rst_ni",
          PortDir::kInput,
          1,
          "",
          1,
          "reset_n",
          "asynchronous active-low reset",
          "asynchronous active-low reset"};
}

}  // namespace gpurf
