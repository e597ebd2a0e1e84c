// The results database of a sweep: SQLite in DIR/results.db, schema version kResultsSchema
// (docs/sweeps.md, "Results database"). Writers never touch it directly: each step of each
// point writes its own record file (one JSON file, written to a temporary name and renamed, so a
// record is either complete or absent), and a collector merges record files into the database,
// one transaction per batch, idempotently (a record merged twice gives the same rows). The
// database is in WAL mode with a busy timeout, so several collectors (a local sweep, a Slurm
// collector, a `gpurf results` reader) may open it at once; each merge is one IMMEDIATE
// transaction, so a writer killed mid-merge leaves the database as it was before the merge.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sweep/sweep_file.h"

namespace gpurf {

inline constexpr int kResultsSchema = 1;
inline constexpr int kRecordVersion = 1;

// One metric of a step: a number, the component it belongs to ("" for the whole point, a level
// name such as MRF, or a module) and its name (a dotted path in the step's JSON output).
struct Metric {
  std::string component;
  std::string name;
  double value = 0;
};

// What one step of one point did: the record file's content.
struct StepRecord {
  std::string point;
  std::string step;
  std::string workload;  // "" for per-design steps
  std::string status;    // ok, failed
  int exit_code = 0;
  double seconds = 0;
  std::string started;  // ISO 8601 UTC
  std::string command;
  std::string log;    // the step's log file, relative to the sweep folder
  std::string error;  // the failure's last log lines
  std::string gpurf_version;
  nlohmann::json tool_versions = nlohmann::json::object();
  int64_t cache_hits = 0;
  std::vector<Metric> metrics;

  nlohmann::json ToJson() const;
  static StepRecord FromJson(const nlohmann::json& j);  // throws std::runtime_error
};

// Writes `r` to `path` atomically (temporary file in the same folder, fsync, rename).
void WriteRecordFile(const std::filesystem::path& path, const StepRecord& r);
// The record at `path`, or nullopt when it is missing or unreadable (a partial write).
std::optional<StepRecord> ReadRecordFile(const std::filesystem::path& path);

class ResultsDb {
 public:
  // Opens (creating it and its schema if absent) the database at `path`. A database with a newer
  // schema than this gpurf's is an InputError.
  explicit ResultsDb(const std::filesystem::path& path);
  // Opens an existing database for reading only (gpurf report): no schema is created and nothing
  // is written. A file that is not a gpurf results database (not SQLite, no schema_info) or has
  // another schema version than kResultsSchema is an InputError naming `path`.
  struct ReadOnly {};
  ResultsDb(const std::filesystem::path& path, ReadOnly);
  ~ResultsDb();
  ResultsDb(const ResultsDb&) = delete;
  ResultsDb& operator=(const ResultsDb&) = delete;

  // Records the sweep and its points (parameters); returns the sweep's id.
  int64_t AddSweep(const SweepFile& sweep, const std::vector<SweepPoint>& points);
  // Merges records in one transaction; idempotent.
  void Merge(const std::vector<StepRecord>& records);
  // Merges every record file under `sweep_dir`/points/*/records/. Returns how many.
  size_t MergeRecordFiles(const std::filesystem::path& sweep_dir);

  // A query with bound parameters; rows as JSON objects (column name -> value).
  nlohmann::json Query(const std::string& sql, const std::vector<nlohmann::json>& args = {});
  void Exec(const std::string& sql);
  sqlite3* handle() { return db_; }

 private:
  sqlite3* db_ = nullptr;
  std::filesystem::path path_;
};

}  // namespace gpurf
