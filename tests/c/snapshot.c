/* Snapshot and restore from strict C99 (scripts/test-c.sh, also under valgrind): a world
 * with a pinned cloth whose pins move, a rope, a two-bone ragdoll and colliders is saved
 * (size query, a buffer one byte short), stepped 300 frames, restored and stepped the same
 * 300 frames again: the positions and the ragdoll pose are the same bits, and so is the
 * state. Refused loads - flipped bytes, truncations, a world with another object set, a load
 * during an asynchronous step - return their code and a message and change nothing (the
 * world's own snapshot is the same before and after).
 *
 * One line per check; the first failure exits with status 1. Everything is destroyed at the
 * end (valgrind). */

#include "sinew.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_FILE "snapshot.c"
#define CHECK_PROGRAM "c-snapshot"
#include "check.h"

#include "check_calls.h"

static SinewVec3 v3(float x, float y, float z) {
    SinewVec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
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

static const float FRAME = 1.0f / 60.0f;

typedef struct Scene {
    SinewWorld world;
    SinewBody cloth, rope;
    SinewRagdoll ragdoll;
    SinewCollider ball;
} Scene;

static Scene build(uint32_t ropes) {
    Scene s;
    SinewWorldDesc wd;
    SinewClothGridDesc gd;
    SinewRopeDesc rd;
    SinewColliderDesc cd;
    SinewRagdollSettings rs;
    SinewBoneDesc bones[2];
    SinewVec3 pts[8];
    uint32_t i;
    OK(sinew_world_desc_default(&wd));
    wd.thread_count = 2;
    OK(sinew_world_create(&wd, &s.world));
    OK(sinew_cloth_grid_desc_default(&gd));
    gd.columns = 8;
    gd.rows = 8;
    OK(sinew_cloth_create_grid(s.world, &gd, &s.cloth));
    for (i = 0; i < 8; i++) pts[i] = v3(1.0f + 0.1f * (float)i, 1.0f, 0.0f);
    OK(sinew_rope_desc_default(&rd));
    rd.points = pts;
    rd.point_count = 8;
    for (i = 0; i < ropes; i++) OK(sinew_rope_create(s.world, &rd, &s.rope));
    OK(sinew_ragdoll_settings_default(&rs));
    for (i = 0; i < 2; i++) {
        OK(sinew_bone_desc_default(&bones[i]));
        bones[i].parent = (int32_t)i - 1;
        bones[i].position = v3(-1.0f, 1.0f - 0.3f * (float)i, 0.0f);
    }
    OK(sinew_ragdoll_create(s.world, &rs, bones, 2, &s.ragdoll));
    OK(sinew_collider_desc_default(&cd));
    cd.shape = SINEW_SHAPE_PLANE;
    OK(sinew_collider_create(s.world, &cd, &s.ball));
    OK(sinew_collider_desc_default(&cd));
    cd.radius = 0.15f;
    cd.transform = translation(0.0f, 0.5f, 0.0f);
    OK(sinew_collider_create(s.world, &cd, &s.ball));
    return s;
}

static void frame(const Scene *s, int f) {
    uint32_t idx[8];
    SinewVec3 tg[8];
    float t = (float)f * FRAME;
    float dx = 0.1f * (float)(f % 40) / 40.0f;
    SinewMat4 m = translation(0.2f - dx, 0.5f, 0.0f);
    uint32_t c;
    for (c = 0; c < 8; c++) {
        idx[c] = c;
        tg[c] = v3(-0.175f + 0.05f * (float)c + dx, 0.0f, -0.175f);
    }
    if (sinew_body_set_pin_targets(s->cloth, idx, 8, tg, 8) != SINEW_OK) fail(__LINE__, "pins", "refused");
    if (sinew_collider_set_transform(s->ball, &m) != SINEW_OK) fail(__LINE__, "collider", "refused");
    if (f == 20 && sinew_ragdoll_set_kinematic(s->ragdoll, 1) != SINEW_OK) fail(__LINE__, "kinematic", "refused");
    if (f == 40 && sinew_ragdoll_set_kinematic(s->ragdoll, 0) != SINEW_OK) fail(__LINE__, "dynamic", "refused");
    (void)t;
    if (f % 5 == 2) {
        if (sinew_world_step_begin(s->world, FRAME) != SINEW_OK || sinew_world_step_end(s->world) != SINEW_OK) fail(__LINE__, "async step", "failed");
    } else if (sinew_world_step(s->world, f % 7 == 3 ? FRAME / 2.0f : FRAME) != SINEW_OK) {
        fail(__LINE__, "step", "failed");
    }
}

/* Everything the host reads back, as raw bits, into `out` (64 + 8 + 2 positions, 2 rotations). */
enum { READBACK = (64 + 8 + 2) * 3 + 2 * 4 };
static void readback(const Scene *s, float *out) {
    SinewQuat q[2];
    if (sinew_body_read_positions(s->cloth, (SinewVec3 *)out, 64) != SINEW_OK) fail(__LINE__, "read cloth", "failed");
    if (sinew_body_read_positions(s->rope, (SinewVec3 *)(out + 64 * 3), 8) != SINEW_OK) fail(__LINE__, "read rope", "failed");
    if (sinew_ragdoll_read_pose(s->ragdoll, (SinewVec3 *)(out + 72 * 3), 2, q, 2) != SINEW_OK) fail(__LINE__, "read pose", "failed");
    memcpy(out + 74 * 3, q, sizeof q);
}

static unsigned char *save(SinewWorld w, size_t *size) {
    size_t n = 0, written = 0;
    unsigned char *buf;
    if (sinew_world_save_state(w, NULL, 0, &n) != SINEW_OK) fail(__LINE__, "size query", "failed");
    buf = (unsigned char *)malloc(n);
    if (buf == NULL) fail(__LINE__, "malloc", "failed");
    if (sinew_world_save_state(w, buf, n, &written) != SINEW_OK || written != n) fail(__LINE__, "save", "failed");
    *size = n;
    return buf;
}

int main(void) {
    Scene s, other;
    SinewWorldDesc wd;
    size_t n = 0, m = 0, short_size = 0, i;
    unsigned char *snap, *after, *before, *theirs;
    float first[READBACK], second[READBACK], at_save[READBACK], now[READBACK];
    int f;

    /* The world the checked errors step (check_calls.h): not the one compared. */
    OK(sinew_world_desc_default(&wd));
    wd.thread_count = 1;
    OK(sinew_world_create(&wd, &g_world));

    s = build(1);
    for (f = 0; f < 60; f++) frame(&s, f);
    OK(sinew_world_save_state(s.world, NULL, 0, &n));
    CHECK(n > 16, "the size query reports the snapshot's size");
    snap = (unsigned char *)malloc(n);
    CHECK(snap != NULL, "buffer");
    memset(snap, 0xAA, n);
    ERR(sinew_world_save_state(s.world, snap, n - 1, &short_size), SINEW_BUFFER_TOO_SMALL);
    CHECK(short_size == n, "a buffer one byte short learns the size it needs");
    CHECK(snap[0] == 0xAA && snap[n - 2] == 0xAA, "nothing was written into the short buffer");
    ERR(sinew_world_save_state(s.world, NULL, 8, &short_size), SINEW_NULL_POINTER);
    ERR(sinew_world_save_state(s.world, snap, n, NULL), SINEW_NULL_POINTER);
    OK(sinew_world_save_state(s.world, snap, n, &m));
    CHECK(m == n, "the whole snapshot is written");
    readback(&s, at_save);

    for (f = 60; f < 360; f++) frame(&s, f);
    readback(&s, first);
    after = save(s.world, &m);
    OK(sinew_world_load_state(s.world, snap, n));
    readback(&s, now);
    CHECK(memcmp(now, at_save, sizeof now) == 0, "the load restores what the host read at the save");
    for (f = 60; f < 360; f++) frame(&s, f);
    readback(&s, second);
    CHECK(memcmp(first, second, sizeof first) == 0, "300 frames after the load: the same bits as after the save");
    free(after);
    after = save(s.world, &m);
    before = save(s.world, &m);
    CHECK(memcmp(after, before, m) == 0, "saving twice gives the same bytes");

    /* Refusals change nothing. */
    for (i = 0; i < n; i += (i < 64 ? 1 : 97)) {
        snap[i] ^= 0x10;
        if (sinew_world_load_state(s.world, snap, n) != SINEW_INVALID_ARGUMENT) fail(__LINE__, "a flipped byte is refused", "accepted");
        snap[i] ^= 0x10;
    }
    pass("a flipped byte at each of the first 64 offsets and every 97th is refused");
    ERR(sinew_world_load_state(s.world, snap, n - 1), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("nothing was changed");
    ERR(sinew_world_load_state(s.world, snap, 10), SINEW_INVALID_ARGUMENT);
    ERR(sinew_world_load_state(s.world, NULL, n), SINEW_NULL_POINTER);
    other = build(2);
    theirs = save(other.world, &i);
    ERR(sinew_world_load_state(s.world, theirs, i), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("body count");
    ERR(sinew_world_load_state(other.world, snap, n), SINEW_INVALID_ARGUMENT);
    OK(sinew_world_step_begin(s.world, FRAME));
    ERR(sinew_world_load_state(s.world, snap, n), SINEW_BUSY);
    OK(sinew_world_step_end(s.world));
    free(before);
    before = save(s.world, &m);
    ERR(sinew_world_load_state(s.world, theirs, i), SINEW_INVALID_ARGUMENT);
    snap[n / 2] ^= 1;
    ERR(sinew_world_load_state(s.world, snap, n), SINEW_INVALID_ARGUMENT);
    MESSAGE_HAS("checksum");
    snap[n / 2] ^= 1;
    free(after);
    after = save(s.world, &m);
    CHECK(memcmp(after, before, m) == 0, "the refused loads changed nothing");

    /* A body's own snapshot. */
    OK(sinew_body_save_state(s.rope, NULL, 0, &m));
    free(theirs);
    theirs = (unsigned char *)malloc(m);
    CHECK(theirs != NULL, "buffer");
    OK(sinew_body_save_state(s.rope, theirs, m, &m));
    OK(sinew_body_load_state(s.rope, theirs, m));
    ERR(sinew_body_load_state(s.cloth, theirs, m), SINEW_INVALID_ARGUMENT);

    free(snap);
    free(after);
    free(before);
    free(theirs);
    OK(sinew_world_destroy(other.world));
    OK(sinew_world_destroy(s.world));
    OK(sinew_world_destroy(g_world));
    printf(CHECK_PROGRAM ": %d checks passed\n", g_passed);
    return 0;
}
