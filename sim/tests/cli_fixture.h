// A test fixture that runs the real gpurf binary (GPURF_BINARY, defined by the test target)
// with its own temporary folder per test, capturing exit code, stdout and stderr.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

namespace gpurf::test {

struct CliResult {
  int code = -1;
  std::string out, err;
};

inline std::string Slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class CliFixture : public testing::Test {
 protected:
  explicit CliFixture(std::string prefix) : prefix_(std::move(prefix)) {}
  void SetUp() override {
    dir_ = std::filesystem::path(testing::TempDir()) / (prefix_ + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  CliResult Run(const std::string& args) const {
    const std::filesystem::path out = dir_ / "out.txt", err = dir_ / "err.txt";
    const std::string cmd =
        "'" GPURF_BINARY "' " + args + " >'" + out.string() + "' 2>'" + err.string() + "'";
    const int st = std::system(cmd.c_str());
    CliResult r;
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.out = Slurp(out);
    r.err = Slurp(err);
    return r;
  }
  std::filesystem::path dir_;

 private:
  std::string prefix_;
};

}  // namespace gpurf::test
