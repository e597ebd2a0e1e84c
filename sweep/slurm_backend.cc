#include "sweep/slurm_backend.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "base/diag.h"
#include "base/fs.h"
#include "base/process.h"

namespace gpurf {

namespace {

using Clock = std::chrono::steady_clock;

// Seconds any one Slurm client command may take before it counts as failed.
constexpr int kCommandTimeout = 60;
// Consecutive squeue failures before the backend gives up (with the last error).
constexpr int kMaxSqueueFailures = 5;

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

void WriteAtomically(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.parent_path() / fmt::format(".{}.tmp-{}", path.filename().string(),
                                                        static_cast<long>(getpid()));
  WriteFile(tmp, text);
  fs::rename(tmp, path);
}

std::string Trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.pop_back();
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
    ++i;
  return s.substr(i);
}

std::string OneLine(std::string s) {
  s = Trim(s);
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

// Runs a Slurm client command with a time limit; stdout+stderr in *out.
int Slurm(const std::string& cmd, std::string* out) {
  out->clear();
  return RunCommand(fmt::format("timeout {} {}", kCommandTimeout, cmd), out);
}

bool OnPath(const std::string& tool) {
  std::string out;
  return RunCommand("command -v " + tool + " >/dev/null 2>&1", &out) == 0;
}

int64_t MemMegabytes(const std::string& mem) {
  if (mem.empty())
    return 0;
  int64_t n = std::stoll(mem);
  switch (mem.back()) {
    case 'K':
      return std::max<int64_t>(1, n / 1024);
    case 'G':
      return n * 1024;
    case 'T':
      return n * 1024 * 1024;
    default:
      return n;  // M or no suffix: megabytes, as sbatch reads it
  }
}

// The end state of one array task: sacct when accounting is on, else scontrol (which keeps a
// finished job for MinJobAge seconds). "UNKNOWN" when neither knows it.
std::pair<std::string, std::string> ArrayTaskEnd(const std::string& job, size_t index) {
  const std::string id = fmt::format("{}_{}", job, index);
  std::string out;
  if (OnPath("sacct") &&
      Slurm(fmt::format("sacct -n -P -X -j {} -o State,ExitCode 2>/dev/null", id), &out) == 0) {
    std::istringstream in(out);
    std::string line;
    if (std::getline(in, line) && line.find('|') != std::string::npos) {
      const size_t bar = line.find('|');
      std::string state = Trim(line.substr(0, bar));
      if (const size_t sp = state.find(' '); sp != std::string::npos)
        state = state.substr(0, sp);  // "CANCELLED by 0"
      if (!state.empty())
        return {state, Trim(line.substr(bar + 1))};
    }
  }
  if (Slurm(fmt::format("scontrol -o show job {}", id), &out) == 0) {
    const auto field = [&](const std::string& key) {
      const size_t p = out.find(" " + key + "=");
      if (p == std::string::npos)
        return std::string();
      const size_t b = p + key.size() + 2;
      return out.substr(b, out.find_first_of(" \n", b) - b);
    };
    if (std::string state = field("JobState"); !state.empty())
      return {state, field("ExitCode")};
  }
  return {"UNKNOWN", ""};
}

std::string LogTail(const fs::path& log, size_t lines) {
  std::error_code ec;
  if (!fs::is_regular_file(log, ec))
    return "";
  const std::string text = ReadFile(log);
  size_t pos = text.size(), n = 0;
  while (pos > 0 && n <= lines)
    if (text[--pos] == '\n')
      ++n;
  return OneLine(text.substr(pos));
}

struct Batch {
  std::vector<size_t> points;
  bool finished = false;  // its done marker exists
};

class SlurmBackend : public SweepBackend {
 public:
  void Preflight(const SweepPlan& /*plan*/, const SweepRunOptions& /*opt*/) override {
    for (const char* tool : {"sbatch", "squeue"})
      if (!OnPath(tool))
        throw ToolError(fmt::format(
            "--backend slurm: '{}' not found on PATH: the Slurm backend submits with sbatch and "
            "follows the job with squeue (install the Slurm client commands and point "
            "SLURM_CONF at the cluster's slurm.conf, or use --backend local)",
            tool));
  }

  void Run(const SweepPlan& plan, const SweepRunOptions& opt,
           const std::function<void(const SweepTask&, const StepRecord&)>& on_record) override {
    out_ = fs::absolute(opt.out_dir);
    dir_ = out_ / "slurm";
    fs::create_directories(dir_ / "logs");
    const SlurmOptions& so = plan.sweep.slurm;
    std::vector<std::vector<bool>> reported(plan.points.size());
    for (size_t i = 0; i < plan.points.size(); ++i)
      reported[i].assign(plan.tasks[i].size(), false);

    // 1. A job of an earlier run still queued or running: follow it to its end first, so the
    // same tasks are never submitted twice.
    std::vector<std::vector<bool>> done(plan.points.size());
    for (size_t i = 0; i < plan.points.size(); ++i)
      for (const auto& t : plan.tasks[i])
        done[i].push_back(t.done);
    if (fs::is_regular_file(dir_ / "job.id")) {
      const std::string old = Trim(ReadFile(dir_ / "job.id"));
      std::set<size_t> active;
      if (!old.empty() && Squeue(old, &active) && !active.empty()) {
        fmt::print(
            "sweep: Slurm job {} of an earlier run is still queued or running: following it\n",
            old);
        std::fflush(stdout);
        Follow(old, {}, so, [&] { return false; });
        for (size_t i = 0; i < plan.points.size(); ++i)
          for (size_t k = 0; k < plan.tasks[i].size(); ++k) {
            const SweepTask& t = plan.tasks[i][k];
            if (done[i][k])
              continue;
            if (const auto r = ReadRecordFile(t.record);
                r && r->status == "ok" && r->point == plan.points[i].hash) {
              done[i][k] = true;
              reported[i][k] = true;
              on_record(t, *r);
            }
          }
      }
    }

    // 2. The batches: points with a pending task, `points_per_task` at a time.
    std::vector<size_t> pending_points;
    for (size_t i = 0; i < plan.points.size(); ++i)
      if (std::find(done[i].begin(), done[i].end(), false) != done[i].end())
        pending_points.push_back(i);
    if (pending_points.empty())
      return;
    const SlurmResources res = Resources(plan, so);
    size_t per = so.points_per_task > 0 ? so.points_per_task
                                        : AutoPointsPerTask(pending_points.size(), res.cpus, so);
    per = std::max(per, (pending_points.size() + kMaxArrayTasks - 1) / kMaxArrayTasks);
    std::vector<Batch> batches;
    for (size_t k = 0; k < pending_points.size(); k += per) {
      Batch b;
      for (size_t j = k; j < std::min(pending_points.size(), k + per); ++j)
        b.points.push_back(pending_points[j]);
      batches.push_back(std::move(b));
    }

    // 3. The manifest (the worker's argv per task) and the job script. A stale record of a task
    // about to run (a failed one) is removed, so a record that appears is this run's.
    nlohmann::json manifest;
    manifest["out_dir"] = out_.string();
    manifest["batches"] = nlohmann::json::array();
    for (const auto& b : batches) {
      nlohmann::json jb = nlohmann::json::array();
      for (const size_t i : b.points) {
        nlohmann::json jp;
        jp["hash"] = plan.points[i].hash;
        jp["dir"] = plan.point_dirs[i].string();
        jp["tasks"] = nlohmann::json::array();
        for (size_t k = 0; k < plan.tasks[i].size(); ++k) {
          const SweepTask& t = plan.tasks[i][k];
          if (!done[i][k]) {
            std::error_code ec;
            fs::remove(t.record, ec);
          }
          jp["tasks"].push_back({{"step", t.step},
                                 {"workload", t.workload},
                                 {"argv", t.argv},
                                 {"output", t.output.string()},
                                 {"record", t.record.string()},
                                 {"log", t.log.string()},
                                 {"done", static_cast<bool>(done[i][k])}});
        }
        jb.push_back(jp);
      }
      manifest["batches"].push_back(jb);
    }
    std::error_code ec;
    fs::remove_all(dir_ / "done", ec);
    fs::create_directories(dir_ / "done");
    for (size_t b = 0; b < batches.size(); ++b)
      fs::remove(dir_ / "logs" / fmt::format("task-{}.out", b), ec);
    WriteAtomically(dir_ / "tasks.json", manifest.dump(1) + "\n");
    const fs::path gpurf =
        opt.gpurf_binary.empty() ? fs::read_symlink("/proc/self/exe") : opt.gpurf_binary;
    std::string script = fmt::format(
        "#!/bin/sh\n"
        "# gpurf sweep {}: array task i runs batch i of tasks.json ({} points, {} per task).\n"
        "# Written by gpurf sweep --backend slurm; submitted as\n"
        "#   sbatch --parsable --output=DIR/slurm/logs/task-%a.out --chdir=DIR job.sh\n"
        "#SBATCH --job-name=gpurf-{}\n"
        "#SBATCH --array=0-{}{}\n"
        "#SBATCH --cpus-per-task={}\n"
        "#SBATCH --time={}\n",
        plan.sweep.name, pending_points.size(), per, plan.sweep.name, batches.size() - 1,
        so.max_running > 0 ? fmt::format("%{}", so.max_running) : "", res.cpus,
        res.time_minutes * static_cast<int>(per));
    if (!res.mem.empty())
      script += fmt::format("#SBATCH --mem={}\n", res.mem);
    if (!so.partition.empty())
      script += fmt::format("#SBATCH --partition={}\n", so.partition);
    if (!so.account.empty())
      script += fmt::format("#SBATCH --account={}\n", so.account);
    script += fmt::format("exec {} sweep-task {} \"$SLURM_ARRAY_TASK_ID\"\n", Quote(gpurf.string()),
                          Quote((dir_ / "tasks.json").string()));
    WriteAtomically(dir_ / "job.sh", script);

    // 4. Submit.
    std::string cmd =
        fmt::format("sbatch --parsable --output={} --chdir={}",
                    Quote((dir_ / "logs" / "task-%a.out").string()), Quote(out_.string()));
    for (const auto& a : so.sbatch_args)
      cmd += " " + Quote(a);
    cmd += " " + Quote((dir_ / "job.sh").string());
    std::string out;
    const int rc = Slurm(cmd + " 2>&1", &out);
    std::string job = Trim(out.substr(0, out.find_first_of(";\n")));
    if (rc != 0 || job.empty() || job.find_first_not_of("0123456789") != std::string::npos)
      throw ToolError(fmt::format("sbatch failed (exit {}{}): {}; the job script is {}", rc,
                                  rc == 124 ? ", timed out" : "", OneLine(out),
                                  (dir_ / "job.sh").string()));
    WriteAtomically(dir_ / "job.id", job + "\n");
    fmt::print(
        "sweep: submitted Slurm job {} ({} array tasks of {} point{}; {}), following it with "
        "squeue every {}s\n",
        job, batches.size(), per, per == 1 ? "" : "s", (dir_ / "job.sh").string(), so.poll_seconds);
    std::fflush(stdout);

    // 5. Follow: report each record as it appears; a batch is finished when its marker is.
    const auto scan = [&] {
      bool all = true;
      for (size_t b = 0; b < batches.size(); ++b) {
        Batch& batch = batches[b];
        if (batch.finished)
          continue;
        // The marker first: records written before it are then all on disk.
        const bool marker = fs::exists(dir_ / "done" / std::to_string(b));
        for (const size_t i : batch.points)
          for (size_t k = 0; k < plan.tasks[i].size(); ++k) {
            if (done[i][k] || reported[i][k])
              continue;
            const SweepTask& t = plan.tasks[i][k];
            if (const auto r = ReadRecordFile(t.record); r && r->point == plan.points[i].hash) {
              reported[i][k] = true;
              on_record(t, *r);
            }
          }
        batch.finished = marker;
        all = all && marker;
      }
      return all;
    };
    Follow(job, batches, so, scan);
    scan();

    // 6. Array tasks that ended without finishing their batch: the first step of each point's
    // chain that has no record gets a failed record naming the Slurm state.
    for (size_t b = 0; b < batches.size(); ++b) {
      if (batches[b].finished)
        continue;
      const auto [state, exit_code] = ArrayTaskEnd(job, b);
      const fs::path log = dir_ / "logs" / fmt::format("task-{}.out", b);
      const std::string tail = LogTail(log, 3);
      fmt::print("sweep: Slurm array task {}_{} ended {}{} before its batch finished; log {}\n",
                 job, b, state, exit_code.empty() ? "" : " (exit " + exit_code + ")", log.string());
      for (const size_t i : batches[b].points) {
        for (size_t k = 0; k < plan.tasks[i].size(); ++k) {
          if (done[i][k] || reported[i][k])
            continue;
          const SweepTask& t = plan.tasks[i][k];
          StepRecord r;
          r.point = plan.points[i].hash;
          r.step = t.step;
          r.workload = t.workload;
          r.status = "failed";
          int code = 1;
          if (!exit_code.empty()) {
            const int a = std::atoi(exit_code.c_str());
            const size_t colon = exit_code.find(':');
            const int sig =
                colon == std::string::npos ? 0 : std::atoi(exit_code.c_str() + colon + 1);
            code = sig > 0 ? 128 + sig : a > 0 ? a : 1;
          }
          r.exit_code = code;
          r.command = fmt::format("sbatch {} (array task {})", (dir_ / "job.sh").string(), b);
          r.log = fs::relative(log, out_).string();
          r.error =
              fmt::format("Slurm array task {}_{} ended {}{} before this step wrote its record{}",
                          job, b, state, exit_code.empty() ? "" : " (exit " + exit_code + ")",
                          tail.empty() ? "" : "; log tail: " + tail);
          WriteRecordFile(t.record, r);
          reported[i][k] = true;
          on_record(t, r);
          break;  // the rest of the chain did not run
        }
      }
    }
  }

 private:
  static constexpr size_t kMaxArrayTasks = 1000;  // Slurm's default MaxArraySize is 1001

  // One array task asks for the most any step needs, and the sum of the steps' times.
  static SlurmResources Resources(const SweepPlan& plan, const SlurmOptions& so) {
    SlurmResources out;
    out.time_minutes = 0;
    int64_t mem = 0;
    const std::vector<SweepTask>& chain =
        plan.tasks.empty() ? std::vector<SweepTask>{} : plan.tasks[0];
    for (const auto& t : chain) {
      const SlurmResources r = so.For(t.step);
      out.cpus = std::max(out.cpus, r.cpus);
      out.time_minutes += r.time_minutes;
      if (MemMegabytes(r.mem) > mem) {
        mem = MemMegabytes(r.mem);
        out.mem = r.mem;
      }
    }
    out.time_minutes = std::max(1, out.time_minutes);
    return out;
  }

  // Auto batch size: about 4 array tasks per CPU of the cluster's partition (sinfo), so short
  // steps are not dominated by Slurm's per-task start-up, yet the load stays balanced.
  static size_t AutoPointsPerTask(size_t points, int cpus_per_task, const SlurmOptions& so) {
    std::string out;
    const std::string part = so.partition.empty() ? "" : " -p " + Quote(so.partition);
    if (Slurm("sinfo -h -o %C" + part + " 2>/dev/null", &out) != 0)
      return 1;
    // A/I/O/T: allocated/idle/other/total, one line per partition: the largest total.
    int64_t total = 0;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
      const size_t slash = line.rfind('/');
      if (slash != std::string::npos)
        total = std::max<int64_t>(total, std::atoll(line.c_str() + slash + 1));
    }
    if (total <= 0)
      return 1;
    const size_t slots = std::max<int64_t>(1, total / std::max(1, cpus_per_task));
    const size_t tasks = std::max<size_t>(1, 4 * slots);
    return std::max<size_t>(1, (points + tasks - 1) / tasks);
  }

  // The array tasks of `job` still in the queue (pending, running, completing); false when
  // squeue failed for another reason than an unknown (finished and purged) job.
  bool Squeue(const std::string& job, std::set<size_t>* active, std::string* states = nullptr,
              std::string* error = nullptr) {
    std::string out;
    const int rc = Slurm(fmt::format("squeue -h -r -j {} -o '%K|%T|%r' 2>&1", job), &out);
    active->clear();
    if (rc != 0) {
      if (out.find("Invalid job id") != std::string::npos)
        return true;
      if (error)
        *error =
            fmt::format("squeue exit {}{}: {}", rc, rc == 124 ? " (timed out)" : "", OneLine(out));
      return false;
    }
    std::map<std::string, int> count;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
      const size_t a = line.find('|');
      if (a == std::string::npos)
        continue;
      const size_t b = line.find('|', a + 1);
      const std::string id = line.substr(0, a);
      active->insert(id.find_first_not_of("0123456789") == std::string::npos && !id.empty()
                         ? std::stoul(id)
                         : 0);
      const std::string state = line.substr(a + 1, b - a - 1);
      const std::string reason = b == std::string::npos ? "" : line.substr(b + 1);
      ++count[state == "PENDING" && reason != "None" ? state + " (" + reason + ")" : state];
    }
    if (states) {
      states->clear();
      for (const auto& [s, n] : count)
        *states += fmt::format("{}{} {}", states->empty() ? "" : ", ", n, s);
    }
    return true;
  }

  // Polls until `finished()` (every batch marker is there) or the job has left the queue. Gives
  // up with a ToolError after `wait_hours` or kMaxSqueueFailures failed squeue calls in a row.
  void Follow(const std::string& job, const std::vector<Batch>& /*batches*/, const SlurmOptions& so,
              const std::function<bool()>& finished) {
    const auto start = Clock::now();
    auto last_poll = start - std::chrono::hours(1);
    int failures = 0;
    std::string last_states;
    for (;;) {
      const auto now = Clock::now();
      if (std::chrono::duration<double>(now - last_poll).count() >= so.poll_seconds) {
        last_poll = now;
        std::set<size_t> active;
        std::string states, error;
        if (!Squeue(job, &active, &states, &error)) {
          if (++failures >= kMaxSqueueFailures)
            throw ToolError(fmt::format(
                "following Slurm job {}: {} squeue calls in a row failed, the last: {}; the job "
                "may still run (scancel {} stops it); re-run the same gpurf sweep command to "
                "follow it again",
                job, failures, error, job));
        } else {
          failures = 0;
          // Records and markers are read after squeue: a task that left the queue has written
          // everything it will write.
          if (finished() || active.empty())
            return;
          if (states != last_states) {
            fmt::print("sweep: Slurm job {}: {}\n", job, states);
            std::fflush(stdout);
            last_states = states;
          }
        }
      } else if (finished()) {
        return;
      }
      if (std::chrono::duration<double>(Clock::now() - start).count() > so.wait_hours * 3600)
        throw ToolError(fmt::format(
            "Slurm job {} did not finish within slurm.wait_hours = {} (last state: {}); it is "
            "left queued (scancel {} stops it); re-run the same gpurf sweep command to follow "
            "it again",
            job, so.wait_hours, last_states.empty() ? "unknown" : last_states, job));
      std::this_thread::sleep_for(
          std::chrono::milliseconds(static_cast<int>(std::min(200.0, so.poll_seconds * 1000))));
    }
  }

  fs::path out_, dir_;
};

}  // namespace

std::unique_ptr<SweepBackend> MakeSlurmBackend() {
  return std::make_unique<SlurmBackend>();
}

int RunSweepTaskBatch(const fs::path& manifest_path, int index) {
  const std::string text = ReadInputFile(manifest_path.string(), "sweep task manifest", 1 << 30);
  const nlohmann::json m = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (m.is_discarded() || !m.contains("batches") || !m.contains("out_dir"))
    throw InputError({}, "manifest", manifest_path.string(), "not a gpurf sweep task manifest",
                     "DIR/slurm/tasks.json written by gpurf sweep --backend slurm");
  if (index < 0 || static_cast<size_t>(index) >= m["batches"].size())
    throw InputError({}, "index", std::to_string(index), "no such batch",
                     fmt::format("0..{}", m["batches"].size() - 1));
  SweepPlan plan;
  SweepRunOptions opt;
  opt.out_dir = m["out_dir"].get<std::string>();
  for (const auto& jp : m["batches"][index]) {
    SweepPoint p;
    p.hash = jp["hash"];
    plan.points.push_back(p);
    plan.point_dirs.emplace_back(jp["dir"].get<std::string>());
    std::vector<SweepTask> tasks;
    for (const auto& jt : jp["tasks"]) {
      SweepTask t;
      t.point = plan.points.size() - 1;
      t.step = jt["step"];
      t.workload = jt["workload"];
      t.argv = jt["argv"].get<std::vector<std::string>>();
      t.output = jt["output"].get<std::string>();
      t.record = jt["record"].get<std::string>();
      t.log = jt["log"].get<std::string>();
      t.done = jt["done"];
      tasks.push_back(std::move(t));
    }
    plan.tasks.push_back(std::move(tasks));
  }
  size_t failed = 0, ran = 0;
  for (size_t i = 0; i < plan.points.size(); ++i)
    RunPointTasks(plan, i, opt, [&](const SweepTask& t, const StepRecord& r) {
      ++ran;
      failed += r.status != "ok";
      fmt::print("{} {} {}{}: {} ({:.2f} s)\n", r.point, t.step, t.workload.empty() ? "" : " ",
                 t.workload, r.status, r.seconds);
      std::fflush(stdout);
    });
  const fs::path done = fs::path(m["out_dir"].get<std::string>()) / "slurm" / "done";
  fs::create_directories(done);
  WriteAtomically(done / std::to_string(index),
                  fmt::format("{} tasks run, {} failed\n", ran, failed));
  return kExitOk;
}

}  // namespace gpurf
