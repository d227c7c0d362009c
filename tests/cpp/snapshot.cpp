// Snapshot and restore through include/sinew.hpp from strict C++17 (scripts/test-c.sh, also
// under valgrind): World::save_state() / load_state(), the reused-buffer form, and
// Body/Ragdoll's own. A world with a cloth, a soft jelly, a humanoid ragdoll and a floor is
// rewound 200 frames and replays them to the same bits; a corrupted, truncated or foreign
// snapshot throws SINEW_INVALID_ARGUMENT and changes nothing; loading during an
// asynchronous step throws SINEW_BUSY.
//
// One line per check; the first failure exits with status 1.

#include "sinew.hpp"

#define CHECK_RESULT_NAME_ONLY
#include "../c/check.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

int g_passed = 0;
const float kFrame = 1.0f / 60.0f;

#define CHECK_FILE "snapshot.cpp"
#define CHECK_PROGRAM "cpp-snapshot"
#include "check.hpp"

struct Scene {
    sinew::World world;
    sinew::Body cloth, jelly;
    sinew::Ragdoll ragdoll;
    sinew::Collider floor;

    Scene() : world(desc()) {
        SinewClothGridDesc gd = sinew::default_grid_desc();
        gd.columns = 10;
        gd.rows = 10;
        cloth = world.create_grid(gd);
        SinewSoftLatticeDesc ld = sinew::default_soft_lattice_desc();
        ld.nx = ld.ny = ld.nz = 3;
        ld.origin = SinewVec3{1.0f, 0.5f, 0.0f};
        jelly = world.create_soft_lattice(ld);
        SinewHumanoidBones h = sinew::default_humanoid_bones();
        ragdoll = world.create_humanoid_ragdoll(h, sinew::default_ragdoll_settings());
        SinewColliderDesc cd = sinew::default_collider_desc();
        cd.shape = SINEW_SHAPE_PLANE;
        floor = world.create_collider(cd);
    }

    static SinewWorldDesc desc() {
        SinewWorldDesc d = sinew::default_world_desc();
        d.thread_count = 2;
        return d;
    }

    void frame(int f) {
        if (f == 30) ragdoll.set_kinematic(true);
        if (f == 60) ragdoll.set_kinematic(false);
        if (f % 3 == 1) {
            world.step_begin(kFrame);
            world.step_end();
        } else {
            world.step(kFrame);
        }
    }

    std::vector<std::uint32_t> bits() const {
        std::vector<SinewVec3> p;
        std::vector<SinewQuat> q;
        std::vector<std::uint32_t> out;
        auto add = [&](const void* data, std::size_t bytes) {
            std::size_t at = out.size();
            out.resize(at + bytes / 4);
            std::memcpy(out.data() + at, data, bytes);
        };
        cloth.read_positions(p);
        add(p.data(), p.size() * sizeof(SinewVec3));
        jelly.read_positions(p);
        add(p.data(), p.size() * sizeof(SinewVec3));
        ragdoll.read_pose(p, q);
        add(p.data(), p.size() * sizeof(SinewVec3));
        add(q.data(), q.size() * sizeof(SinewQuat));
        return out;
    }
};

}  // namespace

int main() {
    Scene s;
    for (int f = 0; f < 50; ++f) s.frame(f);
    const std::vector<std::uint8_t> snap = s.world.save_state();
    CHECK(snap.size() > 16, "World::save_state returns the snapshot");
    const std::vector<std::uint32_t> at_save = s.bits();
    for (int f = 50; f < 250; ++f) s.frame(f);
    const std::vector<std::uint32_t> first = s.bits();
    CHECK(first != at_save, "the world moves after the snapshot");
    OK(s.world.load_state(snap));
    CHECK(s.bits() == at_save, "the load restores what the host read at the save");
    for (int f = 50; f < 250; ++f) s.frame(f);
    CHECK(s.bits() == first, "200 frames after the load: the same bits as after the save");

    std::vector<std::uint8_t> reused;
    OK(s.world.save_state(reused));
    CHECK(reused == s.world.save_state(), "the reused-buffer form gives the same bytes");
    std::vector<std::uint8_t> bad = snap;
    bad[bad.size() / 3] ^= 0x40;
    THROWS(SINEW_INVALID_ARGUMENT, "checksum", s.world.load_state(bad));
    bad.assign(snap.begin(), snap.end() - 1);
    THROWS(SINEW_INVALID_ARGUMENT, "nothing was changed", s.world.load_state(bad));
    {
        sinew::World other;
        SinewClothGridDesc gd = sinew::default_grid_desc();
        sinew::Body only = other.create_grid(gd);
        THROWS(SINEW_INVALID_ARGUMENT, "count", s.world.load_state(other.save_state()));
        THROWS(SINEW_INVALID_ARGUMENT, "count", other.load_state(snap));
    }
    s.world.step_begin(kFrame);
    THROWS(SINEW_BUSY, "sinew_world_step_end", s.world.load_state(snap));
    s.world.step_end();
    CHECK(reused != s.world.save_state(), "the step after the refusals moved the world");
    OK(s.world.save_state(reused));
    bad = snap;
    bad[20] ^= 1;
    THROWS(SINEW_INVALID_ARGUMENT, "checksum", s.world.load_state(bad));
    CHECK(reused == s.world.save_state(), "the refused load changed nothing");

    const std::vector<std::uint8_t> jelly = s.jelly.save_state();
    const std::vector<std::uint8_t> rag = s.ragdoll.save_state();
    const std::vector<std::uint32_t> before = s.bits();
    for (int f = 0; f < 20; ++f) s.world.step(kFrame);
    OK(s.jelly.load_state(jelly));
    OK(s.ragdoll.load_state(rag));
    std::vector<SinewVec3> p;
    s.jelly.read_positions(p);
    CHECK(std::memcmp(p.data(), before.data() + 300, p.size() * sizeof(SinewVec3)) == 0, "Body::load_state restores the jelly");
    THROWS(SINEW_INVALID_ARGUMENT, "what the snapshot holds", s.cloth.load_state(rag));
    std::printf(CHECK_PROGRAM ": %d checks passed\n", g_passed);
    return 0;
}
