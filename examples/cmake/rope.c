/* A rope hanging from a pin beside a sphere collider, in C99. C has no sinew.hpp helpers:
 * this is how to write the column-major matrix (Unity's Matrix4x4 layout) by hand, from a
 * translation t, a unit quaternion q = (x, y, z, w) and a scale s, as T * R * S. Exits 1 unless
 * the rope behaves as a pendulum released from rest at its pin's height: its segments keep
 * their length within 3 % (it measures 1.9 % at the bottom of the swing), its end never rises
 * above the pin (energy only leaves it) and it does swing down (its end at least 0.9 m below
 * the pin). */
#include "sinew.h"

#include <math.h>
#include <stdio.h>

/* m[column * 4 + row]; columns 0-2 are the rotated, scaled axes, column 3 the translation. */
static SinewMat4 trs(SinewVec3 t, SinewQuat q, SinewVec3 s) {
    SinewMat4 m;
    float x = q.x, y = q.y, z = q.z, w = q.w;
    m.m[0] = (1 - 2 * (y * y + z * z)) * s.x;
    m.m[1] = 2 * (x * y + w * z) * s.x;
    m.m[2] = 2 * (x * z - w * y) * s.x;
    m.m[3] = 0;
    m.m[4] = 2 * (x * y - w * z) * s.y;
    m.m[5] = (1 - 2 * (x * x + z * z)) * s.y;
    m.m[6] = 2 * (y * z + w * x) * s.y;
    m.m[7] = 0;
    m.m[8] = 2 * (x * z + w * y) * s.z;
    m.m[9] = 2 * (y * z - w * x) * s.z;
    m.m[10] = (1 - 2 * (x * x + y * y)) * s.z;
    m.m[11] = 0;
    m.m[12] = t.x;
    m.m[13] = t.y;
    m.m[14] = t.z;
    m.m[15] = 1;
    return m;
}

#define POINTS 11

int main(void) {
    SinewWorldDesc wd;
    SinewWorld world;
    SinewRopeDesc rd;
    SinewBody rope;
    SinewColliderDesc cd;
    SinewCollider post;
    SinewVec3 points[POINTS], out[POINTS];
    uint32_t pin = 0;
    SinewVec3 t = {1.0f, 0.5f, 0.0f}, s = {1.0f, 1.0f, 1.0f};
    SinewQuat q = {0.0f, 0.0f, 0.0f, 1.0f};
    SinewMat4 m;
    float worst = 0.0f, highest = -1e9f, lowest = 1e9f;
    int i, frame, ok;

    if (sinew_world_desc_default(&wd) != SINEW_OK || sinew_world_create(&wd, &world) != SINEW_OK) return 1;
    /* A rope 1 m long, laid out horizontally from (0, 2, 0): it swings down and hangs. */
    for (i = 0; i < POINTS; ++i) {
        points[i].x = 0.1f * (float)i;
        points[i].y = 2.0f;
        points[i].z = 0.0f;
    }
    if (sinew_rope_desc_default(&rd) != SINEW_OK) return 1;
    rd.points = points;
    rd.point_count = POINTS;
    rd.pin_indices = &pin;
    rd.pin_count = 1;
    if (sinew_rope_create(world, &rd, &rope) != SINEW_OK) return 1;

    /* A ball beside the rope's path (1.8 m from the pin), placed with the matrix above, rotated
     * 90 degrees about z: q = (0, 0, sin 45°, cos 45°). */
    q.z = q.w = (float)sqrt(0.5);
    m = trs(t, q, s);
    if (sinew_collider_desc_default(&cd) != SINEW_OK || sinew_collider_create(world, &cd, &post) != SINEW_OK) return 1;
    if (sinew_collider_set_transform(post, &m) != SINEW_OK) return 1;

    for (frame = 0; frame < 300; ++frame) {
        if (sinew_world_step(world, 1.0f / 60.0f) != SINEW_OK) return 1;
        if (sinew_body_read_positions(rope, out, POINTS) != SINEW_OK) return 1;
        for (i = 1; i < POINTS; ++i) {
            float dx = out[i].x - out[i - 1].x, dy = out[i].y - out[i - 1].y, dz = out[i].z - out[i - 1].z;
            float stretch = fabsf(sqrtf(dx * dx + dy * dy + dz * dz) / 0.1f - 1.0f);
            if (stretch > worst) worst = stretch;
        }
        if (out[POINTS - 1].y > highest) highest = out[POINTS - 1].y;
        if (out[POINTS - 1].y < lowest) lowest = out[POINTS - 1].y;
    }
    ok = worst < 0.03f && highest <= 2.0f + 1e-3f && lowest <= 2.0f - 0.9f;
    printf("rope: worst stretch %.4f, its end between y = %.3f and %.3f m (pin at 2 m)\n", (double)worst, (double)lowest,
           (double)highest);
    printf("rope_c: %s\n", ok ? "ok" : "FAILED");
    sinew_world_destroy(world);
    return ok ? 0 : 1;
}
