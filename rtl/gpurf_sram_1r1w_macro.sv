// gpurf_sram_1r1w_macro: the hard SRAM macro behind gpurf_sram_1r1w (Impl = 1).
//
// For synthesis this module is a black box (the blackbox attribute makes Yosys keep it as one
// cell and ignore the body below); gpurf synth then takes its area, and gpurf's energy flow its
// read/write energy and leakage, from the SRAM model (synth/sram_model.h), per Depth x Width.
// For simulation the body is a behavioural model of a compiled two-port SRAM with the contract
// of gpurf_sram_1r1w: synchronous write, synchronous read with one cycle of latency and a held
// output, no reset, and undefined read data (X) when a cycle reads and writes one address.
//
// A flow with a memory compiler replaces this file, keeping the module name and ports, with a
// wrapper around its macro (e.g. one per Depth x Width, selected by a generate-if as BaseJump's
// bsg_mem_1r1w_sync_macros do).

(* blackbox *)
module gpurf_sram_1r1w_macro #(
  parameter  int Depth     = 256,                               // rows
  parameter  int Width     = 128,                               // bits per row
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

  logic [Width-1:0] mem [Depth];  // the bit cells
  logic [Width-1:0] rdata_q;      // sense-amplifier output latch

  always_ff @(posedge clk_i) begin
    if (we_i) begin
      mem[waddr_i] <= wdata_i;
    end
    if (re_i) begin
      // Same-address read and write: the bit lines are being driven, the read data is undefined.
      rdata_q <= (we_i && raddr_i == waddr_i) ? 'x : mem[raddr_i];
    end
  end

  assign rdata_o = rdata_q;

endmodule
