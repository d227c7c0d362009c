/* The reference scene of tests/csharp/WrapperTests.cs, run through the C ABI.
 *
 *   c_reference <positions.bin> <layout.txt>
 *
 * positions.bin: the final readback as raw little-endian float32 (grid positions, grid
 * normals, mesh positions, mesh normals, rope positions, rope normals). The C# test runs
 * the same scene through the wrapper and compares the bytes: the library is deterministic,
 * so the two must be identical.
 *
 * layout.txt: "name value" lines with the header's constants and the sizes and offsets of
 * its structs, which the C# test compares with the csbindgen declarations.
 *
 * Keep the scene in step with ReferenceScene in WrapperTests.cs. */

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew.h"

#define CHECK(call)                                                                     \
    do {                                                                                \
        enum SinewResult r_ = (call);                                                   \
        if (r_ != SINEW_OK) {                                                           \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,        \
                    sinew_last_error_message());                                        \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

enum { GRID_COLUMNS = 12, GRID_ROWS = 10, MESH_ROWS = 3, ROPE_POINTS = 8, FRAMES = 40 };

static void write_vectors(FILE *f, const struct SinewVec3 *v, size_t n) {
    for (size_t i = 0; i < n; i++) {
        float xyz[3] = {v[i].x, v[i].y, v[i].z};
        if (fwrite(xyz, sizeof(float), 3, f) != 3) {
            perror("fwrite");
            exit(1);
        }
    }
}

static void dump_body(FILE *f, struct SinewBody body) {
    size_t n = 0;
    CHECK(sinew_body_get_vertex_count(body, &n));
    struct SinewVec3 *buf = calloc(n, sizeof *buf);
    if (!buf) exit(1);
    CHECK(sinew_body_read_positions(body, buf, n));
    write_vectors(f, buf, n);
    CHECK(sinew_body_read_normals(body, buf, n));
    write_vectors(f, buf, n);
    free(buf);
}

/* Mesh host vertex of particle (row, column): columns 0..2 are the left part, 2..3 the right
 * part; column 2 exists twice (a UV seam), so the two parts share it after welding. */
static unsigned mesh_left(unsigned r, unsigned c) { return r * 3 + c; }
static unsigned mesh_right(unsigned r, unsigned c) { return MESH_ROWS * 3 + r * 2 + (c - 2); }

static void run_scene(const char *path) {
    struct SinewWorldDesc wd;
    CHECK(sinew_world_desc_default(&wd));
    wd.thread_count = 2;
    struct SinewWorld world;
    CHECK(sinew_world_create(&wd, &world));

    /* Grid: 12 x 10, pinned at its two top corners through a pin list. */
    struct SinewClothGridDesc gd;
    CHECK(sinew_cloth_grid_desc_default(&gd));
    gd.columns = GRID_COLUMNS;
    gd.rows = GRID_ROWS;
    gd.spacing = 0.05f;
    gd.origin = (struct SinewVec3){0.0f, 1.0f, 0.0f};
    const uint32_t grid_pins[2] = {0, GRID_COLUMNS - 1};
    gd.pin_mode = SINEW_PIN_LIST;
    gd.pin_indices = grid_pins;
    gd.pin_count = 2;
    gd.material.stretch_compliance = 1e-6f;
    struct SinewBody grid;
    CHECK(sinew_cloth_create_grid(world, &gd, &grid));

    /* Mesh: 3 rows x 4 columns of particles, 15 host vertices, top row pinned by inverse mass 0. */
    struct SinewVec3 mesh_pos[MESH_ROWS * 5];
    float mesh_w[MESH_ROWS * 5];
    for (unsigned r = 0; r < MESH_ROWS; r++) {
        for (unsigned c = 0; c < 4; c++) {
            struct SinewVec3 p = {1.0f + 0.1f * (float)c, 1.0f, 0.1f * (float)r};
            float w = r == 0 ? 0.0f : 100.0f;
            if (c <= 2) { mesh_pos[mesh_left(r, c)] = p; mesh_w[mesh_left(r, c)] = w; }
            if (c >= 2) { mesh_pos[mesh_right(r, c)] = p; mesh_w[mesh_right(r, c)] = w; }
        }
    }
    uint32_t mesh_idx[(MESH_ROWS - 1) * 3 * 6];
    size_t k = 0;
    for (unsigned r = 0; r + 1 < MESH_ROWS; r++) {
        for (unsigned c = 0; c < 3; c++) {
            unsigned (*v)(unsigned, unsigned) = c < 2 ? mesh_left : mesh_right;
            mesh_idx[k++] = v(r, c);
            mesh_idx[k++] = v(r + 1, c);
            mesh_idx[k++] = v(r, c + 1);
            mesh_idx[k++] = v(r, c + 1);
            mesh_idx[k++] = v(r + 1, c);
            mesh_idx[k++] = v(r + 1, c + 1);
        }
    }
    struct SinewClothMeshDesc md;
    CHECK(sinew_cloth_mesh_desc_default(&md));
    md.positions = mesh_pos;
    md.vertex_count = MESH_ROWS * 5;
    md.indices = mesh_idx;
    md.index_count = k;
    md.inverse_masses = mesh_w;
    md.inverse_mass_count = MESH_ROWS * 5;
    struct SinewBody mesh;
    CHECK(sinew_cloth_create_mesh(world, &md, &mesh));

    /* Rope: 8 points along -x, first one pinned. */
    struct SinewVec3 rope_pts[ROPE_POINTS];
    for (unsigned i = 0; i < ROPE_POINTS; i++) {
        rope_pts[i] = (struct SinewVec3){-1.0f - 0.1f * (float)i, 1.0f, 0.0f};
    }
    const uint32_t rope_pins[1] = {0};
    struct SinewRopeDesc rd;
    CHECK(sinew_rope_desc_default(&rd));
    rd.points = rope_pts;
    rd.point_count = ROPE_POINTS;
    rd.pin_indices = rope_pins;
    rd.pin_count = 1;
    struct SinewBody rope;
    CHECK(sinew_rope_create(world, &rd, &rope));

    /* Frames: the grid's pins slide along +x by 1/64 m per frame; dt = 1/50 s exercises the
     * fixed-rate accumulator and readback interpolation. */
    struct SinewVec3 start[GRID_COLUMNS * GRID_ROWS];
    CHECK(sinew_body_read_positions(grid, start, GRID_COLUMNS * GRID_ROWS));
    for (int frame = 1; frame <= FRAMES; frame++) {
        float offset = (float)frame / 64.0f;
        struct SinewVec3 targets[2];
        for (int i = 0; i < 2; i++) {
            targets[i] = start[grid_pins[i]];
            targets[i].x = start[grid_pins[i]].x + offset;
        }
        CHECK(sinew_body_set_pin_targets(grid, grid_pins, 2, targets, 2));
        CHECK(sinew_world_step(world, 1.0f / 50.0f));
    }

    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    dump_body(f, grid);
    dump_body(f, mesh);
    dump_body(f, rope);
    fclose(f);
    CHECK(sinew_world_destroy(world));
}

#define SIZE(T) fprintf(f, "sizeof %s %zu\n", #T, sizeof(struct T))
#define OFFSET(T, field) fprintf(f, "offsetof %s.%s %zu\n", #T, #field, offsetof(struct T, field))
#define CONSTANT(C) fprintf(f, "const %s %lu\n", #C, (unsigned long)(C))

static void write_layout(const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    CONSTANT(SINEW_ABI_VERSION);
    CONSTANT(SINEW_PIN_NONE);
    CONSTANT(SINEW_PIN_TOP_ROW);
    CONSTANT(SINEW_PIN_TOP_CORNERS);
    CONSTANT(SINEW_PIN_LIST);
    CONSTANT(SINEW_MATERIAL_SILK);
    CONSTANT(SINEW_MATERIAL_FLESH);
    CONSTANT(SINEW_BODY_CLOTH);
    CONSTANT(SINEW_BODY_ROPE);
    CONSTANT(SINEW_BODY_STRANDS);
    CONSTANT(SINEW_TETHER_NONE);
    CONSTANT(SINEW_TETHER_EUCLIDEAN);
    CONSTANT(SINEW_TETHER_GEODESIC);
    CONSTANT(SINEW_KERNEL_AUTO);
    CONSTANT(SINEW_KERNEL_SCALAR);
    CONSTANT(SINEW_KERNEL_SSE2);
    CONSTANT(SINEW_KERNEL_AVX);
    CONSTANT(SINEW_SHAPE_SPHERE);
    CONSTANT(SINEW_SHAPE_CAPSULE);
    CONSTANT(SINEW_SHAPE_PLANE);
    CONSTANT(SINEW_SHAPE_BOX);
    CONSTANT(SINEW_STRANDS_STRAIGHT);
    CONSTANT(SINEW_STRANDS_POINTS);
    CONSTANT(sizeof(enum SinewResult));
    CONSTANT(SINEW_JOINT_FREE);
    CONSTANT(SINEW_JOINT_FIXED);
    CONSTANT(SINEW_JOINT_HINGE);
    CONSTANT(SINEW_JOINT_SWING_TWIST);
    CONSTANT(SINEW_HUMANOID_BONE_COUNT);
    CONSTANT(SINEW_LYING_FACE_UP);
    CONSTANT(SINEW_LYING_FACE_DOWN);
    CONSTANT(SINEW_LYING_LEFT_SIDE);
    CONSTANT(SINEW_LYING_RIGHT_SIDE);
    CONSTANT(SINEW_RAGDOLL_EVENT_BALANCE_LOST);
    SIZE(SinewVec3);
    SIZE(SinewQuat);
    SIZE(SinewMat4);
    SIZE(SinewWorld);
    SIZE(SinewBody);
    SIZE(SinewMaterial);
    SIZE(SinewWorldDesc);
    SIZE(SinewWorldStats);
    SIZE(SinewBodyInfo);
    SIZE(SinewClothGridDesc);
    SIZE(SinewClothMeshDesc);
    SIZE(SinewRopeDesc);
    SIZE(SinewCollider);
    SIZE(SinewColliderDesc);
    SIZE(SinewBoneWeight);
    SIZE(SinewDynamics);
    SIZE(SinewLod);
    SIZE(SinewWind);
    SIZE(SinewStrandsDesc);
    SIZE(SinewClothCapeDesc);
    SIZE(SinewClothSkirtDesc);
    SIZE(SinewRagdoll);
    SIZE(SinewJointDesc);
    SIZE(SinewBoneDesc);
    SIZE(SinewRagdollSettings);
    SIZE(SinewHumanoidBones);
    SIZE(SinewDriveState);
    SIZE(SinewGetUpQuery);
    SIZE(SinewGetUpInfo);
    OFFSET(SinewJointDesc, swing_axis);
    OFFSET(SinewJointDesc, low_twist);
    OFFSET(SinewJointDesc, friction);
    OFFSET(SinewBoneDesc, rotation);
    OFFSET(SinewBoneDesc, shape_rotation);
    OFFSET(SinewBoneDesc, density);
    OFFSET(SinewBoneDesc, joint);
    OFFSET(SinewRagdollSettings, kinematic);
    OFFSET(SinewRagdollSettings, muscle_frequency);
    OFFSET(SinewRagdollSettings, pin_damping_ratio);
    OFFSET(SinewRagdollSettings, hit_recovery_time);
    OFFSET(SinewRagdollSettings, balance_distance);
    OFFSET(SinewRagdollSettings, rest_speed);
    OFFSET(SinewHumanoidBones, total_mass);
    OFFSET(SinewDriveState, effective_strength);
    OFFSET(SinewDriveState, hit_loss);
    OFFSET(SinewGetUpQuery, up);
    OFFSET(SinewGetUpQuery, bind_up);
    OFFSET(SinewGetUpInfo, front_up);
    OFFSET(SinewGetUpInfo, root_position);
    OFFSET(SinewGetUpInfo, root_rotation);
    OFFSET(SinewGetUpInfo, heading);
    OFFSET(SinewWorldDesc, interpolate);
    OFFSET(SinewWorldStats, steps);
    OFFSET(SinewWorldStats, alpha);
    OFFSET(SinewBodyInfo, recoveries);
    OFFSET(SinewClothGridDesc, orientation);
    OFFSET(SinewClothGridDesc, pin_mode);
    OFFSET(SinewClothGridDesc, pin_indices);
    OFFSET(SinewClothGridDesc, pin_count);
    OFFSET(SinewClothGridDesc, material);
    OFFSET(SinewClothMeshDesc, vertex_count);
    OFFSET(SinewClothMeshDesc, indices);
    OFFSET(SinewClothMeshDesc, index_count);
    OFFSET(SinewClothMeshDesc, inverse_masses);
    OFFSET(SinewClothMeshDesc, inverse_mass_count);
    OFFSET(SinewClothMeshDesc, weld_distance);
    OFFSET(SinewClothMeshDesc, material);
    OFFSET(SinewRopeDesc, point_count);
    OFFSET(SinewRopeDesc, pin_indices);
    OFFSET(SinewRopeDesc, pin_count);
    OFFSET(SinewRopeDesc, bend);
    OFFSET(SinewRopeDesc, material);
    OFFSET(SinewMaterial, thickness);
    OFFSET(SinewMaterial, static_friction);
    OFFSET(SinewMaterial, kinetic_friction);
    OFFSET(SinewMaterial, collision_mask);
    OFFSET(SinewMaterial, self_collision);
    OFFSET(SinewColliderDesc, radius);
    OFFSET(SinewColliderDesc, half_height);
    OFFSET(SinewColliderDesc, radius0);
    OFFSET(SinewColliderDesc, radius1);
    OFFSET(SinewColliderDesc, half_extents);
    OFFSET(SinewColliderDesc, layers);
    OFFSET(SinewColliderDesc, transform);
    OFFSET(SinewWorldDesc, kernel);
    OFFSET(SinewWorldDesc, wake_ahead_us);
    OFFSET(SinewBodyInfo, topology_version);
    OFFSET(SinewBodyInfo, frozen);
    OFFSET(SinewBodyInfo, substeps);
    OFFSET(SinewBoneWeight, weight3);
    OFFSET(SinewBoneWeight, bone0);
    OFFSET(SinewBoneWeight, bone3);
    OFFSET(SinewDynamics, teleport_distance);
    OFFSET(SinewDynamics, drag);
    OFFSET(SinewDynamics, tear_threshold);
    OFFSET(SinewLod, reduced_substeps);
    OFFSET(SinewLod, freeze_when_invisible);
    OFFSET(SinewWind, speed);
    OFFSET(SinewWind, air_density);
    OFFSET(SinewStrandsDesc, mode);
    OFFSET(SinewStrandsDesc, point_count);
    OFFSET(SinewStrandsDesc, roots);
    OFFSET(SinewStrandsDesc, directions);
    OFFSET(SinewStrandsDesc, root_count);
    OFFSET(SinewStrandsDesc, direction_count);
    OFFSET(SinewStrandsDesc, particles_per_strand);
    OFFSET(SinewStrandsDesc, segment_length);
    OFFSET(SinewStrandsDesc, head);
    OFFSET(SinewStrandsDesc, material);
    OFFSET(SinewClothCapeDesc, back_offset);
    OFFSET(SinewClothCapeDesc, left_shoulder);
    OFFSET(SinewClothCapeDesc, neck);
    OFFSET(SinewClothCapeDesc, right_shoulder);
    OFFSET(SinewClothCapeDesc, material);
    OFFSET(SinewClothSkirtDesc, length);
    OFFSET(SinewClothSkirtDesc, waist);
    OFFSET(SinewClothSkirtDesc, material);
    fclose(f);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s <positions.bin> <layout.txt>\n", argv[0]);
        return 2;
    }
    run_scene(argv[1]);
    write_layout(argv[2]);
    return 0;
}
