#include "gen/structures/emit.h"

#include "gen/structures/flop_array/flop_array_gen.h"
#include "gen/structures/rfc/rfc_gen.h"

namespace gpurf {

namespace {
template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;
}  // namespace

GeneratedStructure Emit(const StructureSpec& spec) {
  return std::visit(Overloaded{
                        [](const FlopArraySpec& s) { return EmitFlopArray(s); },
                        [](const RfcSpec& s) { return EmitRfc(s); },
                    },
                    spec);
}

}  // namespace gpurf
