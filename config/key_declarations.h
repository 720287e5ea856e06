// Keys declared by the block that owns them: one declaration per key gives its name, type, unit,
// default, range or choices and note, and drives reading (file and --set), `raidtlm run --help`,
// the documented-defaults test and the stats.json echo. Plain C++ (yaml-cpp, nlohmann::json).
//
// A block declares keys on its own config struct:
//     void declare_keys(config::declarations<xor_config> &k) {
//         k.number("mhz", &xor_config::mhz, "200").above(0).cap(1e6).unit("MHz");
//     }
// and whoever contains the struct mounts those under a group:
//     k.mount("xor", xor_keys, [](controller_config &c) { return &c.xor_engine; });
// A key's accepted form ("a number > 0 (MHz)") is generated from its type, range, a unit given
// with .unit() and its .note(); .form() replaces the generated text where the shown range is not
// the checked one. A unit given with .unit() is repeated in the form; a key named after its unit
// (`think_time_ms`) has that unit without repeating it.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/value_reader.h"

namespace raidtlm::config {

// What help, documentation and tests see of a key.
struct key_info {
    std::string key;       // dotted path (relative to where the declarations are mounted)
    std::string fallback;  // the default as YAML text; "" when the key is required
    std::string expected;  // the accepted form: form, then the shown unit and the note in brackets
    std::string unit;      // "" when dimensionless
    std::string note;      // what the key means beyond its name ("" when the name says it all)
};

// The range a number or an integer is checked against, and how the form shows it.
struct value_range {
    double lo = -std::numeric_limits<double>::infinity();
    double hi = std::numeric_limits<double>::infinity();
    bool lo_open = false, hi_open = false;
    bool hi_shown = true;  // false: hi is a sanity cap, not part of the accepted form
    bool integer = false;
};

// "a number in (0, 1]", "a number >= 0", "an integer in [1, 10^12]" ...
std::string range_form(const value_range &r);
// The unit a key's name ends in ("think_time_ms" -> "ms"); "" when none.
std::string unit_from_name(const std::string &name);
// form, then "(unit; note)" with what is given.
std::string expected_text(const std::string &form, const std::string &shown_unit, const std::string &note);

// After loading: which keys were given, and errors about them in the standard form. Names are
// relative to the block's mount point; key() gives the full dotted name.
class key_checks {
public:
    using given_fn = std::function<bool(const std::string &)>;
    using where_fn = std::function<std::string(const std::string &)>;
    key_checks(given_fn given, where_fn where, std::string prefix = "")
        : m_given(std::move(given)), m_where(std::move(where)), m_prefix(std::move(prefix)) {}

    std::string key(const std::string &name) const { return m_prefix.empty() ? name : m_prefix + "." + name; }
    bool given(const std::string &name) const { return m_given(key(name)); }
    [[noreturn]] void fail(const std::string &name, const std::string &problem, const std::string &expected) const {
        fail_at(m_where(key(name)), key(name), problem, expected);
    }
    key_checks under(const std::string &group) const { return {m_given, m_where, key(group)}; }

private:
    given_fn m_given;
    where_fn m_where;
    std::string m_prefix;
};

template <class T>
struct key_decl {
    std::string name;
    std::string fallback;
    std::string form;                    // explicit accepted form; "" = generated from range
    std::shared_ptr<value_range> range;  // numbers and integers
    std::string unit;
    bool unit_shown = false;
    std::string note;
    std::function<void(T &, const value_ref &, const key_use &)> read;
    std::function<std::optional<nlohmann::json>(const T &)> echo;  // nullopt: not echoed

    key_info info() const {
        const std::string shape = !form.empty() ? form : range ? range_form(*range) : std::string();
        return {name, fallback, expected_text(shape, unit_shown ? unit : "", note), unit, note};
    }
};

template <class T>
class declarations {
public:
    template <class F>
    using ref_fn = std::function<F &(T &)>;
    using read_fn = std::function<void(T &, const value_ref &, const key_use &)>;
    using echo_fn = std::function<nlohmann::json(const T &)>;
    using check_fn = std::function<void(const T &, const key_checks &)>;

    // Refines the key just declared.
    class key_ref {
    public:
        key_ref(declarations *owner, size_t index) : m_owner(owner), m_index(index) {}
        key_ref &unit(const std::string &u) { decl().unit = u; decl().unit_shown = true; return *this; }
        key_ref &note(const std::string &n) { decl().note = n; return *this; }
        key_ref &form(const std::string &f) { decl().form = f; return *this; }
        key_ref &min(double lo) { range().lo = lo; range().lo_open = false; return *this; }
        key_ref &above(double lo) { range().lo = lo; range().lo_open = true; return *this; }
        key_ref &max(double hi) { range().hi = hi; range().hi_open = false; return *this; }
        key_ref &below(double hi) { range().hi = hi; range().hi_open = true; return *this; }
        // An upper limit that guards against nonsense without being part of the accepted form.
        key_ref &cap(double hi) { max(hi); range().hi_shown = false; return *this; }
        key_ref &range(double lo, double hi) { return min(lo).max(hi); }

    private:
        key_decl<T> &decl() { return m_owner->m_keys[m_index]; }
        value_range &range() {
            if (!decl().range) decl().range = std::make_shared<value_range>();
            return *decl().range;
        }
        declarations *m_owner;
        size_t m_index;
    };

    // A key with its own reader and echo (paths, lists, maps, values in other units).
    key_ref custom(const std::string &name, const std::string &fallback, const std::string &form, read_fn read,
                   echo_fn echo) {
        key_decl<T> d;
        d.name = name;
        d.fallback = fallback;
        d.form = form;
        d.unit = unit_from_name(name);
        d.read = std::move(read);
        d.echo = [echo = std::move(echo)](const T &t) -> std::optional<nlohmann::json> { return echo(t); };
        m_keys.push_back(std::move(d));
        return {this, m_keys.size() - 1};
    }

    template <class F>
    key_ref number(const std::string &name, F T::*field, const std::string &fallback) {
        return number<F>(name, member<F>(field), fallback);
    }
    template <class F>
    key_ref number(const std::string &name, ref_fn<F> ref, const std::string &fallback) {
        auto r = std::make_shared<value_range>();
        key_ref k = custom(name, fallback, "", [ref, r](T &t, const value_ref &v, const key_use &u) {
            ref(t) = static_cast<F>(read_number(v, u, r->lo, r->lo_open, r->hi, r->hi_open));
        }, [ref](const T &t) { return nlohmann::json(ref(const_cast<T &>(t))); });
        m_keys.back().range = r;
        return k;
    }

    // An integer in [lo, hi].
    template <class F>
    key_ref integer(const std::string &name, F T::*field, const std::string &fallback, int64_t lo, int64_t hi) {
        return integer<F>(name, member<F>(field), fallback, lo, hi);
    }
    template <class F>
    key_ref integer(const std::string &name, ref_fn<F> ref, const std::string &fallback, int64_t lo, int64_t hi) {
        auto r = std::make_shared<value_range>();
        r->lo = double(lo);
        r->hi = double(hi);
        r->integer = true;
        key_ref k = custom(name, fallback, "", [ref, r](T &t, const value_ref &v, const key_use &u) {
            ref(t) = static_cast<F>(read_integer(v, u, int64_t(r->lo), int64_t(r->hi)));
        }, [ref](const T &t) { return nlohmann::json(ref(const_cast<T &>(t))); });
        m_keys.back().range = r;
        return k;
    }

    // Any non-negative 64-bit integer (seeds).
    template <class F>
    key_ref natural(const std::string &name, F T::*field, const std::string &fallback) {
        return custom(name, fallback, "a non-negative integer",
                      [field](T &t, const value_ref &v, const key_use &u) { t.*field = read_unsigned(v, u); },
                      [field](const T &t) { return nlohmann::json(t.*field); });
    }

    key_ref boolean(const std::string &name, bool T::*field, const std::string &fallback) {
        return boolean(name, member<bool>(field), fallback);
    }
    key_ref boolean(const std::string &name, ref_fn<bool> ref, const std::string &fallback) {
        return custom(name, fallback, "true or false",
                      [ref](T &t, const value_ref &v, const key_use &u) { ref(t) = read_bool(v, u); },
                      [ref](const T &t) { return nlohmann::json(ref(const_cast<T &>(t))); });
    }

    // One of the names of `choices` (an enumeration's name table; the echo is the name).
    template <class E>
    key_ref choice(const std::string &name, E T::*field, const std::string &fallback, const names<E> &choices) {
        return choice<E>(name, member<E>(field), fallback, choices);
    }
    template <class E>
    key_ref choice(const std::string &name, ref_fn<E> ref, const std::string &fallback, const names<E> &choices) {
        return custom(name, fallback, one_of(choices),
                      [ref, choices](T &t, const value_ref &v, const key_use &u) { ref(t) = read_choice(v, u, choices); },
                      [ref, choices](const T &t) { return nlohmann::json(name_of(choices, ref(const_cast<T &>(t)))); });
    }

    // A check across this block's keys, run after every key is read (e.g. a key that only applies
    // with a certain preset).
    void check(check_fn fn) { m_checks.push_back(std::move(fn)); }

    // Another block's keys as the group `group` ("" = no group) of this one. `get` finds the
    // block's struct inside T (null: nothing to read into or echo).
    template <class U>
    void mount(const std::string &group, const declarations<U> &sub, std::function<U *(T &)> get) {
        for (const key_decl<U> &s : sub.keys()) {
            key_decl<T> d;
            d.name = group.empty() ? s.name : group + "." + s.name;
            d.fallback = s.fallback;
            d.form = s.form;
            d.range = s.range;
            d.unit = s.unit;
            d.unit_shown = s.unit_shown;
            d.note = s.note;
            d.read = [get, read = s.read](T &t, const value_ref &v, const key_use &u) {
                if (U *x = get(t)) read(*x, v, u);
            };
            d.echo = [get, echo = s.echo](const T &t) -> std::optional<nlohmann::json> {
                if (const U *x = get(const_cast<T &>(t))) return echo(*x);
                return std::nullopt;
            };
            m_keys.push_back(std::move(d));
        }
        for (const auto &c : sub.checks())
            m_checks.push_back([get, c, group](const T &t, const key_checks &k) {
                if (const U *x = get(const_cast<T &>(t))) c(*x, group.empty() ? k : k.under(group));
            });
    }
    template <class U>
    void mount(const std::string &group, const declarations<U> &sub, U T::*field) {
        mount<U>(group, sub, std::function<U *(T &)>([field](T &t) { return &(t.*field); }));
    }

    const std::vector<key_decl<T>> &keys() const { return m_keys; }
    const std::vector<check_fn> &checks() const { return m_checks; }
    const key_decl<T> *find(const std::string &name) const {
        for (const auto &d : m_keys)
            if (d.name == name) return &d;
        return nullptr;
    }
    std::vector<key_info> infos() const {
        std::vector<key_info> out;
        for (const auto &d : m_keys) out.push_back(d.info());
        return out;
    }

    // The effective values as nested JSON objects, keyed like the file.
    nlohmann::json echo(const T &t) const {
        nlohmann::json j = nlohmann::json::object();
        for (const auto &d : m_keys)
            if (auto v = d.echo(t)) j[nlohmann::json::json_pointer(pointer_of(d.name))] = *v;
        return j;
    }
    void run_checks(const T &t, const key_checks &k) const {
        for (const auto &c : m_checks) c(t, k);
    }

private:
    template <class F>
    static ref_fn<F> member(F T::*field) {
        return [field](T &t) -> F & { return t.*field; };
    }
    static std::string pointer_of(const std::string &dotted) {
        std::string p = "/" + dotted;
        for (char &c : p)
            if (c == '.') c = '/';
        return p;
    }

    std::vector<key_decl<T>> m_keys;
    std::vector<check_fn> m_checks;
};

}  // namespace raidtlm::config
