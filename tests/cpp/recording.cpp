// sinew::RagdollRecording (include/sinew.hpp) from strict C++17 (scripts/test-c.sh; under
// valgrind too): a humanoid knocked over and falling for 120 host frames of 1/50 s in a 60 Hz
// world (the readback's alpha running through (0, 1)) is recorded into a recording with room
// for every frame (capture allocates nothing: its buffers do not move), saved, loaded, and
// replayed onto a second humanoid in another world, which reads back (read_pose) exactly the
// recorded bits every frame (memcmp); the saved bytes are the layout the header documents,
// and load and capture refuse what they must with sinew::Error.
//
//   recording_cpp              (scripts/test-c.sh; under valgrind too)
//   recording_cpp write PATH   also writes the saved bytes to PATH (test-c.sh compares them with
//                              the file tests/c/recording.c writes for the same scene: the same bytes)
//
// One line per check; the first failure exits with status 1.

#include "sinew.hpp"

#define CHECK_RESULT_NAME_ONLY
#include "../c/check.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

int g_passed = 0;

#define CHECK_FILE "recording.cpp"
#define CHECK_PROGRAM "cpp-recording"
#include "check.hpp"

const std::size_t kFrames = 120;
const float kHostDt = 1.0f / 50.0f;

sinew::World one_thread_world() {
    SinewWorldDesc d = sinew::default_world_desc();
    d.thread_count = 1;
    return sinew::World(d);
}

std::uint32_t u32_at(const std::vector<std::uint8_t>& b, std::size_t at) {
    return std::uint32_t(b[at]) | std::uint32_t(b[at + 1]) << 8 | std::uint32_t(b[at + 2]) << 16 | std::uint32_t(b[at + 3]) << 24;
}

float f32_at(const std::vector<std::uint8_t>& b, std::size_t at) {
    const std::uint32_t u = u32_at(b, at);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

}  // namespace

int main(int argc, char** argv) {
    const SinewHumanoidBones rig = sinew::default_humanoid_bones();
    const SinewRagdollSettings settings = sinew::default_ragdoll_settings();
    const std::size_t n = SINEW_HUMANOID_BONE_COUNT;

    sinew::RagdollRecording rec(n, kFrames);
    {
        sinew::World a = one_thread_world();
        sinew::Ragdoll hero = a.create_humanoid_ragdoll(rig, settings);
        hero.apply_impulse(SinewVec3{0.1f, 1.5f, 0.0f}, SinewVec3{0.0f, 0.0f, 30.0f});
        const SinewVec3* first = nullptr;
        for (std::size_t f = 0; f < kFrames; ++f) {
            a.step(kHostDt);
            rec.capture(hero, float(f + 1) * kHostDt);
            if (f == 0) first = rec.positions(0);
        }
        CHECK(rec.frame_count() == kFrames, "120 frames captured");
        CHECK(rec.positions(0) == first, "capture into the reserved room: the frames never moved (no reallocation)");
        CHECK(rec.positions(kFrames - 1)[SINEW_HUMANOID_HEAD].y < rec.positions(0)[SINEW_HUMANOID_HEAD].y - 0.5f,
              "the recorded humanoid fell: the head ends more than 0.5 m lower");
        sinew::World other = one_thread_world();
        std::vector<SinewBoneDesc> one(1, sinew::default_bone_desc());
        sinew::Ragdoll ball = other.create_ragdoll(settings, one);
        THROWS(SINEW_INVALID_ARGUMENT, "has 1 bones", rec.capture(ball, 100.0f));
        THROWS(SINEW_INVALID_ARGUMENT, "not before", rec.capture(hero, 0.0f));
        CHECK(rec.frame_count() == kFrames, "a refused capture adds no frame");
        THROWS(SINEW_OUT_OF_RANGE, "frame 120", rec.positions(kFrames));
    }

    // The saved bytes: the documented layout.
    const std::vector<std::uint8_t> bytes = rec.save();
    CHECK(bytes.size() == 20 + kFrames * (4 + 28 * n), "saved size: 20 + frames * (4 + 28 * bones) bytes");
    CHECK(std::memcmp(bytes.data(), "SNWR", 4) == 0 && u32_at(bytes, 4) == 1 && u32_at(bytes, 8) == 1 && u32_at(bytes, 12) == n &&
              u32_at(bytes, 16) == kFrames,
          "header: \"SNWR\", version 1, kind 1 (ragdoll), 11 bones, 120 frames");
    const std::size_t last = 20 + (kFrames - 1) * (4 + 28 * n);
    CHECK(f32_at(bytes, last) == rec.time(kFrames - 1) && f32_at(bytes, last + 4) == rec.positions(kFrames - 1)[0].x &&
              f32_at(bytes, last + 4 + 12 * n + 12) == rec.rotations(kFrames - 1)[0].w,
          "the last frame: time, then positions, then rotations (x, y, z, w) where the layout puts them");

    if (argc == 3 && std::strcmp(argv[1], "write") == 0) {
        std::FILE* out = std::fopen(argv[2], "wb");
        CHECK(out != nullptr && std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size() && std::fclose(out) == 0,
              "the saved bytes are written to the given path");
    }
    const sinew::RagdollRecording loaded = sinew::RagdollRecording::load(bytes.data(), bytes.size());
    CHECK(loaded.frame_count() == kFrames && loaded.bone_count() == n, "the saved recording loads: 120 frames of 11 bones");
    CHECK(loaded.save() == bytes, "loaded and saved again: the same bytes");
    std::vector<std::uint8_t> bad = bytes;
    bad[0] = 'X';
    THROWS(SINEW_INVALID_ARGUMENT, "magic", sinew::RagdollRecording::load(bad.data(), bad.size()));
    THROWS(SINEW_INVALID_ARGUMENT, "do not hold", sinew::RagdollRecording::load(bytes.data(), bytes.size() - 1));
    bad = bytes;
    const float nan = std::nanf("");
    std::memcpy(&bad[20 + (4 + 28 * n)], &nan, 4);
    THROWS(SINEW_INVALID_ARGUMENT, "frame 1", sinew::RagdollRecording::load(bad.data(), bad.size()));
    THROWS(SINEW_INVALID_ARGUMENT, "shorter than", sinew::RagdollRecording::load(bytes.data(), 3));

    // Replay onto a second humanoid, its world stepped at the same rate.
    sinew::World b = one_thread_world();
    sinew::Ragdoll stand_in = b.create_humanoid_ragdoll(rig, settings);
    stand_in.set_kinematic(true);
    std::vector<SinewVec3> pos;
    std::vector<SinewQuat> rot;
    std::size_t same = 0, alpha_inside = 0;
    for (std::size_t f = 0; f < kFrames; ++f) {
        b.step(kHostDt);
        const float alpha = b.stats().alpha;
        alpha_inside += alpha > 0.0f && alpha < 1.0f;
        loaded.apply(stand_in, f);
        stand_in.read_pose(pos, rot);
        same += std::memcmp(pos.data(), loaded.positions(f), n * sizeof(SinewVec3)) == 0 &&
                std::memcmp(rot.data(), loaded.rotations(f), n * sizeof(SinewQuat)) == 0;
    }
    std::printf("     replay: %zu of %zu frames read back the recorded bits; alpha inside (0, 1) at %zu frames\n", same, kFrames, alpha_inside);
    CHECK(alpha_inside > kFrames / 2, "the replaying world's alpha was inside (0, 1) at most frames");
    CHECK(same == kFrames, "every replayed frame reads back exactly the recorded bits (memcmp)");

    std::printf(CHECK_PROGRAM ": %d checks passed\n", g_passed);
    return 0;
}
