// Soft bodies through include/sinew.hpp from strict C++17 (scripts/test-c.sh): the factories
// World::create_soft_lattice / create_soft_tets returning sinew::Body, Body::soft_volume,
// soft_settings, set_soft_settings and center_of_mass; their errors as sinew::Error with the
// right code and message (null-free by construction, so: ranges, NaN, degenerate and
// out-of-range tetrahedra, index counts, a cloth given to the soft-only methods, a destroyed
// body); then a jelly and a tet cube dropped on a plane (volume within 1 % and 2 %, nothing
// below the plane - 1 mm) with readback of positions, normals and the surface's indices.
//
//   softbody_cpp errors | physics | (both)
//
// One line per check; the first failure exits with status 1.

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
#include <utility>
#include <vector>

namespace {

int g_passed = 0;
const float kFrame = 1.0f / 60.0f;
const float kNaN = std::numeric_limits<float>::quiet_NaN();

#define CHECK_FILE "softbody.cpp"
#define CHECK_PROGRAM "cpp-softbody"
#include "check.hpp"

SinewVec3 v3(float x, float y, float z) { return SinewVec3{x, y, z}; }

bool same(const SinewSoftSettings& a, const SinewSoftSettings& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

sinew::World make_world() {
    SinewWorldDesc d = sinew::default_world_desc();
    d.thread_count = 1;
    return sinew::World(d);
}

sinew::Collider floor_plane(sinew::World& w) {
    SinewColliderDesc d = sinew::plane_desc();
    std::memset(&d.transform, 0, sizeof d.transform);
    d.transform.m[0] = d.transform.m[5] = d.transform.m[10] = d.transform.m[15] = 1.0f;
    return w.create_collider(d);
}

// A cube of `side` with its lowest corner at `at` (corner c = i + 2j + 4k) and its 5 tetrahedra.
std::vector<SinewVec3> cube_positions(SinewVec3 at, float side) {
    std::vector<SinewVec3> p;
    for (int c = 0; c < 8; ++c) {
        p.push_back(v3(at.x + side * static_cast<float>(c & 1), at.y + side * static_cast<float>((c >> 1) & 1), at.z + side * static_cast<float>((c >> 2) & 1)));
    }
    return p;
}
const std::vector<std::uint32_t> kCubeTets{0, 1, 2, 4, 3, 1, 2, 7, 5, 1, 4, 7, 6, 2, 4, 7, 1, 2, 4, 7};

std::uint32_t body_count(const sinew::World& w) { return w.stats().body_count; }

void errors() {
    sinew::World world = make_world();
    const SinewSoftSettings s = sinew::default_soft_settings();
    CHECK(s.shape_stiffness == 0.5f && s.volume_compliance == 0.0f && s.chapter_stiffness == 0 && s.plastic_creep == 0.0f, "default_soft_settings");
    SinewSoftLatticeDesc d = sinew::default_soft_lattice_desc();
    CHECK(d.nx == 4 && d.ny == 4 && d.nz == 4 && d.spacing == 0.05f && d.orientation.w == 1.0f && same(d.soft, s), "default_soft_lattice_desc");
    const SinewMaterial m = sinew::default_material();

    d.origin = v3(0.0f, 1.0f, 0.0f);
    sinew::Body jelly = world.create_soft_lattice(d);
    CHECK(jelly.info().kind == SINEW_BODY_SOFT && jelly.vertex_count() == 64, "create_soft_lattice: a soft body of 64 vertices");
    sinew::Body cube = world.create_soft_tets(cube_positions(v3(1.0f, 1.0f, 0.0f), 0.1f), kCubeTets, m, s);
    CHECK(cube.info().kind == SINEW_BODY_SOFT && cube.vertex_count() == 8, "create_soft_tets: a soft body of 8 vertices");
    const sinew::SoftVolume cv = cube.soft_volume();
    CHECK(std::fabs(cv.rest - 1e-3f) < 1e-7f && std::fabs(cv.current - cv.rest) < 1e-7f, "soft_volume: the cube's (0.1 m)^3");
    SinewClothGridDesc gd = sinew::default_grid_desc();
    gd.origin = v3(-2.0f, 2.0f, 0.0f);
    sinew::Body cloth = world.create_grid(gd);
    OK(world.step(kFrame));
    const std::uint32_t bodies = body_count(world);

    // Lattices refused: nothing created.
    auto refused_lattice = [&](int line, const char* what, SinewResult code, const char* text, const SinewSoftLatticeDesc& bad) {
        expect_error(line, what, code, text, [&]() { world.create_soft_lattice(bad); });
        if (body_count(world) != bodies) fail(line, what, "a body was created although the call was refused");
    };
    SinewSoftLatticeDesc bad = d;
    bad.nz = 1;
    refused_lattice(__LINE__, "create_soft_lattice(nz = 1)", SINEW_INVALID_ARGUMENT, "at least 2", bad);
    bad = d;
    bad.nx = bad.ny = bad.nz = 0;
    refused_lattice(__LINE__, "create_soft_lattice(0 x 0 x 0)", SINEW_INVALID_ARGUMENT, "at least 2", bad);
    bad = d;
    bad.spacing = kNaN;
    refused_lattice(__LINE__, "create_soft_lattice(spacing NaN)", SINEW_NON_FINITE, "spacing", bad);
    bad = d;
    bad.orientation = SinewQuat{0.5f, 0.0f, 0.0f, 0.5f};
    refused_lattice(__LINE__, "create_soft_lattice(orientation of length 0.71)", SINEW_INVALID_ARGUMENT, "unit quaternion", bad);
    bad = d;
    bad.soft.shape_stiffness = -0.1f;
    refused_lattice(__LINE__, "create_soft_lattice(shape_stiffness -0.1)", SINEW_INVALID_ARGUMENT, "shape_stiffness", bad);
    bad = d;
    bad.soft.plastic_yield = kNaN;
    refused_lattice(__LINE__, "create_soft_lattice(plastic_yield NaN)", SINEW_NON_FINITE, "plastic_yield", bad);
    pass("no body created by a refused call");

    // Tet meshes refused.
    const std::vector<SinewVec3> p = cube_positions(v3(1.0f, 1.0f, 0.0f), 0.1f);
    std::vector<std::uint32_t> idx = kCubeTets;
    idx[4 * 1 + 2] = 99;
    THROWS(SINEW_OUT_OF_RANGE, "tetrahedron 1", world.create_soft_tets(p, idx, m, s));
    idx = kCubeTets;
    idx[4 * 4 + 0] = 0;
    idx[4 * 4 + 1] = 1;
    idx[4 * 4 + 2] = 2;
    idx[4 * 4 + 3] = 3;  // the bottom face: flat
    THROWS(SINEW_INVALID_ARGUMENT, "tetrahedron 4", world.create_soft_tets(p, idx, m, s));
    idx = kCubeTets;
    idx.pop_back();
    THROWS(SINEW_INVALID_ARGUMENT, "4 per tetrahedron", world.create_soft_tets(p, idx, m, s));
    THROWS(SINEW_INVALID_ARGUMENT, "1 tetrahedron", world.create_soft_tets(p, std::vector<std::uint32_t>{}, m, s));
    std::vector<SinewVec3> bad_p = p;
    bad_p[7].z = kNaN;
    THROWS(SINEW_NON_FINITE, "positions 7", world.create_soft_tets(bad_p, kCubeTets, m, s));
    SinewSoftSettings bad_s = s;
    bad_s.volume_compliance = 1e9f;
    THROWS(SINEW_INVALID_ARGUMENT, "volume_compliance", world.create_soft_tets(p, kCubeTets, m, bad_s));
    CHECK(body_count(world) == bodies, "no body created by a refused create_soft_tets");

    // Settings: refused whole.
    const SinewSoftSettings before = jelly.soft_settings();
    bad_s = s;
    bad_s.shape_stiffness = 0.9f;
    bad_s.shape_linear = 1.5f;
    THROWS(SINEW_INVALID_ARGUMENT, "shape_linear", jelly.set_soft_settings(bad_s));
    bad_s = s;
    bad_s.plastic_max = kNaN;
    THROWS(SINEW_NON_FINITE, "plastic_max", jelly.set_soft_settings(bad_s));
    CHECK(same(jelly.soft_settings(), before), "refused settings change nothing");
    bad_s = s;
    bad_s.shape_stiffness = 0.9f;
    bad_s.shape_linear = 0.5f;
    OK(jelly.set_soft_settings(bad_s));
    CHECK(same(jelly.soft_settings(), bad_s), "soft_settings returns what set_soft_settings was given");

    // The soft-only methods on a cloth; the centre of mass on any body.
    THROWS(SINEW_INVALID_ARGUMENT, "not a soft body", cloth.soft_volume());
    THROWS(SINEW_INVALID_ARGUMENT, "not a soft body", cloth.soft_settings());
    THROWS(SINEW_INVALID_ARGUMENT, "not a soft body", cloth.set_soft_settings(s));
    const SinewVec3 c = cloth.center_of_mass();
    CHECK(std::fabs(c.x + 2.0f) < 0.05f, "center_of_mass works on a cloth");

    // A destroyed body, an empty Body, a moved-from Body.
    sinew::Body doomed = world.create_soft_lattice(d);
    const SinewBody stale = doomed.handle();
    doomed.reset();
    sinew::Body ghost(stale);
    THROWS(SINEW_INVALID_HANDLE, "body handle", ghost.soft_volume());
    THROWS(SINEW_INVALID_HANDLE, "body handle", ghost.set_soft_settings(s));
    THROWS(SINEW_INVALID_HANDLE, "body handle", ghost.center_of_mass());
    ghost.release();
    sinew::Body empty;
    THROWS(SINEW_INVALID_HANDLE, "body handle", empty.soft_settings());
    sinew::Body moved = std::move(jelly);
    THROWS(SINEW_INVALID_HANDLE, "body handle", jelly.soft_volume());
    CHECK(moved.soft_volume().rest > 0.0f, "the moved-to Body owns the jelly");

    // A soft body outliving its world: its destructor ignores the invalid handle.
    {
        sinew::Body orphan;
        {
            sinew::World w2 = make_world();
            orphan = w2.create_soft_lattice(d);
        }
        THROWS(SINEW_INVALID_HANDLE, "handle", orphan.soft_volume());
    }
    pass("a soft Body destroyed after its World: no crash");
}

// Steps until `frames`, tracking the lowest particle, the worst volume error after frame 60 and
// the first frame after 60 at rest (asleep, or no particle faster than 1 mm/s).
struct Drop {
    float lowest = 1e30f;
    float worst_volume = 0.0f;
    int rest_at = -1;
};

Drop drop(sinew::World& w, const sinew::Body& body, int frames) {
    Drop r;
    std::vector<SinewVec3> x, prev;
    body.read_positions(prev);
    x.resize(prev.size());
    for (int f = 0; f < frames; ++f) {
        w.step(kFrame);
        body.read_positions(x.data(), x.size());  // the vector is reused: no allocation per frame
        const sinew::SoftVolume v = body.soft_volume();
        float fastest = 0.0f;
        for (std::size_t i = 0; i < x.size(); ++i) {
            const float dx = x[i].x - prev[i].x, dy = x[i].y - prev[i].y, dz = x[i].z - prev[i].z;
            fastest = std::fmax(fastest, std::sqrt(dx * dx + dy * dy + dz * dz) / kFrame);
            r.lowest = std::fmin(r.lowest, x[i].y);
        }
        std::swap(x, prev);
        if (f > 60) {
            r.worst_volume = std::fmax(r.worst_volume, std::fabs(v.current / v.rest - 1.0f));
            if (r.rest_at < 0 && (fastest < 1e-3f || body.info().sleeping != 0)) r.rest_at = f;
        }
    }
    return r;
}

void physics() {
    sinew::World world = make_world();
    sinew::Collider plane = floor_plane(world);
    const int n = 6;
    SinewSoftLatticeDesc d = sinew::default_soft_lattice_desc();
    d.nx = d.ny = d.nz = n;
    d.origin = v3(0.0f, 0.6f, 0.0f);
    d.material.particle_mass = 1.0f / static_cast<float>(n * n * n);
    d.material.stretch_compliance = 1e-4f;
    d.material.shear_compliance = 1e-4f;
    d.material.damping = 0.1f;
    d.soft.shape_stiffness = 0.3f;
    sinew::Body jelly = world.create_soft_lattice(d);
    CHECK(jelly.vertex_count() == 216, "the jelly's vertex count is its particle count");
    const Drop j = drop(world, jelly, 240);
    char line[256];
    std::snprintf(line, sizeof line, "jelly 6^3 dropped 0.5 m: lowest particle %.2f mm, worst volume error %.3f %%, at rest at frame %d",
                  static_cast<double>(j.lowest * 1e3f), static_cast<double>(j.worst_volume * 100.0f), j.rest_at);
    pass(line);
    CHECK(j.rest_at >= 0, "the jelly comes to rest");
    CHECK(j.lowest > -1e-3f, "no particle below the plane - 1 mm");
    CHECK(j.worst_volume < 0.01f, "its volume within 1 % of rest once landed");

    std::vector<std::uint32_t> indices = jelly.read_indices();
    CHECK(indices.size() == 3u * 2u * 6u * 25u, "the surface: 300 triangles");
    std::vector<SinewVec3> normals = jelly.read_normals();
    std::vector<SinewVec3> x = jelly.read_positions();
    bool outward = true;
    const SinewVec3 c = jelly.center_of_mass();
    for (std::uint32_t i : indices) {
        if (i >= x.size()) fail(__LINE__, "read_indices", "an index past the vertices");
        const float dot = (x[i].x - c.x) * normals[i].x + (x[i].y - c.y) * normals[i].y + (x[i].z - c.z) * normals[i].z;
        if (dot <= 0.0f) outward = false;
    }
    CHECK(outward, "every surface vertex's normal points away from the centre of mass");

    sinew::Body cube = world.create_soft_tets(cube_positions(v3(1.0f, 0.3f, 0.0f), 0.1f), kCubeTets,
                                              [] {
                                                  SinewMaterial m = sinew::default_material();
                                                  m.particle_mass = 0.125f;
                                                  m.stretch_compliance = 1e-4f;
                                                  m.damping = 0.1f;
                                                  return m;
                                              }(),
                                              [] {
                                                  SinewSoftSettings s = sinew::default_soft_settings();
                                                  s.shape_stiffness = 0.3f;
                                                  return s;
                                              }());
    CHECK(cube.read_indices().size() == 36, "the tet cube's surface: 12 triangles");
    const Drop t = drop(world, cube, 240);
    const sinew::SoftVolume v = cube.soft_volume();
    std::snprintf(line, sizeof line, "tet cube dropped 0.3 m: lowest corner %.2f mm, at rest at frame %d, volume %.4f of rest",
                  static_cast<double>(t.lowest * 1e3f), t.rest_at, static_cast<double>(v.current / v.rest));
    pass(line);
    CHECK(t.rest_at >= 0, "the tet cube comes to rest");
    CHECK(t.lowest > -1e-3f, "no corner below the plane - 1 mm");
    CHECK(std::fabs(v.current / v.rest - 1.0f) < 0.02f, "at rest its volume within 2 % of rest");
}

}  // namespace

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    const bool all = argc < 2;
    try {
        if (all || std::strcmp(argv[1], "errors") == 0) errors();
        if (all || std::strcmp(argv[1], "physics") == 0) physics();
    } catch (const sinew::Error& e) {
        fail(__LINE__, "uncaught sinew::Error", e.what());
    }
    std::printf("cpp-softbody: all %d checks passed\n", g_passed);
    return 0;
}
