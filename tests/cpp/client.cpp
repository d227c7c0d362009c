// A C++17 client of include/sinew.hpp (the RAII wrapper), compiled with
// `-std=c++17 -Wall -Wextra -Werror -pedantic` and linked to libsinew (scripts/test-c.sh).
//
// The scene of tests/c/client.c — grid cloth, seam-split mesh cloth, rope — driven through
// sinew::World and sinew::Body: stepping, readback, pins, teleport, asynchronous steps,
// failures thrown as sinew::Error with the right code and message, and the ownership rules
// (move-only, destructors that never throw, a Body outliving its World without a crash).
// Then sinew::Collider: a drape over a sphere checked against its geometry, a collider moved
// every frame, teleport, layers, collision pairs, bad input, and the same ownership rules.
// Then character cloth through the wrapper: skinning from std::vectors, bind poses, pose
// limits, tethers, dynamics and the root, LOD and camera, wind, tearing read back into
// std::vectors, cape, skirt and hair, kernels, and each new method's errors as sinew::Error.
// One line per check; the first failure exits with status 1.

// Both headers must survive being included twice.
#include "sinew.h"
#include "sinew.h"
#include "sinew.hpp"
#include "sinew.hpp"

#define CHECK_RESULT_NAME_ONLY
#include "../c/check.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

static_assert(!std::is_copy_constructible<sinew::World>::value && !std::is_copy_assignable<sinew::World>::value, "World is move-only");
static_assert(!std::is_copy_constructible<sinew::Body>::value && !std::is_copy_assignable<sinew::Body>::value, "Body is move-only");
static_assert(std::is_nothrow_move_constructible<sinew::World>::value && std::is_nothrow_move_assignable<sinew::World>::value, "World moves never throw");
static_assert(std::is_nothrow_move_constructible<sinew::Body>::value && std::is_nothrow_move_assignable<sinew::Body>::value, "Body moves never throw");
static_assert(!std::is_copy_constructible<sinew::Collider>::value && !std::is_copy_assignable<sinew::Collider>::value, "Collider is move-only");
static_assert(std::is_nothrow_move_constructible<sinew::Collider>::value && std::is_nothrow_move_assignable<sinew::Collider>::value, "Collider moves never throw");
static_assert(std::is_nothrow_destructible<sinew::World>::value && std::is_nothrow_destructible<sinew::Body>::value && std::is_nothrow_destructible<sinew::Collider>::value, "destructors never throw");
static_assert(std::is_base_of<std::runtime_error, sinew::Error>::value, "sinew::Error is a std::runtime_error");

namespace {

int g_passed = 0;
const float kFrame = 1.0f / 60.0f;

[[noreturn]] void fail(int line, const std::string& what, const std::string& detail) {
    std::printf("FAIL %s\n     at client.cpp:%d: %s\n", what.c_str(), line, detail.c_str());
    std::printf("cpp-client: %d checks passed, then a failure\n", g_passed);
    std::fflush(stdout);
    std::exit(1);
}

void pass(const std::string& what) {
    std::printf("ok   %s\n", what.c_str());
    ++g_passed;
}

#define CHECK(cond, what) ((cond) ? pass(what) : fail(__LINE__, (what), #cond))

// Runs a call that must succeed; an exception fails the check with its message.
#define OK(call)                                                                          \
    do {                                                                                  \
        try {                                                                             \
            call;                                                                         \
        } catch (const sinew::Error& e_) {                                                \
            fail(__LINE__, #call, std::string("threw sinew::Error: ") + e_.what());       \
        }                                                                                 \
        pass(#call);                                                                      \
    } while (0)


// `f` must throw sinew::Error with `want`, whose what() starts with "<NAME>: ".
void expect_error(int line, const char* what, SinewResult want, const std::function<void()>& f) {
    const std::string name = result_name(want);
    try {
        f();
    } catch (const sinew::Error& e) {
        const std::string message = e.what();
        if (e.code() != want) fail(line, what, "threw " + std::string(result_name(e.code())) + ", expected " + name + ": " + message);
        if (message.compare(0, name.size() + 2, name + ": ") != 0 || message.size() <= name.size() + 2) {
            fail(line, what, "message \"" + message + "\" does not start with \"" + name + ": <reason>\"");
        }
        char label[600];
        std::snprintf(label, sizeof label, "%-24s %s  -> \"%s\"", name.c_str(), what, message.c_str());
        pass(label);
        return;
    } catch (const std::exception& e) {
        fail(line, what, std::string("threw something other than sinew::Error: ") + e.what());
    }
    fail(line, what, "did not throw (expected " + name + ")");
}

#define THROWS(code, call) expect_error(__LINE__, #call, (code), [&]() { call; })

SinewVec3 v3(float x, float y, float z) { return SinewVec3{x, y, z}; }

bool same(const SinewVec3& a, const SinewVec3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

bool near3(const SinewVec3& a, const SinewVec3& b, float tol) {
    return std::fabs(a.x - b.x) <= tol && std::fabs(a.y - b.y) <= tol && std::fabs(a.z - b.z) <= tol;
}

bool same_all(const std::vector<SinewVec3>& a, const std::vector<SinewVec3>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (!same(a[i], b[i])) return false;
    }
    return true;
}

SinewMat4 translation(float x, float y, float z) {
    SinewMat4 m{};
    m.m[0] = m.m[5] = m.m[10] = m.m[15] = 1.0f;
    m.m[12] = x;
    m.m[13] = y;
    m.m[14] = z;
    return m;
}

// The mesh of the C client: 3 x 3 points as two UV islands, middle column twice.
struct SeamMesh {
    std::vector<SinewVec3> positions;
    std::vector<std::uint32_t> indices;
    std::vector<float> inverse_masses;
    static constexpr std::uint32_t seam[3][2] = {{1, 6}, {3, 8}, {5, 10}};

    SeamMesh() {
        positions.resize(12);
        for (int row = 0; row < 3; ++row) {
            const float z = 0.1f * static_cast<float>(row);
            positions[left(row, 0)] = v3(2.0f, 1.0f, z);
            positions[left(row, 1)] = v3(2.1f, 1.0f, z);
            positions[right(row, 1)] = v3(2.1f, 1.0f, z);
            positions[right(row, 2)] = v3(2.2f, 1.0f, z);
        }
        for (int row = 0; row < 2; ++row) {
            const std::uint32_t quads[2][4] = {{left(row, 0), left(row, 1), left(row + 1, 0), left(row + 1, 1)},
                                               {right(row, 1), right(row, 2), right(row + 1, 1), right(row + 1, 2)}};
            for (const auto& q : quads) {
                indices.insert(indices.end(), {q[0], q[2], q[1], q[1], q[2], q[3]});
            }
        }
        for (const auto& p : positions) inverse_masses.push_back(p.z == 0.0f ? 0.0f : 100.0f);
    }

    static std::uint32_t left(int row, int column) { return static_cast<std::uint32_t>(row * 2 + column); }
    static std::uint32_t right(int row, int column) { return static_cast<std::uint32_t>(6 + row * 2 + (column - 1)); }

    SinewClothMeshDesc desc() const {
        SinewClothMeshDesc d = sinew::default_mesh_desc();
        d.positions = positions.data();
        d.vertex_count = positions.size();
        d.indices = indices.data();
        d.index_count = indices.size();
        d.inverse_masses = inverse_masses.data();
        d.inverse_mass_count = inverse_masses.size();
        return d;
    }
};
constexpr std::uint32_t SeamMesh::seam[3][2];

bool seam_identical(const sinew::Body& mesh) {
    const std::vector<SinewVec3> p = mesh.read_positions(), n = mesh.read_normals();
    for (const auto& pair : SeamMesh::seam) {
        if (!same(p[pair[0]], p[pair[1]]) || !same(n[pair[0]], n[pair[1]])) return false;
    }
    return true;
}

SinewClothGridDesc grid_desc() {
    SinewClothGridDesc d = sinew::default_grid_desc();
    d.columns = 8;
    d.rows = 8;
    d.spacing = 0.1f;
    d.origin = v3(0.0f, 2.0f, 0.0f);
    d.pin_mode = SINEW_PIN_TOP_ROW;
    return d;
}

// Everything observable about a set of bodies, to show a failing call changed nothing.
struct Snapshot {
    std::vector<std::vector<SinewVec3>> positions;
    std::vector<std::uint32_t> pinned;
    std::uint64_t steps = 0;

    Snapshot(const sinew::World& world, const std::vector<const sinew::Body*>& bodies) {
        for (const sinew::Body* b : bodies) {
            positions.push_back(b->read_positions());
            pinned.push_back(b->info().pinned_count);
        }
        steps = world.stats().steps;
    }

    bool operator==(const Snapshot& o) const {
        if (steps != o.steps || pinned != o.pinned || positions.size() != o.positions.size()) return false;
        for (std::size_t i = 0; i < positions.size(); ++i) {
            if (!same_all(positions[i], o.positions[i])) return false;
        }
        return true;
    }
};

void scene() {
    std::printf("-- defaults\n");
    CHECK(sinew::abi_version() == SINEW_ABI_VERSION, "library ABI version equals the header's");
    SinewWorldDesc wd = sinew::default_world_desc();
    CHECK(wd.fixed_rate_hz == 60.0f && wd.substeps >= 1 && wd.iterations >= 1 && wd.interpolate == 1, "default world desc: 60 Hz, interpolated");
    const SinewMaterial material = sinew::default_material();
    CHECK(material.particle_mass > 0.0f && material.gravity_scale == 1.0f, "default material: positive mass, gravity scale 1");
    CHECK(sinew::default_rope_desc().bend == 1 && sinew::default_rope_desc().point_count == 11 && sinew::default_mesh_desc().vertex_count == 4, "default rope (11 points) and mesh (a square) descs");

    std::printf("-- world and bodies\n");
    wd.thread_count = 2;
    sinew::World world(wd);
    CHECK(static_cast<bool>(world) && world.handle().id != 0, "World owns a handle");

    sinew::Body grid = world.create_grid(grid_desc());
    const SinewBodyInfo gi = grid.info();
    CHECK(gi.kind == SINEW_BODY_CLOTH && gi.particle_count == 64 && gi.pinned_count == 8 && gi.triangle_count == 98, "grid: cloth, 64 particles, 8 pinned, 98 triangles");
    CHECK(grid.vertex_count() == 64, "grid vertex_count() is 64");
    const std::vector<SinewVec3> grid_start = grid.read_positions();
    CHECK(grid_start.size() == 64 && near3(grid_start[0], v3(-0.35f, 2.0f, -0.35f), 1e-6f) && near3(grid_start[63], v3(0.35f, 2.0f, 0.35f), 1e-6f), "grid corners at (-0.35, 2, -0.35) and (0.35, 2, 0.35)");
    std::vector<SinewVec3> normals;
    grid.read_normals(normals);
    bool up = normals.size() == 64;
    for (const auto& n : normals) up = up && near3(n, v3(0.0f, 1.0f, 0.0f), 1e-6f);
    CHECK(up, "flat grid normals are +Y (read into a reused vector)");
    const sinew::Bounds gb = grid.bounds();
    CHECK(near3(gb.min, v3(-0.35f, 2.0f, -0.35f), 1e-6f) && near3(gb.max, v3(0.35f, 2.0f, 0.35f), 1e-6f), "grid bounds");

    const SeamMesh seam_mesh;
    sinew::Body mesh = world.create_mesh(seam_mesh.desc());
    const SinewBodyInfo mi = mesh.info();
    CHECK(mi.vertex_count == 12 && mi.particle_count == 9 && mi.pinned_count == 3, "mesh: 12 host vertices welded into 9 particles, 3 pinned");
    CHECK(mesh.vertex_count() == seam_mesh.positions.size(), "mesh read-back vertex count equals the host's vertex count");
    CHECK(same_all(mesh.read_positions(), seam_mesh.positions), "mesh reads back the host's positions in the host's order");
    CHECK(seam_identical(mesh), "mesh seam duplicates read back identical positions and normals");

    std::vector<SinewVec3> points;
    for (int i = 0; i < 10; ++i) points.push_back(v3(-1.0f + 0.1f * static_cast<float>(i), 3.0f, 0.0f));
    const std::uint32_t rope_pin = 0;
    SinewRopeDesc rd = sinew::default_rope_desc();
    rd.points = points.data();
    rd.point_count = points.size();
    rd.pin_indices = &rope_pin;
    rd.pin_count = 1;
    sinew::Body rope = world.create_rope(rd);
    CHECK(rope.info().kind == SINEW_BODY_ROPE && rope.vertex_count() == 10, "rope of 10 points");
    SinewVec3 buffer[64];
    OK(rope.read_positions(buffer, 64));
    CHECK(same(buffer[0], points[0]) && same(buffer[9], points[9]), "rope reads back into a pointer + length");
    const SinewWorldStats st = world.stats();
    CHECK(st.body_count == 3 && st.particle_count == 83 && st.thread_count == 2, "stats: 3 bodies, 83 particles, 2 threads");

    std::printf("-- stepping, pins, teleport, material\n");
    for (int i = 0; i < 30; ++i) world.step(kFrame);
    pass("30 frames stepped");
    CHECK(world.stats().steps == 30 && world.stats().last_frame_steps == 1, "30 fixed steps taken");
    std::vector<SinewVec3> p = grid.read_positions();
    bool top_still = true;
    for (int i = 0; i < 8; ++i) top_still = top_still && near3(p[i], grid_start[i], 1e-6f);
    CHECK(top_still && p[63].y < 1.9f, "grid top row held, bottom fell");
    CHECK(std::isfinite(grid.max_stretch()) && grid.max_stretch() < 0.2f, "grid max stretch finite and small");
    CHECK(seam_identical(mesh), "mesh seam duplicates identical after stepping");

    std::vector<std::uint32_t> top = {0, 1, 2, 3, 4, 5, 6, 7};
    std::vector<SinewVec3> targets(8);
    bool on_target = true;
    for (int frame = 1; frame <= 10; ++frame) {
        for (int i = 0; i < 8; ++i) targets[i] = v3(grid_start[i].x + 0.05f * static_cast<float>(frame), grid_start[i].y, grid_start[i].z);
        grid.set_pin_targets(top, targets);
        world.step(kFrame);
        grid.read_positions(p);
        for (int i = 0; i < 8; ++i) on_target = on_target && same(p[i], targets[i]);
    }
    CHECK(on_target, "moving pin targets: the top row is exactly at its target after every frame");
    OK(grid.pin({63}));
    CHECK(grid.info().pinned_count == 9, "pin adds a pin");
    OK(grid.unpin({63}));
    CHECK(grid.info().pinned_count == 8, "unpin removes it");

    const std::vector<SinewVec3> rope_before = rope.read_positions();
    OK(rope.teleport(translation(1.0f, 0.0f, 0.0f)));
    const std::vector<SinewVec3> rope_after = rope.read_positions();
    bool moved = true;
    for (std::size_t i = 0; i < rope_before.size(); ++i) {
        moved = moved && near3(rope_after[i], v3(rope_before[i].x + 1.0f, rope_before[i].y, rope_before[i].z), 1e-5f);
    }
    CHECK(moved, "teleport moves the rope by +1 m in X");

    SinewMaterial m = rope.material();
    m.damping = 0.25f;
    OK(rope.set_material(m));
    CHECK(rope.material().damping == 0.25f, "set_material round-trips");
    OK(world.set_gravity(v3(0.0f, -9.81f, 0.0f)));

    std::printf("-- asynchronous step\n");
    const std::uint64_t steps_before = world.stats().steps;
    OK(world.step_begin(kFrame));
    THROWS(SINEW_BUSY, world.step(kFrame));
    THROWS(SINEW_BUSY, world.stats());
    THROWS(SINEW_BUSY, grid.read_positions(p));
    THROWS(SINEW_BUSY, rope.teleport(translation(1.0f, 0.0f, 0.0f)));
    THROWS(SINEW_BUSY, world.create_grid(grid_desc()));
    OK(world.step_end());
    CHECK(world.stats().steps == steps_before + 1 && world.stats().body_count == 3, "exactly the asynchronous step ran; no body was made");
    THROWS(SINEW_INVALID_ARGUMENT, world.step_end());

    std::printf("-- errors as sinew::Error\n");
    const std::vector<const sinew::Body*> bodies = {&grid, &mesh, &rope};
    // Each failing call must leave every body as it was, and the world must still step.
    auto fails = [&](int line, const char* what, SinewResult code, const std::function<void()>& f) {
        const Snapshot before(world, bodies);
        expect_error(line, what, code, f);
        if (!(Snapshot(world, bodies) == before)) fail(line, what, "the failing call changed the scene");
        world.step(kFrame);
        char label[64];
        std::snprintf(label, sizeof label, "%-24s scene unchanged, world still steps", "");
        pass(label);
    };
#define FAILS(code, call) fails(__LINE__, #call, (code), [&]() { call; })
    const float nan = std::numeric_limits<float>::quiet_NaN();
    FAILS(SINEW_NULL_POINTER, grid.read_positions(nullptr, 64));
    FAILS(SINEW_NULL_POINTER, grid.pin(nullptr, 1));
    FAILS(SINEW_BUFFER_TOO_SMALL, grid.read_positions(buffer, 63));
    FAILS(SINEW_BUFFER_TOO_SMALL, mesh.read_normals(buffer, 9)); // 9 particles, but 12 vertices
    FAILS(SINEW_OUT_OF_RANGE, grid.pin({20, 64}));
    FAILS(SINEW_OUT_OF_RANGE, mesh.unpin({12}));
    FAILS(SINEW_NON_FINITE, grid.set_pin_targets({20}, {v3(0.0f, nan, 0.0f)}));
    FAILS(SINEW_NON_FINITE, world.step(nan));
    FAILS(SINEW_INVALID_ARGUMENT, grid.set_pin_targets({20, 21}, {v3(0.0f, 0.0f, 0.0f)}));
    FAILS(SINEW_INVALID_ARGUMENT, world.step(-1.0f));
    SinewMat4 scale = translation(0.0f, 0.0f, 0.0f);
    scale.m[0] = 2.0f;
    FAILS(SINEW_INVALID_ARGUMENT, grid.teleport(scale));
    SinewClothGridDesc bad = grid_desc();
    bad.spacing = 0.0f;
    FAILS(SINEW_INVALID_ARGUMENT, world.create_grid(bad));
    SinewWorldDesc bad_world = sinew::default_world_desc();
    bad_world.substeps = 0;
    FAILS(SINEW_INVALID_ARGUMENT, sinew::World{bad_world});
    bad = grid_desc();
    bad.columns = 100000;
    bad.rows = 100000;
    FAILS(SINEW_TOO_LARGE, world.create_grid(bad));
    sinew::Body empty;
    FAILS(SINEW_INVALID_HANDLE, empty.info());
    FAILS(SINEW_INVALID_HANDLE, sinew::Body(SinewBody{world.handle().id}).info()); // a world handle as a body
#ifdef SINEW_DEBUG_PANIC  // defined by scripts/test-c.sh, whose library has the feature debug-panic
    CHECK(sinew_debug_trigger_panic() == SINEW_PANIC, "sinew_debug_trigger_panic() returns SINEW_PANIC");
    CHECK(std::string(sinew_last_error_message()).rfind("SINEW_PANIC: ", 0) == 0, "its message starts with \"SINEW_PANIC: \"");
#else
    std::printf("-- SINEW_PANIC: NOT CHECKED (built without SINEW_DEBUG_PANIC)\n");
#endif
    OK(world.step(kFrame));
    CHECK(world.stats().body_count == 3, "still 3 bodies after all the failures");

    std::printf("-- ownership\n");
    {
        sinew::Body temp = world.create_rope(rd);
        CHECK(world.stats().body_count == 4, "a fourth body");
        sinew::Body moved_to = std::move(temp);
        CHECK(!temp && static_cast<bool>(moved_to), "moving a Body leaves the source empty");
        THROWS(SINEW_INVALID_HANDLE, temp.info());
        CHECK(world.stats().body_count == 4, "a move makes no body and destroys none");
        moved_to = world.create_rope(rd); // the old body is destroyed by the assignment
        CHECK(world.stats().body_count == 4, "move-assigning a Body destroys the body it held");
    }
    CHECK(world.stats().body_count == 3, "~Body destroys the body");
    {
        sinew::Body released = world.create_rope(rd);
        const SinewBody raw = released.release();
        CHECK(!released && world.stats().body_count == 4, "release() gives up ownership without destroying");
        CHECK(sinew_body_destroy(raw) == SINEW_OK, "the released handle is destroyed by hand");
    }
    CHECK(world.stats().body_count == 3, "release() left nothing to destroy twice");

    // A Body that outlives its World: the destructor gets SINEW_INVALID_HANDLE and ignores it.
    sinew::Body orphan;
    SinewWorld gone{};
    {
        sinew::World short_lived(wd);
        gone = short_lived.handle();
        orphan = short_lived.create_rope(rd);
        short_lived.step(kFrame);
        sinew::World moved_world = std::move(short_lived);
        CHECK(!short_lived && moved_world.handle().id == gone.id, "moving a World transfers the handle");
        THROWS(SINEW_INVALID_HANDLE, short_lived.step(kFrame));
    }
    CHECK(sinew_world_step(gone, kFrame) == SINEW_INVALID_HANDLE, "~World destroyed the world");
    THROWS(SINEW_INVALID_HANDLE, orphan.info());
    orphan.reset();
    pass("a Body whose World is gone is reset without a crash");
    {
        sinew::Body orphan2;
        {
            sinew::World w2(wd);
            orphan2 = w2.create_rope(rd);
        }
    } // ~Body after ~World: ignored
    pass("a Body destroyed after its World: no crash");

    // ~World during an asynchronous step ends the step first, then destroys the world.
    {
        sinew::World busy(wd);
        sinew::Body b = busy.create_grid(grid_desc());
        gone = busy.handle();
        busy.step_begin(kFrame);
    } // ~Body gets SINEW_BUSY and leaves the body to the world; ~World ends the step, destroys all
    CHECK(sinew_world_step(gone, kFrame) == SINEW_INVALID_HANDLE, "~World during step_begin still destroys the world");

    // A default World (all settings from the library).
    {
        sinew::World defaults;
        CHECK(defaults.stats().thread_count >= 1, "a default World has worker threads");
        // Large enough to split across the workers, stepped synchronously and asynchronously:
        // under valgrind (scripts/test-c.sh) nothing of it may be lost, "possibly" included.
        SinewClothGridDesc big = grid_desc();
        big.columns = 48;
        big.rows = 48;
        big.spacing = 0.02f;
        sinew::Body cloth = defaults.create_grid(big);
        for (int i = 0; i < 4; ++i) {
            defaults.step(kFrame);
            defaults.step_begin(kFrame);
            defaults.step_end();
        }
        CHECK(defaults.stats().steps >= 8, "a default World steps a 48 x 48 cloth on its workers");
    }
    const SinewBody grid_raw = grid.handle();
    grid.reset();
    CHECK(sinew_body_destroy(grid_raw) == SINEW_INVALID_HANDLE, "reset() destroyed the grid");
    CHECK(world.stats().body_count == 2, "two bodies left");
} // mesh, rope, then world are destroyed here

SinewMat4 scaled(SinewMat4 m, float s) {
    for (int i = 0; i < 12; ++i) {
        if (i % 4 != 3) m.m[i] *= s;
    }
    return m;
}

float distance(const SinewVec3& a, const SinewVec3& b) {
    const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return std::sqrt(dx * dx + dy * dy + dz * dz);
}

float lowest_y(const std::vector<SinewVec3>& p) {
    float y = std::numeric_limits<float>::infinity();
    for (const auto& q : p) y = std::fmin(y, q.y);
    return y;
}

// A world whose readback is the newest state, so that what is read is what was checked.
SinewWorldDesc collision_world_desc() {
    SinewWorldDesc wd = sinew::default_world_desc();
    wd.thread_count = 2;
    wd.interpolate = 0;
    return wd;
}

// An unpinned square cloth of `side` x `side` particles, 5 cm apart, centred on `origin`.
SinewClothGridDesc free_cloth(std::uint32_t side, const SinewVec3& origin) {
    SinewClothGridDesc d = sinew::default_grid_desc();
    d.columns = side;
    d.rows = side;
    d.spacing = 0.05f;
    d.origin = origin;
    d.pin_mode = SINEW_PIN_NONE;
    d.material.damping = 0.5f;
    return d;
}

// Lowest particle of a cloth with collision_mask 1 after a second over a plane at y = -0.5
// on `layers`, moved by set_layers to `new_layers` (0: left alone).
float fall_onto_plane(std::uint32_t layers, std::uint32_t new_layers) {
    sinew::World world(collision_world_desc());
    sinew::Collider plane = world.create_collider(sinew::plane_desc(layers));
    plane.teleport(translation(0.0f, -0.5f, 0.0f));
    if (new_layers != 0) plane.set_layers(new_layers);
    SinewClothGridDesc d = free_cloth(4, v3(0.0f, 0.0f, 0.0f));
    d.material.collision_mask = 1;
    sinew::Body cloth = world.create_grid(d);
    for (int i = 0; i < 60; ++i) world.step(kFrame);
    return lowest_y(cloth.read_positions());
}

void colliders() {
    std::printf("-- collider descriptors\n");
    const SinewColliderDesc dd = sinew::default_collider_desc();
    CHECK(dd.shape == SINEW_SHAPE_SPHERE && dd.layers == 1 && dd.transform.m[0] == 1.0f && dd.transform.m[15] == 1.0f, "default_collider_desc: a sphere on layer 1, identity transform");
    const SinewColliderDesc cap = sinew::capsule_desc(0.2f, 0.1f, 0.05f, 4);
    CHECK(cap.shape == SINEW_SHAPE_CAPSULE && cap.half_height == 0.2f && cap.radius0 == 0.1f && cap.radius1 == 0.05f && cap.layers == 4, "capsule_desc(half_height, radius0, radius1, layers)");
    const SinewColliderDesc box = sinew::box_desc(v3(0.1f, 0.2f, 0.3f));
    CHECK(box.shape == SINEW_SHAPE_BOX && box.half_extents.z == 0.3f && box.layers == 1, "box_desc(half_extents)");
    CHECK(sinew::plane_desc(2).shape == SINEW_SHAPE_PLANE && sinew::plane_desc(2).layers == 2, "plane_desc(layers)");
    CHECK(sinew::sphere_desc(0.3f).shape == SINEW_SHAPE_SPHERE && sinew::sphere_desc(0.3f).radius == 0.3f, "sphere_desc(radius)");

    std::printf("-- a cloth draped over a sphere collider\n");
    {
        sinew::World world(collision_world_desc());
        const float radius = 0.3f;
        const SinewVec3 centre = v3(0.0f, 0.0f, 0.0f);
        sinew::Collider sphere = world.create_collider(sinew::sphere_desc(radius));
        CHECK(static_cast<bool>(sphere) && sphere.handle().id != 0, "create_collider gives an owning Collider");
        sinew::Body cloth = world.create_grid(free_cloth(16, v3(0.0f, 0.45f, 0.0f)));
        const float thickness = cloth.material().thickness;
        std::vector<SinewVec3> p;
        float closest = std::numeric_limits<float>::infinity();
        for (int f = 0; f < 120; ++f) {
            world.step(kFrame);
            cloth.read_positions(p);
            for (const auto& q : p) closest = std::fmin(closest, distance(q, centre));
        }
        char label[200];
        std::snprintf(label, sizeof label, "120 frames: no particle centre closer than radius + thickness - 1 mm to the centre (closest %.4f)", static_cast<double>(closest));
        CHECK(closest >= radius + thickness - 1e-3f, label);
        closest = std::numeric_limits<float>::infinity();
        for (const auto& q : p) closest = std::fmin(closest, distance(q, centre));
        CHECK(closest < radius + thickness + 0.01f, "the drape lies on the sphere (within 1 cm)");

        // Refused moves leave the sphere where it is.
        const float nan = std::numeric_limits<float>::quiet_NaN();
        THROWS(SINEW_NON_FINITE, sphere.set_transform(translation(0.0f, nan, 0.0f)));
        SinewMat4 squashed = translation(0.0f, -1.0f, 0.0f);
        squashed.m[5] = 0.5f;
        THROWS(SINEW_INVALID_ARGUMENT, sphere.set_transform(squashed));
        THROWS(SINEW_INVALID_ARGUMENT, sphere.teleport(squashed));
        for (int f = 0; f < 20; ++f) world.step(kFrame);
        cloth.read_positions(p);
        closest = std::numeric_limits<float>::infinity();
        for (const auto& q : p) closest = std::fmin(closest, distance(q, centre));
        CHECK(closest >= radius + thickness - 1e-3f && closest < radius + thickness + 0.01f, "after the refused transforms the drape still rests on the unmoved sphere");

        // Moved every frame by set_transform (rising 5 mm and growing by a 60th of its size
        // a frame, to 1.5 x scale), the sphere lifts the drape with it.
        SinewVec3 at = centre;
        bool outside = true;
        for (int f = 1; f <= 30; ++f) {
            const float scale = 1.0f + 0.5f * static_cast<float>(f) / 30.0f;
            at.y = 0.005f * static_cast<float>(f);
            sphere.set_transform(scaled(translation(at.x, at.y, at.z), scale));
            world.step(kFrame);
            cloth.read_positions(p);
            for (const auto& q : p) outside = outside && distance(q, at) >= scale * radius + thickness - 1e-3f;
        }
        CHECK(outside, "a sphere raised and grown to 1.5 x scale by set_transform every frame: no particle inside it");
        CHECK(lowest_y(p) > 0.0f, "... and it lifted the drape");

        sphere.teleport(translation(5.0f, 0.0f, 0.0f));
        for (int f = 0; f < 45; ++f) world.step(kFrame);
        CHECK(lowest_y(cloth.read_positions()) < -0.5f, "teleported away, the sphere no longer holds the cloth");

        const SinewCollider raw = sphere.handle();
        sphere.reset();
        CHECK(!sphere && sinew_collider_destroy(raw) == SINEW_INVALID_HANDLE, "reset() destroyed the collider; a second destroy is SINEW_INVALID_HANDLE");
        OK(world.step(kFrame));
        THROWS(SINEW_INVALID_HANDLE, sphere.set_transform(translation(0.0f, 0.0f, 0.0f)));
        THROWS(SINEW_INVALID_HANDLE, sinew::Collider(raw).set_layers(1));
    }

    std::printf("-- layers\n");
    CHECK(fall_onto_plane(1, 0) > -0.5f, "collision_mask 1: held by a plane on layer 1");
    CHECK(fall_onto_plane(2, 0) < -1.0f, "collision_mask 1: falls past a plane on layer 2");
    CHECK(fall_onto_plane(2, 1) > -0.5f, "set_layers(1) on the layer-2 plane: held again");

    std::printf("-- collision pairs\n");
    {
        sinew::World world(collision_world_desc());
        SinewClothGridDesc d = free_cloth(10, v3(0.0f, 0.0f, 0.0f));
        d.material.thickness = 0.02f; // particle contact: 0.04 m covers the 5 cm squares' middles
        sinew::Body lower = world.create_grid(d);
        OK(lower.pin({0, 9, 90, 99}));
        SinewClothGridDesc u = free_cloth(6, v3(0.0f, 0.1f, 0.0f));
        u.material.thickness = 0.02f;
        sinew::Body upper = world.create_grid(u);
        OK(lower.set_collision_pair(upper, true));
        for (int f = 0; f < 60; ++f) world.step(kFrame);
        CHECK(lowest_y(upper.read_positions()) > -0.2f, "set_collision_pair(other, true): the upper cloth lies on the lower one");
        OK(upper.set_collision_pair(lower, false));
        for (int f = 0; f < 60; ++f) world.step(kFrame);
        CHECK(lowest_y(upper.read_positions()) < -0.5f, "set_collision_pair(other, false): it falls through");
        THROWS(SINEW_INVALID_ARGUMENT, lower.set_collision_pair(lower, true));
        sinew::World elsewhere(collision_world_desc());
        sinew::Body foreign = elsewhere.create_grid(free_cloth(4, v3(0.0f, 0.0f, 0.0f)));
        THROWS(SINEW_INVALID_ARGUMENT, lower.set_collision_pair(foreign, true));
        sinew::Body empty;
        THROWS(SINEW_INVALID_HANDLE, lower.set_collision_pair(empty, true));
    }

    std::printf("-- collider errors as sinew::Error\n");
    {
        sinew::World world(collision_world_desc());
        sinew::Body cloth = world.create_grid(free_cloth(4, v3(0.0f, 0.0f, 0.0f)));
        THROWS(SINEW_INVALID_ARGUMENT, world.create_collider(sinew::sphere_desc(0.0f)));
        THROWS(SINEW_INVALID_ARGUMENT, world.create_collider(sinew::sphere_desc(-1.0f)));
        THROWS(SINEW_INVALID_ARGUMENT, world.create_collider(sinew::capsule_desc(0.2f, 0.0f, 0.0f)));
        THROWS(SINEW_INVALID_ARGUMENT, world.create_collider(sinew::box_desc(v3(0.1f, 0.0f, 0.1f))));
        SinewColliderDesc bad = sinew::default_collider_desc();
        bad.shape = 42;
        THROWS(SINEW_INVALID_ARGUMENT, world.create_collider(bad));
        bad = sinew::default_collider_desc();
        bad.transform.m[13] = std::numeric_limits<float>::quiet_NaN();
        THROWS(SINEW_NON_FINITE, world.create_collider(bad));
        bad = sinew::default_collider_desc();
        bad.transform.m[0] = 2.0f;
        THROWS(SINEW_INVALID_ARGUMENT, world.create_collider(bad));
        sinew::Collider not_a_collider(SinewCollider{cloth.handle().id}); // a body handle
        THROWS(SINEW_INVALID_HANDLE, not_a_collider.set_layers(1));
        THROWS(SINEW_INVALID_HANDLE, not_a_collider.set_transform(translation(0.0f, 0.0f, 0.0f)));
        not_a_collider.reset(); // sinew_collider_destroy refuses the body handle ...
        CHECK(cloth.info().particle_count == 16, "... and the body is untouched");
        sinew::Collider empty;
        THROWS(SINEW_INVALID_HANDLE, empty.teleport(translation(0.0f, 0.0f, 0.0f)));
        OK(world.step(kFrame));
        CHECK(world.stats().body_count == 1, "still 1 body, the world still steps");
    }

    std::printf("-- mesh colliders (RAII)\n");
    {
        sinew::World world(collision_world_desc());
        const std::vector<SinewVec3> floor_v{v3(-3.0f, 0.0f, -3.0f), v3(-3.0f, 0.0f, 3.0f), v3(3.0f, 0.0f, 3.0f), v3(3.0f, 0.0f, -3.0f)};
        const std::vector<std::uint32_t> floor_i{0, 1, 2, 0, 2, 3};
        SinewColliderMeshDesc md = sinew::mesh_desc(floor_v.data(), floor_v.size(), floor_i.data(), floor_i.size());
        md.transform = translation(0.0f, -0.4f, 0.0f);
        sinew::Collider floor = world.create_mesh_collider(md);
        CHECK(floor.mesh_info().triangle_count == 2, "create_mesh_collider gives an owning Collider of a 2-triangle mesh");
        sinew::World other(collision_world_desc());
        sinew::Collider shared = other.create_mesh_collider(sinew::shared_mesh_desc(floor.handle()));
        CHECK(shared.mesh_info().bytes == floor.mesh_info().bytes, "shared_mesh_desc shares the cooked mesh across worlds");
        sinew::Body cloth = world.create_grid(free_cloth(4, v3(0.0f, 0.0f, 0.0f)));
        for (int f = 0; f < 90; f++) OK(world.step(kFrame));
        float worst = 0.0f;
        for (const SinewVec3& p : cloth.read_positions()) worst = std::fmax(worst, std::fabs(p.y - (-0.4f + 0.01f)));
        CHECK(worst < 1e-3f, "the cloth rests one thickness above the mesh floor");
        THROWS(SINEW_INVALID_ARGUMENT, floor.set_transform(translation(0.0f, 0.0f, 0.0f)));
        OK(floor.teleport(translation(0.0f, -0.5f, 0.0f)));
        const std::vector<std::uint32_t> bad_i{0, 1, 2, 0, 2, 7};
        THROWS(SINEW_OUT_OF_RANGE, world.create_mesh_collider(sinew::mesh_desc(floor_v.data(), floor_v.size(), bad_i.data(), bad_i.size())));
        THROWS(SINEW_NULL_POINTER, world.create_mesh_collider(sinew::mesh_desc(nullptr, 4, floor_i.data(), floor_i.size())));
        THROWS(SINEW_INVALID_ARGUMENT, world.create_mesh_collider(sinew::mesh_desc(floor_v.data(), floor_v.size(), nullptr, 0)));
        std::vector<SinewVec3> nan_v = floor_v;
        nan_v[1].z = std::numeric_limits<float>::quiet_NaN();
        THROWS(SINEW_NON_FINITE, world.create_mesh_collider(sinew::mesh_desc(nan_v.data(), nan_v.size(), floor_i.data(), floor_i.size())));
        sinew::Collider sphere = world.create_collider(sinew::sphere_desc(0.1f));
        THROWS(SINEW_INVALID_ARGUMENT, sphere.mesh_info());
        OK(world.step(kFrame));
    }

    std::printf("-- collider ownership\n");
    {
        sinew::World world(collision_world_desc());
        sinew::Collider a = world.create_collider(sinew::sphere_desc(0.1f));
        const SinewCollider first = a.handle();
        sinew::Collider b = std::move(a);
        CHECK(!a && b.handle().id == first.id, "moving a Collider transfers the handle");
        THROWS(SINEW_INVALID_HANDLE, a.set_layers(1));
        OK(b.set_layers(3));
        b = world.create_collider(sinew::box_desc(v3(0.1f, 0.1f, 0.1f)));
        CHECK(sinew_collider_set_layers(first, 1) == SINEW_INVALID_HANDLE, "move-assigning a Collider destroys the one it held");
        const SinewCollider released = b.release();
        CHECK(!b && sinew_collider_set_layers(released, 1) == SINEW_OK, "release() gives up ownership without destroying");
        CHECK(sinew_collider_destroy(released) == SINEW_OK, "the released handle is destroyed by hand");
        SinewCollider scoped_raw{};
        {
            sinew::Collider scoped = world.create_collider(sinew::plane_desc());
            scoped_raw = scoped.handle();
            b = world.create_collider(sinew::capsule_desc(0.2f, 0.1f, 0.05f));
        }
        CHECK(sinew_collider_set_layers(scoped_raw, 1) == SINEW_INVALID_HANDLE && sinew_collider_set_layers(b.handle(), 1) == SINEW_OK, "~Collider at the end of a scope destroys it; the one moved out lives on");
    } // b destroyed, then the world
    pass("a Collider destroyed before its World");

    sinew::Collider orphan;
    {
        sinew::World short_lived(collision_world_desc());
        orphan = short_lived.create_collider(sinew::sphere_desc(0.1f));
        short_lived.step(kFrame);
    }
    THROWS(SINEW_INVALID_HANDLE, orphan.set_transform(translation(0.0f, 0.0f, 0.0f)));
    orphan.reset();
    pass("a Collider whose World is gone is reset without a crash");
    {
        sinew::Collider orphan2;
        {
            sinew::World w2(collision_world_desc());
            orphan2 = w2.create_collider(sinew::plane_desc());
        }
    } // ~Collider after ~World: ignored
    pass("a Collider destroyed after its World: no crash");
}

// ---- character cloth ----------------------------------------------------------------------

float largest_move(const std::vector<SinewVec3>& a, const std::vector<SinewVec3>& b) {
    float worst = 0.0f;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) worst = std::fmax(worst, distance(a[i], b[i]));
    return worst;
}

// A world that reads back its newest state, one thread, the given kernel.
SinewWorldDesc character_world_desc(std::uint32_t substeps, std::uint32_t iterations, std::uint32_t kernel = SINEW_KERNEL_AUTO) {
    SinewWorldDesc wd = sinew::default_world_desc();
    wd.substeps = substeps;
    wd.iterations = iterations;
    wd.thread_count = 1;
    wd.interpolate = 0;
    wd.kernel = kernel;
    return wd;
}

// A grid hanging in the XY plane from its pinned top row at y = 0 (row r at y = -r spacing).
SinewClothGridDesc hanging_desc(std::uint32_t columns, std::uint32_t rows, float spacing, float x = 0.0f) {
    SinewClothGridDesc d = sinew::default_grid_desc();
    const float a = 3.14159265358979f / 4.0f; // +90 degrees about X
    d.columns = columns;
    d.rows = rows;
    d.spacing = spacing;
    d.orientation = SinewQuat{std::sin(a), 0.0f, 0.0f, std::cos(a)};
    d.origin = v3(x, -static_cast<float>(rows - 1) * spacing * 0.5f, 0.0f);
    d.pin_mode = SINEW_PIN_TOP_ROW;
    return d;
}

// Every vertex on bone 0 of one.
std::vector<SinewBoneWeight> one_bone(const sinew::Body& body) {
    SinewBoneWeight w{};
    w.weight0 = 1.0f;
    return std::vector<SinewBoneWeight>(body.vertex_count(), w);
}

void character_defaults() {
    std::printf("-- character descriptors\n");
    const SinewDynamics d = sinew::default_dynamics();
    CHECK(d.world_velocity_scale == 1.0f && d.world_acceleration_scale == 1.0f && d.teleport_distance == 2.0f && d.tear_threshold == 0.0f && d.wind_scale == 1.0f, "default_dynamics()");
    const SinewLod l = sinew::default_lod();
    CHECK(l.reduce_distance == 0.0f && l.reduced_substeps == 2 && l.freeze_distance == 0.0f && l.freeze_when_invisible == 1, "default_lod()");
    const SinewWind w = sinew::default_wind();
    CHECK(w.speed == 0.0f && w.direction.x == 1.0f && w.air_density > 1.0f, "default_wind(): calm, towards +X");
    const SinewStrandsDesc sd = sinew::default_strands_desc();
    CHECK(sd.particles_per_strand == 8 && sd.root_count == 1 && sd.direction_count == 1 && sd.points == nullptr && sd.mode == SINEW_STRANDS_STRAIGHT, "default_strands_desc()");
    const SinewClothCapeDesc cd = sinew::default_cape_desc();
    CHECK(cd.columns == 12 && cd.rows == 16 && cd.width == 0.5f, "default_cape_desc()");
    const SinewClothSkirtDesc kd = sinew::default_skirt_desc();
    CHECK(kd.columns == 24 && kd.rows == 10 && kd.waist.m[15] == 1.0f, "default_skirt_desc()");
    CHECK(sinew::default_world_desc().kernel == SINEW_KERNEL_AUTO, "default world kernel: SINEW_KERNEL_AUTO");
}

void skinning() {
    std::printf("-- skinning through Body::set_skinning / set_bone_matrix\n");
    sinew::World world(character_world_desc(8, 1));
    sinew::Body cloth = world.create_grid(hanging_desc(12, 12, 0.05f));
    const std::vector<SinewVec3> created = cloth.read_positions();
    OK(cloth.set_skinning(one_bone(cloth), 1));
    SinewMat4 bone = translation(0.0f, 0.0f, 0.0f);
    OK(cloth.set_bone_matrix(bone));
    for (int f = 0; f < 60; ++f) {
        cloth.set_bone_matrix(bone);
        world.step(kFrame);
    }
    const std::vector<SinewVec3> before = cloth.read_positions();
    const float speed = 10.0f;
    bone.m[12] += speed * kFrame;
    OK(cloth.set_bone_matrix(bone));
    OK(world.step(kFrame));
    const std::vector<SinewVec3> after = cloth.read_positions();
    const float fastest = largest_move(before, after) / kFrame;
    char label[200];
    std::snprintf(label, sizeof label, "a bone at 10 m/s: fastest particle %.3f m/s <= bone speed + g dt", static_cast<double>(fastest));
    CHECK(fastest <= speed + 9.81f * kFrame + 1e-3f, label);
    bool followed = true;
    for (int i = 0; i < 12; ++i) followed = followed && std::fabs(after[i].x - before[i].x - speed * kFrame) < 1e-5f;
    CHECK(followed, "the pinned top row moved exactly with the bone");
    OK(cloth.reset_pose());
    const std::vector<SinewVec3> reset = cloth.read_positions();
    bool on_pose = true;
    for (std::size_t i = 0; i < reset.size(); ++i) on_pose = on_pose && near3(reset[i], v3(created[i].x + bone.m[12], created[i].y, created[i].z), 1e-5f);
    CHECK(on_pose, "reset_pose(): every vertex on its skinned position");

    std::printf("-- two bones with bind poses, from std::vectors\n");
    SinewClothGridDesc flat = sinew::default_grid_desc();
    flat.columns = 4;
    flat.rows = 4;
    sinew::Body two = world.create_grid(flat);
    const std::vector<SinewVec3> rest = two.read_positions();
    std::vector<SinewBoneWeight> weights(16);
    for (int i = 0; i < 16; ++i) {
        weights[i] = SinewBoneWeight{};
        weights[i].weight0 = 1.0f;
        weights[i].bone0 = i % 4 < 2 ? 0 : 1;
    }
    OK(two.set_skinning(weights, {translation(0.0f, 0.0f, 0.0f), translation(0.0f, 0.0f, 0.0f)}, 2));
    OK(two.set_bone_matrices({translation(0.5f, 0.0f, 0.0f), translation(0.0f, 0.3f, 0.0f)}));
    const std::vector<SinewVec3> posed = two.read_positions();
    bool placed = true;
    for (int i = 0; i < 16; ++i) {
        const SinewVec3 off = i % 4 < 2 ? v3(0.5f, 0.0f, 0.0f) : v3(0.0f, 0.3f, 0.0f);
        placed = placed && near3(posed[i], v3(rest[i].x + off.x, rest[i].y + off.y, rest[i].z + off.z), 1e-5f);
    }
    CHECK(placed, "identity bind poses: the first set_bone_matrices places each vertex on its bone");

    std::printf("-- max distances and backstops\n");
    SinewClothGridDesc loose = sinew::default_grid_desc();
    loose.columns = 8;
    loose.rows = 8;
    loose.spacing = 0.05f;
    loose.origin = v3(3.0f, 0.0f, 0.0f);
    loose.pin_mode = SINEW_PIN_NONE;
    sinew::Body limited = world.create_grid(loose);
    OK(limited.set_skinning(one_bone(limited), 1));
    const SinewMat4 still = translation(0.0f, 0.0f, 0.0f);
    OK(limited.set_bone_matrix(still));
    const std::vector<SinewVec3> skinned = limited.read_positions();
    OK(limited.set_max_distances(std::vector<float>(64, 0.05f)));
    OK(limited.set_backstops(std::vector<float>(64, 0.01f), std::vector<float>(64, 1.0f)));
    float farthest = 0.0f;
    std::vector<SinewVec3> p;
    for (int f = 0; f < 60; ++f) {
        limited.set_bone_matrix(still);
        world.step(kFrame);
        limited.read_positions(p);
        farthest = std::fmax(farthest, largest_move(p, skinned));
    }
    CHECK(farthest <= 0.05f + 1e-5f && lowest_y(p) < -0.009f && lowest_y(p) > -0.0101f, "held within 0.05 m of the skinned pose, resting on backstops 1 cm below");
    OK(limited.clear_backstops());
    for (int f = 0; f < 60; ++f) {
        limited.set_bone_matrix(still);
        world.step(kFrame);
    }
    limited.read_positions(p);
    CHECK(lowest_y(p) < -0.045f && largest_move(p, skinned) <= 0.05f + 1e-5f, "clear_backstops(): it sinks to its max distance and no farther");
    OK(limited.clear_max_distances());
    for (int f = 0; f < 30; ++f) {
        limited.set_bone_matrix(still);
        world.step(kFrame);
    }
    CHECK(lowest_y(limited.read_positions()) < -0.2f, "clear_max_distances(): nothing holds it, it falls");
}

float tether_run(bool tethered) {
    sinew::World world(character_world_desc(1, 1));
    const int cols = 16, rows = 24;
    const float s = 0.04f;
    sinew::Body cloth = world.create_grid(hanging_desc(cols, rows, s));
    SinewMaterial m = cloth.material();
    m.particle_mass = 0.05f;
    cloth.set_material(m);
    if (tethered) cloth.set_tethers(SINEW_TETHER_GEODESIC);
    float worst = -1.0f;
    std::vector<SinewVec3> p;
    for (int f = 0; f < 120; ++f) {
        world.step(kFrame);
        cloth.read_positions(p);
        for (int r = 1; r < rows; ++r) {
            for (int c = 0; c < cols; ++c) worst = std::fmax(worst, distance(p[r * cols + c], p[c]) - static_cast<float>(r) * s);
        }
    }
    return worst;
}

void tethers_root_wind_lod() {
    std::printf("-- Body::set_tethers\n");
    const float with = tether_run(true), without = tether_run(false);
    CHECK(with <= 1e-5f, "set_tethers(SINEW_TETHER_GEODESIC): no particle beyond its reach at 1 iteration");
    CHECK(without > 0.01f, "... while the untethered cloth stretches");

    std::printf("-- dynamics and the root: a 100 m auto teleport\n");
    {
        sinew::World world(character_world_desc(8, 1));
        sinew::Body cloth = world.create_grid(hanging_desc(10, 10, 0.05f));
        cloth.set_skinning(one_bone(cloth), 1);
        SinewDynamics d = cloth.dynamics();
        CHECK(d.teleport_distance == 2.0f && d.drag == 1.0f, "dynamics() reads the defaults");
        d.teleport_distance = 5.0f;
        OK(cloth.set_dynamics(d));
        CHECK(cloth.dynamics().teleport_distance == 5.0f, "set_dynamics() round-trips");
        float root = 0.0f, before = 0.0f, during = 0.0f;
        std::vector<SinewVec3> prev, rel;
        for (int f = 0; f < 92; ++f) {
            root += kFrame + (f == 90 ? 100.0f : 0.0f);
            const SinewMat4 m = translation(root, 0.0f, 0.0f);
            cloth.set_root_transform(m);
            cloth.set_bone_matrix(m);
            world.step(kFrame);
            rel = cloth.read_positions();
            for (auto& q : rel) q.x -= root;
            if (f == 89) before = largest_move(prev, rel);
            if (f == 90) during = largest_move(prev, rel);
            prev = rel;
        }
        CHECK(during <= before * 1.1f + 1e-4f, "set_root_transform: the 100 m jump moves nothing relative to the root");
    }

    std::printf("-- World::set_wind\n");
    auto downwind = [](float speed) {
        sinew::World world(character_world_desc(8, 1));
        sinew::Body cloth = world.create_grid(hanging_desc(10, 10, 0.05f));
        SinewWind w = sinew::default_wind();
        w.direction = v3(0.0f, 0.0f, 1.0f);
        w.speed = speed;
        world.set_wind(w);
        const std::vector<SinewVec3> rest = cloth.read_positions();
        for (int f = 0; f < 120; ++f) world.step(kFrame);
        const std::vector<SinewVec3> p = cloth.read_positions();
        float z = 0.0f;
        for (std::size_t i = 0; i < p.size(); ++i) z += (p[i].z - rest[i].z) / static_cast<float>(p.size());
        return z;
    };
    CHECK(std::fabs(downwind(0.0f)) < 1e-6f, "calm air: no deflection");
    CHECK(downwind(5.0f) > 0.01f, "a 5 m/s wind along +Z deflects the cloth downwind");

    std::printf("-- Body::set_lod, set_visible, World::set_camera\n");
    {
        sinew::World world(character_world_desc(8, 1));
        sinew::Body cloth = world.create_grid(hanging_desc(6, 6, 0.05f));
        SinewLod l = sinew::default_lod();
        l.reduce_distance = 10.0f;
        l.reduced_substeps = 3;
        l.freeze_distance = 50.0f;
        OK(cloth.set_lod(l));
        OK(world.set_camera(v3(0.0f, 0.0f, 20.0f)));
        world.step(kFrame);
        CHECK(cloth.info().substeps == 3 && cloth.info().frozen == 0, "camera 20 m away: 3 reduced substeps");
        OK(world.set_camera(v3(0.0f, 0.0f, 1.0f)));
        world.step(kFrame);
        CHECK(cloth.info().substeps == 8, "camera 1 m away: all 8 substeps");
        const std::vector<SinewVec3> before = cloth.read_positions();
        OK(cloth.set_visible(false));
        for (int f = 0; f < 10; ++f) world.step(kFrame);
        CHECK(cloth.info().frozen == 1 && same_all(cloth.read_positions(), before), "set_visible(false): frozen, pose kept to the bit");
        OK(cloth.set_visible(true));
        world.step(kFrame);
        CHECK(cloth.info().frozen == 0, "set_visible(true): running again");
    }
}

void tearing_and_generators() {
    std::printf("-- tearing, read back into std::vectors\n");
    {
        sinew::World world(character_world_desc(8, 1));
        SinewClothGridDesc d = sinew::default_grid_desc();
        const std::uint32_t cols = 10, rows = 6, n0 = cols * rows;
        d.columns = cols;
        d.rows = rows;
        d.spacing = 0.05f;
        d.pin_mode = SINEW_PIN_NONE;
        d.material.stretch_compliance = 1e-3f;
        d.material.shear_compliance = 1e-3f;
        d.material.bend_compliance = 1e-2f;
        sinew::Body cloth = world.create_grid(d);
        std::vector<std::uint32_t> indices, sources;
        cloth.read_indices(indices);
        CHECK(indices.size() == cloth.index_count() && indices.size() == 3u * 2u * (cols - 1) * (rows - 1), "read_indices(std::vector&): 3 x 90 indices");
        SinewDynamics dyn = sinew::default_dynamics();
        dyn.tear_threshold = 0.3f;
        cloth.set_dynamics(dyn);
        const std::vector<SinewVec3> start = cloth.read_positions();
        std::vector<std::uint32_t> left, right;
        for (std::uint32_t r = 0; r < rows; ++r) {
            left.push_back(r * cols);
            right.push_back(r * cols + cols - 1);
        }
        std::uint32_t version = 0, rereads = 0;
        bool valid = true;
        std::vector<SinewVec3> p, lt, rt;
        for (int f = 0; f < 200; ++f) {
            const float pull = 0.005f * static_cast<float>(f);
            lt.clear();
            rt.clear();
            for (std::uint32_t i : left) lt.push_back(v3(start[i].x - pull, start[i].y, start[i].z));
            for (std::uint32_t i : right) rt.push_back(v3(start[i].x + pull, start[i].y, start[i].z));
            cloth.set_pin_targets(left, lt);
            cloth.set_pin_targets(right, rt);
            world.step(kFrame);
            const SinewBodyInfo info = cloth.info();
            if (info.topology_version != version) {
                version = info.topology_version;
                ++rereads;
                cloth.read_indices(indices);
            }
            cloth.read_positions(p);
            cloth.read_vertex_sources(sources);
            valid = valid && sources.size() == p.size() && p.size() == info.vertex_count && indices.size() == cloth.index_count();
            for (std::uint32_t i : indices) valid = valid && i < p.size() && sources[i] < n0;
            for (std::uint32_t v = 0; v < n0; ++v) valid = valid && sources[v] == v;
            for (const auto& q : p) valid = valid && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
        }
        CHECK(rereads > 0 && cloth.vertex_count() > n0, "it tore: topology_version changed, vertices were added");
        CHECK(valid, "every frame: indices re-read on a new topology_version name existing vertices, whose sources are original vertices; positions finite");
        const std::vector<std::uint32_t> fresh = cloth.read_indices();
        CHECK(fresh == indices, "read_indices() returns the same as the vector it last filled");
    }

    std::printf("-- World::create_cape, create_skirt, create_strands\n");
    sinew::World world(character_world_desc(2, 1));
    SinewClothCapeDesc cd = sinew::default_cape_desc();
    cd.right_shoulder = cd.left_shoulder;
    THROWS(SINEW_INVALID_ARGUMENT, world.create_cape(cd)); // shoulders that coincide
    cd.left_shoulder = translation(-0.2f, 1.5f, 0.0f);
    cd.neck = translation(0.0f, 1.6f, 0.0f);
    cd.right_shoulder = translation(0.2f, 1.5f, 0.0f);
    sinew::Body cape = world.create_cape(cd);
    SinewClothSkirtDesc kd = sinew::default_skirt_desc();
    kd.waist = translation(0.0f, 1.0f, 0.0f);
    sinew::Body skirt = world.create_skirt(kd);
    const SinewVec3 root = v3(0.0f, 1.75f, 0.0f), dir = v3(1.0f, 0.0f, 0.0f);
    SinewStrandsDesc sd = sinew::default_strands_desc();
    sd.roots = &root;
    sd.directions = &dir;
    sd.root_count = 1;
    sd.direction_count = 1;
    sd.head = translation(0.0f, 1.6f, 0.0f);
    sinew::Body hair = world.create_strands(sd);
    CHECK(cape.info().pinned_count == 12 && skirt.info().pinned_count == 24 && hair.info().kind == SINEW_BODY_STRANDS && hair.info().pinned_count == 2, "cape, skirt and hair created with their pins");
    CHECK(hair.read_indices().empty() && hair.index_count() == 0, "hair has no triangles: read_indices() is empty");
    const std::vector<SinewVec3> hair_rest = hair.read_positions();
    bool low_ok = true;
    for (int f = 1; f <= 60; ++f) {
        const float x = 0.01f * static_cast<float>(f);
        cape.set_bone_matrices({translation(x - 0.2f, 1.5f, 0.0f), translation(x, 1.6f, 0.0f), translation(x + 0.2f, 1.5f, 0.0f)});
        skirt.set_bone_matrix(translation(x, 1.0f, 0.0f));
        hair.set_bone_matrix(translation(x, 1.6f, 0.0f));
        world.step(kFrame);
        low_ok = low_ok && lowest_y(cape.read_positions()) >= 1.5f - cd.length - 1e-3f;
    }
    CHECK(low_ok, "the cape, walked by its bones, never hangs below its length");
    const std::vector<SinewVec3> sp = skirt.read_positions(), hp = hair.read_positions();
    CHECK(near3(sp[0], v3(0.6f + kd.radius_top, 1.0f, 0.0f), 1e-4f), "the skirt's waist ring follows its bone");
    CHECK(near3(hp[0], v3(hair_rest[0].x + 0.6f, hair_rest[0].y, hair_rest[0].z), 1e-4f) && near3(hp[1], v3(hair_rest[1].x + 0.6f, hair_rest[1].y, hair_rest[1].z), 1e-4f), "the hair's two root particles follow the head bone");

    std::printf("-- kernels: the same bits\n");
    auto run = [](std::uint32_t kernel) {
        sinew::World w(character_world_desc(4, 2, kernel));
        sinew::Body c = w.create_grid(hanging_desc(16, 16, 0.04f));
        SinewWind wind = sinew::default_wind();
        wind.speed = 4.0f;
        w.set_wind(wind);
        for (int f = 0; f < 60; ++f) w.step(kFrame);
        return c.read_positions();
    };
    const std::vector<SinewVec3> scalar = run(SINEW_KERNEL_SCALAR);
    CHECK(same_all(run(SINEW_KERNEL_SSE2), scalar), "SINEW_KERNEL_SSE2 gives the same bits as SINEW_KERNEL_SCALAR");
    CHECK(same_all(run(SINEW_KERNEL_AUTO), scalar), "SINEW_KERNEL_AUTO gives the same bits as SINEW_KERNEL_SCALAR");
}

void character_errors() {
    std::printf("-- character errors as sinew::Error\n");
    sinew::World world(character_world_desc(4, 1));
    sinew::Body skinned = world.create_grid(hanging_desc(4, 4, 0.1f));
    sinew::Body plain = world.create_grid(hanging_desc(4, 4, 0.1f, 1.0f));
    skinned.set_skinning(one_bone(skinned), 1);
    const SinewMat4 bone = translation(0.0f, 0.0f, 0.0f);
    skinned.set_bone_matrix(bone);
    for (int f = 0; f < 10; ++f) world.step(kFrame);
    const std::vector<const sinew::Body*> bodies = {&skinned, &plain};
    const SinewDynamics skinned_dynamics = skinned.dynamics();
    auto fails = [&](int line, const char* what, SinewResult code, const std::function<void()>& f) {
        const Snapshot before(world, bodies);
        expect_error(line, what, code, f);
        if (!(Snapshot(world, bodies) == before)) fail(line, what, "the failing call changed the scene");
        const SinewDynamics now = skinned.dynamics();
        if (std::memcmp(&now, &skinned_dynamics, sizeof now) != 0) fail(line, what, "the failing call changed the dynamics");
        world.step(kFrame);
        char label[80];
        std::snprintf(label, sizeof label, "%-24s bodies unchanged, world still steps", "");
        pass(label);
    };
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();

    std::vector<SinewBoneWeight> weights = one_bone(plain);
    FAILS(SINEW_INVALID_ARGUMENT, plain.set_skinning(std::vector<SinewBoneWeight>(15, weights[0]), 1));
    weights[3].bone0 = 1;
    FAILS(SINEW_OUT_OF_RANGE, plain.set_skinning(weights, 1));
    weights[3].bone0 = 0;
    FAILS(SINEW_INVALID_ARGUMENT, plain.set_skinning(weights, {bone, bone}, 1));
    SinewMat4 bad = bone;
    bad.m[12] = nan;
    FAILS(SINEW_NON_FINITE, plain.set_skinning(weights, {bad}, 1));
    FAILS(SINEW_INVALID_ARGUMENT, plain.set_bone_matrix(bone)); // no skinning
    FAILS(SINEW_INVALID_ARGUMENT, skinned.set_bone_matrices({bone, bone}));
    FAILS(SINEW_NON_FINITE, skinned.set_bone_matrix(bad));
    FAILS(SINEW_INVALID_ARGUMENT, plain.set_max_distances(std::vector<float>(16, 0.1f))); // no skinning
    FAILS(SINEW_INVALID_ARGUMENT, skinned.set_max_distances(std::vector<float>(15, 0.1f)));
    FAILS(SINEW_NON_FINITE, skinned.set_max_distances(std::vector<float>(16, nan)));
    FAILS(SINEW_INVALID_ARGUMENT, skinned.set_backstops(std::vector<float>(16, 0.0f), std::vector<float>(15, 0.1f)));
    FAILS(SINEW_INVALID_ARGUMENT, plain.set_backstops(std::vector<float>(16, 0.0f), std::vector<float>(16, 0.1f)));
    FAILS(SINEW_NON_FINITE, skinned.set_backstops(std::vector<float>(16, inf), std::vector<float>(16, 0.1f)));
    FAILS(SINEW_INVALID_ARGUMENT, skinned.set_tethers(7));
    FAILS(SINEW_INVALID_ARGUMENT, skinned.set_tethers(SINEW_TETHER_EUCLIDEAN, 0.9f));
    FAILS(SINEW_NON_FINITE, skinned.set_tethers(SINEW_TETHER_EUCLIDEAN, nan));
    SinewDynamics d = sinew::default_dynamics();
    d.world_velocity_scale = 1.5f;
    FAILS(SINEW_INVALID_ARGUMENT, skinned.set_dynamics(d));
    d = sinew::default_dynamics();
    d.lift = inf;
    FAILS(SINEW_NON_FINITE, skinned.set_dynamics(d));
    FAILS(SINEW_NON_FINITE, skinned.set_root_transform(bad));
    SinewMat4 stretched = bone;
    stretched.m[0] = 3.0f;
    FAILS(SINEW_INVALID_ARGUMENT, skinned.set_root_transform(stretched));
    SinewLod l = sinew::default_lod();
    l.reduced_substeps = 0;
    FAILS(SINEW_INVALID_ARGUMENT, plain.set_lod(l));
    l = sinew::default_lod();
    l.freeze_distance = nan;
    FAILS(SINEW_NON_FINITE, plain.set_lod(l));
    FAILS(SINEW_NON_FINITE, world.set_camera(v3(nan, 0.0f, 0.0f)));
    SinewWind w = sinew::default_wind();
    w.direction.z = inf;
    FAILS(SINEW_NON_FINITE, world.set_wind(w));
    w = sinew::default_wind();
    w.speed = -3.0f;
    FAILS(SINEW_INVALID_ARGUMENT, world.set_wind(w));
    std::uint32_t few[8];
    FAILS(SINEW_BUFFER_TOO_SMALL, skinned.read_indices(few, 8));
    FAILS(SINEW_BUFFER_TOO_SMALL, skinned.read_vertex_sources(few, 8));
    FAILS(SINEW_NULL_POINTER, skinned.read_indices(nullptr, 64));
    SinewStrandsDesc sd = sinew::default_strands_desc();
    const SinewVec3 root = v3(0.0f, 0.0f, 0.0f), zero = v3(0.0f, 0.0f, 0.0f);
    sd.roots = &root;
    sd.directions = &zero;
    sd.root_count = 1;
    sd.direction_count = 1;
    FAILS(SINEW_INVALID_ARGUMENT, world.create_strands(sd)); // zero direction: the points coincide
    sd.directions = nullptr;
    FAILS(SINEW_NULL_POINTER, world.create_strands(sd));
    SinewClothCapeDesc cd = sinew::default_cape_desc();
    cd.right_shoulder = cd.left_shoulder;
    FAILS(SINEW_INVALID_ARGUMENT, world.create_cape(cd)); // shoulders that coincide
    cd.right_shoulder = translation(0.2f, 0.0f, 0.0f);
    cd.length = nan;
    FAILS(SINEW_NON_FINITE, world.create_cape(cd));
    SinewClothSkirtDesc kd = sinew::default_skirt_desc();
    kd.columns = 2;
    FAILS(SINEW_INVALID_ARGUMENT, world.create_skirt(kd));
    FAILS(SINEW_INVALID_ARGUMENT, sinew::World{character_world_desc(4, 1, 42)});
    sinew::Body empty;
    FAILS(SINEW_INVALID_HANDLE, empty.set_visible(true));
    FAILS(SINEW_INVALID_HANDLE, empty.reset_pose());
    FAILS(SINEW_INVALID_HANDLE, empty.dynamics());
    FAILS(SINEW_INVALID_HANDLE, empty.read_indices());
    CHECK(world.stats().body_count == 2, "still 2 bodies: no failed create made one");

    OK(world.step_begin(kFrame));
    THROWS(SINEW_BUSY, skinned.set_bone_matrix(bone));
    THROWS(SINEW_BUSY, skinned.read_indices());
    THROWS(SINEW_BUSY, world.set_wind(sinew::default_wind()));
    THROWS(SINEW_BUSY, world.create_skirt(sinew::default_skirt_desc()));
    OK(world.step_end());
}

void character() {
    character_defaults();
    skinning();
    tethers_root_wind_lod();
    tearing_and_generators();
    character_errors();
}

// Every material preset through sinew::material_preset: a body takes it, and a 1 m² denim
// grid weighs the preset's 0.4 kg/m²; a value no preset has throws SINEW_INVALID_ARGUMENT.
void presets() {
    std::printf("-- material presets\n");
    SinewWorldDesc wd = sinew::default_world_desc();
    wd.thread_count = 1;
    sinew::World world(wd);
    sinew::Body grid = world.create_grid(grid_desc());
    bool all = true;
    for (std::uint32_t p = SINEW_MATERIAL_SILK; p <= SINEW_MATERIAL_FLESH; ++p) {
        const SinewMaterial m = sinew::material_preset(static_cast<SinewMaterialPreset>(p));
        grid.set_material(m);
        all = all && m.density > 0.0f && grid.material().density == m.density;
    }
    CHECK(all, "every preset (silk .. flesh) is accepted by Body::set_material and reads back");
    world.step(kFrame);
    SinewClothGridDesc d = grid_desc();
    d.columns = 11;
    d.rows = 11;
    d.spacing = 0.1f;
    d.material = sinew::material_preset(SINEW_MATERIAL_DENIM);
    sinew::Body denim = world.create_grid(d);
    CHECK(std::fabs(denim.info().mass - 0.4f) < 1e-5f, "a 1 m x 1 m denim grid weighs 0.4 kg");
    THROWS(SINEW_INVALID_ARGUMENT, sinew::material_preset(static_cast<SinewMaterialPreset>(SINEW_MATERIAL_FLESH + 1)));
}

}  // namespace

// The Z mirror of docs/conventions.md: its own inverse, and a mirrored transform moves a
// mirrored point where the transform moves the point, mirrored.
static void conventions() {
    SinewMat4 m{};
    // A turn of 0.5 rad about (1, 2, 3)/|..| and a translation, column-major.
    const double ax = 1.0 / std::sqrt(14.0), ay = 2.0 / std::sqrt(14.0), az = 3.0 / std::sqrt(14.0), c = std::cos(0.5), s = std::sin(0.5);
    const double r[3][3] = {{c + ax * ax * (1 - c), ax * ay * (1 - c) - az * s, ax * az * (1 - c) + ay * s},
                            {ay * ax * (1 - c) + az * s, c + ay * ay * (1 - c), ay * az * (1 - c) - ax * s},
                            {az * ax * (1 - c) - ay * s, az * ay * (1 - c) + ax * s, c + az * az * (1 - c)}};
    for (int col = 0; col < 3; col++)
        for (int row = 0; row < 3; row++) m.m[col * 4 + row] = static_cast<float>(r[row][col]);
    m.m[12] = 0.3f;
    m.m[13] = -1.2f;
    m.m[14] = 2.5f;
    m.m[15] = 1.0f;
    auto apply = [](const SinewMat4& t, SinewVec3 p) {
        return SinewVec3{t.m[0] * p.x + t.m[4] * p.y + t.m[8] * p.z + t.m[12], t.m[1] * p.x + t.m[5] * p.y + t.m[9] * p.z + t.m[13],
                         t.m[2] * p.x + t.m[6] * p.y + t.m[10] * p.z + t.m[14]};
    };
    const SinewVec3 p{0.7f, -0.4f, 1.9f};
    const SinewVec3 a = apply(sinew::mirror_z(m), sinew::mirror_z(p)), b = sinew::mirror_z(apply(m, p));
    CHECK(std::fabs(a.x - b.x) < 1e-5f && std::fabs(a.y - b.y) < 1e-5f && std::fabs(a.z - b.z) < 1e-5f, "mirror_z: a mirrored transform moves the mirrored point");
    const SinewMat4 twice = sinew::mirror_z(sinew::mirror_z(m));
    bool same = true;
    for (int i = 0; i < 16; i++) same = same && twice.m[i] == m.m[i];
    const SinewQuat q{0.1f, 0.2f, 0.3f, 0.927f}, qq = sinew::mirror_z(sinew::mirror_z(q));
    CHECK(same && qq.x == q.x && qq.y == q.y && qq.z == q.z && qq.w == q.w, "mirror_z is its own inverse");
}

int main() {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    try {
        scene();
        colliders();
        character();
        presets();
        conventions();
    } catch (const sinew::Error& e) {
        fail(__LINE__, "unexpected sinew::Error", e.what());
    }
    std::printf("cpp-client: all %d checks passed\n", g_passed);
    return 0;
}
