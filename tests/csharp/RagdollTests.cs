// Tests of the C# Ragdoll wrapper against the real native library, on Mono (run from
// WrapperTests.cs). The error groups need only the library's checks; the physics and
// no-allocation groups need the rigid-body core (until it lands their calls throw SINEW_PANIC).
using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Sinew.Tests
{
    /// <summary>Laid out as Unity's <c>Quaternion</c>: x, y, z, w.</summary>
    [StructLayout(LayoutKind.Sequential)]
    struct Quat
    {
        public float x, y, z, w;

        public static Quat Identity
        {
            get
            {
                Quat q;
                q.x = q.y = q.z = 0f;
                q.w = 1f;
                return q;
            }
        }
    }

    static class RagdollTests
    {
        const float Frame = 1f / 60f;

        public static void Run()
        {
            Check.Group("ragdolls: defaults and creation", Defaults);
            Check.Group("ragdolls: errors throw SinewException with the native message", Errors);
            Check.Group("ragdolls: disposal, finalisers and stale handles", Disposal);
            Check.Group("ragdolls: physics through the wrapper (needs the rigid-body core)", Physics);
            Check.Group("ragdolls: no allocation per frame (needs the rigid-body core)", NoAllocation);
        }

        static World NewWorld()
        {
            SinewWorldDesc d = SinewWorldDesc.Default;
            d.thread_count = 1;
            return new World(d);
        }

        static SinewBoneDesc[] Chain(Vec3 top, int n)
        {
            var bones = new SinewBoneDesc[n];
            for (int i = 0; i < n; i++)
            {
                SinewBoneDesc b = SinewBoneDesc.Default;
                b.parent = i - 1;
                b.position = new SinewVec3(top.x, top.y - 0.3f * i, top.z);
                b.shape_offset = new SinewVec3(0f, -0.15f, 0f);
                b.joint.Kind = i == 0 ? SinewJointKind.SINEW_JOINT_FREE : i == 1 ? SinewJointKind.SINEW_JOINT_HINGE : SinewJointKind.SINEW_JOINT_SWING_TWIST;
                bones[i] = b;
            }
            return bones;
        }

        static SinewHumanoidBones PlainHumanoid()
        {
            SinewHumanoidBones h = default(SinewHumanoidBones);
            h.pelvis = new SinewVec3(0f, 1f, 0f);
            h.up = new SinewVec3(0f, 1f, 0f);
            h.forward = new SinewVec3(0f, 0f, 1f);
            h.total_mass = 20f;
            return h;
        }

        static void Defaults()
        {
            SinewRagdollSettings s = SinewRagdollSettings.Default;
            Check.That(s.stabilize == 1 && s.self_collision == 1 && !s.Kinematic && s.friction == 0.6f, "SinewRagdollSettings.Default");
            SinewJointDesc j = SinewJointDesc.Default;
            Check.That(j.Kind == SinewJointKind.SINEW_JOINT_FREE && j.hinge_min == -90f && j.swing2 == 30f && j.low_twist == -20f, "SinewJointDesc.Default");
            SinewBoneDesc b = SinewBoneDesc.Default;
            Check.That(b.parent == -1 && b.shape == (uint)SinewShape.SINEW_SHAPE_CAPSULE && b.mass == 1f && b.rotation.w == 1f, "SinewBoneDesc.Default");
            Check.Equal(12, Marshal.SizeOf(typeof(SinewVec3)), "SinewVec3 is 12 bytes");
            Check.Equal(16, Marshal.SizeOf(typeof(SinewQuat)), "SinewQuat is 16 bytes (Unity's Quaternion)");
            Check.Equal(11, (int)SinewHumanoidBone.SINEW_HUMANOID_BONE_COUNT, "the humanoid template has 11 bones");
            using (World w = NewWorld())
            {
                Ragdoll r = w.CreateRagdoll(s, Chain(new Vec3(0f, 2f, 0f), 3));
                Check.Equal(3, r.BoneCount, "CreateRagdoll: 3 bones");
                Check.That(r.World == w && !r.IsDisposed && r.Handle.id != 0, "World, IsDisposed, Handle");
                w.Step(Frame);
                Ragdoll one = w.CreateRagdoll(s, new ReadOnlySpan<SinewBoneDesc>(new[] { b }));
                Check.Equal(1, one.BoneCount, "a ragdoll of one default bone");
            }
        }

        static void Errors()
        {
            using (World w = NewWorld())
            {
                SinewRagdollSettings s = SinewRagdollSettings.Default;
                SinewBoneDesc[] good = Chain(new Vec3(0f, 2f, 0f), 3);
                Ragdoll r = w.CreateRagdoll(s, good);
                Cloth cloth = Cloth.CreateGrid(w, SinewClothGridDesc.Default);

                SinewBoneDesc[] bad = (SinewBoneDesc[])good.Clone();
                bad[1].parent = 2;
                Check.ThrowsSinew("a parent after its child", SinewResult.SINEW_OUT_OF_RANGE, () => w.CreateRagdoll(s, bad), "bone 1: parent");
                bad = (SinewBoneDesc[])good.Clone();
                bad[2].position.y = float.NaN;
                Check.ThrowsSinew("a NaN bind position", SinewResult.SINEW_NON_FINITE, () => w.CreateRagdoll(s, bad), "bone 2");
                bad = (SinewBoneDesc[])good.Clone();
                bad[1].joint.kind = 7;
                Check.ThrowsSinew("an unknown joint kind", SinewResult.SINEW_INVALID_ARGUMENT, () => w.CreateRagdoll(s, bad), "unknown joint kind 7");
                bad = (SinewBoneDesc[])good.Clone();
                bad[2].joint.swing1 = 300f;
                Check.ThrowsSinew("a swing limit beyond 177 degrees", SinewResult.SINEW_OUT_OF_RANGE, () => w.CreateRagdoll(s, bad), "swing1");
                bad = (SinewBoneDesc[])good.Clone();
                bad[0].shape = (uint)SinewShape.SINEW_SHAPE_PLANE;
                Check.ThrowsSinew("a plane bone", SinewResult.SINEW_INVALID_ARGUMENT, () => w.CreateRagdoll(s, bad), "sphere, capsule or box");
                Check.ThrowsSinew("no bones", SinewResult.SINEW_INVALID_ARGUMENT, () => w.CreateRagdoll(s, new SinewBoneDesc[0]), "at least one bone");
                SinewRagdollSettings badSettings = s;
                badSettings.restitution = -1f;
                Check.ThrowsSinew("a negative restitution", SinewResult.SINEW_INVALID_ARGUMENT, () => w.CreateRagdoll(badSettings, good), "restitution");
                SinewHumanoidBones h = PlainHumanoid();
                h.right_elbow.x = float.PositiveInfinity;
                Check.ThrowsSinew("a humanoid with an infinite elbow", SinewResult.SINEW_NON_FINITE, () => w.CreateHumanoidRagdoll(h, s), "right_elbow");
                Check.ThrowsSinew("its bone list too", SinewResult.SINEW_NON_FINITE, () => Ragdoll.HumanoidBoneDescs(h), "right_elbow");
                Check.ThrowsSinew("a bone list buffer too short", SinewResult.SINEW_BUFFER_TOO_SMALL,
                    () => Ragdoll.HumanoidBoneDescs(PlainHumanoid(), new SinewBoneDesc[10]), "the humanoid template has 11 bones");

                var p = new[] { new Vec3(0f, 2f, 0f), new Vec3(0f, 1.7f, 0f), new Vec3(0f, 1.4f, 0f) };
                var q = new[] { Quat.Identity, Quat.Identity, Quat.Identity };
                var m = new[] { Mat4.Translation(0f, 2f, 0f), Mat4.Translation(0f, 1.7f, 0f), Mat4.Translation(0f, 1.4f, 0f) };
                Check.ThrowsSinew("targets for 2 of 3 bones", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => r.SetTargets(new ReadOnlySpan<Vec3>(p, 0, 2), new ReadOnlySpan<Quat>(q)), "positions has 2 entries but the ragdoll has 3 bones");
                Check.ThrowsSinew("matrices for 1 of 3 bones", SinewResult.SINEW_INVALID_ARGUMENT, () => r.SetTargetMatrices(new ReadOnlySpan<Mat4>(m, 0, 1)), "matrices has 1 entries");
                Check.ThrowsSinew("a pose without rotations", SinewResult.SINEW_INVALID_ARGUMENT, () => r.SetPose(p, new Quat[0], false), "rotations has 0 entries");
                p[2].z = float.NaN;
                Check.ThrowsSinew("a NaN target", SinewResult.SINEW_NON_FINITE, () => r.SetTargets(p, q), "positions[2]");
                p[2].z = 0f;
                q[0].w = 0.2f;
                Check.ThrowsSinew("a rotation that is not unit", SinewResult.SINEW_INVALID_ARGUMENT, () => r.SetPose(p, q, true), "rotations[0] is not a unit quaternion");
                q[0].w = 1f;
                m[1].m00 = m[1].m11 = m[1].m22 = 2f;
                Check.ThrowsSinew("a scaled bone matrix", SinewResult.SINEW_INVALID_ARGUMENT, () => r.SetTargetMatrices(m), "matrices[1] has scale 2");
                Check.ThrowsSinew("pose into 2 positions", SinewResult.SINEW_BUFFER_TOO_SMALL, () => r.ReadPose(new Vec3[2], new Quat[3]), "holds 2 elements but the ragdoll has 3 bones");
                Check.ThrowsSinew("matrices into none", SinewResult.SINEW_BUFFER_TOO_SMALL, () => r.ReadMatrices(new Mat4[0]));
                Check.ThrowsSinew("velocities into 1", SinewResult.SINEW_BUFFER_TOO_SMALL, () => r.ReadVelocities(new Vec3[3], new Vec3[1]), "out_angular");
                Check.Throws<ArgumentException>("a quaternion struct of the wrong size", () => r.SetTargets(p, new Vec3[3]));
                Check.ThrowsSinew("bone 3 of 3", SinewResult.SINEW_OUT_OF_RANGE, () => r.SetBoneKinematic(3, true), "bone 3 is out of range: the ragdoll has 3 bones");
                Check.ThrowsSinew("bone -1", SinewResult.SINEW_OUT_OF_RANGE, () => r.IsBoneKinematic(-1), "out of range");
                Check.ThrowsSinew("an impulse on bone 5", SinewResult.SINEW_OUT_OF_RANGE, () => r.ApplyBoneImpulse(5, new Vec3(0f, 1f, 0f), new Vec3(1f, 0f, 0f)));
                Check.ThrowsSinew("a force on bone 3", SinewResult.SINEW_OUT_OF_RANGE, () => r.AddForce(3, new Vec3(0f, 1f, 0f), new Vec3(1f, 0f, 0f)));
                Check.ThrowsSinew("a pair with bone 4", SinewResult.SINEW_OUT_OF_RANGE, () => r.SetBonePairCollision(4, 0, false));
                Check.ThrowsSinew("a bone paired with itself", SinewResult.SINEW_INVALID_ARGUMENT, () => r.SetBonePairCollision(2, 2, false), "itself");
                Check.ThrowsSinew("a NaN hit point", SinewResult.SINEW_NON_FINITE, () => r.ApplyImpulse(new Vec3(float.NaN, 0f, 0f), new Vec3(1f, 0f, 0f)), "point");
                Check.ThrowsSinew("an absurd impulse", SinewResult.SINEW_INVALID_ARGUMENT, () => r.ApplyImpulse(new Vec3(0f, 1f, 0f), new Vec3(0f, 0f, 1e9f)), "impulse");
                Check.ThrowsSinew("an explosion of radius 0", SinewResult.SINEW_INVALID_ARGUMENT, () => r.ApplyExplosion(new Vec3(0f, 1f, 0f), 10f, 0f), "radius");
                Check.ThrowsSinew("an infinite force", SinewResult.SINEW_NON_FINITE, () => r.AddForce(0, new Vec3(0f, 1f, 0f), new Vec3(0f, float.PositiveInfinity, 0f)), "force");
                Check.ThrowsSinew("pins with too few bones", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => cloth.AttachToRagdoll(r, new[] { 0, 1 }, new[] { 0 }, new[] { new Vec3(), new Vec3() }), "one entry per pin");
                Check.ThrowsSinew("a pin on bone 3", SinewResult.SINEW_OUT_OF_RANGE,
                    () => cloth.AttachToRagdoll(r, new[] { 0 }, new[] { 3 }, new[] { new Vec3() }), "bones[0] = bone 3");
                Check.ThrowsSinew("a pin of vertex 100000", SinewResult.SINEW_OUT_OF_RANGE,
                    () => cloth.AttachToRagdoll(r, new[] { 100000 }, new[] { 0 }, new[] { new Vec3() }), "vertices[0] = 100000");
                Check.Throws<ArgumentNullException>("AttachToRagdoll(null)", () => cloth.AttachToRagdoll<Vec3>(null, new int[0], new int[0], new Vec3[0]));
                Check.Throws<ArgumentNullException>("SetRagdollCollision(null)", () => cloth.SetRagdollCollision(null, true));
                using (World other = NewWorld())
                {
                    Ragdoll foreign = other.CreateRagdoll(s, Chain(new Vec3(0f, 1f, 0f), 2));
                    Check.ThrowsSinew("a ragdoll of another world", SinewResult.SINEW_INVALID_ARGUMENT, () => cloth.SetRagdollCollision(foreign, true), "different worlds");
                }
                w.StepBegin(Frame);
                Check.ThrowsSinew("BoneCount during an async step", SinewResult.SINEW_BUSY, () => { int n = r.BoneCount; });
                w.StepEnd();
                w.Step(Frame);
                Check.Equal(3, r.BoneCount, "the ragdoll is unchanged and the world steps");
            }
        }

        static void Disposal()
        {
            World w = NewWorld();
            SinewRagdollSettings s = SinewRagdollSettings.Default;
            Ragdoll r = w.CreateRagdoll(s, Chain(new Vec3(0f, 2f, 0f), 2));
            SinewRagdoll handle = r.Handle;
            r.Dispose();
            r.Dispose();
            Check.That(r.IsDisposed, "Dispose twice");
            Check.ThrowsSinew("a disposed ragdoll", SinewResult.SINEW_INVALID_HANDLE, () => { int n = r.BoneCount; }, "ragdoll handle");
            Check.ThrowsSinew("a disposed ragdoll's wake", SinewResult.SINEW_INVALID_HANDLE, () => r.Wake());
            Check.Equal(SinewResult.SINEW_INVALID_HANDLE, NativeMethods.sinew_ragdoll_destroy(handle), "the native ragdoll is gone");
            // Disposed during an asynchronous step: destroyed at StepEnd.
            Ragdoll late = w.CreateRagdoll(s, Chain(new Vec3(1f, 2f, 0f), 2));
            w.StepBegin(Frame);
            late.Dispose();
            Check.Equal(1, w.PendingDestroyCount, "disposed while busy: queued");
            w.StepEnd();
            Check.Equal(0, w.PendingDestroyCount, "destroyed at StepEnd");
            // Finalised while the world lives: queued, destroyed by the next Step.
            WeakReference dropped = WrapperTests.OnOtherThread(() => new WeakReference(w.CreateRagdoll(s, Chain(new Vec3(2f, 2f, 0f), 2)), true));
            Check.That(WrapperTests.Collect(dropped), "an unreferenced ragdoll is finalised");
            Check.Equal(1, w.PendingDestroyCount, "a finalised ragdoll is queued for its world (no native call from the finaliser)");
            w.Step(Frame);
            Check.Equal(0, w.PendingDestroyCount, "and destroyed by Step");
            Ragdoll orphan = w.CreateRagdoll(s, Chain(new Vec3(0f, 1f, 0f), 2));
            w.Dispose();
            Check.That(orphan.IsDisposed, "a ragdoll is disposed with its world");
            orphan.Dispose();
            Check.ThrowsSinew("a ragdoll of a disposed world", SinewResult.SINEW_INVALID_HANDLE, () => orphan.SetKinematic(true));
        }

        static SinewRagdollSettings Undamped()
        {
            SinewRagdollSettings s = SinewRagdollSettings.Default;
            s.linear_damping = 0f;
            s.angular_damping = 0f;
            s.sleep_threshold = 0f;
            return s;
        }

        static Ragdoll Ball(World w, Vec3 at, float mass, bool kinematic)
        {
            SinewRagdollSettings s = Undamped();
            s.Kinematic = kinematic;
            SinewBoneDesc b = SinewBoneDesc.Default;
            b.shape = (uint)SinewShape.SINEW_SHAPE_SPHERE;
            b.radius = 0.1f;
            b.mass = mass;
            b.position = SinewVec3.From(at);
            return w.CreateRagdoll(s, new[] { b });
        }

        static void Physics()
        {
            using (World w = NewWorld())
            {
                Ragdoll ball = Ball(w, new Vec3(0f, 10f, 0f), 2f, false);
                for (int i = 0; i < 30; i++)
                {
                    w.Step(Frame);
                }
                var pos = new Vec3[1];
                var rot = new Quat[1];
                var lin = new Vec3[1];
                var ang = new Vec3[1];
                ball.ReadPose(pos, rot);
                float t = 30f * Frame, fall = 0.5f * 9.81f * t * t;
                Check.That(Math.Abs(10f - pos[0].y - fall) < 0.01f * fall, "free fall: 1/2 g t^2 within 1 %", "fell " + (10f - pos[0].y) + ", expected " + fall);

                w.SetGravity(0f, 0f, 0f);
                ball.SetPose(new[] { new Vec3(0f, 1f, 0f) }, new[] { Quat.Identity }, false);
                ball.ApplyBoneImpulse(0, new Vec3(0f, 1f, 0f), new Vec3(1f, 0f, 0f));
                w.Step(Frame);
                ball.ReadVelocities(lin, ang);
                Check.That(Math.Abs(lin[0].x - 0.5f) < 1e-4f, "1 N s on 2 kg gives 0.5 m/s", "v = " + lin[0]);

                ball.SetKinematic(true);
                Check.That(ball.IsBoneKinematic(0), "kinematic");
                var target = new Vec3[1];
                for (int i = 1; i <= 20; i++)
                {
                    target[0] = new Vec3(0.05f * i, 1f, 0f);
                    ball.SetTargets(target, rot);
                    w.Step(Frame);
                }
                ball.ReadPose(pos, rot);
                Check.That(Math.Abs(pos[0].x - 1f) < 1e-4f, "a kinematic bone is at its target", "x = " + pos[0].x);
                ball.SetBoneKinematic(0, false);
                w.Step(Frame);
                ball.ReadVelocities(lin, ang);
                Check.That(Math.Abs(lin[0].x - 3f) < 0.03f, "released, it keeps the animation's 3 m/s", "v = " + lin[0]);
                var mats = new Mat4[1];
                ball.ReadMatrices(mats);
                ball.ReadPose(pos, rot);
                Check.That(Math.Abs(mats[0].m03 - pos[0].x) < 1e-5f && mats[0].m33 == 1f, "matrices agree with positions");

                SinewHumanoidBones h = SinewHumanoidBones.Default;
                w.SetGravity(0f, -9.81f, 0f);
                Ragdoll hum = w.CreateHumanoidRagdoll(h, SinewRagdollSettings.Default);
                Check.Equal(11, hum.BoneCount, "the humanoid template: 11 bones");
                SinewBoneDesc[] descs = Ragdoll.HumanoidBoneDescs(h);
                Check.That(descs[(int)SinewHumanoidBone.SINEW_HUMANOID_PELVIS].parent == -1, "its list starts at the pelvis");
                descs[(int)SinewHumanoidBone.SINEW_HUMANOID_HEAD].mass = 3f;
                Ragdoll edited = w.CreateRagdoll(SinewRagdollSettings.Default, descs);
                int hit = edited.ApplyImpulse(SinewVec3.From(h.head), new SinewVec3(0f, 0f, -5f));
                Check.Equal((int)SinewHumanoidBone.SINEW_HUMANOID_HEAD, hit, "a hit at the head hits the head");
                edited.ApplyExplosion(new Vec3(0f, 1f, 1f), 5f, 2f);
                edited.AddForce(0, SinewVec3.From(h.pelvis), new SinewVec3(0f, 100f, 0f));
                edited.SetBonePairCollision(1, 3, false);
                edited.Wake();
                Check.That(!edited.IsAsleep, "awake after Wake");
                SinewClothGridDesc gd = SinewClothGridDesc.Default;
                gd.pin_mode = (uint)SinewPinMode.SINEW_PIN_NONE;
                Cloth cape = Cloth.CreateGrid(w, gd);
                int spine = (int)SinewHumanoidBone.SINEW_HUMANOID_MIDDLE_SPINE;
                cape.AttachToRagdoll(hum, new[] { 0, 1 }, new[] { spine, spine }, new[] { new Vec3(-0.1f, 0f, -0.2f), new Vec3(0.1f, 0f, -0.2f) });
                cape.SetRagdollCollision(hum, true);
                var hp = new Vec3[11];
                var hq = new Quat[11];
                for (int i = 0; i < 30; i++)
                {
                    w.Step(Frame);
                }
                hum.ReadPose(hp, hq);
                Check.That(hp[0].y < h.pelvis.y - 0.1f, "the humanoid falls", "pelvis at " + hp[0]);
            }
        }

        static void NoAllocation()
        {
            using (World w = NewWorld())
            {
                SinewRagdollSettings s = SinewRagdollSettings.Default;
                s.Kinematic = true;
                Ragdoll r = w.CreateRagdoll(s, Chain(new Vec3(0f, 2f, 0f), 3));
                var p = new Vec3[3];
                var q = new[] { Quat.Identity, Quat.Identity, Quat.Identity };
                var m = new Mat4[3];
                var lin = new Vec3[3];
                var ang = new Vec3[3];
                AnimatedFrame(w, r, 0, p, q, m, lin, ang);
                long before = GC.GetAllocatedBytesForCurrentThread();
                for (int i = 1; i <= 100; i++)
                {
                    AnimatedFrame(w, r, i, p, q, m, lin, ang);
                }
                long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
                Check.Equal(0L, allocated, "100 frames of SetTargets, SetTargetMatrices, ReadPose, ReadMatrices, ReadVelocities, BoneCount, IsAsleep, Step allocate 0 bytes");
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static void AnimatedFrame(World w, Ragdoll r, int frame, Vec3[] p, Quat[] q, Mat4[] m, Vec3[] lin, Vec3[] ang)
        {
            for (int i = 0; i < 3; i++)
            {
                p[i] = new Vec3(0.01f * frame, 2f - 0.3f * i, 0f);
                m[i] = Mat4.Translation(0.01f * frame, 2f - 0.3f * i, 0f);
            }
            if ((frame & 1) == 0)
            {
                r.SetTargets(p, q);
            }
            else
            {
                r.SetTargetMatrices(new ReadOnlySpan<Mat4>(m));
            }
            w.Step(Frame);
            r.ReadPose(new Span<Vec3>(p), new Span<Quat>(q));
            r.ReadMatrices(m);
            r.ReadVelocities(lin, ang);
            if (r.BoneCount != 3 || r.IsAsleep)
            {
                throw new InvalidOperationException("unexpected state");
            }
        }
    }
}
