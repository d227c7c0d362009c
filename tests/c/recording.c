/* Recording a ragdoll from C (issue 29, PuppetMaster's "Baker"), as docs/design.md
 * ("Recording a ragdoll") documents it: per frame a time stamp and every bone's pose as
 * sinew_ragdoll_read_pose gives it, kept in the little-endian layout that sinew::RagdollRecording
 * (include/sinew.hpp) and Sinew.RagdollRecorder (bindings/csharp) save and load.
 *
 * A humanoid is knocked over and falls for 120 host frames of 1/50 s in a 60 Hz world (so the
 * readback's alpha runs through (0, 1)); its poses are recorded, written to bytes and read
 * back; a second humanoid in another world is stepped and posed frame by frame from the
 * loaded recording, and each frame it reads back (read_pose) exactly the recorded bits
 * (memcmp). Then the layout's refusals: a wrong magic, a truncated file.
 *
 *   recording              (scripts/test-c.sh; under valgrind too)
 *   recording write PATH   also writes the recording to PATH (scripts/test-csharp.sh: C# loads
 *                          it and writes the same bytes for the same scene)
 *   recording replay PATH  loads the recording at PATH (written by C#'s RagdollRecorder) and
 *                          replays it onto a humanoid: every frame's bits read back
 *
 * One line per check; the first failure exits with status 1. */

#include "sinew.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_FILE "recording.c"
#define CHECK_PROGRAM "c-recording"
#include "check.h"

#define FRAMES 120
#define BONES SINEW_HUMANOID_BONE_COUNT
#define HOST_DT (1.0f / 50.0f)

/* ---- the documented pattern: one frame, and the saved layout ---------------------------- */

/* One recorded frame: its time (s) and every bone's world pose, as read_pose wrote them. */
typedef struct Frame {
    float time;
    SinewVec3 positions[BONES];
    SinewQuat rotations[BONES];
} Frame;

#define HEADER_SIZE 20u
#define FRAME_SIZE(n) (4u + 28u * (n))

static unsigned char *put_u32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
    return p + 4;
}

static unsigned char *put_f32(unsigned char *p, float f) {
    uint32_t v;
    memcpy(&v, &f, 4);
    return put_u32(p, v);
}

static uint32_t get_u32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float get_f32(const unsigned char *p) {
    uint32_t v = get_u32(p);
    float f;
    memcpy(&f, &v, 4);
    return f;
}

/* Writes `count` frames of BONES bones into `out` (HEADER_SIZE + count * FRAME_SIZE(BONES) bytes). */
static void save_recording(const Frame *frames, uint32_t count, unsigned char *out) {
    unsigned char *p = out;
    uint32_t f, b;
    p = put_u32(p, 0x52574E53u); /* "SNWR" */
    p = put_u32(p, 1u);          /* version */
    p = put_u32(p, 1u);          /* kind 1: ragdoll bones */
    p = put_u32(p, BONES);
    p = put_u32(p, count);
    for (f = 0; f < count; f++) {
        p = put_f32(p, frames[f].time);
        for (b = 0; b < BONES; b++) {
            p = put_f32(p, frames[f].positions[b].x);
            p = put_f32(p, frames[f].positions[b].y);
            p = put_f32(p, frames[f].positions[b].z);
        }
        for (b = 0; b < BONES; b++) {
            p = put_f32(p, frames[f].rotations[b].x);
            p = put_f32(p, frames[f].rotations[b].y);
            p = put_f32(p, frames[f].rotations[b].z);
            p = put_f32(p, frames[f].rotations[b].w);
        }
    }
}

/* Reads a recording of BONES bones from `size` bytes into `frames` (room for `capacity`);
 * returns the frame count, or -1 for anything but the layout (magic, version, kind, bone
 * count, size, non-finite or decreasing times). */
static long load_recording(const unsigned char *data, size_t size, Frame *frames, uint32_t capacity) {
    uint32_t count, f, b;
    const unsigned char *p;
    if (size < HEADER_SIZE || get_u32(data) != 0x52574E53u || get_u32(data + 4) != 1u || get_u32(data + 8) != 1u ||
        get_u32(data + 12) != BONES)
        return -1;
    count = get_u32(data + 16);
    if (count > capacity || (size - HEADER_SIZE) % FRAME_SIZE(BONES) != 0 || (size - HEADER_SIZE) / FRAME_SIZE(BONES) != count)
        return -1;
    p = data + HEADER_SIZE;
    for (f = 0; f < count; f++) {
        frames[f].time = get_f32(p);
        p += 4;
        if (!isfinite(frames[f].time) || (f > 0 && frames[f].time < frames[f - 1].time)) return -1;
        for (b = 0; b < BONES; b++, p += 12) {
            frames[f].positions[b].x = get_f32(p);
            frames[f].positions[b].y = get_f32(p + 4);
            frames[f].positions[b].z = get_f32(p + 8);
        }
        for (b = 0; b < BONES; b++, p += 16) {
            frames[f].rotations[b].x = get_f32(p);
            frames[f].rotations[b].y = get_f32(p + 4);
            frames[f].rotations[b].z = get_f32(p + 8);
            frames[f].rotations[b].w = get_f32(p + 12);
        }
    }
    return (long)count;
}

/* ---- the test ----------------------------------------------------------------------------- */

static void must(SinewResult r, const char *what, int line) {
    if (r != SINEW_OK) fail(line, what, result_name(r));
}
#define MUST(call) must((call), #call, __LINE__)

static SinewWorld make_world(void) {
    SinewWorldDesc d;
    SinewWorld w;
    MUST(sinew_world_desc_default(&d));
    d.thread_count = 1;
    MUST(sinew_world_create(&d, &w));
    return w;
}

static SinewRagdoll make_humanoid(SinewWorld w) {
    SinewHumanoidBones h;
    SinewRagdollSettings s;
    SinewRagdoll r;
    MUST(sinew_humanoid_bones_default(&h));
    MUST(sinew_ragdoll_settings_default(&s));
    MUST(sinew_ragdoll_create_humanoid(w, &h, &s, &r));
    return r;
}

static SinewVec3 v3(float x, float y, float z) {
    SinewVec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

/* Replays `count` frames onto a humanoid in a new world stepped at the recording's rate: each
 * frame step, set_pose, read_pose, and the read bits must be the frame's. */
static void replay(const Frame *frames, uint32_t count) {
    SinewWorld b = make_world();
    SinewRagdoll rb = make_humanoid(b);
    SinewWorldStats stats;
    SinewVec3 pos[BONES];
    SinewQuat rot[BONES];
    uint32_t f, alpha_inside = 0, same_bits = 0;
    MUST(sinew_ragdoll_set_kinematic(rb, 1));
    for (f = 0; f < count; f++) {
        MUST(sinew_world_step(b, HOST_DT));
        MUST(sinew_world_get_stats(b, &stats));
        alpha_inside += stats.alpha > 0.0f && stats.alpha < 1.0f;
        MUST(sinew_ragdoll_set_pose(rb, frames[f].positions, BONES, frames[f].rotations, BONES, 0));
        MUST(sinew_ragdoll_read_pose(rb, pos, BONES, rot, BONES));
        same_bits += memcmp(pos, frames[f].positions, sizeof pos) == 0 && memcmp(rot, frames[f].rotations, sizeof rot) == 0;
    }
    printf("     replay: %u of %u frames read back the recorded bits; alpha inside (0, 1) at %u frames\n", same_bits, count, alpha_inside);
    CHECK(alpha_inside > count / 2, "the replaying world's alpha was inside (0, 1) at most frames");
    CHECK(same_bits == count, "every replayed frame reads back exactly the recorded bits (memcmp)");
    MUST(sinew_world_destroy(b));
}

/* Loads the recording at `path` (another program's) and replays it. */
static void replay_file(const char *path) {
    static Frame frames[FRAMES];
    static unsigned char data[HEADER_SIZE + FRAMES * FRAME_SIZE(BONES) + 1];
    FILE *in = fopen(path, "rb");
    size_t size;
    long count;
    CHECK(in != NULL, "the recording file opens");
    size = fread(data, 1, sizeof data, in);
    fclose(in);
    count = load_recording(data, size, frames, FRAMES);
    printf("     %s: %lu bytes, %ld frames\n", path, (unsigned long)size, count);
    CHECK(count > 0, "the file is a ragdoll recording of the humanoid in the documented layout");
    replay(frames, (uint32_t)count);
}

int main(int argc, char **argv) {
    static Frame recorded[FRAMES], loaded[FRAMES];
    static unsigned char bytes[HEADER_SIZE + FRAMES * FRAME_SIZE(BONES)];
    SinewWorld a;
    SinewRagdoll ra;
    SinewVec3 pos[BONES];
    uint32_t bone, f, moved = 0;
    float head_start, head_end;

    if (argc == 3 && strcmp(argv[1], "replay") == 0) {
        replay_file(argv[2]);
        printf(CHECK_PROGRAM ": %d checks passed\n", g_passed);
        return 0;
    }
    a = make_world();
    ra = make_humanoid(a);

    /* Record: knocked over, then each frame step and read. */
    MUST(sinew_ragdoll_apply_impulse(ra, v3(0.1f, 1.5f, 0.0f), v3(0.0f, 0.0f, 30.0f), &bone));
    for (f = 0; f < FRAMES; f++) {
        MUST(sinew_world_step(a, HOST_DT));
        recorded[f].time = (float)(f + 1) * HOST_DT;
        MUST(sinew_ragdoll_read_pose(ra, recorded[f].positions, BONES, recorded[f].rotations, BONES));
        if (f > 0) moved += memcmp(recorded[f].positions, recorded[f - 1].positions, sizeof pos) != 0;
    }
    CHECK(moved == FRAMES - 1, "the recorded ragdoll moved in every frame (the recording is not one pose)");
    head_start = recorded[0].positions[SINEW_HUMANOID_HEAD].y;
    head_end = recorded[FRAMES - 1].positions[SINEW_HUMANOID_HEAD].y;
    CHECK(head_end < head_start - 0.5f, "it fell: the head ends more than 0.5 m lower than it started");
    MUST(sinew_world_destroy(a));

    /* Save and load the documented layout. */
    save_recording(recorded, FRAMES, bytes);
    CHECK(sizeof bytes == 20 + 120 * (4 + 28 * 11), "the layout's size: 20 + frames * (4 + 28 * bones) bytes");
    CHECK(memcmp(bytes, "SNWR", 4) == 0, "the file starts with the magic \"SNWR\"");
    CHECK(load_recording(bytes, sizeof bytes, loaded, FRAMES) == FRAMES, "the saved recording loads (120 frames)");
    CHECK(memcmp(loaded, recorded, sizeof recorded) == 0, "the loaded frames are the recorded bits");
    bytes[0] = 'X';
    CHECK(load_recording(bytes, sizeof bytes, loaded, FRAMES) == -1, "a wrong magic is refused");
    bytes[0] = 'S';
    CHECK(load_recording(bytes, sizeof bytes - 1, loaded, FRAMES) == -1, "a truncated recording is refused");
    if (argc == 3 && strcmp(argv[1], "write") == 0) {
        FILE *out = fopen(argv[2], "wb");
        CHECK(out != NULL && fwrite(bytes, 1, sizeof bytes, out) == sizeof bytes && fclose(out) == 0, "the recording is written to the given path");
    }

    replay(loaded, FRAMES);

    printf(CHECK_PROGRAM ": %d checks passed\n", g_passed);
    return 0;
}
