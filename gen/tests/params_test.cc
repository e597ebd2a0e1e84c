// ParamSet / ParamDesc: Set() for each type (int, bool, enum, string) with accepted values,
// wrong types, both ends of the range, enum typos and unknown names with suggestions; the
// InputError fields; defaults, LocateDefaults and Reject; ToJson order, Canonical();
// ParseInt/ParseBool, EditDistance and ClosestMatchIn thresholds.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/diag.h"
#include "gen/params/param.h"

namespace gpurf {
namespace {

std::vector<ParamDesc> Descs() {
  return {IntParam("read_ports", 1, 8, 3, "read ports"), BoolParam("bypass", false, "bypass"),
          EnumParam("read_mode", {"comb", "reg"}, "comb", "mode"),
          StringParam("label", "x", 8, "free text"), IntParam("offset", -4, 4, 0, "signed")};
}

const SourceLoc kLoc{"f.yaml", 7, 9};

// Runs Set and returns the InputError it must throw.
InputError SetError(ParamSet& p, const std::string& name, const std::string& text,
                    const std::string& field = "sec.x") {
  try {
    p.Set(name, text, kLoc, field);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "Set(" << name << ", '" << text << "') was accepted";
  return InputError({}, "", "", "");
}

TEST(ParamDesc, FlagAndAllowedText) {
  const auto d = Descs();
  EXPECT_EQ(d[0].flag(), "--read-ports");
  EXPECT_EQ(d[0].allowed(), "integer 1..8");
  EXPECT_EQ(d[1].allowed(), "true or false");
  EXPECT_EQ(d[2].allowed(), "one of: comb, reg");
  EXPECT_EQ(d[3].allowed(), "text of 1..8 printable characters, no quotes or backslashes");
  EXPECT_EQ(d[4].allowed(), "integer -4..4");
  EXPECT_EQ(d[0].default_value, "3");
  EXPECT_EQ(d[1].default_value, "false");
}

TEST(ParamSet, DefaultsAreLoadedAndMarked) {
  const ParamSet p(Descs());
  EXPECT_EQ(p.Int("read_ports"), 3);
  EXPECT_FALSE(p.Bool("bypass"));
  EXPECT_EQ(p.Enum("read_mode"), "comb");
  EXPECT_EQ(p.Str("label"), "x");
  EXPECT_TRUE(p.Get("read_ports").defaulted);
  EXPECT_FALSE(p.Get("read_ports").loc.known());
  EXPECT_TRUE(p.Has("bypass"));
  EXPECT_FALSE(p.Has("nope"));
  EXPECT_EQ(p.Find("nope"), nullptr);
  ASSERT_NE(p.Find("read_mode"), nullptr);
  EXPECT_EQ(p.Find("read_mode")->type, ParamType::kEnum);
}

TEST(ParamSet, AcceptsLegalValuesOfEveryType) {
  ParamSet p(Descs());
  p.Set("read_ports", "1", kLoc, "a.read_ports");
  EXPECT_EQ(p.Int("read_ports"), 1);
  p.Set("read_ports", "8", kLoc, "a.read_ports");
  EXPECT_EQ(p.IntAsInt("read_ports"), 8);
  EXPECT_FALSE(p.Get("read_ports").defaulted);
  EXPECT_EQ(p.Get("read_ports").field, "a.read_ports");
  EXPECT_EQ(p.Get("read_ports").loc.str(), "f.yaml:7:9");
  p.Set("offset", "-4", kLoc, "a.offset");
  EXPECT_EQ(p.Int("offset"), -4);
  p.Set("offset", "+4", kLoc, "a.offset");
  EXPECT_EQ(p.Int("offset"), 4);
  EXPECT_EQ(p.Get("offset").s, "4");  // textual form is normalised

  for (const char* t : {"true", "yes", "on", "1"}) {
    p.Set("bypass", t, kLoc, "a.bypass");
    EXPECT_TRUE(p.Bool("bypass")) << t;
    EXPECT_EQ(p.Get("bypass").s, "true");
  }
  for (const char* t : {"false", "no", "off", "0"}) {
    p.Set("bypass", t, kLoc, "a.bypass");
    EXPECT_FALSE(p.Bool("bypass")) << t;
    EXPECT_EQ(p.Get("bypass").s, "false");
  }
  p.Set("read_mode", "reg", kLoc, "a.read_mode");
  EXPECT_EQ(p.Enum("read_mode"), "reg");
  p.Set("label", "a b-c_1", kLoc, "a.label");
  EXPECT_EQ(p.Str("label"), "a b-c_1");
  p.Set("label", "12345678", kLoc, "a.label");  // exactly max length
  EXPECT_EQ(p.Str("label"), "12345678");
}

TEST(ParamSet, WrongTypeForIntNamesFieldValueAndRange) {
  ParamSet p(Descs());
  for (const char* bad : {"abc", "3.5", "", "0x3", "3 ", "-", "1e2"}) {
    const InputError e = SetError(p, "read_ports", bad, "sec.read_ports");
    SCOPED_TRACE(bad);
    EXPECT_EQ(e.field(), "sec.read_ports");
    EXPECT_EQ(e.value(), bad);
    EXPECT_EQ(e.problem(), "expected an integer");
    EXPECT_EQ(e.allowed(), "integer 1..8");
    EXPECT_EQ(e.loc().str(), "f.yaml:7:9");
  }
  const InputError e = SetError(p, "read_ports", "abc", "sec.read_ports");
  EXPECT_STREQ(e.what(),
               "f.yaml:7:9: error: sec.read_ports: expected an integer (got 'abc'); allowed: "
               "integer 1..8");
  // The failed Set leaves the previous value in place.
  EXPECT_EQ(p.Int("read_ports"), 3);
  EXPECT_TRUE(p.Get("read_ports").defaulted);
}

TEST(ParamSet, OutOfRangeAtBothEnds) {
  ParamSet p(Descs());
  for (const char* bad : {"0", "9", "-1", "1000000"}) {
    const InputError e = SetError(p, "read_ports", bad);
    EXPECT_EQ(e.problem(), "out of range") << bad;
    EXPECT_EQ(e.value(), bad);
    EXPECT_EQ(e.allowed(), "integer 1..8");
  }
  EXPECT_EQ(SetError(p, "offset", "-5").problem(), "out of range");
  EXPECT_EQ(SetError(p, "offset", "5").problem(), "out of range");
  // Too many digits to be an int64 is not an integer at all.
  EXPECT_EQ(SetError(p, "read_ports", "99999999999999999999").problem(), "expected an integer");
}

TEST(ParamSet, BoolRejectsOtherWords) {
  ParamSet p(Descs());
  for (const char* bad : {"maybe", "TRUE", "2", ""}) {
    const InputError e = SetError(p, "bypass", bad, "storage.bypass");
    EXPECT_EQ(e.problem(), "expected a boolean") << bad;
    EXPECT_EQ(e.field(), "storage.bypass");
    EXPECT_EQ(e.allowed(), "true or false");
  }
}

TEST(ParamSet, EnumTypoSuggestsClosestChoice) {
  ParamSet p(Descs());
  const InputError e = SetError(p, "read_mode", "rge", "storage.read_mode");
  EXPECT_EQ(e.problem(), "not a valid choice (did you mean 'reg'?)");
  EXPECT_EQ(e.value(), "rge");
  EXPECT_EQ(e.allowed(), "one of: comb, reg");
  EXPECT_NE(std::string(e.what()).find("did you mean 'reg'?"), std::string::npos);
  // Far from every choice: no suggestion.
  const InputError far = SetError(p, "read_mode", "pipelined");
  EXPECT_EQ(far.problem(), "not a valid choice");
  // Case matters.
  EXPECT_EQ(SetError(p, "read_mode", "COMB").value(), "COMB");
}

TEST(ParamSet, StringRejectsEmptyTooLongAndQuotes) {
  ParamSet p(Descs());
  for (const std::string& bad : {std::string(""), std::string("123456789"), std::string("a\"b"),
                                 std::string("a\\b"), std::string("a\tb")}) {
    const InputError e = SetError(p, "label", bad);
    EXPECT_EQ(e.problem(), "not a valid text value") << bad;
    EXPECT_EQ(e.allowed(), "text of 1..8 printable characters, no quotes or backslashes");
  }
}

TEST(ParamSet, UnknownNameSuggestsParameterAndListsAll) {
  ParamSet p(Descs());
  const InputError e = SetError(p, "read_prots", "3", "sec.read_prots");
  EXPECT_EQ(e.problem(), "unknown parameter (did you mean 'read_ports'?)");
  EXPECT_EQ(e.field(), "sec.read_prots");
  EXPECT_EQ(e.value(), "read_prots");
  EXPECT_EQ(e.allowed(), "read_ports, bypass, read_mode, label, offset");
  const InputError none = SetError(p, "completely_different", "3");
  EXPECT_EQ(none.problem(), "unknown parameter");
}

TEST(ParamSet, RejectPointsAtTheGivenValue) {
  ParamSet p(Descs());
  p.Set("read_ports", "5", kLoc, "sec.read_ports");
  try {
    p.Reject("read_ports", "too many for this mode", "1..4");
    FAIL() << "Reject returned";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().str(), "f.yaml:7:9");
    EXPECT_EQ(e.field(), "sec.read_ports");
    EXPECT_EQ(e.value(), "5");
    EXPECT_EQ(e.problem(), "too many for this mode");
    EXPECT_EQ(e.allowed(), "1..4");
  }
}

TEST(ParamSet, RejectOfADefaultSaysSoAndUsesLocateDefaults) {
  ParamSet p(Descs());
  p.Set("bypass", "true", kLoc, "storage.bypass");
  p.LocateDefaults(SourceLoc{"f.yaml", 3, 1}, "storage");
  // Given values keep their own location and field.
  EXPECT_EQ(p.Get("bypass").field, "storage.bypass");
  EXPECT_EQ(p.Get("bypass").loc.str(), "f.yaml:7:9");
  EXPECT_EQ(p.Get("read_mode").field, "storage.read_mode");
  EXPECT_TRUE(p.Get("read_mode").defaulted);
  try {
    p.Reject("read_mode", "needs reg", "reg");
    FAIL() << "Reject returned";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().str(), "f.yaml:3:1");
    EXPECT_EQ(e.field(), "storage.read_mode");
    EXPECT_EQ(e.value(), "comb");
    EXPECT_EQ(e.problem(), "needs reg (the default value; set it explicitly)");
  }
}

TEST(ParamSet, ToJsonInDeclarationOrderWithTypedValues) {
  ParamSet p(Descs());
  p.Set("offset", "-2", kLoc, "o");  // set last-declared first: order must not change
  p.Set("bypass", "yes", kLoc, "b");
  const nlohmann::ordered_json j = p.ToJson();
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items())
    keys.push_back(k);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"read_ports", "bypass", "read_mode", "label", "offset"}));
  EXPECT_TRUE(j["read_ports"].is_number_integer());
  EXPECT_EQ(j["read_ports"], 3);
  EXPECT_TRUE(j["bypass"].is_boolean());
  EXPECT_EQ(j["bypass"], true);
  EXPECT_EQ(j["read_mode"], "comb");
  EXPECT_EQ(j["label"], "x");
  EXPECT_EQ(j["offset"], -2);
  EXPECT_EQ(j.dump(),
            R"({"read_ports":3,"bypass":true,"read_mode":"comb","label":"x","offset":-2})");
}

TEST(ParamSet, CanonicalIsNormalisedTextInDeclarationOrder) {
  ParamSet a(Descs()), b(Descs());
  EXPECT_EQ(a.Canonical(), "read_ports=3;bypass=false;read_mode=comb;label=x;offset=0;");
  // Equivalent spellings give the same canonical text; a different value does not.
  a.Set("bypass", "on", kLoc, "f");
  b.Set("bypass", "true", kLoc, "f");
  a.Set("offset", "+1", kLoc, "f");
  b.Set("offset", "1", kLoc, "f");
  EXPECT_EQ(a.Canonical(), b.Canonical());
  b.Set("read_ports", "4", kLoc, "f");
  EXPECT_NE(a.Canonical(), b.Canonical());
}

TEST(Parse, IntAndBool) {
  EXPECT_EQ(ParseInt("42"), 42);
  EXPECT_EQ(ParseInt("-7"), -7);
  EXPECT_EQ(ParseInt("+7"), 7);
  EXPECT_EQ(ParseInt("007"), 7);
  EXPECT_FALSE(ParseInt(""));
  EXPECT_FALSE(ParseInt("+"));
  EXPECT_FALSE(ParseInt("4 2"));
  EXPECT_FALSE(ParseInt("3.5"));
  EXPECT_EQ(ParseBool("yes"), true);
  EXPECT_EQ(ParseBool("off"), false);
  EXPECT_FALSE(ParseBool("y"));
}

TEST(Diag, EditDistance) {
  EXPECT_EQ(EditDistance("", ""), 0U);
  EXPECT_EQ(EditDistance("abc", ""), 3U);
  EXPECT_EQ(EditDistance("", "abc"), 3U);
  EXPECT_EQ(EditDistance("entries", "entries"), 0U);
  EXPECT_EQ(EditDistance("entires", "entries"), 2U);  // transposition = two edits
  EXPECT_EQ(EditDistance("lane", "lanes"), 1U);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3U);
  EXPECT_EQ(EditDistance("sitting", "kitten"), 3U);
}

TEST(Diag, ClosestMatchInHonoursTheTypoLimit) {
  const std::vector<std::string> keys = {"design", "sm", "mrf", "hierarchy", "storage"};
  EXPECT_EQ(ClosestMatchIn(std::string("hierachy"), keys), "hierarchy");
  EXPECT_EQ(ClosestMatchIn(std::string("storag"), keys), "storage");
  EXPECT_EQ(ClosestMatchIn(std::string("mfr"), keys), "mrf");  // distance 2 <= 2
  EXPECT_FALSE(ClosestMatchIn(std::string("xyz"), keys));      // distance 3 > 2
  EXPECT_FALSE(ClosestMatchIn(std::string("scheduler"), keys));
  // Long words allow len/3 edits: "hxxrarchy" is 3 edits from "hierarchy" (9/3 = 3).
  EXPECT_EQ(ClosestMatchIn(std::string("hxxrxrchy"), keys), "hierarchy");
  EXPECT_FALSE(ClosestMatchIn(std::string("hxxxxxchy"), keys));
  EXPECT_FALSE(ClosestMatchIn(std::string("abc"), std::vector<std::string>{}));
  // Ties go to the first candidate.
  EXPECT_EQ(ClosestMatch("ab", {"aa", "bb"}), "aa");
}

TEST(Diag, InputErrorMessageFormat) {
  const InputError full(SourceLoc{"d.yaml", 4, 2}, "sm.lanes", "0", "out of range",
                        "integer 1..64");
  EXPECT_STREQ(full.what(),
               "d.yaml:4:2: error: sm.lanes: out of range (got '0'); allowed: integer 1..64");
  const InputError bare({}, "", "", "something broke");
  EXPECT_STREQ(bare.what(), "error: something broke");
  EXPECT_EQ(SourceLoc({"d.yaml", 4, 0}).str(), "d.yaml:4");
  EXPECT_EQ(SourceLoc({"d.yaml", 0, 0}).str(), "d.yaml");
  EXPECT_EQ(SourceLoc{}.str(), "");
}

}  // namespace
}  // namespace gpurf
