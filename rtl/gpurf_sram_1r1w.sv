// gpurf_sram_1r1w: one-read, one-write synchronous SRAM, the technology hook for every SRAM bank
// in gpurf-generated RTL (the MRF banks).
//
// Ports: a read port (re_i, raddr_i -> rdata_o) and a write port (we_i, waddr_i, wdata_i), both
// on the rising edge of clk_i.
//   - Write: mem[waddr_i] <= wdata_i at the edge where we_i is high.
//   - Read:  synchronous, one cycle of latency: the edge where re_i is high captures
//            mem[raddr_i] into the output register, so rdata_o shows it during the next cycle.
//            rdata_o holds its value while re_i is low (the macro's output latch).
//   - Reading and writing the same address in the same cycle is not allowed (compiled two-port
//     SRAMs leave the read data undefined); callers arbitrate it away. The hard macro's
//     simulation model returns X in that case and, with GPURF_ASSERTIONS, both
//     implementations report it.
//   - The storage and the output register are not reset.
//
// Impl selects the implementation, in the manner of BaseJump STL's harden_p hook:
//   0  flip-flop array: this file alone; simulates and synthesizes to Depth x Width flip-flops
//      (small shapes, or processes without an SRAM compiler);
//   1  hard macro: instantiates gpurf_sram_1r1w_macro (gpurf_sram_1r1w_macro.sv), a black box
//      for synthesis whose area and energy come from gpurf's SRAM model, with a behavioural
//      synchronous-read model for simulation. A flow with a memory compiler replaces that file
//      (same module name and ports) with a wrapper around its macro.

`include "gpurf_assert.svh"

module gpurf_sram_1r1w #(
  parameter  int Depth     = 256,                               // rows
  parameter  int Width     = 128,                               // bits per row
  parameter  int Impl      = 0,                                 // 0 flip-flops, 1 hard macro
  localparam int AddrWidth = (Depth > 1) ? $clog2(Depth) : 1    // bits per address
) (
  input  logic                 clk_i,    // clock
  input  logic                 re_i,     // read enable
  input  logic [AddrWidth-1:0] raddr_i,  // read address
  output logic [Width-1:0]     rdata_o,  // read data, one cycle after re_i
  input  logic                 we_i,     // write enable
  input  logic [AddrWidth-1:0] waddr_i,  // write address
  input  logic [Width-1:0]     wdata_i   // write data
);

  if (Impl == 1) begin : gen_macro
    gpurf_sram_1r1w_macro #(
      .Depth(Depth),
      .Width(Width)
    ) u_macro (
      .clk_i  (clk_i),
      .re_i   (re_i),
      .raddr_i(raddr_i),
      .rdata_o(rdata_o),
      .we_i   (we_i),
      .waddr_i(waddr_i),
      .wdata_i(wdata_i)
    );
  end else begin : gen_flops
    logic [Width-1:0] mem [Depth];  // the storage
    logic [Width-1:0] rdata_q;      // output register

    always_ff @(posedge clk_i) begin
      if (we_i) begin
        mem[waddr_i] <= wdata_i;
      end
      if (re_i) begin
        rdata_q <= mem[raddr_i];
      end
    end

    assign rdata_o = rdata_q;
  end

`ifdef GPURF_ASSERTIONS
  // Parameter checks at elaboration; misuse checks every cycle (gpurf_assert.svh).
  initial begin : p_param_check
    `GPURF_ASSERT(Depth >= 1, ("%m: Depth must be >= 1"))
    `GPURF_ASSERT(Width >= 1, ("%m: Width must be >= 1"))
    `GPURF_ASSERT(Impl == 0 || Impl == 1, ("%m: Impl must be 0 (flip-flops) or 1 (hard macro)"))
  end

  always @(posedge clk_i) begin : p_access_check
    `GPURF_ASSERT(!re_i || 32'(raddr_i) < Depth,
                  ("%m: read address %0d >= Depth (%0d)", raddr_i, Depth))
    `GPURF_ASSERT(!we_i || 32'(waddr_i) < Depth,
                  ("%m: write address %0d >= Depth (%0d)", waddr_i, Depth))
    `GPURF_ASSERT(!(re_i && we_i && raddr_i == waddr_i),
                  ("%m: read and write of address %0d in the same cycle", raddr_i))
  end
`endif  // GPURF_ASSERTIONS

endmodule
