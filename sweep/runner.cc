#include "sweep/runner.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "base/diag.h"
#include "base/fs.h"
#include "base/hash.h"
#include "base/process.h"
#include "gen/output/artifact.h"
#include "sweep/slurm_backend.h"

namespace gpurf {

namespace {

// The marker of a sweep folder: gpurf writes into a folder that has it, or an empty/new one.
constexpr const char* kSweepMarker = ".gpurf-sweep";

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (const char c : s) {
    if (c == '\'')
      q += "'\\''";
    else
      q += c;
  }
  return q + "'";
}

std::string NowIso() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// A file-name-safe form of a workload name (corpus name, path or "all").
std::string WorkloadSlug(const std::string& w) {
  std::string s;
  for (const char c : w)
    s += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  if (s != w || s.size() > 48)
    s = s.substr(0, 40) + "-" + HashHex(w, 6);
  return s;
}

std::string Tail(const std::string& log, size_t lines) {
  size_t pos = log.size();
  while (pos > 0 && (log[pos - 1] == '\n'))
    --pos;
  size_t n = 0, start = pos;
  while (start > 0 && n < lines) {
    --start;
    if (log[start] == '\n')
      ++n;
  }
  if (start > 0)
    ++start;
  return log.substr(start, pos - start);
}

void WriteAtomically(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.parent_path() / fmt::format(".{}.tmp-{}", path.filename().string(),
                                                        static_cast<long>(getpid()));
  WriteFile(tmp, text);
  fs::rename(tmp, path);
}

std::string FirstLine(const std::string& cmd) {
  std::string out;
  const int rc = RunCommand(cmd + " 2>&1", &out);
  if (rc != 0)
    return "unavailable";
  const size_t nl = out.find('\n');
  return out.substr(0, nl);
}

// Versions of the external tools a step uses, asked once per run.
nlohmann::json ToolVersions(const std::string& step) {
  static std::mutex mu;
  static std::map<std::string, std::string> cache;
  const auto version = [&](const std::string& tool, const std::string& cmd) {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(tool);
    if (it == cache.end())
      it = cache.emplace(tool, FirstLine(cmd)).first;
    return it->second;
  };
  nlohmann::json j = nlohmann::json::object();
  j["gpurf"] = GeneratorVersion();
  if (step == "lint" || step == "verify" || step == "characterize")
    j["verilator"] = version("verilator", "verilator --version");
  if (step == "lint")
    j["iverilog"] = version("iverilog", "iverilog -V");
  if (step == "lint" || step == "synthesize" || step == "characterize")
    j["yosys"] = version("yosys", "yosys -V");
  if (step == "synthesize" || step == "characterize")
    j["sta"] = version("sta", "echo exit | sta -no_init -no_splash -version");
  return j;
}

void Flatten(const nlohmann::json& j, const std::string& prefix, const std::string& component,
             std::vector<Metric>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      std::string comp = component;
      // counts.MRF.reads_private, energy.levels.L1.access_pj, energy.components.tag checks.pj
      if (comp.empty() && (prefix == "counts" || prefix == "energy.levels" ||
                           prefix == "energy.components" || prefix == "bank_conflicts"))
        comp = k;
      Flatten(v, prefix.empty() ? k : prefix + "." + k, comp, out);
    }
  } else if (j.is_array()) {
    // Arrays of modules (synthesis, characterization): one component per named entry.
    for (size_t i = 0; i < j.size(); ++i) {
      const auto& e = j[i];
      std::string name;
      for (const char* key : {"top", "module", "name", "level"})
        if (e.is_object() && e.contains(key) && e[key].is_string()) {
          name = e[key];
          break;
        }
      if (name.empty())
        continue;  // per-kernel lists and the like: aggregated figures are kept instead
      Flatten(e, prefix, component.empty() ? name : component + "/" + name, out);
    }
  } else if (j.is_number()) {
    out.push_back({component, prefix, j.get<double>()});
  } else if (j.is_boolean()) {
    out.push_back({component, prefix, j.get<bool>() ? 1.0 : 0.0});
  }
}

}  // namespace

std::vector<Metric> ExtractMetrics(const std::string& step, const fs::path& output) {
  std::vector<Metric> out;
  fs::path file = output;
  if (step == "synthesize")
    file = output / "synthesis.json";
  else if (step == "characterize")
    file = output / "characterization.json";
  else if (step != "simulate" && step != "energy")
    return out;
  std::ifstream in(file);
  if (!in)
    return out;
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded())
    return out;
  if (step == "simulate" || step == "energy") {
    const nlohmann::json& d = j.contains("designs") ? j["designs"][0] : j;
    nlohmann::json copy = d;
    copy.erase("gpu");
    Flatten(copy, "", "", out);
    if (j.contains("breakdown")) {
      const auto& b = j["breakdown"];
      if (b.contains("baseline_pj"))
        out.push_back({"", "baseline_pj", b["baseline_pj"].get<double>()});
      if (b.contains("configs") && b["configs"].size() >= 2)
        out.push_back({"", "normalized", b["configs"].back()["normalized"].get<double>()});
    }
  } else {
    Flatten(j, "", "", out);
  }
  return out;
}

SweepPlan PlanSweep(const SweepFile& sweep, std::vector<SweepPoint> points,
                    const SweepRunOptions& opt) {
  SweepPlan plan;
  plan.sweep = sweep;
  plan.points = std::move(points);
  const fs::path gpurf =
      opt.gpurf_binary.empty() ? fs::read_symlink("/proc/self/exe") : opt.gpurf_binary;
  const fs::path out = fs::absolute(opt.out_dir);
  const fs::path sweep_dir = fs::absolute(sweep.path).parent_path();
  for (size_t i = 0; i < plan.points.size(); ++i) {
    const SweepPoint& p = plan.points[i];
    const fs::path dir = out / "points" / p.hash;
    plan.point_dirs.push_back(dir);
    const std::string design = (dir / "design.yaml").string();
    std::vector<SweepTask> tasks;
    const auto add = [&](const std::string& step, const std::string& workload) {
      SweepTask t;
      t.point = i;
      t.step = step;
      t.workload = workload;
      const std::string id = workload.empty() ? step : step + "-" + WorkloadSlug(workload);
      t.record = dir / "records" / (id + ".json");
      t.log = dir / "logs" / (id + ".log");
      t.argv = {gpurf.string(), "-v"};
      std::vector<std::string> cache;
      if (!opt.cache_dir.empty())
        cache = {"--cache-dir", fs::absolute(opt.cache_dir).string()};
      std::vector<std::string> harness;
      if (!sweep.options.gpu.empty())
        harness.insert(harness.end(), {"--gpu", sweep.options.gpu});
      if (sweep.options.sms > 0)
        harness.insert(harness.end(), {"--sms", std::to_string(sweep.options.sms)});
      if (!sweep.options.memory.empty())
        harness.insert(harness.end(), {"--memory", sweep.options.memory});
      std::string w = workload;
      if (w.find('/') != std::string::npos && fs::path(w).is_relative())
        w = (sweep_dir / w).string();  // a launch file or trace, relative to the sweep file
      if (step == "generate") {
        t.output = dir / "rtl";
        t.argv.insert(t.argv.end(), {"gen", design, "-o", t.output.string()});
      } else if (step == "lint") {
        t.argv.insert(t.argv.end(), {"lint", design});
      } else if (step == "verify") {
        t.argv.insert(t.argv.end(),
                      {"verify", design, "--cycles", std::to_string(sweep.options.verify_cycles)});
        t.argv.insert(t.argv.end(), cache.begin(), cache.end());
      } else if (step == "synthesize") {
        t.output = dir / "synthesis";
        t.argv.insert(t.argv.end(), {"synth", design, "-o", t.output.string()});
        t.argv.insert(t.argv.end(), cache.begin(), cache.end());
      } else if (step == "characterize") {
        t.output = dir / "characterization";
        t.argv.insert(t.argv.end(), {"characterize", design, "-o", t.output.string()});
        t.argv.insert(t.argv.end(), cache.begin(), cache.end());
      } else {
        t.output = dir / step / (WorkloadSlug(workload) + ".json");
        t.argv.insert(t.argv.end(), {step == "simulate" ? "sim" : "energy", design, "--workload", w,
                                     "--json", t.output.string()});
        if (step == "simulate")
          t.argv.push_back("--stats");
        t.argv.insert(t.argv.end(), harness.begin(), harness.end());
      }
      if (const auto r = ReadRecordFile(t.record))
        t.done = r->status == "ok" && r->point == p.hash;
      tasks.push_back(std::move(t));
    };
    for (const auto& s : sweep.steps)
      if (!SweepStepPerWorkload(s))
        add(s, "");
    for (const auto& w : sweep.workloads)
      for (const auto& s : sweep.steps)
        if (SweepStepPerWorkload(s))
          add(s, w);
    plan.tasks.push_back(std::move(tasks));
  }
  return plan;
}

StepRecord RunSweepTask(const SweepPlan& plan, const SweepTask& task, const SweepRunOptions& opt) {
  const fs::path dir = plan.point_dirs[task.point];
  fs::create_directories(task.log.parent_path());
  if (!task.output.empty() && task.output.extension() == ".json")
    fs::create_directories(task.output.parent_path());
  std::string cmd;
  for (const auto& a : task.argv)
    cmd += (cmd.empty() ? "" : " ") + Quote(a);
  StepRecord r;
  r.point = plan.points[task.point].hash;
  r.step = task.step;
  r.workload = task.workload;
  r.started = NowIso();
  r.command = cmd;
  r.log = fs::relative(task.log, fs::absolute(opt.out_dir)).string();
  r.gpurf_version = GeneratorVersion();
  r.tool_versions = ToolVersions(task.step);
  std::string log;
  const auto t0 = std::chrono::steady_clock::now();
  // A step's previous output (a killed run's) is replaced by the step itself: folders are
  // written atomically by gpurf and replaced only when they are gpurf's own; JSON reports are
  // written to a temporary file and renamed.
  // `exec`: the step replaces the shell, so the parent-death signal RunCommand sets reaches the
  // step itself. Were the whole process group of the sweep killed at once (the sweep and its
  // guardian, as `timeout -s KILL` or a batch system's cancel does), a step under a shell would
  // be left running as an orphan.
  r.exit_code = RunCommand("exec " + cmd, &log);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  WriteAtomically(task.log, log);
  for (size_t pos = log.find("found in cache"); pos != std::string::npos;
       pos = log.find("found in cache", pos + 1))
    ++r.cache_hits;
  r.status = r.exit_code == 0 ? "ok" : "failed";
  if (r.exit_code != 0) {
    // The error lines gpurf printed, else the log's tail.
    std::string errors;
    std::istringstream in(log);
    for (std::string line; std::getline(in, line);)
      if (line.starts_with("gpurf: ") || line.starts_with("error: ") || line.starts_with("FAIL"))
        errors += (errors.empty() ? "" : "\n") + line;
    r.error = fmt::format("exit {}: {}", r.exit_code, errors.empty() ? Tail(log, 5) : errors);
  } else if (!task.output.empty()) {
    r.metrics = ExtractMetrics(task.step, task.output);
  }
  WriteRecordFile(task.record, r);
  return r;
}

void RunPointTasks(const SweepPlan& plan, size_t point, const SweepRunOptions& opt,
                   const std::function<void(const SweepTask&, const StepRecord&)>& on_record) {
  bool design_failed = false;
  std::set<std::string> failed_workloads;
  for (const auto& t : plan.tasks[point]) {
    if (t.done)
      continue;
    if (design_failed || failed_workloads.count(t.workload))
      continue;
    const StepRecord r = RunSweepTask(plan, t, opt);
    if (r.status != "ok") {
      if (t.workload.empty())
        design_failed = true;
      else
        failed_workloads.insert(t.workload);
    }
    on_record(t, r);
  }
}

namespace {

class LocalBackend : public SweepBackend {
 public:
  void Run(const SweepPlan& plan, const SweepRunOptions& opt,
           const std::function<void(const SweepTask&, const StepRecord&)>& on_record) override {
    std::atomic<size_t> next{0};
    std::mutex mu;
    const auto worker = [&] {
      for (;;) {
        const size_t i = next.fetch_add(1);
        if (i >= plan.points.size())
          return;
        RunPointTasks(plan, i, opt, [&](const SweepTask& t, const StepRecord& r) {
          std::lock_guard<std::mutex> lock(mu);
          on_record(t, r);
        });
      }
    };
    std::vector<std::thread> threads;
    const int n = std::max(1, std::min<int>(opt.jobs, static_cast<int>(plan.points.size())));
    for (int k = 0; k < n; ++k)
      threads.emplace_back(worker);
    for (auto& t : threads)
      t.join();
  }
};

std::string Duration(double s) {
  const auto t = static_cast<int64_t>(s + 0.5);
  if (t >= 3600)
    return fmt::format("{}h{:02}m{:02}s", t / 3600, t / 60 % 60, t % 60);
  if (t >= 60)
    return fmt::format("{}m{:02}s", t / 60, t % 60);
  return fmt::format("{}s", t);
}

}  // namespace

std::unique_ptr<SweepBackend> MakeSweepBackend(const std::string& name) {
  if (name == "local")
    return std::make_unique<LocalBackend>();
  if (name == "slurm")
    return MakeSlurmBackend();
  throw InputError({}, "--backend", name, "unknown backend", "local, slurm");
}

int RunSweep(const std::string& sweep_file, const SweepRunOptions& opt) {
  // Everything is checked before anything runs or is written.
  auto backend = MakeSweepBackend(opt.backend);
  const SweepFile sweep = LoadSweepFile(sweep_file);
  std::vector<SweepPoint> points = ExpandSweep(sweep);
  const fs::path out = opt.out_dir;
  if (fs::exists(out) || fs::is_symlink(out)) {
    if (!fs::is_directory(out) || fs::is_symlink(out))
      throw InputError({}, "-o", out.string(), "not a folder", "a new folder or a sweep folder");
    if (!fs::is_empty(out) && !fs::exists(out / kSweepMarker))
      throw InputError({}, "-o", out.string(),
                       "a folder that is not a gpurf sweep folder (no " +
                           std::string(kSweepMarker) + "); nothing in it is touched",
                       "a new or empty folder, or the folder of an earlier sweep");
  }
  SweepPlan plan = PlanSweep(sweep, std::move(points), opt);
  if (!opt.dry_run)
    backend->Preflight(plan, opt);
  size_t total_tasks = 0, done_tasks = 0;
  for (const auto& ts : plan.tasks)
    for (const auto& t : ts) {
      ++total_tasks;
      done_tasks += t.done;
    }
  fmt::print("sweep {}: {} points x {} tasks each, {} of {} tasks already done{}\n", sweep.name,
             plan.points.size(), plan.tasks.empty() ? 0 : plan.tasks[0].size(), done_tasks,
             total_tasks, opt.dry_run ? " (dry run)" : "");
  if (opt.dry_run) {
    for (size_t i = 0; i < plan.points.size(); ++i) {
      std::string axes, todo;
      for (const auto& [k, v] : plan.points[i].axis_values)
        axes += fmt::format("{}{}={}", axes.empty() ? "" : " ", k, v);
      size_t pending = 0;
      for (const auto& t : plan.tasks[i])
        pending += !t.done;
      fmt::print("  {} {}  {}: {} of {} tasks to run\n", plan.points[i].hash,
                 axes.empty() ? "(base)" : axes, plan.point_dirs[i].string(), pending,
                 plan.tasks[i].size());
    }
    return kExitOk;
  }
  fs::create_directories(out);
  if (!fs::exists(out / kSweepMarker)) {
    nlohmann::json m;
    m["generator"] = "gpurf sweep";
    m["version"] = GeneratorVersion();
    WriteAtomically(out / kSweepMarker, m.dump(1) + "\n");
  }
  for (size_t i = 0; i < plan.points.size(); ++i) {
    fs::create_directories(plan.point_dirs[i]);
    const fs::path d = plan.point_dirs[i] / "design.yaml";
    if (!fs::exists(d) || ReadFile(d) != plan.points[i].design)
      WriteAtomically(d, plan.points[i].design);
  }
  ResultsDb db(out / "results.db");
  const int64_t sweep_id = db.AddSweep(sweep, plan.points);
  // Records written by a run that died before merging them.
  db.MergeRecordFiles(out);

  const auto t0 = std::chrono::steady_clock::now();
  size_t ran = 0, run_failed = 0;
  std::vector<size_t> pending(plan.points.size(), 0);
  std::vector<bool> point_failed(plan.points.size(), false);
  size_t points_done = 0;
  for (size_t i = 0; i < plan.points.size(); ++i) {
    for (const auto& t : plan.tasks[i])
      pending[i] += !t.done;
    points_done += pending[i] == 0;
  }
  size_t to_run = total_tasks - done_tasks;
  double seconds_run = 0;
  size_t failed_points = 0;
  backend->Run(plan, opt, [&](const SweepTask& t, const StepRecord& r) {
    db.Merge({r});
    ++ran;
    seconds_run += r.seconds;
    if (r.status != "ok") {
      ++run_failed;
      if (!point_failed[t.point]) {
        point_failed[t.point] = true;
        ++failed_points;
      }
      fmt::print("sweep: point {} step {}{} FAILED: {}\n", r.point, r.step,
                 r.workload.empty() ? "" : " (" + r.workload + ")", Tail(r.error, 1));
    }
    if (pending[t.point] > 0 && --pending[t.point] == 0 && !point_failed[t.point])
      ++points_done;
    // Remaining tasks: those not run yet (a failure skips the rest of its chain; counted here as
    // remaining until the point finishes, which keeps the ETA conservative).
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const size_t left = to_run > ran ? to_run - ran : 0;
    const size_t remaining_points = plan.points.size() - points_done - failed_points;
    fmt::print("sweep: {} done, {} failed, {} remaining points ({} of {} tasks run); ETA {}\n",
               points_done, failed_points, remaining_points, ran, to_run,
               left == 0 ? "0s" : Duration(elapsed / double(ran) * double(left)));
  });
  db.MergeRecordFiles(out);  // idempotent: the database holds every record on disk
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto failed = db.Query(
      "SELECT COUNT(DISTINCT point) AS n FROM steps WHERE status != 'ok' AND point IN "
      "(SELECT hash FROM points WHERE sweep_id = ?)",
      {sweep_id})[0]["n"];
  fmt::print(
      "sweep {} {}: {} points, {} tasks run ({} failed), {} skipped as done, wall {}; results "
      "in {}\n",
      sweep.name, failed.get<int64_t>() == 0 ? "PASSED" : "FAILED", plan.points.size(), ran,
      run_failed, done_tasks, Duration(wall), (out / "results.db").string());
  return failed.get<int64_t>() == 0 ? kExitOk : kExitCheckFailed;
}

}  // namespace gpurf
