// The math helpers of sinew.hpp (vec3, quat_axis_angle, quat_multiply, mat4_trs,
// transform_point, rotate) against analytic answers, and against the library's own
// convention: a falling ragdoll's bone matrices (sinew_ragdoll_read_matrices) must equal
// mat4_trs of its bone positions and rotations (sinew_ragdoll_read_pose).
// Built with -Wall -Wextra -Werror -pedantic -Wconversion -Wold-style-cast (scripts/test-package.sh).
#include "sinew.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

int g_passed = 0;

void check(bool ok, const std::string& what, int line) {
    if (!ok) {
        std::printf("FAIL %s\n     at math.cpp:%d\n", what.c_str(), line);
        std::printf("cpp-math: %d checks passed, then a failure\n", g_passed);
        std::exit(1);
    }
    std::printf("ok   %s\n", what.c_str());
    ++g_passed;
}
#define CHECK(cond, what) check((cond), (what), __LINE__)

bool near(float a, float b, float tol) { return std::fabs(a - b) <= tol; }

bool near3(SinewVec3 a, SinewVec3 b, float tol) { return near(a.x, b.x, tol) && near(a.y, b.y, tol) && near(a.z, b.z, tol); }

bool near_mat(const SinewMat4& a, const SinewMat4& b, float tol) {
    for (int i = 0; i < 16; ++i) {
        if (!near(a.m[i], b.m[i], tol)) return false;
    }
    return true;
}

const float half_pi = 1.57079632679f;

}  // namespace

int main() {
    const SinewVec3 v = sinew::vec3(1.0f, 2.0f, 3.0f);
    CHECK(v.x == 1.0f && v.y == 2.0f && v.z == 3.0f, "vec3 keeps its components in order");
    const SinewQuat q = sinew::quat(0.1f, 0.2f, 0.3f, 0.9f);
    CHECK(q.x == 0.1f && q.y == 0.2f && q.z == 0.3f && q.w == 0.9f, "quat is (x, y, z, w)");

    const SinewMat4 identity = sinew::mat4_identity();
    bool is_identity = true;
    for (int i = 0; i < 16; ++i) is_identity = is_identity && identity.m[i] == ((i % 5 == 0) ? 1.0f : 0.0f);
    CHECK(is_identity, "mat4_identity is the identity");

    // Column-major: translation in m[12..14], the bottom row 0 0 0 1.
    const SinewMat4 t = sinew::mat4_translation(sinew::vec3(4.0f, 5.0f, 6.0f));
    CHECK(t.m[12] == 4.0f && t.m[13] == 5.0f && t.m[14] == 6.0f && t.m[15] == 1.0f, "mat4_translation writes m[12..14]");
    CHECK(t.m[3] == 0.0f && t.m[7] == 0.0f && t.m[11] == 0.0f, "the bottom row is 0 0 0 1");
    CHECK(near3(sinew::transform_point(t, v), sinew::vec3(5.0f, 7.0f, 9.0f), 0.0f), "a translation moves a point by t");

    // Right-handed rotations: +90 degrees about z takes x to y, about y takes x to -z, about x takes y to z.
    const SinewVec3 x = sinew::vec3(1, 0, 0), y = sinew::vec3(0, 1, 0), z = sinew::vec3(0, 0, 1);
    CHECK(near3(sinew::rotate(sinew::quat_axis_angle(z, half_pi), x), y, 1e-6f), "90 degrees about z takes x to y");
    CHECK(near3(sinew::rotate(sinew::quat_axis_angle(y, half_pi), x), sinew::vec3(0, 0, -1), 1e-6f), "90 degrees about y takes x to -z");
    CHECK(near3(sinew::rotate(sinew::quat_axis_angle(x, half_pi), y), z, 1e-6f), "90 degrees about x takes y to z");
    const SinewQuat about_z = sinew::quat_axis_angle(sinew::vec3(0, 0, 7), half_pi);
    CHECK(near(about_z.z, std::sqrt(0.5f), 1e-7f) && near(about_z.w, std::sqrt(0.5f), 1e-7f), "the axis may have any length");
    const SinewQuat none = sinew::quat_axis_angle(sinew::vec3(0, 0, 0), 1.0f);
    CHECK(none.x == 0.0f && none.y == 0.0f && none.z == 0.0f && none.w == 1.0f, "a zero axis gives the identity");

    // T * R * S: (1, 0, 0) scaled by (2, 3, 4) is (2, 0, 0), turned 90 degrees about z (0, 2, 0),
    // moved by (1, 2, 3): (1, 4, 3). (0, 1, 0): (0, 3, 0), (-3, 0, 0), (-2, 2, 3).
    const SinewMat4 m = sinew::mat4_trs(sinew::vec3(1, 2, 3), sinew::quat_axis_angle(z, half_pi), sinew::vec3(2, 3, 4));
    CHECK(near3(sinew::transform_point(m, x), sinew::vec3(1, 4, 3), 1e-6f), "mat4_trs scales, then rotates, then translates (x)");
    CHECK(near3(sinew::transform_point(m, y), sinew::vec3(-2, 2, 3), 1e-6f), "mat4_trs scales, then rotates, then translates (y)");
    CHECK(near3(sinew::transform_point(m, z), sinew::vec3(1, 2, 7), 1e-6f), "mat4_trs scales, then rotates, then translates (z)");
    CHECK(near_mat(sinew::mat4_trs(sinew::vec3(4, 5, 6), sinew::quat_identity()), t, 0.0f), "mat4_trs with no rotation is mat4_translation");
    const SinewQuat r = sinew::quat_axis_angle(sinew::vec3(1, 2, -1), 0.7f);
    const SinewQuat r_long = sinew::quat(2 * r.x, 2 * r.y, 2 * r.z, 2 * r.w);
    CHECK(near_mat(sinew::mat4_trs(v, r_long), sinew::mat4_trs(v, r), 1e-6f), "a quaternion of length 2 gives the same rotation");
    const SinewMat4 uniform = sinew::mat4_trs(v, r, 3.0f);
    CHECK(near(std::sqrt(uniform.m[0] * uniform.m[0] + uniform.m[1] * uniform.m[1] + uniform.m[2] * uniform.m[2]), 3.0f, 1e-6f),
          "a uniform scale of 3 makes each axis 3 long");
    const SinewMat4 cols = sinew::mat4_columns(x, y, z, v);
    CHECK(near_mat(cols, sinew::mat4_translation(v), 0.0f), "mat4_columns takes the axes, then the translation");

    // a * b rotates by b first.
    const SinewQuat a = sinew::quat_axis_angle(z, half_pi), b = sinew::quat_axis_angle(x, half_pi);
    CHECK(near3(sinew::rotate(sinew::quat_multiply(a, b), y), sinew::rotate(a, sinew::rotate(b, y)), 1e-6f), "quat_multiply(a, b) is b, then a");
    CHECK(near3(sinew::rotate(sinew::quat_multiply(a, b), y), z, 1e-6f), "quat_multiply(a, b): y about x to z, which z keeps");
    CHECK(near3(sinew::rotate(sinew::quat_multiply(b, a), y), sinew::vec3(-1, 0, 0), 1e-6f), "quat_multiply(b, a): y about z to -x, which x keeps");

    // The library's convention: each bone's matrix is mat4_trs(position, rotation).
    sinew::World world;
    sinew::Ragdoll ragdoll = world.create_ragdoll(sinew::default_ragdoll_settings(), sinew::humanoid_bone_descs(sinew::default_humanoid_bones()));
    ragdoll.apply_impulse(sinew::vec3(0.0f, 1.4f, 0.1f), sinew::vec3(3.0f, 0.0f, -2.0f));
    for (int i = 0; i < 40; ++i) world.step(1.0f / 60.0f);
    std::vector<SinewVec3> positions;
    std::vector<SinewQuat> rotations;
    std::vector<SinewMat4> matrices;
    ragdoll.read_pose(positions, rotations);
    ragdoll.read_matrices(matrices);
    bool all_match = matrices.size() == positions.size() && !matrices.empty();
    bool turned = false;
    for (std::size_t i = 0; all_match && i < matrices.size(); ++i) {
        all_match = near_mat(sinew::mat4_trs(positions[i], rotations[i]), matrices[i], 1e-5f);
        turned = turned || std::fabs(rotations[i].w) < 0.99f;
    }
    CHECK(turned, "the ragdoll's bones turned (the comparison below is not of identities)");
    CHECK(all_match, "every bone's read_matrices equals mat4_trs of its read_pose (" + std::to_string(matrices.size()) + " bones)");

    std::printf("cpp-math: %d checks passed\n", g_passed);
    return 0;
}
