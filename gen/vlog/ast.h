// A small structural model of the Verilog that gpurf emits: modules with parameters, ports,
// nets, continuous assignments, always blocks, instances and generate blocks. Generators build
// this tree; only the printer (printer.h) turns it into text, so every generated file has one
// consistent, lowRISC-style layout. Expressions are short strings built with the helpers in
// expr.h; everything with structure (blocks, declarations, port lists) is a node here.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace gpurf::vlog {

// ---------------------------------------------------------------- statements (procedural)

struct Stmt;
using Body = std::vector<Stmt>;

struct Assign {  // lhs = rhs;  or  lhs <= rhs;
  std::string lhs;
  std::string rhs;
  bool nonblocking = false;
};

struct If {
  std::string cond;
  Body then_body;
  Body else_body;  // empty: no else
};

struct For {  // for (int var = 0; var < limit; var++)
  std::string var;
  std::string limit;
  Body body;
};

struct Call {  // $error("...", args); as a statement
  std::string name;
  std::vector<std::string> args;
};

struct Comment {
  std::string text;  // may hold several lines separated by '\n'
};

// An immediate assertion or assumption:
//   `GPURF_ASSERT(cond, ("%m: message", args))   RTL checks: kAssert with `error`
//   assert (cond);                                  formal harnesses: kAssert without `error`
//   assume (cond);
// The macro (rtl/gpurf_assert.svh, kAssertHeader) expands to `assert (cond) else $error(...);`
// for simulation and to `assert (cond);` under GPURF_FORMAL: Verilator, Icarus and Yosys
// (read_verilog -formal) all read that immediate form inside a clocked always block, while
// Yosys 0.23 and Icarus 11 reject concurrent `assert property`. The formal flow (verif/formal)
// selects RTL assertions by their message. A file whose module uses the macro includes the
// header (SourceFile::includes).
struct Check {
  enum class Kind { kAssert, kAssume };
  Kind kind = Kind::kAssert;
  std::string cond;
  std::vector<std::string> error;  // $error arguments (message first); only for kAssert
};

// The assertion macro header every generated module includes, and its macro.
inline constexpr const char* kAssertHeader = "gpurf_assert.svh";
inline constexpr const char* kAssertMacro = "`GPURF_ASSERT";

struct Stmt {
  std::variant<Assign, If, For, Call, Comment, Check> node;
};

Stmt Blocking(std::string lhs, std::string rhs);
Stmt NonBlocking(std::string lhs, std::string rhs);
Stmt IfThen(std::string cond, Body then_body, Body else_body = {});
Stmt ForLoop(std::string var, std::string limit, Body body);
Stmt SysCall(std::string name, std::vector<std::string> args);
Stmt Note(std::string text);
// `GPURF_ASSERT(cond, (error...))  with no `error`: assert (cond);
Stmt Assert(std::string cond, std::vector<std::string> error = {});
Stmt Assume(std::string cond);

// ---------------------------------------------------------------- module items

struct Item;
using Items = std::vector<Item>;

struct CommentItem {
  std::string text;  // '\n' separated lines
};

struct BlankLine {};

struct LocalParam {
  std::string name;
  std::string value;
  std::string comment;  // trailing comment, optional
};

struct Net {
  std::string name;
  std::string width;     // "" for 1 bit, else the MSB expression: "Width-1" -> [Width-1:0]
  std::string unpacked;  // "" or the depth expression: "Entries" -> [Entries]
  std::string comment;
  std::string attribute;  // "" or a synthesis attribute printed above: "mem2reg"
};

struct ContinuousAssign {
  std::string lhs;
  std::string rhs;
};

enum class AlwaysKind { kFF, kComb, kLatch, kPlain };

struct Always {
  AlwaysKind kind = AlwaysKind::kComb;
  std::string sensitivity;  // kFF / kPlain: "posedge clk_i or negedge rst_ni"
  std::string label;        // optional block name (begin : label)
  Body body;
};

struct Initial {
  std::string label;
  Body body;
};

struct Instance {
  std::string module;
  std::string name;
  std::vector<std::pair<std::string, std::string>> params;  // .Name(value)
  std::vector<std::pair<std::string, std::string>> ports;   // .port(expr)
};

struct GenerateFor {
  std::string label;   // gen_...
  std::string genvar;  // declared by the loop: for (genvar g = 0; g < limit; g++)
  std::string limit;
  Items items;
};

struct GenerateIf {
  std::string cond;
  std::string label;
  Items items;
  std::string else_label;  // empty: no else branch
  Items else_items;
};

// A named index function: the index arithmetic of a flat vector given a name.
//   function automatic int unsigned Name(int unsigned a, int unsigned b);
//     Name = expr;
//   endfunction
// 32-bit unsigned like the 32'(...) index arithmetic it replaces. (Yosys 0.23 reads neither
// `return` nor packed multi-dimensional arrays; this form it does.)
struct Function {
  std::string name;
  std::vector<std::string> args;  // int unsigned arguments
  std::string expr;
  std::string comment;  // printed above, optional
};

struct Ifdef {  // `ifdef MACRO ... `endif, e.g. the assertion guard
  std::string macro;
  Items items;
};

struct Item {
  std::variant<CommentItem, BlankLine, LocalParam, Net, ContinuousAssign, Always, Initial, Instance,
               GenerateFor, GenerateIf, Ifdef, Function>
      node;
};

// ---------------------------------------------------------------- module and file

enum class Dir { kInput, kOutput };

struct Param {
  std::string name;
  std::string value;  // default
  std::string comment;
  bool local = false;  // localparam in the parameter list (derived, not overridable)
};

struct Port {
  Dir dir = Dir::kInput;
  std::string name;
  std::string width;  // "" for 1 bit, else MSB expression
  std::string comment;
};

struct Module {
  std::string name;
  std::vector<std::string> doc;  // comment lines printed above the module
  std::vector<Param> params;
  std::vector<Port> ports;
  Items items;

  // Builder conveniences.
  Module& Add(Item item);
  Module& Comment(std::string text);
  Module& Blank();
};

struct SourceFile {
  std::string file_name;              // "rf_flop_3r1w_48x128_a1b2c3.sv"
  std::vector<std::string> banner;    // comment lines at the very top
  Module module;                      // one module per file
  std::vector<std::string> includes;  // `include "name" lines between banner and module
};

Item MakeItem(CommentItem x);
Item MakeItem(BlankLine x);
Item MakeItem(LocalParam x);
Item MakeItem(Net x);
Item MakeItem(ContinuousAssign x);
Item MakeItem(Always x);
Item MakeItem(Initial x);
Item MakeItem(Instance x);
Item MakeItem(GenerateFor x);
Item MakeItem(GenerateIf x);
Item MakeItem(Ifdef x);
Item MakeItem(Function x);

}  // namespace gpurf::vlog
