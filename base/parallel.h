// Fans independent work items out to threads: the synthesis and the characterization of a
// target's modules (synth/synth.cc, synth/characterize.cc) run `-j N` at a time this way.
#pragma once

#include <cstddef>
#include <functional>

namespace gpurf {

// Runs body(i) for every i in [0, n) on min(n, max(1, jobs)) threads, the calling one included;
// each thread takes the next index when it is done with one. Returns when every item is done;
// then rethrows the exception of the lowest index whose body threw (the others are dropped).
void ParallelFor(size_t n, int jobs, const std::function<void(size_t)>& body);

// The threads ParallelFor(n, jobs, ...) runs.
size_t ParallelThreads(size_t n, int jobs);

}  // namespace gpurf
