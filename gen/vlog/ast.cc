#include "gen/vlog/ast.h"

namespace gpurf::vlog {

Stmt Blocking(std::string lhs, std::string rhs) {
  return Stmt{Assign{std::move(lhs), std::move(rhs), false}};
}
Stmt NonBlocking(std::string lhs, std::string rhs) {
  return Stmt{Assign{std::move(lhs), std::move(rhs), true}};
}
Stmt IfThen(std::string cond, Body then_body, Body else_body) {
  return Stmt{If{std::move(cond), std::move(then_body), std::move(else_body)}};
}
Stmt ForLoop(std::string var, std::string limit, Body body) {
  return Stmt{For{std::move(var), std::move(limit), std::move(body)}};
}
Stmt SysCall(std::string name, std::vector<std::string> args) {
  return Stmt{Call{std::move(name), std::move(args)}};
}
Stmt Note(std::string text) {
  return Stmt{Comment{std::move(text)}};
}
Stmt Assert(std::string cond, std::vector<std::string> error) {
  return Stmt{Check{Check::Kind::kAssert, std::move(cond), std::move(error)}};
}
Stmt Assume(std::string cond) {
  return Stmt{Check{Check::Kind::kAssume, std::move(cond), {}}};
}

Module& Module::Add(Item item) {
  items.push_back(std::move(item));
  return *this;
}
Module& Module::Comment(std::string text) {
  return Add(MakeItem(CommentItem{std::move(text)}));
}
Module& Module::Blank() {
  return Add(MakeItem(BlankLine{}));
}

Item MakeItem(CommentItem x) {
  return Item{std::move(x)};
}
Item MakeItem(BlankLine x) {
  return Item{x};
}
Item MakeItem(LocalParam x) {
  return Item{std::move(x)};
}
Item MakeItem(Net x) {
  return Item{std::move(x)};
}
Item MakeItem(ContinuousAssign x) {
  return Item{std::move(x)};
}
Item MakeItem(Always x) {
  return Item{std::move(x)};
}
Item MakeItem(Initial x) {
  return Item{std::move(x)};
}
Item MakeItem(Instance x) {
  return Item{std::move(x)};
}
Item MakeItem(GenerateFor x) {
  return Item{std::move(x)};
}
Item MakeItem(GenerateIf x) {
  return Item{std::move(x)};
}
Item MakeItem(Ifdef x) {
  return Item{std::move(x)};
}
Item MakeItem(Function x) {
  return Item{std::move(x)};
}

}  // namespace gpurf::vlog
