/* The chapter's ragdoll, sections 1–4, through the C ABI in one small C99 program.
 *
 *   1. A bone list: pelvis (the root), spine, chest, both upper arms and forearms, both thighs
 *      and shins — each a capsule of the chapter's radius and 1 kg, as its RagdollBuilder
 *      gives every bone a CapsuleCollider and a Rigidbody of mass 1.
 *   2–3. Joints: hinges for the elbows and knees ([0°, 140°], the chapter's HingeJoint
 *      limits), cones for everything else (CharacterJoint: the shoulder of its
 *      ShoulderExample, swing 80° / 60°, twist [−20°, 90°]; swing 70° / 50° elsewhere).
 *   4. Animated to ragdoll: the character starts kinematic and walks (every bone's target
 *      set each frame, as an Animator would), then Die(hitPoint, hitForce): physics takes
 *      over and the impulse lands on the bone nearest to the point hit.
 *
 * It checks what the chapter promises and exits 1 otherwise: the hit picks the chest, the
 * body falls and keeps the walk's momentum, every joint holds together, and no hinge leaves
 * its limits. Built and run (under valgrind) by scripts/test-c.sh:
 *
 *   cc -std=c99 -Wall -Werror -Iinclude examples/ragdoll_chapter.c -Ltarget/release -lsinew -lm
 */

#include "sinew.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALL(call)                                                                         \
    do {                                                                                   \
        SinewResult r_ = (call);                                                           \
        if (r_ != SINEW_OK) {                                                              \
            fprintf(stderr, "%s failed (%d): %s\n", #call, (int)r_, sinew_last_error_message()); \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

enum { PELVIS, SPINE, CHEST, L_UPPER_ARM, L_FOREARM, R_UPPER_ARM, R_FOREARM, L_THIGH, L_SHIN, R_THIGH, R_SHIN, BONES };

static const char *const NAMES[BONES] = {"pelvis", "spine", "chest", "left upper arm", "left forearm", "right upper arm",
                                         "right forearm", "left thigh", "left shin", "right thigh", "right shin"};

/* The chapter's RagdollBone: the bone, its parent, a radius, and whether it is a limb (hinge). */
typedef struct {
    int parent;
    SinewVec3 from, to; /* joint position and the next joint along the bone */
    float radius;
    int is_limb;
} RagdollBone;

static SinewVec3 v3(float x, float y, float z) {
    SinewVec3 v = {x, y, z};
    return v;
}
static SinewVec3 sub(SinewVec3 a, SinewVec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static float len(SinewVec3 a) { return sqrtf(a.x * a.x + a.y * a.y + a.z * a.z); }

/* Quaternion helpers (x, y, z, w), the formulas Unity and Sinew share. */
static SinewQuat qmul(SinewQuat a, SinewQuat b) {
    SinewQuat r = {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
    return r;
}
static SinewQuat qconj(SinewQuat a) {
    SinewQuat r = {-a.x, -a.y, -a.z, a.w};
    return r;
}
static SinewVec3 qrot(SinewQuat q, SinewVec3 v) {
    SinewQuat p = {v.x, v.y, v.z, 0.0f};
    SinewQuat r = qmul(qmul(q, p), qconj(q));
    return v3(r.x, r.y, r.z);
}
/* The shortest turn taking +Y to unit `d` (a bone's capsule runs along its local Y). */
static SinewQuat y_to(SinewVec3 d) {
    float c = d.y;
    if (c < -0.9999f) {
        SinewQuat flip = {0.0f, 0.0f, 1.0f, 0.0f}; /* 180° about Z */
        return flip;
    }
    SinewVec3 axis = v3(d.z, 0.0f, -d.x); /* Y × d */
    float s = sqrtf(2.0f * (1.0f + c));
    SinewQuat q = {axis.x / s, axis.y / s, axis.z / s, 0.5f * s};
    return q;
}

int main(void) {
    SinewWorldDesc wd;
    CALL(sinew_world_desc_default(&wd));
    SinewWorld world;
    CALL(sinew_world_create(&wd, &world));
    SinewColliderDesc floor_desc;
    CALL(sinew_collider_desc_default(&floor_desc));
    floor_desc.shape = SINEW_SHAPE_PLANE;
    memset(&floor_desc.transform, 0, sizeof floor_desc.transform);
    floor_desc.transform.m[0] = floor_desc.transform.m[5] = floor_desc.transform.m[10] = floor_desc.transform.m[15] = 1.0f;
    SinewCollider floor_collider;
    CALL(sinew_collider_create(world, &floor_desc, &floor_collider));

    /* Section 1: the bone list of a 1.8 m biped in T-pose facing +Z (its right is +X). */
    const RagdollBone list[BONES] = {
        [PELVIS] = {-1, {0.0f, 0.95f, 0.0f}, {0.0f, 1.15f, 0.0f}, 0.13f, 0},
        [SPINE] = {PELVIS, {0.0f, 1.15f, 0.0f}, {0.0f, 1.3f, 0.0f}, 0.12f, 0},
        [CHEST] = {SPINE, {0.0f, 1.3f, 0.0f}, {0.0f, 1.6f, 0.0f}, 0.14f, 0},
        [L_UPPER_ARM] = {CHEST, {-0.2f, 1.45f, 0.0f}, {-0.48f, 1.45f, 0.0f}, 0.05f, 0},
        [L_FOREARM] = {L_UPPER_ARM, {-0.48f, 1.45f, 0.0f}, {-0.74f, 1.45f, 0.0f}, 0.04f, 1},
        [R_UPPER_ARM] = {CHEST, {0.2f, 1.45f, 0.0f}, {0.48f, 1.45f, 0.0f}, 0.05f, 0},
        [R_FOREARM] = {R_UPPER_ARM, {0.48f, 1.45f, 0.0f}, {0.74f, 1.45f, 0.0f}, 0.04f, 1},
        [L_THIGH] = {PELVIS, {-0.1f, 0.92f, 0.0f}, {-0.1f, 0.5f, 0.0f}, 0.07f, 0},
        [L_SHIN] = {L_THIGH, {-0.1f, 0.5f, 0.0f}, {-0.1f, 0.08f, 0.0f}, 0.05f, 1},
        [R_THIGH] = {PELVIS, {0.1f, 0.92f, 0.0f}, {0.1f, 0.5f, 0.0f}, 0.07f, 0},
        [R_SHIN] = {R_THIGH, {0.1f, 0.5f, 0.0f}, {0.1f, 0.08f, 0.0f}, 0.05f, 1},
    };
    SinewBoneDesc bones[BONES];
    for (int i = 0; i < BONES; i++) {
        const RagdollBone *b = &list[i];
        SinewBoneDesc *d = &bones[i];
        CALL(sinew_bone_desc_default(d));
        SinewVec3 along = sub(b->to, b->from);
        float length = len(along);
        SinewVec3 dir = v3(along.x / length, along.y / length, along.z / length);
        d->parent = b->parent;
        d->position = b->from;
        d->rotation = y_to(dir);
        d->shape = SINEW_SHAPE_CAPSULE;
        d->radius0 = d->radius1 = b->radius;
        d->half_height = 0.5f * length - b->radius > 0.0f ? 0.5f * length - b->radius : 0.0f;
        d->shape_offset = v3(0.0f, 0.5f * length, 0.0f);
        d->mass = 1.0f; /* body.mass = 1f */
        if (b->parent < 0) {
            continue; /* the root bone has no joint to a parent */
        }
        SinewQuat to_local = qconj(d->rotation);
        if (b->is_limb) {
            /* Elbows bend forwards, knees backwards: a turn of −θ about the axis is +θ of
             * Unity's hinge angle, so the axis is chosen for [0°, 140°] to bend the right way. */
            SinewVec3 world_axis = (i == L_SHIN || i == R_SHIN) ? v3(-1.0f, 0.0f, 0.0f) : v3(0.0f, dir.x > 0.0f ? 1.0f : -1.0f, 0.0f);
            d->joint.kind = SINEW_JOINT_HINGE;
            d->joint.axis = qrot(to_local, world_axis);
            d->joint.swing_axis = qrot(to_local, v3(0.0f, 0.0f, 1.0f));
            d->joint.hinge_min = 0.0f;
            d->joint.hinge_max = 140.0f;
        } else {
            d->joint.kind = SINEW_JOINT_SWING_TWIST;
            d->joint.axis = v3(0.0f, 1.0f, 0.0f); /* twist about the bone's long axis */
            d->joint.swing_axis = qrot(to_local, v3(0.0f, 0.0f, 1.0f));
            int shoulder = (i == L_UPPER_ARM || i == R_UPPER_ARM);
            d->joint.swing1 = shoulder ? 80.0f : 70.0f;
            d->joint.swing2 = shoulder ? 60.0f : 50.0f;
            d->joint.low_twist = -20.0f;
            d->joint.high_twist = shoulder ? 90.0f : 20.0f;
        }
    }
    SinewRagdollSettings settings;
    CALL(sinew_ragdoll_settings_default(&settings));
    settings.kinematic = 1; /* SetRagdoll(false): start fully animated */
    SinewRagdoll ragdoll;
    CALL(sinew_ragdoll_create(world, &settings, bones, BONES, &ragdoll));

    /* Section 4: walk at 1.5 m/s for a second (the "animator" sets every bone), then die. */
    SinewVec3 pos[BONES];
    SinewQuat rot[BONES];
    const float dt = 1.0f / 60.0f, speed = 1.5f;
    for (int frame = 1; frame <= 60; frame++) {
        for (int i = 0; i < BONES; i++) {
            pos[i] = bones[i].position;
            pos[i].z += speed * dt * (float)frame;
            rot[i] = bones[i].rotation;
        }
        CALL(sinew_ragdoll_set_targets(ragdoll, pos, BONES, rot, BONES));
        CALL(sinew_world_step(world, dt));
    }
    /* Die(hitPoint, hitForce): a blow to the chest from the front. */
    SinewVec3 hit_point = v3(0.0f, 1.45f, speed * 1.0f + 0.2f);
    SinewVec3 hit_force = v3(0.0f, 0.0f, -25.0f);
    uint32_t hit_bone = 0;
    CALL(sinew_ragdoll_set_kinematic(ragdoll, 0));
    CALL(sinew_ragdoll_apply_impulse(ragdoll, hit_point, hit_force, &hit_bone));
    printf("hit at (%.2f, %.2f, %.2f): the nearest bone is the %s\n", hit_point.x, hit_point.y, hit_point.z, hit_bone < BONES ? NAMES[hit_bone] : "?");

    float worst_sep = 0.0f, worst_hinge = 0.0f;
    float pelvis_z0 = speed * 1.0f;
    for (int frame = 1; frame <= 180; frame++) {
        CALL(sinew_world_step(world, dt));
        CALL(sinew_ragdoll_read_pose(ragdoll, pos, BONES, rot, BONES));
        for (int i = 1; i < BONES; i++) {
            int p = list[i].parent;
            /* The joint's anchor (the bone's origin) seen from the parent, placed as the bind pose placed it. */
            SinewVec3 in_parent = qrot(qconj(bones[p].rotation), sub(bones[i].position, bones[p].position));
            SinewVec3 from_parent = qrot(rot[p], in_parent);
            SinewVec3 anchor = v3(pos[p].x + from_parent.x, pos[p].y + from_parent.y, pos[p].z + from_parent.z);
            float sep = len(sub(anchor, pos[i]));
            if (sep > worst_sep) worst_sep = sep;
            if (list[i].is_limb) {
                /* The child's turn relative to its parent since the bind pose, about the hinge axis. */
                SinewQuat rel_bind = qmul(qconj(bones[p].rotation), bones[i].rotation);
                SinewQuat rel_now = qmul(qconj(rot[p]), rot[i]);
                SinewQuat dq = qmul(qconj(rel_bind), rel_now);
                SinewVec3 a = bones[i].joint.axis;
                float la = len(a);
                float along = (dq.x * a.x + dq.y * a.y + dq.z * a.z) / la;
                float unity_angle = -2.0f * atan2f(along, dq.w) * 57.29578f; /* Unity's sign */
                if (unity_angle > 180.0f) unity_angle -= 360.0f;
                if (unity_angle < -180.0f) unity_angle += 360.0f;
                float out = unity_angle < 0.0f ? -unity_angle : (unity_angle > 140.0f ? unity_angle - 140.0f : 0.0f);
                if (out > worst_hinge) worst_hinge = out;
            }
        }
    }
    uint32_t asleep = 0;
    CALL(sinew_ragdoll_is_asleep(ragdoll, &asleep));
    printf("after 3 s: chest at %.2f m, pelvis %.2f m further on, worst joint separation %.3f mm, hinges at most %.2f deg past their limits, %s\n",
           pos[CHEST].y, pos[PELVIS].z - pelvis_z0, worst_sep * 1000.0f, worst_hinge, asleep ? "asleep" : "awake");

    int failed = 0;
    if (hit_bone != CHEST) {
        fprintf(stderr, "the blow to the chest landed on the %s\n", hit_bone < BONES ? NAMES[hit_bone] : "?");
        failed = 1;
    }
    if (pos[CHEST].y > 0.5f) {
        fprintf(stderr, "the ragdoll did not fall (chest at %.2f m)\n", pos[CHEST].y);
        failed = 1;
    }
    /* Joints that never visibly open (the library's Gauss-Seidel pipeline trades micrometres
       for speed): at most 10 mm apart and 5 degrees past a limit at the peak of the fall. */
    if (worst_sep > 10e-3f) {
        fprintf(stderr, "a joint came apart by %.2f mm\n", worst_sep * 1000.0f);
        failed = 1;
    }
    if (worst_hinge > 5.0f) {
        fprintf(stderr, "a hinge left its limits by %.2f deg\n", worst_hinge);
        failed = 1;
    }
    CALL(sinew_ragdoll_destroy(ragdoll));
    CALL(sinew_collider_destroy(floor_collider));
    CALL(sinew_world_destroy(world));
    return failed;
}
