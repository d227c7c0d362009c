/* The soft-body calls of the Sinew C ABI from strict C99 (scripts/test-c.sh), every one of
 * them and every error path.
 *
 *   softbody errors    defaults; null pointers; an invalid world; lattices of 0 or 1 particle
 *                      along an axis, too many particles, NaN or non-positive spacing, a
 *                      non-unit or NaN orientation, too many cluster cells; tet meshes with an
 *                      out-of-range index, a degenerate tetrahedron (its index in the message),
 *                      an index count not a multiple of 4, too few positions, NaN positions;
 *                      settings out of range (SINEW_INVALID_ARGUMENT) or NaN
 *                      (SINEW_NON_FINITE); the soft-only calls on a cloth; a stale handle.
 *                      After each failing call: its code, its message, that nothing was
 *                      written or created or changed, and that the world still steps
 *   softbody physics   a 6 x 6 x 6 jelly 5 cm apart dropped onto a plane comes to rest with
 *                      its volume within 1 % of rest and no particle below the plane - 1 mm;
 *                      a cube of 5 tetrahedra dropped likewise keeps its volume within 2 %;
 *                      readback of a soft body's positions, normals and surface triangles
 *   softbody meshes    a render mesh (a cube split at its edges) embedded: read back exactly
 *                      as given, its indices, its volume at rest; refused meshes; a balloon
 *                      of it inflates with a gas, wound inward or with a bad pressure refused
 *   softbody           all three
 *
 * One line per check; the first failure exits with status 1. Everything is destroyed at the
 * end (valgrind). */

#include "sinew.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_FILE "softbody.c"
#define CHECK_PROGRAM "c-softbody"
#include "check.h"

#include "check_calls.h"

static SinewVec3 v3(float x, float y, float z) {
    SinewVec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

static const float FRAME = 1.0f / 60.0f;

static SinewWorld make_world(void) {
    SinewWorldDesc wd;
    SinewWorld w;
    OK(sinew_world_desc_default(&wd));
    wd.thread_count = 1;
    OK(sinew_world_create(&wd, &w));
    return w;
}

static uint32_t body_count(SinewWorld w) {
    SinewWorldStats st;
    OK(sinew_world_get_stats(w, &st));
    return st.body_count;
}

static SinewCollider floor_plane(SinewWorld w) {
    SinewColliderDesc cd;
    SinewCollider c;
    OK(sinew_collider_desc_default(&cd));
    cd.shape = SINEW_SHAPE_PLANE;
    memset(&cd.transform, 0, sizeof cd.transform);
    cd.transform.m[0] = cd.transform.m[5] = cd.transform.m[10] = cd.transform.m[15] = 1.0f;
    OK(sinew_collider_create(w, &cd, &c));
    return c;
}

/* A cube of side `side` with its lowest corner at `at`: 8 corners (corner c = i + 2j + 4k)
 * and 5 tetrahedra (one per odd corner and the central one), some wound negative on purpose
 * (the library keeps each positive). */
enum { CUBE_POSITIONS = 8, CUBE_TETS = 5 };
static const uint32_t cube_tets[4 * CUBE_TETS] = {0, 1, 2, 4, 3, 1, 2, 7, 5, 1, 4, 7, 6, 2, 4, 7, 1, 2, 4, 7};

static void cube_positions(SinewVec3 at, float side, SinewVec3 *p) {
    int c;
    for (c = 0; c < CUBE_POSITIONS; c++) {
        p[c] = v3(at.x + side * (float)(c & 1), at.y + side * (float)((c >> 1) & 1), at.z + side * (float)((c >> 2) & 1));
    }
}

static int same_settings(const SinewSoftSettings *a, const SinewSoftSettings *b) { return memcmp(a, b, sizeof *a) == 0; }

/* ---- errors ------------------------------------------------------------------------------ */

static void lattice_refused(const SinewSoftLatticeDesc *d, SinewResult code, const char *text, const char *what, int line) {
    SinewBody out;
    uint32_t before = body_count(g_world);
    out.id = 0;
    expect_error(what, sinew_softbody_create_lattice(g_world, d, &out), code, line);
    message_has(text, line);
    if (out.id != 0) fail(line, what, "a handle was written on failure");
    if (body_count(g_world) != before) fail(line, what, "a body was created on failure");
    pass("nothing written, no body created");
}
#define LATTICE_REFUSED(desc, code, text) lattice_refused(&(desc), (code), (text), "sinew_softbody_create_lattice (" text ")", __LINE__)

static void tets_refused(const SinewVec3 *p, size_t n, const uint32_t *idx, size_t count, const SinewMaterial *m, const SinewSoftSettings *s,
                         SinewResult code, const char *text, const char *what, int line) {
    SinewBody out;
    uint32_t before = body_count(g_world);
    out.id = 0;
    expect_error(what, sinew_softbody_create_tets(g_world, p, n, idx, count, m, s, &out), code, line);
    message_has(text, line);
    if (out.id != 0) fail(line, what, "a handle was written on failure");
    if (body_count(g_world) != before) fail(line, what, "a body was created on failure");
    pass("nothing written, no body created");
}
#define TETS_REFUSED(p, n, idx, count, m, s, code, text) tets_refused((p), (n), (idx), (count), (m), (s), (code), (text), "sinew_softbody_create_tets(" #p ", " #n ", " #idx ", " #count ", " #m ", " #s ") (" text ")", __LINE__)

static void settings_refused(SinewBody body, const SinewSoftSettings *bad, SinewResult code, const char *text, const char *what, int line) {
    SinewSoftSettings before, after;
    OK(sinew_softbody_get_settings(body, &before));
    expect_error(what, sinew_softbody_set_settings(body, bad), code, line);
    message_has(text, line);
    OK(sinew_softbody_get_settings(body, &after));
    if (!same_settings(&before, &after)) fail(line, what, "the settings changed although the call was refused");
    pass("settings unchanged");
}
#define SETTINGS_REFUSED(body, bad, code, text) settings_refused((body), &(bad), (code), (text), "sinew_softbody_set_settings (" text ")", __LINE__)

static void errors(void) {
    SinewSoftSettings s, bad_s, got;
    SinewSoftLatticeDesc d, bad;
    SinewMaterial m, bad_m;
    SinewBody jelly, cube, cloth, doomed, out;
    SinewClothGridDesc gd;
    SinewBodyInfo info;
    SinewWorld stale_world;
    SinewVec3 p[CUBE_POSITIONS], bad_p[CUBE_POSITIONS], com;
    uint32_t idx[4 * CUBE_TETS];
    size_t count = 0;
    float vol = -1.0f, rest = -1.0f;
    const float nan = (float)NAN;

    g_world = make_world();

    /* defaults */
    OK(sinew_soft_settings_default(&s));
    CHECK(s.volume_compliance == 0.0f && s.shape_stiffness == 0.5f && s.chapter_stiffness == 0 && s.shape_linear == 0.0f, "settings defaults: volume kept, stiffness 0.5");
    CHECK(s.plastic_yield == 0.1f && s.plastic_creep == 0.0f && s.plastic_max == 0.5f, "settings defaults: elastic (creep 0)");
    OK(sinew_soft_lattice_desc_default(&d));
    CHECK(d.nx == 4 && d.ny == 4 && d.nz == 4 && d.spacing == 0.05f, "lattice defaults: 4 x 4 x 4, 5 cm apart");
    CHECK(d.origin.x == 0.0f && d.origin.y == 0.0f && d.origin.z == 0.0f && d.orientation.w == 1.0f && d.orientation.x == 0.0f, "lattice defaults: at the origin, identity");
    CHECK(d.all_neighbours == 1 && d.cluster_cells == 0 && d.material.bend_compliance == 0.0f, "lattice defaults: 26 neighbours, one cluster, no bend");
    CHECK(same_settings(&d.soft, &s), "lattice defaults: the default settings");
    OK(sinew_material_default(&m));
    ERR(sinew_soft_settings_default(NULL), SINEW_NULL_POINTER);
    MESSAGE_HAS("out_settings");
    ERR(sinew_soft_lattice_desc_default(NULL), SINEW_NULL_POINTER);
    MESSAGE_HAS("out_desc");

    /* creation succeeding */
    d.origin = v3(0.0f, 1.0f, 0.0f);
    OK(sinew_softbody_create_lattice(g_world, &d, &jelly));
    OK(sinew_body_get_info(jelly, &info));
    CHECK(info.kind == SINEW_BODY_SOFT, "a lattice is SINEW_BODY_SOFT");
    CHECK(info.particle_count == 64 && info.vertex_count == 64, "a 4 x 4 x 4 lattice has 64 particles and vertices");
    cube_positions(v3(1.0f, 1.0f, 0.0f), 0.1f, p);
    OK(sinew_softbody_create_tets(g_world, p, CUBE_POSITIONS, cube_tets, 4 * CUBE_TETS, &m, &s, &cube));
    OK(sinew_body_get_info(cube, &info));
    CHECK(info.kind == SINEW_BODY_SOFT && info.particle_count == 8, "a tet cube is SINEW_BODY_SOFT with 8 particles");
    OK(sinew_softbody_get_volume(cube, &vol, &rest));
    CHECK(fabsf(rest - 1e-3f) < 1e-7f && fabsf(vol - rest) < 1e-7f, "the tet cube's rest volume is (0.1 m)^3, all 5 tetrahedra kept positive");
    OK(sinew_cloth_grid_desc_default(&gd));
    gd.origin = v3(-2.0f, 2.0f, 0.0f);
    OK(sinew_cloth_create_grid(g_world, &gd, &cloth));
    OK(sinew_world_step(g_world, FRAME));

    /* null pointers */
    out.id = 0;
    ERR(sinew_softbody_create_lattice(g_world, NULL, &out), SINEW_NULL_POINTER);
    MESSAGE_HAS("desc");
    ERR(sinew_softbody_create_lattice(g_world, &d, NULL), SINEW_NULL_POINTER);
    MESSAGE_HAS("out_body");
    ERR(sinew_softbody_create_tets(g_world, NULL, CUBE_POSITIONS, cube_tets, 4 * CUBE_TETS, &m, &s, &out), SINEW_NULL_POINTER);
    MESSAGE_HAS("positions");
    ERR(sinew_softbody_create_tets(g_world, p, CUBE_POSITIONS, NULL, 4 * CUBE_TETS, &m, &s, &out), SINEW_NULL_POINTER);
    MESSAGE_HAS("indices");
    ERR(sinew_softbody_create_tets(g_world, p, CUBE_POSITIONS, cube_tets, 4 * CUBE_TETS, NULL, &s, &out), SINEW_NULL_POINTER);
    MESSAGE_HAS("material");
    ERR(sinew_softbody_create_tets(g_world, p, CUBE_POSITIONS, cube_tets, 4 * CUBE_TETS, &m, NULL, &out), SINEW_NULL_POINTER);
    MESSAGE_HAS("settings");
    ERR(sinew_softbody_create_tets(g_world, p, CUBE_POSITIONS, cube_tets, 4 * CUBE_TETS, &m, &s, NULL), SINEW_NULL_POINTER);
    MESSAGE_HAS("out_body");
    CHECK(out.id == 0, "nothing written on failure");
    ERR(sinew_softbody_set_settings(jelly, NULL), SINEW_NULL_POINTER);
    ERR(sinew_softbody_get_settings(jelly, NULL), SINEW_NULL_POINTER);
    ERR(sinew_softbody_get_volume(jelly, NULL, &rest), SINEW_NULL_POINTER);
    MESSAGE_HAS("out_volume");
    ERR(sinew_softbody_get_volume(jelly, &vol, NULL), SINEW_NULL_POINTER);
    MESSAGE_HAS("out_rest_volume");
    ERR(sinew_body_get_center_of_mass(jelly, NULL), SINEW_NULL_POINTER);

    /* an invalid world */
    memset(&stale_world, 0, sizeof stale_world);
    ERR(sinew_softbody_create_lattice(stale_world, &d, &out), SINEW_INVALID_HANDLE);
    ERR(sinew_softbody_create_tets(stale_world, p, CUBE_POSITIONS, cube_tets, 4 * CUBE_TETS, &m, &s, &out), SINEW_INVALID_HANDLE);
    CHECK(out.id == 0, "nothing written for an invalid world");

    /* lattices refused */
    bad = d;
    bad.nx = 0;
    LATTICE_REFUSED(bad, SINEW_INVALID_ARGUMENT, "at least 2");
    bad = d;
    bad.ny = 1;
    LATTICE_REFUSED(bad, SINEW_INVALID_ARGUMENT, "at least 2");
    bad = d;
    bad.nx = bad.ny = bad.nz = 1;
    LATTICE_REFUSED(bad, SINEW_INVALID_ARGUMENT, "1 x 1 x 1");
    bad = d;
    bad.nx = bad.ny = bad.nz = 100000;
    LATTICE_REFUSED(bad, SINEW_TOO_LARGE, "particles");
    bad = d;
    bad.spacing = nan;
    LATTICE_REFUSED(bad, SINEW_NON_FINITE, "spacing");
    bad = d;
    bad.spacing = 0.0f;
    LATTICE_REFUSED(bad, SINEW_INVALID_ARGUMENT, "spacing");
    bad = d;
    bad.spacing = -0.05f;
    LATTICE_REFUSED(bad, SINEW_INVALID_ARGUMENT, "spacing");
    bad = d;
    bad.orientation.w = 2.0f;
    LATTICE_REFUSED(bad, SINEW_INVALID_ARGUMENT, "unit quaternion");
    bad = d;
    bad.orientation.w = 0.0f;
    LATTICE_REFUSED(bad, SINEW_INVALID_ARGUMENT, "unit quaternion");
    bad = d;
    bad.orientation.y = nan;
    LATTICE_REFUSED(bad, SINEW_NON_FINITE, "orientation");
    bad = d;
    bad.origin.x = nan;
    LATTICE_REFUSED(bad, SINEW_NON_FINITE, "origin");
    bad = d;
    bad.origin.x = 1e7f;
    LATTICE_REFUSED(bad, SINEW_INVALID_ARGUMENT, "origin");
    bad = d;
    bad.cluster_cells = 5000;
    LATTICE_REFUSED(bad, SINEW_INVALID_ARGUMENT, "cluster_cells");
    bad = d;
    bad.material.particle_mass = nan;
    LATTICE_REFUSED(bad, SINEW_NON_FINITE, "mass");
    bad = d;
    bad.soft.shape_stiffness = 1.5f;
    LATTICE_REFUSED(bad, SINEW_INVALID_ARGUMENT, "shape_stiffness");
    bad = d;
    bad.soft.volume_compliance = -1.0f;
    LATTICE_REFUSED(bad, SINEW_INVALID_ARGUMENT, "volume_compliance");
    bad = d;
    bad.soft.plastic_creep = nan;
    LATTICE_REFUSED(bad, SINEW_NON_FINITE, "plastic_creep");

    /* tet meshes refused */
    memcpy(idx, cube_tets, sizeof idx);
    idx[4 * 2 + 1] = CUBE_POSITIONS; /* tetrahedron 2 points past the positions */
    TETS_REFUSED(p, CUBE_POSITIONS, idx, 4 * CUBE_TETS, &m, &s, SINEW_OUT_OF_RANGE, "tetrahedron 2");
    memcpy(idx, cube_tets, sizeof idx);
    idx[4 * 3 + 0] = 0; /* tetrahedron 3: corners 0, 2, 4, 6 lie in the plane x = side's low face */
    idx[4 * 3 + 1] = 2;
    idx[4 * 3 + 2] = 4;
    idx[4 * 3 + 3] = 6;
    TETS_REFUSED(p, CUBE_POSITIONS, idx, 4 * CUBE_TETS, &m, &s, SINEW_INVALID_ARGUMENT, "tetrahedron 3");
    MESSAGE_HAS("degenerate");
    memcpy(idx, cube_tets, sizeof idx);
    idx[4 * 4 + 3] = idx[4 * 4 + 2]; /* tetrahedron 4 repeats a corner */
    TETS_REFUSED(p, CUBE_POSITIONS, idx, 4 * CUBE_TETS, &m, &s, SINEW_INVALID_ARGUMENT, "tetrahedron 4");
    TETS_REFUSED(p, CUBE_POSITIONS, cube_tets, 4 * CUBE_TETS - 1, &m, &s, SINEW_INVALID_ARGUMENT, "4 per tetrahedron");
    TETS_REFUSED(p, CUBE_POSITIONS, cube_tets, 6, &m, &s, SINEW_INVALID_ARGUMENT, "4 per tetrahedron");
    TETS_REFUSED(p, CUBE_POSITIONS, cube_tets, 0, &m, &s, SINEW_INVALID_ARGUMENT, "1 tetrahedron");
    TETS_REFUSED(p, 3, cube_tets, 4, &m, &s, SINEW_INVALID_ARGUMENT, "at least 4 positions");
    TETS_REFUSED(NULL, 0, cube_tets, 4, &m, &s, SINEW_INVALID_ARGUMENT, "at least 4 positions");
    memcpy(bad_p, p, sizeof bad_p);
    bad_p[5].y = nan;
    TETS_REFUSED(bad_p, CUBE_POSITIONS, cube_tets, 4 * CUBE_TETS, &m, &s, SINEW_NON_FINITE, "positions 5");
    bad_p[5].y = 1e9f;
    TETS_REFUSED(bad_p, CUBE_POSITIONS, cube_tets, 4 * CUBE_TETS, &m, &s, SINEW_INVALID_ARGUMENT, "positions 5");
    bad_s = s;
    bad_s.shape_linear = 2.0f;
    TETS_REFUSED(p, CUBE_POSITIONS, cube_tets, 4 * CUBE_TETS, &m, &bad_s, SINEW_INVALID_ARGUMENT, "shape_linear");
    bad_s = s;
    bad_s.volume_compliance = nan;
    TETS_REFUSED(p, CUBE_POSITIONS, cube_tets, 4 * CUBE_TETS, &m, &bad_s, SINEW_NON_FINITE, "volume_compliance");
    bad_m = m;
    bad_m.particle_mass = -1.0f;
    TETS_REFUSED(p, CUBE_POSITIONS, cube_tets, 4 * CUBE_TETS, &bad_m, &s, SINEW_INVALID_ARGUMENT, "mass");

    /* settings: refused whole, accepted whole */
    bad_s = s;
    bad_s.shape_stiffness = 1.01f;
    SETTINGS_REFUSED(jelly, bad_s, SINEW_INVALID_ARGUMENT, "shape_stiffness");
    bad_s = s;
    bad_s.shape_stiffness = 0.2f; /* valid, but with an invalid one beside it: nothing applied */
    bad_s.volume_compliance = 2000.0f;
    SETTINGS_REFUSED(jelly, bad_s, SINEW_INVALID_ARGUMENT, "volume_compliance");
    bad_s = s;
    bad_s.plastic_max = -0.5f;
    SETTINGS_REFUSED(jelly, bad_s, SINEW_INVALID_ARGUMENT, "plastic_max");
    bad_s = s;
    bad_s.plastic_yield = 1e4f;
    SETTINGS_REFUSED(jelly, bad_s, SINEW_INVALID_ARGUMENT, "plastic_yield");
    bad_s = s;
    bad_s.shape_stiffness = nan;
    SETTINGS_REFUSED(jelly, bad_s, SINEW_NON_FINITE, "shape_stiffness");
    bad_s = s;
    bad_s.shape_linear = (float)INFINITY;
    SETTINGS_REFUSED(jelly, bad_s, SINEW_NON_FINITE, "shape_linear");
    bad_s = s;
    bad_s.volume_compliance = 1e-6f;
    bad_s.shape_stiffness = 0.8f;
    bad_s.chapter_stiffness = 1;
    bad_s.shape_linear = 0.25f;
    bad_s.plastic_creep = 2.0f;
    OK(sinew_softbody_set_settings(jelly, &bad_s));
    OK(sinew_softbody_get_settings(jelly, &got));
    CHECK(same_settings(&got, &bad_s), "get_settings returns what set_settings was given");
    OK(sinew_softbody_set_settings(jelly, &s));
    OK(sinew_softbody_get_settings(cube, &got));
    CHECK(same_settings(&got, &s), "the tet body has the settings it was created with");

    /* the soft-only calls on a cloth */
    ERR(sinew_softbody_get_volume(cloth, &vol, &rest), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("not a soft body");
    ERR(sinew_softbody_get_settings(cloth, &got), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("not a soft body");
    ERR(sinew_softbody_set_settings(cloth, &s), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("not a soft body");
    OK(sinew_body_get_center_of_mass(cloth, &com));
    CHECK(fabsf(com.x + 2.0f) < 0.05f && com.y < 2.1f && com.y > 1.0f, "the centre of mass works on a cloth too");

    /* stale handles */
    OK(sinew_softbody_create_lattice(g_world, &d, &doomed));
    OK(sinew_body_destroy(doomed));
    ERR(sinew_softbody_get_volume(doomed, &vol, &rest), SINEW_INVALID_HANDLE);
    ERR(sinew_softbody_get_settings(doomed, &got), SINEW_INVALID_HANDLE);
    ERR(sinew_softbody_set_settings(doomed, &s), SINEW_INVALID_HANDLE);
    ERR(sinew_body_get_center_of_mass(doomed, &com), SINEW_INVALID_HANDLE);
    ERR(sinew_body_get_vertex_count(doomed, &count), SINEW_INVALID_HANDLE);
    ERR(sinew_body_destroy(doomed), SINEW_INVALID_HANDLE);
    memset(&out, 0, sizeof out);
    ERR(sinew_softbody_get_volume(out, &vol, &rest), SINEW_INVALID_HANDLE);

    /* still working after all that */
    OK(sinew_softbody_get_volume(jelly, &vol, &rest));
    CHECK(rest > 0.0f && fabsf(vol / rest - 1.0f) < 0.05f, "the jelly still has its volume");
    CHECK(body_count(g_world) == 3, "3 bodies: the jelly, the cube and the cloth");

    OK(sinew_body_destroy(cube));
    OK(sinew_body_destroy(jelly));
    OK(sinew_body_destroy(cloth));
    OK(sinew_world_destroy(g_world));
}

/* ---- physics ----------------------------------------------------------------------------- */

/* Steps `body` (on a plane) for up to `frames` frames; returns the frame it came to rest
 * (asleep, or no particle moved 1 mm/s) after frame 60, or -1. Tracks the lowest particle and
 * the worst volume error from frame 60 on. */
static int drop(SinewWorld w, SinewBody body, int frames, SinewVec3 *x, SinewVec3 *prev, size_t n, float *lowest, float *worst_volume) {
    int f;
    size_t i;
    int rest_at = -1;
    *lowest = 1e30f;
    *worst_volume = 0.0f;
    OK(sinew_body_read_positions(body, prev, n));
    for (f = 0; f < frames; f++) {
        SinewBodyInfo info;
        float v, r, fastest = 0.0f;
        if (sinew_world_step(w, FRAME) != SINEW_OK) fail(__LINE__, "sinew_world_step", sinew_last_error_message());
        if (sinew_body_read_positions(body, x, n) != SINEW_OK) fail(__LINE__, "sinew_body_read_positions", sinew_last_error_message());
        if (sinew_softbody_get_volume(body, &v, &r) != SINEW_OK) fail(__LINE__, "sinew_softbody_get_volume", sinew_last_error_message());
        if (sinew_body_get_info(body, &info) != SINEW_OK) fail(__LINE__, "sinew_body_get_info", sinew_last_error_message());
        for (i = 0; i < n; i++) {
            float dx = x[i].x - prev[i].x, dy = x[i].y - prev[i].y, dz = x[i].z - prev[i].z;
            float speed = sqrtf(dx * dx + dy * dy + dz * dz) / FRAME;
            if (x[i].y < *lowest) *lowest = x[i].y;
            if (speed > fastest) fastest = speed;
            prev[i] = x[i];
        }
        if (f > 60) {
            float e = fabsf(v / r - 1.0f);
            if (e > *worst_volume) *worst_volume = e;
            if (rest_at < 0 && (fastest < 1e-3f || info.sleeping)) rest_at = f;
        }
    }
    return rest_at;
}

enum { J = 6, JN = J * J * J };

static void physics(void) {
    SinewSoftLatticeDesc d;
    SinewSoftSettings s;
    SinewMaterial m;
    SinewWorld w;
    SinewCollider plane;
    SinewBody jelly, cube;
    SinewBodyInfo info;
    SinewVec3 x[JN], prev[JN], normals[JN], com, cp[CUBE_POSITIONS];
    static uint32_t indices[3 * 4 * 6 * (J - 1) * (J - 1)];
    static unsigned char used[JN];
    size_t count = 0, i;
    float lowest, worst, v, r;
    int rest_at, top_ok = 1, bottom_ok = 1, unit = 1, surface_only = 1, all_surface = 1, in_range = 1;
    char line[256];
    const size_t tris = 2 * 6 * (J - 1) * (J - 1);

    /* A 6 x 6 x 6 jelly, 5 cm apart, 1 kg, soft edges, shape matching 0.3 (the law test of
     * tests/softbody_physics.rs), dropped 0.5 m onto a plane. */
    w = g_world = make_world();
    plane = floor_plane(w);
    OK(sinew_soft_lattice_desc_default(&d));
    d.nx = d.ny = d.nz = J;
    d.spacing = 0.05f;
    d.origin = v3(0.0f, 0.6f, 0.0f);
    d.material.particle_mass = 1.0f / (float)JN;
    d.material.stretch_compliance = 1e-4f;
    d.material.shear_compliance = 1e-4f;
    d.material.damping = 0.1f;
    d.soft.shape_stiffness = 0.3f;
    OK(sinew_softbody_create_lattice(w, &d, &jelly));
    OK(sinew_body_get_vertex_count(jelly, &count));
    CHECK(count == JN, "a lattice's vertex count is its particle count (216)");
    rest_at = drop(w, jelly, 240, x, prev, JN, &lowest, &worst);
    snprintf(line, sizeof line, "jelly 6^3 dropped 0.5 m: lowest particle %.2f mm above the plane, worst volume error after landing %.3f %%, at rest at frame %d",
             (double)(lowest * 1e3f), (double)(worst * 100.0f), rest_at);
    pass(line);
    CHECK(rest_at >= 0, "the jelly comes to rest");
    CHECK(lowest > -1e-3f, "no particle of the jelly below the plane - 1 mm");
    CHECK(worst < 0.01f, "the jelly's volume within 1 % of rest once landed");
    OK(sinew_softbody_get_volume(jelly, &v, &r));
    CHECK(fabsf(r - 0.25f * 0.25f * 0.25f) < 1e-6f, "its rest volume is (5 x 5 cm)^3");
    CHECK(fabsf(v / r - 1.0f) < 0.01f, "at rest its volume is within 1 % of rest");
    OK(sinew_body_get_center_of_mass(jelly, &com));
    snprintf(line, sizeof line, "centre of mass at rest (%.4f, %.4f, %.4f)", (double)com.x, (double)com.y, (double)com.z);
    pass(line);
    CHECK(fabsf(com.x) < 0.01f && fabsf(com.z) < 0.01f && com.y > 0.1f && com.y < 0.16f, "the centre of mass rests half its height above the plane");

    /* Readback: positions, normals, the surface's triangles. */
    OK(sinew_body_get_info(jelly, &info));
    CHECK(info.triangle_count == tris, "the surface has 2 triangles per boundary cell face (300)");
    OK(sinew_body_get_index_count(jelly, &count));
    CHECK(count == 3 * tris, "index count is 3 per surface triangle");
    ERR(sinew_body_read_indices(jelly, indices, count - 1), SINEW_BUFFER_TOO_SMALL);
    OK(sinew_body_read_indices(jelly, indices, count));
    OK(sinew_body_read_positions(jelly, x, JN));
    OK(sinew_body_read_normals(jelly, normals, JN));
    memset(used, 0, sizeof used);
    for (i = 0; i < count; i++) {
        if (indices[i] >= JN) in_range = 0;
        else used[indices[i]] = 1;
    }
    CHECK(in_range, "every index names a particle");
    for (i = 0; i < JN; i++) {
        unsigned a = (unsigned)(i % J), b = (unsigned)(i / J % J), c = (unsigned)(i / (J * J));
        int boundary = a == 0 || b == 0 || c == 0 || a == J - 1 || b == J - 1 || c == J - 1;
        float len = sqrtf(normals[i].x * normals[i].x + normals[i].y * normals[i].y + normals[i].z * normals[i].z);
        if (!boundary && used[i]) surface_only = 0;
        if (boundary && !used[i]) all_surface = 0;
        if (boundary && fabsf(len - 1.0f) > 1e-3f) unit = 0;
        /* Particle (i, j, k) = x + 6 (y + 6 z): the top face is j = 5, the bottom j = 0; away from its edges. */
        if (a > 0 && a < J - 1 && c > 0 && c < J - 1) {
            if (b == J - 1 && normals[i].y < 0.9f) top_ok = 0;
            if (b == 0 && normals[i].y > -0.9f) bottom_ok = 0;
        }
    }
    CHECK(surface_only, "no interior particle is in a surface triangle");
    CHECK(all_surface, "every boundary particle is in a surface triangle");
    CHECK(unit, "surface normals are unit length");
    CHECK(top_ok, "the top face's normals point up (outward)");
    CHECK(bottom_ok, "the bottom face's normals point down (outward)");
    ERR(sinew_body_read_positions(jelly, x, JN - 1), SINEW_BUFFER_TOO_SMALL);

    /* A cube of 5 tetrahedra, 10 cm, 1 kg, dropped 0.3 m onto the plane beside the jelly. */
    OK(sinew_soft_settings_default(&s));
    s.shape_stiffness = 0.3f;
    OK(sinew_material_default(&m));
    m.particle_mass = 1.0f / 8.0f;
    m.stretch_compliance = 1e-4f;
    m.damping = 0.1f;
    m.bend_compliance = 0.0f;
    cube_positions(v3(1.0f, 0.3f, 0.0f), 0.1f, cp);
    OK(sinew_softbody_create_tets(w, cp, CUBE_POSITIONS, cube_tets, 4 * CUBE_TETS, &m, &s, &cube));
    OK(sinew_body_get_vertex_count(cube, &count));
    CHECK(count == CUBE_POSITIONS, "a tet body's vertex count is its position count (8)");
    OK(sinew_body_get_index_count(cube, &count));
    CHECK(count == 36, "the tet cube's surface: 12 triangles (2 per face)");
    OK(sinew_body_read_indices(cube, indices, count));
    in_range = 1;
    for (i = 0; i < count; i++) {
        if (indices[i] >= CUBE_POSITIONS) in_range = 0;
    }
    CHECK(in_range, "every index of the tet cube names a corner");
    rest_at = drop(w, cube, 240, x, prev, CUBE_POSITIONS, &lowest, &worst);
    OK(sinew_softbody_get_volume(cube, &v, &r));
    snprintf(line, sizeof line, "tet cube dropped 0.3 m: lowest corner %.2f mm above the plane, worst volume error after landing %.3f %%, at rest at frame %d, volume %.4f of rest",
             (double)(lowest * 1e3f), (double)(worst * 100.0f), rest_at, (double)(v / r));
    pass(line);
    CHECK(rest_at >= 0, "the tet cube comes to rest");
    CHECK(lowest > -1e-3f, "no corner of the tet cube below the plane - 1 mm");
    CHECK(fabsf(v / r - 1.0f) < 0.02f, "at rest the tet cube's volume is within 2 % of rest");
    OK(sinew_body_read_normals(cube, normals, CUBE_POSITIONS));
    OK(sinew_body_read_positions(cube, x, CUBE_POSITIONS));
    unit = 1;
    for (i = 0; i < CUBE_POSITIONS; i++) {
        /* a corner's normal points away from the cube's centre */
        float len = sqrtf(normals[i].x * normals[i].x + normals[i].y * normals[i].y + normals[i].z * normals[i].z);
        if (fabsf(len - 1.0f) > 1e-3f) unit = 0;
    }
    CHECK(unit, "the tet cube's normals are unit length");
    OK(sinew_body_get_center_of_mass(cube, &com));
    {
        float ox = 0.0f, oy = 0.0f;
        int outward = 1;
        for (i = 0; i < CUBE_POSITIONS; i++) {
            ox = x[i].x - com.x;
            oy = x[i].y - com.y;
            if (ox * normals[i].x + oy * normals[i].y + (x[i].z - com.z) * normals[i].z <= 0.0f) outward = 0;
        }
        CHECK(outward, "every corner's normal points away from the centre of mass (outward)");
    }

    OK(sinew_collider_destroy(plane));
    OK(sinew_body_destroy(cube));
    OK(sinew_body_destroy(jelly));
    OK(sinew_world_destroy(w));
}

/* A closed cube of side 2h at c as a renderer has it: 24 vertices (4 per face, split at the
 * edges for flat normals), 12 triangles wound outward. */
static void render_cube(SinewVec3 c, float h, SinewVec3 *pos, uint32_t *idx) {
    static const float n[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    int f, k;
    for (f = 0; f < 6; f++) {
        /* Two axes spanning the face, u x v = n. */
        float u[3], v[3];
        int a = n[f][0] != 0.0f ? 0 : (n[f][1] != 0.0f ? 1 : 2);
        int b = (a + 1) % 3, d = (a + 2) % 3;
        float s = n[f][a];
        u[0] = u[1] = u[2] = 0.0f;
        v[0] = v[1] = v[2] = 0.0f;
        u[b] = 1.0f;
        v[d] = s;
        for (k = 0; k < 4; k++) {
            float su = (k == 1 || k == 2) ? 1.0f : -1.0f, sv = (k >= 2) ? 1.0f : -1.0f;
            pos[f * 4 + k] = v3(c.x + h * (n[f][0] + su * u[0] + sv * v[0]), c.y + h * (n[f][1] + su * u[1] + sv * v[1]),
                                c.z + h * (n[f][2] + su * u[2] + sv * v[2]));
        }
        idx[f * 6 + 0] = (uint32_t)(f * 4 + 0);
        idx[f * 6 + 1] = (uint32_t)(f * 4 + 1);
        idx[f * 6 + 2] = (uint32_t)(f * 4 + 2);
        idx[f * 6 + 3] = (uint32_t)(f * 4 + 0);
        idx[f * 6 + 4] = (uint32_t)(f * 4 + 2);
        idx[f * 6 + 5] = (uint32_t)(f * 4 + 3);
    }
}

/* Soft bodies from a render mesh (embedded: read back as given) and balloons (a gas). */
static void meshes(void) {
    SinewWorldDesc wd;
    SinewWorld w;
    SinewVec3 pos[24], back[24];
    uint32_t idx[36], bad_idx[36];
    SinewSoftMeshDesc md, bad;
    SinewClothMeshDesc cm;
    SinewSoftSettings ss;
    SinewBody body, balloon, none;
    float v = 0.0f, rest = 0.0f, v_start = 0.0f;
    int i, frame, exact = 1;
    OK(sinew_world_desc_default(&wd));
    wd.thread_count = 1;
    wd.gravity = v3(0.0f, 0.0f, 0.0f);
    OK(sinew_world_create(&wd, &w));
    g_world = w;
    render_cube(v3(0.1f, 1.0f, -0.2f), 0.15f, pos, idx);

    OK(sinew_soft_mesh_desc_default(&md));
    CHECK(md.positions == NULL && md.vertex_count == 0 && md.resolution == 8 && md.cluster_cells == 0, "sinew_soft_mesh_desc_default: no mesh, resolution 8, one cluster");
    md.positions = pos;
    md.vertex_count = 24;
    md.indices = idx;
    md.index_count = 36;
    md.resolution = 4;
    OK(sinew_softbody_create_from_mesh(w, &md, &body));
    OK(sinew_body_read_positions(body, back, 24));
    for (i = 0; i < 24; i++) {
        if (memcmp(&back[i], &pos[i], sizeof pos[i]) != 0) exact = 0;
    }
    CHECK(exact, "a render mesh embedded at rest reads back exactly as given (24 split vertices)");
    {
        size_t count = 0;
        uint32_t got[36];
        OK(sinew_body_get_index_count(body, &count));
        CHECK(count == 36, "its index count is the render mesh's");
        OK(sinew_body_read_indices(body, got, 36));
        CHECK(memcmp(got, idx, sizeof idx) == 0, "its indices are the render mesh's");
    }
    for (frame = 0; frame < 30; frame++) OK(sinew_world_step(w, FRAME));
    OK(sinew_softbody_get_volume(body, &v, &rest));
    CHECK(rest > 0.0f && fabsf(v / rest - 1.0f) < 1e-3f, "the embedded body keeps its volume at rest");

    none.id = 0;
    bad = md;
    bad.resolution = 0;
    ERR(sinew_softbody_create_from_mesh(w, &bad, &none), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("resolution");
    bad = md;
    memcpy(bad_idx, idx, sizeof idx);
    bad_idx[7] = 99;
    bad.indices = bad_idx;
    ERR(sinew_softbody_create_from_mesh(w, &bad, &none), SINEW_OUT_OF_RANGE);
    MESSAGE_HAS("99");
    bad = md;
    bad.index_count = 35;
    ERR(sinew_softbody_create_from_mesh(w, &bad, &none), SINEW_INVALID_ARGUMENT);
    ERR(sinew_softbody_create_from_mesh(w, NULL, &none), SINEW_NULL_POINTER);
    CHECK(none.id == 0, "refused meshes write no handle");

    /* A balloon of the same cube, welded (its split vertices share corners), holding a gas. */
    OK(sinew_cloth_mesh_desc_default(&cm));
    cm.positions = pos;
    cm.vertex_count = 24;
    cm.indices = idx;
    cm.index_count = 36;
    cm.weld_distance = 1e-5f;
    cm.material.stretch_compliance = 1e-2f;
    cm.material.shear_compliance = 1e-2f;
    cm.material.bend_compliance = 1e3f;
    cm.material.damping = 3.0f;
    OK(sinew_soft_settings_default(&ss));
    ss.shape_stiffness = 0.0f;
    ss.pressure = 30.0f;
    OK(sinew_softbody_create_balloon(w, &cm, &ss, &balloon));
    OK(sinew_softbody_get_volume(balloon, &v_start, &rest));
    for (frame = 0; frame < 120; frame++) OK(sinew_world_step(w, FRAME));
    OK(sinew_softbody_get_volume(balloon, &v, &rest));
    printf("     balloon: volume %.4f of rest after 2 s at 30 Pa (started at %.4f)\n", (double)(v / rest), (double)(v_start / rest));
    CHECK(v > 1.01f * rest, "a balloon with a gas inside inflates");
    /* Wound inward, it encloses no volume: refused. */
    for (i = 0; i < 12; i++) {
        bad_idx[i * 3 + 0] = idx[i * 3 + 0];
        bad_idx[i * 3 + 1] = idx[i * 3 + 2];
        bad_idx[i * 3 + 2] = idx[i * 3 + 1];
    }
    cm.indices = bad_idx;
    ERR(sinew_softbody_create_balloon(w, &cm, &ss, &none), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("no volume");
    cm.indices = idx;
    ss.pressure = -1.0f;
    ERR(sinew_softbody_create_balloon(w, &cm, &ss, &none), SINEW_INVALID_ARGUMENT);
    ss.pressure = NAN;
    ERR(sinew_softbody_create_balloon(w, &cm, &ss, &none), SINEW_NON_FINITE);
    CHECK(none.id == 0, "refused balloons write no handle");

    OK(sinew_body_destroy(balloon));
    OK(sinew_body_destroy(body));
    OK(sinew_world_destroy(w));
}

int main(int argc, char **argv) {
    int all = argc < 2;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (all || strcmp(argv[1], "errors") == 0) errors();
    if (all || strcmp(argv[1], "physics") == 0) physics();
    if (all || strcmp(argv[1], "meshes") == 0) meshes();
    printf("c-softbody: all %d checks passed\n", g_passed);
    return 0;
}
