// Lint waiver file parsing: the committed file parses, and every malformed line is rejected
// with its line number and the field at fault.
#include <gtest/gtest.h>

#include "base/diag.h"
#include "verif/lint/lint.h"

namespace gpurf {
namespace {

TEST(LintWaivers, CommittedFileParses) {
  EXPECT_NO_THROW(BuiltinWaivers());
}

TEST(LintWaivers, ParsesFields) {
  const auto ws = ParseWaivers(
      "# comment\n\nverilator | UNUSED.*foo | foo is kept for the port contract\n", "w.txt");
  ASSERT_EQ(ws.size(), 1u);
  EXPECT_EQ(ws[0].tool, "verilator");
  EXPECT_EQ(ws[0].pattern, "UNUSED.*foo");
  EXPECT_EQ(ws[0].reason, "foo is kept for the port contract");
}

void ExpectReject(const std::string& text, const std::string& field, int line) {
  try {
    ParseWaivers(text, "w.txt");
    FAIL() << "accepted: " << text;
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_EQ(e.loc().line, line) << e.what();
  }
}

TEST(LintWaivers, RejectsMalformedLines) {
  ExpectReject("verilator UNUSED reason\n", "waiver", 1);
  ExpectReject("# c\nvcs | X | why\n", "waiver.tool", 2);
  ExpectReject("yosys | X |   \n", "waiver.reason", 1);
  ExpectReject("iverilog | ([ | bad regex\n", "waiver.regex", 1);
}

}  // namespace
}  // namespace gpurf
