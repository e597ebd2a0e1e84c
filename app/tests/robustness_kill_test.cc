// Faults as a test suite (labels "rtl" and "robustness"): gpurf killed with SIGINT, SIGTERM and
// SIGKILL at several points of `gpurf verify` and `gpurf flow` (Verilator build, simulation,
// lint, Yosys/ABC synthesis, gate-level characterization), then run again; concurrent runs
// sharing one cache; damaged cache entries. After every kill: no process gpurf started is still
// running (none has its working folder or command line in the test's folder), no temporary or
// build folder is left (TMPDIR and the cache hold nothing but complete entries), and the output
// folder is either absent or marked incomplete. Every re-run succeeds with the same results as an
// uninterrupted run.
//
// Each kill waits for a sign that gpurf reached the point (a build folder in the cache, a tool
// running in it), so the points are reached on slow and fast machines alike.

#include <dirent.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "base/fs.h"

namespace gpurf {
namespace {

using Clock = std::chrono::steady_clock;

// Polls `cond` every 20 ms for at most `seconds`.
bool WaitFor(const std::function<bool()>& cond, double seconds) {
  const auto end = Clock::now() + std::chrono::duration<double>(seconds);
  while (Clock::now() < end) {
    if (cond())
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return cond();
}

// Processes (other than this test) whose working folder or command line lies under `root`.
std::vector<std::string> ProcessesUnder(const fs::path& root) {
  std::vector<std::string> found;
  const std::string r = root.string();
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string pid = e.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos || pid == std::to_string(getpid()))
      continue;
    std::error_code ec;
    const fs::path cwd = fs::read_symlink(e.path() / "cwd", ec);
    std::string cmd;
    try {
      cmd = ReadFile(e.path() / "cmdline");
    } catch (...) {
      continue;  // exited meanwhile
    }
    for (char& c : cmd)
      if (c == '\0')
        c = ' ';
    std::string stat;
    try {
      stat = ReadFile(e.path() / "stat");
    } catch (...) {
      continue;
    }
    if (stat.find(") Z ") != std::string::npos)
      continue;  // a zombie is dead; its parent reaps it
    if ((!ec && cwd.string().rfind(r, 0) == 0) || cmd.find(r) != std::string::npos)
      found.push_back(pid + ": " + cmd.substr(0, 200));
  }
  return found;
}

// Entries of `dir` (recursively) whose name starts with one of `prefixes`.
std::vector<std::string> Leftovers(const fs::path& dir, const std::vector<std::string>& prefixes) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    for (const auto& p : prefixes)
      if (name.rfind(p, 0) == 0)
        out.push_back(it->path().string());
  }
  return out;
}

class KillTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = MakeTempDir(fs::temp_directory_path(), "gpurf-kill-test");
    cache_ = root_ / "cache";
    tmpdir_ = root_ / "tmp";
    work_ = root_ / "work";
    fs::create_directories(tmpdir_);
    fs::create_directories(work_);
  }
  void TearDown() override {
    // Whatever a failed test left running must not outlive it.
    for (const auto& p : ProcessesUnder(root_))
      kill(std::stoi(p.substr(0, p.find(':'))), SIGKILL);
    std::error_code ec;
    fs::remove_all(root_, ec);
  }

  // Starts gpurf with the test's cache and TMPDIR; stdout and stderr into work/<log>.
  pid_t Start(const std::string& args, const std::string& log) const {
    const std::string cmd =
        "exec '" GPURF_BINARY "' " + args + " >'" + (work_ / log).string() + "' 2>&1";
    const pid_t pid = fork();
    if (pid == 0) {
      setenv("GPURF_CACHE_DIR", cache_.c_str(), 1);
      setenv("TMPDIR", tmpdir_.c_str(), 1);
      if (chdir(work_.c_str()) != 0)
        _exit(126);
      execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    return pid;
  }

  // Waits for `pid`; returns its shell-style status (exit code, or 128 + signal).
  static int Wait(pid_t pid, double seconds = 900) {
    int status = 0;
    const bool done = WaitFor([&] { return waitpid(pid, &status, WNOHANG) == pid; }, seconds);
    if (!done) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  int Run(const std::string& args, const std::string& log) const { return Wait(Start(args, log)); }

  std::string Log(const std::string& log) const { return ReadFile(work_ / log); }

  // After gpurf died: its children are gone and nothing temporary is left, within a few seconds
  // (SIGKILL: the guardian cleans up after it).
  void ExpectCleanAfterKill(const std::string& when) const {
    SCOPED_TRACE(when);
    std::vector<std::string> procs;
    EXPECT_TRUE(WaitFor([&] { return (procs = ProcessesUnder(root_)).empty(); }, 10))
        << "still running: " << testing::PrintToString(procs);
    std::vector<std::string> left;
    EXPECT_TRUE(WaitFor(
        [&] {
          left = Leftovers(cache_, {".build-", ".damaged-"});
          for (const auto& e : fs::directory_iterator(tmpdir_))
            left.push_back(e.path().string());
          for (const auto& l : Leftovers(work_, {".out.staging-", ".out.old-"}))
            left.push_back(l);
          return left.empty();
        },
        10))
        << "left behind: " << testing::PrintToString(left);
  }

  // A folder being built in the cache (`sub`: models, synth, characterize) with a process
  // working in it.
  bool Building(const std::string& sub) const {
    if (Leftovers(cache_ / sub, {".build-"}).empty())
      return false;
    for (const auto& p : ProcessesUnder(cache_ / sub))
      if (p.find(".build-") != std::string::npos)
        return true;
    return false;
  }

  fs::path root_, cache_, tmpdir_, work_;
};

// The result lines of verify without their timing: "PASS <top>: <cycles> cycles, seed <s>".
std::string VerifyResult(const std::string& log) {
  std::string out;
  for (size_t at = 0; (at = log.find("PASS ", at)) != std::string::npos; ++at) {
    const size_t end = log.find(", seed ", at);
    const size_t end2 = log.find(',', end + 1);
    out += log.substr(at, end2 - at) + "\n";
  }
  return out;
}

const std::string kVerify =
    "verify flop-array --entries 8 --width 8 --read-ports 2 --write-ports 2 --cycles ";

TEST_F(KillTest, VerifyKilledWhileBuildingOrSimulatingThenRerun) {
  struct Point {
    int sig;
    const char* what;
    bool during_build;
  };
  const std::vector<Point> points = {{SIGINT, "SIGINT during the Verilator build", true},
                                     {SIGTERM, "SIGTERM during the Verilator build", true},
                                     {SIGKILL, "SIGKILL during the Verilator build", true}};
  for (const Point& p : points) {
    const pid_t pid = Start(kVerify + "1000", "verify.log");
    ASSERT_TRUE(WaitFor([&] { return Building("models"); }, 120)) << p.what;
    kill(pid, p.sig);
    EXPECT_EQ(Wait(pid, 30), 128 + p.sig) << p.what << Log("verify.log");
    ExpectCleanAfterKill(p.what);
    EXPECT_FALSE(fs::exists(cache_ / "models") && !fs::is_empty(cache_ / "models"))
        << p.what << ": an unfinished model was published";
  }
  // Killed while simulating (the model is built and cached by then).
  ASSERT_EQ(Run(kVerify + "1000", "first.log"), 0) << Log("first.log");
  for (const int sig : {SIGINT, SIGTERM, SIGKILL}) {
    const pid_t pid = Start(kVerify + "100000000", "long.log");
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    kill(pid, sig);
    EXPECT_EQ(Wait(pid, 30), 128 + sig);
    ExpectCleanAfterKill("killed while simulating");
  }
  ASSERT_EQ(Run(kVerify + "1000", "again.log"), 0) << Log("again.log");
  EXPECT_EQ(VerifyResult(Log("again.log")), VerifyResult(Log("first.log")));
  EXPECT_NE(VerifyResult(Log("first.log")), "");
}

TEST_F(KillTest, FlowKilledInLintSynthesisAndCharacterizationThenRerun) {
  const std::string flow = "flow flop-array --entries 6 --width 8 --read-ports 2 --cycles 500 -o ";
  struct Point {
    int sig;
    const char* what;
    std::function<bool()> reached;
  };
  const std::vector<Point> points = {
      {SIGTERM, "SIGTERM while Yosys/ABC synthesize", [&] { return Building("synth"); }},
      {SIGINT, "SIGINT while the gate-level model builds",
       [&] { return Building("characterize") || Building("models"); }},
      {SIGKILL, "SIGKILL in the characterization",
       [&] { return !Leftovers(cache_ / "characterize", {".build-"}).empty(); }},
  };
  for (const Point& p : points) {
    const pid_t pid = Start(flow + "out", "flow.log");
    ASSERT_TRUE(WaitFor(p.reached, 300)) << p.what << "\n" << Log("flow.log");
    kill(pid, p.sig);
    EXPECT_EQ(Wait(pid, 30), 128 + p.sig) << p.what << Log("flow.log");
    ExpectCleanAfterKill(p.what);
    // The RTL was generated before the kill: the folder says it is incomplete.
    EXPECT_TRUE(fs::exists(work_ / "out" / "FLOW-INCOMPLETE.txt")) << p.what;
  }
  ASSERT_EQ(Run(flow + "out", "flow.log"), 0) << Log("flow.log");
  EXPECT_FALSE(fs::exists(work_ / "out" / "FLOW-INCOMPLETE.txt"));
  EXPECT_TRUE(fs::exists(work_ / "out" / "characterization" / "characterization.json"));
  // An uninterrupted run into another folder gives the same figures.
  ASSERT_EQ(Run(flow + "ref", "ref.log"), 0) << Log("ref.log");
  const auto figures = [&](const fs::path& dir) {
    const auto c =
        nlohmann::json::parse(ReadFile(dir / "characterization" / "characterization.json"));
    const auto s = nlohmann::json::parse(ReadFile(dir / "synthesis" / "synthesis.json"));
    std::string f;
    for (const auto& m : c.at("modules"))
      f += m.at("module").dump() + m.at("e_read_pj").dump() + m.at("e_write_pj").dump() + "\n";
    for (const auto& m : s.at("modules"))
      f += m.at("module").dump() + m.at("total_area").dump() + "\n";
    return f;
  };
  EXPECT_EQ(figures(work_ / "out"), figures(work_ / "ref"));
  EXPECT_TRUE(ProcessesUnder(root_).empty());
  EXPECT_TRUE(fs::is_empty(tmpdir_));
}

TEST_F(KillTest, ConcurrentRunsShareOneCache) {
  // Three processes build the same model and synthesize the same module at once.
  std::vector<pid_t> pids;
  for (int i = 0; i < 3; ++i)
    pids.push_back(Start(kVerify + "2000", "v" + std::to_string(i) + ".log"));
  for (int i = 0; i < 2; ++i)
    pids.push_back(Start("synth flop-array --entries 6 --width 8 --read-ports 2",
                         "s" + std::to_string(i) + ".log"));
  for (size_t i = 0; i < pids.size(); ++i)
    EXPECT_EQ(Wait(pids[i]), 0) << i;
  EXPECT_EQ(VerifyResult(Log("v0.log")), VerifyResult(Log("v1.log")));
  EXPECT_EQ(VerifyResult(Log("v0.log")), VerifyResult(Log("v2.log")));
  size_t models = 0;
  for (const auto& e : fs::directory_iterator(cache_ / "models"))
    models += e.path().filename().string().rfind("rf_flop", 0) == 0;
  EXPECT_EQ(models, 1U);
  EXPECT_TRUE(Leftovers(cache_, {".build-", ".damaged-"}).empty());
  EXPECT_TRUE(fs::is_empty(tmpdir_));
}

// Issue defect 4: a truncated libdut.so crashed with SIGBUS, an empty or garbage one failed with
// exit 3 forever, a deleted one could not be placed again, a truncated stat.json failed forever.
TEST_F(KillTest, DamagedCacheEntriesAreRebuiltWithAWarning) {
  ASSERT_EQ(Run(kVerify + "500", "first.log"), 0) << Log("first.log");
  fs::path model;
  for (const auto& e : fs::directory_iterator(cache_ / "models"))
    if (e.path().filename().string().rfind("rf_flop", 0) == 0)
      model = e.path() / "obj" / "libdut.so";
  ASSERT_TRUE(fs::exists(model));
  const std::vector<std::pair<std::string, std::function<void()>>> damages = {
      {"truncated", [&] { fs::resize_file(model, fs::file_size(model) / 2); }},
      {"empty", [&] { WriteFile(model, ""); }},
      {"garbage", [&] { WriteFile(model, std::string(4096, 'g')); }},
      {"deleted", [&] { fs::remove(model); }},
  };
  for (const auto& [what, damage] : damages) {
    damage();
    ASSERT_EQ(Run(kVerify + "500", "again.log"), 0) << what << Log("again.log");
    EXPECT_NE(Log("again.log").find("damaged Verilator model"), std::string::npos) << what;
    EXPECT_EQ(VerifyResult(Log("again.log")), VerifyResult(Log("first.log"))) << what;
  }
  const std::string synth = "synth flop-array --entries 6 --width 8 --read-ports 2";
  ASSERT_EQ(Run(synth, "s1.log"), 0) << Log("s1.log");
  fs::path stat;
  for (const auto& e : fs::directory_iterator(cache_ / "synth"))
    stat = e.path() / "stat.json";
  fs::resize_file(stat, 10);
  ASSERT_EQ(Run(synth, "s2.log"), 0) << Log("s2.log");
  EXPECT_NE(Log("s2.log").find("damaged synthesis"), std::string::npos);
  const auto table = [](const std::string& log) { return log.substr(log.find('|')); };
  EXPECT_EQ(table(Log("s2.log")), table(Log("s1.log")));
  EXPECT_TRUE(Leftovers(cache_, {".build-", ".damaged-"}).empty());
}

}  // namespace
}  // namespace gpurf
