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
 *                     the humanoid template, a cloth on a ragdoll (needs the rigid-body core);
 *                     powered ragdolls: pinned in the air within 5 mm, a hit on the pelvis
 *                     losing the balance once, then limp; getting up: face up / face down on
 *                     a floor once at rest, the blend from the snapshot exact at 0 and 1
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

#include "check_calls.h"

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
    ERR(sinew_ragdoll_create(g_world, &set, bad, CHAIN, &out), SINEW_INVALID_ARGUMENT);
    memcpy(bad, bones, sizeof bad);
    bad[1].joint.swing1 = INFINITY;
    ERR(sinew_ragdoll_create(g_world, &set, bad, CHAIN, &out), SINEW_NON_FINITE);
    MESSAGE_HAS("unused by a hinge");
    memcpy(bad, bones, sizeof bad);
    bad[2].mass = -1.0f;
    ERR(sinew_ragdoll_create(g_world, &set, bad, CHAIN, &out), SINEW_INVALID_ARGUMENT);
    bad_set = set;
    bad_set.max_mass_ratio = 0.0f;
    ERR(sinew_ragdoll_create(g_world, &bad_set, bones, CHAIN, &out), SINEW_INVALID_ARGUMENT);
    bad_set = set;
    bad_set.linear_damping = NAN;
    ERR(sinew_ragdoll_create(g_world, &bad_set, bones, CHAIN, &out), SINEW_NON_FINITE);
    CHECK(out.id == 0, "no ragdoll came out of a refused description");

    /* humanoids */
    h.head.x = NAN;
    ERR(sinew_ragdoll_create_humanoid(g_world, &h, &set, &out), SINEW_NON_FINITE);
    ERR(sinew_humanoid_bone_descs(&h, hdescs, SINEW_HUMANOID_BONE_COUNT), SINEW_NON_FINITE);
    MESSAGE_HAS("humanoid head position");
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

/* ---- powered ragdolls and getting up: errors ---------------------------------------------- */

enum { HB = SINEW_HUMANOID_BONE_COUNT };

/* A drive state equal to `want` field for field (bit for bit). */
static int same_drive(const SinewDriveState *a, const SinewDriveState *b) { return memcmp(a, b, sizeof *a) == 0; }

static void powered_errors(void) {
    SinewRagdollSettings set;
    SinewHumanoidBones h;
    SinewBoneDesc hd[HB], bones[CHAIN];
    SinewRagdoll r, doomed, small;
    SinewDriveState st, before, untouched;
    SinewGetUpQuery gq, bad_q;
    SinewGetUpInfo info, info0;
    SinewVec3 ap[HB], op[HB], sp[HB], fp[2], tp[2], bp[2];
    SinewQuat aq[HB], oq[HB], sq[HB], fq[2], tq[2], bq[2];
    uint32_t events = 77, at_rest = 77;
    float alpha = -7.0f, secs = -7.0f;
    int i;

    g_world = make_world();
    OK(sinew_ragdoll_settings_default(&set));
    CHECK(set.muscle_frequency == 4.0f && set.muscle_damping_ratio == 1.0f && set.muscle_max_torque == 400.0f && set.pin_frequency == 20.0f &&
              set.pin_damping_ratio == 1.0f,
          "settings defaults: muscles 4 Hz, ratio 1, 400 N m; pins 20 Hz, ratio 1");
    CHECK(set.hit_strength_loss == 0.8f && set.hit_neighbour_falloff == 0.5f && set.hit_full_impulse == 20.0f && set.hit_recovery_time == 1.5f &&
              set.balance_distance == 0.4f && set.rest_speed == 0.05f,
          "settings defaults: hits 0.8, 0.5, 20 N s, 1.5 s; balance 0.4 m; rest 0.05 m/s");
    OK(sinew_humanoid_bones_default(&h));
    OK(sinew_ragdoll_create_humanoid(g_world, &h, &set, &r));
    OK(sinew_humanoid_bone_descs(&h, hd, HB));
    for (i = 0; i < HB; i++) {
        ap[i] = hd[i].position;
        aq[i] = hd[i].rotation;
        op[i] = v3(-1.0f, -1.0f, -1.0f);
        oq[i] = quat_identity();
    }
    chain(v3(4.0f, 2.0f, 0.0f), bones, CHAIN);
    OK(sinew_ragdoll_create(g_world, &set, bones, CHAIN, &small));
    OK(sinew_ragdoll_create(g_world, &set, bones, CHAIN, &doomed));
    OK(sinew_ragdoll_destroy(doomed));
    OK(sinew_world_step(g_world, FRAME));

    /* drive state: defaults, then every refused setter leaves it as it was */
    OK(sinew_ragdoll_get_drive_state(r, SINEW_HUMANOID_HEAD, &st));
    CHECK(st.muscle_strength == 0.0f && st.pin_weight == 0.0f && st.effective_strength == 0.0f && st.effective_pin_weight == 0.0f &&
              st.hit_loss == 0.0f,
          "a new ragdoll is limp: strength 0, pin weight 0, no hit loss");
    OK(sinew_ragdoll_set_muscle_strength(r, SINEW_HUMANOID_HEAD, 0.25f));
    OK(sinew_ragdoll_set_pin_weight(r, SINEW_HUMANOID_HEAD, 0.75f));
    OK(sinew_ragdoll_get_drive_state(r, SINEW_HUMANOID_HEAD, &before));
    CHECK(before.muscle_strength == 0.25f && before.pin_weight == 0.75f && before.effective_strength == 0.25f && before.effective_pin_weight == 0.75f,
          "set_muscle_strength and set_pin_weight are read back");
    ERR(sinew_ragdoll_set_muscle_strength(r, HB, 0.5f), SINEW_OUT_OF_RANGE);
    MESSAGE_HAS("bone 11 is out of range: the ragdoll has 11 bones");
    ERR(sinew_ragdoll_set_muscle_strength(r, 0xFFFFFFFFu, 0.5f), SINEW_OUT_OF_RANGE);
    ERR(sinew_ragdoll_set_muscle_strength(r, SINEW_HUMANOID_HEAD, 1.5f), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("muscle strength must be within [0, 1]");
    ERR(sinew_ragdoll_set_muscle_strength(r, SINEW_HUMANOID_HEAD, -0.01f), SINEW_INVALID_ARGUMENT);
    ERR(sinew_ragdoll_set_muscle_strength(r, SINEW_HUMANOID_HEAD, NAN), SINEW_NON_FINITE);
    ERR(sinew_ragdoll_set_muscle_strength(r, SINEW_HUMANOID_HEAD, INFINITY), SINEW_NON_FINITE);
    ERR(sinew_ragdoll_set_muscle_strength_all(r, 2.0f), SINEW_INVALID_ARGUMENT);
    ERR(sinew_ragdoll_set_muscle_strength_all(r, NAN), SINEW_NON_FINITE);
    ERR(sinew_ragdoll_set_pin_weight(r, HB, 0.5f), SINEW_OUT_OF_RANGE);
    ERR(sinew_ragdoll_set_pin_weight(r, SINEW_HUMANOID_HEAD, 1.0001f), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("pin weight must be within [0, 1]");
    ERR(sinew_ragdoll_set_pin_weight(r, SINEW_HUMANOID_HEAD, -INFINITY), SINEW_NON_FINITE);
    ERR(sinew_ragdoll_set_pin_weight_all(r, -1.0f), SINEW_INVALID_ARGUMENT);
    ERR(sinew_ragdoll_set_pin_weight_all(r, NAN), SINEW_NON_FINITE);
    OK(sinew_ragdoll_get_drive_state(r, SINEW_HUMANOID_HEAD, &st));
    CHECK(same_drive(&st, &before), "refused setters change nothing: the drive state is as it was");
    OK(sinew_ragdoll_get_drive_state(r, SINEW_HUMANOID_PELVIS, &st));
    CHECK(st.muscle_strength == 0.0f && st.pin_weight == 0.0f, "refused _all setters change no other bone");
    memset(&untouched, 0x5a, sizeof untouched);
    st = untouched;
    ERR(sinew_ragdoll_get_drive_state(r, SINEW_HUMANOID_HEAD, NULL), SINEW_NULL_POINTER);
    MESSAGE_HAS("out_state");
    ERR(sinew_ragdoll_get_drive_state(r, HB, &st), SINEW_OUT_OF_RANGE);
    ERR(sinew_ragdoll_get_drive_state(small, CHAIN, &st), SINEW_OUT_OF_RANGE);
    CHECK(same_drive(&st, &untouched), "out_state untouched on failure");
    OK(sinew_ragdoll_set_muscle_strength_all(r, 0.0f));
    OK(sinew_ragdoll_set_pin_weight_all(r, 0.0f));
    OK(sinew_ragdoll_get_drive_state(r, SINEW_HUMANOID_HEAD, &st));
    CHECK(st.muscle_strength == 0.0f && st.pin_weight == 0.0f, "the _all setters reach every bone");

    /* events */
    ERR(sinew_ragdoll_take_events(r, NULL), SINEW_NULL_POINTER);
    MESSAGE_HAS("out_events");
    OK(sinew_ragdoll_take_events(r, &events));
    CHECK(events == 0, "no events yet");
    events = 77;

    /* the snapshot */
    ERR(sinew_ragdoll_read_snapshot(r, NULL, HB, sq, HB), SINEW_NULL_POINTER);
    MESSAGE_HAS("out_positions");
    ERR(sinew_ragdoll_read_snapshot(r, sp, HB, NULL, HB), SINEW_NULL_POINTER);
    MESSAGE_HAS("out_rotations");
    for (i = 0; i < HB; i++) sp[i] = v3(9.0f, 9.0f, 9.0f);
    ERR(sinew_ragdoll_read_snapshot(r, sp, HB - 1, sq, HB), SINEW_BUFFER_TOO_SMALL);
    MESSAGE_HAS("holds 10 elements but the ragdoll has 11 bones");
    ERR(sinew_ragdoll_read_snapshot(r, sp, HB, sq, 1), SINEW_BUFFER_TOO_SMALL);
    ERR(sinew_ragdoll_read_snapshot(r, NULL, 0, NULL, 0), SINEW_BUFFER_TOO_SMALL);
    CHECK(sp[0].x == 9.0f && sp[HB - 1].z == 9.0f, "short snapshot buffers are not written");
    OK(sinew_ragdoll_read_snapshot(r, sp, HB + 3, sq, HB));
    CHECK(memcmp(&sp[SINEW_HUMANOID_HEAD], &hd[SINEW_HUMANOID_HEAD].position, sizeof sp[0]) == 0 &&
              memcmp(&sq[SINEW_HUMANOID_LEFT_KNEE], &hd[SINEW_HUMANOID_LEFT_KNEE].rotation, sizeof sq[0]) == 0,
          "before any capture the snapshot is the bind pose (larger buffers are fine)");

    /* the blend from the snapshot */
    ERR(sinew_ragdoll_blend_from_snapshot(r, NULL, HB, aq, HB, 0.5f, op, HB, oq, HB), SINEW_NULL_POINTER);
    MESSAGE_HAS("anim_positions");
    ERR(sinew_ragdoll_blend_from_snapshot(r, ap, HB, NULL, HB, 0.5f, op, HB, oq, HB), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_blend_from_snapshot(r, ap, HB, aq, HB, 0.5f, NULL, HB, oq, HB), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_blend_from_snapshot(r, ap, HB, aq, HB, 0.5f, op, HB, NULL, HB), SINEW_NULL_POINTER);
    ERR(sinew_ragdoll_blend_from_snapshot(r, ap, HB - 1, aq, HB, 0.5f, op, HB, oq, HB), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("anim_positions has 10 entries but the ragdoll has 11 bones");
    ERR(sinew_ragdoll_blend_from_snapshot(r, ap, HB, aq, 3, 0.5f, op, HB, oq, HB), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("anim_rotations has 3 entries");
    ERR(sinew_ragdoll_blend_from_snapshot(r, ap, (size_t)-1, aq, HB, 0.5f, op, HB, oq, HB), SINEW_TOO_LARGE);
    ERR(sinew_ragdoll_blend_from_snapshot(r, ap, HB, aq, HB, 0.5f, op, HB - 1, oq, HB), SINEW_BUFFER_TOO_SMALL);
    MESSAGE_HAS("out_positions holds 10 elements but the ragdoll has 11 bones");
    ERR(sinew_ragdoll_blend_from_snapshot(r, ap, HB, aq, HB, 0.5f, op, HB, oq, 0), SINEW_BUFFER_TOO_SMALL);
    ERR(sinew_ragdoll_blend_from_snapshot(r, ap, HB, aq, HB, -0.001f, op, HB, oq, HB), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("alpha must be within [0, 1]");
    ERR(sinew_ragdoll_blend_from_snapshot(r, ap, HB, aq, HB, 1.001f, op, HB, oq, HB), SINEW_INVALID_ARGUMENT);
    ERR(sinew_ragdoll_blend_from_snapshot(r, ap, HB, aq, HB, NAN, op, HB, oq, HB), SINEW_NON_FINITE);
    MESSAGE_HAS("alpha");
    ERR(sinew_ragdoll_blend_from_snapshot(r, ap, HB, aq, HB, INFINITY, op, HB, oq, HB), SINEW_NON_FINITE);
    ap[3].y = NAN;
    ERR(sinew_ragdoll_blend_from_snapshot(r, ap, HB, aq, HB, 0.5f, op, HB, oq, HB), SINEW_NON_FINITE);
    MESSAGE_HAS("anim_positions[3]");
    ap[3].y = hd[3].position.y;
    aq[4].w = 3.0f;
    ERR(sinew_ragdoll_blend_from_snapshot(r, ap, HB, aq, HB, 0.5f, op, HB, oq, HB), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("anim_rotations[4] is not a unit quaternion");
    aq[4] = hd[4].rotation;
    ERR(sinew_ragdoll_blend_from_snapshot(small, ap, HB, aq, HB, 0.5f, op, HB, oq, HB), SINEW_INVALID_ARGUMENT);
    CHECK(op[0].x == -1.0f && op[HB - 1].z == -1.0f && oq[0].w == 1.0f && oq[0].x == 0.0f, "refused blends write nothing");

    /* the blend of two host poses */
    fp[0] = v3(0.0f, 0.0f, 0.0f);
    fp[1] = v3(1.0f, 2.0f, 3.0f);
    tp[0] = v3(2.0f, 0.0f, 0.0f);
    tp[1] = v3(1.0f, 2.0f, 5.0f);
    fq[0] = fq[1] = tq[1] = quat_identity();
    tq[0].x = 0.0f;
    tq[0].y = 0.70710677f;
    tq[0].z = 0.0f;
    tq[0].w = 0.70710677f;
    bp[0] = bp[1] = v3(-5.0f, -5.0f, -5.0f);
    bq[0] = bq[1] = quat_identity();
    ERR(sinew_pose_blend(NULL, fq, tp, tq, 2, 0.5f, bp, bq, 2), SINEW_NULL_POINTER);
    MESSAGE_HAS("from_positions");
    ERR(sinew_pose_blend(fp, NULL, tp, tq, 2, 0.5f, bp, bq, 2), SINEW_NULL_POINTER);
    ERR(sinew_pose_blend(fp, fq, NULL, tq, 2, 0.5f, bp, bq, 2), SINEW_NULL_POINTER);
    ERR(sinew_pose_blend(fp, fq, tp, NULL, 2, 0.5f, bp, bq, 2), SINEW_NULL_POINTER);
    MESSAGE_HAS("to_rotations");
    ERR(sinew_pose_blend(fp, fq, tp, tq, 2, 0.5f, NULL, bq, 2), SINEW_NULL_POINTER);
    ERR(sinew_pose_blend(fp, fq, tp, tq, 2, 0.5f, bp, NULL, 2), SINEW_NULL_POINTER);
    ERR(sinew_pose_blend(fp, fq, tp, tq, 2, 0.5f, bp, bq, 1), SINEW_BUFFER_TOO_SMALL);
    MESSAGE_HAS("holds 1 elements but the pose has 2 bones");
    ERR(sinew_pose_blend(fp, fq, tp, tq, 2, 0.5f, NULL, NULL, 0), SINEW_BUFFER_TOO_SMALL);
    ERR(sinew_pose_blend(fp, fq, tp, tq, (size_t)-1, 0.5f, bp, bq, 2), SINEW_TOO_LARGE);
    ERR(sinew_pose_blend(fp, fq, tp, tq, 2, -0.5f, bp, bq, 2), SINEW_INVALID_ARGUMENT);
    ERR(sinew_pose_blend(fp, fq, tp, tq, 2, 2.0f, bp, bq, 2), SINEW_INVALID_ARGUMENT);
    ERR(sinew_pose_blend(fp, fq, tp, tq, 2, NAN, bp, bq, 2), SINEW_NON_FINITE);
    tp[1].z = INFINITY;
    ERR(sinew_pose_blend(fp, fq, tp, tq, 2, 0.5f, bp, bq, 2), SINEW_NON_FINITE);
    MESSAGE_HAS("to_positions[1]");
    tp[1].z = 5.0f;
    fq[1].w = 0.5f;
    ERR(sinew_pose_blend(fp, fq, tp, tq, 2, 0.5f, bp, bq, 2), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("from_rotations[1] is not a unit quaternion");
    fq[1].w = 1.0f;
    CHECK(bp[0].x == -5.0f && bp[1].z == -5.0f, "refused pose blends write nothing");
    OK(sinew_pose_blend(NULL, NULL, NULL, NULL, 0, 0.5f, NULL, NULL, 0));
    OK(sinew_pose_blend(fp, fq, tp, tq, 2, 0.5f, bp, bq, 2));
    CHECK(fabsf(bp[0].x - 1.0f) < 1e-6f && fabsf(bp[1].z - 4.0f) < 1e-6f, "pose_blend at 0.5: positions halfway");
    CHECK(fabsf(bq[0].y - 0.38268343f) < 1e-5f && fabsf(bq[0].w - 0.92387953f) < 1e-5f, "pose_blend at 0.5: rotations halfway (45 of 90 deg)");
    OK(sinew_pose_blend(fp, fq, tp, tq, 2, 0.0f, bp, bq, 2));
    CHECK(memcmp(bp, fp, sizeof fp) == 0 && memcmp(bq, fq, sizeof fq) == 0, "pose_blend at 0 is the from pose bit for bit");
    OK(sinew_pose_blend(fp, fq, tp, tq, 2, 1.0f, bp, bq, 2));
    CHECK(memcmp(bp, tp, sizeof tp) == 0 && memcmp(bq, tq, sizeof tq) == 0, "pose_blend at 1 is the to pose bit for bit");

    /* blend_alpha */
    ERR(sinew_blend_alpha(0.1f, 0.5f, NULL), SINEW_NULL_POINTER);
    MESSAGE_HAS("out_alpha");
    ERR(sinew_blend_alpha(NAN, 0.5f, &alpha), SINEW_NON_FINITE);
    MESSAGE_HAS("time");
    ERR(sinew_blend_alpha(0.1f, INFINITY, &alpha), SINEW_NON_FINITE);
    MESSAGE_HAS("blend_time");
    ERR(sinew_blend_alpha(0.1f, -0.5f, &alpha), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("blend_time must be >= 0");
    CHECK(alpha == -7.0f, "out_alpha untouched on failure");
    OK(sinew_blend_alpha(0.25f, 0.5f, &alpha));
    CHECK(alpha == 0.5f, "blend_alpha(0.25, 0.5) = 0.5");
    OK(sinew_blend_alpha(-1.0f, 0.5f, &alpha));
    CHECK(alpha == 0.0f, "blend_alpha before the start is 0");
    OK(sinew_blend_alpha(3.0f, 0.5f, &alpha));
    CHECK(alpha == 1.0f, "blend_alpha after the end is 1");
    OK(sinew_blend_alpha(0.0f, 0.0f, &alpha));
    CHECK(alpha == 1.0f, "a zero blend time is 1 at once");

    /* get-up info */
    ERR(sinew_get_up_query_default(NULL), SINEW_NULL_POINTER);
    OK(sinew_get_up_query_default(&gq));
    CHECK(gq.pelvis == SINEW_HUMANOID_PELVIS && gq.chest == SINEW_HUMANOID_MIDDLE_SPINE && gq.head == SINEW_HUMANOID_HEAD && gq.up.y == 1.0f &&
              gq.bind_forward.z == 1.0f && gq.bind_up.y == 1.0f,
          "query defaults: pelvis, middle spine, head; up +Y, forward +Z");
    memset(&info0, 0x33, sizeof info0);
    info = info0;
    ERR(sinew_ragdoll_get_up_info(r, NULL, &info), SINEW_NULL_POINTER);
    MESSAGE_HAS("query");
    ERR(sinew_ragdoll_get_up_info(r, &gq, NULL), SINEW_NULL_POINTER);
    MESSAGE_HAS("out_info");
    ERR(sinew_ragdoll_get_up_info(small, &gq, &info), SINEW_OUT_OF_RANGE);
    MESSAGE_HAS("chest bone 5 is out of range");
    bad_q = gq;
    bad_q.head = 200;
    ERR(sinew_ragdoll_get_up_info(r, &bad_q, &info), SINEW_OUT_OF_RANGE);
    MESSAGE_HAS("head bone 200");
    bad_q = gq;
    bad_q.head = bad_q.pelvis;
    ERR(sinew_ragdoll_get_up_info(r, &bad_q, &info), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("different bones");
    bad_q = gq;
    bad_q.up.x = NAN;
    ERR(sinew_ragdoll_get_up_info(r, &bad_q, &info), SINEW_NON_FINITE);
    MESSAGE_HAS("up");
    bad_q = gq;
    bad_q.up = v3(0.0f, 0.0f, 0.0f);
    ERR(sinew_ragdoll_get_up_info(r, &bad_q, &info), SINEW_INVALID_ARGUMENT);
    bad_q = gq;
    bad_q.bind_forward = v3(0.0f, -2.0f, 0.0f);
    ERR(sinew_ragdoll_get_up_info(r, &bad_q, &info), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("parallel");
    bad_q = gq;
    bad_q.bind_up = v3(INFINITY, 0.0f, 0.0f);
    ERR(sinew_ragdoll_get_up_info(r, &bad_q, &info), SINEW_NON_FINITE);
    CHECK(memcmp(&info, &info0, sizeof info) == 0, "out_info untouched on failure");
    OK(sinew_ragdoll_get_up_info(r, &gq, &info));
    CHECK(info.side >= SINEW_LYING_FACE_UP && info.side <= SINEW_LYING_RIGHT_SIDE && info.from_front <= 1, "get_up_info answers a side");

    /* at rest */
    ERR(sinew_ragdoll_get_rest_time(r, NULL), SINEW_NULL_POINTER);
    MESSAGE_HAS("out_seconds");
    ERR(sinew_ragdoll_is_at_rest(r, 0.5f, NULL), SINEW_NULL_POINTER);
    MESSAGE_HAS("out_at_rest");
    ERR(sinew_ragdoll_is_at_rest(r, NAN, &at_rest), SINEW_NON_FINITE);
    MESSAGE_HAS("seconds");
    ERR(sinew_ragdoll_is_at_rest(r, -1.0f, &at_rest), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("seconds must be >= 0");
    CHECK(at_rest == 77, "out_at_rest untouched on failure");
    OK(sinew_ragdoll_get_rest_time(r, &secs));
    CHECK(secs >= 0.0f, "get_rest_time: a time >= 0");
    OK(sinew_ragdoll_is_at_rest(r, 0.0f, &at_rest));
    CHECK(at_rest == 0 || at_rest == 1, "is_at_rest: 0 or 1");

    /* a stale handle */
    ERR(sinew_ragdoll_set_muscle_strength(doomed, 0, 0.5f), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_set_muscle_strength_all(doomed, 0.5f), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_set_pin_weight(doomed, 0, 0.5f), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_set_pin_weight_all(doomed, 0.5f), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_get_drive_state(doomed, 0, &st), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_take_events(doomed, &events), SINEW_INVALID_HANDLE);
    CHECK(events == 77, "out_events untouched on failure");
    ERR(sinew_ragdoll_capture_snapshot(doomed), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_read_snapshot(doomed, sp, HB, sq, HB), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_blend_from_snapshot(doomed, ap, CHAIN, aq, CHAIN, 0.5f, op, HB, oq, HB), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_get_up_info(doomed, &gq, &info), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_get_rest_time(doomed, &secs), SINEW_INVALID_HANDLE);
    ERR(sinew_ragdoll_is_at_rest(doomed, 0.5f, &at_rest), SINEW_INVALID_HANDLE);
    {
        SinewRagdoll zero;
        zero.id = 0;
        ERR(sinew_ragdoll_capture_snapshot(zero), SINEW_INVALID_HANDLE);
    }

    /* busy during an asynchronous step */
    OK(sinew_world_step_begin(g_world, FRAME));
    CHECK(sinew_ragdoll_set_pin_weight_all(r, 1.0f) == SINEW_BUSY, "set_pin_weight_all during an async step is SINEW_BUSY");
    CHECK(sinew_ragdoll_get_up_info(r, &gq, &info) == SINEW_BUSY, "get_up_info during an async step is SINEW_BUSY");
    OK(sinew_world_step_end(g_world));
    OK(sinew_ragdoll_get_drive_state(r, 0, &st));
    CHECK(st.pin_weight == 0.0f, "the busy call changed nothing");

    OK(sinew_ragdoll_destroy(small));
    OK(sinew_ragdoll_destroy(r));
    OK(sinew_world_destroy(g_world));
    CHECK(sinew_ragdoll_take_events(r, &events) == SINEW_INVALID_HANDLE, "a destroyed world's ragdoll: take_events is SINEW_INVALID_HANDLE");
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

/* ---- powered ragdolls and getting up: physics ---------------------------------------------- */

static SinewQuat qmul(SinewQuat a, SinewQuat b) {
    SinewQuat r;
    r.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
    r.y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
    r.z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
    r.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
    return r;
}

static SinewVec3 qrot(SinewQuat q, SinewVec3 v) {
    SinewQuat p, c, r;
    p.x = v.x;
    p.y = v.y;
    p.z = v.z;
    p.w = 0.0f;
    c.x = -q.x;
    c.y = -q.y;
    c.z = -q.z;
    c.w = q.w;
    r = qmul(qmul(q, p), c);
    return v3(r.x, r.y, r.z);
}

static SinewQuat about_x(float degrees) {
    SinewQuat q;
    float a = 0.5f * degrees * 3.14159265f / 180.0f;
    q.x = sinf(a);
    q.y = 0.0f;
    q.z = 0.0f;
    q.w = cosf(a);
    return q;
}

/* The humanoid's bind pose turned by `turn` about its pelvis, the pelvis moved to `at`. */
static void turned_bind_pose(const SinewBoneDesc *hd, SinewQuat turn, SinewVec3 at, SinewVec3 *p, SinewQuat *q) {
    int i;
    SinewVec3 pelvis = hd[SINEW_HUMANOID_PELVIS].position;
    for (i = 0; i < HB; i++) {
        SinewVec3 d = qrot(turn, v3(hd[i].position.x - pelvis.x, hd[i].position.y - pelvis.y, hd[i].position.z - pelvis.z));
        p[i] = v3(at.x + d.x, at.y + d.y, at.z + d.z);
        q[i] = qmul(turn, hd[i].rotation);
    }
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

/* A jelly dropped onto the side of a ball ragdoll lying on the floor: with collision on, the
 * contact goes both ways (the jelly steps in the ragdoll's company) and the ball is pushed;
 * with it off, the jelly passes through and the ball stays put. Returns how far the ball
 * moved along the floor (m) in 1 s. */
static float jelly_on_ball(int collide) {
    SinewWorld w = make_world();
    SinewRagdoll b;
    SinewBody jelly;
    SinewSoftLatticeDesc ld;
    SinewVec3 pos[1];
    SinewQuat rot[1];
    int i;
    (void)floor_plane(w);
    b = ball(w, v3(0.0f, 0.1f, 0.0f), 1.0f, 0);
    OK(sinew_soft_lattice_desc_default(&ld));
    ld.origin = v3(0.12f, 0.45f, 0.0f);
    OK(sinew_softbody_create_lattice(w, &ld, &jelly));
    OK(sinew_body_set_ragdoll_collision(jelly, b, (uint32_t)collide));
    for (i = 0; i < 60; i++) OK(sinew_world_step(w, FRAME));
    OK(sinew_ragdoll_read_pose(b, pos, 1, rot, 1));
    OK(sinew_world_destroy(w));
    return sqrtf(pos[0].x * pos[0].x + pos[0].z * pos[0].z);
}

/* The two rigid pipelines and the direct joint solve, through the ABI: a chain dropped in a
 * precise world and in a fast one with the direct solve on stays joined. */
static void pipelines(void) {
    SinewWorldDesc wd;
    SinewWorld w;
    SinewBoneDesc b[3];
    SinewRagdollSettings set;
    SinewRagdoll r;
    SinewVec3 pos[3];
    SinewQuat rot[3];
    uint32_t direct = 7;
    int pass, i;
    OK(sinew_world_desc_default(&wd));
    CHECK(wd.rigid_solver == SINEW_RIGID_FAST, "worlds solve ragdolls by the fast pipeline by default");
    for (pass = 0; pass < 2; pass++) {
        wd.thread_count = 1;
        wd.rigid_solver = pass == 0 ? SINEW_RIGID_PRECISE : SINEW_RIGID_FAST;
        OK(sinew_world_create(&wd, &w));
        chain(v3(0.0f, 2.0f, 0.0f), b, 3);
        OK(sinew_ragdoll_settings_default(&set));
        OK(sinew_ragdoll_create(w, &set, b, 3, &r));
        OK(sinew_ragdoll_get_direct_joint_solve(r, &direct));
        CHECK(direct == 0, "equal masses: the Gauss-Seidel pass by default");
        OK(sinew_ragdoll_set_direct_joint_solve(r, 1));
        OK(sinew_ragdoll_get_direct_joint_solve(r, &direct));
        CHECK(direct == 1, "the direct solve turned on");
        OK(sinew_ragdoll_apply_bone_impulse(r, 2, v3(0.0f, 1.4f, 0.0f), v3(3.0f, 0.0f, 0.0f)));
        for (i = 0; i < 60; i++) OK(sinew_world_step(w, FRAME));
        OK(sinew_ragdoll_read_pose(r, pos, 3, rot, 3));
        CHECK(pos[2].y < 2.0f - 1.0f, "the chain fell");
        CHECK(fabsf(dist3(pos[0], pos[1]) - 0.3f) < 2e-3f && fabsf(dist3(pos[1], pos[2]) - 0.3f) < 2e-3f, "and stayed joined");
        OK(sinew_world_destroy(w));
    }
    wd.rigid_solver = 2;
    CHECK(sinew_world_create(&wd, &w) == SINEW_INVALID_ARGUMENT, "an unknown rigid solver is refused");
}

static void company(void) {
    float with = jelly_on_ball(1), without = jelly_on_ball(0);
    printf("jelly on a ball ragdoll: the ball moved %.4f m (collision on), %.6f m (off)\n", with, without);
    CHECK(with > 0.01f, "a jelly landing on a ragdoll pushes it (two-way contact)");
    CHECK(without < 1e-5f, "without collision the ragdoll is not touched");
}

/* A humanoid created at a root (turned 90 degrees about Y, moved to (5, 0, -3)): every bone is
 * the root times the bone of the one created at the origin, from the template and from its bone
 * list; a scaled root and a null one are refused and create nothing. */
static void placed(void) {
    SinewWorld w = make_world(), saved;
    SinewHumanoidBones h;
    SinewRagdollSettings set;
    SinewBoneDesc hd[HB];
    SinewRagdoll at_origin, placed_one, from_list, none;
    SinewVec3 p0[HB], p1[HB], p2[HB];
    SinewQuat q0[HB], q1[HB], q2[HB];
    SinewMat4 root = translation(5.0f, 0.0f, -3.0f), scaled;
    SinewWorldStats stats;
    float worst = 0.0f;
    int i;
    /* 90 degrees about Y, column-major: x -> -z, z -> x. */
    root.m[0] = 0.0f;
    root.m[2] = -1.0f;
    root.m[8] = 1.0f;
    root.m[10] = 0.0f;
    scaled = root;
    scaled.m[0] *= 2.0f;
    scaled.m[2] *= 2.0f;
    scaled.m[5] *= 2.0f;
    scaled.m[8] *= 2.0f;
    scaled.m[10] *= 2.0f;
    OK(sinew_humanoid_bones_default(&h));
    OK(sinew_ragdoll_settings_default(&set));
    OK(sinew_humanoid_bone_descs(&h, hd, HB));
    OK(sinew_ragdoll_create_humanoid(w, &h, &set, &at_origin));
    OK(sinew_ragdoll_create_humanoid_at(w, &h, &set, &root, &placed_one));
    OK(sinew_ragdoll_create_at(w, &set, hd, HB, &root, &from_list));
    OK(sinew_ragdoll_read_pose(at_origin, p0, HB, q0, HB));
    OK(sinew_ragdoll_read_pose(placed_one, p1, HB, q1, HB));
    OK(sinew_ragdoll_read_pose(from_list, p2, HB, q2, HB));
    for (i = 0; i < HB; i++) {
        /* root * p: (x, y, z) -> (z + 5, y, -x - 3). */
        SinewVec3 want = v3(p0[i].z + 5.0f, p0[i].y, -p0[i].x - 3.0f);
        float d1 = dist3(p1[i], want), d2 = dist3(p2[i], want);
        worst = d1 > worst ? d1 : worst;
        worst = d2 > worst ? d2 : worst;
    }
    printf("humanoid at a root: bones within %.2e m of root x the bone at the origin\n", worst);
    CHECK(worst < 1e-5f, "create_humanoid_at and create_at: every bone is root x the bone at the origin");
    none.id = 0;
    saved = g_world;
    g_world = w;
    ERR(sinew_ragdoll_create_humanoid_at(w, &h, &set, &scaled, &none), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("scale");
    ERR(sinew_ragdoll_create_at(w, &set, hd, HB, NULL, &none), SINEW_NULL_POINTER);
    /* The moving-platform anchor of a ragdoll: accepted, refused out of range, cleared. */
    OK(sinew_ragdoll_set_anchor(placed_one, &root, 0.0f));
    OK(sinew_world_step(w, FRAME));
    ERR(sinew_ragdoll_set_anchor(placed_one, &root, -0.5f), SINEW_INVALID_ARGUMENT);
    ERR(sinew_ragdoll_set_anchor(placed_one, &scaled, 0.5f), SINEW_INVALID_ARGUMENT);
    ERR(sinew_ragdoll_set_anchor(placed_one, NULL, 0.5f), SINEW_NULL_POINTER);
    OK(sinew_ragdoll_clear_anchor(placed_one));
    OK(sinew_world_get_stats(w, &stats));
    CHECK(none.id == 0 && stats.ragdoll_count == 3, "refused roots create nothing");
    g_world = saved;
    OK(sinew_world_destroy(w));
}

/* A humanoid dropped from 0.45 m (pelvis height) turned by `degrees` about X onto the floor:
 * steps until it has been at rest for 0.5 s (at most 10 s) and reports its get-up info. */
static void lying(SinewWorld w, const SinewHumanoidBones *h, const SinewBoneDesc *hd, float degrees, float x, SinewGetUpInfo *info,
                  SinewRagdoll *out) {
    SinewRagdollSettings set;
    SinewRagdoll r;
    SinewGetUpQuery gq;
    SinewVec3 p[HB];
    SinewQuat q[HB];
    uint32_t at_rest = 0, asleep = 0;
    float rest = -1.0f;
    int frame;
    char what[160];
    OK(sinew_ragdoll_settings_default(&set));
    OK(sinew_ragdoll_create_humanoid(w, h, &set, &r));
    turned_bind_pose(hd, about_x(degrees), v3(x, 0.45f, 0.0f), p, q);
    OK(sinew_ragdoll_set_pose(r, p, HB, q, HB, 0));
    OK(sinew_ragdoll_is_at_rest(r, 0.5f, &at_rest));
    CHECK(at_rest == 0, "not at rest before it has fallen");
    for (frame = 0; frame < 600 && !at_rest; frame++) {
        OK(sinew_world_step(w, FRAME));
        OK(sinew_ragdoll_is_at_rest(r, 0.5f, &at_rest));
    }
    snprintf(what, sizeof what, "turned %.0f deg and dropped: at rest for 0.5 s after %.2f s", degrees, (double)frame * FRAME);
    CHECK(at_rest == 1, what);
    OK(sinew_ragdoll_get_rest_time(r, &rest));
    OK(sinew_ragdoll_is_asleep(r, &asleep));
    CHECK(rest >= 0.5f - 1e-4f || asleep == 1, "get_rest_time agrees: at least 0.5 s (or the ragdoll sleeps)");
    OK(sinew_get_up_query_default(&gq));
    OK(sinew_ragdoll_get_up_info(r, &gq, info));
    printf("     side %u, from_front %u, front_up %.3f, root (%.3f, %.3f, %.3f), heading (%.2f, %.2f, %.2f), rest %.2f s\n", info->side,
           info->from_front, info->front_up, info->root_position.x, info->root_position.y, info->root_position.z, info->heading.x,
           info->heading.y, info->heading.z, rest);
    *out = r;
}

static void powered_physics(void) {
    SinewHumanoidBones h;
    SinewBoneDesc hd[HB];
    SinewRagdollSettings set;
    SinewRagdoll r, up_r, down_r;
    SinewCollider floor_c;
    SinewVec3 tp[HB], pos[HB], sp[HB], ap[HB], bp[HB];
    SinewQuat tq[HB], rot[HB], sq[HB], aq[HB], bq[HB];
    SinewDriveState st;
    SinewGetUpInfo up_info, down_info;
    uint32_t events = 0, lost_count = 0, bone;
    float worst = 0.0f, d, alpha = 0.0f;
    int frame, i, lost_frame = -1, all_limp = 1;
    char what[160];

    g_world = make_world();
    OK(sinew_humanoid_bones_default(&h));
    OK(sinew_humanoid_bone_descs(&h, hd, HB));
    OK(sinew_ragdoll_settings_default(&set));

    /* pinned in the air: pin weight 1, muscle 1, the bind pose 3 m up as targets */
    OK(sinew_ragdoll_create_humanoid(g_world, &h, &set, &r));
    for (i = 0; i < HB; i++) {
        tp[i] = v3(hd[i].position.x, hd[i].position.y + 3.0f, hd[i].position.z);
        tq[i] = hd[i].rotation;
    }
    OK(sinew_ragdoll_set_pose(r, tp, HB, tq, HB, 0));
    OK(sinew_ragdoll_set_targets(r, tp, HB, tq, HB));
    OK(sinew_ragdoll_set_pin_weight_all(r, 1.0f));
    OK(sinew_ragdoll_set_muscle_strength_all(r, 1.0f));
    OK(sinew_ragdoll_get_drive_state(r, SINEW_HUMANOID_LEFT_ELBOW, &st));
    CHECK(st.muscle_strength == 1.0f && st.pin_weight == 1.0f && st.effective_strength == 1.0f && st.effective_pin_weight == 1.0f,
          "every bone at strength 1, pin weight 1");
    for (frame = 0; frame < 120; frame++) {
        OK(sinew_ragdoll_set_targets(r, tp, HB, tq, HB));
        OK(sinew_world_step(g_world, FRAME));
        OK(sinew_ragdoll_read_pose(r, pos, HB, rot, HB));
        for (i = 0; i < HB; i++) {
            d = dist3(pos[i], tp[i]);
            if (d > worst) worst = d;
        }
    }
    OK(sinew_ragdoll_take_events(r, &events));
    CHECK(events == 0, "no balance lost while pinned");
    snprintf(what, sizeof what, "pinned in the air for 2 s with gravity: within 5 mm of the targets (worst %.3f mm)", (double)worst * 1000.0);
    CHECK(worst < 5e-3f, what);

    /* a big hit on the pelvis: weaker at once, then the balance goes, once */
    OK(sinew_ragdoll_apply_impulse(r, tp[SINEW_HUMANOID_PELVIS], v3(0.0f, 0.0f, 4000.0f), &bone));
    CHECK(bone == SINEW_HUMANOID_PELVIS, "the impulse at the pelvis lands on the pelvis");
    OK(sinew_ragdoll_get_drive_state(r, SINEW_HUMANOID_PELVIS, &st));
    /* 4000 N s is 200 times hit_full_impulse (20 N s): the loss 0.8 * 200 (and half that a
       joint away) is held to all of it: a blow that big lets go of the whole body */
    CHECK(st.hit_loss == 1.0f && st.effective_pin_weight == 0.0f && st.pin_weight == 1.0f, "the hit takes all of the pelvis's pin weight");
    OK(sinew_ragdoll_get_drive_state(r, SINEW_HUMANOID_MIDDLE_SPINE, &st));
    CHECK(st.hit_loss == 1.0f, "and all of its neighbour's");
    for (frame = 0; frame < 60; frame++) {
        OK(sinew_ragdoll_set_targets(r, tp, HB, tq, HB));
        OK(sinew_world_step(g_world, FRAME));
        OK(sinew_ragdoll_take_events(r, &events));
        if (events & SINEW_RAGDOLL_EVENT_BALANCE_LOST) {
            lost_count++;
            if (lost_frame < 0) lost_frame = frame;
        }
    }
    printf("     balance lost %u time(s), %d frame(s) after the hit\n", lost_count, lost_frame + 1);
    CHECK(lost_count == 1, "SINEW_RAGDOLL_EVENT_BALANCE_LOST once");
    for (i = 0; i < HB; i++) {
        OK(sinew_ragdoll_get_drive_state(r, (uint32_t)i, &st));
        if (st.muscle_strength != 0.0f || st.pin_weight != 0.0f || st.effective_strength != 0.0f || st.effective_pin_weight != 0.0f) all_limp = 0;
    }
    CHECK(all_limp, "after the balance loss every bone is limp: strength 0, pin weight 0");
    OK(sinew_ragdoll_destroy(r));

    /* lying face up and face down on a floor */
    floor_c = floor_plane(g_world);
    lying(g_world, &h, hd, -90.0f, 0.0f, &up_info, &up_r);
    CHECK(up_info.side == SINEW_LYING_FACE_UP && up_info.from_front == 0 && up_info.front_up > 0.7f, "dropped on its back: SINEW_LYING_FACE_UP, from_front 0");
    CHECK(fabsf(up_info.root_position.y) < 0.05f, "the get-up root is on the floor");
    lying(g_world, &h, hd, 90.0f, 3.0f, &down_info, &down_r);
    CHECK(down_info.side == SINEW_LYING_FACE_DOWN && down_info.from_front == 1 && down_info.front_up < -0.7f,
          "dropped on its front: SINEW_LYING_FACE_DOWN, from_front 1");

    /* the get-up blend: kinematic takes the snapshot; 0 is it, 1 is the clip, bit for bit */
    OK(sinew_ragdoll_set_kinematic(up_r, 1));
    OK(sinew_ragdoll_read_snapshot(up_r, sp, HB, sq, HB));
    OK(sinew_ragdoll_read_pose(up_r, pos, HB, rot, HB));
    worst = 0.0f;
    for (i = 0; i < HB; i++) {
        d = dist3(sp[i], pos[i]);
        if (d > worst) worst = d;
    }
    CHECK(worst < 1e-3f, "the snapshot is where the ragdoll lies");
    for (i = 0; i < HB; i++) {
        ap[i] = v3(hd[i].position.x + up_info.root_position.x, hd[i].position.y, hd[i].position.z + up_info.root_position.z);
        aq[i] = qmul(up_info.root_rotation, hd[i].rotation);
    }
    OK(sinew_ragdoll_blend_from_snapshot(up_r, ap, HB, aq, HB, 0.0f, bp, HB, bq, HB));
    CHECK(memcmp(bp, sp, sizeof bp) == 0 && memcmp(bq, sq, sizeof bq) == 0, "blend at alpha 0 is the snapshot bit for bit");
    OK(sinew_ragdoll_blend_from_snapshot(up_r, ap, HB, aq, HB, 1.0f, bp, HB, bq, HB));
    CHECK(memcmp(bp, ap, sizeof bp) == 0 && memcmp(bq, aq, sizeof bq) == 0, "blend at alpha 1 is the animated pose bit for bit");
    OK(sinew_ragdoll_blend_from_snapshot(up_r, ap, HB, aq, HB, 0.5f, bp, HB, bq, HB));
    CHECK(fabsf(bp[SINEW_HUMANOID_HEAD].y - 0.5f * (sp[SINEW_HUMANOID_HEAD].y + ap[SINEW_HUMANOID_HEAD].y)) < 1e-5f, "blend at 0.5 is halfway");
    for (frame = 1; frame <= 30; frame++) {
        OK(sinew_blend_alpha((float)frame * FRAME, 0.5f, &alpha));
        OK(sinew_ragdoll_blend_from_snapshot(up_r, ap, HB, aq, HB, alpha, bp, HB, bq, HB));
        OK(sinew_ragdoll_set_targets(up_r, bp, HB, bq, HB));
        OK(sinew_world_step(g_world, FRAME));
    }
    CHECK(alpha == 1.0f, "after 0.5 s the blend's alpha is 1");
    OK(sinew_ragdoll_read_pose(up_r, pos, HB, rot, HB));
    worst = 0.0f;
    for (i = 0; i < HB; i++) {
        d = dist3(pos[i], ap[i]);
        if (d > worst) worst = d;
    }
    CHECK(worst < 1e-4f, "blended over 0.5 s, the kinematic ragdoll stands in the clip's pose");
    OK(sinew_ragdoll_capture_snapshot(up_r));
    OK(sinew_ragdoll_read_snapshot(up_r, sp, HB, sq, HB));
    CHECK(dist3(sp[SINEW_HUMANOID_HEAD], ap[SINEW_HUMANOID_HEAD]) < 1e-4f, "capture_snapshot takes the pose anew");

    OK(sinew_ragdoll_destroy(up_r));
    OK(sinew_ragdoll_destroy(down_r));
    OK(sinew_collider_destroy(floor_c));
    OK(sinew_world_destroy(g_world));
}

int main(int argc, char **argv) {
    int all = argc < 2;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (all || strcmp(argv[1], "errors") == 0) {
        errors();
        powered_errors();
    }
    if (all || strcmp(argv[1], "physics") == 0) {
        physics();
        powered_physics();
        placed();
        pipelines();
        company();
    }
    printf("c-ragdoll: all %d checks passed\n", g_passed);
    return 0;
}
