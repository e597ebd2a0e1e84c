// A registry of named implementations of one interface, filled by the files that define them.
//
// Each layer of gpurf (generators, golden models, stimulus, activity drivers, SM-harness
// transactors, energy levels, register-file hierarchies) keeps one Registry of its entries, and
// each structure family registers its entry in the file that implements it:
//
//   GPURF_REGISTER(ModelRegistry, mrf, "mrf", ModelFamily{...});
//
// Shared code iterates a registry or looks an entry up by name and never names a family. The
// libraries holding registered entries are linked whole (cmake/GpurfLibrary.cmake), so that no
// registration is dropped by the linker because nothing refers to its object file.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gpurf {

template <class Entry>
class Registry {
 public:
  // The one registry of this entry type (constructed on first use, so registrations in static
  // initializers of any translation unit find it).
  static Registry& Get() {
    static Registry r;
    return r;
  }

  // Adds `entry` under `name`. Two entries of one name are a build defect: reported and aborted
  // before main() runs, so no test or user ever sees a half-registered family.
  void Add(const std::string& name, Entry entry) {
    if (!entries_.emplace(name, std::move(entry)).second) {
      std::fprintf(stderr, "gpurf: internal error: '%s' registered twice in one registry\n",
                   name.c_str());
      std::abort();
    }
  }

  const Entry* Find(std::string_view name) const {
    const auto it = entries_.find(name);
    return it == entries_.end() ? nullptr : &it->second;
  }

  // Every entry, ordered by name.
  const std::map<std::string, Entry, std::less<>>& All() const { return entries_; }

  std::vector<std::string> Names() const {
    std::vector<std::string> names;
    names.reserve(entries_.size());
    for (const auto& [name, entry] : entries_)
      names.push_back(name);
    return names;
  }

 private:
  Registry() = default;
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace gpurf

// Registers `entry` (an expression of the registry's entry type) under `name` when the program
// starts. `id` makes the registration's variable unique within the file.
#define GPURF_REGISTER(RegistryType, id, name, entry)                      \
  namespace {                                                              \
  [[maybe_unused]] const bool gpurf_registered_##id = [] {                 \
    ::gpurf::Registry<RegistryType>::Get().Add(name, entry);               \
    return true;                                                           \
  }();                                                                     \
  }
