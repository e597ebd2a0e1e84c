#include "gen/structures/mrf/mrf_ports.h"

#include "gen/vlog/expr.h"

namespace gpurf {

PortTable MrfPortTable(const MrfSpec& s) {
  using P = MrfPort;
  using vlog::Msb;
  const int tw = s.tag_width, ww = s.warp_width, rw = s.reg_width, cw = s.counter_width;
  return PortTable({
      ClockPort(P::kClk),
      ResetPort(P::kRstN),
      {P::kIssueValid, "issue_valid_i", PortDir::kInput, 1, "", 1, "issue_valid",
       "an instruction is offered", "an instruction is offered"},
      {P::kIssueReady, "issue_ready_o", PortDir::kOutput, 1, "", 1, "issue_ready",
       "a collector is free", "a collector is free"},
      {P::kIssueTag, "issue_tag_i", PortDir::kInput, tw, Msb("TagWidth"), 1, "issue_tag",
       "instruction tag", "instruction tag"},
      {P::kIssueWarp, "issue_warp_i", PortDir::kInput, ww, Msb("WarpWidth"), 1, "issue_warp",
       "warp of the instruction", "warp of the instruction"},
      {P::kIssueSrcValid, "issue_src_valid_i", PortDir::kInput, 3, "2", 3, "issue_src_valid",
       "source valid per slot", "slot s has a source register"},
      {P::kIssueSrcReg, "issue_src_reg_i", PortDir::kInput, 3 * rw, "3*RegWidth-1", 3,
       "issue_src_reg", "source register per slot", "slot s register at [s*RegWidth +: RegWidth]"},
      {P::kWbValid, "wb_valid_i", PortDir::kInput, 1, "", 1, "wb_valid", "a result is offered",
       "a result is offered"},
      {P::kWbReady, "wb_ready_o", PortDir::kOutput, 1, "", 1, "wb_ready",
       "the result is written at this edge", "the result is written at this edge"},
      {P::kWbWarp, "wb_warp_i", PortDir::kInput, ww, Msb("WarpWidth"), 1, "wb_warp",
       "warp of the result", "warp of the result"},
      {P::kWbReg, "wb_reg_i", PortDir::kInput, rw, Msb("RegWidth"), 1, "wb_reg",
       "register of the result", "register of the result"},
      {P::kWbData, "wb_data_i", PortDir::kInput, s.width, Msb("Width"), 1, "wb_data", "result data",
       "result data"},
      {P::kDispValid, "disp_valid_o", PortDir::kOutput, 1, "", 1, "disp_valid",
       "an instruction has its operands", "an instruction has all its operands"},
      {P::kDispReady, "disp_ready_i", PortDir::kInput, 1, "", 1, "disp_ready",
       "the instruction is taken", "the instruction is taken at this edge"},
      {P::kDispTag, "disp_tag_o", PortDir::kOutput, tw, Msb("TagWidth"), 1, "disp_tag",
       "tag of the instruction", "its tag"},
      {P::kDispWarp, "disp_warp_o", PortDir::kOutput, ww, Msb("WarpWidth"), 1, "disp_warp",
       "warp of the instruction", "its warp"},
      {P::kDispSrcValid, "disp_src_valid_o", PortDir::kOutput, 3, "2", 3, "disp_src_valid",
       "source valid per slot", "its source valid bits"},
      {P::kDispData, "disp_data_o", PortDir::kOutput, 3 * s.width, "3*Width-1", 3, "disp_data",
       "operand per slot", "slot s operand at [s*Width +: Width]"},
      {P::kCntReads, "cnt_reads_o", PortDir::kOutput, cw, Msb("CounterWidth"), 1, "counter",
       "bank reads granted", "bank reads"},
      {P::kCntWrites, "cnt_writes_o", PortDir::kOutput, cw, Msb("CounterWidth"), 1, "counter",
       "write-backs accepted", "bank writes (write-backs)"},
      {P::kCntConflicts, "cnt_conflicts_o", PortDir::kOutput, cw, Msb("CounterWidth"), 1, "counter",
       "slot-cycles a needed read waited for its bank", "slot-cycles waiting for a bank"},
      {P::kCntIssueStalls, "cnt_issue_stalls_o", PortDir::kOutput, cw, Msb("CounterWidth"), 1,
       "counter", "cycles with issue_valid_i && !issue_ready_o", "cycles an issue waited"},
      {P::kCntWbStalls, "cnt_wb_stalls_o", PortDir::kOutput, cw, Msb("CounterWidth"), 1, "counter",
       "cycles with wb_valid_i && !wb_ready_o", "cycles a write-back waited"},
  });
}

}  // namespace gpurf
