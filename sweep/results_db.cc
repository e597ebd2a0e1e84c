#include "sweep/results_db.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "base/diag.h"
#include "base/fs.h"
#include "base/hash.h"
#include "gen/output/artifact.h"

namespace gpurf {

namespace {

// The schema, version 1 (docs/sweeps.md documents every column).
constexpr const char* kSchemaSql = R"sql(
CREATE TABLE IF NOT EXISTS schema_info(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sweeps(
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, file TEXT NOT NULL, file_hash TEXT NOT NULL,
  gpurf_version TEXT NOT NULL, created TEXT NOT NULL, points INTEGER NOT NULL,
  UNIQUE(name, file_hash));
CREATE TABLE IF NOT EXISTS points(
  hash TEXT PRIMARY KEY, sweep_id INTEGER NOT NULL REFERENCES sweeps(id), idx INTEGER NOT NULL,
  axes TEXT NOT NULL, design TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS params(
  point TEXT NOT NULL REFERENCES points(hash), path TEXT NOT NULL, value,
  PRIMARY KEY(point, path));
CREATE TABLE IF NOT EXISTS steps(
  point TEXT NOT NULL, step TEXT NOT NULL, workload TEXT NOT NULL, status TEXT NOT NULL,
  exit_code INTEGER NOT NULL, seconds REAL NOT NULL, started TEXT NOT NULL, command TEXT NOT NULL,
  log TEXT NOT NULL, error TEXT NOT NULL, gpurf_version TEXT NOT NULL, tool_versions TEXT NOT NULL,
  cache_hits INTEGER NOT NULL, PRIMARY KEY(point, step, workload));
CREATE TABLE IF NOT EXISTS metrics(
  point TEXT NOT NULL, step TEXT NOT NULL, workload TEXT NOT NULL, component TEXT NOT NULL,
  name TEXT NOT NULL, value REAL, PRIMARY KEY(point, step, workload, component, name));
CREATE INDEX IF NOT EXISTS metrics_by_name ON metrics(name);
)sql";

class Stmt {
 public:
  Stmt(sqlite3* db, const std::string& sql) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s_, nullptr) != SQLITE_OK)
      throw ToolError(fmt::format("results database: {} ({})", sqlite3_errmsg(db), sql));
  }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  void Bind(int i, const nlohmann::json& v) {
    if (v.is_number_integer())
      sqlite3_bind_int64(s_, i, v.get<int64_t>());
    else if (v.is_number())
      sqlite3_bind_double(s_, i, v.get<double>());
    else if (v.is_boolean())
      sqlite3_bind_int(s_, i, v.get<bool>() ? 1 : 0);
    else if (v.is_null())
      sqlite3_bind_null(s_, i);
    else if (v.is_string())
      sqlite3_bind_text(s_, i, v.get_ref<const std::string&>().c_str(), -1, SQLITE_TRANSIENT);
    else
      sqlite3_bind_text(s_, i, v.dump().c_str(), -1, SQLITE_TRANSIENT);
  }
  void BindAll(const std::vector<nlohmann::json>& args) {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
    for (size_t i = 0; i < args.size(); ++i)
      Bind(static_cast<int>(i + 1), args[i]);
  }
  // Steps once; true when a row is available.
  bool Step(sqlite3* db) {
    const int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW)
      return true;
    if (rc == SQLITE_DONE)
      return false;
    throw ToolError(fmt::format("results database: {}", sqlite3_errmsg(db)));
  }
  sqlite3_stmt* get() { return s_; }

 private:
  sqlite3_stmt* s_ = nullptr;
};

std::string NowIso() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

nlohmann::json StepRecord::ToJson() const {
  nlohmann::json j;
  j["record_version"] = kRecordVersion;
  j["point"] = point;
  j["step"] = step;
  j["workload"] = workload;
  j["status"] = status;
  j["exit_code"] = exit_code;
  j["seconds"] = seconds;
  j["started"] = started;
  j["command"] = command;
  j["log"] = log;
  j["error"] = error;
  j["gpurf_version"] = gpurf_version;
  j["tool_versions"] = tool_versions;
  j["cache_hits"] = cache_hits;
  nlohmann::json ms = nlohmann::json::array();
  for (const auto& m : metrics)
    ms.push_back({{"component", m.component}, {"name", m.name}, {"value", m.value}});
  j["metrics"] = ms;
  return j;
}

StepRecord StepRecord::FromJson(const nlohmann::json& j) {
  if (j.value("record_version", 0) != kRecordVersion)
    throw std::runtime_error("unknown record version");
  StepRecord r;
  r.point = j.at("point");
  r.step = j.at("step");
  r.workload = j.at("workload");
  r.status = j.at("status");
  r.exit_code = j.at("exit_code");
  r.seconds = j.at("seconds");
  r.started = j.at("started");
  r.command = j.at("command");
  r.log = j.at("log");
  r.error = j.at("error");
  r.gpurf_version = j.at("gpurf_version");
  r.tool_versions = j.at("tool_versions");
  r.cache_hits = j.at("cache_hits");
  for (const auto& m : j.at("metrics"))
    r.metrics.push_back({m.at("component"), m.at("name"), m.at("value")});
  return r;
}

void WriteRecordFile(const fs::path& path, const StepRecord& r) {
  fs::create_directories(path.parent_path());
  const fs::path tmp = path.parent_path() / fmt::format(".{}.tmp-{}", path.filename().string(),
                                                        static_cast<long>(getpid()));
  const std::string text = r.ToJson().dump(1) + "\n";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    throw ToolError(fmt::format("cannot write {}", tmp.string()));
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) {
      ::close(fd);
      fs::remove(tmp);
      throw ToolError(fmt::format("cannot write {} (disk full?)", tmp.string()));
    }
    done += static_cast<size_t>(n);
  }
  // No fsync: the rename makes the record whole-or-absent for a killed process, which is what
  // resuming needs; an fsync per record cost ~10 ms per step (docs/perf.md, Sweeps).
  ::close(fd);
  fs::rename(tmp, path);
}

std::optional<StepRecord> ReadRecordFile(const fs::path& path) {
  try {
    std::ifstream in(path);
    if (!in)
      return std::nullopt;
    std::stringstream ss;
    ss << in.rdbuf();
    return StepRecord::FromJson(nlohmann::json::parse(ss.str()));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

ResultsDb::ResultsDb(const fs::path& path) : path_(path) {
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    const std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw ToolError(fmt::format("cannot open the results database {}: {}", path.string(), msg));
  }
  sqlite3_busy_timeout(db_, 60000);
  Exec("PRAGMA journal_mode=WAL");
  Exec("PRAGMA synchronous=NORMAL");
  Exec("BEGIN IMMEDIATE");
  try {
    Exec(kSchemaSql);
    const auto v = Query("SELECT value FROM schema_info WHERE key = 'schema_version'");
    if (v.empty()) {
      Query("INSERT INTO schema_info(key, value) VALUES ('schema_version', ?)",
            {std::to_string(kResultsSchema)});
    } else if (std::stoi(v[0]["value"].get<std::string>()) > kResultsSchema) {
      throw InputError({}, "results database", path.string(),
                       fmt::format("schema version {} is newer than this gpurf's",
                                   v[0]["value"].get<std::string>()),
                       fmt::format("schema version {} or older", kResultsSchema));
    }
    Exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

ResultsDb::ResultsDb(const fs::path& path, ReadOnly) : path_(path) {
  const auto bad = [&](const std::string& problem) {
    if (db_)
      sqlite3_close(db_);
    db_ = nullptr;
    return InputError({}, "results database", path.string(), problem,
                      fmt::format("a gpurf sweep's results.db, schema version {}", kResultsSchema));
  };
  if (!fs::is_regular_file(path))
    throw bad("no such file");
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
    throw bad(db_ ? sqlite3_errmsg(db_) : "out of memory");
  sqlite3_busy_timeout(db_, 60000);
  nlohmann::json v;
  try {
    v = Query("SELECT value FROM schema_info WHERE key = 'schema_version'");
  } catch (const std::exception& e) {
    throw bad(fmt::format("not a gpurf results database ({})", e.what()));
  }
  if (v.empty())
    throw bad("no schema version");
  const std::string version =
      v[0]["value"].is_string() ? v[0]["value"].get<std::string>() : v[0]["value"].dump();
  if (version != std::to_string(kResultsSchema))
    throw bad(
        fmt::format("schema version {}, this gpurf reads version {}", version, kResultsSchema));
}

ResultsDb::~ResultsDb() {
  if (db_)
    sqlite3_close(db_);
}

void ResultsDb::Exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    throw ToolError(fmt::format("results database {}: {}", path_.string(), msg));
  }
}

nlohmann::json ResultsDb::Query(const std::string& sql, const std::vector<nlohmann::json>& args) {
  Stmt st(db_, sql);
  st.BindAll(args);
  nlohmann::json rows = nlohmann::json::array();
  while (st.Step(db_)) {
    nlohmann::ordered_json row;
    nlohmann::json r = nlohmann::json::object();
    const int n = sqlite3_column_count(st.get());
    nlohmann::json ordered = nlohmann::json::array();
    for (int i = 0; i < n; ++i) {
      const char* name = sqlite3_column_name(st.get(), i);
      nlohmann::json v;
      switch (sqlite3_column_type(st.get(), i)) {
        case SQLITE_INTEGER:
          v = static_cast<int64_t>(sqlite3_column_int64(st.get(), i));
          break;
        case SQLITE_FLOAT:
          v = sqlite3_column_double(st.get(), i);
          break;
        case SQLITE_NULL:
          v = nullptr;
          break;
        default:
          v = std::string(reinterpret_cast<const char*>(sqlite3_column_text(st.get(), i)));
      }
      r[name] = v;
    }
    rows.push_back(r);
  }
  return rows;
}

int64_t ResultsDb::AddSweep(const SweepFile& sweep, const std::vector<SweepPoint>& points) {
  Exec("BEGIN IMMEDIATE");
  try {
    const std::string file_hash = HashHex(sweep.text, 16);
    Query(
        "INSERT OR IGNORE INTO sweeps(name, file, file_hash, gpurf_version, created, points) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        {sweep.name, sweep.path, file_hash, GeneratorVersion(), NowIso(),
         static_cast<int64_t>(points.size())});
    const int64_t id = Query("SELECT id FROM sweeps WHERE name = ? AND file_hash = ?",
                             {sweep.name, file_hash})[0]["id"];
    Stmt pt(db_,
            "INSERT OR REPLACE INTO points(hash, sweep_id, idx, axes, design) VALUES (?,?,?,?,?)");
    Stmt pa(db_, "INSERT OR REPLACE INTO params(point, path, value) VALUES (?, ?, ?)");
    for (const auto& p : points) {
      nlohmann::json axes = nlohmann::json::array();
      for (const auto& [k, v] : p.axis_values)
        axes.push_back({k, v});
      pt.BindAll({p.hash, id, static_cast<int64_t>(p.index), axes.dump(), p.design});
      pt.Step(db_);
      for (const auto& [k, v] : p.params.items()) {
        pa.BindAll({p.hash, k, v});
        pa.Step(db_);
      }
      // An axis that sets a whole section (hierarchy: [{kind: hw-rfc, ...}, ...]) is a
      // parameter too, its value the section as JSON.
      for (const auto& [k, v] : p.axis_values) {
        if (p.params.contains(k))
          continue;
        pa.BindAll({p.hash, k, v});
        pa.Step(db_);
      }
    }
    Exec("COMMIT");
    return id;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void ResultsDb::Merge(const std::vector<StepRecord>& records) {
  Exec("BEGIN IMMEDIATE");
  try {
    Stmt del(db_, "DELETE FROM metrics WHERE point = ? AND step = ? AND workload = ?");
    Stmt st(db_,
            "INSERT OR REPLACE INTO steps(point, step, workload, status, exit_code, seconds, "
            "started, command, log, error, gpurf_version, tool_versions, cache_hits) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)");
    Stmt me(db_,
            "INSERT OR REPLACE INTO metrics(point, step, workload, component, name, value) "
            "VALUES (?,?,?,?,?,?)");
    for (const auto& r : records) {
      del.BindAll({r.point, r.step, r.workload});
      del.Step(db_);
      st.BindAll({r.point, r.step, r.workload, r.status, r.exit_code, r.seconds, r.started,
                  r.command, r.log, r.error, r.gpurf_version, r.tool_versions.dump(),
                  r.cache_hits});
      st.Step(db_);
      for (const auto& m : r.metrics) {
        me.BindAll({r.point, r.step, r.workload, m.component, m.name, m.value});
        me.Step(db_);
      }
    }
    Exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

size_t ResultsDb::MergeRecordFiles(const fs::path& sweep_dir) {
  std::vector<StepRecord> records;
  const fs::path points = sweep_dir / "points";
  if (!fs::is_directory(points))
    return 0;
  for (const auto& pd : fs::directory_iterator(points)) {
    const fs::path rd = pd.path() / "records";
    if (!fs::is_directory(rd))
      continue;
    for (const auto& f : fs::directory_iterator(rd)) {
      if (f.path().extension() != ".json" || f.path().filename().string().starts_with("."))
        continue;
      if (auto r = ReadRecordFile(f.path()))
        records.push_back(std::move(*r));
    }
  }
  if (!records.empty())
    Merge(records);
  return records.size();
}

}  // namespace gpurf
