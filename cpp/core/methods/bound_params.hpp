// A method's parameters declared once: each bound to the member of its
// settings struct that holds it, so that one list gives the registry its
// specs (name, range, doc; the default read from the struct's own) and
// reads the checked values back into the struct.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "methods/registry.hpp"

namespace vosim {

template <class P>
struct BoundParam {
    ParamSpec spec;
    std::function<void(const ParamMap&, P&)> read;
};

// A real member in [minimum, maximum] (`positive`: strictly above minimum).
template <class P>
BoundParam<P> bound_real(const char* name, double P::*member, double minimum, double maximum, const char* doc,
                         bool positive = false) {
    const double value = P{}.*member;
    return {positive ? positive_param(name, value, minimum, maximum, doc)
                     : real_param(name, value, minimum, maximum, doc),
            [key = std::string(name), member](const ParamMap& p, P& out) { out.*member = p.real(key); }};
}

template <class P>
BoundParam<P> bound_positive(const char* name, double P::*member, double minimum, double maximum, const char* doc) {
    return bound_real(name, member, minimum, maximum, doc, true);
}

template <class P>
BoundParam<P> bound_integer(const char* name, int P::*member, int minimum, int maximum, const char* doc) {
    return {integer_param(name, P{}.*member, minimum, maximum, doc),
            [key = std::string(name), member](const ParamMap& p, P& out) {
                out.*member = static_cast<int>(p.integer(key));  // (checked within [minimum, maximum])
            }};
}

template <class P>
BoundParam<P> bound_flag(const char* name, bool P::*member, const char* doc) {
    return {flag_param(name, P{}.*member, doc),
            [key = std::string(name), member](const ParamMap& p, P& out) { out.*member = p.flag(key); }};
}

// A member that takes one of several named values (an enum, or a bool with
// two names): `names` pairs each value with the name users give, in the
// order they are listed; the default is `defaults`' member.
template <class P, class T>
BoundParam<P> bound_choice(const char* name, T P::*member, std::vector<std::pair<T, std::string>> names,
                           const P& defaults, const char* doc) {
    std::string default_name;
    std::vector<std::string> choices;
    for (const auto& [value, text] : names) {
        choices.push_back(text);
        if (value == defaults.*member) default_name = text;
    }
    if (default_name.empty()) throw std::logic_error(std::string(name) + ": the default has no name");
    return {choice_param(name, default_name, std::move(choices), doc),
            [key = std::string(name), member, names = std::move(names)](const ParamMap& p, P& out) {
                for (const auto& [value, text] : names) {
                    if (text == p.choice(key)) out.*member = value;  // (checked to be one of the names)
                }
            }};
}

template <class P, class T>
BoundParam<P> bound_choice(const char* name, T P::*member, std::vector<std::pair<T, std::string>> names,
                           const char* doc) {
    return bound_choice(name, member, std::move(names), P{}, doc);
}

// The registry's specs, in the list's order.
template <class P>
std::vector<ParamSpec> specs_of(const std::vector<BoundParam<P>>& params) {
    std::vector<ParamSpec> out;
    for (const BoundParam<P>& b : params) out.push_back(b.spec);
    return out;
}

// The settings struct with every listed member read from the checked values
// (members not listed keep their defaults).
template <class P>
P read_params(const std::vector<BoundParam<P>>& params, const ParamMap& values, P base = P{}) {
    for (const BoundParam<P>& b : params) b.read(values, base);
    return base;
}

}  // namespace vosim
