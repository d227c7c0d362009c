/* A powered ragdoll that is knocked down and gets up again, through the C ABI in one small
 * C99 program (the chapter's section 5 with the powered ragdoll of ABI 7).
 *
 *   1. Walk: the humanoid template (sinew_ragdoll_create_humanoid) follows a recorded walk —
 *      four keyframes of hip and knee angles generated here, interpolated every frame, the
 *      bones' world poses written with sinew_ragdoll_set_targets — as a powered ragdoll: pin
 *      weight 1 (every bone pulled to its animated world pose) and muscle strength 1 (every
 *      joint turned towards the animated local rotation).
 *   2. Hit: sinew_ragdoll_apply_impulse, 600 N s from the front at the pelvis. The hit
 *      weakens the bone and its neighbours; the root is pushed away from its animated
 *      position, the ragdoll reports SINEW_RAGDOLL_EVENT_BALANCE_LOST and goes limp (had it
 *      not within half a second, the host lets go itself with sinew_ragdoll_set_pin_weight_all
 *      0, and the program fails). The pins, springs to the animation, are already pulling
 *      the body back when they are cut: it falls forwards, past where it was hit.
 *   3. Lie still: step until sinew_ragdoll_is_at_rest(0.5 s).
 *   4. Get up: sinew_ragdoll_get_up_info tells the side it lies on and so the clip (get up
 *      from the front or from the back) and where the clip's root goes; the ragdoll turns
 *      kinematic (which takes the snapshot) and for 0.5 s the targets are the blend from
 *      the snapshot into the playing get-up clip (sinew_ragdoll_blend_from_snapshot with
 *      sinew_blend_alpha), then the clip alone until it stands.
 *
 * It prints a short log and exits 1 if any call fails or a check fails: the walk's largest
 * pin error is within 10 mm, the balance is lost, the ragdoll comes to rest within 10 s, the
 * blend's first frame is the snapshot bit for bit, and at the end it stands in the clip's
 * last pose. Built and run (under valgrind) by scripts/test-c.sh:
 *
 *   cc -std=c99 -Wall -Werror -Iinclude examples/ragdoll_getup.c -Ltarget/release -lsinew -lm
 */

#include "sinew.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALL(call)                                                                               \
    do {                                                                                         \
        SinewResult r_ = (call);                                                                 \
        if (r_ != SINEW_OK) {                                                                    \
            fprintf(stderr, "%s failed (%d): %s\n", #call, (int)r_, sinew_last_error_message()); \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)

enum { BONES = SINEW_HUMANOID_BONE_COUNT };

static const char *const NAMES[BONES] = {"pelvis", "left hip", "left knee", "right hip", "right knee", "middle spine",
                                         "head",   "left arm", "left elbow", "right arm", "right elbow"};

static const float DT = 1.0f / 60.0f;
#define HIT 600.0f /* N s */
static const float DEG = 3.14159265f / 180.0f;

static SinewVec3 v3(float x, float y, float z) {
    SinewVec3 v = {x, y, z};
    return v;
}
static SinewVec3 add(SinewVec3 a, SinewVec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static SinewVec3 sub(SinewVec3 a, SinewVec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static float dist(SinewVec3 a, SinewVec3 b) {
    SinewVec3 d = sub(a, b);
    return sqrtf(d.x * d.x + d.y * d.y + d.z * d.z);
}

/* Quaternions (x, y, z, w), the formulas Unity and Sinew share. */
static SinewQuat qmul(SinewQuat a, SinewQuat b) {
    SinewQuat r = {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
    return r;
}
static SinewVec3 qrot(SinewQuat q, SinewVec3 v) {
    SinewQuat p = {v.x, v.y, v.z, 0.0f}, c = {-q.x, -q.y, -q.z, q.w};
    SinewQuat r = qmul(qmul(q, p), c);
    return v3(r.x, r.y, r.z);
}
static SinewQuat about_x(float radians) {
    SinewQuat q = {sinf(0.5f * radians), 0.0f, 0.0f, cosf(0.5f * radians)};
    return q;
}
static const SinewQuat IDENTITY = {0.0f, 0.0f, 0.0f, 1.0f};

/* ---- the animation: a pose is a root offset, a whole-body turn and per-bone turns -------- *
 * Turns are about the character's right (+X: the hips' and knees' axis) in the bind frame,
 * composed down the chain: a bone turns with its parent, its own turn about its joint. */
typedef struct {
    SinewVec3 root;     /* the pelvis's offset from its bind position */
    float body;         /* the whole body's turn about right (rad) */
    float joint[BONES]; /* each bone's own turn about right (rad) */
} Key;

static float lerpf(float a, float b, float t) { return a + (b - a) * t; }

/* The clip's pose at `t` of `count` keys spaced `key_time` s apart (held at the last). */
static Key sample(const Key *keys, int count, float key_time, float t, int loop) {
    float u = t / key_time;
    int k;
    Key out;
    if (loop) {
        u = fmodf(u, (float)count);
    } else if (u >= (float)(count - 1)) {
        return keys[count - 1];
    }
    k = (int)u;
    u -= (float)k;
    {
        const Key *a = &keys[k], *b = &keys[(k + 1) % count];
        int i;
        out.root = v3(lerpf(a->root.x, b->root.x, u), lerpf(a->root.y, b->root.y, u), lerpf(a->root.z, b->root.z, u));
        out.body = lerpf(a->body, b->body, u);
        for (i = 0; i < BONES; i++) out.joint[i] = lerpf(a->joint[i], b->joint[i], u);
    }
    return out;
}

/* World poses of every bone for `key`, the character placed at `at` turned by `yaw` (forward kinematics). */
static void pose_of(const SinewBoneDesc *bind, const Key *key, SinewVec3 at, SinewQuat yaw, SinewVec3 *pos, SinewQuat *rot) {
    SinewQuat turn[BONES];
    int i;
    for (i = 0; i < BONES; i++) {
        int p = bind[i].parent;
        if (p < 0) {
            turn[i] = qmul(yaw, about_x(key->body + key->joint[i]));
            pos[i] = add(at, qrot(yaw, key->root));
        } else {
            turn[i] = qmul(turn[p], about_x(key->joint[i]));
            pos[i] = add(pos[p], qrot(turn[p], sub(bind[i].position, bind[p].position)));
        }
        rot[i] = qmul(turn[i], bind[i].rotation);
    }
}

int main(void) {
    int failed = 0;
    SinewWorldDesc wd;
    CALL(sinew_world_desc_default(&wd));
    wd.thread_count = 1;
    SinewWorld world;
    CALL(sinew_world_create(&wd, &world));
    SinewColliderDesc floor_desc;
    CALL(sinew_collider_desc_default(&floor_desc));
    floor_desc.shape = SINEW_SHAPE_PLANE;
    memset(&floor_desc.transform, 0, sizeof floor_desc.transform);
    floor_desc.transform.m[0] = floor_desc.transform.m[5] = floor_desc.transform.m[10] = floor_desc.transform.m[15] = 1.0f;
    SinewCollider floor_collider;
    CALL(sinew_collider_create(world, &floor_desc, &floor_collider));

    /* The humanoid template: 1.8 m, 20 kg, standing at the origin facing +Z, feet on the floor. */
    SinewHumanoidBones rig;
    CALL(sinew_humanoid_bones_default(&rig));
    SinewBoneDesc bind[BONES];
    CALL(sinew_humanoid_bone_descs(&rig, bind, BONES));
    SinewRagdollSettings settings;
    CALL(sinew_ragdoll_settings_default(&settings));
    /* Loses its balance once the pelvis is 0.2 m from where the walk puts it (default 0.4 m:
     * at pin weight 1 the pins hold a 20 kg body within 0.2 m of a 600 N s shove). */
    settings.balance_distance = 0.2f;
    SinewRagdoll ragdoll;
    CALL(sinew_ragdoll_create_humanoid(world, &rig, &settings, &ragdoll));
    const SinewVec3 pelvis_bind = bind[SINEW_HUMANOID_PELVIS].position;

    /* ---- 1. walk: four keyframes of a 1 s cycle, 1 m/s forward ------------------------- */
    Key walk[4];
    memset(walk, 0, sizeof walk);
    /* contact (left leg forward), passing, contact (right forward), passing; hips turn
     * negative to swing forwards, knees positive to bend (the template's hinge [0°, 80°]). */
    walk[0].joint[SINEW_HUMANOID_LEFT_HIP] = -25.0f * DEG;
    walk[0].joint[SINEW_HUMANOID_LEFT_KNEE] = 5.0f * DEG;
    walk[0].joint[SINEW_HUMANOID_RIGHT_HIP] = 15.0f * DEG;
    walk[0].joint[SINEW_HUMANOID_RIGHT_KNEE] = 25.0f * DEG;
    walk[1].joint[SINEW_HUMANOID_LEFT_HIP] = -5.0f * DEG;
    walk[1].joint[SINEW_HUMANOID_LEFT_KNEE] = 10.0f * DEG;
    walk[1].joint[SINEW_HUMANOID_RIGHT_HIP] = -10.0f * DEG;
    walk[1].joint[SINEW_HUMANOID_RIGHT_KNEE] = 45.0f * DEG;
    walk[2] = walk[0];
    walk[2].joint[SINEW_HUMANOID_LEFT_HIP] = walk[0].joint[SINEW_HUMANOID_RIGHT_HIP];
    walk[2].joint[SINEW_HUMANOID_LEFT_KNEE] = walk[0].joint[SINEW_HUMANOID_RIGHT_KNEE];
    walk[2].joint[SINEW_HUMANOID_RIGHT_HIP] = walk[0].joint[SINEW_HUMANOID_LEFT_HIP];
    walk[2].joint[SINEW_HUMANOID_RIGHT_KNEE] = walk[0].joint[SINEW_HUMANOID_LEFT_KNEE];
    walk[3] = walk[1];
    walk[3].joint[SINEW_HUMANOID_LEFT_HIP] = walk[1].joint[SINEW_HUMANOID_RIGHT_HIP];
    walk[3].joint[SINEW_HUMANOID_LEFT_KNEE] = walk[1].joint[SINEW_HUMANOID_RIGHT_KNEE];
    walk[3].joint[SINEW_HUMANOID_RIGHT_HIP] = walk[1].joint[SINEW_HUMANOID_LEFT_HIP];
    walk[3].joint[SINEW_HUMANOID_RIGHT_KNEE] = walk[1].joint[SINEW_HUMANOID_LEFT_KNEE];
    for (int k = 0; k < 4; k++) walk[k].root.y = (k % 2) ? 0.02f : 0.0f; /* up at passing */
    const float speed = 1.0f, key_time = 0.25f;

    SinewVec3 target_pos[BONES], pos[BONES];
    SinewQuat target_rot[BONES], rot[BONES];
    float t = 0.0f;
    Key now = sample(walk, 4, key_time, 0.0f, 1);
    pose_of(bind, &now, pelvis_bind, IDENTITY, target_pos, target_rot);
    CALL(sinew_ragdoll_set_pose(ragdoll, target_pos, BONES, target_rot, BONES, 0));
    CALL(sinew_ragdoll_set_targets(ragdoll, target_pos, BONES, target_rot, BONES));
    CALL(sinew_ragdoll_set_pin_weight_all(ragdoll, 1.0f));
    CALL(sinew_ragdoll_set_muscle_strength_all(ragdoll, 1.0f));
    float worst_pin = 0.0f;
    int worst_bone = 0;
    for (int frame = 1; frame <= 120; frame++) { /* 2 s: two cycles */
        t = (float)frame * DT;
        now = sample(walk, 4, key_time, t, 1);
        pose_of(bind, &now, add(pelvis_bind, v3(0.0f, 0.0f, speed * t)), IDENTITY, target_pos, target_rot);
        CALL(sinew_ragdoll_set_targets(ragdoll, target_pos, BONES, target_rot, BONES));
        CALL(sinew_world_step(world, DT));
        CALL(sinew_ragdoll_read_pose(ragdoll, pos, BONES, rot, BONES));
        for (int i = 0; i < BONES; i++) {
            float e = dist(pos[i], target_pos[i]);
            if (e > worst_pin) {
                worst_pin = e;
                worst_bone = i;
            }
        }
    }
    printf("walk: 2 s at %.1f m/s, pin weight 1, muscle strength 1: max pin error %.2f mm (%s)\n", speed, worst_pin * 1000.0f, NAMES[worst_bone]);
    if (worst_pin > 0.01f) {
        fprintf(stderr, "the powered ragdoll strayed %.2f mm from its walk\n", worst_pin * 1000.0f);
        failed = 1;
    }

    /* ---- 2. the hit: from the front at the pelvis, walking on until the balance goes ----- */
    uint32_t events = 0, hit_bone = BONES;
    CALL(sinew_ragdoll_take_events(ragdoll, &events)); /* clear */
    SinewVec3 hit_point = add(target_pos[SINEW_HUMANOID_PELVIS], v3(0.0f, 0.05f, 0.15f));
    CALL(sinew_ragdoll_apply_impulse(ragdoll, hit_point, v3(0.0f, 0.0f, -HIT), &hit_bone));
    SinewDriveState hit_state;
    CALL(sinew_ragdoll_get_drive_state(ragdoll, hit_bone, &hit_state));
    printf("hit: %.0f N s from the front at t = %.2f s on the %s: pin weight acting %.2f of %.2f (hit loss %.2f)\n", HIT, t,
           hit_bone < BONES ? NAMES[hit_bone] : "?", hit_state.effective_pin_weight, hit_state.pin_weight, hit_state.hit_loss);
    const float hit_time = t;
    float lost_time = -1.0f;
    for (int frame = 1; frame <= 30 && lost_time < 0.0f; frame++) {
        t += DT;
        now = sample(walk, 4, key_time, t, 1);
        pose_of(bind, &now, add(pelvis_bind, v3(0.0f, 0.0f, speed * t)), IDENTITY, target_pos, target_rot);
        CALL(sinew_ragdoll_set_targets(ragdoll, target_pos, BONES, target_rot, BONES));
        CALL(sinew_world_step(world, DT));
        CALL(sinew_ragdoll_take_events(ragdoll, &events));
        if (events & SINEW_RAGDOLL_EVENT_BALANCE_LOST) lost_time = t;
    }
    if (lost_time >= 0.0f) {
        printf("balance lost at t = %.2f s (%.0f ms after the hit): limp\n", lost_time, (lost_time - hit_time) * 1000.0f);
    } else {
        /* The host lets go itself. */
        CALL(sinew_ragdoll_set_pin_weight_all(ragdoll, 0.0f));
        CALL(sinew_ragdoll_set_muscle_strength_all(ragdoll, 0.0f));
        lost_time = t;
        fprintf(stderr, "the balance was not lost within 0.5 s of the hit; let go at t = %.2f s\n", t);
        failed = 1;
    }
    SinewDriveState limp;
    CALL(sinew_ragdoll_get_drive_state(ragdoll, SINEW_HUMANOID_HEAD, &limp));
    if (limp.muscle_strength != 0.0f || limp.pin_weight != 0.0f) {
        fprintf(stderr, "still driven after the balance loss (strength %.2f, pin weight %.2f)\n", limp.muscle_strength, limp.pin_weight);
        failed = 1;
    }

    /* ---- 3. lie still ------------------------------------------------------------------ */
    uint32_t at_rest = 0;
    float rest_clock = 0.0f;
    for (int frame = 0; frame < 600 && !at_rest; frame++) {
        t += DT;
        CALL(sinew_world_step(world, DT));
        CALL(sinew_ragdoll_is_at_rest(ragdoll, 0.5f, &at_rest));
    }
    CALL(sinew_ragdoll_get_rest_time(ragdoll, &rest_clock));
    printf("at rest at t = %.2f s, %.2f s after the balance loss (still for %.2f s)\n", t, t - lost_time, rest_clock);
    if (!at_rest) {
        fprintf(stderr, "the ragdoll did not come to rest within 10 s\n");
        failed = 1;
    }

    /* ---- 4. get up ----------------------------------------------------------------------- */
    SinewGetUpQuery query;
    CALL(sinew_get_up_query_default(&query));
    SinewGetUpInfo info;
    CALL(sinew_ragdoll_get_up_info(ragdoll, &query, &info));
    static const char *const SIDES[5] = {"?", "face up", "face down", "on its left side", "on its right side"};
    printf("lying %s (front along up %.2f): clip \"%s\", root at (%.2f, %.2f, %.2f)\n", info.side <= 4 ? SIDES[info.side] : "?", info.front_up,
           info.from_front ? "get up from the front" : "get up from the back", info.root_position.x, info.root_position.y, info.root_position.z);

    /* The get-up clips: lying (the body turned ±90° about right, the pelvis 0.12 m up), on
     * the knees or sitting, standing; 0.6 s a key. Face down: the body turned +90° (front
     * down, head forward); face up: −90° (front up, feet forward), as get_up_info's root
     * rotation expects. */
    const float lie = info.from_front ? 90.0f * DEG : -90.0f * DEG;
    const float lying_height = 0.12f - pelvis_bind.y;
    Key clip[3];
    memset(clip, 0, sizeof clip);
    clip[0].body = lie;
    clip[0].root = v3(0.0f, lying_height, 0.0f);
    clip[1].body = 0.5f * lie;
    clip[1].root = v3(0.0f, 0.5f * lying_height, 0.0f);
    clip[1].joint[SINEW_HUMANOID_LEFT_HIP] = clip[1].joint[SINEW_HUMANOID_RIGHT_HIP] = info.from_front ? 0.0f : -60.0f * DEG;
    clip[1].joint[SINEW_HUMANOID_LEFT_KNEE] = clip[1].joint[SINEW_HUMANOID_RIGHT_KNEE] = 60.0f * DEG;
    const float clip_key_time = 0.6f, blend_time = 0.5f, clip_length = 2.0f * clip_key_time;
    SinewVec3 root_at = v3(info.root_position.x, info.root_position.y + pelvis_bind.y, info.root_position.z);

    CALL(sinew_ragdoll_set_kinematic(ragdoll, 1)); /* takes the snapshot */
    SinewVec3 snap_pos[BONES], anim_pos[BONES];
    SinewQuat snap_rot[BONES], anim_rot[BONES];
    CALL(sinew_ragdoll_read_snapshot(ragdoll, snap_pos, BONES, snap_rot, BONES));
    int first_is_snapshot = 0;
    float alpha = 0.0f, clip_t = 0.0f;
    for (int frame = 0; clip_t < clip_length + 0.25f; frame++) {
        clip_t = (float)frame * DT;
        now = sample(clip, 3, clip_key_time, clip_t, 0);
        pose_of(bind, &now, root_at, info.root_rotation, anim_pos, anim_rot);
        CALL(sinew_blend_alpha(clip_t, blend_time, &alpha));
        CALL(sinew_ragdoll_blend_from_snapshot(ragdoll, anim_pos, BONES, anim_rot, BONES, alpha, target_pos, BONES, target_rot, BONES));
        if (frame == 0) {
            first_is_snapshot = memcmp(target_pos, snap_pos, sizeof snap_pos) == 0 && memcmp(target_rot, snap_rot, sizeof snap_rot) == 0;
        }
        CALL(sinew_ragdoll_set_targets(ragdoll, target_pos, BONES, target_rot, BONES));
        CALL(sinew_world_step(world, DT));
    }
    printf("blend: %.1f s from the snapshot into the clip; its first frame %s the snapshot bit for bit\n", blend_time,
           first_is_snapshot ? "equals" : "DIFFERS FROM");
    if (!first_is_snapshot) failed = 1;

    CALL(sinew_ragdoll_read_pose(ragdoll, pos, BONES, rot, BONES));
    float off = 0.0f;
    for (int i = 0; i < BONES; i++) {
        float e = dist(pos[i], anim_pos[i]);
        if (e > off) off = e;
    }
    printf("standing after %.2f s of the clip: head at %.2f m (bind %.2f m), %.3f mm from the clip's last pose\n", clip_t,
           pos[SINEW_HUMANOID_HEAD].y, bind[SINEW_HUMANOID_HEAD].position.y, off * 1000.0f);
    if (alpha != 1.0f || off > 1e-3f || fabsf(pos[SINEW_HUMANOID_HEAD].y - bind[SINEW_HUMANOID_HEAD].position.y) > 0.05f) {
        fprintf(stderr, "the ragdoll does not stand in the clip's last pose\n");
        failed = 1;
    }

    CALL(sinew_ragdoll_destroy(ragdoll));
    CALL(sinew_collider_destroy(floor_collider));
    CALL(sinew_world_destroy(world));
    printf("%s\n", failed ? "FAILED" : "ok");
    return failed;
}
