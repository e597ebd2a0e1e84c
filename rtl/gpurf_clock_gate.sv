// gpurf_clock_gate: integrated clock gate (ICG), the technology hook for every gated clock in
// gpurf-generated RTL.
//
// Behavioural model of a latch-based gate: the enable is captured by a latch that is
// transparent while the clock is low, so clk_o can only change on a rising clk_i and never
// glitches when en_i changes during the high phase. Simulates correctly in Verilator and
// Icarus and synthesizes in Yosys to a latch and an AND gate. A flow with a library ICG cell
// replaces this file (same name, same ports), as lowRISC does with prim_clock_gating.
//
// test_en_i forces the clock on (scan/test mode); tie it to 1'b0 when unused.

module gpurf_clock_gate (
  input  logic clk_i,     // free-running clock
  input  logic en_i,      // functional enable, sampled while clk_i is low
  input  logic test_en_i, // test-mode override, forces clk_o to follow clk_i
  output logic clk_o      // gated clock
);

  logic en_latch;

  always_latch begin
    if (!clk_i) begin
      en_latch = en_i | test_en_i;
    end
  end

  assign clk_o = clk_i & en_latch;

endmodule
