// A structure transaction of a register-file system (rf_systems.h StructureListener): one read,
// write, flush... of one structure, as the C++ models' system performs it. Each structure kind
// defines its own transaction types next to its transactor (sim/harness/transactors/) and the
// model systems that make them; shared code passes them on as StructureTransaction and never
// names one.
//
// A transaction type derives from StructureTransaction and has a static `kType` naming it; a
// receiver asks `t.As<RfcWrite>()` (one pointer compare, no RTTI) and gets null for another
// type. Transactions are built on the stack for one listener call and may refer to the system's
// own data (hold nothing from them past the call).
#pragma once

namespace gpurf::harness {

// The identity of one transaction type (its address) and its name for reports.
struct TransactionType {
  const char* name;
};

class StructureTransaction {
 public:
  const TransactionType& type() const { return *type_; }

  // This transaction as a `T` (a type with `static constexpr TransactionType kType`), or null.
  template <class T>
  const T* As() const {
    return type_ == &T::kType ? static_cast<const T*>(this) : nullptr;
  }

 protected:
  explicit constexpr StructureTransaction(const TransactionType& type) : type_(&type) {}
  ~StructureTransaction() = default;
  StructureTransaction(const StructureTransaction&) = default;
  StructureTransaction& operator=(const StructureTransaction&) = default;

 private:
  const TransactionType* type_;
};

}  // namespace gpurf::harness
