// Hand-written. `sinew_ragdoll_*`: rigid bones joined by joints, animated or simulated; the
// World and Body calls that make ragdolls and put cloth on them; the descriptors' defaults;
// powered ragdolls (muscles, pins, hit reactions, balance loss) and getting up (src/ffi/getup.rs).
using System;
using System.Runtime.InteropServices;

namespace Sinew
{
    /// <summary>
    /// A ragdoll in a <see cref="World"/>: rigid bones (sphere, capsule or box) joined to their
    /// parents by free, fixed, hinge or swing-twist joints. Make one with
    /// <see cref="World.CreateRagdoll(SinewRagdollSettings, SinewBoneDesc[])"/> from a bone list or with
    /// <see cref="World.CreateHumanoidRagdoll"/> from a humanoid rig's bone positions.
    /// </summary>
    /// <remarks>
    /// <para>While kinematic (<see cref="SetKinematic"/>, or <c>settings.kinematic</c>) its bones
    /// follow <see cref="SetTargets{TVector, TQuaternion}(ReadOnlySpan{TVector}, ReadOnlySpan{TQuaternion})"/>, one
    /// world position and rotation per bone, every frame; made dynamic, they keep the velocity of
    /// that animation. <see cref="ReadPose{TVector, TQuaternion}(Span{TVector}, Span{TQuaternion})"/> gives the
    /// bones back each frame, interpolated like <see cref="Body.ReadPositions{T}(Span{T})"/>.</para>
    /// <para>Vectors, quaternions and matrices are spans or arrays of any plain struct of the C
    /// layout — 12-byte vectors (<c>Vector3</c>), 16-byte quaternions x, y, z, w
    /// (<c>Quaternion</c>), 64-byte column-major matrices (<c>Matrix4x4</c>) — passed with no
    /// copy. Per-bone spans hold exactly <see cref="BoneCount"/> entries (outputs at least that).
    /// Bone indices are <c>int</c>; negative ones are out of range.</para>
    /// <para>No per-frame method allocates managed memory (except when it throws, and once per
    /// struct type to measure it). Disposal follows the rules of <see cref="Body"/>.</para>
    /// </remarks>
    public sealed class Ragdoll : IDisposable
    {
        readonly World world;
        readonly SinewRagdoll handle;
        bool disposed;

        internal Ragdoll(World world, SinewRagdoll handle)
        {
            this.world = world;
            this.handle = handle;
        }

        ~Ragdoll()
        {
            if (!disposed)
            {
                disposed = true;
                world.DestroyOwned(World.Owned.Ragdoll(handle), true);
            }
        }

        /// <summary>The world this ragdoll lives in.</summary>
        public World World
        {
            get { return world; }
        }

        /// <summary>The native handle, for calls the wrapper does not cover.</summary>
        public SinewRagdoll Handle
        {
            get { return handle; }
        }

        /// <summary>True once the ragdoll was disposed, or its world was.</summary>
        public bool IsDisposed
        {
            get { return disposed || world.IsDisposed; }
        }

        /// <summary>Destroys the native ragdoll (bodies attached to it are released). Safe to
        /// call twice and after the world was disposed.</summary>
        public void Dispose()
        {
            if (!disposed)
            {
                disposed = true;
                GC.SuppressFinalize(this);
                world.DestroyOwned(World.Owned.Ragdoll(handle), false);
            }
        }

        /// <summary>The number of bones: the length of every per-bone span.</summary>
        public unsafe int BoneCount
        {
            get
            {
                UIntPtr n;
                SinewException.Check(NativeMethods.sinew_ragdoll_get_bone_count(handle, &n));
                return checked((int)n.ToUInt64());
            }
        }

        // ---- snapshot ----

        /// <summary>Bytes <see cref="SaveState(Span{byte})"/> needs now (the size query of
        /// <c>sinew_ragdoll_save_state</c>).</summary>
        public int StateSize
        {
            get
            {
                return Snapshot.Size(new RagdollState { Handle = handle });
            }
        }

        /// <summary>A snapshot of this ragdoll's dynamic state alone (docs/snapshots.md); <see cref="LoadState"/> restores it, leaving the rest of the world as it is.</summary>
        public byte[] SaveState()
        {
            return Snapshot.Save(new RagdollState { Handle = handle });
        }

        /// <summary>Writes the snapshot into <paramref name="destination"/> and returns its length;
        /// no allocation. An empty span only returns the length needed (as <see cref="StateSize"/>).</summary>
        /// <exception cref="SinewException"><c>SINEW_BUFFER_TOO_SMALL</c> when the span is shorter
        /// than <see cref="StateSize"/> (nothing is written); <c>SINEW_BUSY</c> during an
        /// asynchronous step.</exception>
        public int SaveState(Span<byte> destination)
        {
            return Snapshot.Save(new RagdollState { Handle = handle }, destination);
        }

        /// <summary>Restores a snapshot <see cref="SaveState()"/> wrote.</summary>
        /// <exception cref="SinewException"><c>SINEW_INVALID_ARGUMENT</c>, changing nothing, for a
        /// truncated, corrupted or mismatched snapshot (the message names the difference);
        /// <c>SINEW_BUSY</c> during an asynchronous step.</exception>
        public void LoadState(ReadOnlySpan<byte> snapshot)
        {
            Snapshot.Load(new RagdollState { Handle = handle }, snapshot);
        }

        // ---- kinematic / dynamic ----

        /// <summary>Every bone kinematic (animated by <c>SetTargets</c>) or dynamic (physics).</summary>
        public void SetKinematic(bool kinematic)
        {
            SinewException.Check(NativeMethods.sinew_ragdoll_set_kinematic(handle, kinematic ? 1u : 0u));
        }

        /// <summary>One bone kinematic or dynamic: a partial ragdoll.</summary>
        public void SetBoneKinematic(int bone, bool kinematic)
        {
            SinewException.Check(NativeMethods.sinew_ragdoll_set_bone_kinematic(handle, (uint)bone, kinematic ? 1u : 0u));
        }

        /// <summary>Whether <paramref name="bone"/> is kinematic.</summary>
        public unsafe bool IsBoneKinematic(int bone)
        {
            uint k;
            SinewException.Check(NativeMethods.sinew_ragdoll_is_bone_kinematic(handle, (uint)bone, &k));
            return k != 0;
        }

        // ---- targets and pose ----

        /// <summary>Where the animation puts every bone at this frame: world positions and unit
        /// rotations, one per bone. Kinematic bones move there across the next step.</summary>
        public void SetTargets<TVector, TQuaternion>(ReadOnlySpan<TVector> positions, ReadOnlySpan<TQuaternion> rotations)
            where TVector : struct
            where TQuaternion : struct
        {
            SetTargets(Blit.AsVec3(positions, "positions"), Blit.AsQuat(rotations, "rotations"));
        }

        /// <inheritdoc cref="SetTargets{TVector, TQuaternion}(ReadOnlySpan{TVector}, ReadOnlySpan{TQuaternion})"/>
        public void SetTargets<TVector, TQuaternion>(TVector[] positions, TQuaternion[] rotations)
            where TVector : struct
            where TQuaternion : struct
        {
            SetTargets(Blit.AsVec3(new ReadOnlySpan<TVector>(positions), "positions"), Blit.AsQuat(new ReadOnlySpan<TQuaternion>(rotations), "rotations"));
        }

        unsafe void SetTargets(ReadOnlySpan<SinewVec3> positions, ReadOnlySpan<SinewQuat> rotations)
        {
            fixed (SinewVec3* p = &MemoryMarshal.GetReference(positions))
            fixed (SinewQuat* q = &MemoryMarshal.GetReference(rotations))
            {
                SinewException.Check(NativeMethods.sinew_ragdoll_set_targets(handle, p, Blit.Count(positions.Length), q, Blit.Count(rotations.Length)));
            }
        }

        /// <summary>As <c>SetTargets</c>, from one column-major matrix of scale 1 per bone
        /// (e.g. <c>Matrix4x4.TRS(position, rotation, Vector3.one)</c>).</summary>
        public unsafe void SetTargetMatrices<TMatrix>(ReadOnlySpan<TMatrix> matrices) where TMatrix : struct
        {
            ReadOnlySpan<SinewMat4> m = Blit.AsMat4(matrices, "matrices");
            fixed (SinewMat4* p = &MemoryMarshal.GetReference(m))
            {
                SinewException.Check(NativeMethods.sinew_ragdoll_set_target_matrices(handle, p, Blit.Count(m.Length)));
            }
        }

        /// <inheritdoc cref="SetTargetMatrices{TMatrix}(ReadOnlySpan{TMatrix})"/>
        public void SetTargetMatrices<TMatrix>(TMatrix[] matrices) where TMatrix : struct
        {
            SetTargetMatrices(new ReadOnlySpan<TMatrix>(matrices));
        }

        /// <summary>Teleports every bone; <paramref name="keepVelocity"/> false sets them at rest.</summary>
        public unsafe void SetPose<TVector, TQuaternion>(ReadOnlySpan<TVector> positions, ReadOnlySpan<TQuaternion> rotations, bool keepVelocity)
            where TVector : struct
            where TQuaternion : struct
        {
            ReadOnlySpan<SinewVec3> ps = Blit.AsVec3(positions, "positions");
            ReadOnlySpan<SinewQuat> qs = Blit.AsQuat(rotations, "rotations");
            fixed (SinewVec3* p = &MemoryMarshal.GetReference(ps))
            fixed (SinewQuat* q = &MemoryMarshal.GetReference(qs))
            {
                SinewException.Check(NativeMethods.sinew_ragdoll_set_pose(handle, p, Blit.Count(ps.Length), q, Blit.Count(qs.Length), keepVelocity ? 1u : 0u));
            }
        }

        /// <inheritdoc cref="SetPose{TVector, TQuaternion}(ReadOnlySpan{TVector}, ReadOnlySpan{TQuaternion}, bool)"/>
        public void SetPose<TVector, TQuaternion>(TVector[] positions, TQuaternion[] rotations, bool keepVelocity)
            where TVector : struct
            where TQuaternion : struct
        {
            SetPose(new ReadOnlySpan<TVector>(positions), new ReadOnlySpan<TQuaternion>(rotations), keepVelocity);
        }

        // ---- impulses and forces ----

        /// <summary>An impulse (N·s) at a world point, on the bone whose surface is nearest to it;
        /// returns that bone (chapter section 4's <c>Die</c>).</summary>
        public unsafe int ApplyImpulse<TVector>(TVector point, TVector impulse) where TVector : struct
        {
            uint bone;
            SinewException.Check(NativeMethods.sinew_ragdoll_apply_impulse(handle, SinewVec3.From(point), SinewVec3.From(impulse), &bone));
            return (int)bone;
        }

        /// <summary>An impulse (N·s) at a world point on <paramref name="bone"/>.</summary>
        public void ApplyBoneImpulse<TVector>(int bone, TVector point, TVector impulse) where TVector : struct
        {
            SinewException.Check(NativeMethods.sinew_ragdoll_apply_bone_impulse(handle, (uint)bone, SinewVec3.From(point), SinewVec3.From(impulse)));
        }

        /// <summary><c>impulse·(1 − d/radius)</c> N·s away from <paramref name="centre"/> for each
        /// bone within <paramref name="radius"/> m (d: distance to the bone's surface).</summary>
        public void ApplyExplosion<TVector>(TVector centre, float impulse, float radius) where TVector : struct
        {
            SinewException.Check(NativeMethods.sinew_ragdoll_apply_explosion(handle, SinewVec3.From(centre), impulse, radius));
        }

        /// <summary>A force (N) at a world point on <paramref name="bone"/>, over the next step
        /// (call it every frame to keep pushing).</summary>
        public void AddForce<TVector>(int bone, TVector point, TVector force) where TVector : struct
        {
            SinewException.Check(NativeMethods.sinew_ragdoll_add_force(handle, (uint)bone, SinewVec3.From(point), SinewVec3.From(force)));
        }

        // ---- readback ----

        /// <summary>Every bone's world position and rotation, interpolated between fixed steps.</summary>
        public unsafe void ReadPose<TVector, TQuaternion>(Span<TVector> positions, Span<TQuaternion> rotations)
            where TVector : struct
            where TQuaternion : struct
        {
            Span<SinewVec3> ps = Blit.AsVec3(positions, "positions");
            Span<SinewQuat> qs = Blit.AsQuat(rotations, "rotations");
            fixed (SinewVec3* p = &MemoryMarshal.GetReference(ps))
            fixed (SinewQuat* q = &MemoryMarshal.GetReference(qs))
            {
                SinewException.Check(NativeMethods.sinew_ragdoll_read_pose(handle, p, Blit.Count(ps.Length), q, Blit.Count(qs.Length)));
            }
        }

        /// <inheritdoc cref="ReadPose{TVector, TQuaternion}(Span{TVector}, Span{TQuaternion})"/>
        public void ReadPose<TVector, TQuaternion>(TVector[] positions, TQuaternion[] rotations)
            where TVector : struct
            where TQuaternion : struct
        {
            ReadPose(new Span<TVector>(positions), new Span<TQuaternion>(rotations));
        }

        /// <summary>Every bone's world transform as a column-major matrix (Unity's <c>Matrix4x4</c>).</summary>
        public unsafe void ReadMatrices<TMatrix>(Span<TMatrix> matrices) where TMatrix : struct
        {
            Span<SinewMat4> m = Blit.AsMat4(matrices, "matrices");
            fixed (SinewMat4* p = &MemoryMarshal.GetReference(m))
            {
                SinewException.Check(NativeMethods.sinew_ragdoll_read_matrices(handle, p, Blit.Count(m.Length)));
            }
        }

        /// <inheritdoc cref="ReadMatrices{TMatrix}(Span{TMatrix})"/>
        public void ReadMatrices<TMatrix>(TMatrix[] matrices) where TMatrix : struct
        {
            ReadMatrices(new Span<TMatrix>(matrices));
        }

        /// <summary>Every bone's linear (m/s) and angular (rad/s) velocity.</summary>
        public unsafe void ReadVelocities<TVector>(Span<TVector> linear, Span<TVector> angular) where TVector : struct
        {
            Span<SinewVec3> l = Blit.AsVec3(linear, "linear");
            Span<SinewVec3> a = Blit.AsVec3(angular, "angular");
            fixed (SinewVec3* pl = &MemoryMarshal.GetReference(l))
            fixed (SinewVec3* pa = &MemoryMarshal.GetReference(a))
            {
                SinewException.Check(NativeMethods.sinew_ragdoll_read_velocities(handle, pl, Blit.Count(l.Length), pa, Blit.Count(a.Length)));
            }
        }

        /// <inheritdoc cref="ReadVelocities{TVector}(Span{TVector}, Span{TVector})"/>
        public void ReadVelocities<TVector>(TVector[] linear, TVector[] angular) where TVector : struct
        {
            ReadVelocities(new Span<TVector>(linear), new Span<TVector>(angular));
        }

        // ---- sleep, self-collision ----

        /// <summary>True while the ragdoll sleeps (at rest, not stepped).</summary>
        public unsafe bool IsAsleep
        {
            get
            {
                uint a;
                SinewException.Check(NativeMethods.sinew_ragdoll_is_asleep(handle, &a));
                return a != 0;
            }
        }

        /// <summary>Solve the joints by the direct tree solve (exact at any mass ratio, several
        /// times the cost) instead of one Gauss–Seidel pass, in the fast pipeline. True at creation
        /// when a bone's mass differs from its parent's by more than 4 times.</summary>
        public unsafe bool DirectJointSolve
        {
            get
            {
                uint on;
                SinewException.Check(NativeMethods.sinew_ragdoll_get_direct_joint_solve(handle, &on));
                return on != 0;
            }
            set
            {
                SinewException.Check(NativeMethods.sinew_ragdoll_set_direct_joint_solve(handle, value ? 1u : 0u));
            }
        }

        /// <summary>Wall time (ms) of the ragdoll's solve in the last <c>Step</c> (or
        /// <c>StepEnd</c>) that ran fixed steps; ragdolls that touch share it by bone count; 0
        /// while asleep. For profiling. Allocates nothing.</summary>
        public unsafe double StepTimeMs
        {
            get
            {
                ulong ns;
                SinewException.Check(NativeMethods.sinew_ragdoll_get_step_time_ns(handle, &ns));
                return ns * 1e-6;
            }
        }

        /// <summary>Wakes a sleeping ragdoll.</summary>
        public void Wake()
        {
            SinewException.Check(NativeMethods.sinew_ragdoll_wake(handle));
        }

        /// <summary>Rides the ragdoll in a moving platform, as <see cref="Body.SetAnchor(SinewMat4, float)"/>
        /// does a body (the same rules): every bone is carried by <c>1 − inertia</c> of the
        /// anchor's motion each frame. Allocates nothing.</summary>
        /// <exception cref="SinewException"><c>SINEW_INVALID_ARGUMENT</c> (scale, shear, mirror,
        /// inertia outside [0, 1]), <c>SINEW_NON_FINITE</c>.</exception>
        public unsafe void SetAnchor(SinewMat4 anchor, float inertia)
        {
            SinewException.Check(NativeMethods.sinew_ragdoll_set_anchor(handle, &anchor, inertia));
        }

        /// <summary>As <see cref="SetAnchor(SinewMat4, float)"/>, from any 64-byte column-major matrix
        /// struct (e.g. <c>Matrix4x4.TRS(vehicle.position, vehicle.rotation, Vector3.one)</c>).</summary>
        public void SetAnchor<TMatrix>(TMatrix anchor, float inertia) where TMatrix : struct
        {
            SetAnchor(SinewMat4.From(anchor), inertia);
        }

        /// <summary>Takes the ragdoll out of its anchor: it feels world motion only.</summary>
        public void ClearAnchor()
        {
            SinewException.Check(NativeMethods.sinew_ragdoll_clear_anchor(handle));
        }

        /// <summary>Collision between two different bones of this ragdoll on or off.</summary>
        public void SetBonePairCollision(int a, int b, bool enabled)
        {
            SinewException.Check(NativeMethods.sinew_ragdoll_set_bone_pair_collision(handle, (uint)a, (uint)b, enabled ? 1u : 0u));
        }

        // ---- powered ragdoll: muscles, pins, hit reactions, balance ----

        /// <summary>Muscle strength in [0, 1] of <paramref name="bone"/>'s joint motor: 0 (the
        /// default) limp, 1 turning the joint towards the local rotation implied by the targets
        /// (<c>SetTargets</c>, the animator's pose each frame) at the settings'
        /// <c>muscle_frequency</c>. Wakes the ragdoll.</summary>
        public void SetMuscleStrength(int bone, float strength)
        {
            SinewException.Check(NativeMethods.sinew_ragdoll_set_muscle_strength(handle, (uint)bone, strength));
        }

        /// <summary><see cref="SetMuscleStrength"/> for every bone.</summary>
        public void SetMuscleStrengthAll(float strength)
        {
            SinewException.Check(NativeMethods.sinew_ragdoll_set_muscle_strength_all(handle, strength));
        }

        /// <summary>Pin weight in [0, 1] pulling dynamic <paramref name="bone"/> towards its target
        /// world pose (PuppetMaster's pin weight): 0 (the default) free, 1 following the
        /// animation within millimetres.</summary>
        public void SetPinWeight(int bone, float weight)
        {
            SinewException.Check(NativeMethods.sinew_ragdoll_set_pin_weight(handle, (uint)bone, weight));
        }

        /// <summary><see cref="SetPinWeight"/> for every bone.</summary>
        public void SetPinWeightAll(float weight)
        {
            SinewException.Check(NativeMethods.sinew_ragdoll_set_pin_weight_all(handle, weight));
        }

        /// <summary><paramref name="bone"/>'s muscle strength and pin weight as set and as acting
        /// after hits (<c>hit_loss</c>, recovering over <c>hit_recovery_time</c>).</summary>
        public unsafe SinewDriveState GetDriveState(int bone)
        {
            SinewDriveState st;
            SinewException.Check(NativeMethods.sinew_ragdoll_get_drive_state(handle, (uint)bone, &st));
            return st;
        }

        /// <summary>The events since the last call (e.g. <see cref="RagdollEvents.BalanceLost"/>:
        /// the root left its animated position by more than <c>balance_distance</c> and every
        /// muscle and pin went to 0), and clears them. Poll once a frame.</summary>
        public unsafe RagdollEvents TakeEvents()
        {
            uint e;
            SinewException.Check(NativeMethods.sinew_ragdoll_take_events(handle, &e));
            return (RagdollEvents)e;
        }

        // ---- getting up ----

        /// <summary>Takes the get-up snapshot: every bone where the last fixed step left it. Also
        /// taken by <c>SetKinematic(true)</c>, the moment physics lets go.</summary>
        public void CaptureSnapshot()
        {
            SinewException.Check(NativeMethods.sinew_ragdoll_capture_snapshot(handle));
        }

        /// <summary>The snapshot's bone positions and rotations (each span at least <see cref="BoneCount"/>).</summary>
        public unsafe void ReadSnapshot<TVector, TQuaternion>(Span<TVector> positions, Span<TQuaternion> rotations)
            where TVector : struct
            where TQuaternion : struct
        {
            Span<SinewVec3> ps = Blit.AsVec3(positions, "positions");
            Span<SinewQuat> qs = Blit.AsQuat(rotations, "rotations");
            fixed (SinewVec3* p = &MemoryMarshal.GetReference(ps))
            fixed (SinewQuat* q = &MemoryMarshal.GetReference(qs))
            {
                SinewException.Check(NativeMethods.sinew_ragdoll_read_snapshot(handle, p, Blit.Count(ps.Length), q, Blit.Count(qs.Length)));
            }
        }

        /// <inheritdoc cref="ReadSnapshot{TVector, TQuaternion}(Span{TVector}, Span{TQuaternion})"/>
        public void ReadSnapshot<TVector, TQuaternion>(TVector[] positions, TQuaternion[] rotations)
            where TVector : struct
            where TQuaternion : struct
        {
            ReadSnapshot(new Span<TVector>(positions), new Span<TQuaternion>(rotations));
        }

        /// <summary>The chapter's get-up blend from the snapshot to the animated pose
        /// (<paramref name="animPositions"/>, <paramref name="animRotations"/>: exactly one per
        /// bone) by <paramref name="alpha"/> in [0, 1] — position lerp, rotation slerp — into the
        /// outputs (at least one per bone). At 0 exactly the snapshot, at 1 exactly the animated
        /// pose. The inputs and outputs may be the same spans.</summary>
        public unsafe void BlendFromSnapshot<TVector, TQuaternion>(
            ReadOnlySpan<TVector> animPositions, ReadOnlySpan<TQuaternion> animRotations, float alpha,
            Span<TVector> outPositions, Span<TQuaternion> outRotations)
            where TVector : struct
            where TQuaternion : struct
        {
            ReadOnlySpan<SinewVec3> ap = Blit.AsVec3(animPositions, "animPositions");
            ReadOnlySpan<SinewQuat> aq = Blit.AsQuat(animRotations, "animRotations");
            Span<SinewVec3> op = Blit.AsVec3(outPositions, "outPositions");
            Span<SinewQuat> oq = Blit.AsQuat(outRotations, "outRotations");
            fixed (SinewVec3* pa = &MemoryMarshal.GetReference(ap))
            fixed (SinewQuat* qa = &MemoryMarshal.GetReference(aq))
            fixed (SinewVec3* po = &MemoryMarshal.GetReference(op))
            fixed (SinewQuat* qo = &MemoryMarshal.GetReference(oq))
            {
                SinewException.Check(NativeMethods.sinew_ragdoll_blend_from_snapshot(
                    handle, pa, Blit.Count(ap.Length), qa, Blit.Count(aq.Length), alpha, po, Blit.Count(op.Length), qo, Blit.Count(oq.Length)));
            }
        }

        /// <inheritdoc cref="BlendFromSnapshot{TVector, TQuaternion}(ReadOnlySpan{TVector}, ReadOnlySpan{TQuaternion}, float, Span{TVector}, Span{TQuaternion})"/>
        public void BlendFromSnapshot<TVector, TQuaternion>(TVector[] animPositions, TQuaternion[] animRotations, float alpha, TVector[] outPositions, TQuaternion[] outRotations)
            where TVector : struct
            where TQuaternion : struct
        {
            BlendFromSnapshot(new ReadOnlySpan<TVector>(animPositions), new ReadOnlySpan<TQuaternion>(animRotations), alpha,
                new Span<TVector>(outPositions), new Span<TQuaternion>(outRotations));
        }

        /// <summary>The same blend between any two poses the caller keeps: the four inputs hold
        /// the same number of bones (else <see cref="ArgumentException"/>), the outputs at least
        /// that many. Needs no ragdoll.</summary>
        public static unsafe void PoseBlend<TVector, TQuaternion>(
            ReadOnlySpan<TVector> fromPositions, ReadOnlySpan<TQuaternion> fromRotations,
            ReadOnlySpan<TVector> toPositions, ReadOnlySpan<TQuaternion> toRotations, float alpha,
            Span<TVector> outPositions, Span<TQuaternion> outRotations)
            where TVector : struct
            where TQuaternion : struct
        {
            ReadOnlySpan<SinewVec3> fp = Blit.AsVec3(fromPositions, "fromPositions");
            ReadOnlySpan<SinewQuat> fq = Blit.AsQuat(fromRotations, "fromRotations");
            ReadOnlySpan<SinewVec3> tp = Blit.AsVec3(toPositions, "toPositions");
            ReadOnlySpan<SinewQuat> tq = Blit.AsQuat(toRotations, "toRotations");
            Span<SinewVec3> op = Blit.AsVec3(outPositions, "outPositions");
            Span<SinewQuat> oq = Blit.AsQuat(outRotations, "outRotations");
            int n = fp.Length;
            if (fq.Length != n || tp.Length != n || tq.Length != n)
            {
                // The C call takes one count for all four inputs: a shorter one would be read past its end.
                throw new ArgumentException("fromPositions, fromRotations, toPositions and toRotations must hold the same number of bones (" + n + ", "
                    + fq.Length + ", " + tp.Length + ", " + tq.Length + ")", "toRotations");
            }
            SinewLibrary.EnsureCompatible();
            fixed (SinewVec3* pf = &MemoryMarshal.GetReference(fp))
            fixed (SinewQuat* qf = &MemoryMarshal.GetReference(fq))
            fixed (SinewVec3* pt = &MemoryMarshal.GetReference(tp))
            fixed (SinewQuat* qt = &MemoryMarshal.GetReference(tq))
            fixed (SinewVec3* po = &MemoryMarshal.GetReference(op))
            fixed (SinewQuat* qo = &MemoryMarshal.GetReference(oq))
            {
                SinewException.Check(NativeMethods.sinew_pose_blend(pf, qf, pt, qt, Blit.Count(n), alpha, po, qo, Blit.Count(Math.Min(op.Length, oq.Length))));
            }
        }

        /// <inheritdoc cref="PoseBlend{TVector, TQuaternion}(ReadOnlySpan{TVector}, ReadOnlySpan{TQuaternion}, ReadOnlySpan{TVector}, ReadOnlySpan{TQuaternion}, float, Span{TVector}, Span{TQuaternion})"/>
        public static void PoseBlend<TVector, TQuaternion>(TVector[] fromPositions, TQuaternion[] fromRotations, TVector[] toPositions, TQuaternion[] toRotations,
            float alpha, TVector[] outPositions, TQuaternion[] outRotations)
            where TVector : struct
            where TQuaternion : struct
        {
            PoseBlend(new ReadOnlySpan<TVector>(fromPositions), new ReadOnlySpan<TQuaternion>(fromRotations),
                new ReadOnlySpan<TVector>(toPositions), new ReadOnlySpan<TQuaternion>(toRotations), alpha,
                new Span<TVector>(outPositions), new Span<TQuaternion>(outRotations));
        }

        /// <summary>The alpha of a blend that started <paramref name="time"/> s ago and lasts
        /// <paramref name="blendTime"/> s (at least 0): the chapter's <c>t / blendTime</c> held to
        /// [0, 1] (1 at once for a zero blend time).</summary>
        public static unsafe float BlendAlpha(float time, float blendTime)
        {
            SinewLibrary.EnsureCompatible();
            float a;
            SinewException.Check(NativeMethods.sinew_blend_alpha(time, blendTime, &a));
            return a;
        }

        /// <summary>Which side the ragdoll lies on, which get-up clip to play
        /// (<see cref="SinewGetUpInfo.FromFront"/>) and where the character's root goes.</summary>
        public unsafe SinewGetUpInfo GetUpInfo(SinewGetUpQuery query)
        {
            SinewGetUpInfo info;
            SinewException.Check(NativeMethods.sinew_ragdoll_get_up_info(handle, &query, &info));
            return info;
        }

        /// <summary><see cref="GetUpInfo(SinewGetUpQuery)"/> with <see cref="SinewGetUpQuery.Default"/>
        /// (the humanoid template's pelvis, spine and head; +Y up, bind forward +Z).</summary>
        public SinewGetUpInfo GetUpInfo()
        {
            return GetUpInfo(SinewGetUpQuery.Default);
        }

        /// <summary>Seconds every bone has been slower than the settings' <c>rest_speed</c>.</summary>
        public unsafe float RestTime
        {
            get
            {
                float t;
                SinewException.Check(NativeMethods.sinew_ragdoll_get_rest_time(handle, &t));
                return t;
            }
        }

        /// <summary>True once every bone has stayed slower than <c>rest_speed</c> for
        /// <paramref name="seconds"/> (or the ragdoll sleeps): the moment to start getting up.</summary>
        public unsafe bool IsAtRest(float seconds)
        {
            uint a;
            SinewException.Check(NativeMethods.sinew_ragdoll_is_at_rest(handle, seconds, &a));
            return a != 0;
        }

        // ---- the humanoid template ----

        /// <summary>The humanoid template's bone list for <paramref name="bones"/>
        /// (<see cref="SinewHumanoidBone"/> order), to edit before
        /// <see cref="World.CreateRagdoll(SinewRagdollSettings, SinewBoneDesc[])"/>.</summary>
        public static SinewBoneDesc[] HumanoidBoneDescs(SinewHumanoidBones bones)
        {
            SinewBoneDesc[] descs = new SinewBoneDesc[(int)SinewHumanoidBone.SINEW_HUMANOID_BONE_COUNT];
            HumanoidBoneDescs(bones, descs);
            return descs;
        }

        /// <summary>As <see cref="HumanoidBoneDescs(SinewHumanoidBones)"/>, into a caller buffer of at
        /// least <c>SINEW_HUMANOID_BONE_COUNT</c> entries.</summary>
        public static unsafe void HumanoidBoneDescs(SinewHumanoidBones bones, Span<SinewBoneDesc> destination)
        {
            SinewLibrary.EnsureCompatible();
            fixed (SinewBoneDesc* d = &MemoryMarshal.GetReference(destination))
            {
                SinewException.Check(NativeMethods.sinew_humanoid_bone_descs(&bones, d, Blit.Count(destination.Length)));
            }
        }
    }

    public sealed partial class World
    {
        /// <summary>A ragdoll from a bone list (start each from <see cref="SinewBoneDesc.Default"/>,
        /// parents before children), in its bind pose and at rest.</summary>
        /// <exception cref="SinewException">The library's checks, naming the bone.</exception>
        public unsafe Ragdoll CreateRagdoll(SinewRagdollSettings settings, ReadOnlySpan<SinewBoneDesc> bones)
        {
            SinewRagdoll r;
            fixed (SinewBoneDesc* b = &MemoryMarshal.GetReference(bones))
            {
                SinewException.Check(NativeMethods.sinew_ragdoll_create(handle, &settings, b, Blit.Count(bones.Length), &r));
            }
            return new Ragdoll(this, r);
        }

        /// <inheritdoc cref="CreateRagdoll(SinewRagdollSettings, ReadOnlySpan{SinewBoneDesc})"/>
        public Ragdoll CreateRagdoll(SinewRagdollSettings settings, SinewBoneDesc[] bones)
        {
            return CreateRagdoll(settings, new ReadOnlySpan<SinewBoneDesc>(bones));
        }

        /// <summary>The humanoid template's ragdoll (11 bones, <see cref="SinewHumanoidBone"/> order:
        /// the Ragdoll Wizard's bodies, masses and limits) from a rig's bone positions.</summary>
        public unsafe Ragdoll CreateHumanoidRagdoll(SinewHumanoidBones bones, SinewRagdollSettings settings)
        {
            SinewRagdoll r;
            SinewException.Check(NativeMethods.sinew_ragdoll_create_humanoid(handle, &bones, &settings, &r));
            return new Ragdoll(this, r);
        }

        /// <summary>As <see cref="CreateRagdoll(SinewRagdollSettings, ReadOnlySpan{SinewBoneDesc})"/>,
        /// placed at <paramref name="root"/>: every bone is <c>root × bone</c>, so a list made at the
        /// origin (<see cref="Ragdoll.HumanoidBoneDescs(SinewHumanoidBones)"/>) is created anywhere.
        /// The root is rigid: rotation and translation, column-major, scale 1.</summary>
        /// <exception cref="SinewException"><c>SINEW_INVALID_ARGUMENT</c> (a scale other than 1, shear,
        /// mirroring, a translation beyond ±1e6 m), <c>SINEW_NON_FINITE</c>.</exception>
        public unsafe Ragdoll CreateRagdollAt(SinewRagdollSettings settings, ReadOnlySpan<SinewBoneDesc> bones, SinewMat4 root)
        {
            SinewRagdoll r;
            fixed (SinewBoneDesc* b = &MemoryMarshal.GetReference(bones))
            {
                SinewException.Check(NativeMethods.sinew_ragdoll_create_at(handle, &settings, b, Blit.Count(bones.Length), &root, &r));
            }
            return new Ragdoll(this, r);
        }

        /// <summary>As <see cref="CreateRagdollAt(SinewRagdollSettings, ReadOnlySpan{SinewBoneDesc}, SinewMat4)"/>,
        /// from any 64-byte column-major matrix struct (e.g. Unity's
        /// <c>Matrix4x4.TRS(position, rotation, Vector3.one)</c>).</summary>
        public Ragdoll CreateRagdollAt<TMatrix>(SinewRagdollSettings settings, SinewBoneDesc[] bones, TMatrix root) where TMatrix : struct
        {
            return CreateRagdollAt(settings, new ReadOnlySpan<SinewBoneDesc>(bones), SinewMat4.From(root));
        }

        /// <summary>The humanoid template's ragdoll placed at <paramref name="root"/> (rigid, as
        /// <see cref="CreateRagdollAt(SinewRagdollSettings, ReadOnlySpan{SinewBoneDesc}, SinewMat4)"/>): with
        /// <see cref="SinewHumanoidBones.Default"/> the root is where the character stands and its
        /// +Z the way it faces.</summary>
        public unsafe Ragdoll CreateHumanoidRagdollAt(SinewHumanoidBones bones, SinewRagdollSettings settings, SinewMat4 root)
        {
            SinewRagdoll r;
            SinewException.Check(NativeMethods.sinew_ragdoll_create_humanoid_at(handle, &bones, &settings, &root, &r));
            return new Ragdoll(this, r);
        }

        /// <summary>As <see cref="CreateHumanoidRagdollAt(SinewHumanoidBones, SinewRagdollSettings, SinewMat4)"/>,
        /// from any 64-byte column-major matrix struct (e.g. a spawn point's
        /// <c>Matrix4x4.TRS(transform.position, transform.rotation, Vector3.one)</c>).</summary>
        public Ragdoll CreateHumanoidRagdollAt<TMatrix>(SinewHumanoidBones bones, SinewRagdollSettings settings, TMatrix root) where TMatrix : struct
        {
            return CreateHumanoidRagdollAt(bones, settings, SinewMat4.From(root));
        }
    }

    public abstract partial class Body
    {
        /// <summary>Pins vertices <c>vertices[k]</c> (host vertex indices) to bone <c>bones[k]</c> of
        /// <paramref name="ragdoll"/> (same world) at <c>offsets[k]</c> in the bone's frame: they
        /// follow it inside the step.</summary>
        public unsafe void AttachToRagdoll<TVector>(Ragdoll ragdoll, ReadOnlySpan<int> vertices, ReadOnlySpan<int> bones, ReadOnlySpan<TVector> offsets)
            where TVector : struct
        {
            if (ragdoll == null)
            {
                throw new ArgumentNullException("ragdoll");
            }
            ReadOnlySpan<uint> ps = MemoryMarshal.Cast<int, uint>(vertices);
            ReadOnlySpan<uint> bs = MemoryMarshal.Cast<int, uint>(bones);
            ReadOnlySpan<SinewVec3> os = Blit.AsVec3(offsets, "offsets");
            fixed (uint* p = &MemoryMarshal.GetReference(ps))
            fixed (uint* b = &MemoryMarshal.GetReference(bs))
            fixed (SinewVec3* o = &MemoryMarshal.GetReference(os))
            {
                SinewException.Check(NativeMethods.sinew_body_attach_to_ragdoll(
                    Handle, ragdoll.Handle, p, Blit.Count(ps.Length), b, Blit.Count(bs.Length), o, Blit.Count(os.Length)));
            }
        }

        /// <inheritdoc cref="AttachToRagdoll{TVector}(Ragdoll, ReadOnlySpan{int}, ReadOnlySpan{int}, ReadOnlySpan{TVector})"/>
        public void AttachToRagdoll<TVector>(Ragdoll ragdoll, int[] vertices, int[] bones, TVector[] offsets) where TVector : struct
        {
            AttachToRagdoll(ragdoll, new ReadOnlySpan<int>(vertices), new ReadOnlySpan<int>(bones), new ReadOnlySpan<TVector>(offsets));
        }

        /// <summary>This body and the ragdoll's bones collide, or not. Both ways: the body steps in
        /// the ragdoll's company, in the same substeps, and a contact moves body and bone by their
        /// inverse masses (a jelly landing on a ragdoll pushes it). A body also pinned to the
        /// ragdoll (<see cref="AttachToRagdoll{TVector}(Ragdoll, int[], int[], TVector[])"/>) meets
        /// its bones one way, as colliders.</summary>
        public void SetRagdollCollision(Ragdoll ragdoll, bool enabled)
        {
            if (ragdoll == null)
            {
                throw new ArgumentNullException("ragdoll");
            }
            SinewException.Check(NativeMethods.sinew_body_set_ragdoll_collision(Handle, ragdoll.Handle, enabled ? 1u : 0u));
        }
    }

    public unsafe partial struct SinewBoneDesc
    {
        /// <summary>A root bone: a 1 kg capsule at the origin, free joint (<c>sinew_bone_desc_default</c>).</summary>
        public static SinewBoneDesc Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewBoneDesc d;
                SinewException.Check(NativeMethods.sinew_bone_desc_default(&d));
                return d;
            }
        }

        /// <summary><see cref="shape"/> as an enum: sphere, capsule or box.</summary>
        public SinewShape Shape
        {
            get { return (SinewShape)shape; }
            set { shape = (uint)value; }
        }
    }

    public unsafe partial struct SinewJointDesc
    {
        /// <summary>A free joint with the default limits (<c>sinew_joint_desc_default</c>).</summary>
        public static SinewJointDesc Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewJointDesc d;
                SinewException.Check(NativeMethods.sinew_joint_desc_default(&d));
                return d;
            }
        }

        /// <summary><see cref="kind"/> as the enum.</summary>
        public SinewJointKind Kind
        {
            get { return (SinewJointKind)kind; }
            set { kind = (uint)value; }
        }
    }

    public unsafe partial struct SinewRagdollSettings
    {
        /// <summary>The default ragdoll settings (<c>sinew_ragdoll_settings_default</c>).</summary>
        public static SinewRagdollSettings Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewRagdollSettings s;
                SinewException.Check(NativeMethods.sinew_ragdoll_settings_default(&s));
                return s;
            }
        }

        /// <summary><see cref="kinematic"/> as a bool: the ragdoll starts animated.</summary>
        public bool Kinematic
        {
            get { return kinematic != 0; }
            set { kinematic = value ? 1u : 0u; }
        }
    }

    /// <summary>Which way a ragdoll lies (<see cref="SinewGetUpInfo.Side"/>; the C enum <c>SinewLyingSide</c>).</summary>
    public enum LyingSide : uint
    {
        /// <summary>On its back, the front facing up: get up from the back.</summary>
        FaceUp = SinewLyingSide.SINEW_LYING_FACE_UP,
        /// <summary>On its front: get up from the front (the chapter's <c>GetUpFront</c>).</summary>
        FaceDown = SinewLyingSide.SINEW_LYING_FACE_DOWN,
        /// <summary>On its left side (the left arm on the ground).</summary>
        LeftSide = SinewLyingSide.SINEW_LYING_LEFT_SIDE,
        /// <summary>On its right side.</summary>
        RightSide = SinewLyingSide.SINEW_LYING_RIGHT_SIDE,
    }

    /// <summary>Event bits of <see cref="Ragdoll.TakeEvents"/> (the C enum <c>SinewRagdollEvent</c>).</summary>
    [Flags]
    public enum RagdollEvents : uint
    {
        None = 0,
        /// <summary>A driven ragdoll's root left its animated position by more than
        /// <c>balance_distance</c>: every muscle strength and pin weight was set to 0 (limp).</summary>
        BalanceLost = SinewRagdollEvent.SINEW_RAGDOLL_EVENT_BALANCE_LOST,
    }

    public unsafe partial struct SinewGetUpQuery
    {
        /// <summary>The humanoid template's pelvis, middle spine and head; up +Y, bind forward +Z,
        /// bind up +Y (<c>sinew_get_up_query_default</c>).</summary>
        public static SinewGetUpQuery Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewGetUpQuery q;
                SinewException.Check(NativeMethods.sinew_get_up_query_default(&q));
                return q;
            }
        }
    }

    public partial struct SinewGetUpInfo
    {
        /// <summary><see cref="side"/> as the enum.</summary>
        public LyingSide Side
        {
            get { return (LyingSide)side; }
        }

        /// <summary><see cref="from_front"/> as a bool: play the get-up-from-front clip.</summary>
        public bool FromFront
        {
            get { return from_front != 0; }
        }
    }

    public unsafe partial struct SinewHumanoidBones
    {
        /// <summary>A 1.8 m humanoid standing at the origin facing +Z, 20 kg (<c>sinew_humanoid_bones_default</c>).</summary>
        public static SinewHumanoidBones Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewHumanoidBones h;
                SinewException.Check(NativeMethods.sinew_humanoid_bones_default(&h));
                return h;
            }
        }
    }
}
