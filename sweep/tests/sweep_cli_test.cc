// gpurf sweep and gpurf results through the real binary: exit 2 before anything runs, resume
// after SIGKILL (completed steps skipped, results identical to an uninterrupted run), a failed
// step recorded without stopping the others, and the --where / --csv / --json queries.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>
#include <vector>

#include "base/fs.h"
#include "sweep/results_db.h"

namespace gpurf {
namespace {

struct CliRun {
  int rc = -1;
  std::string out;
};

CliRun Gpurf(const std::string& args) {
  CliRun r;
  const std::string cmd = std::string(GPURF_BINARY) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p))
    r.out.append(buf, n);
  const int st = pclose(p);
  r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return r;
}

fs::path Dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("gpurf-sweep-cli-test-" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

fs::path WriteSweep(const fs::path& dir, const std::string& axes, const std::string& workloads) {
  const fs::path p = dir / "sweep.yaml";
  std::ofstream(p) << "base:\n  design:\n    name: t\n  hierarchy:\n    kind: sw-orf\n"
                      "    levels: 2\n    l1_entries_per_thread: 3\naxes:\n"
                   << axes << "workloads: " << workloads << "\nsteps: [simulate]\n";
  return p;
}

size_t CountRecords(const fs::path& out) {
  size_t n = 0;
  if (!fs::exists(out / "points"))
    return 0;
  for (const auto& e : fs::recursive_directory_iterator(out / "points"))
    n += e.path().parent_path().filename() == "records" && e.path().extension() == ".json" &&
         !e.path().filename().string().starts_with(".");
  return n;
}

TEST(SweepCli, BadInputExits2BeforeAnythingRuns) {
  const fs::path d = Dir("bad");
  const fs::path f = WriteSweep(d, "  hierarchy.l1_entries_per_thread: [2, 0]\n", "[vectorAdd]");
  const CliRun r = Gpurf("sweep " + f.string() + " -o " + (d / "out").string());
  EXPECT_EQ(r.rc, 2) << r.out;
  EXPECT_NE(r.out.find(f.string() + ":9:40: error: hierarchy.l1_entries_per_thread"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(d / "out"));
  const CliRun s = Gpurf("sweep " + f.string() + " -o " + (d / "out").string() + " --backend pbs");
  EXPECT_EQ(s.rc, 2) << s.out;
  EXPECT_NE(s.out.find("pbs"), std::string::npos) << s.out;
  // The slurm: section is checked like the rest, before anything runs.
  const fs::path g = d / "slurm.yaml";
  std::ofstream(g) << "base:\n  design: {name: t}\naxes: {}\nworkloads: [vectorAdd]\n"
                      "steps: [simulate]\nslurm: {poll_secs: 1}\n";
  const CliRun u =
      Gpurf("sweep " + g.string() + " -o " + (d / "out").string() + " --backend slurm");
  EXPECT_EQ(u.rc, 2) << u.out;
  EXPECT_NE(u.out.find("slurm.poll_secs: unknown key (did you mean 'poll_seconds'?)"),
            std::string::npos)
      << u.out;
  EXPECT_FALSE(fs::exists(d / "out"));
  // A folder gpurf did not write is refused, untouched.
  const fs::path mine = d / "mine";
  fs::create_directories(mine);
  WriteFile(mine / "notes.txt", "mine");
  const fs::path ok = WriteSweep(d, "  hierarchy.l1_entries_per_thread: [2]\n", "[vectorAdd]");
  EXPECT_EQ(Gpurf("sweep " + ok.string() + " -o " + mine.string()).rc, 2);
  EXPECT_EQ(ReadFile(mine / "notes.txt"), "mine");
  EXPECT_EQ(std::distance(fs::directory_iterator(mine), fs::directory_iterator()), 1);
}

TEST(SweepCli, ResumesAfterSigkillWithIdenticalResults) {
  const fs::path d = Dir("kill");
  const fs::path f =
      WriteSweep(d, "  hierarchy.l1_entries_per_thread: {from: 1, to: 6, step: 1}\n", "[bfs]");
  const fs::path out = d / "out";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execl(GPURF_BINARY, GPURF_BINARY, "sweep", f.c_str(), "-o", out.c_str(), "-j", "1", nullptr);
    _exit(127);
  }
  // Kill it once some, not all, steps have their records.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (CountRecords(out) < 2 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  kill(pid, SIGKILL);
  int st = 0;
  waitpid(pid, &st, 0);
  const size_t before = CountRecords(out);
  ASSERT_GE(before, 2u);
  ASSERT_LT(before, 6u) << "the sweep finished before it could be killed";
  std::map<fs::path, std::string> kept;
  for (const auto& e : fs::recursive_directory_iterator(out / "points"))
    if (e.path().parent_path().filename() == "records")
      kept[e.path()] = ReadFile(e.path());

  const CliRun r = Gpurf("sweep " + f.string() + " -o " + out.string() + " -j 2");
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find(fmt::format("{} of 6 tasks already done", before)), std::string::npos)
      << r.out;
  EXPECT_NE(
      r.out.find(fmt::format("{} tasks run (0 failed), {} skipped as done", 6 - before, before)),
      std::string::npos)
      << r.out;
  for (const auto& [p, text] : kept)
    EXPECT_EQ(ReadFile(p), text) << p << " was redone";
  // A third run does nothing.
  EXPECT_NE(Gpurf("sweep " + f.string() + " -o " + out.string()).out.find("0 tasks run"),
            std::string::npos);

  // The same sweep from scratch, uninterrupted: the same metrics.
  const fs::path fresh = d / "fresh";
  ASSERT_EQ(Gpurf("sweep " + f.string() + " -o " + fresh.string() + " -j 2").rc, 0);
  // Every metric but the run times (wall_seconds, warp_instructions_per_second, ...).
  const std::string q =
      "SELECT point, step, workload, component, name, value FROM metrics "
      "WHERE name NOT LIKE '%second%' ORDER BY point, step, workload, "
      "component, name";
  ResultsDb a(out / "results.db"), b(fresh / "results.db");
  const auto ra = a.Query(q), rb = b.Query(q);
  EXPECT_GT(ra.size(), 6u * 10);
  EXPECT_TRUE(ra == rb) << "the resumed sweep's metrics differ from the uninterrupted one's";
}

// The processes whose command line names `path`.
std::vector<pid_t> ProcessesNaming(const std::string& path) {
  std::vector<pid_t> pids;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos)
      continue;
    std::ifstream in(e.path() / "cmdline", std::ios::binary);  // empty once the process is gone
    std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(path) != std::string::npos)
      pids.push_back(static_cast<pid_t>(std::stoi(name)));
  }
  return pids;
}

// Regression: SIGKILL to the sweep's whole process group (the sweep and its guardian at once,
// as `timeout -s KILL` does) left each running step, a grandchild under `sh -c`, running on as
// an orphan. Each step now replaces its shell and dies with the sweep.
TEST(SweepCli, KillingTheSweepsProcessGroupLeavesNoStepRunning) {
  const fs::path d = Dir("killgroup");
  const fs::path f = WriteSweep(d, "  hierarchy.l1_entries_per_thread: [2, 4]\n", "[all]");
  const fs::path out = d / "out";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    setpgid(0, 0);
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execl(GPURF_BINARY, GPURF_BINARY, "sweep", f.c_str(), "-o", out.c_str(), "-j", "2", nullptr);
    _exit(127);
  }
  setpgid(pid, pid);
  // Wait for a step (a process naming a point's folder) to run, then kill the whole group.
  const std::string points = (out / "points").string();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (ProcessesNaming(points).empty() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_FALSE(ProcessesNaming(points).empty()) << "no step started";
  kill(-pid, SIGKILL);
  int st = 0;
  waitpid(pid, &st, 0);
  deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!ProcessesNaming(points).empty() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const std::vector<pid_t> left = ProcessesNaming(points);
  for (const pid_t p : left)
    kill(p, SIGKILL);
  EXPECT_TRUE(left.empty()) << left.size() << " step processes outlived the sweep";
}

TEST(SweepCli, FailedStepIsRecordedAndOthersRunThenResultsQueries) {
  const fs::path d = Dir("fail");
  const fs::path f =
      WriteSweep(d, "  hierarchy.l1_entries_per_thread: [2, 4]\n", "[vectorAdd, no_such_workload]");
  const fs::path out = d / "out";
  const CliRun r = Gpurf("sweep " + f.string() + " -o " + out.string() + " -j 2");
  EXPECT_EQ(r.rc, 1) << r.out;
  EXPECT_NE(r.out.find("FAILED"), std::string::npos);
  // Failed steps with their error; the other workload's steps passed for both points.
  const CliRun failed =
      Gpurf("results " + out.string() + " --table steps --where status=failed --json");
  ASSERT_EQ(failed.rc, 0) << failed.out;
  const auto j = nlohmann::json::parse(failed.out);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["workload"], "no_such_workload");
  EXPECT_NE(j[0]["error"].get<std::string>().find("exit 2"), std::string::npos) << j[0];
  EXPECT_NE(j[0]["error"].get<std::string>().find("no_such_workload"), std::string::npos) << j[0];
  const CliRun ok = Gpurf("results " + out.string() + " --table steps --where status=ok --csv");
  EXPECT_EQ(std::count(ok.out.begin(), ok.out.end(), '\n'), 3) << ok.out;  // header + 2
  // A metric per point, filtered by a design parameter.
  const CliRun ipc = Gpurf("results " + out.string() +
                           " --metric ipc --where 'hierarchy.l1_entries_per_thread>=3' --csv");
  ASSERT_EQ(ipc.rc, 0) << ipc.out;
  EXPECT_EQ(ipc.out.substr(0, ipc.out.find('\n')),
            "point,hierarchy.l1_entries_per_thread,step,workload,component,metric,value");
  EXPECT_EQ(std::count(ipc.out.begin(), ipc.out.end(), '\n'), 2) << ipc.out;
  EXPECT_NE(ipc.out.find(",4,simulate,vectorAdd,,ipc,"), std::string::npos) << ipc.out;
  const CliRun table = Gpurf("results " + out.string() + " --metric counts.MRF.reads_private");
  EXPECT_NE(table.out.find("| MRF | counts.MRF.reads_private |"), std::string::npos) << table.out;
  const CliRun bad = Gpurf("results " + out.string() + " --where hierarchy.l1_entries_per_thred=3");
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.out.find("did you mean 'hierarchy.l1_entries_per_thread'"), std::string::npos)
      << bad.out;
  EXPECT_EQ(Gpurf("results " + d.string()).rc, 2);
}

}  // namespace
}  // namespace gpurf
