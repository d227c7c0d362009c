/* The ragdoll calls of the Sinew C ABI from strict C99 (scripts/test-c.sh), every one of them
 * and every error path.
 *
 *   ragdoll errors    the checks of the ABI: defaults, creation, null pointers, stale and
 *                     foreign handles, lengths, short buffers, NaN/Inf, ranges, bone
 *                     indices, parent order; after each failing call the code, its message,
 *                     and that the world still steps
 *   ragdoll physics   the same calls succeeding against laws: free fall, a kinematic bone
 *                     following its targets and keeping its velocity when released, an
 *                     impulse changing velocity by impulse/mass, readback forms agreeing,
 *                     the humanoid template, a cloth on a ragdoll (needs the rigid-body core)
 *   ragdoll           both
 *
 * One line per check; the first failure exits with status 1. Everything is destroyed at the
 * end (valgrind). */

#include "sinew.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_FILE "ragdoll.c"
#define CHECK_PROGRAM "c-ragdoll"
#include "check.h"

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

static SinewVec3 v3(float x, float y, float z) {
    SinewVec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

static SinewQuat quat_identity(void) {
    SinewQuat q;
    q.x = 0.0f;
    q.y = 0.0f;
    q.z = 0.0f;
    q.w = 1.0f;
    return q;
}

static SinewMat4 translation(float x, float y, float z) {
    SinewMat4 m;
    memset(&m, 0, sizeof m);
    m.m[0] = m.m[5] = m.m[10] = m.m[15] = 1.0f;
    m.m[12] = x;
    m.m[13] = y;
    m.m[14] = z;
    return m;
}

static float dist3(SinewVec3 a, SinewVec3 b) {
    return sqrtf((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z));
}

static const float FRAME = 1.0f / 60.0f;

enum { CHAIN = 3 };

/* A hanging chain from `top`, 0.3 m apart: a root, a hinge, a swing-twist joint. */
static void chain(SinewVec3 top, SinewBoneDesc *b, int n) {
    int i;
    for (i = 0; i < n; i++) {
        OK(sinew_bone_desc_default(&b[i]));
        b[i].parent = i - 1;
        b[i].position = v3(top.x, top.y - 0.3f * (float)i, top.z);
        b[i].shape_offset = v3(0.0f, -0.15f, 0.0f);
        b[i].joint.kind = i == 0 ? SINEW_JOINT_FREE : i == 1 ? SINEW_JOINT_HINGE : SINEW_JOINT_SWING_TWIST;
    }
}

static SinewWorld make_world(void) {
    SinewWorldDesc wd;
    SinewWorld w;
    OK(sinew_world_desc_default(&wd));
    wd.thread_count = 1;
    OK(sinew_world_create(&wd, &w));
    return w;
}

/* ---- errors: no rigid-body physics needed ----------------------------------------------- */

static void errors(void) {
    SinewRagdollSettings set, bad_set;
    SinewBoneDesc bones[CHAIN], bad[CHAIN], many[257];
    SinewJointDesc joint;
    SinewHumanoidBones h;
    SinewBoneDesc hdescs[SINEW_HUMANOID_BONE_COUNT];
    SinewRagdoll r, doomed, out, foreign;
    SinewWorld other;
    SinewBody cloth;
    SinewClothGridDesc gd;
    SinewVec3 p[CHAIN], pv[CHAIN], lv[CHAIN], av[CHAIN];
    SinewQuat q[CHAIN], qv[CHAIN];
    SinewMat4 m[CHAIN], mv[CHAIN];
    uint32_t pins[2] = {0, 1}, pin_bones[2] = {0, 2}, far_pins[2] = {0, 999}, bad_bones[2] = {0, 3};
    SinewVec3 offs[2];
    size_t count = 0;
    uint32_t flag = 7, bone = 77;
    int i;

    g_world = make_world();
    OK(sinew_ragdoll_settings_default(&set));
    CHECK(set.stabilize == 1 && set.self_collision == 1 && set.collide_parent_child == 0 && set.kinematic == 0, "settings defaults");
    OK(sinew_joint_desc_default(&joint));
    CHECK(joint.kind == SINEW_JOINT_FREE && joint.hinge_min == -90.0f && joint.swing1 == 30.0f && joint.high_twist == 20.0f, "joint defaults");
    chain(v3(0.0f, 2.0f, 0.0f), bones, CHAIN);
    CHECK(bones[0].shape == SINEW_SHAPE_CAPSULE && bones[0].mass == 1.0f && bones[0].rotation.w == 1.0f, "bone defaults: a 1 kg capsule");
    OK(sinew_ragdoll_create(g_world, &set, bones, CHAIN, &r));
    OK(sinew_ragdoll_get_bone_count(r, &count));
    CHECK(count == CHAIN, "the ragdoll has 3 bones");
    OK(sinew_world_step(g_world, FRAME));

    OK(sinew_cloth_grid_desc_default(&gd));
    OK(sinew_cloth_create_grid(g_world, &gd, &cloth));

    /* null pointers */
    out.id = 0;
    ERR(sinew_ragdoll_create(g_world, NULL, bones, CHAIN, &out), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_create(g_world, &set, NULL, CHAIN, &out), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_create(g_world, &set, bones, CHAIN, NULL), SINEW_NULL_POINTER);
    CHECK(out.id == 0, "nothing written on failure");
    memset(&h, 0, sizeof h);
    h.pelvis = v3(0.0f, 1.0f, 0.0f);
    h.up = v3(0.0f, 1.0f, 0.0f);
    h.forward = v3(0.0f, 0.0f, 1.0f);
    h.total_mass = 20.0f;
    ERR(sinew_ragdoll_create_humanoid(g_world, NULL, &set, &out), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_create_humanoid(g_world, &h, NULL, &out), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_create_humanoid(g_world, &h, &set, NULL), SINEW_NULL_POINTER);
    ERR(sinew_humanoid_bone_descs(NULL, hdescs, SINEW_HUMANOID_BONE_COUNT), SINEW_NULL_POINTER);
    ERR(sinew_humanoid_bone_descs(&h, NULL, SINEW_HUMANOID_BONE_COUNT), SINEW_NULL_POINTER);
    ERR(sinew_bone_desc_default(NULL), SINEW_NULL_POINTER);
    ERR(sinew_joint_desc_default(NULL), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_settings_default(NULL), SINEW_NULL_POINTER);
    ERR(sinew_humanoid_bones_default(NULL), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_get_bone_count(r, NULL), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_is_bone_kinematic(r, 0, NULL), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_is_asleep(r, NULL), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_apply_impulse(r, v3(0, 0, 0), v3(1, 0, 0), NULL), SINEW_NULL_POINTER);
    MESSAGE_HAS("out_bone");
    for (i = 0; i < CHAIN; i++) {
        p[i] = v3(0.0f, 2.0f - 0.3f * (float)i, 0.0f);
        q[i] = quat_identity();
        m[i] = translation(0.0f, 2.0f - 0.3f * (float)i, 0.0f);
        pv[i] = v3(0, 0, 0);
        mv[i] = translation(0, 0, 0);
    }
    ERR(sinew_ragdoll_set_targets(r, NULL, CHAIN, q, CHAIN), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_set_targets(r, p, CHAIN, NULL, CHAIN), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_set_target_matrices(r, NULL, CHAIN), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_set_pose(r, p, CHAIN, NULL, CHAIN, 0), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_read_pose(r, NULL, CHAIN, qv, CHAIN), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_read_pose(r, pv, CHAIN, NULL, CHAIN), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_read_matrices(r, NULL, CHAIN), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_read_velocities(r, lv, CHAIN, NULL, CHAIN), SINEW_NULL_POINTER);
    ERR(sinew_body_attach_to_ragdoll(cloth, r, NULL, 2, pin_bones, 2, offs, 2), SINEW_NULL_POINTER);

    /* short buffers and lengths */
    ERR(sinew_ragdoll_read_pose(r, pv, 2, qv, CHAIN), SINEW_BUFFER_TOO_SMALL);
    MESSAGE_HAS("holds 2 elements but the ragdoll has 3 bones");
    ERR(sinew_ragdoll_read_pose(r, NULL, 0, NULL, 0), SINEW_BUFFER_TOO_SMALL);
    ERR(sinew_ragdoll_read_matrices(r, mv, 1), SINEW_BUFFER_TOO_SMALL);
    ERR(sinew_ragdoll_read_velocities(r, lv, CHAIN, av, 0), SINEW_BUFFER_TOO_SMALL);
    ERR(sinew_humanoid_bone_descs(&h, hdescs, SINEW_HUMANOID_BONE_COUNT - 1), SINEW_BUFFER_TOO_SMALL);
    CHECK(mv[0].m[0] == 1.0f && mv[0].m[12] == 0.0f && pv[0].y == 0.0f, "short buffers are not written");
    ERR(sinew_ragdoll_set_targets(r, p, 2, q, CHAIN), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("positions has 2 entries but the ragdoll has 3 bones");
    ERR(sinew_ragdoll_set_targets(r, p, CHAIN, q, 1), SINEW_INVALID_ARGUMENT);
    ERR(sinew_ragdoll_set_target_matrices(r, m, 4 - 2), SINEW_INVALID_ARGUMENT);
    ERR(sinew_ragdoll_set_pose(r, p, CHAIN, q, 0, 1), SINEW_INVALID_ARGUMENT);
    ERR(sinew_ragdoll_set_targets(r, p, (size_t)-1, q, CHAIN), SINEW_TOO_LARGE);
    ERR(sinew_ragdoll_create(g_world, &set, bones, 0, &out), SINEW_INVALID_ARGUMENT);
    for (i = 0; i < 257; i++) {
        OK(sinew_bone_desc_default(&many[i]));
    }
    ERR(sinew_ragdoll_create(g_world, &set, many, 257, &out), SINEW_TOO_LARGE);
    MESSAGE_HAS("at most 256 bones");

    /* bone lists */
    memcpy(bad, bones, sizeof bad);
    bad[1].parent = 2;
    ERR(sinew_ragdoll_create(g_world, &set, bad, CHAIN, &out), SINEW_OUT_OF_RANGE);
    MESSAGE_HAS("bone 1: parent");
    memcpy(bad, bones, sizeof bad);
    bad[2].parent = -2;
    ERR(sinew_ragdoll_create(g_world, &set, bad, CHAIN, &out), SINEW_OUT_OF_RANGE);
    memcpy(bad, bones, sizeof bad);
    bad[0].joint.kind = SINEW_JOINT_FIXED;
    ERR(sinew_ragdoll_create(g_world, &set, bad, CHAIN, &out), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("root");
    memcpy(bad, bones, sizeof bad);
    bad[1].position.y = NAN;
    ERR(sinew_ragdoll_create(g_world, &set, bad, CHAIN, &out), SINEW_NON_FINITE);
    memcpy(bad, bones, sizeof bad);
    bad[1].rotation.w = 3.0f;
    ERR(sinew_ragdoll_create(g_world, &set, bad, CHAIN, &out), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("unit quaternion");
    memcpy(bad, bones, sizeof bad);
    bad[2].shape = SINEW_SHAPE_PLANE;
    ERR(sinew_ragdoll_create(g_world, &set, bad, CHAIN, &out), SINEW_INVALID_ARGUMENT);
    memcpy(bad, bones, sizeof bad);
    bad[1].joint.kind = 9;
    ERR(sinew_ragdoll_create(g_world, &set, bad, CHAIN, &out), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("unknown joint kind 9");
    memcpy(bad, bones, sizeof bad);
    bad[1].joint.hinge_min = 20.0f;
    bad[1].joint.hinge_max = -20.0f;
    ERR(sinew_ragdoll_create(g_world, &set, bad, CHAIN, &out), SINEW_INVALID_ARGUMENT);
    memcpy(bad, bones, sizeof bad);
    bad[2].joint.swing2 = 190.0f;
    ERR(sinew_ragdoll_create(g_world, &set, bad, CHAIN, &out), SINEW_OUT_OF_RANGE);
    memcpy(bad, bones, sizeof bad);
    bad[1].joint.swing1 = INFINITY;
    ERR(sinew_ragdoll_create(g_world, &set, bad, CHAIN, &out), SINEW_NON_FINITE);
    MESSAGE_HAS("unused by a hinge");
    memcpy(bad, bones, sizeof bad);
    bad[2].mass = -1.0f;
    ERR(sinew_ragdoll_create(g_world, &set, bad, CHAIN, &out), SINEW_INVALID_ARGUMENT);
    bad_set = set;
    bad_set.max_mass_ratio = 0.0f;
    ERR(sinew_ragdoll_create(g_world, &bad_set, bones, CHAIN, &out), SINEW_OUT_OF_RANGE);
    bad_set = set;
    bad_set.linear_damping = NAN;
    ERR(sinew_ragdoll_create(g_world, &bad_set, bones, CHAIN, &out), SINEW_NON_FINITE);
    CHECK(out.id == 0, "no ragdoll came out of a refused description");

    /* humanoids */
    h.head.x = NAN;
    ERR(sinew_ragdoll_create_humanoid(g_world, &h, &set, &out), SINEW_NON_FINITE);
    ERR(sinew_humanoid_bone_descs(&h, hdescs, SINEW_HUMANOID_BONE_COUNT), SINEW_NON_FINITE);
    MESSAGE_HAS("humanoid bone head");
    h.head.x = 0.0f;
    h.forward = v3(0.0f, 3.0f, 0.0f);
    ERR(sinew_ragdoll_create_humanoid(g_world, &h, &set, &out), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("parallel");
    h.forward = v3(0.0f, 0.0f, 1.0f);
    h.total_mass = -5.0f;
    ERR(sinew_ragdoll_create_humanoid(g_world, &h, &set, &out), SINEW_INVALID_ARGUMENT);
    h.total_mass = 20.0f;

    /* floats of the per-bone calls */
    p[1].x = NAN;
    ERR(sinew_ragdoll_set_targets(r, p, CHAIN, q, CHAIN), SINEW_NON_FINITE);
    MESSAGE_HAS("positions[1]");
    p[1].x = 5e6f;
    ERR(sinew_ragdoll_set_pose(r, p, CHAIN, q, CHAIN, 0), SINEW_INVALID_ARGUMENT);
    p[1].x = 0.0f;
    q[2].y = INFINITY;
    ERR(sinew_ragdoll_set_targets(r, p, CHAIN, q, CHAIN), SINEW_NON_FINITE);
    q[2].y = 0.5f;
    ERR(sinew_ragdoll_set_pose(r, p, CHAIN, q, CHAIN, 1), SINEW_INVALID_ARGUMENT);
    q[2].y = 0.0f;
    m[0].m[14] = NAN;
    ERR(sinew_ragdoll_set_target_matrices(r, m, CHAIN), SINEW_NON_FINITE);
    m[0].m[14] = 0.0f;
    m[2].m[0] = m[2].m[5] = m[2].m[10] = 0.5f;
    ERR(sinew_ragdoll_set_target_matrices(r, m, CHAIN), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("matrices[2] has scale 0.5");
    m[2].m[0] = m[2].m[5] = m[2].m[10] = 1.0f;
    ERR(sinew_ragdoll_apply_impulse(r, v3(NAN, 0, 0), v3(1, 0, 0), &bone), SINEW_NON_FINITE);
    ERR(sinew_ragdoll_apply_impulse(r, v3(0, 1, 0), v3(0, 0, 1e8f), &bone), SINEW_INVALID_ARGUMENT);
    CHECK(bone == 77, "out_bone untouched on failure");
    ERR(sinew_ragdoll_apply_bone_impulse(r, 0, v3(0, 1, 0), v3(INFINITY, 0, 0)), SINEW_NON_FINITE);
    ERR(sinew_ragdoll_apply_explosion(r, v3(0, 1, 0), NAN, 1.0f), SINEW_NON_FINITE);
    ERR(sinew_ragdoll_apply_explosion(r, v3(0, 1, 0), 10.0f, 0.0f), SINEW_INVALID_ARGUMENT);
    ERR(sinew_ragdoll_apply_explosion(r, v3(0, 1, 0), 10.0f, -1.0f), SINEW_INVALID_ARGUMENT);
    ERR(sinew_ragdoll_add_force(r, 0, v3(0, 1, 0), v3(0, -INFINITY, 0)), SINEW_NON_FINITE);
    ERR(sinew_ragdoll_add_force(r, 0, v3(0, 1, 0), v3(0, 1e9f, 0)), SINEW_INVALID_ARGUMENT);

    /* bone indices */
    ERR(sinew_ragdoll_set_bone_kinematic(r, CHAIN, 1), SINEW_OUT_OF_RANGE);
    MESSAGE_HAS("bone 3 is out of range: the ragdoll has 3 bones");
    ERR(sinew_ragdoll_is_bone_kinematic(r, 100, &flag), SINEW_OUT_OF_RANGE);
    CHECK(flag == 7, "out_kinematic untouched on failure");
    ERR(sinew_ragdoll_apply_bone_impulse(r, CHAIN, v3(0, 1, 0), v3(1, 0, 0)), SINEW_OUT_OF_RANGE);
    ERR(sinew_ragdoll_add_force(r, 0xFFFFFFFFu, v3(0, 1, 0), v3(1, 0, 0)), SINEW_OUT_OF_RANGE);
    ERR(sinew_ragdoll_set_bone_pair_collision(r, 0, CHAIN, 1), SINEW_OUT_OF_RANGE);
    ERR(sinew_ragdoll_set_bone_pair_collision(r, 1, 1, 1), SINEW_INVALID_ARGUMENT);

    /* a body on a ragdoll */
    offs[0] = v3(0.0f, 0.1f, 0.0f);
    offs[1] = v3(0.0f, -0.1f, 0.0f);
    ERR(sinew_body_attach_to_ragdoll(cloth, r, pins, 2, pin_bones, 1, offs, 2), SINEW_INVALID_ARGUMENT);
    ERR(sinew_body_attach_to_ragdoll(cloth, r, far_pins, 2, pin_bones, 2, offs, 2), SINEW_OUT_OF_RANGE);
    MESSAGE_HAS("vertices[1] = 999");
    ERR(sinew_body_attach_to_ragdoll(cloth, r, pins, 2, bad_bones, 2, offs, 2), SINEW_OUT_OF_RANGE);
    offs[1].z = NAN;
    ERR(sinew_body_attach_to_ragdoll(cloth, r, pins, 2, pin_bones, 2, offs, 2), SINEW_NON_FINITE);
    offs[1].z = 0.0f;

    /* handles: stale, wrong kind, foreign, of a destroyed world */
    OK(sinew_ragdoll_create(g_world, &set, bones, 2, &doomed));
    OK(sinew_ragdoll_destroy(doomed));
    ERR(sinew_ragdoll_destroy(doomed), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_get_bone_count(doomed, &count), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_set_kinematic(doomed, 1), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_set_bone_kinematic(doomed, 0, 1), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_is_bone_kinematic(doomed, 0, &flag), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_set_targets(doomed, p, 2, q, 2), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_set_target_matrices(doomed, m, 2), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_set_pose(doomed, p, 2, q, 2, 0), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_apply_impulse(doomed, v3(0, 1, 0), v3(1, 0, 0), &bone), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_apply_bone_impulse(doomed, 0, v3(0, 1, 0), v3(1, 0, 0)), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_apply_explosion(doomed, v3(0, 1, 0), 1.0f, 1.0f), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_add_force(doomed, 0, v3(0, 1, 0), v3(1, 0, 0)), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_read_pose(doomed, pv, CHAIN, qv, CHAIN), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_read_matrices(doomed, mv, CHAIN), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_read_velocities(doomed, lv, CHAIN, av, CHAIN), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_is_asleep(doomed, &flag), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_wake(doomed), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_set_bone_pair_collision(doomed, 0, 1, 0), SINEW_INVALID_HANDLE);
    ERR(sinew_body_attach_to_ragdoll(cloth, doomed, pins, 2, pin_bones, 2, offs, 2), SINEW_INVALID_HANDLE);
    ERR(sinew_body_set_ragdoll_collision(cloth, doomed, 1), SINEW_INVALID_HANDLE);
    out.id = cloth.id;
    ERR(sinew_ragdoll_wake(out), SINEW_INVALID_HANDLE);
    MESSAGE_HAS("ragdoll handle");
    out.id = 0;
    ERR(sinew_ragdoll_wake(out), SINEW_INVALID_HANDLE);
    {
        SinewBody as_body;
        as_body.id = r.id;
        ERR(sinew_body_destroy(as_body), SINEW_INVALID_HANDLE);
    }
    other = make_world();
    OK(sinew_ragdoll_create(other, &set, bones, 2, &foreign));
    ERR(sinew_body_set_ragdoll_collision(cloth, foreign, 1), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("different worlds");
    ERR(sinew_body_attach_to_ragdoll(cloth, foreign, pins, 2, pin_bones, 2, offs, 2), SINEW_INVALID_ARGUMENT);
    OK(sinew_world_destroy(other));
    ERR(sinew_ragdoll_get_bone_count(foreign, &count), SINEW_INVALID_HANDLE);

    /* busy during an asynchronous step */
    OK(sinew_world_step_begin(g_world, FRAME));
    CHECK(sinew_ragdoll_get_bone_count(r, &count) == SINEW_BUSY, "get_bone_count during an async step is SINEW_BUSY");
    CHECK(sinew_ragdoll_destroy(r) == SINEW_BUSY, "destroy during an async step is SINEW_BUSY");
    CHECK(sinew_ragdoll_create(g_world, &set, bones, CHAIN, &out) == SINEW_BUSY, "create during an async step is SINEW_BUSY");
    OK(sinew_world_step_end(g_world));

    OK(sinew_ragdoll_get_bone_count(r, &count));
    CHECK(count == CHAIN, "the ragdoll is unchanged by every refused call");
    {
        SinewWorldStats st;
        OK(sinew_world_get_stats(g_world, &st));
        CHECK(st.ragdoll_count == 1 && st.bone_count == CHAIN && st.recovered_ragdolls == 0, "stats count the ragdoll and its bones");
    }
    OK(sinew_ragdoll_destroy(r));
    OK(sinew_world_destroy(g_world));
    CHECK(sinew_ragdoll_get_bone_count(r, &count) == SINEW_INVALID_HANDLE, "a destroyed world's ragdolls are invalid");
}

/* ---- physics: needs the rigid-body core -------------------------------------------------- */

static SinewRagdoll ball(SinewWorld w, SinewVec3 at, float mass, int kinematic) {
    SinewRagdollSettings s;
    SinewBoneDesc b;
    SinewRagdoll r;
    OK(sinew_ragdoll_settings_default(&s));
    s.linear_damping = 0.0f;
    s.angular_damping = 0.0f;
    s.sleep_threshold = 0.0f;
    s.kinematic = (uint32_t)kinematic;
    OK(sinew_bone_desc_default(&b));
    b.position = at;
    b.shape = SINEW_SHAPE_SPHERE;
    b.radius = 0.1f;
    b.mass = mass;
    OK(sinew_ragdoll_create(w, &s, &b, 1, &r));
    return r;
}

static void physics(void) {
    SinewRagdoll r, chain_r, humanoid, edited;
    SinewRagdollSettings set;
    SinewBoneDesc bones[CHAIN], hdescs[SINEW_HUMANOID_BONE_COUNT];
    SinewHumanoidBones h;
    SinewVec3 p, lin, ang, pos[SINEW_HUMANOID_BONE_COUNT], lv[CHAIN], av[CHAIN], target;
    SinewQuat q, rot[SINEW_HUMANOID_BONE_COUNT], ident = quat_identity();
    SinewMat4 mats[CHAIN], m;
    SinewBody cape;
    SinewClothGridDesc gd;
    uint32_t flag, bone = 99, pins[2] = {0, 1}, pin_bones[2];
    SinewVec3 offs[2], tp[CHAIN];
    SinewQuat tq[CHAIN];
    size_t count;
    float t, expected, x = 0.0f;
    int i;

    g_world = make_world();
    /* free fall */
    r = ball(g_world, v3(0.0f, 10.0f, 0.0f), 1.0f, 0);
    for (i = 0; i < 30; i++) OK(sinew_world_step(g_world, FRAME));
    OK(sinew_ragdoll_read_pose(r, &p, 1, &q, 1));
    t = 30.0f * FRAME;
    expected = 10.0f - 0.5f * 9.81f * t * t;
    CHECK(fabsf(p.y - expected) < 0.01f * (10.0f - expected), "a dynamic bone falls as 1/2 g t^2 (within 1 %)");
    OK(sinew_ragdoll_read_velocities(r, &lin, 1, &ang, 1));
    CHECK(fabsf(lin.y + 9.81f * t) < 0.01f * 9.81f * t, "its velocity is -g t (within 1 %)");
    OK(sinew_ragdoll_destroy(r));

    /* kinematic: follows its targets, then keeps its velocity */
    OK(sinew_world_set_gravity(g_world, v3(0, 0, 0)));
    r = ball(g_world, v3(0.0f, 1.0f, 0.0f), 1.0f, 1);
    OK(sinew_ragdoll_is_bone_kinematic(r, 0, &flag));
    CHECK(flag == 1, "created kinematic");
    for (i = 0; i < 20; i++) {
        x += 0.05f;
        target = v3(x, 1.0f, 0.0f);
        OK(sinew_ragdoll_set_targets(r, &target, 1, &ident, 1));
        OK(sinew_world_step(g_world, FRAME));
    }
    OK(sinew_ragdoll_read_pose(r, &p, 1, &q, 1));
    CHECK(dist3(p, target) < 1e-4f, "a kinematic bone is at its target");
    OK(sinew_ragdoll_read_velocities(r, &lin, 1, &ang, 1));
    CHECK(fabsf(lin.x - 3.0f) < 0.03f, "its tracked velocity is the animation's 3 m/s");
    OK(sinew_ragdoll_set_kinematic(r, 0));
    OK(sinew_world_step(g_world, FRAME));
    OK(sinew_ragdoll_read_velocities(r, &lin, 1, &ang, 1));
    CHECK(fabsf(lin.x - 3.0f) < 0.03f, "released, it keeps 3 m/s");
    OK(sinew_ragdoll_set_bone_kinematic(r, 0, 1));
    m = translation(5.0f, 1.0f, 0.0f);
    OK(sinew_ragdoll_set_target_matrices(r, &m, 1));
    OK(sinew_world_step(g_world, FRAME));
    OK(sinew_ragdoll_read_matrices(r, &m, 1));
    CHECK(fabsf(m.m[12] - 5.0f) < 1e-4f && fabsf(m.m[13] - 1.0f) < 1e-4f, "the matrix targets move it the same way");
    OK(sinew_ragdoll_destroy(r));

    /* impulses */
    r = ball(g_world, v3(0.0f, 1.0f, 0.0f), 2.0f, 0);
    OK(sinew_ragdoll_apply_bone_impulse(r, 0, v3(0.0f, 1.0f, 0.0f), v3(1.0f, 0.0f, 0.0f)));
    OK(sinew_world_step(g_world, FRAME));
    OK(sinew_ragdoll_read_velocities(r, &lin, 1, &ang, 1));
    CHECK(fabsf(lin.x - 0.5f) < 1e-4f, "1 N s on 2 kg gives 0.5 m/s");
    OK(sinew_ragdoll_add_force(r, 0, v3(0.0f, 1.0f, 0.0f), v3(0.0f, 0.0f, 120.0f)));
    OK(sinew_world_step(g_world, FRAME));
    OK(sinew_ragdoll_read_velocities(r, &lin, 1, &ang, 1));
    CHECK(fabsf(lin.z - 1.0f) < 1e-3f, "120 N for 1/60 s on 2 kg gives 1 m/s");
    OK(sinew_ragdoll_apply_explosion(r, v3(0.0f, 0.5f, 0.0f), 1.0f, 3.0f));
    OK(sinew_world_step(g_world, FRAME));
    OK(sinew_ragdoll_read_velocities(r, &lin, 1, &ang, 1));
    CHECK(lin.y > 0.0f, "an explosion below pushes it up");
    OK(sinew_ragdoll_settings_default(&set));
    chain(v3(3.0f, 2.0f, 0.0f), bones, CHAIN);
    OK(sinew_ragdoll_create(g_world, &set, bones, CHAIN, &chain_r));
    OK(sinew_ragdoll_apply_impulse(chain_r, v3(3.2f, 1.3f, 0.0f), v3(-1.0f, 0.0f, 0.0f), &bone));
    CHECK(bone == 2, "the impulse hits the nearest bone");
    OK(sinew_ragdoll_set_bone_pair_collision(chain_r, 0, 2, 0));
    for (i = 0; i < CHAIN; i++) {
        tp[i] = v3(1.0f, 3.0f - 0.3f * (float)i, 0.0f);
        tq[i] = ident;
    }
    OK(sinew_ragdoll_set_pose(chain_r, tp, CHAIN, tq, CHAIN, 0));
    OK(sinew_ragdoll_read_pose(chain_r, pos, CHAIN, rot, CHAIN));
    CHECK(dist3(pos[2], tp[2]) < 1e-5f, "set_pose teleports the bones");
    OK(sinew_ragdoll_read_velocities(chain_r, lv, CHAIN, av, CHAIN));
    CHECK(lv[1].x == 0.0f && lv[1].y == 0.0f && av[1].z == 0.0f, "at rest after set_pose(keep_velocity 0)");
    OK(sinew_world_step(g_world, FRAME));
    OK(sinew_ragdoll_read_pose(chain_r, pos, CHAIN, rot, CHAIN));
    OK(sinew_ragdoll_read_matrices(chain_r, mats, CHAIN));
    CHECK(fabsf(mats[1].m[12] - pos[1].x) < 1e-5f && fabsf(mats[1].m[13] - pos[1].y) < 1e-5f && mats[1].m[15] == 1.0f,
          "matrices and positions agree");
    OK(sinew_ragdoll_wake(chain_r));
    OK(sinew_ragdoll_is_asleep(chain_r, &flag));
    CHECK(flag == 0, "awake after wake");
    OK(sinew_ragdoll_destroy(chain_r));
    OK(sinew_ragdoll_destroy(r));

    /* the humanoid template, a cape on it */
    OK(sinew_world_set_gravity(g_world, v3(0.0f, -9.81f, 0.0f)));
    OK(sinew_humanoid_bones_default(&h));
    CHECK(h.head.y > h.pelvis.y && h.total_mass == 20.0f, "the default humanoid stands, 20 kg");
    OK(sinew_ragdoll_settings_default(&set));
    OK(sinew_ragdoll_create_humanoid(g_world, &h, &set, &humanoid));
    OK(sinew_ragdoll_get_bone_count(humanoid, &count));
    CHECK(count == SINEW_HUMANOID_BONE_COUNT, "11 bones");
    OK(sinew_humanoid_bone_descs(&h, hdescs, SINEW_HUMANOID_BONE_COUNT));
    CHECK(hdescs[SINEW_HUMANOID_PELVIS].parent == -1 && hdescs[SINEW_HUMANOID_LEFT_KNEE].joint.kind == SINEW_JOINT_HINGE,
          "the template's list: pelvis the root, knees on hinges");
    hdescs[SINEW_HUMANOID_HEAD].mass = 3.0f;
    OK(sinew_ragdoll_create(g_world, &set, hdescs, SINEW_HUMANOID_BONE_COUNT, &edited));
    OK(sinew_cloth_grid_desc_default(&gd));
    gd.pin_mode = SINEW_PIN_NONE;
    gd.origin = v3(h.middle_spine.x, h.middle_spine.y, h.middle_spine.z - 0.2f);
    OK(sinew_cloth_create_grid(g_world, &gd, &cape));
    pin_bones[0] = pin_bones[1] = SINEW_HUMANOID_MIDDLE_SPINE;
    offs[0] = v3(-0.1f, 0.0f, -0.2f);
    offs[1] = v3(0.1f, 0.0f, -0.2f);
    OK(sinew_body_attach_to_ragdoll(cape, humanoid, pins, 2, pin_bones, 2, offs, 2));
    OK(sinew_body_set_ragdoll_collision(cape, humanoid, 1));
    for (i = 0; i < 30; i++) OK(sinew_world_step(g_world, FRAME));
    OK(sinew_ragdoll_read_pose(humanoid, pos, SINEW_HUMANOID_BONE_COUNT, rot, SINEW_HUMANOID_BONE_COUNT));
    CHECK(pos[SINEW_HUMANOID_PELVIS].y < h.pelvis.y - 0.1f, "the humanoid falls");
    OK(sinew_body_set_ragdoll_collision(cape, humanoid, 0));
    OK(sinew_ragdoll_destroy(humanoid));
    OK(sinew_ragdoll_destroy(edited));
    OK(sinew_world_step(g_world, FRAME));
    OK(sinew_world_destroy(g_world));
}

int main(int argc, char **argv) {
    int all = argc < 2;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (all || strcmp(argv[1], "errors") == 0) errors();
    if (all || strcmp(argv[1], "physics") == 0) physics();
    printf("c-ragdoll: all %d checks passed\n", g_passed);
    return 0;
}
