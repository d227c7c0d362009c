// The checks of the ragdoll and soft-body C++ clients: CHECK(cond, what), OK(call) (must not
// throw), THROWS(code, text, call) (must throw sinew::Error with `code`, a message
// "<CODE>: <reason>" mentioning `text`). Include inside the client's anonymous namespace after
// defining CHECK_FILE and CHECK_PROGRAM and an `int g_passed`, with ../c/check.h for
// result_name (CHECK_RESULT_NAME_ONLY), <cstdio>, <cstdlib>, <functional> and <string>.
#ifndef SINEW_TESTS_CPP_CHECK_HPP
#define SINEW_TESTS_CPP_CHECK_HPP

[[noreturn]] void fail(int line, const std::string& what, const std::string& detail) {
    std::printf("FAIL %s\n     at " CHECK_FILE ":%d: %s\n", what.c_str(), line, detail.c_str());
    std::printf(CHECK_PROGRAM ": %d checks passed, then a failure\n", g_passed);
    std::fflush(stdout);
    std::exit(1);
}

void pass(const std::string& what) {
    std::printf("ok   %s\n", what.c_str());
    ++g_passed;
}

#define CHECK(cond, what) ((cond) ? pass(what) : fail(__LINE__, (what), #cond))

#define OK(call)                                                                    \
    do {                                                                            \
        try {                                                                       \
            call;                                                                   \
        } catch (const sinew::Error& e_) {                                          \
            fail(__LINE__, #call, std::string("threw sinew::Error: ") + e_.what()); \
        }                                                                           \
        pass(#call);                                                                \
    } while (0)

// `f` must throw sinew::Error with `want`, whose what() starts with "<NAME>: " and contains `text`.
void expect_error(int line, const char* what, SinewResult want, const char* text, const std::function<void()>& f) {
    const std::string name = result_name(want);
    try {
        f();
    } catch (const sinew::Error& e) {
        const std::string message = e.what();
        if (e.code() != want) fail(line, what, "threw " + std::string(result_name(e.code())) + ", expected " + name + ": " + message);
        if (message.compare(0, name.size() + 2, name + ": ") != 0) fail(line, what, "message \"" + message + "\" does not start with \"" + name + ": \"");
        if (message.find(text) == std::string::npos) fail(line, what, "message \"" + message + "\" does not mention \"" + text + "\"");
        char label[600];
        std::snprintf(label, sizeof label, "%-24s %s  -> \"%s\"", name.c_str(), what, message.c_str());
        pass(label);
        return;
    } catch (const std::exception& e) {
        fail(line, what, std::string("threw something other than sinew::Error: ") + e.what());
    }
    fail(line, what, "did not throw (expected " + name + ")");
}

#define THROWS(code, text, call) expect_error(__LINE__, #call, (code), (text), [&]() { call; })

#endif
