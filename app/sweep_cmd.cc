#include "app/sweep_cmd.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <set>

#include "base/diag.h"
#include "base/fs.h"
#include "sweep/results_db.h"
#include "sweep/runner.h"
#include "sweep/slurm_backend.h"

namespace gpurf {

CLI::App* AddSweepCommand(CLI::App& app, SweepArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "sweep",
      "run every point of a sweep file (design axes x workloads x steps); resumable, results in "
      "DIR/results.db (docs/sweeps.md)");
  cmd->add_option("file", a.file, "sweep .yaml file")->required();
  cmd->add_option("-o,--output", a.out_dir, "sweep folder (created; re-run to resume)")->required();
  cmd->add_option("-j,--jobs", a.jobs, "points run in parallel")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--backend", a.backend,
                  "where steps run: local (-j worker threads) or slurm (one sbatch array job; "
                  "the sweep file's slurm: section sets its resources)")
      ->check(CLI::IsMember({"local", "slurm"}))
      ->capture_default_str();
  cmd->add_flag("--dry-run", a.dry_run, "check the file and list the points and pending steps");
  cmd->add_option("--cache-dir", a.cache_dir,
                  "cache shared by every step (default $GPURF_CACHE_DIR or ~/.cache/gpurf)");
  return cmd;
}

CLI::App* AddSweepTaskCommand(CLI::App& app, SweepTaskArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "sweep-task", "run one batch of a Slurm sweep's manifest (used by DIR/slurm/job.sh)");
  cmd->group("");  // hidden: gpurf sweep --backend slurm writes the command
  cmd->add_option("manifest", a.manifest, "DIR/slurm/tasks.json")->required();
  cmd->add_option("index", a.index, "the batch ($SLURM_ARRAY_TASK_ID)")->required();
  return cmd;
}

int RunSweepTaskCommand(const SweepTaskArgs& a) {
  return RunSweepTaskBatch(a.manifest, a.index);
}

int RunSweepCommand(const SweepArgs& a) {
  SweepRunOptions opt;
  opt.out_dir = a.out_dir;
  opt.jobs = a.jobs;
  opt.backend = a.backend;
  opt.dry_run = a.dry_run;
  opt.cache_dir = a.cache_dir;
  return RunSweep(a.file, opt);
}

CLI::App* AddResultsCommand(CLI::App& app, ResultsArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "results", "query a sweep's results database (DIR/results.db): metrics, steps or points");
  cmd->add_option("dir", a.dir, "sweep folder (the -o of gpurf sweep)")->required();
  cmd->add_option("--where", a.where,
                  "filter 'KEY OP VALUE' (repeatable, all must hold): KEY a design path "
                  "(hierarchy.l1_entries_per_thread) or point, step, workload, component, "
                  "metric, value, status; OP one of = != < <= > >= ~ (glob)");
  cmd->add_option("--table", a.table, "what to list: metrics, steps or points")
      ->check(CLI::IsMember({"metrics", "steps", "points"}))
      ->capture_default_str();
  cmd->add_option("--metric", a.metric, "only metrics whose name matches this glob");
  auto* csv = cmd->add_flag("--csv", a.csv, "CSV on stdout");
  auto* json = cmd->add_flag("--json", a.json, "JSON on stdout");
  csv->excludes(json);
  return cmd;
}

namespace {

std::string CsvField(const nlohmann::json& v) {
  std::string s = v.is_string() ? v.get<std::string>() : v.is_null() ? "" : v.dump();
  if (s.find_first_of(",\"\n") != std::string::npos) {
    std::string q = "\"";
    for (const char c : s)
      q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  }
  return s;
}

std::string TextField(const nlohmann::json& v) {
  std::string s = v.is_string() ? v.get<std::string>() : v.is_null() ? "" : v.dump();
  if (v.is_number_float()) {
    s = fmt::format("{:.6g}", v.get<double>());
  }
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '|', '/');
  return s;
}

}  // namespace

int RunResultsCommand(const ResultsArgs& a) {
  const fs::path db_path = fs::path(a.dir) / "results.db";
  if (!fs::is_regular_file(db_path))
    throw InputError({}, "dir", a.dir, "no results.db in this folder",
                     "the -o folder of a gpurf sweep");
  ResultsDb db(db_path);
  // The axes, in the order of the latest sweep's points.
  std::vector<std::string> axes;
  for (const auto& row : db.Query("SELECT axes FROM points ORDER BY sweep_id DESC, idx")) {
    for (const auto& kv : nlohmann::json::parse(row["axes"].get<std::string>())) {
      const std::string k = kv[0];
      if (std::find(axes.begin(), axes.end(), k) == axes.end())
        axes.push_back(k);
    }
  }
  std::set<std::string> paths;
  for (const auto& row : db.Query("SELECT DISTINCT path FROM params"))
    paths.insert(row["path"].get<std::string>());

  const std::string t = a.table == "metrics" ? "m" : a.table == "steps" ? "s" : "p";
  const std::string point_col = t == "p" ? "p.hash" : t + ".point";
  std::vector<nlohmann::json> args;
  std::string select = fmt::format("SELECT {} AS point", point_col);
  for (const auto& ax : axes) {
    select += fmt::format(", (SELECT value FROM params WHERE point = {} AND path = ?) AS \"{}\"",
                          point_col, ax);
    args.push_back(ax);
  }
  std::map<std::string, std::string> columns;
  if (t == "m") {
    select += ", m.step, m.workload, m.component, m.name AS metric, m.value FROM metrics m";
    columns = {{"point", "m.point"},
               {"step", "m.step"},
               {"workload", "m.workload"},
               {"component", "m.component"},
               {"metric", "m.name"},
               {"value", "m.value"},
               {"status",
                "(SELECT status FROM steps s WHERE s.point = m.point AND s.step = "
                "m.step AND s.workload = m.workload)"}};
  } else if (t == "s") {
    select +=
        ", s.step, s.workload, s.status, s.exit_code, s.seconds, s.cache_hits, s.started, "
        "s.error FROM steps s";
    columns = {{"point", "s.point"},
               {"step", "s.step"},
               {"workload", "s.workload"},
               {"status", "s.status"},
               {"value", "s.seconds"}};
  } else {
    select += ", p.idx FROM points p";
    columns = {{"point", "p.hash"}};
  }
  std::vector<std::string> conds;
  const std::regex re(R"(^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*(<=|>=|!=|==|=|<|>|~)\s*(.*?)\s*$)");
  for (const auto& w : a.where) {
    std::smatch m;
    if (!std::regex_match(w, m, re))
      throw InputError({}, "--where", w, "not KEY OP VALUE",
                       "e.g. 'hierarchy.l1_entries_per_thread<=4', 'metric~energy.*', "
                       "'status=failed'; OP one of = != < <= > >= ~");
    const std::string key = m[1], op0 = m[2], val = m[3];
    const std::string op = op0 == "==" ? "=" : op0 == "~" ? "GLOB" : op0;
    std::string lhs;
    if (columns.count(key)) {
      lhs = columns[key];
    } else if (paths.count(key)) {
      lhs = fmt::format("(SELECT value FROM params WHERE point = {} AND path = ?)", point_col);
      args.push_back(key);
    } else {
      std::vector<std::string> allowed;
      for (const auto& [k, _] : columns)
        allowed.push_back(k);
      std::string problem = "unknown key";
      std::vector<std::string> all(paths.begin(), paths.end());
      all.insert(all.end(), allowed.begin(), allowed.end());
      if (auto s = ClosestMatchIn(key, all))
        problem += fmt::format(" (did you mean '{}'?)", *s);
      throw InputError(
          {}, "--where", w, problem,
          fmt::format("{} or a design path of the sweep's points", fmt::join(allowed, ", ")));
    }
    conds.push_back(fmt::format("{} {} ?", lhs, op));
    char* end = nullptr;
    const double d = std::strtod(val.c_str(), &end);
    if (!val.empty() && end == val.c_str() + val.size() && op != "GLOB")
      args.push_back(d);
    else
      args.push_back(val);
  }
  if (!a.metric.empty()) {
    if (t != "m")
      throw InputError({}, "--metric", a.metric, "only with --table metrics", "--table metrics");
    conds.push_back("m.name GLOB ?");
    args.push_back(a.metric);
  }
  std::string sql = select;
  for (size_t i = 0; i < conds.size(); ++i)
    sql += (i == 0 ? " WHERE " : " AND ") + conds[i];
  sql += t == "p" ? " ORDER BY p.sweep_id, p.idx"
                  : fmt::format(
                        " ORDER BY (SELECT idx FROM points WHERE hash = {}), {}.step, "
                        "{}.workload{}",
                        point_col, t, t, t == "m" ? ", m.component, m.name" : "");
  const nlohmann::json rows = db.Query(sql, args);
  std::vector<std::string> cols = {"point"};
  cols.insert(cols.end(), axes.begin(), axes.end());
  if (t == "m")
    cols.insert(cols.end(), {"step", "workload", "component", "metric", "value"});
  else if (t == "s")
    cols.insert(cols.end(), {"step", "workload", "status", "exit_code", "seconds", "cache_hits",
                             "started", "error"});
  else
    cols.push_back("idx");
  if (a.json) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& r : rows) {
      nlohmann::ordered_json o;
      for (const auto& c : cols)
        o[c] = r.contains(c) ? r[c] : nlohmann::json();
      out.push_back(o);
    }
    fmt::print("{}\n", out.dump(1));
  } else if (a.csv) {
    std::vector<std::string> line;
    for (const auto& c : cols)
      line.push_back(CsvField(c));
    fmt::print("{}\n", fmt::join(line, ","));
    for (const auto& r : rows) {
      line.clear();
      for (const auto& c : cols)
        line.push_back(CsvField(r.contains(c) ? r[c] : nlohmann::json()));
      fmt::print("{}\n", fmt::join(line, ","));
    }
  } else {
    fmt::print("| {} |\n|{}\n", fmt::join(cols, " | "), [&] {
      std::string s;
      for (size_t i = 0; i < cols.size(); ++i)
        s += "---|";
      return s;
    }());
    for (const auto& r : rows) {
      std::vector<std::string> line;
      for (const auto& c : cols)
        line.push_back(TextField(r.contains(c) ? r[c] : nlohmann::json()));
      fmt::print("| {} |\n", fmt::join(line, " | "));
    }
    fmt::print("{} rows\n", rows.size());
  }
  return kExitOk;
}

}  // namespace gpurf
