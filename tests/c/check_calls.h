/* The checked calls of the ragdoll and soft-body C clients: OK(call) expects SINEW_OK, ERR(call,
 * code) a failure with `code`, a message "<CODE>: <reason>" and a world (g_world) that still
 * steps; MESSAGE_HAS(text) that the last message names the problem. Include after check.h. */
#ifndef SINEW_TESTS_CHECK_CALLS_H
#define SINEW_TESTS_CHECK_CALLS_H

#include <string.h>

#define OK(call) expect_ok(#call, (call), __LINE__)
#define ERR(call, code) expect_error(#call, (call), (code), __LINE__)

static SinewWorld g_world;

static void expect_ok(const char *what, SinewResult got, int line) {
    if (got != SINEW_OK) {
        char detail[256];
        snprintf(detail, sizeof detail, "returned %s, expected SINEW_OK", result_name(got));
        fail(line, what, detail);
    }
    pass(what);
}

/* A failing call: its code, a message naming the code and a reason, and a world that still steps. */
static void expect_error(const char *what, SinewResult got, SinewResult want, int line) {
    char detail[512];
    const char *name = result_name(want);
    const char *msg = sinew_last_error_message();
    size_t n = strlen(name);
    if (got != want) {
        snprintf(detail, sizeof detail, "returned %s, expected %s", result_name(got), name);
        fail(line, what, detail);
    }
    if (msg == NULL || strncmp(msg, name, n) != 0 || msg[n] != ':' || strlen(msg) < n + 3) {
        snprintf(detail, sizeof detail, "message \"%s\" does not start with \"%s: <reason>\"", msg ? msg : "(null)", name);
        fail(line, what, detail);
    }
    if (sinew_world_step(g_world, 1.0f / 60.0f) != SINEW_OK) fail(line, what, "the world no longer steps after the failure");
    snprintf(detail, sizeof detail, "%-24s %s  -> \"%s\"", name, what, msg);
    pass(detail);
}

/* The last message contains `text`. */
static void message_has(const char *text, int line) {
    const char *msg = sinew_last_error_message();
    if (strstr(msg, text) == NULL) {
        char detail[512];
        snprintf(detail, sizeof detail, "message \"%s\" does not mention \"%s\"", msg, text);
        fail(line, "the message names the problem", detail);
    }
    pass(text);
}
#define MESSAGE_HAS(text) message_has((text), __LINE__)

#endif
