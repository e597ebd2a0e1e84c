#include "base/process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "base/diag.h"

namespace gpurf {

namespace fs = std::filesystem;

namespace {

// The channel to the guardian is a SOCK_SEQPACKET socket pair: every record is one packet, so
// records of concurrent threads never interleave; sends use MSG_NOSIGNAL, so a guardian that is
// gone can never kill gpurf with SIGPIPE; and the guardian sees gpurf's end close when gpurf
// dies. Records: one opcode byte, a payload, a NUL.
constexpr char kAddGroup = 'G';
constexpr char kRemoveGroup = 'g';
constexpr char kAddPath = 'P';
constexpr char kRemovePath = 'p';
constexpr char kCleanNow = 'X';  // from the signal handler: clean up, then acknowledge

int g_guardian_fd = -1;  // gpurf's end of the socket pair (close-on-exec)
volatile std::sig_atomic_t g_dying = 0;

void Send(char op, const std::string& payload) {
  if (g_guardian_fd < 0)
    return;
  std::string rec(1, op);
  rec += payload;
  rec += '\0';
  ssize_t r;
  do {
    r = send(g_guardian_fd, rec.data(), rec.size(), MSG_NOSIGNAL);
  } while (r < 0 && errno == EINTR);
}

bool GroupAlive(pid_t g) {
  return kill(-g, 0) == 0 || errno == EPERM;
}

// Terminates the registered process groups (SIGTERM, up to 1 s of grace, then SIGKILL) and
// removes the registered folders.
void CleanUp(std::set<pid_t>& groups, std::set<std::string>& paths) {
  for (const pid_t g : groups)
    kill(-g, SIGTERM);
  for (int i = 0; i < 20; ++i) {
    bool any = false;
    for (const pid_t g : groups)
      any = any || GroupAlive(g);
    if (!any)
      break;
    usleep(50 * 1000);
  }
  for (const pid_t g : groups)
    kill(-g, SIGKILL);
  groups.clear();
  for (const std::string& p : paths) {
    std::error_code ec;
    fs::remove_all(p, ec);
  }
  paths.clear();
}

[[noreturn]] void GuardianMain(int fd) {
  // A Ctrl-C reaches the whole foreground process group: the guardian must outlive gpurf.
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGTERM, SIG_IGN);
  std::signal(SIGHUP, SIG_IGN);
  std::signal(SIGPIPE, SIG_IGN);
  // Hold no descriptor of gpurf's (a pipe a caller reads gpurf's output from must close when
  // gpurf exits), only the two pipes.
  const int null_fd = open("/dev/null", O_RDWR);
  if (null_fd >= 0) {
    dup2(null_fd, 0);
    dup2(null_fd, 1);
    dup2(null_fd, 2);
  }
  std::vector<int> open_fds;
  std::error_code ec;
  for (auto e = fs::directory_iterator("/proc/self/fd", ec); !ec && e != fs::end(e);
       e.increment(ec)) {
    if (const int n = std::atoi(e->path().filename().c_str()); n > 2 && n != fd)
      open_fds.push_back(n);
  }
  for (const int n : open_fds)
    close(n);

  std::set<pid_t> groups;
  std::set<std::string> paths;
  std::string pending;
  std::array<char, 8192> buf{};
  for (;;) {
    const ssize_t n = recv(fd, buf.data(), buf.size(), 0);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;  // gpurf is gone
    pending.append(buf.data(), static_cast<size_t>(n));
    size_t start = 0;
    for (size_t end; (end = pending.find('\0', start)) != std::string::npos; start = end + 1) {
      const char op = pending[start];
      const std::string arg = pending.substr(start + 1, end - start - 1);
      switch (op) {
        case kAddGroup:
          groups.insert(static_cast<pid_t>(std::atol(arg.c_str())));
          break;
        case kRemoveGroup:
          groups.erase(static_cast<pid_t>(std::atol(arg.c_str())));
          break;
        case kAddPath:
          paths.insert(arg);
          break;
        case kRemovePath:
          paths.erase(arg);
          break;
        case kCleanNow: {
          CleanUp(groups, paths);
          const char ack = 1;
          while (send(fd, &ack, 1, MSG_NOSIGNAL) < 0 && errno == EINTR) {
          }
          break;
        }
        default:
          break;
      }
    }
    pending.erase(0, start);
  }
  CleanUp(groups, paths);
  _exit(0);
}

// SIGINT/SIGTERM/SIGHUP: stop children and remove temporaries through the guardian (which also
// covers what other threads hold), then die of the same signal. Only async-signal-safe calls.
void OnTerminatingSignal(int sig) {
  g_dying = 1;
  if (g_guardian_fd >= 0) {
    const char rec[2] = {kCleanNow, '\0'};
    if (send(g_guardian_fd, rec, sizeof rec, MSG_NOSIGNAL) == static_cast<ssize_t>(sizeof rec)) {
      pollfd p{g_guardian_fd, POLLIN, 0};
      if (poll(&p, 1, 10000) > 0) {
        char ack;
        (void)!recv(g_guardian_fd, &ack, 1, 0);
      }
    }
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

void StartProcessGuardian() {
  if (g_guardian_fd >= 0)
    return;
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    return;  // gpurf runs without the guardian: nothing is cleaned up after a kill
  const pid_t pid = fork();
  if (pid == 0) {
    close(sv[0]);
    GuardianMain(sv[1]);
  }
  close(sv[1]);
  if (pid < 0) {
    close(sv[0]);
    return;
  }
  g_guardian_fd = sv[0];
  struct sigaction sa {};
  sa.sa_handler = OnTerminatingSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  for (const int sig : {SIGINT, SIGTERM, SIGHUP})
    sigaction(sig, &sa, nullptr);
}

bool ProcessGuardianActive() {
  return g_guardian_fd >= 0;
}

void GuardPath(const fs::path& p) {
  Send(kAddPath, p.string());
}

void UnguardPath(const fs::path& p) {
  Send(kRemovePath, p.string());
}

int RunCommand(const std::string& cmd, std::string* log) {
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0)
    throw ToolError(fmt::format("cannot run '{}': pipe: {}", cmd, std::strerror(errno)));
  // Everything the child needs is prepared before fork: between fork and exec a multithreaded
  // process may only make async-signal-safe calls.
  const char* argv[] = {"/bin/sh", "-c", cmd.c_str(), nullptr};
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    // If gpurf dies without the guardian's help (SIGKILL between fork and registration), the
    // shell dies with it.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
      _exit(127);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    const int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0)
      dup2(null_fd, 0);
    dup2(out[1], 1);
    dup2(out[1], 2);
    execv("/bin/sh", const_cast<char* const*>(argv));
    _exit(127);
  }
  close(out[1]);
  if (pid < 0) {
    close(out[0]);
    throw ToolError(fmt::format("cannot run '{}': fork: {}", cmd, std::strerror(errno)));
  }
  setpgid(pid, pid);  // also done by the child; whichever runs first wins the race
  const std::string group = std::to_string(pid);
  Send(kAddGroup, group);
  std::array<char, 4096> buf{};
  for (;;) {
    const ssize_t n = read(out[0], buf.data(), buf.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    if (log != nullptr)
      log->append(buf.data(), static_cast<size_t>(n));
  }
  close(out[0]);
  int status = 0;
  pid_t w;
  do {
    w = waitpid(pid, &status, 0);
  } while (w < 0 && errno == EINTR);
  Send(kRemoveGroup, group);
  // gpurf is being terminated by a signal and the guardian stopped this child: do not report
  // the child's death as a tool failure, wait for the handler to end the process.
  while (g_dying)
    pause();
  if (w < 0)
    return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace gpurf
