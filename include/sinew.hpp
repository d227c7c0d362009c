// Sinew: a header-only C++17 RAII wrapper over the C ABI of include/sinew.h.
//
// Hand-written (sinew.h is generated). It adds ownership and exceptions, and math helpers
// for the structs (sinew::vec3, quat_axis_angle, mat4_trs: see "Math helpers" below), nothing
// else: every call forwards to one `sinew_` function, and every check is the library's own.
//
//   sinew::World world;                                   // default settings
//   SinewClothGridDesc desc = sinew::default_grid_desc();
//   sinew::Body cape = world.create_grid(desc);
//   std::vector<SinewVec3> vertices;
//   world.step(dt);
//   cape.read_positions(vertices);                        // resized once, then reused
//
//   sinew::Collider head = world.create_collider(sinew::sphere_desc(0.12f));
//   head.set_transform(bone_matrix);                      // every frame, before step()
//
// Character cloth: generators come skinned to their bones; any body can be skinned by hand.
//
//   SinewClothCapeDesc cd = sinew::default_cape_desc();        // set cd.left_shoulder, neck, right_shoulder
//   sinew::Body cape = world.create_cape(cd);
//   cape.set_bone_matrices({left, neck, right});          // every frame, before step()
//   cape.set_root_transform(character_matrix);            // inertia, auto teleport, scale
//   if (cape.info().topology_version != seen) cape.read_indices(indices);   // after a tear
//
// Errors: a failing call throws sinew::Error, which carries the SinewResult code and the
// library's message (sinew_last_error_message(), e.g. "SINEW_OUT_OF_RANGE: vertex index
// 64 out of range (count 64)"). Destructors never throw.
//
// Soft bodies: particle bodies that keep their volume, made by World::create_soft_lattice or
// World::create_soft_tets. They are sinew::Body objects (read_positions, read_indices of the
// surface, pins, pairs, teleport all work); the soft_* methods work on soft bodies only.
//
//   SinewSoftLatticeDesc jd = sinew::default_soft_lattice_desc();   // set jd.nx, jd.origin, jd.soft...
//   sinew::Body jelly = world.create_soft_lattice(jd);
//   sinew::SoftVolume v = jelly.soft_volume();            // v.current / v.rest
//   SinewVec3 c = jelly.center_of_mass();
//
// Ragdolls: rigid bones and joints in the same world (see class Ragdoll).
//
//   std::vector<SinewBoneDesc> bones = sinew::humanoid_bone_descs(rig);   // or your own list
//   sinew::Ragdoll body = world.create_ragdoll(sinew::default_ragdoll_settings(), bones);
//   std::uint32_t hit = body.apply_impulse(point, impulse);
//   body.set_pin_weight_all(1.0f); body.set_muscle_strength_all(1.0f);    // powered: follows set_targets
//   if (body.is_at_rest(0.5f)) { SinewGetUpInfo info = body.get_up_info(); body.set_kinematic(true); }
//   sinew::RagdollRecording rec(body.bone_count(), 600);  rec.capture(body, t);   // replayed bit for bit
//
// Lifetimes: World, Body, Collider and Ragdoll are move-only owners of a handle. A Body, Collider or Ragdoll
// must not outlive its World: destroy them first. If the world is destroyed first anyway,
// it has already freed them, and ~Body / ~Collider / ~Ragdoll only get SINEW_INVALID_HANDLE back, which
// they ignore — no crash, no leak; any other call on such an object throws
// SINEW_INVALID_HANDLE.
//
// Asynchronous stepping: between World::step_begin and World::step_end, calls that touch
// the world throw SINEW_BUSY. ~World ends an unfinished step before destroying the world.
// ~Body and ~Collider cannot (they do not know their world): one destroyed while its world
// is stepping stays alive inside the world (and a collider keeps colliding) until the world
// is destroyed. Call World::step_end first.

#ifndef SINEW_HPP
#define SINEW_HPP

#include "sinew.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace sinew {

// A failed Sinew call: the code it returned and the library's message for it.
class Error : public std::runtime_error {
public:
    Error(SinewResult code, const std::string& message) : std::runtime_error(message), code_(code) {}

    SinewResult code() const noexcept { return code_; }

private:
    SinewResult code_;
};

namespace detail {

// Throws the library's error for a failed call. The message is copied at once: the
// library's buffer is only valid until the thread's next failing call.
inline void check(SinewResult result) {
    if (result == SINEW_OK) {
        return;
    }
    const char* message = sinew_last_error_message();
    if (message == nullptr || *message == '\0') {
        throw Error(result, "sinew call failed with code " + std::to_string(static_cast<int>(result)));
    }
    throw Error(result, message);
}

// The two-call pattern of the snapshot calls: asks the size, then saves into `out` (resized
// to it; no allocation once `out` has held a snapshot that large).
template <typename Handle>
inline void save_state_into(SinewResult (*save)(Handle, uint8_t*, size_t, size_t*), Handle h, std::vector<uint8_t>& out) {
    size_t n = 0;
    check(save(h, nullptr, 0, &n));
    out.resize(n);
    check(save(h, out.data(), out.size(), &n));
    out.resize(n);
}

// Fills a descriptor with its library defaults through `fill(&desc)`.
template <typename Desc>
Desc defaults(SinewResult (*fill)(Desc*)) {
    Desc desc{};
    check(fill(&desc));
    return desc;
}

}  // namespace detail

// The ABI version of the loaded library (compare with SINEW_ABI_VERSION of this header).
inline std::uint32_t abi_version() noexcept { return sinew_abi_version(); }

// ---- Math helpers: vectors, rotations and transforms as the library takes them ----------
//
// SinewMat4 is column-major like Unity's Matrix4x4 (m[column * 4 + row]; translation in
// m[12..14]) and SinewQuat is (x, y, z, w) with w the scalar part. These build them without
// writing the 16 floats by hand:
//
//   SinewMat4 bone = sinew::mat4_trs(sinew::vec3(0, 1.5f, 0),                    // translation
//                                    sinew::quat_axis_angle(sinew::vec3(0, 1, 0), 0.5f),  // radians
//                                    sinew::vec3(1, 1, 1));                       // scale
//   collider.set_transform(bone);
//
// mat4_trs(t, r, s) is T · R · S (Unity's Matrix4x4.TRS): a point p goes to t + r(s ∘ p).
// The rotation is that of r normalised, so a quaternion that has drifted from unit length is
// still a rotation. Plain functions on the C structs, nothing to link.

inline SinewVec3 vec3(float x, float y, float z) noexcept { return SinewVec3{x, y, z}; }

inline SinewQuat quat(float x, float y, float z, float w) noexcept { return SinewQuat{x, y, z, w}; }

inline SinewQuat quat_identity() noexcept { return SinewQuat{0.0f, 0.0f, 0.0f, 1.0f}; }

// The rotation by `radians` about `axis` (any length but zero; right-handed: counter-clockwise
// looking down the axis towards the origin). A zero axis gives the identity.
inline SinewQuat quat_axis_angle(SinewVec3 axis, float radians) noexcept {
    const float length = std::sqrt(axis.x * axis.x + axis.y * axis.y + axis.z * axis.z);
    if (!(length > 0.0f)) {
        return quat_identity();
    }
    const float s = std::sin(0.5f * radians) / length;
    return SinewQuat{axis.x * s, axis.y * s, axis.z * s, std::cos(0.5f * radians)};
}

// a · b: rotates by b first, then by a (as Unity's a * b).
inline SinewQuat quat_multiply(SinewQuat a, SinewQuat b) noexcept {
    return SinewQuat{a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                     a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

inline SinewMat4 mat4_identity() noexcept {
    SinewMat4 m{};
    m.m[0] = m.m[5] = m.m[10] = m.m[15] = 1.0f;
    return m;
}

// From four columns: the images of the x, y and z axes and the translation (w = 0, 0, 0, 1).
inline SinewMat4 mat4_columns(SinewVec3 x_axis, SinewVec3 y_axis, SinewVec3 z_axis, SinewVec3 translation) noexcept {
    SinewMat4 m{};
    const SinewVec3 columns[4] = {x_axis, y_axis, z_axis, translation};
    for (int c = 0; c < 4; ++c) {
        m.m[c * 4 + 0] = columns[c].x;
        m.m[c * 4 + 1] = columns[c].y;
        m.m[c * 4 + 2] = columns[c].z;
    }
    m.m[15] = 1.0f;
    return m;
}

inline SinewMat4 mat4_translation(SinewVec3 t) noexcept { return mat4_columns({1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 1.0f}, t); }

// T · R · S (see above). Scale per axis, before the rotation.
inline SinewMat4 mat4_trs(SinewVec3 t, SinewQuat r, SinewVec3 s) noexcept {
    const float n = r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w;
    const float k = n > 0.0f ? 2.0f / n : 0.0f;
    const float xx = r.x * r.x * k, yy = r.y * r.y * k, zz = r.z * r.z * k;
    const float xy = r.x * r.y * k, xz = r.x * r.z * k, yz = r.y * r.z * k;
    const float wx = r.w * r.x * k, wy = r.w * r.y * k, wz = r.w * r.z * k;
    return mat4_columns({(1.0f - yy - zz) * s.x, (xy + wz) * s.x, (xz - wy) * s.x},
                        {(xy - wz) * s.y, (1.0f - xx - zz) * s.y, (yz + wx) * s.y},
                        {(xz + wy) * s.z, (yz - wx) * s.z, (1.0f - xx - yy) * s.z}, t);
}

// T · R with a uniform scale (1 by default): a bone, a collider or a character root.
inline SinewMat4 mat4_trs(SinewVec3 t, SinewQuat r, float uniform_scale = 1.0f) noexcept {
    return mat4_trs(t, r, SinewVec3{uniform_scale, uniform_scale, uniform_scale});
}

// m · (p, 1): where the transform puts a point.
inline SinewVec3 transform_point(const SinewMat4& m, SinewVec3 p) noexcept {
    return SinewVec3{m.m[0] * p.x + m.m[4] * p.y + m.m[8] * p.z + m.m[12], m.m[1] * p.x + m.m[5] * p.y + m.m[9] * p.z + m.m[13],
                     m.m[2] * p.x + m.m[6] * p.y + m.m[10] * p.z + m.m[14]};
}

// r applied to v (the rotation of r normalised).
inline SinewVec3 rotate(SinewQuat r, SinewVec3 v) noexcept { return transform_point(mat4_trs({0.0f, 0.0f, 0.0f}, r), v); }

// Descriptors filled with the library's defaults.
inline SinewWorldDesc default_world_desc() { return detail::defaults(&sinew_world_desc_default); }
inline SinewMaterial default_material() { return detail::defaults(&sinew_material_default); }
// A material preset in physical units (density, bending and membrane stiffness, Young's
// modulus; docs/materials.md): material_preset(SINEW_MATERIAL_DENIM). Throws Error
// (SINEW_INVALID_ARGUMENT) for a value no preset has.
inline SinewMaterial material_preset(SinewMaterialPreset preset) {
    SinewMaterial m{};
    detail::check(sinew_material_preset(static_cast<std::uint32_t>(preset), &m));
    return m;
}
inline SinewClothGridDesc default_grid_desc() { return detail::defaults(&sinew_cloth_grid_desc_default); }
inline SinewClothMeshDesc default_mesh_desc() { return detail::defaults(&sinew_cloth_mesh_desc_default); }
inline SinewRopeDesc default_rope_desc() { return detail::defaults(&sinew_rope_desc_default); }
inline SinewColliderDesc default_collider_desc() { return detail::defaults(&sinew_collider_desc_default); }
// A 2 m floor of two triangles (static memory): point it at your own vertices and indices.
inline SinewColliderMeshDesc default_collider_mesh_desc() { return detail::defaults(&sinew_collider_mesh_desc_default); }
inline SinewDynamics default_dynamics() { return detail::defaults(&sinew_dynamics_default); }
inline SinewLod default_lod() { return detail::defaults(&sinew_lod_default); }
inline SinewWind default_wind() { return detail::defaults(&sinew_wind_default); }
inline SinewStrandsDesc default_strands_desc() { return detail::defaults(&sinew_strands_desc_default); }
// Bones at a 1.5 m tall character's shoulders and neck ((-0.18, 1.45, 0), (0, 1.55, 0),
// (0.18, 1.45, 0)): set them to your character's before World::create_cape.
inline SinewClothCapeDesc default_cape_desc() { return detail::defaults(&sinew_cloth_cape_desc_default); }
inline SinewClothSkirtDesc default_skirt_desc() { return detail::defaults(&sinew_cloth_skirt_desc_default); }
// Soft bodies: the settings (volume compliance 0, shape stiffness 0.5, elastic) and a 4 x 4 x 4
// lattice 5 cm apart at the origin (the chapter's jelly; see SinewSoftLatticeDesc).
inline SinewSoftSettings default_soft_settings() { return detail::defaults(&sinew_soft_settings_default); }
inline SinewSoftLatticeDesc default_soft_lattice_desc() { return detail::defaults(&sinew_soft_lattice_desc_default); }
// A soft body from a render mesh: resolution 8, one cluster, no mesh yet (set positions and indices).
inline SinewSoftMeshDesc default_soft_mesh_desc() { return detail::defaults(&sinew_soft_mesh_desc_default); }
// Ragdolls: a root bone (1 kg capsule at the origin, free joint), a free joint (hinge ±90°,
// swing 30° × 30°, twist ±20° once its kind is set), the shared settings, and a 1.8 m
// humanoid standing at the origin facing +Z (20 kg).
inline SinewBoneDesc default_bone_desc() { return detail::defaults(&sinew_bone_desc_default); }
inline SinewJointDesc default_joint_desc() { return detail::defaults(&sinew_joint_desc_default); }
inline SinewRagdollSettings default_ragdoll_settings() { return detail::defaults(&sinew_ragdoll_settings_default); }
inline SinewHumanoidBones default_humanoid_bones() { return detail::defaults(&sinew_humanoid_bones_default); }

// The humanoid template's bone list for `bones` (SINEW_HUMANOID_BONE_COUNT bones, indexed by
// SinewHumanoidBone), to edit before World::create_ragdoll.
inline std::vector<SinewBoneDesc> humanoid_bone_descs(const SinewHumanoidBones& bones) {
    std::vector<SinewBoneDesc> descs(SINEW_HUMANOID_BONE_COUNT);
    detail::check(sinew_humanoid_bone_descs(&bones, descs.data(), descs.size()));
    return descs;
}

// The get-up query's defaults: the humanoid template's pelvis, middle spine and head, up +Y,
// bind forward +Z, bind up +Y.
inline SinewGetUpQuery default_get_up_query() { return detail::defaults(&sinew_get_up_query_default); }

// The get-up blend between two poses of `count` bones the host keeps itself (position lerp,
// rotation slerp; alpha in [0, 1]) into `out_*` of `out_capacity` >= count entries.
inline void pose_blend(const SinewVec3* from_positions, const SinewQuat* from_rotations, const SinewVec3* to_positions, const SinewQuat* to_rotations,
                       std::size_t count, float alpha, SinewVec3* out_positions, SinewQuat* out_rotations, std::size_t out_capacity) {
    detail::check(sinew_pose_blend(from_positions, from_rotations, to_positions, to_rotations, count, alpha, out_positions, out_rotations, out_capacity));
}
// The same with vectors of `count` = from_positions.size() entries each; `out_*` resized to
// count (once; then reused). The C call takes one count for all four inputs, so unequal sizes
// are refused here (SINEW_INVALID_ARGUMENT), before the library could read past a vector:
// the one check this header makes itself.
inline void pose_blend(const std::vector<SinewVec3>& from_positions, const std::vector<SinewQuat>& from_rotations,
                       const std::vector<SinewVec3>& to_positions, const std::vector<SinewQuat>& to_rotations, float alpha,
                       std::vector<SinewVec3>& out_positions, std::vector<SinewQuat>& out_rotations) {
    const std::size_t n = from_positions.size();
    if (from_rotations.size() != n || to_positions.size() != n || to_rotations.size() != n) {
        throw Error(SINEW_INVALID_ARGUMENT, "SINEW_INVALID_ARGUMENT: pose_blend: from_rotations, to_positions and to_rotations must hold " +
                                                std::to_string(n) + " entries each, as from_positions does");
    }
    out_positions.resize(n);
    out_rotations.resize(n);
    pose_blend(from_positions.data(), from_rotations.data(), to_positions.data(), to_rotations.data(), n, alpha, out_positions.data(),
               out_rotations.data(), n);
}

// alpha of a blend that started `time` s ago and lasts `blend_time` s (>= 0): time / blend_time
// held to [0, 1] (1 at once for a zero blend time).
inline float blend_alpha(float time, float blend_time) {
    float alpha = 0.0f;
    detail::check(sinew_blend_alpha(time, blend_time, &alpha));
    return alpha;
}

// Collider descriptors of each shape, the rest from the library's defaults (layer 1,
// identity transform). Sizes are in the collider's local frame; see SinewColliderDesc.
inline SinewColliderDesc sphere_desc(float radius, std::uint32_t layers = 1) {
    SinewColliderDesc d = default_collider_desc();
    d.shape = SINEW_SHAPE_SPHERE;
    d.radius = radius;
    d.layers = layers;
    return d;
}

// Tapered capsule along local Y: radius0 at (0, -half_height, 0), radius1 at (0, +half_height, 0).
inline SinewColliderDesc capsule_desc(float half_height, float radius0, float radius1, std::uint32_t layers = 1) {
    SinewColliderDesc d = default_collider_desc();
    d.shape = SINEW_SHAPE_CAPSULE;
    d.half_height = half_height;
    d.radius0 = radius0;
    d.radius1 = radius1;
    d.layers = layers;
    return d;
}

// Half-space: solid below the local XZ plane (normal local +Y).
inline SinewColliderDesc plane_desc(std::uint32_t layers = 1) {
    SinewColliderDesc d = default_collider_desc();
    d.shape = SINEW_SHAPE_PLANE;
    d.layers = layers;
    return d;
}

inline SinewColliderDesc box_desc(const SinewVec3& half_extents, std::uint32_t layers = 1) {
    SinewColliderDesc d = default_collider_desc();
    d.shape = SINEW_SHAPE_BOX;
    d.half_extents = half_extents;
    d.layers = layers;
    return d;
}

// A static triangle-mesh collider (level geometry) from `vertex_count` vertices and a
// triangle list of `index_count` indices, read during the call only (the library copies
// them); the rest from the library's defaults. See SinewColliderMeshDesc for the winding.
inline SinewColliderMeshDesc mesh_desc(const SinewVec3* vertices, std::size_t vertex_count, const std::uint32_t* indices,
                                       std::size_t index_count, std::uint32_t layers = 1) {
    SinewColliderMeshDesc d = default_collider_mesh_desc();
    d.vertices = vertices;
    d.vertex_count = vertex_count;
    d.indices = indices;
    d.index_count = index_count;
    d.layers = layers;
    return d;
}

// A mesh collider sharing the cooked mesh of `source` (a mesh collider of any world).
inline SinewColliderMeshDesc shared_mesh_desc(SinewCollider source, std::uint32_t layers = 1) {
    SinewColliderMeshDesc d = default_collider_mesh_desc();
    d.vertices = nullptr;
    d.vertex_count = 0;
    d.indices = nullptr;
    d.index_count = 0;
    d.share = source;
    d.layers = layers;
    return d;
}

// Axis-aligned bounds of a body's particles.
struct Bounds {
    SinewVec3 min;
    SinewVec3 max;
};

// A soft body's volume (m³) now and at rest (Body::soft_volume).
struct SoftVolume {
    float current;
    float rest;
};

// A ragdoll (rigid bones joined by hinge, swing-twist, fixed or free joints), owned: its
// destructor destroys it. Made by World::create_ragdoll or World::create_humanoid_ragdoll.
// Must not outlive its World (see the top of this file).
//
//   sinew::Ragdoll r = world.create_humanoid_ragdoll(bones, settings);   // kinematic: settings.kinematic = 1
//   r.set_targets(positions, rotations);          // every frame while animated: one per bone
//   r.set_kinematic(false);                       // die: physics from here on, keeping the animation's momentum
//   r.apply_impulse(hit_point, hit_impulse);      // at the nearest bone
//   r.read_pose(positions, rotations);            // every frame: write them to the rig's bones
//
// Per-bone buffers hold one entry per bone (bone_count()); read_* resize a std::vector once
// and then reuse it. Bone transforms are world positions + unit quaternions (x, y, z, w), or
// column-major matrices of scale 1. The library checks every argument and throws Error
// (e.g. SINEW_OUT_OF_RANGE for a bone index, SINEW_INVALID_ARGUMENT for a count that is not
// the bone count, SINEW_NON_FINITE for a NaN).
class Ragdoll {
public:
    // An empty Ragdoll, owning nothing; its calls throw SINEW_INVALID_HANDLE.
    Ragdoll() noexcept = default;

    // Takes ownership of a handle from the C API.
    explicit Ragdoll(SinewRagdoll handle) noexcept : handle_(handle) {}

    ~Ragdoll() noexcept { reset(); }

    Ragdoll(Ragdoll&& other) noexcept : handle_(other.release()) {}

    Ragdoll& operator=(Ragdoll&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = other.release();
        }
        return *this;
    }

    Ragdoll(const Ragdoll&) = delete;
    Ragdoll& operator=(const Ragdoll&) = delete;

    // Destroys the ragdoll now. Errors are ignored: the handle may already be invalid
    // because its world was destroyed first.
    void reset() noexcept {
        if (handle_.id != 0) {
            (void)sinew_ragdoll_destroy(handle_);
            handle_ = SinewRagdoll{};
        }
    }

    // Gives up ownership without destroying.
    SinewRagdoll release() noexcept { return std::exchange(handle_, SinewRagdoll{}); }

    SinewRagdoll handle() const noexcept { return handle_; }

    // Snapshot of this ragdoll's dynamic state alone (docs/snapshots.md); load_state restores it,
    // leaving the rest of the world as it is.
    std::vector<uint8_t> save_state() const {
        std::vector<uint8_t> out;
        detail::save_state_into(sinew_ragdoll_save_state, handle_, out);
        return out;
    }
    void save_state(std::vector<uint8_t>& out) const { detail::save_state_into(sinew_ragdoll_save_state, handle_, out); }
    void load_state(const std::vector<uint8_t>& snapshot) { detail::check(sinew_ragdoll_load_state(handle_, snapshot.data(), snapshot.size())); }
    explicit operator bool() const noexcept { return handle_.id != 0; }

    // The length of every per-bone buffer.
    std::size_t bone_count() const {
        std::size_t count = 0;
        detail::check(sinew_ragdoll_get_bone_count(handle_, &count));
        return count;
    }

    // Every bone kinematic (animated by set_targets) or dynamic (physics); switching to
    // dynamic keeps the velocity the animation gave the bones.
    void set_kinematic(bool kinematic) { detail::check(sinew_ragdoll_set_kinematic(handle_, kinematic ? 1u : 0u)); }

    // One bone kinematic or dynamic: a partial ragdoll.
    void set_bone_kinematic(std::uint32_t bone, bool kinematic) {
        detail::check(sinew_ragdoll_set_bone_kinematic(handle_, bone, kinematic ? 1u : 0u));
    }

    bool is_bone_kinematic(std::uint32_t bone) const {
        std::uint32_t k = 0;
        detail::check(sinew_ragdoll_is_bone_kinematic(handle_, bone, &k));
        return k != 0;
    }

    // Where the animation puts every bone at this frame (world positions and rotations, one
    // per bone). Kinematic bones move there across the next step's substeps.
    void set_targets(const SinewVec3* positions, std::size_t position_count, const SinewQuat* rotations, std::size_t rotation_count) {
        detail::check(sinew_ragdoll_set_targets(handle_, positions, position_count, rotations, rotation_count));
    }
    void set_targets(const std::vector<SinewVec3>& positions, const std::vector<SinewQuat>& rotations) {
        set_targets(positions.data(), positions.size(), rotations.data(), rotations.size());
    }

    // As set_targets, from one column-major matrix (scale 1) per bone.
    void set_target_matrices(const SinewMat4* matrices, std::size_t count) {
        detail::check(sinew_ragdoll_set_target_matrices(handle_, matrices, count));
    }
    void set_target_matrices(const std::vector<SinewMat4>& matrices) { set_target_matrices(matrices.data(), matrices.size()); }

    // Teleports every bone; keep_velocity false sets them at rest.
    void set_pose(const SinewVec3* positions, std::size_t position_count, const SinewQuat* rotations, std::size_t rotation_count, bool keep_velocity) {
        detail::check(sinew_ragdoll_set_pose(handle_, positions, position_count, rotations, rotation_count, keep_velocity ? 1u : 0u));
    }
    void set_pose(const std::vector<SinewVec3>& positions, const std::vector<SinewQuat>& rotations, bool keep_velocity) {
        set_pose(positions.data(), positions.size(), rotations.data(), rotations.size(), keep_velocity);
    }

    // An impulse (N·s) at a world point, on the bone whose surface is nearest; returns that bone.
    std::uint32_t apply_impulse(const SinewVec3& point, const SinewVec3& impulse) {
        std::uint32_t bone = 0;
        detail::check(sinew_ragdoll_apply_impulse(handle_, point, impulse, &bone));
        return bone;
    }

    // An impulse (N·s) at a world point on one bone.
    void apply_bone_impulse(std::uint32_t bone, const SinewVec3& point, const SinewVec3& impulse) {
        detail::check(sinew_ragdoll_apply_bone_impulse(handle_, bone, point, impulse));
    }

    // impulse·(1 − d/radius) N·s away from `centre` for every bone within `radius` m.
    void apply_explosion(const SinewVec3& centre, float impulse, float radius) {
        detail::check(sinew_ragdoll_apply_explosion(handle_, centre, impulse, radius));
    }

    // A force (N) at a world point on one bone, over the next World::step.
    void add_force(std::uint32_t bone, const SinewVec3& point, const SinewVec3& force) {
        detail::check(sinew_ragdoll_add_force(handle_, bone, point, force));
    }

    // Bone world positions and rotations, interpolated like Body::read_positions.
    void read_pose(SinewVec3* positions, std::size_t position_capacity, SinewQuat* rotations, std::size_t rotation_capacity) const {
        detail::check(sinew_ragdoll_read_pose(handle_, positions, position_capacity, rotations, rotation_capacity));
    }
    void read_pose(std::vector<SinewVec3>& positions, std::vector<SinewQuat>& rotations) const {
        const std::size_t n = bone_count();
        positions.resize(n);
        rotations.resize(n);
        read_pose(positions.data(), n, rotations.data(), n);
    }

    // Bone world transforms as column-major matrices (Unity's Matrix4x4 layout).
    void read_matrices(SinewMat4* matrices, std::size_t capacity) const {
        detail::check(sinew_ragdoll_read_matrices(handle_, matrices, capacity));
    }
    void read_matrices(std::vector<SinewMat4>& matrices) const {
        matrices.resize(bone_count());
        read_matrices(matrices.data(), matrices.size());
    }

    // Linear (m/s) and angular (rad/s) velocity of every bone.
    void read_velocities(SinewVec3* linear, std::size_t linear_capacity, SinewVec3* angular, std::size_t angular_capacity) const {
        detail::check(sinew_ragdoll_read_velocities(handle_, linear, linear_capacity, angular, angular_capacity));
    }
    void read_velocities(std::vector<SinewVec3>& linear, std::vector<SinewVec3>& angular) const {
        const std::size_t n = bone_count();
        linear.resize(n);
        angular.resize(n);
        read_velocities(linear.data(), n, angular.data(), n);
    }

    bool is_asleep() const {
        std::uint32_t a = 0;
        detail::check(sinew_ragdoll_is_asleep(handle_, &a));
        return a != 0;
    }

    void wake() { detail::check(sinew_ragdoll_wake(handle_)); }

    // Rides the ragdoll in a moving platform, as Body::set_anchor (the same rules).
    void set_anchor(const SinewMat4& anchor, float inertia) { detail::check(sinew_ragdoll_set_anchor(handle_, &anchor, inertia)); }
    void clear_anchor() { detail::check(sinew_ragdoll_clear_anchor(handle_)); }

    // Collision between two different bones of this ragdoll on or off.
    void set_bone_pair_collision(std::uint32_t a, std::uint32_t b, bool enabled) {
        detail::check(sinew_ragdoll_set_bone_pair_collision(handle_, a, b, enabled ? 1u : 0u));
    }

    // ---- powered ragdoll ----------------------------------------------------------------
    //
    //   r.set_pin_weight_all(1.0f);                   // follow the animation (set_targets every frame)
    //   r.set_muscle_strength_all(1.0f);              // joints turn towards the animated local rotations
    //   if (r.take_events() & SINEW_RAGDOLL_EVENT_BALANCE_LOST) { /* limp: start getting up */ }
    //
    // Strengths and weights are within [0, 1] (SINEW_OUT_OF_RANGE otherwise, SINEW_NON_FINITE
    // for a NaN). None of these allocates.

    // Muscle strength (0–1) of `bone`'s joint motor: 0 limp (the default), 1 at the settings' muscle_frequency.
    void set_muscle_strength(std::uint32_t bone, float strength) { detail::check(sinew_ragdoll_set_muscle_strength(handle_, bone, strength)); }
    void set_muscle_strength_all(float strength) { detail::check(sinew_ragdoll_set_muscle_strength_all(handle_, strength)); }

    // Pin weight (0–1) pulling `bone` towards its animated world pose: 0 free (the default), 1 following it.
    void set_pin_weight(std::uint32_t bone, float weight) { detail::check(sinew_ragdoll_set_pin_weight(handle_, bone, weight)); }
    void set_pin_weight_all(float weight) { detail::check(sinew_ragdoll_set_pin_weight_all(handle_, weight)); }

    // `bone`'s muscle strength and pin weight as set and as acting after hits.
    SinewDriveState drive_state(std::uint32_t bone) const {
        SinewDriveState state{};
        detail::check(sinew_ragdoll_get_drive_state(handle_, bone, &state));
        return state;
    }

    // The event bits (SinewRagdollEvent) since the last call, cleared.
    std::uint32_t take_events() {
        std::uint32_t events = 0;
        detail::check(sinew_ragdoll_take_events(handle_, &events));
        return events;
    }

    // ---- getting up ---------------------------------------------------------------------
    //
    //   if (r.is_at_rest(0.5f)) {
    //       SinewGetUpInfo info = r.get_up_info();    // side, from_front: which clip; root_position/rotation: where
    //       r.set_kinematic(true);                    // takes the snapshot
    //   }
    //   // every frame of the blend, t seconds in:
    //   r.blend_from_snapshot(clip_pos, clip_rot, sinew::blend_alpha(t, 0.5f), pos, rot);
    //   r.set_targets(pos, rot);

    // The get-up snapshot: every bone where the last fixed step left it (set_kinematic(true) takes it too).
    void capture_snapshot() { detail::check(sinew_ragdoll_capture_snapshot(handle_)); }

    void read_snapshot(SinewVec3* positions, std::size_t position_capacity, SinewQuat* rotations, std::size_t rotation_capacity) const {
        detail::check(sinew_ragdoll_read_snapshot(handle_, positions, position_capacity, rotations, rotation_capacity));
    }
    // Into vectors resized to bone_count() (once; then reused).
    void read_snapshot(std::vector<SinewVec3>& positions, std::vector<SinewQuat>& rotations) const {
        const std::size_t n = bone_count();
        positions.resize(n);
        rotations.resize(n);
        read_snapshot(positions.data(), n, rotations.data(), n);
    }

    // From the snapshot to the animated pose (one entry per bone) by alpha in [0, 1]: exactly
    // the snapshot at 0, exactly the animated pose at 1.
    void blend_from_snapshot(const SinewVec3* anim_positions, std::size_t anim_position_count, const SinewQuat* anim_rotations,
                             std::size_t anim_rotation_count, float alpha, SinewVec3* out_positions, std::size_t position_capacity,
                             SinewQuat* out_rotations, std::size_t rotation_capacity) const {
        detail::check(sinew_ragdoll_blend_from_snapshot(handle_, anim_positions, anim_position_count, anim_rotations, anim_rotation_count, alpha,
                                                        out_positions, position_capacity, out_rotations, rotation_capacity));
    }
    // Into vectors resized to bone_count() (once; then reused).
    void blend_from_snapshot(const std::vector<SinewVec3>& anim_positions, const std::vector<SinewQuat>& anim_rotations, float alpha,
                             std::vector<SinewVec3>& out_positions, std::vector<SinewQuat>& out_rotations) const {
        const std::size_t n = bone_count();
        out_positions.resize(n);
        out_rotations.resize(n);
        blend_from_snapshot(anim_positions.data(), anim_positions.size(), anim_rotations.data(), anim_rotations.size(), alpha, out_positions.data(), n,
                            out_rotations.data(), n);
    }

    // Which side the ragdoll lies on, which get-up clip to play and where its root goes
    // (start the query from default_get_up_query()).
    SinewGetUpInfo get_up_info(const SinewGetUpQuery& query) const {
        SinewGetUpInfo info{};
        detail::check(sinew_ragdoll_get_up_info(handle_, &query, &info));
        return info;
    }
    SinewGetUpInfo get_up_info() const { return get_up_info(default_get_up_query()); }

    // Seconds every bone has been slower than the settings' rest_speed.
    float rest_time() const {
        float t = 0.0f;
        detail::check(sinew_ragdoll_get_rest_time(handle_, &t));
        return t;
    }

    // At rest for at least `seconds` (>= 0), or asleep: the moment to get up.
    bool is_at_rest(float seconds) const {
        std::uint32_t a = 0;
        detail::check(sinew_ragdoll_is_at_rest(handle_, seconds, &a));
        return a != 0;
    }

private:
    SinewRagdoll handle_{};
};

// A recording of a ragdoll's simulated motion (PuppetMaster's "Baker"): per frame a time
// stamp (s) and every bone's world position and rotation exactly as read_pose gave them.
// apply() poses a ragdoll of the same bone count through set_pose, after which read_pose and
// read_matrices give back the recorded bits (until a fixed step moves it): a replay is bit for
// bit, whatever the world's alpha. Replaying in a game: step the world, then apply the frame,
// then read the ragdoll for rendering.
//
//   sinew::RagdollRecording rec(hero.bone_count(), 600);     // room for 600 frames
//   for (...) { world.step(dt); t += dt; rec.capture(hero, t); }   // no allocation until 600
//   rec.apply(stand_in, k);                                   // frame k onto another ragdoll
//   std::vector<std::uint8_t> bytes = rec.save();             // the layout below
//   sinew::RagdollRecording again = sinew::RagdollRecording::load(bytes.data(), bytes.size());
//
// Saved layout (docs/design.md, "Recording a ragdoll"; bindings/csharp's RagdollRecorder
// reads and writes the same bytes), little-endian, every float an IEEE-754 binary32:
//   offset 0   4 bytes  magic "SNWR" (0x53 0x4E 0x57 0x52)
//          4   u32      version, 1
//          8   u32      kind: 1 = ragdoll bones (position and rotation), 2 = body vertices (position)
//         12   u32      element count n: bones (1–256) or vertices (≥ 1)
//         16   u32      frame count F
//         20   F frames, each: f32 time (s), n × (f32 x, y, z) positions (m, world),
//                       kind 1 only: n × (f32 x, y, z, w) rotations (unit quaternions, world)
// A frame is 4 + 28·n bytes (kind 1) or 4 + 12·n (kind 2); load refuses any other size,
// magic, version or kind, a bone count outside 1–256, and non-finite or decreasing times.
class RagdollRecording {
public:
    static constexpr std::uint32_t kMagic = 0x52574E53u;  // "SNWR" read as a little-endian u32
    static constexpr std::uint32_t kVersion = 1;
    static constexpr std::uint32_t kKindRagdoll = 1;
    static constexpr std::uint32_t kKindBody = 2;
    static constexpr std::size_t kHeaderSize = 20;

    // An empty recording of `bone_count` bones (1–256), with room for `frame_capacity` frames:
    // capture allocates nothing until it holds more.
    explicit RagdollRecording(std::size_t bone_count, std::size_t frame_capacity = 0) : bones_(bone_count) {
        if (bone_count < 1 || bone_count > 256) {
            throw Error(SINEW_OUT_OF_RANGE, "SINEW_OUT_OF_RANGE: RagdollRecording: bone count must be within 1-256 (got " + std::to_string(bone_count) + ")");
        }
        reserve(frame_capacity);
    }

    // Room for `frames` frames in all (never shrinks).
    void reserve(std::size_t frames) {
        times_.reserve(frames);
        positions_.reserve(frames * bones_);
        rotations_.reserve(frames * bones_);
    }

    std::size_t bone_count() const noexcept { return bones_; }
    std::size_t frame_count() const noexcept { return times_.size(); }
    // Time stamp (s) of `frame`, as given to capture.
    float time(std::size_t frame) const { return times_[check_frame(frame)]; }
    // The bone_count() world positions and rotations of `frame`.
    const SinewVec3* positions(std::size_t frame) const { return &positions_[check_frame(frame) * bones_]; }
    const SinewQuat* rotations(std::size_t frame) const { return &rotations_[check_frame(frame) * bones_]; }

    // Appends the ragdoll's pose as read_pose gives it now, at `time` (s, finite, not before
    // the last frame's). The ragdoll must have bone_count() bones.
    void capture(const Ragdoll& ragdoll, float time) {
        if (!std::isfinite(time) || (!times_.empty() && time < times_.back())) {
            throw Error(SINEW_INVALID_ARGUMENT, "SINEW_INVALID_ARGUMENT: RagdollRecording::capture: time must be finite and not before the last frame's (got " + std::to_string(time) + ")");
        }
        if (ragdoll.bone_count() != bones_) {
            throw Error(SINEW_INVALID_ARGUMENT, "SINEW_INVALID_ARGUMENT: RagdollRecording::capture: the ragdoll has " + std::to_string(ragdoll.bone_count()) +
                                                   " bones, the recording " + std::to_string(bones_));
        }
        const std::size_t at = positions_.size();
        positions_.resize(at + bones_);
        rotations_.resize(at + bones_);
        const SinewResult r = sinew_ragdoll_read_pose(ragdoll.handle(), &positions_[at], bones_, &rotations_[at], bones_);
        if (r != SINEW_OK) {
            positions_.resize(at);
            rotations_.resize(at);
            detail::check(r);
        }
        times_.push_back(time);
    }

    // Poses `ragdoll` (bone_count() bones) at `frame` through set_pose; its velocities are
    // zeroed unless `keep_velocity`. read_pose then returns the frame's bits exactly.
    void apply(Ragdoll& ragdoll, std::size_t frame, bool keep_velocity = false) const {
        ragdoll.set_pose(positions(frame), bones_, rotations(frame), bones_, keep_velocity);
    }

    // Forgets every frame (keeps the room).
    void clear() noexcept {
        times_.clear();
        positions_.clear();
        rotations_.clear();
    }

    // The saved layout (above) into `out`, resized to it.
    void save(std::vector<std::uint8_t>& out) const {
        out.resize(kHeaderSize + frame_count() * frame_size(bones_));
        std::uint8_t* p = out.data();
        for (std::uint32_t v : {kMagic, kVersion, kKindRagdoll, static_cast<std::uint32_t>(bones_), static_cast<std::uint32_t>(frame_count())}) {
            p = put(p, v);
        }
        for (std::size_t f = 0; f < frame_count(); ++f) {
            p = put(p, times_[f]);
            for (std::size_t b = f * bones_; b < (f + 1) * bones_; ++b) {
                p = put(put(put(p, positions_[b].x), positions_[b].y), positions_[b].z);
            }
            for (std::size_t b = f * bones_; b < (f + 1) * bones_; ++b) {
                p = put(put(put(put(p, rotations_[b].x), rotations_[b].y), rotations_[b].z), rotations_[b].w);
            }
        }
    }
    std::vector<std::uint8_t> save() const {
        std::vector<std::uint8_t> out;
        save(out);
        return out;
    }

    // A recording from the saved layout; throws Error (SINEW_INVALID_ARGUMENT, saying what is
    // wrong) for anything else.
    static RagdollRecording load(const std::uint8_t* data, std::size_t size) {
        if (data == nullptr || size < kHeaderSize) {
            throw Error(SINEW_INVALID_ARGUMENT, "SINEW_INVALID_ARGUMENT: RagdollRecording::load: " + std::to_string(size) + " bytes is shorter than the 20-byte header");
        }
        const std::uint32_t magic = get_u32(data), version = get_u32(data + 4), kind = get_u32(data + 8);
        const std::uint32_t bones = get_u32(data + 12), frames = get_u32(data + 16);
        if (magic != kMagic || version != kVersion || kind != kKindRagdoll) {
            throw Error(SINEW_INVALID_ARGUMENT, "SINEW_INVALID_ARGUMENT: RagdollRecording::load: not a version-1 ragdoll recording (magic, version or kind)");
        }
        if (bones < 1 || bones > 256) {
            throw Error(SINEW_INVALID_ARGUMENT, "SINEW_INVALID_ARGUMENT: RagdollRecording::load: bone count " + std::to_string(bones) + " is outside 1-256");
        }
        if ((size - kHeaderSize) / frame_size(bones) != frames || (size - kHeaderSize) % frame_size(bones) != 0) {
            throw Error(SINEW_INVALID_ARGUMENT, "SINEW_INVALID_ARGUMENT: RagdollRecording::load: " + std::to_string(size) + " bytes do not hold " + std::to_string(frames) +
                                                   " frames of " + std::to_string(bones) + " bones");
        }
        RagdollRecording rec(bones, frames);
        const std::uint8_t* p = data + kHeaderSize;
        for (std::uint32_t f = 0; f < frames; ++f) {
            const float t = get_f32(p);
            if (!std::isfinite(t) || (f > 0 && t < rec.times_.back())) {
                throw Error(SINEW_INVALID_ARGUMENT, "SINEW_INVALID_ARGUMENT: RagdollRecording::load: frame " + std::to_string(f) + " has a non-finite or decreasing time");
            }
            rec.times_.push_back(t);
            p += 4;
            for (std::uint32_t b = 0; b < bones; ++b, p += 12) {
                rec.positions_.push_back(SinewVec3{get_f32(p), get_f32(p + 4), get_f32(p + 8)});
            }
            for (std::uint32_t b = 0; b < bones; ++b, p += 16) {
                rec.rotations_.push_back(SinewQuat{get_f32(p), get_f32(p + 4), get_f32(p + 8), get_f32(p + 12)});
            }
        }
        return rec;
    }

private:
    static std::size_t frame_size(std::size_t bones) { return 4 + 28 * bones; }

    std::size_t check_frame(std::size_t frame) const {
        if (frame >= times_.size()) {
            throw Error(SINEW_OUT_OF_RANGE, "SINEW_OUT_OF_RANGE: RagdollRecording: frame " + std::to_string(frame) + " out of range (count " + std::to_string(times_.size()) + ")");
        }
        return frame;
    }

    static std::uint8_t* put(std::uint8_t* p, std::uint32_t v) {
        for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
        return p + 4;
    }
    static std::uint8_t* put(std::uint8_t* p, float v) {
        std::uint32_t bits;
        std::memcpy(&bits, &v, 4);
        return put(p, bits);
    }
    static std::uint32_t get_u32(const std::uint8_t* p) {
        return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 | static_cast<std::uint32_t>(p[2]) << 16 |
               static_cast<std::uint32_t>(p[3]) << 24;
    }
    static float get_f32(const std::uint8_t* p) {
        const std::uint32_t bits = get_u32(p);
        float v;
        std::memcpy(&v, &bits, 4);
        return v;
    }

    std::size_t bones_;
    std::vector<float> times_;
    std::vector<SinewVec3> positions_;
    std::vector<SinewQuat> rotations_;
};

// A cloth, rope, hair or soft body, owned: its destructor destroys it. Made by World::create_*.
// Must not outlive its World (see the top of this file).
class Body {
public:
    // An empty Body, owning nothing; its calls throw SINEW_INVALID_HANDLE.
    Body() noexcept = default;

    // Takes ownership of a handle from the C API.
    explicit Body(SinewBody handle) noexcept : handle_(handle) {}

    ~Body() noexcept { reset(); }

    Body(Body&& other) noexcept : handle_(other.release()) {}

    Body& operator=(Body&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = other.release();
        }
        return *this;
    }

    Body(const Body&) = delete;
    Body& operator=(const Body&) = delete;

    // Destroys the body now. Errors are ignored: the handle may already be invalid
    // because its world was destroyed first.
    void reset() noexcept {
        if (handle_.id != 0) {
            (void)sinew_body_destroy(handle_);
            handle_ = SinewBody{};
        }
    }

    // Gives up ownership without destroying.
    SinewBody release() noexcept { return std::exchange(handle_, SinewBody{}); }

    SinewBody handle() const noexcept { return handle_; }

    // Snapshot of this body's dynamic state alone (docs/snapshots.md); load_state restores it,
    // leaving the rest of the world as it is.
    std::vector<uint8_t> save_state() const {
        std::vector<uint8_t> out;
        detail::save_state_into(sinew_body_save_state, handle_, out);
        return out;
    }
    void save_state(std::vector<uint8_t>& out) const { detail::save_state_into(sinew_body_save_state, handle_, out); }
    void load_state(const std::vector<uint8_t>& snapshot) { detail::check(sinew_body_load_state(handle_, snapshot.data(), snapshot.size())); }
    explicit operator bool() const noexcept { return handle_.id != 0; }

    SinewBodyInfo info() const {
        SinewBodyInfo info{};
        detail::check(sinew_body_get_info(handle_, &info));
        return info;
    }

    // Number of vertices read_positions and read_normals write (the host's own count for a mesh).
    std::size_t vertex_count() const {
        std::size_t count = 0;
        detail::check(sinew_body_get_vertex_count(handle_, &count));
        return count;
    }

    SinewMaterial material() const {
        SinewMaterial material{};
        detail::check(sinew_body_get_material(handle_, &material));
        return material;
    }

    void set_material(const SinewMaterial& material) { detail::check(sinew_body_set_material(handle_, &material)); }

    void pin(const std::uint32_t* indices, std::size_t count) { detail::check(sinew_body_pin(handle_, indices, count)); }
    void pin(const std::vector<std::uint32_t>& indices) { pin(indices.data(), indices.size()); }

    void unpin(const std::uint32_t* indices, std::size_t count) { detail::check(sinew_body_unpin(handle_, indices, count)); }
    void unpin(const std::vector<std::uint32_t>& indices) { unpin(indices.data(), indices.size()); }

    // Where vertices `indices[k]` should be at the end of the next World::step.
    void set_pin_targets(const std::uint32_t* indices, std::size_t index_count, const SinewVec3* positions, std::size_t position_count) {
        detail::check(sinew_body_set_pin_targets(handle_, indices, index_count, positions, position_count));
    }
    void set_pin_targets(const std::vector<std::uint32_t>& indices, const std::vector<SinewVec3>& positions) {
        set_pin_targets(indices.data(), indices.size(), positions.data(), positions.size());
    }

    // Moves the body by a rigid transform (column-major), velocities and pins along.
    void teleport(const SinewMat4& transform) { detail::check(sinew_body_teleport(handle_, &transform)); }

    // Into a caller buffer of `capacity` elements (at least vertex_count()).
    void read_positions(SinewVec3* out, std::size_t capacity) const {
        detail::check(sinew_body_read_positions(handle_, out, capacity));
    }
    // Into `out`, resized to vertex_count(): reusing one vector allocates only once.
    void read_positions(std::vector<SinewVec3>& out) const {
        out.resize(vertex_count());
        read_positions(out.data(), out.size());
    }
    std::vector<SinewVec3> read_positions() const {
        std::vector<SinewVec3> out;
        read_positions(out);
        return out;
    }

    void read_normals(SinewVec3* out, std::size_t capacity) const {
        detail::check(sinew_body_read_normals(handle_, out, capacity));
    }
    void read_normals(std::vector<SinewVec3>& out) const {
        out.resize(vertex_count());
        read_normals(out.data(), out.size());
    }
    std::vector<SinewVec3> read_normals() const {
        std::vector<SinewVec3> out;
        read_normals(out);
        return out;
    }

    Bounds bounds() const {
        Bounds b{};
        detail::check(sinew_body_get_bounds(handle_, &b.min, &b.max));
        return b;
    }

    // Largest |length/rest - 1| over the body's constraints.
    float max_stretch() const {
        float stretch = 0.0f;
        detail::check(sinew_body_get_max_stretch(handle_, &stretch));
        return stretch;
    }

    // Turns particle contact between this body and `other` (same world, not this body) on or
    // off. Each body's material.thickness is its particles' radius; for contact of a body with
    // itself, set material.self_collision instead.
    void set_collision_pair(const Body& other, bool enabled) {
        detail::check(sinew_body_set_collision_pair(handle_, other.handle_, enabled ? 1u : 0u));
    }

    // Centre of mass of the body's particles (m), after the newest fixed step. Any body.
    SinewVec3 center_of_mass() const {
        SinewVec3 c{};
        detail::check(sinew_body_get_center_of_mass(handle_, &c));
        return c;
    }

    // ---- soft bodies (World::create_soft_*) ---------------------------------------------
    //
    // These throw SINEW_INVALID_ARGUMENT for a body that is not a soft body. None allocates.

    // The volume its tetrahedra enclose now and at rest (m³; the rest one scaled by the body's
    // scale), after the newest fixed step.
    SoftVolume soft_volume() const {
        SoftVolume v{};
        detail::check(sinew_softbody_get_volume(handle_, &v.current, &v.rest));
        return v;
    }

    SinewSoftSettings soft_settings() const {
        SinewSoftSettings s{};
        detail::check(sinew_softbody_get_settings(handle_, &s));
        return s;
    }

    // Replaces the settings whole (all checked first: nothing changes when one is refused);
    // wakes the body. Start from soft_settings() or default_soft_settings().
    void set_soft_settings(const SinewSoftSettings& settings) { detail::check(sinew_softbody_set_settings(handle_, &settings)); }

    // ---- skinning and the animated pose -------------------------------------------------

    // Linear blend skinning: one SinewBoneWeight per vertex (Unity's BoneWeight layout) and
    // either `bone_count` bind poses or none (then the first bone matrices set are the bind
    // pose: the body was created in that frame's pose).
    void set_skinning(const SinewBoneWeight* weights, std::size_t weight_count, const SinewMat4* bind_poses,
                      std::size_t bind_pose_count, std::uint32_t bone_count) {
        detail::check(sinew_body_set_skinning(handle_, weights, weight_count, bind_poses, bind_pose_count, bone_count));
    }
    void set_skinning(const std::vector<SinewBoneWeight>& weights, const std::vector<SinewMat4>& bind_poses, std::uint32_t bone_count) {
        set_skinning(weights.data(), weights.size(), bind_poses.data(), bind_poses.size(), bone_count);
    }
    void set_skinning(const std::vector<SinewBoneWeight>& weights, std::uint32_t bone_count) {
        set_skinning(weights.data(), weights.size(), nullptr, 0, bone_count);
    }

    // This frame's bone matrices (local-to-world, column-major), one per bone, before
    // World::step. The first call places the whole body on its skinned pose.
    void set_bone_matrices(const SinewMat4* matrices, std::size_t count) {
        detail::check(sinew_body_set_bone_matrices(handle_, matrices, count));
    }
    void set_bone_matrices(const std::vector<SinewMat4>& matrices) { set_bone_matrices(matrices.data(), matrices.size()); }
    // One bone: a skirt's waist, hair's head.
    void set_bone_matrix(const SinewMat4& matrix) { set_bone_matrices(&matrix, 1); }

    // Back on the skinned pose (or the created shape), at rest.
    void reset_pose() { detail::check(sinew_body_reset_pose(handle_)); }

    // Per vertex, how far (m) it may move from its skinned position; 0 fixes it there, a
    // negative value or infinity means unlimited. Needs skinning. An empty list removes them.
    void set_max_distances(const float* distances, std::size_t count) {
        detail::check(sinew_body_set_max_distances(handle_, distances, count));
    }
    void set_max_distances(const std::vector<float>& distances) { set_max_distances(distances.data(), distances.size()); }
    void clear_max_distances() { set_max_distances(nullptr, 0); }

    // Per vertex backstop spheres `radii[i]` whose surface is `offsets[i]` behind the skinned
    // position along the skinned normal. Needs skinning. Empty lists remove them.
    void set_backstops(const float* offsets, std::size_t offset_count, const float* radii, std::size_t radius_count) {
        detail::check(sinew_body_set_backstops(handle_, offsets, offset_count, radii, radius_count));
    }
    void set_backstops(const std::vector<float>& offsets, const std::vector<float>& radii) {
        set_backstops(offsets.data(), offsets.size(), radii.data(), radii.size());
    }
    void clear_backstops() { set_backstops(nullptr, 0, nullptr, 0); }

    // A SinewTetherMode (SINEW_TETHER_NONE, _EUCLIDEAN or _GEODESIC; a uint32_t so that any
    // value reaches the library's check), from the current pins: no particle gets
    // farther from its anchor than `scale` (>= 1) x its rest distance.
    void set_tethers(std::uint32_t mode, float scale = 1.0f) { detail::check(sinew_body_set_tethers(handle_, mode, scale)); }

    // ---- the character's root, dynamics, LOD --------------------------------------------

    SinewDynamics dynamics() const {
        SinewDynamics d{};
        detail::check(sinew_body_get_dynamics(handle_, &d));
        return d;
    }
    // Start from dynamics() or default_dynamics().
    void set_dynamics(const SinewDynamics& dynamics) { detail::check(sinew_body_set_dynamics(handle_, &dynamics)); }

    // Where the character's root is at the end of the next World::step (rotation, uniform
    // scale, translation): inertia, the automatic teleport and the body's scale follow it.
    void set_root_transform(const SinewMat4& transform) { detail::check(sinew_body_set_root_transform(handle_, &transform)); }

    // Rides the body in a moving platform (a vehicle, an elevator): `anchor` is where it is at
    // the end of the next World::step (rotation and translation, scale 1), `inertia` in [0, 1]
    // how much of its motion the body feels (0: carried rigidly, as if the vehicle stood
    // still; 1: world physics). Every frame the anchor moves, before step(). The root's
    // inertia is then relative to the anchor. clear_anchor() leaves it.
    void set_anchor(const SinewMat4& anchor, float inertia) { detail::check(sinew_body_set_anchor(handle_, &anchor, inertia)); }
    void clear_anchor() { detail::check(sinew_body_clear_anchor(handle_)); }

    // Start from default_lod().
    void set_lod(const SinewLod& lod) { detail::check(sinew_body_set_lod(handle_, &lod)); }

    // Whether the host renders the body; an invisible body freezes if its LOD says so.
    void set_visible(bool visible) { detail::check(sinew_body_set_visible(handle_, visible ? 1u : 0u)); }

    // ---- triangles and tearing ----------------------------------------------------------

    // Number of indices read_indices writes (3 per triangle; 0 for ropes and hair).
    std::size_t index_count() const {
        std::size_t count = 0;
        detail::check(sinew_body_get_index_count(handle_, &count));
        return count;
    }

    // Triangles as host vertex indices. Read again when info().topology_version changes.
    void read_indices(std::uint32_t* out, std::size_t capacity) const {
        detail::check(sinew_body_read_indices(handle_, out, capacity));
    }
    // Into `out`, resized to index_count() (an empty vector's null data() is fine).
    void read_indices(std::vector<std::uint32_t>& out) const {
        out.resize(index_count());
        read_indices(out.data(), out.size());
    }
    std::vector<std::uint32_t> read_indices() const {
        std::vector<std::uint32_t> out;
        read_indices(out);
        return out;
    }

    // Per vertex, the original vertex it was copied from by a tear (itself otherwise).
    void read_vertex_sources(std::uint32_t* out, std::size_t capacity) const {
        detail::check(sinew_body_read_vertex_sources(handle_, out, capacity));
    }
    // Into `out`, resized to vertex_count().
    void read_vertex_sources(std::vector<std::uint32_t>& out) const {
        out.resize(vertex_count());
        read_vertex_sources(out.data(), out.size());
    }
    std::vector<std::uint32_t> read_vertex_sources() const {
        std::vector<std::uint32_t> out;
        read_vertex_sources(out);
        return out;
    }

    // Pins vertices[k] (host vertex indices) to bone bones[k] of `ragdoll` (same world) at
    // offsets[k] in the bone's frame; they follow it inside the step.
    void attach_to_ragdoll(const Ragdoll& ragdoll, const std::vector<std::uint32_t>& vertices, const std::vector<std::uint32_t>& bones,
                           const std::vector<SinewVec3>& offsets) {
        detail::check(sinew_body_attach_to_ragdoll(handle_, ragdoll.handle(), vertices.data(), vertices.size(), bones.data(), bones.size(),
                                                   offsets.data(), offsets.size()));
    }

    // The ragdoll's bone shapes as colliders of this body (swept), or not.
    void set_ragdoll_collision(const Ragdoll& ragdoll, bool enabled) {
        detail::check(sinew_body_set_ragdoll_collision(handle_, ragdoll.handle(), enabled ? 1u : 0u));
    }

private:
    SinewBody handle_{};
};

// A sphere, tapered capsule, plane, box or static triangle mesh, owned: its destructor
// destroys it. Made by World::create_collider or World::create_mesh_collider. Must not
// outlive its World (see the top of this file).
class Collider {
public:
    // An empty Collider, owning nothing; its calls throw SINEW_INVALID_HANDLE.
    Collider() noexcept = default;

    // Takes ownership of a handle from the C API.
    explicit Collider(SinewCollider handle) noexcept : handle_(handle) {}

    ~Collider() noexcept { reset(); }

    Collider(Collider&& other) noexcept : handle_(other.release()) {}

    Collider& operator=(Collider&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = other.release();
        }
        return *this;
    }

    Collider(const Collider&) = delete;
    Collider& operator=(const Collider&) = delete;

    // Destroys the collider now. Errors are ignored: the handle may already be invalid
    // because its world was destroyed first.
    void reset() noexcept {
        if (handle_.id != 0) {
            (void)sinew_collider_destroy(handle_);
            handle_ = SinewCollider{};
        }
    }

    // Gives up ownership without destroying.
    SinewCollider release() noexcept { return std::exchange(handle_, SinewCollider{}); }

    SinewCollider handle() const noexcept { return handle_; }
    explicit operator bool() const noexcept { return handle_.id != 0; }

    // Where the collider is at the end of the next World::step (rotation, uniform scale,
    // translation; column-major, e.g. a bone's local-to-world matrix). During the step it
    // sweeps there from where it was, so a fast limb does not pass through cloth.
    void set_transform(const SinewMat4& transform) { detail::check(sinew_collider_set_transform(handle_, &transform)); }

    // Moves the collider without sweeping: nothing between is touched.
    void teleport(const SinewMat4& transform) { detail::check(sinew_collider_teleport(handle_, &transform)); }

    // Bodies meet the collider when layers & material.collision_mask != 0.
    void set_layers(std::uint32_t layers) { detail::check(sinew_collider_set_layers(handle_, layers)); }

    // A mesh collider's counts and bounds; throws SINEW_INVALID_ARGUMENT for another shape.
    SinewColliderMeshInfo mesh_info() const {
        SinewColliderMeshInfo info{};
        detail::check(sinew_collider_get_mesh_info(handle_, &info));
        return info;
    }

private:
    SinewCollider handle_{};
};

// A simulation world, owned: its destructor destroys it, its bodies, its colliders and its
// threads.
class World {
public:
    // A world with default settings.
    World() {
        check_abi();
        create(default_world_desc());
    }

    // A world with the given settings (start from default_world_desc()).
    explicit World(const SinewWorldDesc& desc) {
        check_abi();
        create(desc);
    }

    ~World() noexcept { reset(); }

    World(World&& other) noexcept : handle_(other.release()) {}

    World& operator=(World&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = other.release();
        }
        return *this;
    }

    World(const World&) = delete;
    World& operator=(const World&) = delete;

    // Destroys the world now, ending an unfinished asynchronous step first. Never throws.
    void reset() noexcept {
        if (handle_.id == 0) {
            return;
        }
        if (sinew_world_destroy(handle_) == SINEW_BUSY) {
            (void)sinew_world_step_end(handle_);
            (void)sinew_world_destroy(handle_);
        }
        handle_ = SinewWorld{};
    }

    // Gives up ownership without destroying.
    SinewWorld release() noexcept { return std::exchange(handle_, SinewWorld{}); }

    SinewWorld handle() const noexcept { return handle_; }
    explicit operator bool() const noexcept { return handle_.id != 0; }

    // Advances by the host's frame time dt (s).
    void step(float dt) { detail::check(sinew_world_step(handle_, dt)); }

    // Starts step(dt) on Sinew's threads; until step_end, calls on this world throw SINEW_BUSY.
    void step_begin(float dt) { detail::check(sinew_world_step_begin(handle_, dt)); }

    // Waits for the step started by step_begin; throws its error, if any.
    void step_end() { detail::check(sinew_world_step_end(handle_)); }

    // Snapshot of the world's whole dynamic state (docs/snapshots.md): every body, ragdoll
    // and collider, time and the fixed-step accumulator. load_state(snapshot) of this world,
    // or of one built by the same calls, continues exactly as this one does from here.
    std::vector<uint8_t> save_state() const {
        std::vector<uint8_t> out;
        detail::save_state_into(sinew_world_save_state, handle_, out);
        return out;
    }

    // The same into a reused buffer (resized to the snapshot's size).
    void save_state(std::vector<uint8_t>& out) const { detail::save_state_into(sinew_world_save_state, handle_, out); }

    // Restores a snapshot; a truncated, corrupted or mismatched one throws
    // SINEW_INVALID_ARGUMENT and changes nothing.
    void load_state(const std::vector<uint8_t>& snapshot) { detail::check(sinew_world_load_state(handle_, snapshot.data(), snapshot.size())); }

    SinewWorldStats stats() const {
        SinewWorldStats stats{};
        detail::check(sinew_world_get_stats(handle_, &stats));
        return stats;
    }

    void set_gravity(const SinewVec3& gravity) { detail::check(sinew_world_set_gravity(handle_, gravity)); }

    // Start from default_wind().
    void set_wind(const SinewWind& wind) { detail::check(sinew_world_set_wind(handle_, &wind)); }

    // Where LOD distances are measured from.
    void set_camera(const SinewVec3& position) { detail::check(sinew_world_set_camera(handle_, position)); }

    Body create_grid(const SinewClothGridDesc& desc) {
        SinewBody body{};
        detail::check(sinew_cloth_create_grid(handle_, &desc, &body));
        return Body(body);
    }

    Body create_mesh(const SinewClothMeshDesc& desc) {
        SinewBody body{};
        detail::check(sinew_cloth_create_mesh(handle_, &desc, &body));
        return Body(body);
    }

    Body create_rope(const SinewRopeDesc& desc) {
        SinewBody body{};
        detail::check(sinew_rope_create(handle_, &desc, &body));
        return Body(body);
    }

    // Hair (start from default_strands_desc()); drive it with Body::set_bone_matrix(head).
    Body create_strands(const SinewStrandsDesc& desc) {
        SinewBody body{};
        detail::check(sinew_strands_create(handle_, &desc, &body));
        return Body(body);
    }

    // A cape skinned to {left shoulder, neck, right shoulder} (start from default_cape_desc());
    // drive it with Body::set_bone_matrices({left, neck, right}).
    Body create_cape(const SinewClothCapeDesc& desc) {
        SinewBody body{};
        detail::check(sinew_cloth_create_cape(handle_, &desc, &body));
        return Body(body);
    }

    // A skirt skinned to the waist (start from default_skirt_desc()); drive it with
    // Body::set_bone_matrix(waist).
    Body create_skirt(const SinewClothSkirtDesc& desc) {
        SinewBody body{};
        detail::check(sinew_cloth_create_skirt(handle_, &desc, &body));
        return Body(body);
    }

    // A lattice soft body (the chapter's jelly; start from default_soft_lattice_desc()).
    Body create_soft_lattice(const SinewSoftLatticeDesc& desc) {
        SinewBody body{};
        detail::check(sinew_softbody_create_lattice(handle_, &desc, &body));
        return Body(body);
    }

    // A soft body from a tetrahedral mesh: `position_count` positions and a list of
    // `index_count` = 4 x tetrahedra indices (any orientation), read during the call only.
    // A degenerate or out-of-range tetrahedron is refused with its index in the message.
    Body create_soft_tets(const SinewVec3* positions, std::size_t position_count, const std::uint32_t* indices, std::size_t index_count,
                          const SinewMaterial& material, const SinewSoftSettings& settings) {
        SinewBody body{};
        detail::check(sinew_softbody_create_tets(handle_, positions, position_count, indices, index_count, &material, &settings, &body));
        return Body(body);
    }
    Body create_soft_tets(const std::vector<SinewVec3>& positions, const std::vector<std::uint32_t>& indices, const SinewMaterial& material,
                          const SinewSoftSettings& settings) {
        return create_soft_tets(positions.data(), positions.size(), indices.data(), indices.size(), material, settings);
    }

    // A soft body from a closed render mesh (start from default_soft_mesh_desc and point it at
    // your vertices and triangles): a lattice over the mesh's voxels is simulated and the mesh's
    // vertices are embedded; Body::read_positions answers in your vertex order and count.
    Body create_soft_from_mesh(const SinewSoftMeshDesc& desc) {
        SinewBody body{};
        detail::check(sinew_softbody_create_from_mesh(handle_, &desc, &body));
        return Body(body);
    }

    // A balloon: the closed mesh of `mesh` (as for a mesh cloth) holding a gas of
    // `settings.pressure` (Pa) at its rest volume.
    Body create_balloon(const SinewClothMeshDesc& mesh, const SinewSoftSettings& settings) {
        SinewBody body{};
        detail::check(sinew_softbody_create_balloon(handle_, &mesh, &settings, &body));
        return Body(body);
    }

    // Start from sphere_desc, capsule_desc, plane_desc, box_desc or default_collider_desc.
    Collider create_collider(const SinewColliderDesc& desc) {
        SinewCollider collider{};
        detail::check(sinew_collider_create(handle_, &desc, &collider));
        return Collider(collider);
    }

    // A static triangle-mesh collider: start from mesh_desc, shared_mesh_desc or
    // default_collider_mesh_desc. It moves only by Collider::teleport (set_transform throws).
    Collider create_mesh_collider(const SinewColliderMeshDesc& desc) {
        SinewCollider collider{};
        detail::check(sinew_collider_create_mesh(handle_, &desc, &collider));
        return Collider(collider);
    }

    // A ragdoll from a bone list (start each bone from default_bone_desc(), the settings from
    // default_ragdoll_settings()), in its bind pose, at rest.
    Ragdoll create_ragdoll(const SinewRagdollSettings& settings, const SinewBoneDesc* bones, std::size_t bone_count) {
        SinewRagdoll r{};
        detail::check(sinew_ragdoll_create(handle_, &settings, bones, bone_count, &r));
        return Ragdoll(r);
    }
    Ragdoll create_ragdoll(const SinewRagdollSettings& settings, const std::vector<SinewBoneDesc>& bones) {
        return create_ragdoll(settings, bones.data(), bones.size());
    }
    // As create_ragdoll, placed at `root` (rotation and translation, column-major, scale 1):
    // every bone is root × the bone as given, so a list made at the origin is created anywhere.
    Ragdoll create_ragdoll_at(const SinewRagdollSettings& settings, const std::vector<SinewBoneDesc>& bones, const SinewMat4& root) {
        SinewRagdoll r{};
        detail::check(sinew_ragdoll_create_at(handle_, &settings, bones.data(), bones.size(), &root, &r));
        return Ragdoll(r);
    }

    // The humanoid template's ragdoll (11 bones, indexed by SinewHumanoidBone) from a rig's
    // bone positions (start from default_humanoid_bones()).
    Ragdoll create_humanoid_ragdoll(const SinewHumanoidBones& bones, const SinewRagdollSettings& settings) {
        SinewRagdoll r{};
        detail::check(sinew_ragdoll_create_humanoid(handle_, &bones, &settings, &r));
        return Ragdoll(r);
    }
    // As create_humanoid_ragdoll, placed at `root` (rotation and translation, scale 1): with
    // default_humanoid_bones() the root is where the character stands and its +Z the way it faces.
    Ragdoll create_humanoid_ragdoll_at(const SinewHumanoidBones& bones, const SinewRagdollSettings& settings, const SinewMat4& root) {
        SinewRagdoll r{};
        detail::check(sinew_ragdoll_create_humanoid_at(handle_, &bones, &settings, &root, &r));
        return Ragdoll(r);
    }

private:
    // Refuses a library whose ABI differs from this header's, before any struct crosses
    // the boundary: its layouts may differ. Thrown as SINEW_INVALID_ARGUMENT.
    static void check_abi() {
        const std::uint32_t loaded = sinew_abi_version();
        if (loaded != SINEW_ABI_VERSION) {
            throw Error(SINEW_INVALID_ARGUMENT,
                        "SINEW_INVALID_ARGUMENT: ABI mismatch: sinew.h and sinew.hpp are for ABI version " +
                            std::to_string(SINEW_ABI_VERSION) + " but the loaded library implements version " +
                            std::to_string(loaded) + "; build against the sinew.h shipped with that library");
        }
    }

    void create(const SinewWorldDesc& desc) { detail::check(sinew_world_create(&desc, &handle_)); }

    SinewWorld handle_{};
};

// ---- conventions (docs/conventions.md) ----
// Sinew's defaults are Unity's: Y up, and a character's right is up × forward (+X for +Y up
// and +Z forward). An engine whose right is forward × up (+Y up, characters facing -Z, +X
// right) converts every position, direction, rotation and transform by negating Z on the way
// in and on the way out (the same function both ways), and reverses the winding of the
// triangles it passes. These do the Z mirror.
inline SinewVec3 mirror_z(SinewVec3 v) { return SinewVec3{v.x, v.y, -v.z}; }
inline SinewQuat mirror_z(SinewQuat q) { return SinewQuat{-q.x, -q.y, q.z, q.w}; }
inline SinewMat4 mirror_z(SinewMat4 m) {
    // S M S with S = diag(1, 1, -1, 1), column-major: the entries with exactly one index 2.
    static const int flipped[] = {2, 6, 14, 8, 9, 11};
    for (int i : flipped) m.m[i] = -m.m[i];
    return m;
}

}  // namespace sinew

#endif  // SINEW_HPP
