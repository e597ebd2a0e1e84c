// A test fixture that runs the real gpurf binary (GPURF_BINARY, defined by the test target) in a
// fresh work folder per test, capturing exit code, stdout and stderr.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <set>
#include <string>
#include <utility>

#include "base/fs.h"

namespace gpurf {

struct RunResult {
  int code = -1;
  std::string out;
  std::string err;
};

class GpurfCliTest : public testing::Test {
 protected:
  explicit GpurfCliTest(std::string prefix) : prefix_(std::move(prefix)) {}

  void SetUp() override {
    tmp_ = MakeTempDir(fs::temp_directory_path(), prefix_);
    work_ = tmp_ / "work";
    fs::create_directories(work_);
  }
  void TearDown() override { fs::remove_all(tmp_); }

  // Runs `gpurf <args>` with the work folder as the current directory.
  RunResult Gpurf(const std::string& args) const {
    const fs::path out = tmp_ / "stdout.txt", err = tmp_ / "stderr.txt";
    const std::string cmd = "cd '" + work_.string() + "' && '" GPURF_BINARY "' " + args + " >'" +
                            out.string() + "' 2>'" + err.string() + "'";
    const int status = std::system(cmd.c_str());
    RunResult r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = ReadFile(out);
    r.err = ReadFile(err);
    return r;
  }

  // What the work folder holds (to check that bad input wrote nothing).
  std::set<std::string> WorkEntries() const {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(work_))
      names.insert(e.path().filename().string());
    return names;
  }

  fs::path tmp_;
  fs::path work_;

 private:
  std::string prefix_;
};

}  // namespace gpurf
