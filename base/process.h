// Child processes and what gpurf leaves behind when it dies.
//
// Every external tool (Verilator, make, Yosys and its ABC, OpenSTA, Icarus) runs through
// RunCommand in a process group of its own, so that it and all of its descendants can be
// signalled together. The process guardian, a small helper process forked once at start-up,
// holds the list of live child process groups and of temporary folders (staging, work and cache
// build folders). When gpurf dies, however it dies (SIGINT, SIGTERM, SIGHUP handled below; SIGKILL
// or a crash, seen by the guardian as its channel to gpurf closing), the guardian terminates those
// process groups and removes those folders. Paths are registered only while they are gpurf's own
// temporaries and unregistered before anything is published, so the guardian can never remove an
// output or a cache entry.
#pragma once

#include <filesystem>
#include <string>

namespace gpurf {

// Forks the guardian and installs the SIGINT/SIGTERM/SIGHUP handlers that let it clean up
// before gpurf dies with the signal (exit status 128 + signal number, as the shell reports it).
// Call once at the start of main, before any thread exists. Without it (library users, unit
// tests) the functions below still work; nothing is cleaned up after a kill.
void StartProcessGuardian();

// Whether the guardian is running (tests).
bool ProcessGuardianActive();

// A temporary folder the guardian removes if gpurf dies while it is registered.
void GuardPath(const std::filesystem::path& p);
void UnguardPath(const std::filesystem::path& p);

// Runs `cmd` with /bin/sh in a new process group (registered with the guardian while it runs),
// stdout and stderr appended to *log when log is not null. Returns the exit code, 128 + the
// signal number when the command was killed, or -1 when it could not be started.
int RunCommand(const std::string& cmd, std::string* log);

}  // namespace gpurf
