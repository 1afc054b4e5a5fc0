#include "methods/registry.hpp"

#include <algorithm>
#include <stdexcept>

#include "methods/require.hpp"

// The registration list: one line per method, naming the function in the
// method's folder that returns its MethodSpec. The order is the order users
// see (CLI help, vosim.methods.METHODS).
#define VOSIM_METHODS(X)      \
    X(orca_method)            \
    X(vo_method)              \
    X(rvo_method)             \
    X(hrvo_method)            \
    X(adaptive_sampling_method) \
    X(grid_sampling_method)   \
    X(force_based_method)     \
    X(avo_method)             \
    X(collision_free_speed_method) \
    X(social_force_method)

namespace vosim {

#define VOSIM_DECLARE_METHOD(function) MethodSpec function();
VOSIM_METHODS(VOSIM_DECLARE_METHOD)
#undef VOSIM_DECLARE_METHOD

ParamSpec real_param(std::string name, double default_value, double minimum, double maximum, std::string doc) {
    ParamSpec p;
    p.name = std::move(name);
    p.kind = ParamKind::real;
    p.default_value = default_value;
    p.minimum = minimum;
    p.maximum = maximum;
    p.doc = std::move(doc);
    return p;
}

ParamSpec positive_param(std::string name, double default_value, double minimum, double maximum,
                         std::string doc) {
    ParamSpec p = real_param(std::move(name), default_value, minimum, maximum, std::move(doc));
    p.exclusive_minimum = true;
    return p;
}

ParamSpec integer_param(std::string name, std::int64_t default_value, std::int64_t minimum, std::int64_t maximum,
                        std::string doc) {
    ParamSpec p;
    p.name = std::move(name);
    p.kind = ParamKind::integer;
    p.default_value = default_value;
    p.minimum = static_cast<double>(minimum);
    p.maximum = static_cast<double>(maximum);
    p.doc = std::move(doc);
    return p;
}

ParamSpec flag_param(std::string name, bool default_value, std::string doc) {
    ParamSpec p;
    p.name = std::move(name);
    p.kind = ParamKind::flag;
    p.default_value = default_value;
    p.doc = std::move(doc);
    return p;
}

ParamSpec choice_param(std::string name, std::string default_value, std::vector<std::string> choices,
                       std::string doc) {
    ParamSpec p;
    p.name = std::move(name);
    p.kind = ParamKind::choice;
    p.default_value = std::move(default_value);
    p.choices = std::move(choices);
    p.doc = std::move(doc);
    return p;
}

const std::vector<MethodSpec>& method_registry() {
#define VOSIM_LIST_METHOD(function) function(),
    static const std::vector<MethodSpec> methods = {VOSIM_METHODS(VOSIM_LIST_METHOD)};
#undef VOSIM_LIST_METHOD
    return methods;
}

const MethodSpec& find_method(const std::string& name) {
    std::string known;
    for (const MethodSpec& spec : method_registry()) {
        if (spec.name == name) return spec;
        known += (known.empty() ? "" : ", ") + spec.name;
    }
    throw std::invalid_argument("method is '" + name + "'; must be one of " + known);
}

void check_param(const ParamSpec& spec, const ParamValue& value) {
    const char* expected[] = {"a real number", "an integer", "True or False", "text"};
    if (value.index() != static_cast<std::size_t>(spec.kind)) {
        throw std::invalid_argument(spec.name + ": expected " + expected[static_cast<int>(spec.kind)]);
    }
    switch (spec.kind) {
        case ParamKind::real:
            require_in_range(spec.name, std::get<double>(value), spec.minimum, spec.maximum, spec.exclusive_minimum);
            break;
        case ParamKind::integer:
            require_in_range(spec.name, static_cast<double>(std::get<std::int64_t>(value)), spec.minimum,
                             spec.maximum);
            break;
        case ParamKind::flag:
            break;
        case ParamKind::choice:
            require_choice(spec.name, std::get<std::string>(value), spec.choices);
            break;
    }
}

std::shared_ptr<Method> make_method(const std::string& name, const std::map<std::string, ParamValue>& values,
                                    std::uint64_t seed, int dimension) {
    const MethodSpec& spec = find_method(name);
    if (std::find(spec.dimensions.begin(), spec.dimensions.end(), dimension) == spec.dimensions.end()) {
        throw std::invalid_argument("dimension is " + std::to_string(dimension) + "; " + name + " works in " +
                                    (spec.dimensions.size() == 1 ? "dimension " : "dimensions ") +
                                    std::to_string(spec.dimensions.front()) +
                                    (spec.dimensions.size() > 1 ? " and " + std::to_string(spec.dimensions.back())
                                                                : std::string()));
    }
    std::map<std::string, ParamValue> checked;
    for (const ParamSpec& param : spec.params) {
        const auto given = values.find(param.name);
        const ParamValue& value = given == values.end() ? param.default_value : given->second;
        check_param(param, value);
        checked.emplace(param.name, value);
    }
    for (const auto& [key, value] : values) {
        if (checked.count(key) == 0) throw std::invalid_argument("method: " + name + " has no setting '" + key + "'");
    }
    std::shared_ptr<Method> method = spec.make(ParamMap(std::move(checked)), seed);
    // Some settings are plane-only (VO's geometric selection): the made
    // method has the last word.
    if (!method->supports_dimensions(dimension)) {
        throw std::invalid_argument("dimension is " + std::to_string(dimension) + "; " + name + " with these settings " +
                                    "does not work there (" + method->dimensions_note() + ")");
    }
    return method;
}

std::shared_ptr<const Method> make_default_method() { return make_method("ORCA", {}, 0); }

}  // namespace vosim
