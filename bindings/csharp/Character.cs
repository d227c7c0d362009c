// Hand-written. The character-cloth calls of a body and a world: skinning, the animated-pose
// limits, tethers, dynamics and the character's root, LOD and visibility, wind and camera,
// and the triangle readback that changes when a cloth tears.
using System;
using System.Runtime.InteropServices;

namespace Sinew
{
    public abstract partial class Body
    {
        // The library has setters but no getters for these two; the wrapper remembers what it
        // set. A new body has the default LOD and is visible.
        SinewLod lod;
        bool lodSet;
        bool visible = true;

        // ---- skinning ----

        /// <summary>
        /// Skins the body to <paramref name="bindPoses"/>.Length bones: per host vertex four bones
        /// and weights (<paramref name="weights"/>, any 32-byte struct of four float weights then
        /// four int bone indices, such as Unity's <c>BoneWeight</c>, so <c>mesh.boneWeights</c>
        /// passes as it is), and per bone the matrix that takes a rest position, <b>as the body was
        /// created</b> (the positions given to <c>CreateMesh</c>, in world space), into that bone's
        /// space (any 64-byte column-major matrix struct, such as <c>Matrix4x4</c>).
        /// </summary>
        /// <remarks>
        /// <para>A Unity mesh's <c>bindposes[b]</c> maps <i>mesh</i> space to bone space. For a body
        /// created from <c>M · vertex</c> (e.g. <c>M = renderer.transform.localToWorldMatrix</c>),
        /// pass <c>bindposes[b] · M⁻¹</c>; the skinned positions are then exactly Unity's
        /// <c>Σ weight · bones[b].localToWorldMatrix · bindposes[b] · vertex</c>.</para>
        /// <para>Then call <see cref="SetBoneMatrices{TMatrix}(ReadOnlySpan{TMatrix})"/> every
        /// frame; pinned vertices follow their skinned positions, and
        /// <see cref="SetMaxDistances"/> and <see cref="SetBackstops"/> bound the others.</para>
        /// </remarks>
        /// <exception cref="ArgumentException">A type of the wrong size, or one holding references.</exception>
        /// <exception cref="SinewException"><c>SINEW_INVALID_ARGUMENT</c> (not one weight per vertex, weights
        /// summing to 0), <c>SINEW_OUT_OF_RANGE</c> (a bone index past the bind poses).</exception>
        public void SetSkinning<TBoneWeight, TMatrix>(ReadOnlySpan<TBoneWeight> weights, ReadOnlySpan<TMatrix> bindPoses)
            where TBoneWeight : struct
            where TMatrix : struct
        {
            SetSkinning(Blit.AsBoneWeights(weights, "weights"), Blit.AsMat4(bindPoses, "bindPoses"), bindPoses.Length);
        }

        /// <inheritdoc cref="SetSkinning{TBoneWeight, TMatrix}(ReadOnlySpan{TBoneWeight}, ReadOnlySpan{TMatrix})"/>
        public void SetSkinning<TBoneWeight, TMatrix>(TBoneWeight[] weights, TMatrix[] bindPoses)
            where TBoneWeight : struct
            where TMatrix : struct
        {
            SetSkinning(new ReadOnlySpan<TBoneWeight>(weights), new ReadOnlySpan<TMatrix>(bindPoses));
        }

        /// <summary>
        /// Skins the body to <paramref name="boneCount"/> bones without bind poses: the inverse of
        /// the first bone matrices set is used, i.e. the body was created in the pose of that first
        /// frame (exact for one bone, or for a body created from its bones' current pose with
        /// rigid weights).
        /// </summary>
        public void SetSkinning<TBoneWeight>(ReadOnlySpan<TBoneWeight> weights, int boneCount) where TBoneWeight : struct
        {
            if (boneCount < 0)
            {
                throw new ArgumentOutOfRangeException("boneCount", boneCount, "a bone count is not negative");
            }
            SetSkinning(Blit.AsBoneWeights(weights, "weights"), ReadOnlySpan<SinewMat4>.Empty, boneCount);
        }

        /// <inheritdoc cref="SetSkinning{TBoneWeight}(ReadOnlySpan{TBoneWeight}, int)"/>
        public void SetSkinning<TBoneWeight>(TBoneWeight[] weights, int boneCount) where TBoneWeight : struct
        {
            SetSkinning(new ReadOnlySpan<TBoneWeight>(weights), boneCount);
        }

        unsafe void SetSkinning(ReadOnlySpan<SinewBoneWeight> weights, ReadOnlySpan<SinewMat4> bindPoses, int boneCount)
        {
            fixed (SinewBoneWeight* w = &MemoryMarshal.GetReference(weights))
            fixed (SinewMat4* b = &MemoryMarshal.GetReference(bindPoses))
            {
                SinewException.Check(NativeMethods.sinew_body_set_skinning(
                    handle, w, Blit.Count(weights.Length), b, Blit.Count(bindPoses.Length), (uint)boneCount));
            }
        }

        /// <summary>
        /// This frame's bone matrices, one per bone of <see cref="SetSkinning{TBoneWeight, TMatrix}(ReadOnlySpan{TBoneWeight}, ReadOnlySpan{TMatrix})"/>
        /// (Unity: <c>bones[b].localToWorldMatrix</c>; any 64-byte column-major matrix struct).
        /// Pinned vertices travel to their skinned positions across the next step's substeps; the
        /// first call puts the whole body on the skinned pose. Allocates nothing.
        /// </summary>
        /// <exception cref="SinewException"><c>SINEW_INVALID_ARGUMENT</c> (no skinning, or another
        /// number of matrices), <c>SINEW_NON_FINITE</c>.</exception>
        public void SetBoneMatrices<TMatrix>(ReadOnlySpan<TMatrix> matrices) where TMatrix : struct
        {
            SetBoneMatrices(Blit.AsMat4(matrices, "matrices"));
        }

        /// <inheritdoc cref="SetBoneMatrices{TMatrix}(ReadOnlySpan{TMatrix})"/>
        public void SetBoneMatrices<TMatrix>(TMatrix[] matrices) where TMatrix : struct
        {
            SetBoneMatrices(Blit.AsMat4(new ReadOnlySpan<TMatrix>(matrices), "matrices"));
        }

        /// <summary>The one bone matrix of a body skinned to one bone (a skirt's waist, hair's
        /// head). Allocates nothing.</summary>
        public void SetBoneMatrix<TMatrix>(TMatrix matrix) where TMatrix : struct
        {
            SinewMat4 m = SinewMat4.From(matrix);
            SetBoneMatrices(MemoryMarshal.CreateReadOnlySpan(ref m, 1));
        }

        unsafe void SetBoneMatrices(ReadOnlySpan<SinewMat4> matrices)
        {
            fixed (SinewMat4* m = &MemoryMarshal.GetReference(matrices))
            {
                SinewException.Check(NativeMethods.sinew_body_set_bone_matrices(handle, m, Blit.Count(matrices.Length)));
            }
        }

        /// <summary>Puts the body back on its skinned pose (or its created shape), at rest: after a
        /// respawn or a cut.</summary>
        public void ResetPose()
        {
            SinewException.Check(NativeMethods.sinew_body_reset_pose(handle));
        }

        // ---- limits around the skinned pose ----

        /// <summary>
        /// Per host vertex, how far (m) it may move from its skinned position: Unity Cloth's
        /// <c>coefficients[i].maxDistance</c>. 0 fixes the vertex to the skinned pose (it becomes
        /// pinned); a negative value, infinity or Unity's <c>float.MaxValue</c> leaves it free.
        /// An empty span removes the limits. Needs <see cref="SetSkinning{TBoneWeight}(ReadOnlySpan{TBoneWeight}, int)"/> first.
        /// </summary>
        public unsafe void SetMaxDistances(ReadOnlySpan<float> distances)
        {
            fixed (float* d = &MemoryMarshal.GetReference(distances))
            {
                SinewException.Check(NativeMethods.sinew_body_set_max_distances(handle, d, Blit.Count(distances.Length)));
            }
        }

        /// <summary>Removes the limits of <see cref="SetMaxDistances"/>.</summary>
        public void ClearMaxDistances()
        {
            SetMaxDistances(ReadOnlySpan<float>.Empty);
        }

        /// <summary>
        /// Per host vertex backstops (Unity Cloth's <c>coefficients[i].collisionSphereDistance</c>):
        /// a sphere of <c>radii[i]</c> (m) whose surface is <c>offsets[i]</c> (m) behind the skinned
        /// position, along the skinned normal, that the vertex cannot enter. The two spans have one
        /// entry per vertex; empty spans remove the backstops. Needs skinning.
        /// </summary>
        public unsafe void SetBackstops(ReadOnlySpan<float> offsets, ReadOnlySpan<float> radii)
        {
            fixed (float* o = &MemoryMarshal.GetReference(offsets))
            fixed (float* r = &MemoryMarshal.GetReference(radii))
            {
                SinewException.Check(NativeMethods.sinew_body_set_backstops(
                    handle, o, Blit.Count(offsets.Length), r, Blit.Count(radii.Length)));
            }
        }

        /// <summary>Removes the backstops of <see cref="SetBackstops"/>.</summary>
        public void ClearBackstops()
        {
            SetBackstops(ReadOnlySpan<float>.Empty, ReadOnlySpan<float>.Empty);
        }

        /// <summary>
        /// Tethers every free particle to its nearest pinned one (Unity Cloth's <c>useTethers</c>),
        /// computed from the pins the body has now: no particle gets farther from its anchor than
        /// <paramref name="scale"/> (≥ 1) × its rest distance, at any iteration count.
        /// <see cref="SinewTetherMode.SINEW_TETHER_NONE"/> removes them.
        /// </summary>
        /// <exception cref="SinewException"><c>SINEW_INVALID_ARGUMENT</c> (no pinned particle, scale below 1).</exception>
        public void SetTethers(SinewTetherMode mode, float scale = 1f)
        {
            SinewException.Check(NativeMethods.sinew_body_set_tethers(handle, (uint)mode, scale));
        }

        // ---- dynamics and the character's root ----

        /// <summary>How the body responds to its root's motion, the wind and strain (world
        /// velocity and acceleration scale, speed limit, automatic teleport, pose stiffness, wind
        /// drag and lift, tearing). Start from <see cref="SinewDynamics.Default"/>.</summary>
        public unsafe SinewDynamics Dynamics
        {
            get
            {
                SinewDynamics d;
                SinewException.Check(NativeMethods.sinew_body_get_dynamics(handle, &d));
                return d;
            }
            set
            {
                SinewException.Check(NativeMethods.sinew_body_set_dynamics(handle, &value));
            }
        }

        /// <summary>
        /// Where the character's root is at the end of the next step (rotation, uniform scale,
        /// translation; column-major). Its motion drives inertia, the automatic teleport
        /// (<c>Dynamics.teleport_distance</c>) and the body's size: a root scaled ×2 from its
        /// first transform doubles rest lengths, thickness and limits. Allocates nothing.
        /// </summary>
        /// <exception cref="SinewException"><c>SINEW_INVALID_ARGUMENT</c> (non-uniform scale, shear,
        /// mirroring), <c>SINEW_NON_FINITE</c>.</exception>
        public unsafe void SetRootTransform(SinewMat4 transform)
        {
            SinewException.Check(NativeMethods.sinew_body_set_root_transform(handle, &transform));
        }

        /// <summary>As <see cref="SetRootTransform(SinewMat4)"/>, from any 64-byte column-major matrix
        /// struct (e.g. the character's <c>transform.localToWorldMatrix</c>).</summary>
        public void SetRootTransform<TMatrix>(TMatrix transform) where TMatrix : struct
        {
            SetRootTransform(SinewMat4.From(transform));
        }

        /// <summary>
        /// Rides the body in a moving platform — a vehicle, an elevator, a ship's deck:
        /// <paramref name="anchor"/> is where it is at the end of the next step (rotation and
        /// translation, scale 1; column-major), <paramref name="inertia"/> in [0, 1] how much of
        /// its motion the body feels as world motion: 0 none (the body behaves as if the vehicle
        /// stood still, carried rigidly with it), 1 all (world physics). In a vehicle
        /// accelerating at <c>a</c> a cape pinned in it hangs at <c>atan(inertia·a/g)</c>. A
        /// jump beyond <c>teleport_distance</c> carries the body without a jolt; the root's
        /// inertia (<see cref="SetRootTransform(SinewMat4)"/>) is then relative to the anchor.
        /// Call it every frame the anchor moves, before the step. Allocates nothing.
        /// </summary>
        /// <exception cref="SinewException"><c>SINEW_INVALID_ARGUMENT</c> (scale, shear, mirror,
        /// inertia outside [0, 1]), <c>SINEW_NON_FINITE</c>.</exception>
        public unsafe void SetAnchor(SinewMat4 anchor, float inertia)
        {
            SinewException.Check(NativeMethods.sinew_body_set_anchor(handle, &anchor, inertia));
        }

        /// <summary>As <see cref="SetAnchor(SinewMat4, float)"/>, from any 64-byte column-major matrix
        /// struct (e.g. <c>Matrix4x4.TRS(vehicle.position, vehicle.rotation, Vector3.one)</c>).</summary>
        public void SetAnchor<TMatrix>(TMatrix anchor, float inertia) where TMatrix : struct
        {
            SetAnchor(SinewMat4.From(anchor), inertia);
        }

        /// <summary>Takes the body out of its anchor: it feels world motion only.</summary>
        public void ClearAnchor()
        {
            SinewException.Check(NativeMethods.sinew_body_clear_anchor(handle));
        }

        // ---- level of detail ----

        /// <summary>
        /// The body's level-of-detail rules: fewer substeps beyond one camera distance, frozen
        /// beyond another or while invisible. The library has no getter: this is the last value
        /// set through this wrapper, or <see cref="SinewLod.Default"/> (what a new body has).
        /// </summary>
        public unsafe SinewLod Lod
        {
            get
            {
                if (!lodSet)
                {
                    lod = SinewLod.Default;
                    lodSet = true;
                }
                return lod;
            }
            set
            {
                SinewException.Check(NativeMethods.sinew_body_set_lod(handle, &value));
                lod = value;
                lodSet = true;
            }
        }

        /// <summary>
        /// Whether the host draws the body (in Unity: from <c>OnBecameVisible</c> /
        /// <c>OnBecameInvisible</c>). An invisible body freezes when its <see cref="Lod"/> says
        /// so, keeps its pose, and resumes without a jump. The last value set through this
        /// wrapper; a new body is visible.
        /// </summary>
        public bool Visible
        {
            get { return visible; }
            set
            {
                SinewException.Check(NativeMethods.sinew_body_set_visible(handle, value ? 1u : 0u));
                visible = value;
            }
        }

        /// <summary>True while LOD keeps the body frozen (<see cref="SinewBodyInfo.frozen"/>).</summary>
        public bool IsFrozen
        {
            get { return GetInfo().IsFrozen; }
        }

        // ---- triangles, and tearing ----

        /// <summary>Bumped whenever the body's triangles or vertex count change (a tear): read
        /// <see cref="VertexCount"/>, <see cref="ReadIndices(Span{int})"/> and
        /// <see cref="ReadVertexSources(Span{int})"/> again when it does.</summary>
        public uint TopologyVersion
        {
            get { return GetInfo().topology_version; }
        }

        /// <summary>Number of indices <see cref="ReadIndices(Span{int})"/> writes: 3 per triangle,
        /// 0 for ropes and hair.</summary>
        public unsafe int IndexCount
        {
            get
            {
                UIntPtr n;
                SinewException.Check(NativeMethods.sinew_body_get_index_count(handle, &n));
                return checked((int)n.ToUInt64());
            }
        }

        /// <summary>Copies the body's triangles, as host vertex indices, into <paramref name="destination"/>
        /// (at least <see cref="IndexCount"/> long). Allocates nothing.</summary>
        /// <exception cref="SinewException"><c>SINEW_BUFFER_TOO_SMALL</c>.</exception>
        public void ReadIndices(Span<int> destination)
        {
            ReadIndices(MemoryMarshal.Cast<int, uint>(destination));
        }

        /// <inheritdoc cref="ReadIndices(Span{int})"/>
        public unsafe void ReadIndices(Span<uint> destination)
        {
            fixed (uint* p = &MemoryMarshal.GetReference(destination))
            {
                SinewException.Check(NativeMethods.sinew_body_read_indices(handle, p, Blit.Count(destination.Length)));
            }
        }

        /// <summary>Copies the triangles to unmanaged memory holding <paramref name="capacity"/> 32-bit indices.</summary>
        public unsafe void ReadIndices(IntPtr destination, int capacity)
        {
            ReadIndices(new Span<uint>((void*)destination, capacity));
        }

        /// <summary>For each host vertex, the original vertex it was copied from (itself unless the
        /// cloth tore), so that UVs and colours can be copied to the vertices a tear added.
        /// <paramref name="destination"/> holds at least <see cref="VertexCount"/> entries.</summary>
        public void ReadVertexSources(Span<int> destination)
        {
            ReadVertexSources(MemoryMarshal.Cast<int, uint>(destination));
        }

        /// <inheritdoc cref="ReadVertexSources(Span{int})"/>
        public unsafe void ReadVertexSources(Span<uint> destination)
        {
            fixed (uint* p = &MemoryMarshal.GetReference(destination))
            {
                SinewException.Check(NativeMethods.sinew_body_read_vertex_sources(handle, p, Blit.Count(destination.Length)));
            }
        }
    }

    public sealed partial class World
    {
        // The library has no getter for the wind; the wrapper remembers what it set.
        SinewWind wind;
        bool windSet;

        /// <summary>The world's wind: mean speed and direction, turbulence, gusts, air density.
        /// Bodies feel it through their <see cref="Body.Dynamics"/> (drag, lift, wind scale). The
        /// library has no getter: this is the last value set through this wrapper, or
        /// <see cref="SinewWind.Default"/> (calm air, what a new world has).</summary>
        public SinewWind Wind
        {
            get
            {
                if (!windSet)
                {
                    wind = SinewWind.Default;
                    windSet = true;
                }
                return wind;
            }
            set { SetWind(value); }
        }

        /// <summary>Sets the world's wind from the next step on; start from <see cref="SinewWind.Default"/>.</summary>
        /// <exception cref="SinewException"><c>SINEW_NON_FINITE</c>, <c>SINEW_INVALID_ARGUMENT</c> (a negative speed).</exception>
        public unsafe void SetWind(SinewWind value)
        {
            SinewException.Check(NativeMethods.sinew_world_set_wind(handle, &value));
            wind = value;
            windSet = true;
        }

        /// <summary>The camera position LOD distances are measured from (m).</summary>
        public void SetCamera(SinewVec3 position)
        {
            SinewException.Check(NativeMethods.sinew_world_set_camera(handle, position));
        }

        /// <summary>The camera position LOD distances are measured from, as any plain 12-byte
        /// vector struct (e.g. <c>Camera.main.transform.position</c>). Allocates nothing.</summary>
        public void SetCamera<TVector>(TVector position) where TVector : struct
        {
            SetCamera(SinewVec3.From(position));
        }
    }
}
