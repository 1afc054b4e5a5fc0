// A thread's scratch belongs to the method object that made it: a method
// built where a freed one lay (the same address) gets scratch of its own
// type, never the freed method's.
#include <doctest/doctest.h>

#include <memory>
#include <new>
#include <string>
#include <type_traits>

#include "method.hpp"

using namespace vosim;

namespace {

struct ScratchA final : MethodScratch {
    int marker = 1;
};
struct ScratchB final : MethodScratch {
    double values[64] = {};
};

// Two methods of the same size whose scratch types differ; each says which
// scratch it was handed.
template <class Scratch>
class ScratchUser final : public Method {
public:
    std::string name() const override { return "ScratchUser"; }
    std::unique_ptr<MethodScratch> make_scratch() const override { return std::make_unique<Scratch>(); }
    Vec2 new_velocity(const SceneOf<Vec2>&, int, Workspace&) const override { return Vec2(); }
    const MethodScratch* scratch_seen(Workspace& ws) const { return &scratch<Scratch>(ws); }
};
using UserA = ScratchUser<ScratchA>;
using UserB = ScratchUser<ScratchB>;
static_assert(sizeof(UserA) == sizeof(UserB), "the test needs the second method to fit the first's storage");

}  // namespace

TEST_CASE("Method scratch: a method made at a freed method's address makes its own scratch") {
    Workspace ws;
    std::aligned_storage_t<sizeof(UserA), alignof(UserA)> storage;
    auto* a = new (&storage) UserA();
    const MethodScratch* first = a->scratch_seen(ws);
    CHECK(dynamic_cast<const ScratchA*>(first) != nullptr);
    CHECK(a->scratch_seen(ws) == first);  // kept from call to call
    a->~UserA();

    auto* b = new (&storage) UserB();  // the same address
    REQUIRE(static_cast<const void*>(b) == static_cast<const void*>(&storage));
    const MethodScratch* second = b->scratch_seen(ws);
    CHECK(dynamic_cast<const ScratchB*>(second) != nullptr);
    b->~UserB();
}

TEST_CASE("Method scratch: a copy of a method is another owner") {
    Workspace ws;
    UserA a;
    const UserA copy(a);
    CHECK(copy.instance() != a.instance());
    a.scratch_seen(ws);
    CHECK(ws.scratch_owner == a.instance());
    copy.scratch_seen(ws);
    CHECK(ws.scratch_owner == copy.instance());
}
