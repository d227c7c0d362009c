/* A C99 client of the Sinew C ABI, compiled against the committed include/sinew.h with
 * `-std=c99 -Wall -Wextra -Werror -pedantic` and linked to libsinew (scripts/test-c.sh).
 *
 * It builds one scene (a grid cloth, a seam-split mesh cloth, a rope), steps it, reads it
 * back, drives pins, teleports, steps asynchronously, and then provokes every error class.
 * After each failing call it checks the code, that sinew_last_error_message() names it,
 * that the scene is exactly as it was before the call, and that the world still steps.
 *
 * One line per check; the first failure exits with status 1. Everything is destroyed at
 * the end so that valgrind can vouch for the absence of leaks. */

#include "sinew.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reporting ---------------------------------------------------------------------- */

static int g_passed;

static void fail(int line, const char *what, const char *detail) {
    printf("FAIL %s\n     at client.c:%d: %s\n", what, line, detail);
    printf("     last error message: \"%s\"\n", sinew_last_error_message());
    printf("c-client: %d checks passed, then a failure\n", g_passed);
    fflush(stdout);
    exit(1);
}

static void pass(const char *what) {
    printf("ok   %s\n", what);
    g_passed++;
}

/* A plain condition; `what` says what is being checked. */
#define CHECK(cond, what) check((cond) ? 1 : 0, (what), #cond, __LINE__)

static void check(int ok, const char *what, const char *expr, int line) {
    if (!ok) fail(line, what, expr);
    pass(what);
}

static const char *result_name(SinewResult r) {
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

/* A call that must succeed; the call's own text names the check. */
#define OK(call) expect_ok(#call, (call), __LINE__)

static void expect_ok(const char *what, SinewResult got, int line) {
    if (got != SINEW_OK) {
        char detail[256];
        snprintf(detail, sizeof detail, "returned %s, expected SINEW_OK", result_name(got));
        fail(line, what, detail);
    }
    pass(what);
}

/* The code of a failing call, and the thread's message for it: non-empty, starting with
 * the code's name followed by ':' and a reason. */
static void check_error(const char *what, SinewResult got, SinewResult want, int line) {
    char detail[512];
    const char *name = result_name(want);
    const char *msg;
    size_t n = strlen(name);
    if (got != want) {
        snprintf(detail, sizeof detail, "returned %s, expected %s", result_name(got), name);
        fail(line, what, detail);
    }
    msg = sinew_last_error_message();
    if (msg == NULL || msg[0] == '\0') fail(line, what, "sinew_last_error_message() is empty after a failure");
    if (strncmp(msg, name, n) != 0 || msg[n] != ':' || strlen(msg) < n + 3) {
        snprintf(detail, sizeof detail, "message \"%s\" does not start with \"%s: <reason>\"", msg, name);
        fail(line, what, detail);
    }
    snprintf(detail, sizeof detail, "%-24s %s  -> \"%s\"", name, what, msg);
    pass(detail);
}

/* ---- small helpers ------------------------------------------------------------------ */

static SinewVec3 v3(float x, float y, float z) {
    SinewVec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

static int near(float a, float b, float tol) { return fabsf(a - b) <= tol; }

static int near3(SinewVec3 a, SinewVec3 b, float tol) {
    return near(a.x, b.x, tol) && near(a.y, b.y, tol) && near(a.z, b.z, tol);
}

static int finite3(SinewVec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

static float length3(SinewVec3 v) { return sqrtf(v.x * v.x + v.y * v.y + v.z * v.z); }

/* A column-major rigid transform: rotation by `degrees` about +Y, then translation t. */
static SinewMat4 rotate_y_translate(float degrees, SinewVec3 t) {
    SinewMat4 m;
    float a = degrees * 3.14159265358979f / 180.0f;
    float c = cosf(a), s = sinf(a);
    memset(&m, 0, sizeof m);
    m.m[0] = c;   /* column 0: image of +X */
    m.m[2] = -s;
    m.m[5] = 1.0f; /* column 1: +Y */
    m.m[8] = s;   /* column 2: image of +Z */
    m.m[10] = c;
    m.m[12] = t.x; /* column 3: translation */
    m.m[13] = t.y;
    m.m[14] = t.z;
    m.m[15] = 1.0f;
    return m;
}

static SinewVec3 apply_rotate_y_translate(float degrees, SinewVec3 t, SinewVec3 p) {
    float a = degrees * 3.14159265358979f / 180.0f;
    float c = cosf(a), s = sinf(a);
    return v3(c * p.x + s * p.z + t.x, p.y + t.y, -s * p.x + c * p.z + t.z);
}

static const float FRAME = 1.0f / 60.0f;

/* ---- the scene ---------------------------------------------------------------------- */

enum {
    GRID_COLUMNS = 8,
    GRID_ROWS = 8,
    GRID_VERTICES = GRID_COLUMNS * GRID_ROWS,
    MESH_VERTICES = 12, /* 9 distinct points, the 3 of the middle column twice (a UV seam) */
    MESH_PARTICLES = 9,
    ROPE_POINTS = 10,
    MAX_VERTICES = GRID_VERTICES,
    BODY_COUNT = 3
};

typedef struct Scene {
    SinewWorld world;
    SinewBody body[BODY_COUNT]; /* grid, mesh, rope */
    size_t vertices[BODY_COUNT];
} Scene;

/* What a failing call must leave untouched. */
typedef struct Snapshot {
    SinewVec3 positions[BODY_COUNT][MAX_VERTICES];
    SinewBodyInfo info[BODY_COUNT];
    SinewMaterial material[BODY_COUNT];
    SinewWorldStats stats;
} Snapshot;

static Scene g_scene;
static Snapshot g_before;

/* Reads everything observable about the scene; returns 0 if any read fails. */
static int observe(const Scene *s, Snapshot *out) {
    int i;
    memset(out, 0, sizeof *out); /* padding too, so memcmp compares values only */
    if (sinew_world_get_stats(s->world, &out->stats) != SINEW_OK) return 0;
    for (i = 0; i < BODY_COUNT; i++) {
        if (sinew_body_read_positions(s->body[i], out->positions[i], s->vertices[i]) != SINEW_OK) return 0;
        if (sinew_body_get_info(s->body[i], &out->info[i]) != SINEW_OK) return 0;
        if (sinew_body_get_material(s->body[i], &out->material[i]) != SINEW_OK) return 0;
    }
    return 1;
}

/* Primes the thread's last error with a code other than `want`, so that a stale message
 * from an earlier check can never pass for the one about to be made. */
static void prime_last_error(SinewResult want) {
    SinewBody zero = {0};
    if (want == SINEW_INVALID_HANDLE) {
        (void)sinew_world_desc_default(NULL); /* SINEW_NULL_POINTER */
    } else {
        (void)sinew_body_destroy(zero); /* SINEW_INVALID_HANDLE */
    }
}

static void before_failing_call(SinewResult want, int line) {
    if (!observe(&g_scene, &g_before)) fail(line, "snapshot before a failing call", "reading the scene failed");
    prime_last_error(want);
}

/* The scene is exactly as before the failing call, and the world still steps. */
static void after_failing_call(const char *what, int line) {
    static Snapshot now;
    char label[512];
    if (!observe(&g_scene, &now)) fail(line, what, "the scene cannot be read after the failing call");
    if (memcmp(&now, &g_before, sizeof now) != 0) fail(line, what, "the failing call changed the scene");
    if (sinew_world_step(g_scene.world, FRAME) != SINEW_OK) fail(line, what, "the world no longer steps after the failing call");
    snprintf(label, sizeof label, "%-24s scene unchanged, world still steps", "");
    pass(label);
}

/* A call that must fail with `code` and change nothing. */
#define FAILS(code, call)                              \
    do {                                               \
        SinewResult r_;                                \
        before_failing_call((code), __LINE__);         \
        r_ = (call);                                   \
        check_error(#call, r_, (code), __LINE__);      \
        after_failing_call(#call, __LINE__);           \
    } while (0)

/* A call that must fail with `code`, where the scene cannot be compared (the world is
 * busy stepping, or already destroyed). */
#define FAILS_ONLY(code, call)                             \
    do {                                                   \
        SinewResult r_;                                    \
        prime_last_error(code);                            \
        r_ = (call);                                       \
        check_error(#call, r_, (code), __LINE__);          \
    } while (0)

/* ---- sections ----------------------------------------------------------------------- */

static void abi_and_defaults(void) {
    SinewWorldDesc wd;
    SinewMaterial m;
    SinewClothGridDesc gd;
    SinewClothMeshDesc md;
    SinewRopeDesc rd;
    const char *msg = sinew_last_error_message();

    printf("-- ABI version and descriptor defaults\n");
    CHECK(sinew_abi_version() == SINEW_ABI_VERSION, "library ABI version equals the header's SINEW_ABI_VERSION");
    CHECK(msg != NULL && msg[0] == '\0', "last error message is empty before any failure");

    OK(sinew_world_desc_default(&wd));
    CHECK(wd.gravity.x == 0.0f && near(wd.gravity.y, -9.81f, 1e-6f) && wd.gravity.z == 0.0f, "world default gravity is (0, -9.81, 0)");
    CHECK(wd.fixed_rate_hz == 60.0f, "world default fixed rate is 60 Hz");
    CHECK(wd.substeps == 4 && wd.iterations == 2, "world default substeps 4, iterations 2");
    CHECK(wd.thread_count == 0 && wd.max_steps_per_frame == 4 && wd.interpolate == 1, "world default threads 0, max steps 4, interpolate 1");

    OK(sinew_material_default(&m));
    CHECK(near(m.particle_mass, 0.01f, 1e-9f) && near(m.damping, 0.1f, 1e-9f) && m.gravity_scale == 1.0f, "material default mass 0.01, damping 0.1, gravity scale 1");
    CHECK(m.stretch_compliance == 0.0f && m.shear_compliance == 0.0f && near(m.bend_compliance, 0.001f, 1e-9f), "material default compliances 0, 0, 0.001");

    OK(sinew_cloth_grid_desc_default(&gd));
    CHECK(gd.columns == 16 && gd.rows == 16 && near(gd.spacing, 0.1f, 1e-9f), "grid default 16 x 16, spacing 0.1");
    CHECK(gd.origin.x == 0.0f && gd.origin.y == 0.0f && gd.origin.z == 0.0f, "grid default origin (0, 0, 0)");
    CHECK(gd.orientation.x == 0.0f && gd.orientation.y == 0.0f && gd.orientation.z == 0.0f && gd.orientation.w == 1.0f, "grid default orientation identity");
    CHECK(gd.pin_mode == SINEW_PIN_TOP_ROW && gd.pin_indices == NULL && gd.pin_count == 0, "grid default pins the top row");
    CHECK(memcmp(&gd.material, &m, sizeof m) == 0, "grid default material is the default material");

    OK(sinew_cloth_mesh_desc_default(&md));
    CHECK(md.positions == NULL && md.vertex_count == 0 && md.indices == NULL && md.index_count == 0, "mesh default is empty");
    CHECK(md.inverse_masses == NULL && md.inverse_mass_count == 0 && near(md.weld_distance, 1e-5f, 1e-12f), "mesh default: no masses, weld distance 1e-5");

    OK(sinew_rope_desc_default(&rd));
    CHECK(rd.points == NULL && rd.point_count == 0 && rd.pin_indices == NULL && rd.pin_count == 0 && rd.bend == 1, "rope default is empty with bend on");
    CHECK(memcmp(&rd.material, &m, sizeof m) == 0, "rope default material is the default material");
}

