// gpurf_assert.svh: the one assertion macro of gpurf-generated RTL and the rtl/ primitives.
//
//   `GPURF_ASSERT(cond, ("%m: message", args...))
//
// is an immediate assertion: a statement for procedural code, used inside a clocked
// `always @(posedge clk_i ...)` checker block (or an `initial` block for parameter checks) under
// `ifdef GPURF_ASSERTIONS, so synthesis never sees it. The second argument is the parenthesized
// argument list of $error: the message (a string literal, starting with "%m: ") and its
// arguments.
//
// Expansions:
//   default         assert (cond) else $error("%m: message", args...);
//                   checked in simulation (Verilator with --assert, Icarus), printing the
//                   message.
//   GPURF_FORMAL    assert (cond);
//                   for Yosys' formal flow (read_verilog -sv -formal), which does not read action
//                   blocks; a prover checks the condition as a property (gpurf prove,
//                   verif/formal/README.md). A concurrent `assert property (@(posedge clk) ...)`
//                   would need a newer Yosys and Icarus: Yosys 0.23 and Icarus 11 reject it.
//
// Every check is an assertion a prover can check: no $error-only checks. The macro expands to a
// complete statement; write it without a trailing semicolon.

`ifndef GPURF_ASSERT_SVH
`define GPURF_ASSERT_SVH

`ifdef GPURF_FORMAL
`define GPURF_ASSERT(cond, msg) assert (cond);
`else
`define GPURF_ASSERT(cond, msg) assert (cond) else $error msg;
`endif

`endif  // GPURF_ASSERT_SVH
