/* A C99 client of the Sinew C ABI, compiled against the committed include/sinew.h with
 * `-std=c99 -Wall -Wextra -Werror -pedantic` and linked to libsinew (scripts/test-c.sh).
 *
 * It builds one scene (a grid cloth, a seam-split mesh cloth, a rope), steps it, reads it
 * back, drives pins, teleports, steps asynchronously, and then provokes every error class.
 * Colliders get worlds of their own (shapes moved every frame, a drape over a sphere, layers,
 * teleport, collision pairs), checked against the shapes' geometry, and their bad input
 * goes to the scene's world like every other failing call.
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

#define CHECK_FILE "client.c"
#define CHECK_PROGRAM "c-client"
#include "check.h"

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
    SinewColliderDesc cd;
    SinewMat4 identity;
    const char *msg = sinew_last_error_message();

    printf("-- ABI version and descriptor defaults\n");
    CHECK(sinew_abi_version() == SINEW_ABI_VERSION, "library ABI version equals the header's SINEW_ABI_VERSION");
    CHECK(msg != NULL && msg[0] == '\0', "last error message is empty before any failure");

    OK(sinew_world_desc_default(&wd));
    CHECK(wd.gravity.x == 0.0f && near(wd.gravity.y, -9.81f, 1e-6f) && wd.gravity.z == 0.0f, "world default gravity is (0, -9.81, 0)");
    CHECK(wd.fixed_rate_hz == 60.0f, "world default fixed rate is 60 Hz");
    /* Substeps and iterations are tuning defaults: only their documented ranges are checked. */
    CHECK(wd.substeps >= 1 && wd.substeps <= 64 && wd.iterations >= 1 && wd.iterations <= 256, "world default substeps in [1, 64], iterations in [1, 256]");
    CHECK(wd.thread_count == 0 && wd.max_steps_per_frame == 4 && wd.interpolate == 1, "world default threads 0 (one per core), max steps 4, interpolate 1");

    OK(sinew_material_default(&m));
    CHECK(near(m.particle_mass, 0.01f, 1e-9f) && m.gravity_scale == 1.0f, "material default mass 0.01 kg, gravity scale 1");
    CHECK(m.stretch_compliance == 0.0f && m.shear_compliance == 0.0f, "material default stretch and shear are rigid (compliance 0)");
    CHECK(m.damping >= 0.0f && m.bend_compliance >= 0.0f && isfinite(m.damping) && isfinite(m.bend_compliance), "material default damping and bend compliance are finite and >= 0");
    CHECK(m.collision_mask == 0xFFFFFFFFu && m.self_collision == 0, "material default meets colliders on every layer, no self-collision");
    CHECK(m.thickness > 0.0f && m.static_friction >= 0.0f && m.kinetic_friction >= 0.0f && isfinite(m.thickness) && isfinite(m.static_friction) && isfinite(m.kinetic_friction), "material default thickness > 0, frictions finite and >= 0");

    OK(sinew_collider_desc_default(&cd));
    CHECK(cd.shape == SINEW_SHAPE_SPHERE && near(cd.radius, 0.1f, 1e-9f) && cd.layers == 1, "collider default: a 0.1 m sphere on layer 1");
    memset(&identity, 0, sizeof identity);
    identity.m[0] = identity.m[5] = identity.m[10] = identity.m[15] = 1.0f;
    CHECK(memcmp(&cd.transform, &identity, sizeof identity) == 0, "collider default transform is the identity");
    CHECK(cd.half_height > 0.0f && cd.radius0 > 0.0f && cd.radius1 > 0.0f && cd.half_extents.x > 0.0f && cd.half_extents.y > 0.0f && cd.half_extents.z > 0.0f, "collider default capsule and box sizes are valid (> 0)");

    OK(sinew_cloth_grid_desc_default(&gd));
    CHECK(gd.columns == 16 && gd.rows == 16 && near(gd.spacing, 0.1f, 1e-9f), "grid default 16 x 16, spacing 0.1");
    CHECK(gd.origin.x == 0.0f && gd.origin.y == 0.0f && gd.origin.z == 0.0f, "grid default origin (0, 0, 0)");
    CHECK(gd.orientation.x == 0.0f && gd.orientation.y == 0.0f && gd.orientation.z == 0.0f && gd.orientation.w == 1.0f, "grid default orientation identity");
    CHECK(gd.pin_mode == SINEW_PIN_TOP_ROW && gd.pin_indices == NULL && gd.pin_count == 0, "grid default pins the top row");
    CHECK(memcmp(&gd.material, &m, sizeof m) == 0, "grid default material is the default material");

    OK(sinew_cloth_mesh_desc_default(&md));
    CHECK(md.positions != NULL && md.vertex_count == 4 && md.indices != NULL && md.index_count == 6, "mesh default is a square of two triangles");
    CHECK(md.positions[0].x == -0.25f && md.positions[3].z == 0.25f && md.positions[1].y == 0.0f, "mesh default: a 0.5 m square in the XZ plane");
    CHECK(md.inverse_masses == NULL && md.inverse_mass_count == 0 && near(md.weld_distance, 1e-5f, 1e-12f), "mesh default: no masses, weld distance 1e-5");

    OK(sinew_rope_desc_default(&rd));
    CHECK(rd.points != NULL && rd.point_count == 11 && rd.pin_indices == NULL && rd.pin_count == 0 && rd.bend == 1, "rope default: 11 points, unpinned, bend on");
    CHECK(fabsf(rd.points[10].x - 1.0f) < 1e-6f && rd.points[10].y == 0.0f, "rope default: 1 m long along +X");
    CHECK(memcmp(&rd.material, &m, sizeof m) == 0, "rope default material is the default material");
}

/* ---- the mesh ----------------------------------------------------------------------- */

/* 3 x 3 points in the XZ plane, stored as two UV islands (columns 0-1 and columns 1-2),
 * so the middle column is in the host's vertex buffer twice: 12 vertices, 9 particles. */
static SinewVec3 g_mesh_positions[MESH_VERTICES];
static uint32_t g_mesh_indices[8 * 3];
static float g_mesh_inverse_masses[MESH_VERTICES];
static const uint32_t g_mesh_seam[3][2] = {{1, 6}, {3, 8}, {5, 10}}; /* the duplicated pairs */

/* Host vertex of (row, column) in the left island (columns 0, 1) or right (columns 1, 2). */
static uint32_t left_vertex(int row, int column) { return (uint32_t)(row * 2 + column); }
static uint32_t right_vertex(int row, int column) { return (uint32_t)(6 + row * 2 + (column - 1)); }

static void build_mesh(void) {
    const float x0 = 2.0f, y = 1.0f, spacing = 0.1f;
    int row, k, t = 0;
    for (row = 0; row < 3; row++) {
        float z = spacing * (float)row;
        g_mesh_positions[left_vertex(row, 0)] = v3(x0, y, z);
        g_mesh_positions[left_vertex(row, 1)] = v3(x0 + spacing, y, z);
        g_mesh_positions[right_vertex(row, 1)] = v3(x0 + spacing, y, z);
        g_mesh_positions[right_vertex(row, 2)] = v3(x0 + 2.0f * spacing, y, z);
    }
    /* Two triangles per quad, wound like the grid so that the flat mesh's normal is +Y. */
    for (row = 0; row < 2; row++) {
        uint32_t q[2][4];
        q[0][0] = left_vertex(row, 0), q[0][1] = left_vertex(row, 1);
        q[0][2] = left_vertex(row + 1, 0), q[0][3] = left_vertex(row + 1, 1);
        q[1][0] = right_vertex(row, 1), q[1][1] = right_vertex(row, 2);
        q[1][2] = right_vertex(row + 1, 1), q[1][3] = right_vertex(row + 1, 2);
        for (k = 0; k < 2; k++) {
            g_mesh_indices[t++] = q[k][0], g_mesh_indices[t++] = q[k][2], g_mesh_indices[t++] = q[k][1];
            g_mesh_indices[t++] = q[k][1], g_mesh_indices[t++] = q[k][2], g_mesh_indices[t++] = q[k][3];
        }
    }
    /* Row z = 0 is pinned through the inverse masses, on both copies of the seam. */
    for (k = 0; k < MESH_VERTICES; k++) g_mesh_inverse_masses[k] = g_mesh_positions[k].z == 0.0f ? 0.0f : 100.0f;
}

static int seam_copies_identical(SinewBody mesh) {
    SinewVec3 p[MESH_VERTICES], n[MESH_VERTICES];
    int k;
    if (sinew_body_read_positions(mesh, p, MESH_VERTICES) != SINEW_OK) return 0;
    if (sinew_body_read_normals(mesh, n, MESH_VERTICES) != SINEW_OK) return 0;
    for (k = 0; k < 3; k++) {
        uint32_t a = g_mesh_seam[k][0], b = g_mesh_seam[k][1];
        if (memcmp(&p[a], &p[b], sizeof p[a]) != 0 || memcmp(&n[a], &n[b], sizeof n[a]) != 0) return 0;
    }
    return 1;
}

/* ---- scene creation ----------------------------------------------------------------- */

static SinewVec3 g_grid_start[GRID_VERTICES];
static SinewVec3 g_rope_points[ROPE_POINTS];

static SinewClothGridDesc grid_desc(void) {
    SinewClothGridDesc gd;
    OK(sinew_cloth_grid_desc_default(&gd));
    gd.columns = GRID_COLUMNS;
    gd.rows = GRID_ROWS;
    gd.spacing = 0.1f;
    gd.origin = v3(0.0f, 2.0f, 0.0f);
    gd.pin_mode = SINEW_PIN_TOP_ROW;
    return gd;
}

static SinewClothMeshDesc mesh_desc(void) {
    SinewClothMeshDesc md;
    OK(sinew_cloth_mesh_desc_default(&md));
    md.positions = g_mesh_positions;
    md.vertex_count = MESH_VERTICES;
    md.indices = g_mesh_indices;
    md.index_count = sizeof g_mesh_indices / sizeof g_mesh_indices[0];
    md.inverse_masses = g_mesh_inverse_masses;
    md.inverse_mass_count = MESH_VERTICES;
    return md;
}

static const uint32_t g_rope_pin = 0;

static SinewRopeDesc rope_desc(void) {
    SinewRopeDesc rd;
    OK(sinew_rope_desc_default(&rd));
    rd.points = g_rope_points;
    rd.point_count = ROPE_POINTS;
    rd.pin_indices = &g_rope_pin;
    rd.pin_count = 1;
    return rd;
}

static void create_scene(void) {
    SinewWorldDesc wd;
    SinewClothGridDesc gd;
    SinewClothMeshDesc md;
    SinewRopeDesc rd;
    SinewBodyInfo info;
    SinewWorldStats st;
    SinewVec3 p[MAX_VERTICES + 1], n[MAX_VERTICES], lo, hi;
    size_t count;
    int i, ok;

    printf("-- world and bodies\n");
    OK(sinew_world_desc_default(&wd));
    wd.thread_count = 2; /* fixed, so that the stats check knows the answer */
    OK(sinew_world_create(&wd, &g_scene.world));
    CHECK(g_scene.world.id != 0, "world handle is nonzero");

    /* Grid cloth: 8 x 8, 0.1 m apart, centred 2 m up, top row pinned. */
    gd = grid_desc();
    OK(sinew_cloth_create_grid(g_scene.world, &gd, &g_scene.body[0]));
    g_scene.vertices[0] = GRID_VERTICES;
    OK(sinew_body_get_info(g_scene.body[0], &info));
    CHECK(info.kind == SINEW_BODY_CLOTH && info.particle_count == 64 && info.vertex_count == 64, "grid info: a cloth of 64 particles and vertices");
    CHECK(info.triangle_count == 2 * 7 * 7 && info.pinned_count == 8, "grid info: 98 triangles, 8 pinned");
    /* structural 2*7*8 + shear 2*7*7 + bend (to the vertex two over) 2*6*8 */
    CHECK(info.constraint_count == 112 + 98 + 96 && info.batch_count > 0 && info.batch_count < info.constraint_count, "grid info: 306 constraints, in independent batches");
    OK(sinew_body_get_vertex_count(g_scene.body[0], &count));
    CHECK(count == GRID_VERTICES, "grid vertex count is 64");
    p[GRID_VERTICES] = v3(-7.0f, -7.0f, -7.0f); /* sentinel past the end */
    OK(sinew_body_read_positions(g_scene.body[0], p, GRID_VERTICES + 1));
    CHECK(p[GRID_VERTICES].x == -7.0f && p[GRID_VERTICES].y == -7.0f && p[GRID_VERTICES].z == -7.0f, "a larger buffer is accepted and nothing is written past the vertex count");
    for (ok = 1, i = 0; i < GRID_VERTICES; i++) {
        float column = (float)(i % GRID_COLUMNS), row = (float)(i / GRID_COLUMNS);
        SinewVec3 want = v3((column - 3.5f) * 0.1f, 2.0f, (row - 3.5f) * 0.1f);
        ok = ok && near3(p[i], want, 1e-6f);
    }
    CHECK(ok, "grid particle row*columns+column starts at origin + ((column-3.5)s, 0, (row-3.5)s)");
    memcpy(g_grid_start, p, sizeof g_grid_start);
    OK(sinew_body_read_normals(g_scene.body[0], n, GRID_VERTICES));
    for (ok = 1, i = 0; i < GRID_VERTICES; i++) ok = ok && near3(n[i], v3(0.0f, 1.0f, 0.0f), 1e-6f);
    CHECK(ok, "flat grid normals are +Y");
    OK(sinew_body_get_bounds(g_scene.body[0], &lo, &hi));
    CHECK(near3(lo, v3(-0.35f, 2.0f, -0.35f), 1e-6f) && near3(hi, v3(0.35f, 2.0f, 0.35f), 1e-6f), "grid bounds are (-0.35, 2, -0.35)..(0.35, 2, 0.35)");

    /* Mesh cloth with a seam. */
    build_mesh();
    md = mesh_desc();
    OK(sinew_cloth_create_mesh(g_scene.world, &md, &g_scene.body[1]));
    g_scene.vertices[1] = MESH_VERTICES;
    OK(sinew_body_get_info(g_scene.body[1], &info));
    CHECK(info.kind == SINEW_BODY_CLOTH && info.vertex_count == MESH_VERTICES, "mesh info: a cloth with the host's 12 vertices");
    CHECK(info.particle_count == MESH_PARTICLES, "mesh info: seam vertices welded into 9 particles");
    CHECK(info.triangle_count == 8 && info.pinned_count == 3, "mesh info: 8 triangles, 3 pinned particles");
    OK(sinew_body_get_vertex_count(g_scene.body[1], &count));
    CHECK(count == MESH_VERTICES, "mesh read-back vertex count equals the host's vertex count (12)");
    OK(sinew_body_read_positions(g_scene.body[1], p, MESH_VERTICES));
    CHECK(memcmp(p, g_mesh_positions, sizeof g_mesh_positions) == 0, "mesh reads back the host's positions in the host's order");
    OK(sinew_body_read_normals(g_scene.body[1], n, MESH_VERTICES));
    for (ok = 1, i = 0; i < MESH_VERTICES; i++) ok = ok && near3(n[i], v3(0.0f, 1.0f, 0.0f), 1e-6f);
    CHECK(ok, "flat mesh normals are +Y");
    CHECK(seam_copies_identical(g_scene.body[1]), "mesh seam duplicates read back identical positions and normals");

    /* Rope: 10 points along +X, 3 m up, first point pinned. */
    for (i = 0; i < ROPE_POINTS; i++) g_rope_points[i] = v3(-1.0f + 0.1f * (float)i, 3.0f, 0.0f);
    rd = rope_desc();
    OK(sinew_rope_create(g_scene.world, &rd, &g_scene.body[2]));
    g_scene.vertices[2] = ROPE_POINTS;
    OK(sinew_body_get_info(g_scene.body[2], &info));
    CHECK(info.kind == SINEW_BODY_ROPE && info.particle_count == ROPE_POINTS && info.vertex_count == ROPE_POINTS, "rope info: a rope of 10 points");
    CHECK(info.constraint_count == 9 + 8 && info.pinned_count == 1 && info.triangle_count == 0, "rope info: 9 links + 8 bends, 1 pinned, no triangles");
    OK(sinew_body_read_positions(g_scene.body[2], p, ROPE_POINTS));
    CHECK(memcmp(p, g_rope_points, sizeof g_rope_points) == 0, "rope reads back its points");
    OK(sinew_body_read_normals(g_scene.body[2], n, ROPE_POINTS));
    for (ok = 1, i = 0; i < ROPE_POINTS; i++) ok = ok && n[i].x == 0.0f && n[i].y == 1.0f && n[i].z == 0.0f;
    CHECK(ok, "rope normals are +Y");

    CHECK(g_scene.body[0].id != g_scene.body[1].id && g_scene.body[1].id != g_scene.body[2].id, "body handles are distinct");
    OK(sinew_world_get_stats(g_scene.world, &st));
    CHECK(st.body_count == 3 && st.particle_count == 64 + 9 + 10, "stats: 3 bodies, 83 particles");
    CHECK(st.thread_count == 2 && st.steps == 0, "stats: 2 worker threads, no steps yet");
}

/* ---- stepping and readback ---------------------------------------------------------- */

static void stepping(void) {
    SinewWorldStats st;
    SinewVec3 p[MAX_VERTICES], n[MAX_VERTICES], lo, hi;
    SinewBody grid = g_scene.body[0], rope = g_scene.body[2];
    float stretch;
    int i, ok;

    printf("-- stepping and readback\n");
    OK(sinew_world_step(g_scene.world, FRAME));
    OK(sinew_world_get_stats(g_scene.world, &st));
    CHECK(st.steps == 1 && st.last_frame_steps == 1 && st.alpha == 1.0f, "a 1/60 s frame is one fixed step, newest state shown");
    OK(sinew_world_step(g_scene.world, 2.0f * FRAME));
    OK(sinew_world_get_stats(g_scene.world, &st));
    CHECK(st.steps == 3 && st.last_frame_steps == 2, "a 1/30 s frame is two fixed steps");
    OK(sinew_world_step(g_scene.world, 10.0f));
    OK(sinew_world_get_stats(g_scene.world, &st));
    CHECK(st.last_frame_steps == 4, "a 10 s frame is capped at max_steps_per_frame (4, the default)");
    OK(sinew_world_step(g_scene.world, 0.0f));
    OK(sinew_world_get_stats(g_scene.world, &st));
    CHECK(st.steps == 7 && st.last_frame_steps == 0, "a zero frame takes no step");
    OK(sinew_world_step(g_scene.world, FRAME / 2.0f));
    OK(sinew_world_get_stats(g_scene.world, &st));
    CHECK(st.last_frame_steps == 1 && near(st.alpha, 0.5f, 1e-3f), "a 1/120 s frame runs one step ahead and shows alpha 0.5");
    OK(sinew_world_step(g_scene.world, FRAME / 2.0f));
    OK(sinew_world_get_stats(g_scene.world, &st));
    CHECK(st.last_frame_steps == 0 && near(st.alpha, 1.0f, 1e-3f), "the next 1/120 s frame catches up without a step");

    for (i = 0; i < 30; i++) {
        if (sinew_world_step(g_scene.world, FRAME) != SINEW_OK) fail(__LINE__, "30 frames", "sinew_world_step failed");
    }
    pass("30 more frames stepped");
    OK(sinew_body_read_positions(grid, p, GRID_VERTICES));
    for (ok = 1, i = 0; i < GRID_VERTICES; i++) ok = ok && finite3(p[i]);
    CHECK(ok, "grid positions are finite");
    for (ok = 1, i = 0; i < GRID_COLUMNS; i++) ok = ok && near3(p[i], g_grid_start[i], 1e-6f);
    CHECK(ok, "grid top row (pinned) stays where it was");
    CHECK(p[GRID_VERTICES - 1].y < 1.9f, "grid bottom row fell");
    OK(sinew_body_get_bounds(grid, &lo, &hi));
    for (ok = 1, i = 0; i < GRID_VERTICES; i++) {
        ok = ok && p[i].x >= lo.x && p[i].y >= lo.y && p[i].z >= lo.z && p[i].x <= hi.x && p[i].y <= hi.y && p[i].z <= hi.z;
    }
    CHECK(ok && hi.y == 2.0f, "grid bounds enclose every position; top is the pinned row");
    OK(sinew_body_read_normals(grid, n, GRID_VERTICES));
    for (ok = 1, i = 0; i < GRID_VERTICES; i++) ok = ok && near(length3(n[i]), 1.0f, 1e-4f);
    CHECK(ok, "grid normals are unit length");
    OK(sinew_body_get_max_stretch(grid, &stretch));
    CHECK(isfinite(stretch) && stretch >= 0.0f && stretch < 0.2f, "grid max stretch is finite and small");
    CHECK(seam_copies_identical(g_scene.body[1]), "mesh seam duplicates still identical after stepping");
    OK(sinew_body_read_positions(rope, p, ROPE_POINTS));
    CHECK(memcmp(&p[0], &g_rope_points[0], sizeof p[0]) == 0 && p[ROPE_POINTS - 1].y < 3.0f, "rope pinned end stays, free end fell");
}

/* ---- pins, material, teleport ------------------------------------------------------- */

static void pins_and_material(void) {
    SinewBody grid = g_scene.body[0], mesh = g_scene.body[1], rope = g_scene.body[2];
    uint32_t top[GRID_COLUMNS];
    SinewVec3 target[GRID_COLUMNS], p[MAX_VERTICES];
    SinewBodyInfo info;
    SinewMaterial m, m2;
    float bottom_x_before = 0.0f, bottom_x_after = 0.0f;
    int frame, i, ok;
    const uint32_t corner = GRID_VERTICES - 1, seam_left = 3, seam_right = 8;

    printf("-- pin targets, pin/unpin, material\n");
    OK(sinew_body_read_positions(grid, p, GRID_VERTICES));
    for (i = 0; i < GRID_COLUMNS; i++) bottom_x_before += p[GRID_VERTICES - GRID_COLUMNS + i].x;
    /* Drag the pinned top row 5 cm along +X per frame for 10 frames. */
    for (i = 0; i < GRID_COLUMNS; i++) top[i] = (uint32_t)i;
    for (ok = 1, frame = 1; frame <= 10; frame++) {
        for (i = 0; i < GRID_COLUMNS; i++) target[i] = v3(g_grid_start[i].x + 0.05f * (float)frame, g_grid_start[i].y, g_grid_start[i].z);
        if (sinew_body_set_pin_targets(grid, top, GRID_COLUMNS, target, GRID_COLUMNS) != SINEW_OK) fail(__LINE__, "pin targets", "set_pin_targets failed");
        if (sinew_world_step(g_scene.world, FRAME) != SINEW_OK) fail(__LINE__, "pin targets", "step failed");
        if (sinew_body_read_positions(grid, p, GRID_VERTICES) != SINEW_OK) fail(__LINE__, "pin targets", "read failed");
        for (i = 0; i < GRID_COLUMNS; i++) ok = ok && memcmp(&p[i], &target[i], sizeof p[i]) == 0;
    }
    CHECK(ok, "moving pin targets: the top row is exactly at its target after every frame");
    for (i = 0; i < GRID_COLUMNS; i++) bottom_x_after += p[GRID_VERTICES - GRID_COLUMNS + i].x;
    CHECK(bottom_x_after > bottom_x_before + 0.01f * GRID_COLUMNS, "the cloth is dragged along by its moving pins");
    OK(sinew_body_get_info(grid, &info));
    CHECK(info.pinned_count == 8, "retargeting pinned vertices pins nothing new");

    /* A target for a free vertex pins it; unpin releases it. */
    target[0] = v3(p[corner].x, p[corner].y + 0.02f, p[corner].z);
    OK(sinew_body_set_pin_targets(grid, &corner, 1, target, 1));
    OK(sinew_body_get_info(grid, &info));
    CHECK(info.pinned_count == 9, "a pin target on a free vertex pins it");
    OK(sinew_world_step(g_scene.world, FRAME));
    OK(sinew_body_read_positions(grid, p, GRID_VERTICES));
    CHECK(memcmp(&p[corner], &target[0], sizeof p[0]) == 0, "the newly pinned vertex reaches its target at the end of the frame");
    OK(sinew_body_unpin(grid, &corner, 1));
    OK(sinew_body_get_info(grid, &info));
    CHECK(info.pinned_count == 8, "unpin releases it");
    OK(sinew_body_pin(grid, &corner, 1));
    OK(sinew_body_pin(grid, &corner, 1));
    OK(sinew_body_get_info(grid, &info));
    CHECK(info.pinned_count == 9, "pin pins a vertex where it is; pinning twice is harmless");
    OK(sinew_body_unpin(grid, &corner, 1));
    OK(sinew_body_pin(grid, NULL, 0));
    OK(sinew_body_get_info(grid, &info));
    CHECK(info.pinned_count == 8, "an empty index list (NULL, 0) changes nothing");

    /* On a welded mesh, either copy of a seam vertex addresses the same particle. */
    target[0] = v3(2.1f, 1.5f, 0.1f);
    OK(sinew_body_set_pin_targets(mesh, &seam_left, 1, target, 1));
    OK(sinew_world_step(g_scene.world, FRAME));
    OK(sinew_body_read_positions(mesh, p, MESH_VERTICES));
    CHECK(memcmp(&p[seam_left], &target[0], sizeof p[0]) == 0 && memcmp(&p[seam_right], &target[0], sizeof p[0]) == 0, "a mesh pin target moves both copies of a seam vertex");
    OK(sinew_body_get_info(mesh, &info));
    CHECK(info.pinned_count == 4, "mesh: the seam particle counts once as pinned");
    OK(sinew_body_unpin(mesh, &seam_right, 1));
    OK(sinew_body_get_info(mesh, &info));
    CHECK(info.pinned_count == 3, "mesh: unpinning through the other copy releases it");
    CHECK(seam_copies_identical(mesh), "mesh seam duplicates still identical");

    OK(sinew_body_get_material(rope, &m));
    m.damping = 0.25f;
    m.bend_compliance = 0.01f;
    OK(sinew_body_set_material(rope, &m));
    OK(sinew_body_get_material(rope, &m2));
    CHECK(memcmp(&m, &m2, sizeof m) == 0, "set_material then get_material round-trips");
    OK(sinew_world_set_gravity(g_scene.world, v3(0.0f, -9.81f, 0.0f)));
}

/* Largest distance any vertex moved between two readbacks. */
static float largest_move(const SinewVec3 *a, const SinewVec3 *b, int n) {
    float worst = 0.0f;
    int i;
    for (i = 0; i < n; i++) {
        float d = length3(v3(b[i].x - a[i].x, b[i].y - a[i].y, b[i].z - a[i].z));
        if (d > worst) worst = d;
    }
    return worst;
}

static void teleport(void) {
    SinewBody grid = g_scene.body[0], rope = g_scene.body[2];
    SinewVec3 before[MAX_VERTICES], after[MAX_VERTICES], shift = v3(0.0f, 0.5f, 0.0f);
    SinewMat4 m;
    float move_before, move_after;
    int i, ok;

    printf("-- teleport\n");
    OK(sinew_body_read_positions(rope, before, ROPE_POINTS));
    m = rotate_y_translate(0.0f, v3(1.0f, 0.0f, 0.0f));
    OK(sinew_body_teleport(rope, &m));
    OK(sinew_body_read_positions(rope, after, ROPE_POINTS));
    for (ok = 1, i = 0; i < ROPE_POINTS; i++) ok = ok && near3(after[i], v3(before[i].x + 1.0f, before[i].y, before[i].z), 1e-5f);
    CHECK(ok, "teleporting a rope by +1 m in X moves every point by +1 m");

    /* How far the grid moves in one ordinary frame, to compare with the frame after. */
    OK(sinew_body_read_positions(grid, before, GRID_VERTICES));
    OK(sinew_world_step(g_scene.world, FRAME));
    OK(sinew_body_read_positions(grid, after, GRID_VERTICES));
    move_before = largest_move(before, after, GRID_VERTICES);

    memcpy(before, after, sizeof before);
    m = rotate_y_translate(90.0f, shift);
    OK(sinew_body_teleport(grid, &m));
    OK(sinew_body_read_positions(grid, after, GRID_VERTICES));
    for (ok = 1, i = 0; i < GRID_VERTICES; i++) ok = ok && near3(after[i], apply_rotate_y_translate(90.0f, shift, before[i]), 1e-5f);
    CHECK(ok, "teleporting the grid by 90 degrees about Y and +0.5 m up moves every vertex rigidly");
    memcpy(before, after, sizeof before);
    OK(sinew_world_step(g_scene.world, FRAME));
    OK(sinew_body_read_positions(grid, after, GRID_VERTICES));
    for (ok = 1, i = 0; i < GRID_COLUMNS; i++) ok = ok && near3(after[i], before[i], 1e-6f);
    CHECK(ok, "pins were carried along: the pinned row stays at its teleported place");
    /* Without its velocities carried along, the cloth would jump back ~0.5 m in one frame. */
    move_after = largest_move(before, after, GRID_VERTICES);
    CHECK(move_after < 2.0f * move_before + 0.01f, "nothing flies off: the frame after a teleport moves no more than an ordinary frame");
}

/* ---- asynchronous step -------------------------------------------------------------- */

static void async_step(void) {
    SinewWorld world = g_scene.world;
    SinewBody grid = g_scene.body[0], rope = g_scene.body[2], extra = {0};
    SinewWorldStats st, st2;
    SinewBodyInfo info, info2;
    SinewClothGridDesc gd = grid_desc();
    SinewVec3 p[MAX_VERTICES], target = v3(0.0f, 0.0f, 0.0f);
    SinewMat4 m = rotate_y_translate(0.0f, v3(1.0f, 0.0f, 0.0f));
    const uint32_t free_vertex = 20;

    printf("-- asynchronous step\n");
    OK(sinew_world_get_stats(world, &st));
    OK(sinew_body_get_info(grid, &info));
    OK(sinew_world_step_begin(world, FRAME));
    /* Every call that reads or changes the world answers SINEW_BUSY until step_end. */
    FAILS_ONLY(SINEW_BUSY, sinew_world_step_begin(world, FRAME));
    FAILS_ONLY(SINEW_BUSY, sinew_world_step(world, FRAME));
    FAILS_ONLY(SINEW_BUSY, sinew_world_get_stats(world, &st2));
    FAILS_ONLY(SINEW_BUSY, sinew_world_set_gravity(world, v3(0.0f, 0.0f, 0.0f)));
    FAILS_ONLY(SINEW_BUSY, sinew_body_read_positions(grid, p, GRID_VERTICES));
    FAILS_ONLY(SINEW_BUSY, sinew_body_get_info(grid, &info2));
    FAILS_ONLY(SINEW_BUSY, sinew_body_set_pin_targets(grid, &free_vertex, 1, &target, 1));
    FAILS_ONLY(SINEW_BUSY, sinew_body_teleport(rope, &m));
    FAILS_ONLY(SINEW_BUSY, sinew_cloth_create_grid(world, &gd, &extra));
    FAILS_ONLY(SINEW_BUSY, sinew_body_destroy(rope));
    FAILS_ONLY(SINEW_BUSY, sinew_world_destroy(world));
    OK(sinew_world_step_end(world));
    OK(sinew_world_get_stats(world, &st2));
    CHECK(st2.steps == st.steps + 1 && st2.last_frame_steps == 1, "step_end: exactly the asynchronous step ran");
    CHECK(st2.body_count == 3 && extra.id == 0, "the refused create made no body and left its out-pointer alone");
    OK(sinew_body_get_info(grid, &info2));
    CHECK(info2.pinned_count == info.pinned_count, "the refused pin target pinned nothing");
    OK(sinew_body_get_info(rope, &info2));
    CHECK(info2.kind == SINEW_BODY_ROPE, "the refused destroy left the rope alive");
    FAILS(SINEW_INVALID_ARGUMENT, sinew_world_step_end(world));
    /* A second round, ended at once. */
    OK(sinew_world_step_begin(world, FRAME));
    OK(sinew_world_step_end(world));
}

/* ---- every error class -------------------------------------------------------------- */

static void errors(void) {
    SinewWorld world = g_scene.world, w_out;
    SinewBody grid = g_scene.body[0], mesh = g_scene.body[1], rope = g_scene.body[2], b_out;
    SinewWorldDesc wd;
    SinewClothGridDesc gd;
    SinewClothMeshDesc md;
    SinewRopeDesc rd;
    SinewMaterial mat;
    SinewBodyInfo info;
    SinewWorldStats st;
    SinewMat4 m;
    SinewVec3 buf[MAX_VERTICES], lo, hi, two[2], bad_points[ROPE_POINTS], bad_mesh[MESH_VERTICES];
    uint32_t bad_indices[8 * 3], pin_list[2];
    size_t count;
    float stretch;
    const uint32_t in_range = 20, past_end = GRID_VERTICES, pair[2] = {20, GRID_VERTICES};
    int i, ok;

    OK(sinew_world_desc_default(&wd));
    OK(sinew_material_default(&mat));
    two[0] = v3(0.0f, 1.0f, 0.0f);
    two[1] = v3(0.0f, 1.0f, 0.0f);

    printf("-- SINEW_NULL_POINTER\n");
    FAILS(SINEW_NULL_POINTER, sinew_world_desc_default(NULL));
    FAILS(SINEW_NULL_POINTER, sinew_material_default(NULL));
    FAILS(SINEW_NULL_POINTER, sinew_cloth_grid_desc_default(NULL));
    FAILS(SINEW_NULL_POINTER, sinew_cloth_mesh_desc_default(NULL));
    FAILS(SINEW_NULL_POINTER, sinew_rope_desc_default(NULL));
    w_out.id = 12345;
    FAILS(SINEW_NULL_POINTER, sinew_world_create(NULL, &w_out));
    CHECK(w_out.id == 12345, "a failed create leaves its out-pointer alone");
    FAILS(SINEW_NULL_POINTER, sinew_world_create(&wd, NULL));
    FAILS(SINEW_NULL_POINTER, sinew_world_get_stats(world, NULL));
    b_out.id = 12345;
    FAILS(SINEW_NULL_POINTER, sinew_cloth_create_grid(world, NULL, &b_out));
    gd = grid_desc();
    FAILS(SINEW_NULL_POINTER, sinew_cloth_create_grid(world, &gd, NULL));
    gd.pin_mode = SINEW_PIN_LIST;
    gd.pin_indices = NULL;
    gd.pin_count = 2;
    FAILS(SINEW_NULL_POINTER, sinew_cloth_create_grid(world, &gd, &b_out));
    md = mesh_desc();
    md.positions = NULL;
    FAILS(SINEW_NULL_POINTER, sinew_cloth_create_mesh(world, &md, &b_out));
    md = mesh_desc();
    md.indices = NULL;
    FAILS(SINEW_NULL_POINTER, sinew_cloth_create_mesh(world, &md, &b_out));
    md = mesh_desc();
    FAILS(SINEW_NULL_POINTER, sinew_cloth_create_mesh(world, NULL, &b_out));
    FAILS(SINEW_NULL_POINTER, sinew_cloth_create_mesh(world, &md, NULL));
    rd = rope_desc();
    rd.points = NULL;
    FAILS(SINEW_NULL_POINTER, sinew_rope_create(world, &rd, &b_out));
    rd = rope_desc();
    FAILS(SINEW_NULL_POINTER, sinew_rope_create(world, NULL, &b_out));
    FAILS(SINEW_NULL_POINTER, sinew_rope_create(world, &rd, NULL));
    CHECK(b_out.id == 12345, "failed creates leave the body out-pointer alone");
    FAILS(SINEW_NULL_POINTER, sinew_body_get_info(grid, NULL));
    FAILS(SINEW_NULL_POINTER, sinew_body_get_vertex_count(grid, NULL));
    FAILS(SINEW_NULL_POINTER, sinew_body_get_material(grid, NULL));
    FAILS(SINEW_NULL_POINTER, sinew_body_set_material(grid, NULL));
    FAILS(SINEW_NULL_POINTER, sinew_body_pin(grid, NULL, 1));
    FAILS(SINEW_NULL_POINTER, sinew_body_unpin(grid, NULL, 1));
    FAILS(SINEW_NULL_POINTER, sinew_body_set_pin_targets(grid, NULL, 1, two, 1));
    FAILS(SINEW_NULL_POINTER, sinew_body_set_pin_targets(grid, &in_range, 1, NULL, 1));
    FAILS(SINEW_NULL_POINTER, sinew_body_teleport(grid, NULL));
    FAILS(SINEW_NULL_POINTER, sinew_body_read_positions(grid, NULL, GRID_VERTICES));
    FAILS(SINEW_NULL_POINTER, sinew_body_read_normals(grid, NULL, GRID_VERTICES));
    lo = v3(-7.0f, -7.0f, -7.0f);
    FAILS(SINEW_NULL_POINTER, sinew_body_get_bounds(grid, &lo, NULL));
    CHECK(lo.x == -7.0f && lo.y == -7.0f && lo.z == -7.0f, "get_bounds with one null output writes neither");
    FAILS(SINEW_NULL_POINTER, sinew_body_get_bounds(grid, NULL, &hi));
    FAILS(SINEW_NULL_POINTER, sinew_body_get_max_stretch(grid, NULL));

    printf("-- SINEW_BUFFER_TOO_SMALL\n");
    for (i = 0; i < MAX_VERTICES; i++) buf[i] = v3(-7.0f, -7.0f, -7.0f);
    FAILS(SINEW_BUFFER_TOO_SMALL, sinew_body_read_positions(grid, buf, GRID_VERTICES - 1));
    FAILS(SINEW_BUFFER_TOO_SMALL, sinew_body_read_normals(grid, buf, GRID_VERTICES - 1));
    FAILS(SINEW_BUFFER_TOO_SMALL, sinew_body_read_positions(rope, buf, 0));
    /* The mesh needs room for the host's 12 vertices, not for its 9 particles. */
    FAILS(SINEW_BUFFER_TOO_SMALL, sinew_body_read_positions(mesh, buf, MESH_PARTICLES));
    FAILS(SINEW_BUFFER_TOO_SMALL, sinew_body_read_normals(mesh, buf, MESH_VERTICES - 1));
    for (ok = 1, i = 0; i < MAX_VERTICES; i++) ok = ok && buf[i].x == -7.0f && buf[i].y == -7.0f && buf[i].z == -7.0f;
    CHECK(ok, "a short buffer is not written at all");

    printf("-- SINEW_OUT_OF_RANGE\n");
    FAILS(SINEW_OUT_OF_RANGE, sinew_body_pin(grid, &past_end, 1));
    FAILS(SINEW_OUT_OF_RANGE, sinew_body_pin(grid, pair, 2)); /* all or nothing: 20 stays free */
    FAILS(SINEW_OUT_OF_RANGE, sinew_body_unpin(grid, &past_end, 1));
    FAILS(SINEW_OUT_OF_RANGE, sinew_body_set_pin_targets(grid, pair, 2, two, 2));
    pin_list[0] = MESH_VERTICES;
    FAILS(SINEW_OUT_OF_RANGE, sinew_body_pin(mesh, pin_list, 1));
    pin_list[0] = ROPE_POINTS;
    FAILS(SINEW_OUT_OF_RANGE, sinew_body_pin(rope, pin_list, 1));
    gd = grid_desc();
    pin_list[0] = 0;
    pin_list[1] = GRID_VERTICES;
    gd.pin_mode = SINEW_PIN_LIST;
    gd.pin_indices = pin_list;
    gd.pin_count = 2;
    FAILS(SINEW_OUT_OF_RANGE, sinew_cloth_create_grid(world, &gd, &b_out));
    rd = rope_desc();
    pin_list[0] = ROPE_POINTS;
    rd.pin_indices = pin_list;
    FAILS(SINEW_OUT_OF_RANGE, sinew_rope_create(world, &rd, &b_out));
    md = mesh_desc();
    memcpy(bad_indices, g_mesh_indices, sizeof bad_indices);
    bad_indices[4] = MESH_VERTICES;
    md.indices = bad_indices;
    FAILS(SINEW_OUT_OF_RANGE, sinew_cloth_create_mesh(world, &md, &b_out));
    CHECK(b_out.id == 12345, "failed creates leave the body out-pointer alone");

    printf("-- SINEW_NON_FINITE\n");
    two[1].y = NAN;
    pin_list[0] = 20;
    pin_list[1] = 21;
    FAILS(SINEW_NON_FINITE, sinew_body_set_pin_targets(grid, pin_list, 2, two, 2)); /* NaN position */
    two[1].y = 1.0f;
    two[0].x = INFINITY;
    FAILS(SINEW_NON_FINITE, sinew_body_set_pin_targets(grid, pin_list, 2, two, 2));
    two[0].x = 0.0f;
    m = rotate_y_translate(0.0f, v3(NAN, 0.0f, 0.0f));
    FAILS(SINEW_NON_FINITE, sinew_body_teleport(grid, &m));
    FAILS(SINEW_NON_FINITE, sinew_world_step(world, NAN));
    FAILS(SINEW_NON_FINITE, sinew_world_step(world, INFINITY));
    FAILS(SINEW_NON_FINITE, sinew_world_step_begin(world, NAN));
    FAILS(SINEW_NON_FINITE, sinew_world_set_gravity(world, v3(0.0f, NAN, 0.0f)));
    mat.damping = NAN;
    FAILS(SINEW_NON_FINITE, sinew_body_set_material(grid, &mat));
    OK(sinew_material_default(&mat));
    gd = grid_desc();
    gd.origin.x = NAN;
    FAILS(SINEW_NON_FINITE, sinew_cloth_create_grid(world, &gd, &b_out));
    gd = grid_desc();
    gd.orientation.w = NAN;
    FAILS(SINEW_NON_FINITE, sinew_cloth_create_grid(world, &gd, &b_out));
    rd = rope_desc();
    memcpy(bad_points, g_rope_points, sizeof bad_points);
    bad_points[3].z = NAN;
    rd.points = bad_points;
    FAILS(SINEW_NON_FINITE, sinew_rope_create(world, &rd, &b_out));
    md = mesh_desc();
    memcpy(bad_mesh, g_mesh_positions, sizeof bad_mesh);
    bad_mesh[7].x = -INFINITY;
    md.positions = bad_mesh;
    FAILS(SINEW_NON_FINITE, sinew_cloth_create_mesh(world, &md, &b_out));
    wd.gravity.y = NAN;
    FAILS(SINEW_NON_FINITE, sinew_world_create(&wd, &w_out));
    OK(sinew_world_desc_default(&wd));

    printf("-- SINEW_INVALID_ARGUMENT\n");
    gd = grid_desc();
    gd.columns = 0;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_cloth_create_grid(world, &gd, &b_out));
    gd = grid_desc();
    gd.rows = 1;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_cloth_create_grid(world, &gd, &b_out));
    gd = grid_desc();
    gd.spacing = 0.0f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_cloth_create_grid(world, &gd, &b_out));
    gd.spacing = -0.1f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_cloth_create_grid(world, &gd, &b_out));
    gd = grid_desc();
    gd.pin_mode = 99;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_cloth_create_grid(world, &gd, &b_out));
    gd = grid_desc();
    gd.orientation.w = 2.0f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_cloth_create_grid(world, &gd, &b_out));
    gd = grid_desc();
    gd.material.particle_mass = -1.0f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_cloth_create_grid(world, &gd, &b_out));
    rd = rope_desc();
    rd.point_count = 1;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_rope_create(world, &rd, &b_out));
    rd = rope_desc();
    rd.point_count = 0;
    rd.points = NULL;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_rope_create(world, &rd, &b_out));
    rd = rope_desc();
    rd.points = two;
    rd.point_count = 2;
    rd.pin_count = 0;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_rope_create(world, &rd, &b_out)); /* coincident points */
    md = mesh_desc();
    md.index_count = 7;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_cloth_create_mesh(world, &md, &b_out));
    md = mesh_desc();
    md.vertex_count = 2;
    md.inverse_mass_count = 2;
    md.index_count = 3; /* the first triangle: vertices 0, 2, 1 */
    FAILS(SINEW_INVALID_ARGUMENT, sinew_cloth_create_mesh(world, &md, &b_out));
    md = mesh_desc();
    md.inverse_mass_count = 5;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_cloth_create_mesh(world, &md, &b_out));
    md = mesh_desc();
    md.weld_distance = -1.0f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_cloth_create_mesh(world, &md, &b_out));
    CHECK(b_out.id == 12345, "failed creates leave the body out-pointer alone");
    pin_list[0] = 20;
    pin_list[1] = 21;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_body_set_pin_targets(grid, pin_list, 2, two, 1));
    m = rotate_y_translate(0.0f, v3(0.0f, 0.0f, 0.0f));
    m.m[0] = 2.0f; /* a scale is not rigid */
    FAILS(SINEW_INVALID_ARGUMENT, sinew_body_teleport(grid, &m));
    m = rotate_y_translate(0.0f, v3(0.0f, 0.0f, 0.0f));
    m.m[0] = -1.0f; /* a mirror is not a rotation */
    FAILS(SINEW_INVALID_ARGUMENT, sinew_body_teleport(grid, &m));
    mat.particle_mass = 0.0f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_body_set_material(grid, &mat));
    mat.particle_mass = -1.0f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_body_set_material(grid, &mat));
    OK(sinew_material_default(&mat));
    mat.damping = -1.0f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_body_set_material(rope, &mat));
    OK(sinew_material_default(&mat));
    FAILS(SINEW_INVALID_ARGUMENT, sinew_world_step(world, -FRAME));
    FAILS(SINEW_INVALID_ARGUMENT, sinew_world_step_begin(world, -1.0f));
    FAILS(SINEW_INVALID_ARGUMENT, sinew_world_step_end(world));
    w_out.id = 12345;
    wd.substeps = 0;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_world_create(&wd, &w_out));
    OK(sinew_world_desc_default(&wd));
    wd.iterations = 1000;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_world_create(&wd, &w_out));
    OK(sinew_world_desc_default(&wd));
    wd.fixed_rate_hz = 0.0f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_world_create(&wd, &w_out));
    OK(sinew_world_desc_default(&wd));
    wd.fixed_rate_hz = -60.0f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_world_create(&wd, &w_out));
    OK(sinew_world_desc_default(&wd));
    wd.max_steps_per_frame = 0;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_world_create(&wd, &w_out));
    OK(sinew_world_desc_default(&wd));
    wd.thread_count = 100000;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_world_create(&wd, &w_out));
    OK(sinew_world_desc_default(&wd));
    CHECK(w_out.id == 12345, "failed world creates leave the out-pointer alone");

    printf("-- SINEW_TOO_LARGE\n");
    gd = grid_desc();
    gd.columns = 100000;
    gd.rows = 100000;
    FAILS(SINEW_TOO_LARGE, sinew_cloth_create_grid(world, &gd, &b_out));
    gd.columns = 65536; /* 65536 * 65536 wraps to 0 in 32 bits */
    gd.rows = 65536;
    FAILS(SINEW_TOO_LARGE, sinew_cloth_create_grid(world, &gd, &b_out));
    CHECK(b_out.id == 12345, "a refused 100000 x 100000 grid leaves the out-pointer alone");
    FAILS(SINEW_TOO_LARGE, sinew_body_pin(grid, &in_range, (size_t)-1)); /* no buffer is that long */

#ifdef SINEW_DEBUG_PANIC
    /* scripts/test-c.sh defines SINEW_DEBUG_PANIC and builds the library with the cargo
       feature debug-panic; without the feature this client would not link. */
    printf("-- SINEW_PANIC\n");
    FAILS(SINEW_PANIC, sinew_debug_trigger_panic());
    FAILS(SINEW_PANIC, sinew_debug_trigger_panic());
#else
    printf("-- SINEW_PANIC: NOT CHECKED (built without SINEW_DEBUG_PANIC)\n");
#endif

    /* Everything still answers normally. */
    OK(sinew_body_get_vertex_count(mesh, &count));
    OK(sinew_body_get_max_stretch(grid, &stretch));
    OK(sinew_body_get_info(grid, &info));
    OK(sinew_world_get_stats(world, &st));
    CHECK(st.body_count == 3 && info.pinned_count == 8, "after all the failures: still 3 bodies, still 8 pins on the grid");
}

/* ---- handles ------------------------------------------------------------------------ */

static SinewBody body_from_world(SinewWorld w) {
    SinewBody b;
    b.id = w.id;
    return b;
}

static SinewWorld world_from_body(SinewBody b) {
    SinewWorld w;
    w.id = b.id;
    return w;
}

static void handles(void) {
    SinewWorld world = g_scene.world, other, reused, zero_world = {0};
    SinewBody grid = g_scene.body[0], temp, stranded, forged, zero_body = {0}, junk;
    SinewWorldDesc wd;
    SinewRopeDesc rd = rope_desc();
    SinewClothGridDesc gd = grid_desc();
    SinewBodyInfo info;
    SinewVec3 buf[MAX_VERTICES];
    SinewWorldStats st;

    printf("-- SINEW_INVALID_HANDLE\n");
    /* A body destroyed, then used and destroyed again. */
    rd.pin_count = 0;
    OK(sinew_rope_create(world, &rd, &temp));
    OK(sinew_body_destroy(temp));
    FAILS(SINEW_INVALID_HANDLE, sinew_body_destroy(temp));
    FAILS(SINEW_INVALID_HANDLE, sinew_body_read_positions(temp, buf, ROPE_POINTS));
    FAILS(SINEW_INVALID_HANDLE, sinew_body_get_info(temp, &info));
    /* Handles of the wrong kind, zero, forged and garbage. */
    FAILS(SINEW_INVALID_HANDLE, sinew_body_get_info(body_from_world(world), &info));
    FAILS(SINEW_INVALID_HANDLE, sinew_body_read_positions(body_from_world(world), buf, MAX_VERTICES));
    FAILS(SINEW_INVALID_HANDLE, sinew_body_destroy(body_from_world(world)));
    FAILS(SINEW_INVALID_HANDLE, sinew_world_step(world_from_body(grid), FRAME));
    FAILS(SINEW_INVALID_HANDLE, sinew_world_destroy(world_from_body(grid)));
    FAILS(SINEW_INVALID_HANDLE, sinew_cloth_create_grid(world_from_body(grid), &gd, &junk));
    FAILS(SINEW_INVALID_HANDLE, sinew_world_step(zero_world, FRAME));
    FAILS(SINEW_INVALID_HANDLE, sinew_body_get_info(zero_body, &info));
    forged.id = grid.id + 1; /* same slot, another serial */
    FAILS(SINEW_INVALID_HANDLE, sinew_body_get_info(forged, &info));
    forged.id = ~(uint64_t)0;
    FAILS(SINEW_INVALID_HANDLE, sinew_body_destroy(forged));

    /* A second world destroyed under its body; then a new world that may reuse its slot. */
    OK(sinew_world_desc_default(&wd));
    wd.thread_count = 1;
    OK(sinew_world_create(&wd, &other));
    rd = rope_desc();
    OK(sinew_rope_create(other, &rd, &stranded));
    OK(sinew_world_destroy(other));
    FAILS(SINEW_INVALID_HANDLE, sinew_world_destroy(other));
    FAILS(SINEW_INVALID_HANDLE, sinew_world_step(other, FRAME));
    FAILS(SINEW_INVALID_HANDLE, sinew_world_get_stats(other, &st));
    FAILS(SINEW_INVALID_HANDLE, sinew_cloth_create_grid(other, &gd, &junk));
    FAILS(SINEW_INVALID_HANDLE, sinew_body_read_positions(stranded, buf, ROPE_POINTS));
    FAILS(SINEW_INVALID_HANDLE, sinew_body_destroy(stranded));
    OK(sinew_world_create(&wd, &reused));
    OK(sinew_rope_create(reused, &rd, &temp));
    FAILS(SINEW_INVALID_HANDLE, sinew_world_step(other, FRAME));
    FAILS(SINEW_INVALID_HANDLE, sinew_body_read_positions(stranded, buf, ROPE_POINTS));
    FAILS(SINEW_INVALID_HANDLE, sinew_body_destroy(stranded));
    OK(sinew_world_step(reused, FRAME));
    OK(sinew_body_read_positions(temp, buf, ROPE_POINTS));
    OK(sinew_world_get_stats(reused, &st));
    CHECK(st.body_count == 1, "the new world holds only its own body");
    OK(sinew_world_destroy(reused)); /* destroys `temp` with it */
    FAILS(SINEW_INVALID_HANDLE, sinew_body_destroy(temp));
}

/* ---- colliders ---------------------------------------------------------------------- */

/* Column-major 4 x 4 helpers: element (row r, column c) is m[c * 4 + r]. */
static SinewMat4 mat_identity(void) {
    SinewMat4 m;
    memset(&m, 0, sizeof m);
    m.m[0] = m.m[5] = m.m[10] = m.m[15] = 1.0f;
    return m;
}

static SinewMat4 mat_translate(float x, float y, float z) {
    SinewMat4 m = mat_identity();
    m.m[12] = x;
    m.m[13] = y;
    m.m[14] = z;
    return m;
}

/* Rotation by `degrees` about the X (0), Y (1) or Z (2) axis. */
static SinewMat4 mat_rotate(int axis, float degrees) {
    SinewMat4 m = mat_identity();
    float a = degrees * 3.14159265358979f / 180.0f;
    float c = cosf(a), s = sinf(a);
    int i = (axis + 1) % 3, j = (axis + 2) % 3; /* the plane rotated: i -> j */
    m.m[i * 4 + i] = c;
    m.m[i * 4 + j] = s;
    m.m[j * 4 + i] = -s;
    m.m[j * 4 + j] = c;
    return m;
}

static SinewMat4 mat_scale(float s) {
    SinewMat4 m = mat_identity();
    m.m[0] = m.m[5] = m.m[10] = s;
    return m;
}

/* a * b: b applies first. */
static SinewMat4 mat_mul(SinewMat4 a, SinewMat4 b) {
    SinewMat4 r;
    int row, col, k;
    for (col = 0; col < 4; col++) {
        for (row = 0; row < 4; row++) {
            float sum = 0.0f;
            for (k = 0; k < 4; k++) sum += a.m[k * 4 + row] * b.m[col * 4 + k];
            r.m[col * 4 + row] = sum;
        }
    }
    return r;
}

static float dot3(SinewVec3 a, SinewVec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

static SinewVec3 column3(const SinewMat4 *m, int c) { return v3(m->m[c * 4], m->m[c * 4 + 1], m->m[c * 4 + 2]); }

/* `p` in the local frame of `m` (rotation, uniform scale s, translation t): R^T (p - t) / s.
 * The columns are s times R's, so (column . d) / s^2 is the local coordinate. */
static SinewVec3 to_local(const SinewMat4 *m, SinewVec3 p, float *out_scale) {
    SinewVec3 t = column3(m, 3), d = v3(p.x - t.x, p.y - t.y, p.z - t.z);
    float s2 = dot3(column3(m, 0), column3(m, 0));
    *out_scale = sqrtf(s2);
    return v3(dot3(column3(m, 0), d) / s2, dot3(column3(m, 1), d) / s2, dot3(column3(m, 2), d) / s2);
}

/* Signed distance (m) from `p` to the surface of the collider `d` placed at `m`, computed
 * here from the shape's definition in sinew.h, not from the library's own formulas. */
static float shape_distance(const SinewColliderDesc *d, const SinewMat4 *m, SinewVec3 p) {
    float s, dist = 0.0f;
    SinewVec3 q = to_local(m, p, &s);
    switch (d->shape) {
    case SINEW_SHAPE_SPHERE:
        dist = length3(q) - d->radius;
        break;
    case SINEW_SHAPE_CAPSULE: {
        /* A tapered capsule is the union of the spheres along its axis whose radius runs
         * linearly from radius0 to radius1: brute force over 2001 of them. */
        int k;
        dist = INFINITY;
        for (k = 0; k <= 2000; k++) {
            float t = (float)k / 2000.0f;
            float y = -d->half_height + 2.0f * d->half_height * t;
            float e = length3(v3(q.x, q.y - y, q.z)) - (d->radius0 + (d->radius1 - d->radius0) * t);
            if (e < dist) dist = e;
        }
        break;
    }
    case SINEW_SHAPE_PLANE:
        dist = q.y;
        break;
    case SINEW_SHAPE_BOX: {
        SinewVec3 e = v3(fabsf(q.x) - d->half_extents.x, fabsf(q.y) - d->half_extents.y, fabsf(q.z) - d->half_extents.z);
        float inside = fmaxf(e.x, fmaxf(e.y, e.z));
        dist = length3(v3(fmaxf(e.x, 0.0f), fmaxf(e.y, 0.0f), fmaxf(e.z, 0.0f))) + fminf(inside, 0.0f);
        break;
    }
    }
    return s * dist;
}

/* Smallest signed distance of any of `n` points to the collider. */
static float closest_to_shape(const SinewColliderDesc *d, const SinewMat4 *m, const SinewVec3 *p, int n) {
    float best = INFINITY;
    int i;
    for (i = 0; i < n; i++) {
        float e = shape_distance(d, m, p[i]);
        if (e < best) best = e;
    }
    return best;
}

static float lowest_y(const SinewVec3 *p, int n) {
    float y = INFINITY;
    int i;
    for (i = 0; i < n; i++) y = fminf(y, p[i].y);
    return y;
}

/* A world for one collision experiment: newest state on readback (no interpolation), so
 * that what is read is exactly what the colliders were checked against. */
static SinewWorld collision_world(SinewVec3 gravity) {
    SinewWorldDesc wd;
    SinewWorld w;
    OK(sinew_world_desc_default(&wd));
    wd.thread_count = 2;
    wd.interpolate = 0;
    wd.gravity = gravity;
    OK(sinew_world_create(&wd, &w));
    return w;
}

static SinewColliderDesc collider_desc(uint32_t shape) {
    SinewColliderDesc cd;
    OK(sinew_collider_desc_default(&cd));
    cd.shape = shape;
    return cd;
}

/* An unpinned 8 x 8 cloth, 5 cm spacing, centred on `origin`. */
static SinewClothGridDesc free_cloth(SinewVec3 origin) {
    SinewClothGridDesc gd;
    OK(sinew_cloth_grid_desc_default(&gd));
    gd.columns = 8;
    gd.rows = 8;
    gd.spacing = 0.05f;
    gd.origin = origin;
    gd.pin_mode = SINEW_PIN_NONE;
    gd.material.damping = 0.5f;
    return gd;
}

enum { SHAPE_COUNT = 4, SHAPE_FRAMES = 90, SHAPE_CLOTH = 64 };

/* Where shape k is at frame f: each turns about Y and drifts, the capsule lies along X at
 * 1.25 x scale, the plane rises 1 mm per frame. */
static SinewMat4 shape_pose(int k, int f) {
    float x = -1.5f + (float)k, turn = 2.0f * (float)f, drift = 0.002f * (float)f;
    switch (k) {
    case 0: return mat_mul(mat_translate(x + drift, 0.0f, 0.0f), mat_rotate(1, turn));
    case 1: return mat_mul(mat_translate(x + drift, 0.0f, 0.0f), mat_mul(mat_rotate(1, turn), mat_mul(mat_rotate(2, 90.0f), mat_scale(1.25f))));
    case 2: return mat_mul(mat_translate(x, -0.2f + 0.001f * (float)f, 0.0f), mat_rotate(1, turn));
    default: return mat_mul(mat_translate(x + drift, 0.0f, 0.0f), mat_rotate(1, turn));
    }
}

static void moving_shapes(void) {
    static const char *names[SHAPE_COUNT] = {"sphere", "tapered capsule (scaled 1.25)", "plane", "box"};
    SinewWorld w = collision_world(v3(0.0f, -9.81f, 0.0f));
    SinewColliderDesc desc[SHAPE_COUNT];
    SinewCollider shape[SHAPE_COUNT];
    SinewBody cloth[SHAPE_COUNT];
    SinewClothGridDesc gd;
    SinewMat4 pose;
    SinewVec3 p[SHAPE_CLOTH];
    float worst[SHAPE_COUNT], last[SHAPE_COUNT], thickness;
    char label[256];
    int k, f, ok;

    printf("-- colliders: sphere, tapered capsule, plane, box moved every frame\n");
    desc[0] = collider_desc(SINEW_SHAPE_SPHERE);
    desc[0].radius = 0.15f;
    desc[1] = collider_desc(SINEW_SHAPE_CAPSULE);
    desc[1].half_height = 0.16f;
    desc[1].radius0 = 0.1f;
    desc[1].radius1 = 0.05f;
    desc[2] = collider_desc(SINEW_SHAPE_PLANE);
    desc[3] = collider_desc(SINEW_SHAPE_BOX);
    desc[3].half_extents = v3(0.1f, 0.05f, 0.08f);
    for (k = 0; k < SHAPE_COUNT; k++) {
        desc[k].transform = shape_pose(k, 0);
        shape[k].id = 0;
        OK(sinew_collider_create(w, &desc[k], &shape[k]));
        gd = free_cloth(v3(-1.5f + (float)k, 0.3f, 0.0f));
        OK(sinew_cloth_create_grid(w, &gd, &cloth[k]));
        worst[k] = INFINITY;
    }
    thickness = gd.material.thickness;
    CHECK(shape[0].id != 0 && shape[1].id != 0 && shape[2].id != 0 && shape[3].id != 0, "collider handles are nonzero");
    CHECK(shape[0].id != shape[1].id && shape[1].id != shape[2].id && shape[2].id != shape[3].id && shape[0].id != shape[3].id, "collider handles are distinct");

    for (ok = 1, f = 1; f <= SHAPE_FRAMES && ok; f++) {
        for (k = 0; k < SHAPE_COUNT; k++) {
            pose = shape_pose(k, f);
            ok = ok && sinew_collider_set_transform(shape[k], &pose) == SINEW_OK;
        }
        ok = ok && sinew_world_step(w, FRAME) == SINEW_OK;
        for (k = 0; k < SHAPE_COUNT && ok; k++) {
            pose = shape_pose(k, f);
            ok = sinew_body_read_positions(cloth[k], p, SHAPE_CLOTH) == SINEW_OK;
            last[k] = closest_to_shape(&desc[k], &pose, p, SHAPE_CLOTH);
            worst[k] = fminf(worst[k], last[k]);
        }
    }
    CHECK(ok, "90 frames: sinew_collider_set_transform on all four (turning about Y, drifting), then sinew_world_step");
    for (k = 0; k < SHAPE_COUNT; k++) {
        snprintf(label, sizeof label, "%s: no particle centre came closer than thickness - 1 mm to its surface (closest %.4f m)", names[k], (double)worst[k]);
        CHECK(worst[k] >= thickness - 1e-3f, label);
        snprintf(label, sizeof label, "%s: the cloth rests on it at the end (%.4f m from its surface)", names[k], (double)last[k]);
        CHECK(last[k] < thickness + 0.01f, label);
    }
    for (k = 0; k < SHAPE_COUNT; k++) OK(sinew_collider_destroy(shape[k]));
    OK(sinew_world_step(w, FRAME));
    OK(sinew_world_destroy(w));
}

enum { DRAPE_SIDE = 16, DRAPE_VERTICES = DRAPE_SIDE * DRAPE_SIDE };

/* Closest particle centre of the drape to the sphere's centre. */
static float drape_closest(SinewBody cloth, SinewVec3 centre) {
    SinewVec3 p[DRAPE_VERTICES];
    float best = INFINITY;
    int i;
    if (sinew_body_read_positions(cloth, p, DRAPE_VERTICES) != SINEW_OK) return -1.0f;
    for (i = 0; i < DRAPE_VERTICES; i++) best = fminf(best, length3(v3(p[i].x - centre.x, p[i].y - centre.y, p[i].z - centre.z)));
    return best;
}

/* Steps `frames` frames; returns the closest approach to `centre` over all of them, or -1
 * if a call failed. */
static float drape_frames(SinewWorld w, SinewBody cloth, SinewVec3 centre, int frames) {
    float closest = INFINITY;
    int f;
    for (f = 0; f < frames; f++) {
        if (sinew_world_step(w, FRAME) != SINEW_OK) return -1.0f;
        closest = fminf(closest, drape_closest(cloth, centre));
    }
    return closest;
}

static void sphere_drape(void) {
    SinewWorld w = collision_world(v3(0.0f, -9.81f, 0.0f));
    SinewColliderDesc sd = collider_desc(SINEW_SHAPE_SPHERE), bd = collider_desc(SINEW_SHAPE_BOX);
    SinewCollider sphere, box;
    SinewClothGridDesc gd = free_cloth(v3(0.0f, 0.45f, 0.0f));
    SinewBody cloth;
    SinewMat4 m;
    SinewVec3 centre = v3(0.0f, 0.0f, 0.0f), p[DRAPE_VERTICES];
    const float radius = 0.3f;
    float closest, limit, thickness = gd.material.thickness;
    char label[256];

    printf("-- colliders: a cloth draped over a sphere\n");
    sd.radius = radius;
    sd.transform = mat_translate(centre.x, centre.y, centre.z);
    OK(sinew_collider_create(w, &sd, &sphere));
    gd.columns = DRAPE_SIDE;
    gd.rows = DRAPE_SIDE;
    OK(sinew_cloth_create_grid(w, &gd, &cloth));
    limit = radius + thickness - 1e-3f;
    closest = drape_frames(w, cloth, centre, 120);
    snprintf(label, sizeof label, "120 frames: no particle centre closer than radius + thickness - 1 mm (%.4f) to the centre (closest %.4f)", (double)limit, (double)closest);
    CHECK(closest >= limit, label);
    closest = drape_closest(cloth, centre);
    snprintf(label, sizeof label, "the drape lies on the sphere: closest centre %.4f m, within 1 cm of radius + thickness", (double)closest);
    CHECK(closest < radius + thickness + 0.01f, label);

    /* Refused moves leave the sphere where it was: the drape still rests on it. */
    m = mat_translate(0.0f, NAN, 0.0f);
    FAILS_ONLY(SINEW_NON_FINITE, sinew_collider_set_transform(sphere, &m));
    m = mat_translate(INFINITY, 0.0f, 0.0f);
    FAILS_ONLY(SINEW_NON_FINITE, sinew_collider_teleport(sphere, &m));
    m = mat_translate(0.0f, -1.0f, 0.0f);
    m.m[5] = 0.5f; /* squashed in Y: a non-uniform scale */
    FAILS_ONLY(SINEW_INVALID_ARGUMENT, sinew_collider_set_transform(sphere, &m));
    FAILS_ONLY(SINEW_INVALID_ARGUMENT, sinew_collider_teleport(sphere, &m));
    closest = drape_frames(w, cloth, centre, 30);
    CHECK(closest >= limit && closest < radius + thickness + 0.01f, "after the refused transforms the world steps and the drape still rests on the unmoved sphere");

    /* A second collider is left for sinew_world_destroy to free. */
    bd.transform = mat_translate(5.0f, 0.0f, 0.0f);
    OK(sinew_collider_create(w, &bd, &box));

    /* Destroyed, the sphere no longer holds the cloth. */
    OK(sinew_collider_destroy(sphere));
    OK(sinew_world_step(w, FRAME));
    CHECK(drape_frames(w, cloth, centre, 30) >= 0.0f, "stepping after sinew_collider_destroy is fine");
    OK(sinew_body_read_positions(cloth, p, DRAPE_VERTICES));
    CHECK(lowest_y(p, DRAPE_VERTICES) < -radius - 0.5f, "with the sphere destroyed, the cloth falls through where it was");
    FAILS_ONLY(SINEW_INVALID_HANDLE, sinew_collider_destroy(sphere));
    m = mat_identity();
    FAILS_ONLY(SINEW_INVALID_HANDLE, sinew_collider_set_transform(sphere, &m));
    FAILS_ONLY(SINEW_INVALID_HANDLE, sinew_collider_teleport(sphere, &m));
    FAILS_ONLY(SINEW_INVALID_HANDLE, sinew_collider_set_layers(sphere, 1));
    OK(sinew_world_step(w, FRAME));
    OK(sinew_world_destroy(w));
    FAILS_ONLY(SINEW_INVALID_HANDLE, sinew_collider_set_layers(box, 1));
    FAILS_ONLY(SINEW_INVALID_HANDLE, sinew_collider_destroy(box));
}

/* Lowest particle of a 4 x 4 cloth with collision_mask 1 after one second over a plane at
 * y = -0.5 created on `layers`, then moved to `new_layers` (0: left alone). */
static float fall_onto_plane(uint32_t layers, uint32_t new_layers) {
    SinewWorld w = collision_world(v3(0.0f, -9.81f, 0.0f));
    SinewColliderDesc cd = collider_desc(SINEW_SHAPE_PLANE);
    SinewClothGridDesc gd = free_cloth(v3(0.0f, 0.0f, 0.0f));
    SinewCollider plane;
    SinewBody cloth;
    SinewVec3 p[16];
    int f, ok;

    cd.layers = layers;
    cd.transform = mat_translate(0.0f, -0.5f, 0.0f);
    OK(sinew_collider_create(w, &cd, &plane));
    if (new_layers != 0) OK(sinew_collider_set_layers(plane, new_layers));
    gd.columns = 4;
    gd.rows = 4;
    gd.material.collision_mask = 1;
    OK(sinew_cloth_create_grid(w, &gd, &cloth));
    for (ok = 1, f = 0; f < 60; f++) ok = ok && sinew_world_step(w, FRAME) == SINEW_OK;
    CHECK(ok, "60 frames stepped");
    OK(sinew_body_read_positions(cloth, p, 16));
    OK(sinew_world_destroy(w));
    return lowest_y(p, 16);
}

static void collider_layers(void) {
    printf("-- colliders: layers and collision_mask\n");
    CHECK(fall_onto_plane(1, 0) > -0.5f, "a body with collision_mask 1 is held by a plane on layer 1");
    CHECK(fall_onto_plane(2, 0) < -1.0f, "a body with collision_mask 1 falls past a plane on layer 2");
    CHECK(fall_onto_plane(2, 3) > -0.5f, "sinew_collider_set_layers(plane, 3): layer 2 plane moved onto layers 1|2 holds it");
    CHECK(fall_onto_plane(1, 2) < -1.0f, "sinew_collider_set_layers(plane, 2): layer 1 plane moved to layer 2 no longer holds it");
}

/* Largest distance any particle of a flat, weightless 8 x 8 cloth moves in one frame while a
 * sphere goes from 0.5 m below it to 0.5 m above, by set_transform (swept) or teleport. */
static float sphere_through_cloth(int teleport) {
    SinewWorld w = collision_world(v3(0.0f, 0.0f, 0.0f));
    SinewColliderDesc cd = collider_desc(SINEW_SHAPE_SPHERE);
    SinewClothGridDesc gd = free_cloth(v3(0.0f, 0.0f, 0.0f));
    SinewCollider sphere;
    SinewBody cloth;
    SinewMat4 above = mat_translate(0.0f, 0.5f, 0.0f);
    SinewVec3 before[64], after[64];
    float moved;

    cd.transform = mat_translate(0.0f, -0.5f, 0.0f);
    OK(sinew_collider_create(w, &cd, &sphere));
    OK(sinew_cloth_create_grid(w, &gd, &cloth));
    OK(sinew_world_step(w, FRAME));
    OK(sinew_body_read_positions(cloth, before, 64));
    if (teleport) {
        OK(sinew_collider_teleport(sphere, &above));
    } else {
        OK(sinew_collider_set_transform(sphere, &above));
    }
    OK(sinew_world_step(w, FRAME));
    OK(sinew_world_step(w, FRAME));
    OK(sinew_body_read_positions(cloth, after, 64));
    moved = largest_move(before, after, 64);
    OK(sinew_world_destroy(w));
    return moved;
}

static void collider_teleport(void) {
    float swept, jumped;
    char label[256];

    printf("-- colliders: set_transform sweeps, teleport jumps\n");
    swept = sphere_through_cloth(0);
    jumped = sphere_through_cloth(1);
    snprintf(label, sizeof label, "set_transform through a cloth sweeps the sphere through it: the cloth is pushed (%.4f m)", (double)swept);
    CHECK(swept > 0.05f, label);
    snprintf(label, sizeof label, "sinew_collider_teleport across it touches nothing on the way (%.2g m)", (double)jumped);
    CHECK(jumped < 1e-5f, label);
}

/* A 6 x 6 cloth dropped onto a 10 x 10 hammock (corners pinned), paired or not. Gives the
 * closest distance between particles of the two over 90 frames and the lowest particle of
 * the upper cloth at the end. Contact is between particles, so thickness 0.02 (contact at
 * 0.04 m) keeps a particle from slipping through the middle of a 5 cm square of the other
 * cloth (0.035 m from its corners); at 0.01 it would pass between them. */
static void drop_on_hammock(uint32_t paired, float *out_closest, float *out_lowest) {
    SinewWorld w = collision_world(v3(0.0f, -9.81f, 0.0f));
    SinewClothGridDesc gd = free_cloth(v3(0.0f, 0.0f, 0.0f));
    SinewBody lower, upper;
    SinewVec3 a[100], b[36];
    const uint32_t corners[4] = {0, 9, 90, 99};
    float closest = INFINITY;
    int f, i, j, ok;

    gd.columns = 10;
    gd.rows = 10;
    gd.pin_mode = SINEW_PIN_LIST;
    gd.pin_indices = corners;
    gd.pin_count = 4;
    gd.material.thickness = 0.02f;
    gd.material.damping = 0.3f;
    OK(sinew_cloth_create_grid(w, &gd, &lower));
    gd.columns = 6;
    gd.rows = 6;
    gd.pin_mode = SINEW_PIN_NONE;
    gd.pin_indices = NULL;
    gd.pin_count = 0;
    gd.origin = v3(0.0f, 0.1f, 0.0f);
    OK(sinew_cloth_create_grid(w, &gd, &upper));
    if (paired) {
        OK(sinew_body_set_collision_pair(lower, upper, 1));
        OK(sinew_body_set_collision_pair(upper, lower, 1)); /* either order, twice: harmless */
    } else {
        OK(sinew_body_set_collision_pair(lower, upper, 1));
        OK(sinew_body_set_collision_pair(upper, lower, 0)); /* and off again */
    }
    for (ok = 1, f = 0; f < 90 && ok; f++) {
        ok = sinew_world_step(w, FRAME) == SINEW_OK && sinew_body_read_positions(lower, a, 100) == SINEW_OK &&
             sinew_body_read_positions(upper, b, 36) == SINEW_OK;
        for (i = 0; i < 100; i++) {
            for (j = 0; j < 36; j++) closest = fminf(closest, length3(v3(a[i].x - b[j].x, a[i].y - b[j].y, a[i].z - b[j].z)));
        }
    }
    CHECK(ok, "90 frames stepped and read");
    OK(sinew_world_destroy(w));
    *out_closest = closest;
    *out_lowest = lowest_y(b, 36);
}

static void collision_pairs(void) {
    float closest, lowest;
    char label[256];

    printf("-- sinew_body_set_collision_pair\n");
    drop_on_hammock(1, &closest, &lowest);
    snprintf(label, sizeof label, "paired cloths stay 0.9 x (thickness + thickness) apart in every frame (closest %.4f m)", (double)closest);
    CHECK(closest >= 0.9f * 0.04f, label);
    snprintf(label, sizeof label, "the paired upper cloth lies in the hammock (lowest y %.3f)", (double)lowest);
    CHECK(lowest > -0.2f, label);
    drop_on_hammock(0, &closest, &lowest);
    snprintf(label, sizeof label, "unpaired (pair turned off again) the upper cloth falls through (lowest y %.2f)", (double)lowest);
    CHECK(lowest < -0.5f, label);
}

static SinewCollider collider_from_id(uint64_t id) {
    SinewCollider c;
    c.id = id;
    return c;
}

/* Every way of getting a collider call wrong, against the scene's world: each must leave
 * the scene as it was and the world stepping. */
static void collider_errors(void) {
    SinewWorld world = g_scene.world, other;
    SinewBody grid = g_scene.body[0], foreign, as_body;
    SinewColliderDesc cd;
    SinewCollider probe, fresh, c_out;
    SinewWorldDesc wd;
    SinewRopeDesc rd = rope_desc();
    SinewMaterial mat;
    SinewMat4 m, far_below = mat_translate(0.0f, -100.0f, 0.0f);
    const char *msg;

    printf("-- colliders: bad input\n");
    /* A collider far below the scene: it touches nothing there. */
    cd = collider_desc(SINEW_SHAPE_SPHERE);
    cd.transform = far_below;
    OK(sinew_collider_create(world, &cd, &probe));

    c_out.id = 12345;
    FAILS(SINEW_NULL_POINTER, sinew_collider_desc_default(NULL));
    FAILS(SINEW_NULL_POINTER, sinew_collider_create(world, NULL, &c_out));
    FAILS(SINEW_NULL_POINTER, sinew_collider_create(world, &cd, NULL));
    FAILS(SINEW_NULL_POINTER, sinew_collider_set_transform(probe, NULL));
    FAILS(SINEW_NULL_POINTER, sinew_collider_teleport(probe, NULL));

    cd = collider_desc(SINEW_SHAPE_SPHERE);
    cd.radius = 0.0f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_collider_create(world, &cd, &c_out));
    cd.radius = -0.1f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_collider_create(world, &cd, &c_out));
    cd.radius = NAN;
    FAILS(SINEW_NON_FINITE, sinew_collider_create(world, &cd, &c_out));
    cd = collider_desc(SINEW_SHAPE_CAPSULE);
    cd.radius0 = 0.0f;
    cd.radius1 = 0.0f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_collider_create(world, &cd, &c_out));
    cd.radius1 = -0.1f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_collider_create(world, &cd, &c_out));
    cd = collider_desc(SINEW_SHAPE_CAPSULE);
    cd.radius0 = 0.0f; /* a cone to a point is fine */
    OK(sinew_collider_create(world, &cd, &fresh));
    OK(sinew_collider_destroy(fresh));
    cd = collider_desc(SINEW_SHAPE_BOX);
    cd.half_extents = v3(0.1f, -0.1f, 0.1f);
    FAILS(SINEW_INVALID_ARGUMENT, sinew_collider_create(world, &cd, &c_out));
    cd = collider_desc(42);
    FAILS(SINEW_INVALID_ARGUMENT, sinew_collider_create(world, &cd, &c_out));
    cd = collider_desc(0);
    FAILS(SINEW_INVALID_ARGUMENT, sinew_collider_create(world, &cd, &c_out));

    cd = collider_desc(SINEW_SHAPE_SPHERE);
    cd.transform.m[13] = NAN;
    FAILS(SINEW_NON_FINITE, sinew_collider_create(world, &cd, &c_out));
    m = far_below;
    m.m[0] = INFINITY;
    FAILS(SINEW_NON_FINITE, sinew_collider_set_transform(probe, &m));
    FAILS(SINEW_NON_FINITE, sinew_collider_teleport(probe, &m));
    cd = collider_desc(SINEW_SHAPE_SPHERE);
    cd.transform.m[5] = 2.0f; /* stretched along Y */
    FAILS(SINEW_INVALID_ARGUMENT, sinew_collider_create(world, &cd, &c_out));
    msg = sinew_last_error_message();
    CHECK(strstr(msg, "non-uniform") != NULL, "the message says the scale is non-uniform");
    m = mat_mul(far_below, mat_scale(2.0f));
    m.m[10] = 1.0f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_collider_set_transform(probe, &m));
    FAILS(SINEW_INVALID_ARGUMENT, sinew_collider_teleport(probe, &m));
    m = far_below;
    m.m[0] = -1.0f; /* a mirror */
    FAILS(SINEW_INVALID_ARGUMENT, sinew_collider_set_transform(probe, &m));
    m = far_below;
    m.m[3] = 0.5f; /* a projective row */
    FAILS(SINEW_INVALID_ARGUMENT, sinew_collider_set_transform(probe, &m));
    CHECK(c_out.id == 12345, "failed collider creates leave the out-pointer alone");
    /* A uniform scale and a rotation are accepted. */
    m = mat_mul(far_below, mat_mul(mat_rotate(0, 30.0f), mat_scale(2.0f)));
    OK(sinew_collider_set_transform(probe, &m));
    OK(sinew_collider_teleport(probe, &m));
    OK(sinew_world_step(world, FRAME));

    printf("-- colliders: material collision fields\n");
    OK(sinew_material_default(&mat));
    mat.thickness = -0.01f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_body_set_material(grid, &mat));
    OK(sinew_material_default(&mat));
    mat.static_friction = -1.0f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_body_set_material(grid, &mat));
    OK(sinew_material_default(&mat));
    mat.kinetic_friction = NAN;
    FAILS(SINEW_NON_FINITE, sinew_body_set_material(grid, &mat));

    printf("-- colliders: handles\n");
    FAILS(SINEW_INVALID_HANDLE, sinew_collider_set_transform(collider_from_id(grid.id), &far_below));
    FAILS(SINEW_INVALID_HANDLE, sinew_collider_teleport(collider_from_id(grid.id), &far_below));
    FAILS(SINEW_INVALID_HANDLE, sinew_collider_set_layers(collider_from_id(grid.id), 1));
    FAILS(SINEW_INVALID_HANDLE, sinew_collider_destroy(collider_from_id(grid.id)));
    FAILS(SINEW_INVALID_HANDLE, sinew_collider_destroy(collider_from_id(world.id)));
    FAILS(SINEW_INVALID_HANDLE, sinew_collider_destroy(collider_from_id(0)));
    as_body.id = probe.id;
    FAILS(SINEW_INVALID_HANDLE, sinew_body_destroy(as_body));
    FAILS(SINEW_INVALID_HANDLE, sinew_body_set_collision_pair(grid, as_body, 1));

    printf("-- colliders: collision pairs\n");
    FAILS(SINEW_INVALID_ARGUMENT, sinew_body_set_collision_pair(grid, grid, 1));
    FAILS(SINEW_INVALID_ARGUMENT, sinew_body_set_collision_pair(grid, grid, 0));
    OK(sinew_world_desc_default(&wd));
    wd.thread_count = 1;
    OK(sinew_world_create(&wd, &other));
    rd.pin_count = 0;
    OK(sinew_rope_create(other, &rd, &foreign));
    FAILS(SINEW_INVALID_ARGUMENT, sinew_body_set_collision_pair(grid, foreign, 1));
    cd = collider_desc(SINEW_SHAPE_SPHERE);
    OK(sinew_collider_create(other, &cd, &fresh));
    OK(sinew_world_destroy(other));
    FAILS(SINEW_INVALID_HANDLE, sinew_collider_create(other, &cd, &c_out));
    FAILS(SINEW_INVALID_HANDLE, sinew_collider_set_transform(fresh, &far_below));
    FAILS(SINEW_INVALID_HANDLE, sinew_collider_destroy(fresh));

    printf("-- colliders: during an asynchronous step\n");
    OK(sinew_world_step_begin(world, FRAME));
    FAILS_ONLY(SINEW_BUSY, sinew_collider_create(world, &cd, &c_out));
    FAILS_ONLY(SINEW_BUSY, sinew_collider_set_transform(probe, &far_below));
    FAILS_ONLY(SINEW_BUSY, sinew_collider_teleport(probe, &far_below));
    FAILS_ONLY(SINEW_BUSY, sinew_collider_set_layers(probe, 2));
    FAILS_ONLY(SINEW_BUSY, sinew_collider_destroy(probe));
    OK(sinew_world_step_end(world));
    CHECK(c_out.id == 12345, "a refused create during the step made no collider");

    printf("-- colliders: destroy\n");
    OK(sinew_collider_set_layers(probe, 2)); /* the refused destroy left it alive */
    OK(sinew_collider_destroy(probe));
    OK(sinew_world_step(world, FRAME));
    FAILS(SINEW_INVALID_HANDLE, sinew_collider_destroy(probe));
    FAILS(SINEW_INVALID_HANDLE, sinew_collider_set_transform(probe, &far_below));
    cd = collider_desc(SINEW_SHAPE_SPHERE);
    cd.transform = far_below;
    OK(sinew_collider_create(world, &cd, &fresh)); /* may reuse the slot, with a new serial */
    FAILS(SINEW_INVALID_HANDLE, sinew_collider_set_layers(probe, 1));
    OK(sinew_collider_set_layers(fresh, 1));
    OK(sinew_collider_destroy(fresh));
    OK(sinew_world_step(world, FRAME));
}

/* Static triangle-mesh colliders: the default, a cloth resting on a two-triangle floor at
 * one thickness above it, and each bad input with its code (the scene unchanged). */
static void mesh_colliders(void) {
    static const SinewVec3 floor_v[4] = {{-5.0f, 0.0f, -5.0f}, {-5.0f, 0.0f, 5.0f}, {5.0f, 0.0f, 5.0f}, {5.0f, 0.0f, -5.0f}};
    static const uint32_t floor_i[6] = {0, 1, 2, 0, 2, 3};
    static const uint32_t bad_i[6] = {0, 1, 2, 0, 2, 4};
    SinewVec3 nan_v[4];
    SinewColliderMeshDesc md;
    SinewColliderMeshInfo info;
    SinewCollider floor, sphere, c_out;
    SinewColliderDesc cd;
    SinewClothGridDesc gd;
    SinewBody cloth;
    SinewVec3 p[SHAPE_CLOTH];
    SinewWorld w;
    float worst = 0.0f;
    char label[256];
    int i, f;

    printf("-- mesh colliders\n");
    OK(sinew_collider_mesh_desc_default(&md));
    CHECK(md.vertex_count == 4 && md.index_count == 6 && md.vertices != NULL && md.indices != NULL && md.layers == 1 && md.share.id == 0 && md.skip_degenerate == 0,
          "mesh collider default: a floor of two triangles on layer 1, cooked, refusing degenerate triangles");
    w = collision_world(v3(0.0f, -9.81f, 0.0f));
    md.vertices = floor_v;
    md.vertex_count = 4;
    md.indices = floor_i;
    md.index_count = 6;
    md.transform = mat_translate(0.0f, -0.3f, 0.0f);
    OK(sinew_collider_create_mesh(w, &md, &floor));
    OK(sinew_collider_get_mesh_info(floor, &info));
    CHECK(info.triangle_count == 2 && info.vertex_count == 4 && info.skipped_triangles == 0 && info.node_count == 1 && info.bytes > 0, "mesh info: 2 triangles in one leaf");
    gd = free_cloth(v3(-0.2f, 0.0f, -0.2f));
    OK(sinew_cloth_create_grid(w, &gd, &cloth));
    for (f = 0; f < 120; f++) OK(sinew_world_step(w, FRAME));
    OK(sinew_body_read_positions(cloth, p, SHAPE_CLOTH));
    for (i = 0; i < SHAPE_CLOTH; i++) worst = fmaxf(worst, fabsf(p[i].y - (-0.3f + gd.material.thickness)));
    snprintf(label, sizeof label, "the cloth rests one thickness above the mesh floor (worst %.2g m)", (double)worst);
    CHECK(worst < 1e-3f, label);
    FAILS_ONLY(SINEW_INVALID_ARGUMENT, sinew_collider_set_transform(floor, &md.transform));
    OK(sinew_collider_teleport(floor, &md.transform));
    OK(sinew_world_destroy(w));

    /* Bad input, in the scene's world: each refused, the scene unchanged. */
    OK(sinew_collider_mesh_desc_default(&md));
    md.transform = mat_translate(0.0f, -100.0f, 0.0f);
    c_out.id = 12345;
    FAILS(SINEW_NULL_POINTER, sinew_collider_mesh_desc_default(NULL));
    FAILS(SINEW_NULL_POINTER, sinew_collider_create_mesh(g_scene.world, NULL, &c_out));
    FAILS(SINEW_NULL_POINTER, sinew_collider_create_mesh(g_scene.world, &md, NULL));
    md.indices = bad_i;
    FAILS(SINEW_OUT_OF_RANGE, sinew_collider_create_mesh(g_scene.world, &md, &c_out));
    OK(sinew_collider_mesh_desc_default(&md));
    for (i = 0; i < 4; i++) nan_v[i] = floor_v[i];
    nan_v[2].y = NAN;
    md.vertices = nan_v;
    FAILS(SINEW_NON_FINITE, sinew_collider_create_mesh(g_scene.world, &md, &c_out));
    md.vertices = NULL; /* with vertex_count 4 */
    FAILS(SINEW_NULL_POINTER, sinew_collider_create_mesh(g_scene.world, &md, &c_out));
    OK(sinew_collider_mesh_desc_default(&md));
    md.indices = NULL;
    md.index_count = 0; /* no triangles */
    FAILS(SINEW_INVALID_ARGUMENT, sinew_collider_create_mesh(g_scene.world, &md, &c_out));
    OK(sinew_collider_mesh_desc_default(&md));
    md.skip_degenerate = 2;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_collider_create_mesh(g_scene.world, &md, &c_out));
    CHECK(c_out.id == 12345, "refused mesh creations leave out_collider untouched");
    cd = collider_desc(SINEW_SHAPE_SPHERE);
    cd.transform = mat_translate(0.0f, -100.0f, 0.0f);
    OK(sinew_collider_create(g_scene.world, &cd, &sphere));
    FAILS(SINEW_INVALID_ARGUMENT, sinew_collider_get_mesh_info(sphere, &info));
    OK(sinew_collider_mesh_desc_default(&md));
    md.vertices = NULL;
    md.vertex_count = 0;
    md.indices = NULL;
    md.index_count = 0;
    md.share = sphere;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_collider_create_mesh(g_scene.world, &md, &c_out));
    OK(sinew_collider_destroy(sphere));
}

static void colliders(void) {
    moving_shapes();
    sphere_drape();
    collider_layers();
    collider_teleport();
    collision_pairs();
    mesh_colliders();
    collider_errors();
}

/* ---- teardown ----------------------------------------------------------------------- */

static void teardown(void) {
    SinewWorldStats st;
    SinewBodyInfo info;
    int i;

    printf("-- teardown\n");
    OK(sinew_body_destroy(g_scene.body[1]));
    OK(sinew_world_get_stats(g_scene.world, &st));
    CHECK(st.body_count == 2 && st.particle_count == 64 + 10, "destroying the mesh leaves 2 bodies, 74 particles");
    OK(sinew_world_step(g_scene.world, FRAME));
    OK(sinew_body_destroy(g_scene.body[0]));
    OK(sinew_body_destroy(g_scene.body[2]));
    OK(sinew_world_get_stats(g_scene.world, &st));
    CHECK(st.body_count == 0 && st.particle_count == 0, "no bodies left");
    OK(sinew_world_step(g_scene.world, FRAME));
    OK(sinew_world_destroy(g_scene.world));
    for (i = 0; i < BODY_COUNT; i++) FAILS_ONLY(SINEW_INVALID_HANDLE, sinew_body_get_info(g_scene.body[i], &info));
    FAILS_ONLY(SINEW_INVALID_HANDLE, sinew_world_step(g_scene.world, FRAME));
    FAILS_ONLY(SINEW_INVALID_HANDLE, sinew_world_destroy(g_scene.world));
}

/* Materials in physical units. Mass from density: a 16 x 16 grid 0.1 m apart (1.5 m x 1.5 m)
 * at 0.2 kg/m2 weighs 0.45 kg, whatever its particle count; bending stiffness; values out of
 * range are refused and create nothing. */
static void density(void) {
    SinewWorldDesc wd;
    SinewWorld w;
    SinewClothGridDesc gd;
    SinewBody b;
    SinewBodyInfo info;
    printf("-- mass from density\n");
    OK(sinew_world_desc_default(&wd));
    wd.thread_count = 1;
    OK(sinew_world_create(&wd, &w));
    OK(sinew_cloth_grid_desc_default(&gd));
    gd.material.density = 0.2f;
    OK(sinew_cloth_create_grid(w, &gd, &b));
    OK(sinew_body_get_info(b, &info));
    CHECK(near(info.mass, 0.2f * 1.5f * 1.5f, 1e-5f), "a 1.5 m square grid at 0.2 kg/m2 weighs 0.45 kg");
    gd.columns = gd.rows = 31;
    gd.spacing = 0.05f;
    OK(sinew_cloth_create_grid(w, &gd, &b));
    OK(sinew_body_get_info(b, &info));
    CHECK(near(info.mass, 0.45f, 1e-5f), "the same grid at twice the resolution weighs the same");
    gd.material.density = -1.0f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_cloth_create_grid(w, &gd, &b));
    gd.material.density = 2e6f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_cloth_create_grid(w, &gd, &b));
    gd.material.density = NAN;
    FAILS(SINEW_NON_FINITE, sinew_cloth_create_grid(w, &gd, &b));
    /* Bending by dihedral angles (N m): accepted in range, stepped; refused out of it. */
    gd.material.density = 0.2f;
    gd.material.bend_stiffness = 1e-4f;
    OK(sinew_cloth_create_grid(w, &gd, &b));
    OK(sinew_world_step(w, FRAME));
    gd.material.bend_stiffness = -1.0f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_cloth_create_grid(w, &gd, &b));
    gd.material.bend_stiffness = 2e5f;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_cloth_create_grid(w, &gd, &b));
    OK(sinew_world_destroy(w));
}

/* Every material preset (sinew_material_preset): a grid cloth takes each one at creation and
 * through sinew_body_set_material, and steps; a 1 m square denim grid weighs 0.4 kg (the
 * preset's kg/m2); a value no preset has is SINEW_INVALID_ARGUMENT and leaves the output as
 * it was. */
static void presets(void) {
    SinewWorldDesc wd;
    SinewWorld w;
    SinewClothGridDesc gd;
    SinewBody b, denim;
    SinewBodyInfo info;
    SinewMaterial m, before;
    uint32_t p;
    int accepted = 1;
    printf("-- material presets\n");
    OK(sinew_world_desc_default(&wd));
    wd.thread_count = 1;
    OK(sinew_world_create(&wd, &w));
    OK(sinew_cloth_grid_desc_default(&gd));
    gd.columns = gd.rows = 6;
    gd.spacing = 0.1f;
    for (p = SINEW_MATERIAL_SILK; p <= SINEW_MATERIAL_FLESH; ++p) {
        accepted = accepted && sinew_material_preset(p, &m) == SINEW_OK && m.density > 0.0f;
        gd.material = m;
        accepted = accepted && sinew_cloth_create_grid(w, &gd, &b) == SINEW_OK;
        accepted = accepted && sinew_body_set_material(b, &m) == SINEW_OK;
    }
    CHECK(accepted, "every preset (silk .. flesh) creates a grid and is accepted by sinew_body_set_material");
    OK(sinew_world_step(w, FRAME));
    OK(sinew_material_preset(SINEW_MATERIAL_DENIM, &gd.material));
    CHECK(gd.material.density == 0.4f && gd.material.bend_stiffness > 0.0f, "denim: 0.4 kg/m2, bending stiffness in N m");
    gd.columns = gd.rows = 11;
    gd.spacing = 0.1f;
    OK(sinew_cloth_create_grid(w, &gd, &denim));
    OK(sinew_body_get_info(denim, &info));
    CHECK(near(info.mass, 0.4f, 1e-5f), "a 1 m x 1 m denim grid weighs 0.4 kg");
    OK(sinew_world_destroy(w));
    OK(sinew_material_default(&m));
    m.density = 7.0f;
    before = m;
    FAILS(SINEW_INVALID_ARGUMENT, sinew_material_preset(SINEW_MATERIAL_FLESH + 1, &m));
    FAILS(SINEW_INVALID_ARGUMENT, sinew_material_preset(0xFFFFFFFFu, &m));
    CHECK(memcmp(&m, &before, sizeof m) == 0, "a refused preset leaves its output untouched");
    FAILS(SINEW_NULL_POINTER, sinew_material_preset(SINEW_MATERIAL_SILK, NULL));
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0); /* lines in order with the library's stderr */
    abi_and_defaults();
    create_scene();
    stepping();
    pins_and_material();
    density();
    presets();
    teleport();
    async_step();
    errors();
    handles();
    colliders();
    teardown();
    printf("c-client: all %d checks passed\n", g_passed);
    return 0;
}
