// The structure families gpurf implements, and the spec every layer takes.
//
// A family registers itself, by name, once per layer, in the files that implement that layer
// (base/registry.h): here its parameters, spec constructor and Verilog emitter (StructureKind,
// registered next to the emitter: gen/structures/<family>/<family>_gen.cc); the golden model in
// models/registry.h, the stimulus of `gpurf verify` in verif/stimulus/registry.h, the activity
// driver in synth/activity_driver.h, and so on (docs/adding-a-structure.md lists every layer).
// Shared code looks families up by the spec's kind and never names one.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

#include "base/registry.h"
#include "gen/output/artifact.h"
#include "gen/params/param.h"

namespace gpurf {

// The validated, immutable spec of one structure: any family's spec type (a struct with the
// fields `kind`, `module_name`, `config_hash` and `params`), behind one value type that every
// layer passes around. Emitters, golden models, lint and verify all take it, never raw flags or
// YAML; a layer that knows the family gets the concrete spec back with SpecAs/SpecIf.
class StructureSpec {
 public:
  template <class T>
  StructureSpec(T spec)  // NOLINT(google-explicit-constructor): every family spec is a spec
      : p_(std::make_shared<const Holder<T>>(std::move(spec))) {}

  const std::string& kind() const { return p_->kind(); }
  const std::string& module_name() const { return p_->module_name(); }
  const std::string& config_hash() const { return p_->config_hash(); }
  const ParamSet& params() const { return p_->params(); }

  template <class T>
  const T* If() const {
    const auto* h = dynamic_cast<const Holder<T>*>(p_.get());
    return h != nullptr ? &h->value : nullptr;
  }

 private:
  struct Concept {
    virtual ~Concept() = default;
    virtual const std::string& kind() const = 0;
    virtual const std::string& module_name() const = 0;
    virtual const std::string& config_hash() const = 0;
    virtual const ParamSet& params() const = 0;
  };
  template <class T>
  struct Holder final : Concept {
    explicit Holder(T v) : value(std::move(v)) {}
    const std::string& kind() const override { return value.kind; }
    const std::string& module_name() const override { return value.module_name; }
    const std::string& config_hash() const override { return value.config_hash; }
    const ParamSet& params() const override { return value.params; }
    T value;
  };
  std::shared_ptr<const Concept> p_;
};

// The concrete spec of `s`, or nullptr when `s` is of another family.
template <class T>
const T* SpecIf(const StructureSpec* s) {
  return s != nullptr ? s->If<T>() : nullptr;
}
// The concrete spec of `s`; std::bad_cast when it is of another family (a programming error).
template <class T>
const T& SpecAs(const StructureSpec& s) {
  const T* t = s.If<T>();
  if (t == nullptr)
    throw std::bad_cast();
  return *t;
}

// The layers a family plugs into, by the name its registry test and docs use.
inline const std::vector<std::string>& FamilyLayers() {
  static const std::vector<std::string> layers = {
      "gen",       // spec, parameters and emitter (this file)
      "model",     // golden model (models/registry.h)
      "stimulus",  // stimulus of gpurf verify (verif/stimulus/registry.h)
      "activity",  // activity driver of gate-level characterization (synth/activity_driver.h)
      // RTL transactor of the SM harness (--rtl / --lockstep: sim/harness/transactor.h), or the
      // system top's (--rtl-top: sim/harness/rtl_top.h RtlTopKind)
      "transactor",
  };
  return layers;
}

// The generator layer of a family.
struct StructureKind {
  std::string name;     // CLI / YAML name: "flop-array"
  std::string summary;  // one line for --list
  int list_order = 0;   // position in --list (families sorted by it, then by name)
  std::vector<ParamDesc> params;
  std::function<StructureSpec(const ParamSet&)> make_spec;
  std::function<GeneratedStructure(const StructureSpec&)> emit;
  // Layers this family has no part in, each with the reason (e.g. the SM harness for a
  // structure that is only ever instantiated inside another). Every other layer of
  // FamilyLayers() must have the family registered; a unit test checks it.
  std::map<std::string, std::string> not_applicable;
};
// Implemented kinds, in --list order (the registry, read once after static initialization).
const std::vector<StructureKind>& StructureKinds();
const StructureKind* FindStructureKind(const std::string& name);

// Kinds a design point may describe that later issues implement: described in YAML, skipped
// by generation with a message naming the kind.
struct PlannedKind {
  std::string name;
  std::string summary;
};
const std::vector<PlannedKind>& PlannedStructureKinds();

// Adds a planned kind for the object's lifetime: lets tests exercise the planned-kind paths (YAML
// accepts and skips it, `gpurf gen` rejects it as not implemented yet) while the list is empty.
class ScopedPlannedKind {
 public:
  explicit ScopedPlannedKind(PlannedKind kind);
  ~ScopedPlannedKind();
  ScopedPlannedKind(const ScopedPlannedKind&) = delete;
  ScopedPlannedKind& operator=(const ScopedPlannedKind&) = delete;
};

// Accessors valid for every spec (kept as free functions for the callers that read better so).
inline const std::string& KindName(const StructureSpec& s) {
  return s.kind();
}
inline const std::string& ModuleName(const StructureSpec& s) {
  return s.module_name();
}
inline const std::string& ConfigHash(const StructureSpec& s) {
  return s.config_hash();
}
inline const ParamSet& Params(const StructureSpec& s) {
  return s.params();
}

}  // namespace gpurf
