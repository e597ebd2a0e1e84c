// The results database: schema version, idempotent merges, and concurrent writers (processes
// and threads merging records into one database at once) never corrupt it.
#include "sweep/results_db.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

#include "base/fs.h"

namespace gpurf {
namespace {

StepRecord Rec(const std::string& point, const std::string& step, int n_metrics, double v) {
  StepRecord r;
  r.point = point;
  r.step = step;
  r.workload = "all";
  r.status = "ok";
  r.started = "2026-01-01T00:00:00Z";
  r.gpurf_version = "test";
  for (int i = 0; i < n_metrics; ++i)
    r.metrics.push_back({"MRF", "m" + std::to_string(i), v + i});
  return r;
}

fs::path FreshDir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("gpurf-results-db-test-" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

TEST(ResultsDb, SchemaVersionAndIdempotentMerge) {
  const fs::path d = FreshDir("idem");
  ResultsDb db(d / "results.db");
  EXPECT_EQ(db.Query("SELECT value FROM schema_info WHERE key='schema_version'")[0]["value"], "1");
  db.Merge({Rec("p1", "energy", 3, 1.0)});
  db.Merge({Rec("p1", "energy", 3, 1.0)});
  EXPECT_EQ(db.Query("SELECT COUNT(*) AS n FROM metrics")[0]["n"], 3);
  // A re-run's record replaces the old metrics (here with fewer of them).
  db.Merge({Rec("p1", "energy", 2, 5.0)});
  EXPECT_EQ(db.Query("SELECT COUNT(*) AS n FROM metrics")[0]["n"], 2);
  EXPECT_EQ(db.Query("SELECT value FROM metrics WHERE name='m0'")[0]["value"], 5.0);
}

TEST(ResultsDb, RecordFilesRoundTripAndPartialOnesAreIgnored) {
  const fs::path d = FreshDir("records");
  const StepRecord r = Rec("p2", "simulate", 4, 2.5);
  WriteRecordFile(d / "points/p2/records/simulate.json", r);
  WriteFile(d / "points/p2/records/energy.json", "{\"record_version\": 1, \"point\": ");  // torn
  ASSERT_TRUE(ReadRecordFile(d / "points/p2/records/simulate.json"));
  EXPECT_FALSE(ReadRecordFile(d / "points/p2/records/energy.json"));
  ResultsDb db(d / "results.db");
  EXPECT_EQ(db.MergeRecordFiles(d), 1u);
  EXPECT_EQ(db.Query("SELECT COUNT(*) AS n FROM metrics")[0]["n"], 4);
}

// 8 processes x 4 threads, each merging 25 records of its own (and one shared record every
// writer merges), all at once into one database.
TEST(ResultsDb, ConcurrentWritersNeverCorruptIt) {
  const fs::path d = FreshDir("concurrent");
  { ResultsDb db(d / "results.db"); }
  constexpr int kProcs = 8, kThreads = 4, kRecords = 25, kMetrics = 10;
  std::vector<pid_t> pids;
  for (int p = 0; p < kProcs; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      bool ok = true;
      std::vector<std::thread> ts;
      for (int t = 0; t < kThreads; ++t)
        ts.emplace_back([&, t] {
          try {
            ResultsDb db(d / "results.db");  // one connection per thread
            for (int i = 0; i < kRecords; ++i) {
              const std::string point =
                  "p" + std::to_string(p) + "_" + std::to_string(t) + "_" + std::to_string(i);
              db.Merge({Rec(point, "energy", kMetrics, i), Rec("shared", "energy", kMetrics, 0)});
            }
          } catch (const std::exception&) {
            ok = false;
          }
        });
      for (auto& t : ts)
        t.join();
      _exit(ok ? 0 : 1);
    }
    pids.push_back(pid);
  }
  for (const pid_t pid : pids) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  ResultsDb db(d / "results.db");
  EXPECT_EQ(db.Query("PRAGMA integrity_check")[0]["integrity_check"], "ok");
  EXPECT_EQ(db.Query("SELECT COUNT(*) AS n FROM steps")[0]["n"], kProcs * kThreads * kRecords + 1);
  EXPECT_EQ(db.Query("SELECT COUNT(*) AS n FROM metrics")[0]["n"],
            (kProcs * kThreads * kRecords + 1) * kMetrics);
}

}  // namespace
}  // namespace gpurf
