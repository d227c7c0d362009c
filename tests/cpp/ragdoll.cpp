// sinew::Ragdoll (include/sinew.hpp) from strict C++17 (scripts/test-c.sh): every method,
// its errors as sinew::Error with the right code and message, the ownership rules (move-only,
// destructors that never throw, a Ragdoll outliving its World without a crash), and the
// powered-ragdoll and get-up methods (errors; pinned within 5 mm, balance lost once, face
// up / face down at rest, the blend exact at its ends).
//
//   ragdoll_cpp errors    needs only the library's checks
//   ragdoll_cpp physics   the calls succeeding against laws (needs the rigid-body core)
//   ragdoll_cpp           both
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
#include <type_traits>
#include <utility>
#include <vector>

static_assert(!std::is_copy_constructible<sinew::Ragdoll>::value && !std::is_copy_assignable<sinew::Ragdoll>::value, "Ragdoll is move-only");
static_assert(std::is_nothrow_move_constructible<sinew::Ragdoll>::value && std::is_nothrow_move_assignable<sinew::Ragdoll>::value, "Ragdoll moves never throw");
static_assert(std::is_nothrow_destructible<sinew::Ragdoll>::value, "~Ragdoll never throws");

namespace {

int g_passed = 0;
const float kFrame = 1.0f / 60.0f;
const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

#define CHECK_FILE "ragdoll.cpp"
#define CHECK_PROGRAM "cpp-ragdoll"
#include "check.hpp"

SinewVec3 v3(float x, float y, float z) { return SinewVec3{x, y, z}; }
const SinewQuat kIdentity{0.0f, 0.0f, 0.0f, 1.0f};

float dist(const SinewVec3& a, const SinewVec3& b) { return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z)); }

SinewMat4 translation(float x, float y, float z) {
    SinewMat4 m{};
    m.m[0] = m.m[5] = m.m[10] = m.m[15] = 1.0f;
    m.m[12] = x;
    m.m[13] = y;
    m.m[14] = z;
    return m;
}

sinew::World make_world() {
    SinewWorldDesc d = sinew::default_world_desc();
    d.thread_count = 1;
    return sinew::World(d);
}

std::vector<SinewBoneDesc> chain(SinewVec3 top, int n) {
    std::vector<SinewBoneDesc> bones;
    for (int i = 0; i < n; ++i) {
        SinewBoneDesc b = sinew::default_bone_desc();
        b.parent = i - 1;
        b.position = v3(top.x, top.y - 0.3f * static_cast<float>(i), top.z);
        b.shape_offset = v3(0.0f, -0.15f, 0.0f);
        b.joint.kind = i == 0 ? SINEW_JOINT_FREE : i == 1 ? SINEW_JOINT_HINGE : SINEW_JOINT_SWING_TWIST;
        bones.push_back(b);
    }
    return bones;
}

SinewHumanoidBones plain_humanoid() {
    SinewHumanoidBones h{};
    h.pelvis = v3(0.0f, 1.0f, 0.0f);
    h.up = v3(0.0f, 1.0f, 0.0f);
    h.forward = v3(0.0f, 0.0f, 1.0f);
    h.total_mass = 20.0f;
    return h;
}

void errors() {
    sinew::World world = make_world();
    const SinewRagdollSettings settings = sinew::default_ragdoll_settings();
    CHECK(settings.stabilize == 1 && settings.kinematic == 0, "default_ragdoll_settings");
    const SinewJointDesc joint = sinew::default_joint_desc();
    CHECK(joint.kind == SINEW_JOINT_FREE && joint.hinge_max == 90.0f, "default_joint_desc");
    std::vector<SinewBoneDesc> bones = chain(v3(0.0f, 2.0f, 0.0f), 3);
    sinew::Ragdoll r = world.create_ragdoll(settings, bones);
    CHECK(r && r.bone_count() == 3, "create_ragdoll: 3 bones");
    world.step(kFrame);

    // Moves.
    sinew::Ragdoll moved(std::move(r));
    CHECK(!r && moved && moved.bone_count() == 3, "a moved-from Ragdoll owns nothing");
    r = std::move(moved);
    CHECK(r && !moved, "move assignment");
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", moved.bone_count());

    // Descriptions.
    std::vector<SinewBoneDesc> bad = bones;
    bad[1].parent = 2;
    THROWS(SINEW_OUT_OF_RANGE, "bone 1: parent", world.create_ragdoll(settings, bad));
    bad = bones;
    bad[2].joint.low_twist = 50.0f;
    THROWS(SINEW_INVALID_ARGUMENT, "twist", world.create_ragdoll(settings, bad));
    bad = bones;
    bad[0].position.z = kInf;
    THROWS(SINEW_NON_FINITE, "bone 0", world.create_ragdoll(settings, bad));
    THROWS(SINEW_INVALID_ARGUMENT, "at least one bone", world.create_ragdoll(settings, std::vector<SinewBoneDesc>{}));
    THROWS(SINEW_NULL_POINTER, "bones", world.create_ragdoll(settings, nullptr, 3));
    SinewRagdollSettings bad_settings = settings;
    bad_settings.angular_damping = 3.0f;
    THROWS(SINEW_INVALID_ARGUMENT, "angular_damping", world.create_ragdoll(bad_settings, bones));
    SinewHumanoidBones h = plain_humanoid();
    h.left_knee.y = kNaN;
    THROWS(SINEW_NON_FINITE, "left_knee", world.create_humanoid_ragdoll(h, settings));
    THROWS(SINEW_NON_FINITE, "left_knee", sinew::humanoid_bone_descs(h));
    h = plain_humanoid();
    h.up = h.forward;
    THROWS(SINEW_INVALID_ARGUMENT, "parallel", world.create_humanoid_ragdoll(h, settings));

    // Per-bone calls.
    std::vector<SinewVec3> p{v3(0, 2, 0), v3(0, 1.7f, 0), v3(0, 1.4f, 0)};
    std::vector<SinewQuat> q(3, kIdentity);
    std::vector<SinewMat4> m{translation(0, 2, 0), translation(0, 1.7f, 0), translation(0, 1.4f, 0)};
    THROWS(SINEW_INVALID_ARGUMENT, "positions has 2 entries", r.set_targets(p.data(), 2, q.data(), 3));
    THROWS(SINEW_INVALID_ARGUMENT, "rotations has 1 entries", r.set_pose(p.data(), 3, q.data(), 1, true));
    THROWS(SINEW_INVALID_ARGUMENT, "matrices has 2 entries", r.set_target_matrices(m.data(), 2));
    THROWS(SINEW_NULL_POINTER, "rotations", r.set_targets(p.data(), 3, nullptr, 3));
    p[0].y = kNaN;
    THROWS(SINEW_NON_FINITE, "positions[0]", r.set_targets(p, q));
    p[0].y = 2.0f;
    q[1].w = 2.0f;
    THROWS(SINEW_INVALID_ARGUMENT, "rotations[1] is not a unit quaternion", r.set_pose(p, q, false));
    q[1].w = 1.0f;
    m[2].m[0] = 3.0f;
    THROWS(SINEW_INVALID_ARGUMENT, "matrices[2]", r.set_target_matrices(m));
    m[2].m[0] = 1.0f;
    SinewVec3 pv[3], lv[3], av[3];
    SinewQuat qv[3];
    SinewMat4 mv[3];
    THROWS(SINEW_BUFFER_TOO_SMALL, "holds 2 elements but the ragdoll has 3 bones", r.read_pose(pv, 2, qv, 3));
    THROWS(SINEW_BUFFER_TOO_SMALL, "out_matrices", r.read_matrices(mv, 0));
    THROWS(SINEW_BUFFER_TOO_SMALL, "out_angular", r.read_velocities(lv, 3, av, 1));
    THROWS(SINEW_NULL_POINTER, "out_positions", r.read_pose(nullptr, 3, qv, 3));
    THROWS(SINEW_OUT_OF_RANGE, "bone 3 is out of range", r.set_bone_kinematic(3, true));
    THROWS(SINEW_OUT_OF_RANGE, "bone 9", r.is_bone_kinematic(9));
    THROWS(SINEW_OUT_OF_RANGE, "bone 3", r.apply_bone_impulse(3, v3(0, 1, 0), v3(1, 0, 0)));
    THROWS(SINEW_OUT_OF_RANGE, "bone 4", r.add_force(4, v3(0, 1, 0), v3(1, 0, 0)));
    THROWS(SINEW_OUT_OF_RANGE, "bone b 3", r.set_bone_pair_collision(0, 3, false));
    THROWS(SINEW_INVALID_ARGUMENT, "itself", r.set_bone_pair_collision(1, 1, false));
    THROWS(SINEW_NON_FINITE, "point", r.apply_impulse(v3(kNaN, 0, 0), v3(1, 0, 0)));
    THROWS(SINEW_INVALID_ARGUMENT, "impulse", r.apply_impulse(v3(0, 1, 0), v3(2e6f, 0, 0)));
    THROWS(SINEW_NON_FINITE, "impulse", r.apply_bone_impulse(0, v3(0, 1, 0), v3(0, kInf, 0)));
    THROWS(SINEW_INVALID_ARGUMENT, "radius", r.apply_explosion(v3(0, 1, 0), 5.0f, 0.0f));
    THROWS(SINEW_NON_FINITE, "force", r.add_force(0, v3(0, 1, 0), v3(0, kNaN, 0)));

    // Bodies on ragdolls.
    sinew::Body cloth = world.create_grid(sinew::default_grid_desc());
    THROWS(SINEW_INVALID_ARGUMENT, "one entry per pin", cloth.attach_to_ragdoll(r, {0, 1}, {0}, {v3(0, 0, 0), v3(0, 0, 0)}));
    THROWS(SINEW_OUT_OF_RANGE, "vertices[0] = 5000", cloth.attach_to_ragdoll(r, {5000}, {0}, {v3(0, 0, 0)}));
    THROWS(SINEW_OUT_OF_RANGE, "bones[0] = bone 3", cloth.attach_to_ragdoll(r, {0}, {3}, {v3(0, 0, 0)}));
    THROWS(SINEW_NON_FINITE, "offsets[0]", cloth.attach_to_ragdoll(r, {0}, {0}, {v3(0, kInf, 0)}));
    {
        sinew::World other = make_world();
        sinew::Ragdoll foreign = other.create_ragdoll(settings, chain(v3(0, 1, 0), 2));
        THROWS(SINEW_INVALID_ARGUMENT, "different worlds", cloth.set_ragdoll_collision(foreign, true));
        THROWS(SINEW_INVALID_ARGUMENT, "different worlds", cloth.attach_to_ragdoll(foreign, {0}, {0}, {v3(0, 0, 0)}));
    }
    // A destroyed ragdoll's handle, through the wrapper.
    sinew::Ragdoll doomed = world.create_ragdoll(settings, chain(v3(2, 2, 0), 2));
    const SinewRagdoll stale = doomed.handle();
    doomed.reset();
    CHECK(!doomed, "reset empties it");
    sinew::Ragdoll zombie(stale);
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", zombie.bone_count());
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", zombie.set_kinematic(true));
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", zombie.wake());
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", zombie.is_asleep());
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", zombie.read_pose(pv, 3, qv, 3));
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", cloth.set_ragdoll_collision(zombie, true));
    (void)zombie.release();
    // Busy during an asynchronous step.
    world.step_begin(kFrame);
    THROWS(SINEW_BUSY, "stepping", r.bone_count());
    THROWS(SINEW_BUSY, "stepping", world.create_ragdoll(settings, bones));
    world.step_end();
    CHECK(r.bone_count() == 3, "the ragdoll is unchanged by every refused call");
    world.step(kFrame);

    // A Ragdoll outliving its World: its destructor meets SINEW_INVALID_HANDLE and ignores it.
    sinew::Ragdoll survivor;
    {
        sinew::World short_lived = make_world();
        survivor = short_lived.create_ragdoll(settings, bones);
    }
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", survivor.bone_count());
}

void physics() {
    sinew::World world = make_world();
    SinewRagdollSettings s = sinew::default_ragdoll_settings();
    s.linear_damping = 0.0f;
    s.angular_damping = 0.0f;
    s.sleep_threshold = 0.0f;
    SinewBoneDesc b = sinew::default_bone_desc();
    b.shape = SINEW_SHAPE_SPHERE;
    b.radius = 0.1f;
    b.position = v3(0.0f, 10.0f, 0.0f);
    b.mass = 2.0f;
    sinew::Ragdoll ball = world.create_ragdoll(s, &b, 1);
    for (int i = 0; i < 30; ++i) world.step(kFrame);
    std::vector<SinewVec3> pos, lin, ang;
    std::vector<SinewQuat> rot;
    OK(ball.read_pose(pos, rot));
    const float t = 30.0f * kFrame, fall = 0.5f * 9.81f * t * t;
    CHECK(std::fabs((10.0f - pos[0].y) - fall) < 0.01f * fall, "free fall: 1/2 g t^2 within 1 %");

    world.set_gravity(v3(0, 0, 0));
    std::vector<SinewVec3> here{v3(0, 1, 0)};
    std::vector<SinewQuat> still{kIdentity};
    OK(ball.set_pose(here, still, false));
    OK(ball.read_velocities(lin, ang));
    CHECK(lin[0].x == 0.0f && lin[0].y == 0.0f, "set_pose(keep_velocity false) is at rest");
    OK(ball.apply_bone_impulse(0, v3(0, 1, 0), v3(1, 0, 0)));
    world.step(kFrame);
    OK(ball.read_velocities(lin, ang));
    CHECK(std::fabs(lin[0].x - 0.5f) < 1e-4f, "1 N s on 2 kg: 0.5 m/s");

    // Kinematic: follows, then keeps its velocity.
    OK(ball.set_kinematic(true));
    CHECK(ball.is_bone_kinematic(0), "kinematic");
    float x = 0.0f;
    for (int i = 0; i < 20; ++i) {
        x += 0.05f;
        here[0] = v3(x, 1.0f, 0.0f);
        OK(ball.set_targets(here, still));
        world.step(kFrame);
    }
    OK(ball.read_pose(pos, rot));
    CHECK(dist(pos[0], here[0]) < 1e-4f, "a kinematic bone is at its target");
    OK(ball.set_bone_kinematic(0, false));
    world.step(kFrame);
    OK(ball.read_velocities(lin, ang));
    CHECK(std::fabs(lin[0].x - 3.0f) < 0.03f, "released, it keeps the animation's 3 m/s");
    OK(ball.add_force(0, pos[0], v3(0, 0, 120.0f)));
    world.step(kFrame);
    OK(ball.read_velocities(lin, ang));
    CHECK(std::fabs(lin[0].z - 1.0f) < 1e-3f, "120 N over 1/60 s on 2 kg: 1 m/s");
    OK(ball.apply_explosion(v3(x, 0.0f, 0.0f), 1.0f, 3.0f));
    std::vector<SinewMat4> mats;
    OK(ball.set_bone_kinematic(0, true));
    OK(ball.set_target_matrices({translation(4, 1, 0)}));
    world.step(kFrame);
    OK(ball.read_matrices(mats));
    CHECK(std::fabs(mats[0].m[12] - 4.0f) < 1e-4f && mats[0].m[15] == 1.0f, "matrix targets, matrix readback");

    // The humanoid, edited, with a cape.
    world.set_gravity(v3(0, -9.81f, 0));
    const SinewHumanoidBones h = sinew::default_humanoid_bones();
    sinew::Ragdoll hum = world.create_humanoid_ragdoll(h, sinew::default_ragdoll_settings());
    CHECK(hum.bone_count() == SINEW_HUMANOID_BONE_COUNT, "11 bones");
    std::vector<SinewBoneDesc> descs = sinew::humanoid_bone_descs(h);
    descs[SINEW_HUMANOID_HEAD].mass = 3.0f;
    sinew::Ragdoll edited = world.create_ragdoll(sinew::default_ragdoll_settings(), descs);
    std::uint32_t hit = edited.apply_impulse(h.head, v3(0, 0, -5.0f));
    CHECK(hit == SINEW_HUMANOID_HEAD, "a hit at the head hits the head");
    OK(edited.set_bone_pair_collision(SINEW_HUMANOID_LEFT_KNEE, SINEW_HUMANOID_RIGHT_KNEE, false));
    SinewClothGridDesc gd = sinew::default_grid_desc();
    gd.pin_mode = SINEW_PIN_NONE;
    gd.origin = v3(h.middle_spine.x, h.middle_spine.y, h.middle_spine.z - 0.2f);
    sinew::Body cape = world.create_grid(gd);
    OK(cape.attach_to_ragdoll(hum, {0, 1}, {SINEW_HUMANOID_MIDDLE_SPINE, SINEW_HUMANOID_MIDDLE_SPINE}, {v3(-0.1f, 0, -0.2f), v3(0.1f, 0, -0.2f)}));
    OK(cape.set_ragdoll_collision(hum, true));
    OK(hum.wake());
    CHECK(!hum.is_asleep(), "awake");
    for (int i = 0; i < 30; ++i) world.step(kFrame);
    OK(hum.read_pose(pos, rot));
    CHECK(pos[SINEW_HUMANOID_PELVIS].y < h.pelvis.y - 0.1f, "the humanoid falls");

    // Created at a root (90 degrees about y, column-major: x -> -z, z -> x; then (3, 0, 1)):
    // every bone is root x the bone of the one at the origin.
    SinewMat4 root = translation(3, 0, 1);
    root.m[0] = 0.0f;
    root.m[2] = -1.0f;
    root.m[8] = 1.0f;
    root.m[10] = 0.0f;
    sinew::Ragdoll at_origin = world.create_humanoid_ragdoll(h, sinew::default_ragdoll_settings());
    sinew::Ragdoll placed = world.create_humanoid_ragdoll_at(h, sinew::default_ragdoll_settings(), root);
    sinew::Ragdoll placed_list = world.create_ragdoll_at(sinew::default_ragdoll_settings(), sinew::humanoid_bone_descs(h), root);
    std::vector<SinewVec3> p0, p1, p2;
    std::vector<SinewQuat> q;
    OK(at_origin.read_pose(p0, q));
    OK(placed.read_pose(p1, q));
    OK(placed_list.read_pose(p2, q));
    float worst = 0.0f;
    for (std::size_t i = 0; i < p0.size(); ++i) {
        const SinewVec3 want = v3(p0[i].z + 3.0f, p0[i].y, -p0[i].x + 1.0f);
        for (const SinewVec3& got : {p1[i], p2[i]}) {
            worst = std::max(worst, std::sqrt((got.x - want.x) * (got.x - want.x) + (got.y - want.y) * (got.y - want.y) + (got.z - want.z) * (got.z - want.z)));
        }
    }
    CHECK(worst < 1e-5f, "create_humanoid_ragdoll_at, create_ragdoll_at: every bone is root x the bone at the origin");
    SinewMat4 scaled = root;
    scaled.m[5] = 2.0f;
    THROWS(SINEW_INVALID_ARGUMENT, "scale", world.create_humanoid_ragdoll_at(h, sinew::default_ragdoll_settings(), scaled));
    // The moving-platform anchor through the RAII classes: a ragdoll and a body ride in one.
    OK(placed.set_anchor(root, 0.0f));
    OK(cape.set_anchor(root, 0.5f));
    world.step(kFrame);
    THROWS(SINEW_INVALID_ARGUMENT, "[0, 1]", placed.set_anchor(root, 2.0f));
    THROWS(SINEW_INVALID_ARGUMENT, "scale", cape.set_anchor(scaled, 0.5f));
    OK(placed.clear_anchor());
    OK(cape.clear_anchor());
    world.step(kFrame);
}

// ---- powered ragdolls and getting up -------------------------------------------------------

constexpr std::uint32_t kHB = SINEW_HUMANOID_BONE_COUNT;

SinewQuat qmul(const SinewQuat& a, const SinewQuat& b) {
    return SinewQuat{a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                     a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

SinewVec3 qrot(const SinewQuat& q, const SinewVec3& v) {
    const SinewQuat r = qmul(qmul(q, SinewQuat{v.x, v.y, v.z, 0.0f}), SinewQuat{-q.x, -q.y, -q.z, q.w});
    return v3(r.x, r.y, r.z);
}

SinewQuat about_x(float degrees) {
    const float a = 0.5f * degrees * 3.14159265f / 180.0f;
    return SinewQuat{std::sin(a), 0.0f, 0.0f, std::cos(a)};
}

bool same_bits(const void* a, const void* b, std::size_t n) { return std::memcmp(a, b, n) == 0; }

void powered_errors() {
    sinew::World world = make_world();
    const SinewRagdollSettings settings = sinew::default_ragdoll_settings();
    CHECK(settings.pin_frequency == 20.0f && settings.balance_distance == 0.4f && settings.rest_speed == 0.05f, "default_ragdoll_settings: the drive fields");
    const SinewHumanoidBones h = sinew::default_humanoid_bones();
    const std::vector<SinewBoneDesc> hd = sinew::humanoid_bone_descs(h);
    sinew::Ragdoll r = world.create_humanoid_ragdoll(h, settings);
    sinew::Ragdoll small = world.create_ragdoll(settings, chain(v3(4, 2, 0), 3));
    world.step(kFrame);

    OK(r.set_muscle_strength(SINEW_HUMANOID_HEAD, 0.5f));
    OK(r.set_pin_weight(SINEW_HUMANOID_HEAD, 0.25f));
    const SinewDriveState before = r.drive_state(SINEW_HUMANOID_HEAD);
    CHECK(before.muscle_strength == 0.5f && before.pin_weight == 0.25f && before.effective_pin_weight == 0.25f && before.hit_loss == 0.0f,
          "drive_state reads back the setters");
    THROWS(SINEW_OUT_OF_RANGE, "bone 11 is out of range", r.set_muscle_strength(kHB, 0.5f));
    THROWS(SINEW_INVALID_ARGUMENT, "muscle strength must be within [0, 1]", r.set_muscle_strength(0, 1.5f));
    THROWS(SINEW_NON_FINITE, "muscle strength", r.set_muscle_strength(0, kNaN));
    THROWS(SINEW_INVALID_ARGUMENT, "muscle strength", r.set_muscle_strength_all(-0.5f));
    THROWS(SINEW_NON_FINITE, "muscle strength", r.set_muscle_strength_all(kInf));
    THROWS(SINEW_OUT_OF_RANGE, "bone 12", r.set_pin_weight(12, 0.5f));
    THROWS(SINEW_INVALID_ARGUMENT, "pin weight must be within [0, 1]", r.set_pin_weight(SINEW_HUMANOID_HEAD, 2.0f));
    THROWS(SINEW_NON_FINITE, "pin weight", r.set_pin_weight(SINEW_HUMANOID_HEAD, kNaN));
    THROWS(SINEW_INVALID_ARGUMENT, "pin weight", r.set_pin_weight_all(1.01f));
    THROWS(SINEW_NON_FINITE, "pin weight", r.set_pin_weight_all(kNaN));
    THROWS(SINEW_OUT_OF_RANGE, "bone 11", r.drive_state(kHB));
    const SinewDriveState after = r.drive_state(SINEW_HUMANOID_HEAD);
    CHECK(same_bits(&after, &before, sizeof after), "refused setters change nothing");
    CHECK(r.drive_state(SINEW_HUMANOID_PELVIS).pin_weight == 0.0f, "nor any other bone");
    CHECK(r.take_events() == 0u, "take_events: none yet");

    std::vector<SinewVec3> ap(kHB), op(kHB, v3(-1, -1, -1)), sp;
    std::vector<SinewQuat> aq(kHB), oq(kHB, kIdentity), sq;
    for (std::uint32_t i = 0; i < kHB; ++i) {
        ap[i] = hd[i].position;
        aq[i] = hd[i].rotation;
    }
    SinewVec3 p2[kHB];
    SinewQuat q2[kHB];
    THROWS(SINEW_NULL_POINTER, "out_positions", r.read_snapshot(nullptr, kHB, q2, kHB));
    THROWS(SINEW_BUFFER_TOO_SMALL, "holds 10 elements but the ragdoll has 11 bones", r.read_snapshot(p2, kHB - 1, q2, kHB));
    THROWS(SINEW_BUFFER_TOO_SMALL, "out_rotations", r.read_snapshot(p2, kHB, q2, 2));
    OK(r.read_snapshot(sp, sq));
    CHECK(sp.size() == kHB && sq.size() == kHB, "read_snapshot sizes its vectors");
    THROWS(SINEW_NULL_POINTER, "anim_rotations", r.blend_from_snapshot(ap.data(), kHB, nullptr, kHB, 0.5f, op.data(), kHB, oq.data(), kHB));
    THROWS(SINEW_INVALID_ARGUMENT, "anim_positions has 10 entries", r.blend_from_snapshot(ap.data(), kHB - 1, aq.data(), kHB, 0.5f, op.data(), kHB, oq.data(), kHB));
    THROWS(SINEW_INVALID_ARGUMENT, "anim_rotations has 3 entries", r.blend_from_snapshot(ap.data(), kHB, aq.data(), 3, 0.5f, op.data(), kHB, oq.data(), kHB));
    THROWS(SINEW_BUFFER_TOO_SMALL, "out_rotations holds 5 elements", r.blend_from_snapshot(ap.data(), kHB, aq.data(), kHB, 0.5f, op.data(), kHB, oq.data(), 5));
    THROWS(SINEW_INVALID_ARGUMENT, "alpha must be within [0, 1]", r.blend_from_snapshot(ap, aq, -0.25f, op, oq));
    THROWS(SINEW_INVALID_ARGUMENT, "alpha", r.blend_from_snapshot(ap, aq, 1.5f, op, oq));
    THROWS(SINEW_NON_FINITE, "alpha", r.blend_from_snapshot(ap, aq, kNaN, op, oq));
    ap[2].z = kInf;
    THROWS(SINEW_NON_FINITE, "anim_positions[2]", r.blend_from_snapshot(ap, aq, 0.5f, op, oq));
    ap[2] = hd[2].position;
    aq[6].w = 0.0f;
    THROWS(SINEW_INVALID_ARGUMENT, "anim_rotations[6] is not a unit quaternion", r.blend_from_snapshot(ap, aq, 0.5f, op, oq));
    aq[6] = hd[6].rotation;
    THROWS(SINEW_INVALID_ARGUMENT, "the ragdoll has 3 bones", small.blend_from_snapshot(ap, aq, 0.5f, op, oq));
    CHECK(op[0].x == -1.0f && oq[0].w == 1.0f, "refused blends write nothing");

    // pose_blend and blend_alpha.
    std::vector<SinewVec3> fp{v3(0, 0, 0), v3(1, 1, 1)}, tp{v3(1, 0, 0), v3(1, 1, 3)}, bp;
    std::vector<SinewQuat> fq{kIdentity, kIdentity}, tq{about_x(90.0f), kIdentity}, bq;
    THROWS(SINEW_INVALID_ARGUMENT, "must hold 2 entries each", sinew::pose_blend(fp, fq, tp, std::vector<SinewQuat>{kIdentity}, 0.5f, bp, bq));
    CHECK(bp.empty(), "the vector pose_blend refuses unequal sizes before anything");
    THROWS(SINEW_NULL_POINTER, "from_positions", sinew::pose_blend(nullptr, fq.data(), tp.data(), tq.data(), 2, 0.5f, p2, q2, 2));
    THROWS(SINEW_BUFFER_TOO_SMALL, "holds 1 elements but the pose has 2 bones", sinew::pose_blend(fp.data(), fq.data(), tp.data(), tq.data(), 2, 0.5f, p2, q2, 1));
    THROWS(SINEW_INVALID_ARGUMENT, "alpha", sinew::pose_blend(fp, fq, tp, tq, -1.0f, bp, bq));
    THROWS(SINEW_NON_FINITE, "alpha", sinew::pose_blend(fp, fq, tp, tq, kNaN, bp, bq));
    fq[1].x = 1.0f;
    THROWS(SINEW_INVALID_ARGUMENT, "from_rotations[1] is not a unit quaternion", sinew::pose_blend(fp, fq, tp, tq, 0.5f, bp, bq));
    fq[1] = kIdentity;
    OK(sinew::pose_blend(fp, fq, tp, tq, 0.0f, bp, bq));
    CHECK(same_bits(bp.data(), fp.data(), 2 * sizeof(SinewVec3)) && same_bits(bq.data(), fq.data(), 2 * sizeof(SinewQuat)), "pose_blend at 0: the from pose bit for bit");
    OK(sinew::pose_blend(fp, fq, tp, tq, 1.0f, bp, bq));
    CHECK(same_bits(bp.data(), tp.data(), 2 * sizeof(SinewVec3)) && same_bits(bq.data(), tq.data(), 2 * sizeof(SinewQuat)), "pose_blend at 1: the to pose bit for bit");
    OK(sinew::pose_blend(fp, fq, tp, tq, 0.5f, bp, bq));
    CHECK(std::fabs(bp[1].z - 2.0f) < 1e-6f && std::fabs(bq[0].x - about_x(45.0f).x) < 1e-5f, "pose_blend at 0.5: halfway");
    CHECK(sinew::blend_alpha(0.125f, 0.5f) == 0.25f && sinew::blend_alpha(2.0f, 0.5f) == 1.0f && sinew::blend_alpha(-2.0f, 0.5f) == 0.0f &&
              sinew::blend_alpha(0.0f, 0.0f) == 1.0f,
          "blend_alpha: t / blend_time held to [0, 1]");
    THROWS(SINEW_INVALID_ARGUMENT, "blend_time must be >= 0", sinew::blend_alpha(0.1f, -1.0f));
    THROWS(SINEW_NON_FINITE, "time", sinew::blend_alpha(kNaN, 0.5f));

    // get_up_info, rest.
    const SinewGetUpQuery q = sinew::default_get_up_query();
    CHECK(q.pelvis == SINEW_HUMANOID_PELVIS && q.chest == SINEW_HUMANOID_MIDDLE_SPINE && q.head == SINEW_HUMANOID_HEAD && q.bind_forward.z == 1.0f,
          "default_get_up_query");
    THROWS(SINEW_OUT_OF_RANGE, "chest bone 5 is out of range", small.get_up_info());
    SinewGetUpQuery bad = q;
    bad.head = bad.pelvis;
    THROWS(SINEW_INVALID_ARGUMENT, "different bones", r.get_up_info(bad));
    bad = q;
    bad.up = v3(0, kNaN, 0);
    THROWS(SINEW_NON_FINITE, "up", r.get_up_info(bad));
    bad = q;
    bad.bind_forward = v3(0, 1, 0);
    THROWS(SINEW_INVALID_ARGUMENT, "parallel", r.get_up_info(bad));
    const SinewGetUpInfo info = r.get_up_info();
    CHECK(info.side >= SINEW_LYING_FACE_UP && info.side <= SINEW_LYING_RIGHT_SIDE, "get_up_info answers a side");
    CHECK(r.rest_time() >= 0.0f, "rest_time");
    THROWS(SINEW_INVALID_ARGUMENT, "seconds must be >= 0", r.is_at_rest(-0.5f));
    THROWS(SINEW_NON_FINITE, "seconds", r.is_at_rest(kNaN));
    (void)r.is_at_rest(0.5f);

    // A stale handle.
    sinew::Ragdoll doomed = world.create_ragdoll(settings, chain(v3(2, 2, 0), 2));
    const SinewRagdoll stale = doomed.handle();
    doomed.reset();
    sinew::Ragdoll zombie(stale);
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", zombie.set_muscle_strength(0, 0.5f));
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", zombie.set_muscle_strength_all(0.5f));
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", zombie.set_pin_weight(0, 0.5f));
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", zombie.set_pin_weight_all(0.5f));
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", zombie.drive_state(0));
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", zombie.take_events());
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", zombie.capture_snapshot());
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", zombie.read_snapshot(p2, kHB, q2, kHB));
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", zombie.blend_from_snapshot(ap.data(), 2, aq.data(), 2, 0.5f, p2, kHB, q2, kHB));
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", zombie.get_up_info(q));
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", zombie.rest_time());
    THROWS(SINEW_INVALID_HANDLE, "ragdoll handle", zombie.is_at_rest(0.5f));
    (void)zombie.release();
    world.step_begin(kFrame);
    THROWS(SINEW_BUSY, "stepping", r.set_pin_weight_all(1.0f));
    world.step_end();
    CHECK(r.drive_state(0).pin_weight == 0.0f, "the busy call changed nothing");
}

void powered_physics() {
    sinew::World world = make_world();
    const SinewHumanoidBones h = sinew::default_humanoid_bones();
    const std::vector<SinewBoneDesc> hd = sinew::humanoid_bone_descs(h);
    const SinewRagdollSettings settings = sinew::default_ragdoll_settings();

    // Pinned in the air.
    sinew::Ragdoll r = world.create_humanoid_ragdoll(h, settings);
    std::vector<SinewVec3> tp(kHB), pos, ap(kHB), bp, sp;
    std::vector<SinewQuat> tq(kHB), rot, aq(kHB), bq, sq;
    for (std::uint32_t i = 0; i < kHB; ++i) {
        tp[i] = v3(hd[i].position.x, hd[i].position.y + 3.0f, hd[i].position.z);
        tq[i] = hd[i].rotation;
    }
    OK(r.set_pose(tp, tq, false));
    OK(r.set_targets(tp, tq));
    OK(r.set_pin_weight_all(1.0f));
    OK(r.set_muscle_strength_all(1.0f));
    float worst = 0.0f;
    for (int f = 0; f < 120; ++f) {
        r.set_targets(tp, tq);
        world.step(kFrame);
        r.read_pose(pos, rot);
        for (std::uint32_t i = 0; i < kHB; ++i) worst = std::fmax(worst, dist(pos[i], tp[i]));
    }
    std::printf("     pinned: worst %.3f mm\n", static_cast<double>(worst) * 1000.0);
    CHECK(worst < 5e-3f, "pin 1, muscle 1, in the air for 2 s: within 5 mm of the targets");
    CHECK(r.take_events() == 0u, "no balance lost while pinned");

    // A big hit on the pelvis.
    r.apply_bone_impulse(SINEW_HUMANOID_PELVIS, tp[SINEW_HUMANOID_PELVIS], v3(4000.0f, 0, 0));
    CHECK(r.drive_state(SINEW_HUMANOID_PELVIS).hit_loss > 0.79f, "the hit weakens the pelvis");
    int lost = 0;
    for (int f = 0; f < 60; ++f) {
        r.set_targets(tp, tq);
        world.step(kFrame);
        if (r.take_events() & SINEW_RAGDOLL_EVENT_BALANCE_LOST) ++lost;
    }
    std::printf("     balance lost %d time(s)\n", lost);
    CHECK(lost == 1, "SINEW_RAGDOLL_EVENT_BALANCE_LOST once");
    bool limp = true;
    for (std::uint32_t i = 0; i < kHB; ++i) {
        const SinewDriveState s = r.drive_state(i);
        limp = limp && s.muscle_strength == 0.0f && s.pin_weight == 0.0f && s.effective_strength == 0.0f && s.effective_pin_weight == 0.0f;
    }
    CHECK(limp, "then every bone is limp");
    r.reset();

    // Face up and face down on a floor.
    sinew::Collider floor = world.create_collider(sinew::plane_desc());
    auto drop = [&](float degrees, float x) {
        sinew::Ragdoll d = world.create_humanoid_ragdoll(h, settings);
        std::vector<SinewVec3> p(kHB);
        std::vector<SinewQuat> q(kHB);
        const SinewQuat turn = about_x(degrees);
        for (std::uint32_t i = 0; i < kHB; ++i) {
            const SinewVec3 o = qrot(turn, v3(hd[i].position.x - hd[0].position.x, hd[i].position.y - hd[0].position.y, hd[i].position.z - hd[0].position.z));
            p[i] = v3(x + o.x, 0.45f + o.y, o.z);
            q[i] = qmul(turn, hd[i].rotation);
        }
        d.set_pose(p, q, false);
        int f = 0;
        while (f < 600 && !d.is_at_rest(0.5f)) {
            world.step(kFrame);
            ++f;
        }
        CHECK(d.is_at_rest(0.5f), "at rest within 10 s");
        return d;
    };
    sinew::Ragdoll up = drop(-90.0f, 0.0f);
    const SinewGetUpInfo ui = up.get_up_info();
    CHECK(ui.side == SINEW_LYING_FACE_UP && ui.from_front == 0u, "on its back: FACE_UP, from_front 0");
    sinew::Ragdoll down = drop(90.0f, 3.0f);
    const SinewGetUpInfo di = down.get_up_info(sinew::default_get_up_query());
    CHECK(di.side == SINEW_LYING_FACE_DOWN && di.from_front == 1u, "on its front: FACE_DOWN, from_front 1");

    // The blend.
    OK(up.set_kinematic(true));
    OK(up.read_snapshot(sp, sq));
    for (std::uint32_t i = 0; i < kHB; ++i) {
        ap[i] = v3(hd[i].position.x + ui.root_position.x, hd[i].position.y, hd[i].position.z + ui.root_position.z);
        aq[i] = qmul(ui.root_rotation, hd[i].rotation);
    }
    OK(up.blend_from_snapshot(ap, aq, 0.0f, bp, bq));
    CHECK(same_bits(bp.data(), sp.data(), kHB * sizeof(SinewVec3)) && same_bits(bq.data(), sq.data(), kHB * sizeof(SinewQuat)), "blend at 0: the snapshot bit for bit");
    OK(up.blend_from_snapshot(ap, aq, 1.0f, bp, bq));
    CHECK(same_bits(bp.data(), ap.data(), kHB * sizeof(SinewVec3)) && same_bits(bq.data(), aq.data(), kHB * sizeof(SinewQuat)), "blend at 1: the animated pose bit for bit");
    for (int f = 1; f <= 30; ++f) {
        up.blend_from_snapshot(ap, aq, sinew::blend_alpha(static_cast<float>(f) * kFrame, 0.5f), bp, bq);
        up.set_targets(bp, bq);
        world.step(kFrame);
    }
    up.read_pose(pos, rot);
    worst = 0.0f;
    for (std::uint32_t i = 0; i < kHB; ++i) worst = std::fmax(worst, dist(pos[i], ap[i]));
    CHECK(worst < 1e-4f, "after the 0.5 s blend it stands in the clip's pose");
    OK(up.capture_snapshot());
    OK(up.read_snapshot(sp, sq));
    CHECK(dist(sp[SINEW_HUMANOID_HEAD], ap[SINEW_HUMANOID_HEAD]) < 1e-4f, "capture_snapshot takes the pose anew");
}

}  // namespace

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    const bool all = argc < 2;
    try {
        if (all || std::strcmp(argv[1], "errors") == 0) {
            errors();
            powered_errors();
        }
        if (all || std::strcmp(argv[1], "physics") == 0) {
            physics();
            powered_physics();
        }
    } catch (const sinew::Error& e) {
        fail(__LINE__, "an unexpected sinew::Error", e.what());
    }
    std::printf("cpp-ragdoll: all %d checks passed\n", g_passed);
    return 0;
}
