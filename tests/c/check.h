/* Reporting for the C and C++ clients: each check prints "ok   <what>", the first failure
 * prints where and why, the library's last error message, and ends the program.
 *
 * Before including, define CHECK_FILE (the source file's name) and CHECK_PROGRAM (the name
 * the summary line gives the program). The C++ client includes it for `result_name` only
 * (with CHECK_RESULT_NAME_ONLY), its checks take std::string. */
#ifndef SINEW_TESTS_CHECK_H
#define SINEW_TESTS_CHECK_H

#include "sinew.h"

/* The name of a result code, as the header spells it. */
static inline const char *result_name(SinewResult r) {
    switch (r) {
    case SINEW_OK: return "SINEW_OK";
    case SINEW_NULL_POINTER: return "SINEW_NULL_POINTER";
    case SINEW_INVALID_HANDLE: return "SINEW_INVALID_HANDLE";
    case SINEW_INVALID_ARGUMENT: return "SINEW_INVALID_ARGUMENT";
    case SINEW_OUT_OF_RANGE: return "SINEW_OUT_OF_RANGE";
    case SINEW_NON_FINITE: return "SINEW_NON_FINITE";
    case SINEW_BUFFER_TOO_SMALL: return "SINEW_BUFFER_TOO_SMALL";
    case SINEW_BUSY: return "SINEW_BUSY";
    case SINEW_PANIC: return "SINEW_PANIC";
    case SINEW_TOO_LARGE: return "SINEW_TOO_LARGE";
    case SINEW_OUT_OF_MEMORY: return "SINEW_OUT_OF_MEMORY";
    }
    return "(unknown SinewResult)";
}

#ifndef CHECK_RESULT_NAME_ONLY

#include <stdio.h>
#include <stdlib.h>

static int g_passed;

static inline void fail(int line, const char *what, const char *detail) {
    printf("FAIL %s\n     at " CHECK_FILE ":%d: %s\n", what, line, detail);
    printf("     last error message: \"%s\"\n", sinew_last_error_message());
    printf(CHECK_PROGRAM ": %d checks passed, then a failure\n", g_passed);
    fflush(stdout);
    exit(1);
}

static inline void pass(const char *what) {
    printf("ok   %s\n", what);
    g_passed++;
}

/* A plain condition; `what` says what is being checked. */
#define CHECK(cond, what) check((cond) ? 1 : 0, (what), #cond, __LINE__)

static inline void check(int ok, const char *what, const char *expr, int line) {
    if (!ok) fail(line, what, expr);
    pass(what);
}

#endif
#endif
