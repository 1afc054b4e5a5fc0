// Every avoidance method, declared once: its name, family, dimensions, each
// parameter (name, kind, default, range or choices, one-line doc) and a
// factory from checked parameter values. The bindings expose this table as
// it is (`_core.METHODS`, `_core.make_method`); Python's method classes, the
// CLI's method list and the aliases are built from it, so they cannot
// disagree with the core.
//
// Adding a method: its kernel in cpp/core/methods/<family>/, a function
// there returning its MethodSpec, and one line in VOSIM_METHODS
// (registry.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "method.hpp"

namespace vosim {

enum class ParamKind { real, integer, flag, choice };

// One value of a parameter: double (real), int64 (integer), bool (flag) or
// std::string (choice).
using ParamValue = std::variant<double, std::int64_t, bool, std::string>;

struct ParamSpec {
    std::string name;
    ParamKind kind = ParamKind::real;
    ParamValue default_value;
    double minimum = 0.0;            // real and integer: the allowed range
    double maximum = 0.0;
    bool exclusive_minimum = false;  // real: the value must exceed minimum
    std::vector<std::string> choices;
    std::string doc;
};

// Declarations, in the order the method's settings are listed.
ParamSpec real_param(std::string name, double default_value, double minimum, double maximum, std::string doc);
// As real_param, but the value must be strictly greater than `minimum`.
ParamSpec positive_param(std::string name, double default_value, double minimum, double maximum,
                         std::string doc);
ParamSpec integer_param(std::string name, std::int64_t default_value, std::int64_t minimum, std::int64_t maximum,
                        std::string doc);
ParamSpec flag_param(std::string name, bool default_value, std::string doc);
ParamSpec choice_param(std::string name, std::string default_value, std::vector<std::string> choices,
                       std::string doc);

// Checked values of every parameter of one method, by name (what a
// factory reads).
class ParamMap {
public:
    explicit ParamMap(std::map<std::string, ParamValue> values) : values_(std::move(values)) {}
    double real(const std::string& name) const { return std::get<double>(values_.at(name)); }
    std::int64_t integer(const std::string& name) const { return std::get<std::int64_t>(values_.at(name)); }
    bool flag(const std::string& name) const { return std::get<bool>(values_.at(name)); }
    const std::string& choice(const std::string& name) const { return std::get<std::string>(values_.at(name)); }

private:
    std::map<std::string, ParamValue> values_;
};

// Makes the method from its checked parameters; `seed` is the seed every
// method has (perturbation, detours), which sampling methods also draw from.
using MethodFactory = std::function<std::shared_ptr<Method>(const ParamMap& params, std::uint64_t seed)>;

struct MethodSpec {
    std::string name;                  // as Method::name() and Python's class name, e.g. "ORCA"
    std::string family;                // its folder under cpp/core/methods/
    std::vector<int> dimensions;       // the spaces it works in: {2}, {3} or {2, 3}
    std::vector<std::string> aliases;  // short names users type besides the name in any case
    std::string summary;               // one line, for listings
    std::vector<ParamSpec> params;
    MethodFactory make;
};

// All methods, in the order they are listed to users.
const std::vector<MethodSpec>& method_registry();

// The method called `name` (exactly its MethodSpec::name); throws
// std::invalid_argument listing the known names.
const MethodSpec& find_method(const std::string& name);

// Checks `value` against `spec` (kind, range, choices); throws
// std::invalid_argument naming the parameter and the value.
void check_param(const ParamSpec& spec, const ParamValue& value);

// The method `name` for `dimension`, from the given values (missing ones take
// their defaults). Throws std::invalid_argument for an unknown method, an
// unsupported dimension, an unknown parameter or a bad value.
std::shared_ptr<Method> make_method(const std::string& name, const std::map<std::string, ParamValue>& values,
                                    std::uint64_t seed, int dimension = 2);

}  // namespace vosim
