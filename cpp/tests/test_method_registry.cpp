// The method registry (methods/registry.hpp): every method declared once,
// with defaults inside their ranges, and made from its parameters.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "methods/bound_params.hpp"
#include "methods/registry.hpp"
#include "methods/velocity_obstacles/velocity_obstacles.hpp"

using namespace vosim;

TEST_CASE("methods and their parameters have unique names, docs and dimensions") {
    std::set<std::string> names;
    for (const MethodSpec& spec : method_registry()) {
        CHECK(names.insert(spec.name).second);
        for (const std::string& alias : spec.aliases) CHECK(names.insert(alias).second);
        CHECK_FALSE(spec.family.empty());
        CHECK_FALSE(spec.summary.empty());
        CHECK_FALSE(spec.dimensions.empty());
        CHECK(static_cast<bool>(spec.make));
        std::set<std::string> params;
        for (const ParamSpec& param : spec.params) {
            CHECK(params.insert(param.name).second);
            CHECK_FALSE(param.doc.empty());
        }
    }
}

TEST_CASE("every default lies in its range and makes the method of that name") {
    for (const MethodSpec& spec : method_registry()) {
        for (const ParamSpec& param : spec.params) {
            INFO(spec.name << "." << param.name);
            CHECK_NOTHROW(check_param(param, param.default_value));
        }
        for (int dimension : spec.dimensions) {
            const auto method = make_method(spec.name, {}, 0, dimension);
            CHECK(method->name() == spec.name);
            CHECK(method->supports_dimensions(dimension));  // the registry and the method agree
        }
        for (int dimension : {2, 3}) {
            if (std::find(spec.dimensions.begin(), spec.dimensions.end(), dimension) != spec.dimensions.end()) continue;
            CHECK_FALSE(make_method(spec.name, {}, 0, spec.dimensions.front())->supports_dimensions(dimension));
        }
    }
}

TEST_CASE("bad names, settings, values and dimensions are refused, naming them") {
    CHECK_THROWS_WITH_AS(make_method("Nope", {}, 0), doctest::Contains("method is 'Nope'"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(make_method("ORCA", {{"speed", 1.0}}, 0), doctest::Contains("no setting 'speed'"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(make_method("ORCA", {{"bisector_weight", 0.0}}, 0),
                         "bisector_weight is 0; must be > 0", std::invalid_argument);
    CHECK_THROWS_WITH_AS(make_method("ORCA", {{"bisector_weight", std::int64_t{1}}}, 0),
                         "bisector_weight: expected a real number", std::invalid_argument);
    CHECK_THROWS_WITH_AS(make_method("HRVO", {{"hrvo_apex", std::string("x")}}, 0),
                         "hrvo_apex is 'x'; must be 'library' or 'symmetric'", std::invalid_argument);
    CHECK_THROWS_WITH_AS(make_method("GridSampling", {{"grid_size", std::int64_t{1}}}, 0),
                         "grid_size is 1; must be >= 2", std::invalid_argument);
    CHECK_THROWS_WITH_AS(make_method("HRVO", {}, 0, 3), doctest::Contains("dimension is 3"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(make_method("VO", {{"selection", std::string("geometric")}}, 0, 3),
                         doctest::Contains("dimension is 3; VO with these settings"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(make_method("ORCA", {}, 0, 4), doctest::Contains("dimension is 4"), std::invalid_argument);
}

TEST_CASE("the kernel's defaults are the registry's (HRVO's apex is the paper's)") {
    CHECK(VoConfig{}.hrvo_apex == HrvoApex::symmetric);
    const MethodSpec& hrvo = find_method("HRVO");
    for (const ParamSpec& param : hrvo.params) {
        if (param.name == "hrvo_apex") CHECK(std::get<std::string>(param.default_value) == "symmetric");
    }
}

namespace {

struct Settings {
    double a = 1.5;
    double b = 2.5;
    int n = 3;
    bool f = true;
};

}  // namespace

TEST_CASE("bound parameters: one list gives the specs (defaults from the struct) and reads each into its member") {
    const std::vector<BoundParam<Settings>> params = {
        bound_real("a", &Settings::a, 0.0, 10.0, "first"),
        bound_positive("b", &Settings::b, 0.0, 10.0, "second"),
        bound_integer("n", &Settings::n, 1, 9, "count"),
        bound_flag("f", &Settings::f, "flag"),
    };
    const std::vector<ParamSpec> specs = specs_of(params);
    REQUIRE(specs.size() == 4);
    CHECK(specs[0].name == "a");
    CHECK(std::get<double>(specs[0].default_value) == 1.5);
    CHECK_FALSE(specs[0].exclusive_minimum);
    CHECK(specs[1].exclusive_minimum);
    CHECK(std::get<std::int64_t>(specs[2].default_value) == 3);
    CHECK(specs[2].maximum == 9.0);
    CHECK(std::get<bool>(specs[3].default_value));
    const Settings read = read_params(params, ParamMap({{"a", 7.0}, {"b", 8.0}, {"n", std::int64_t{5}}, {"f", false}}));
    CHECK(read.a == 7.0);
    CHECK(read.b == 8.0);
    CHECK(read.n == 5);
    CHECK_FALSE(read.f);
}
