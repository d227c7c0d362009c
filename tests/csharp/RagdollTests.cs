// Tests of the C# Ragdoll wrapper against the real native library, on Mono (run from
// WrapperTests.cs). The error groups need only the library's checks; the physics and
// no-allocation groups need the rigid-body core (until it lands their calls throw SINEW_PANIC).
// The powered and get-up groups (ABI 7): every call, its errors, the blend's exact endpoints,
// face up / face down after a drop onto a plane, pins following an animation within 5 mm, the
// balance-loss event, and no allocation in the per-frame calls.
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
        const int Humanoid = (int)SinewHumanoidBone.SINEW_HUMANOID_BONE_COUNT;
        const int Pelvis = (int)SinewHumanoidBone.SINEW_HUMANOID_PELVIS;

        public static void Run()
        {
            Check.Group("ragdolls: defaults and creation", Defaults);
            Check.Group("ragdolls: errors throw SinewException with the native message", Errors);
            Check.Group("ragdolls: disposal, finalisers and stale handles", Disposal);
            Check.Group("ragdolls: physics through the wrapper (needs the rigid-body core)", Physics);
            Check.Group("ragdolls: no allocation per frame (needs the rigid-body core)", NoAllocation);
            Check.Group("powered ragdolls: every call through the wrapper", PoweredCalls);
            Check.Group("powered ragdolls and get-up: errors (bad bone, values out of range, wrong lengths)", PoweredErrors);
            Check.Group("get-up: the blend's endpoints are exact (alpha 0 = snapshot, 1 = animated, bit for bit)", BlendEndpoints);
            Check.Group("get-up: a humanoid dropped on its back lies face up, on its front face down", FaceUpFaceDown);
            Check.Group("powered ragdolls: full pin weight follows the animated targets within 5 mm", PinnedFollows);
            Check.Group("powered ragdolls: a big pelvis impulse loses the balance (event, limp)", BalanceLoss);
            Check.Group("powered ragdolls and get-up: no allocation per frame", PoweredNoAllocation);
            Check.Group("ragdolls in company: a jelly landing on a ball ragdoll pushes it (two-way contact)", JellyPushesRagdoll);
        }

        /// <summary>How far (m) a ball ragdoll lying on the ground moves in 1 s when a jelly
        /// lands on its side, with collision between them on or off.</summary>
        static float JellyOnBall(bool collide)
        {
            using (World w = NewWorld())
            {
                Collider.Plane(w);
                Ragdoll ball = Ball(w, new Vec3(0f, 0.1f, 0f), 1f, false);
                SinewSoftLatticeDesc d = SinewSoftLatticeDesc.Default;
                d.origin = new SinewVec3(0.12f, 0.45f, 0f);
                SoftBody jelly = w.CreateSoftLattice(d);
                jelly.SetRagdollCollision(ball, collide);
                for (int i = 0; i < 60; i++)
                {
                    w.Step(Frame);
                }
                var pos = new Vec3[1];
                var rot = new Quat[1];
                ball.ReadPose(pos, rot);
                return (float)Math.Sqrt(pos[0].x * pos[0].x + pos[0].z * pos[0].z);
            }
        }

        static void JellyPushesRagdoll()
        {
            SinewWorldDesc d = SinewWorldDesc.Default;
            Check.Equal((uint)SinewRigidSolver.SINEW_RIGID_FAST, d.rigid_solver, "worlds solve ragdolls by the fast pipeline by default");
            d.thread_count = 1;
            d.rigid_solver = (uint)SinewRigidSolver.SINEW_RIGID_PRECISE;
            using (World w = new World(d))
            {
                Ragdoll ball = Ball(w, new Vec3(0f, 1f, 0f), 1f, false);
                Check.That(!ball.DirectJointSolve, "one bone: no direct solve by default");
                ball.DirectJointSolve = true;
                Check.That(ball.DirectJointSolve, "DirectJointSolve set then get round-trips");
                w.Step(Frame);
            }
            float with = JellyOnBall(true), without = JellyOnBall(false);
            Check.That(with > 0.01f, "with collision the jelly pushes the ball", "moved " + with + " m");
            Check.That(without < 1e-5f, "without it the ball is not touched", "moved " + without + " m");
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
                Check.ThrowsSinew("a swing limit beyond 177 degrees", SinewResult.SINEW_INVALID_ARGUMENT, () => w.CreateRagdoll(s, bad), "swing1");
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

                // Created at a root: a spawn point 3 m along x, turned 90 degrees about y
                // (column-major: x -> -z, z -> x). Every bone is root x the bone at the origin.
                Mat4 root = Mat4.Translation(3f, 0f, 1f);
                root.m00 = 0f;
                root.m20 = -1f;
                root.m02 = 1f;
                root.m22 = 0f;
                Ragdoll atOrigin = w.CreateHumanoidRagdoll(h, SinewRagdollSettings.Default);
                Ragdoll placed = w.CreateHumanoidRagdollAt(h, SinewRagdollSettings.Default, root);
                Ragdoll placedList = w.CreateRagdollAt(SinewRagdollSettings.Default, Ragdoll.HumanoidBoneDescs(h), root);
                var op = new Vec3[11];
                var pp = new Vec3[11];
                var lp = new Vec3[11];
                atOrigin.ReadPose(op, hq);
                placed.ReadPose(pp, hq);
                placedList.ReadPose(lp, hq);
                float worst = 0f;
                for (int i = 0; i < 11; i++)
                {
                    float wx = op[i].z + 3f, wy = op[i].y, wz = -op[i].x + 1f;
                    foreach (Vec3 got in new[] { pp[i], lp[i] })
                    {
                        float dx = got.x - wx, dy = got.y - wy, dz = got.z - wz;
                        worst = Math.Max(worst, (float)Math.Sqrt(dx * dx + dy * dy + dz * dz));
                    }
                }
                Check.That(worst < 1e-5f, "CreateHumanoidRagdollAt and CreateRagdollAt: every bone is root x the bone at the origin", "worst " + worst + " m");
                Mat4 scaled = root;
                scaled.m11 = 2f;
                Check.ThrowsSinew("a scaled root", SinewResult.SINEW_INVALID_ARGUMENT, () => w.CreateHumanoidRagdollAt(h, SinewRagdollSettings.Default, scaled), "scale");
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
                Check.Equal(0L, allocated, "100 frames of SetTargets, SetTargetMatrices, ReadPose, ReadMatrices, ReadVelocities, BoneCount, IsAsleep, StepTimeMs, Step allocate 0 bytes");
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
            if (r.StepTimeMs < 0.0)
            {
                throw new Exception("a negative step time");
            }
            r.ReadPose(new Span<Vec3>(p), new Span<Quat>(q));
            r.ReadMatrices(m);
            r.ReadVelocities(lin, ang);
            if (r.BoneCount != 3 || r.IsAsleep)
            {
                throw new InvalidOperationException("unexpected state");
            }
        }

        // ---- powered ragdolls and getting up ----

        static Quat Q(float x, float y, float z, float w)
        {
            Quat q;
            q.x = x;
            q.y = y;
            q.z = z;
            q.w = w;
            return q;
        }

        static Quat Mul(Quat a, Quat b)
        {
            return Q(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
        }

        static Vec3 Rotate(Quat q, Vec3 v)
        {
            // v + 2 w (u × v) + 2 u × (u × v)
            float tx = 2f * (q.y * v.z - q.z * v.y), ty = 2f * (q.z * v.x - q.x * v.z), tz = 2f * (q.x * v.y - q.y * v.x);
            return new Vec3(v.x + q.w * tx + (q.y * tz - q.z * ty), v.y + q.w * ty + (q.z * tx - q.x * tz), v.z + q.w * tz + (q.x * ty - q.y * tx));
        }

        static float Distance(Vec3 a, Vec3 b)
        {
            float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
            return (float)Math.Sqrt(dx * dx + dy * dy + dz * dz);
        }

        static unsafe bool SameBits(float a, float b)
        {
            return *(int*)&a == *(int*)&b;
        }

        static bool SameBits(Vec3 a, Vec3 b)
        {
            return SameBits(a.x, b.x) && SameBits(a.y, b.y) && SameBits(a.z, b.z);
        }

        static bool SameBits(Quat a, Quat b)
        {
            return SameBits(a.x, b.x) && SameBits(a.y, b.y) && SameBits(a.z, b.z) && SameBits(a.w, b.w);
        }

        /// <summary>The default 1.8 m humanoid (standing at the origin facing +Z) in a world with a
        /// ground plane at y = 0; its bind pose into <paramref name="p"/>, <paramref name="q"/>.</summary>
        static Ragdoll HumanoidOnGround(World w, SinewRagdollSettings s, Vec3[] p, Quat[] q)
        {
            Collider.Plane(w);
            Ragdoll r = w.CreateHumanoidRagdoll(SinewHumanoidBones.Default, s);
            r.ReadPose(p, q);
            return r;
        }

        static void PoweredCalls()
        {
            SinewRagdollSettings s = SinewRagdollSettings.Default;
            Check.That(s.muscle_frequency == 4f && s.muscle_damping_ratio == 1f && s.muscle_max_torque == 400f, "settings: muscle 4 Hz, ratio 1, 400 N m");
            Check.That(s.pin_frequency == 20f && s.pin_damping_ratio == 1f, "settings: pin 20 Hz, ratio 1");
            Check.That(s.hit_strength_loss == 0.8f && s.hit_neighbour_falloff == 0.5f && s.hit_full_impulse == 20f && s.hit_recovery_time == 1.5f,
                "settings: hit loss 0.8, falloff 0.5, full at 20 N s, recovers in 1.5 s");
            Check.That(s.balance_distance == 0.4f && s.rest_speed == 0.05f, "settings: balance 0.4 m, rest speed 0.05 m/s");
            SinewGetUpQuery gq = SinewGetUpQuery.Default;
            Check.That(gq.pelvis == (uint)SinewHumanoidBone.SINEW_HUMANOID_PELVIS && gq.chest == (uint)SinewHumanoidBone.SINEW_HUMANOID_MIDDLE_SPINE
                && gq.head == (uint)SinewHumanoidBone.SINEW_HUMANOID_HEAD, "SinewGetUpQuery.Default: pelvis, middle spine, head");
            Check.That(gq.up.y == 1f && gq.bind_forward.z == 1f && gq.bind_up.y == 1f, "SinewGetUpQuery.Default: up +Y, bind forward +Z, bind up +Y");
            Check.Equal(1u, (uint)LyingSide.FaceUp, "LyingSide.FaceUp = SINEW_LYING_FACE_UP");
            Check.Equal(4u, (uint)LyingSide.RightSide, "LyingSide.RightSide = SINEW_LYING_RIGHT_SIDE");
            Check.Equal(1u, (uint)RagdollEvents.BalanceLost, "RagdollEvents.BalanceLost is bit 1");
            Check.Equal(0.25f, Ragdoll.BlendAlpha(0.5f, 2f), "BlendAlpha(0.5, 2) = 0.25");
            Check.Equal(1f, Ragdoll.BlendAlpha(3f, 2f), "BlendAlpha past the blend time = 1");
            Check.Equal(1f, Ragdoll.BlendAlpha(0f, 0f), "BlendAlpha of a zero blend time = 1");

            using (World w = NewWorld())
            {
                var p = new Vec3[Humanoid];
                var q = new Quat[Humanoid];
                Ragdoll r = HumanoidOnGround(w, s, p, q);
                SinewDriveState d = r.GetDriveState(3);
                Check.That(d.muscle_strength == 0f && d.pin_weight == 0f && d.hit_loss == 0f, "GetDriveState: limp and unhit at first");
                r.SetMuscleStrength(3, 0.5f);
                d = r.GetDriveState(3);
                Check.That(d.muscle_strength == 0.5f && d.effective_strength == 0.5f && r.GetDriveState(4).muscle_strength == 0f,
                    "SetMuscleStrength(3, 0.5): bone 3 only, acting in full");
                r.SetMuscleStrengthAll(0.75f);
                Check.That(r.GetDriveState(0).muscle_strength == 0.75f && r.GetDriveState(10).muscle_strength == 0.75f, "SetMuscleStrengthAll(0.75)");
                r.SetPinWeight(7, 0.25f);
                Check.That(r.GetDriveState(7).pin_weight == 0.25f && r.GetDriveState(6).pin_weight == 0f, "SetPinWeight(7, 0.25): bone 7 only");
                r.SetPinWeightAll(1f);
                Check.That(r.GetDriveState(0).pin_weight == 1f && r.GetDriveState(10).effective_pin_weight == 1f, "SetPinWeightAll(1)");
                Check.Equal(RagdollEvents.None, r.TakeEvents(), "TakeEvents: none yet");
                r.SetTargets(p, q);
                for (int i = 0; i < 10; i++)
                {
                    w.Step(Frame);
                }
                r.ApplyBoneImpulse(Pelvis, p[Pelvis], new Vec3(0f, 0f, 10f));
                w.Step(Frame);
                d = r.GetDriveState(Pelvis);
                Check.That(d.hit_loss > 0.3f && d.hit_loss <= 0.4f + 1e-4f && Math.Abs(d.effective_pin_weight - (1f - d.hit_loss)) < 1e-5f,
                    "a 10 N s hit takes 0.8 * 10/20 of the pelvis's pin weight, recovering", "hit_loss " + d.hit_loss + ", effective pin " + d.effective_pin_weight);
                Check.That(r.GetDriveState(1).hit_loss > 0f && r.GetDriveState(1).hit_loss < d.hit_loss, "its neighbour loses less");
                r.SetMuscleStrengthAll(0f);
                r.SetPinWeightAll(0f);
                Check.That(r.RestTime == 0f && !r.IsAtRest(0.5f), "RestTime 0, not at rest while standing up and falling");
                for (int i = 0; i < 300 && !r.IsAtRest(0.5f); i++)
                {
                    w.Step(Frame);
                }
                Check.That(r.IsAtRest(0.5f) && (r.RestTime >= 0.5f || r.IsAsleep), "fallen, it comes to rest (IsAtRest(0.5))", "rest time " + r.RestTime);
                r.CaptureSnapshot();
                var sp = new Vec3[Humanoid];
                var sq = new Quat[Humanoid];
                var rp = new Vec3[Humanoid];
                var rq = new Quat[Humanoid];
                r.ReadSnapshot(sp, sq);
                r.ReadPose(rp, rq);
                float worst = 0f;
                for (int i = 0; i < Humanoid; i++)
                {
                    worst = Math.Max(worst, Distance(sp[i], rp[i]));
                }
                Check.That(worst < 1e-4f, "CaptureSnapshot + ReadSnapshot: the bones where they lie", "off by " + worst + " m");
                SinewGetUpInfo info = r.GetUpInfo();
                Check.That(info.Side >= LyingSide.FaceUp && info.Side <= LyingSide.RightSide && info.FromFront == (info.from_front != 0), "GetUpInfo(): a side");
                Check.That(Math.Abs(info.root_position.y) < 0.05f, "GetUpInfo(): the root on the ground", "root " + info.root_position);
                SinewGetUpInfo same = r.GetUpInfo(SinewGetUpQuery.Default);
                Check.That(same.side == info.side && same.root_position.x == info.root_position.x, "GetUpInfo(Default) = GetUpInfo()");
                // PoseBlend: the free blend between two poses the caller keeps.
                var op = new Vec3[Humanoid];
                var oq = new Quat[Humanoid];
                Ragdoll.PoseBlend(sp, sq, p, q, 0f, op, oq);
                Check.That(SameBits(op[5], sp[5]) && SameBits(oq[5], sq[5]), "PoseBlend at 0 is the first pose");
                Ragdoll.PoseBlend(new ReadOnlySpan<Vec3>(sp), new ReadOnlySpan<Quat>(sq), new ReadOnlySpan<Vec3>(p), new ReadOnlySpan<Quat>(q), 0.5f,
                    new Span<Vec3>(op), new Span<Quat>(oq));
                Check.That(Math.Abs(op[2].y - 0.5f * (sp[2].y + p[2].y)) < 1e-5f, "PoseBlend at 0.5: positions halfway", op[2] + " between " + sp[2] + " and " + p[2]);
            }
        }

        static void PoweredErrors()
        {
            using (World w = NewWorld())
            {
                var p = new Vec3[Humanoid];
                var q = new Quat[Humanoid];
                Ragdoll r = HumanoidOnGround(w, SinewRagdollSettings.Default, p, q);
                Check.ThrowsSinew("muscle strength 1.5", SinewResult.SINEW_INVALID_ARGUMENT, () => r.SetMuscleStrength(2, 1.5f), "muscle strength");
                Check.ThrowsSinew("muscle strength -0.1 for all", SinewResult.SINEW_INVALID_ARGUMENT, () => r.SetMuscleStrengthAll(-0.1f), "[0, 1]");
                Check.ThrowsSinew("a NaN muscle strength", SinewResult.SINEW_NON_FINITE, () => r.SetMuscleStrength(0, float.NaN), "muscle strength");
                Check.ThrowsSinew("a muscle on bone 11 of 11", SinewResult.SINEW_OUT_OF_RANGE, () => r.SetMuscleStrength(11, 1f), "bone 11");
                Check.ThrowsSinew("a muscle on bone -1", SinewResult.SINEW_OUT_OF_RANGE, () => r.SetMuscleStrength(-1, 1f));
                Check.ThrowsSinew("pin weight 2", SinewResult.SINEW_INVALID_ARGUMENT, () => r.SetPinWeight(1, 2f), "pin weight");
                Check.ThrowsSinew("an infinite pin weight for all", SinewResult.SINEW_NON_FINITE, () => r.SetPinWeightAll(float.PositiveInfinity), "pin weight");
                Check.ThrowsSinew("a pin on bone 20", SinewResult.SINEW_OUT_OF_RANGE, () => r.SetPinWeight(20, 1f), "bone 20");
                Check.ThrowsSinew("the drive state of bone 11", SinewResult.SINEW_OUT_OF_RANGE, () => r.GetDriveState(11));
                Check.Equal(0f, r.GetDriveState(2).muscle_strength, "a refused call changes nothing");
                var op = new Vec3[Humanoid];
                var oq = new Quat[Humanoid];
                Check.ThrowsSinew("blend alpha 1.5", SinewResult.SINEW_INVALID_ARGUMENT, () => r.BlendFromSnapshot(p, q, 1.5f, op, oq), "alpha");
                Check.ThrowsSinew("blend alpha -0.01", SinewResult.SINEW_INVALID_ARGUMENT, () => r.BlendFromSnapshot(p, q, -0.01f, op, oq), "alpha");
                Check.ThrowsSinew("a NaN blend alpha", SinewResult.SINEW_NON_FINITE, () => r.BlendFromSnapshot(p, q, float.NaN, op, oq), "alpha");
                Check.ThrowsSinew("an animated pose of 10 of 11 bones", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => r.BlendFromSnapshot(new ReadOnlySpan<Vec3>(p, 0, 10), new ReadOnlySpan<Quat>(q), 0.5f, new Span<Vec3>(op), new Span<Quat>(oq)), "anim_positions");
                Check.ThrowsSinew("animated rotations of 12 bones", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => r.BlendFromSnapshot(p, new Quat[12], 0.5f, op, oq), "anim_rotations");
                Check.ThrowsSinew("a blend into 10 positions", SinewResult.SINEW_BUFFER_TOO_SMALL, () => r.BlendFromSnapshot(p, q, 0.5f, new Vec3[10], oq), "out_positions");
                Check.ThrowsSinew("a blend into 3 rotations", SinewResult.SINEW_BUFFER_TOO_SMALL, () => r.BlendFromSnapshot(p, q, 0.5f, op, new Quat[3]), "out_rotations");
                var bad = (Quat[])q.Clone();
                bad[4].w = 3f;
                Check.ThrowsSinew("an animated rotation that is not unit", SinewResult.SINEW_INVALID_ARGUMENT, () => r.BlendFromSnapshot(p, bad, 0.5f, op, oq), "anim_rotations[4]");
                Check.Throws<ArgumentException>("animated rotations of a 12-byte struct", () => r.BlendFromSnapshot(p, new Vec3[Humanoid], 0.5f, op, new Vec3[Humanoid]));
                Check.ThrowsSinew("the snapshot into 10 positions", SinewResult.SINEW_BUFFER_TOO_SMALL, () => r.ReadSnapshot(new Vec3[10], oq), "out_positions");
                Check.ThrowsSinew("the snapshot into no rotations", SinewResult.SINEW_BUFFER_TOO_SMALL, () => r.ReadSnapshot(op, new Quat[0]));
                Check.ThrowsSinew("PoseBlend alpha 2", SinewResult.SINEW_INVALID_ARGUMENT, () => Ragdoll.PoseBlend(p, q, p, q, 2f, op, oq), "alpha");
                Check.Throws<ArgumentException>("PoseBlend of poses of 11 and 10 bones", () => Ragdoll.PoseBlend(p, q, new Vec3[10], new Quat[10], 0.5f, op, oq));
                Check.Throws<ArgumentException>("PoseBlend with 10 from-rotations", () => Ragdoll.PoseBlend(p, new Quat[10], p, q, 0.5f, op, oq));
                Check.ThrowsSinew("PoseBlend into 5 rotations", SinewResult.SINEW_BUFFER_TOO_SMALL, () => Ragdoll.PoseBlend(p, q, p, q, 0.5f, op, new Quat[5]));
                Check.ThrowsSinew("PoseBlend of a NaN position", SinewResult.SINEW_NON_FINITE, () =>
                {
                    var nan = (Vec3[])p.Clone();
                    nan[0].y = float.NaN;
                    Ragdoll.PoseBlend(p, q, nan, q, 0.5f, op, oq);
                }, "to_positions[0]");
                Check.ThrowsSinew("BlendAlpha of a negative blend time", SinewResult.SINEW_INVALID_ARGUMENT, () => Ragdoll.BlendAlpha(0.5f, -1f), "blend_time");
                Check.ThrowsSinew("BlendAlpha of a NaN time", SinewResult.SINEW_NON_FINITE, () => Ragdoll.BlendAlpha(float.NaN, 1f));
                SinewGetUpQuery gq = SinewGetUpQuery.Default;
                gq.head = 11;
                Check.ThrowsSinew("GetUpInfo with head bone 11", SinewResult.SINEW_OUT_OF_RANGE, () => r.GetUpInfo(gq), "11");
                gq = SinewGetUpQuery.Default;
                gq.up = new SinewVec3(0f, 0f, 0f);
                Check.Throws<SinewException>("GetUpInfo with a zero up", () => r.GetUpInfo(gq));
                gq = SinewGetUpQuery.Default;
                gq.bind_forward = new SinewVec3(0f, float.NaN, 0f);
                Check.ThrowsSinew("GetUpInfo with a NaN bind forward", SinewResult.SINEW_NON_FINITE, () => r.GetUpInfo(gq));
                Check.ThrowsSinew("IsAtRest(-1 s)", SinewResult.SINEW_INVALID_ARGUMENT, () => r.IsAtRest(-1f), "seconds");
                Check.ThrowsSinew("IsAtRest(NaN)", SinewResult.SINEW_NON_FINITE, () => r.IsAtRest(float.NaN));
                w.StepBegin(Frame);
                Check.ThrowsSinew("SetMuscleStrength during an async step", SinewResult.SINEW_BUSY, () => r.SetMuscleStrength(0, 1f));
                Check.ThrowsSinew("TakeEvents during an async step", SinewResult.SINEW_BUSY, () => r.TakeEvents());
                w.StepEnd();
                r.Dispose();
                Check.ThrowsSinew("a disposed ragdoll's snapshot", SinewResult.SINEW_INVALID_HANDLE, () => r.CaptureSnapshot(), "ragdoll handle");
                Check.ThrowsSinew("a disposed ragdoll's rest time", SinewResult.SINEW_INVALID_HANDLE, () => { float t = r.RestTime; });
                Check.ThrowsSinew("a disposed ragdoll's pin weights", SinewResult.SINEW_INVALID_HANDLE, () => r.SetPinWeightAll(1f));
            }
        }

        static void BlendEndpoints()
        {
            using (World w = NewWorld())
            {
                var p = new Vec3[Humanoid];
                var q = new Quat[Humanoid];
                Ragdoll r = HumanoidOnGround(w, SinewRagdollSettings.Default, p, q);
                for (int i = 0; i < 40; i++)
                {
                    w.Step(Frame);
                }
                // set_kinematic(true) takes the snapshot: the moment physics lets go.
                var lp = new Vec3[Humanoid];
                var lq = new Quat[Humanoid];
                r.ReadPose(lp, lq);
                r.SetKinematic(true);
                var sp = new Vec3[Humanoid];
                var sq = new Quat[Humanoid];
                r.ReadSnapshot(sp, sq);
                float worst = 0f;
                for (int i = 0; i < Humanoid; i++)
                {
                    worst = Math.Max(worst, Distance(sp[i], lp[i]));
                }
                Check.That(worst < 1e-4f, "SetKinematic(true) captures the snapshot where the bones were", "off by " + worst + " m");
                // The animated pose: the bind pose turned 30 degrees about Y and moved 1 m along X.
                Quat yaw = Q(0f, (float)Math.Sin(Math.PI / 12), 0f, (float)Math.Cos(Math.PI / 12));
                var ap = new Vec3[Humanoid];
                var aq = new Quat[Humanoid];
                for (int i = 0; i < Humanoid; i++)
                {
                    Vec3 v = Rotate(yaw, p[i]);
                    ap[i] = new Vec3(v.x + 1f, v.y, v.z);
                    aq[i] = Mul(yaw, q[i]);
                }
                var op = new Vec3[Humanoid];
                var oq = new Quat[Humanoid];
                bool zero = true, one = true;
                r.BlendFromSnapshot(ap, aq, 0f, op, oq);
                for (int i = 0; i < Humanoid; i++)
                {
                    zero &= SameBits(op[i], sp[i]) && SameBits(oq[i], sq[i]);
                }
                Check.That(zero, "alpha 0: exactly the snapshot, bit for bit");
                r.BlendFromSnapshot(ap, aq, 1f, op, oq);
                int firstDiff = -1;
                for (int i = 0; i < Humanoid; i++)
                {
                    bool same = SameBits(op[i], ap[i]) && SameBits(oq[i], aq[i]);
                    one &= same;
                    if (!same && firstDiff < 0)
                    {
                        firstDiff = i;
                    }
                }
                Check.That(one, "alpha 1: exactly the animated pose, bit for bit",
                    firstDiff < 0 ? null : "bone " + firstDiff + ": " + op[firstDiff] + " vs " + ap[firstDiff] + ", q " + oq[firstDiff].x + "," + oq[firstDiff].w + " vs " + aq[firstDiff].x + "," + aq[firstDiff].w);
                r.BlendFromSnapshot(ap, aq, 0.5f, op, oq);
                Check.That(Math.Abs(op[Pelvis].x - 0.5f * (sp[Pelvis].x + ap[Pelvis].x)) < 1e-5f, "alpha 0.5: the pelvis halfway");
                // In place: the animated arrays are the outputs too (Unity's buffers, reused).
                var ip = (Vec3[])ap.Clone();
                var iq = (Quat[])aq.Clone();
                r.BlendFromSnapshot(ip, iq, 1f, ip, iq);
                bool inPlace = true;
                for (int i = 0; i < Humanoid; i++)
                {
                    inPlace &= SameBits(ip[i], ap[i]) && SameBits(iq[i], aq[i]);
                }
                Check.That(inPlace, "the same arrays in and out: alpha 1 leaves the animated pose as it was");
                // Kinematic again and blended each frame, the bones take the blended pose as targets.
                for (int f = 0; f <= 30; f++)
                {
                    r.BlendFromSnapshot(ap, aq, Ragdoll.BlendAlpha(f * Frame, 0.5f), op, oq);
                    r.SetTargets(op, oq);
                    w.Step(Frame);
                }
                r.ReadPose(lp, lq);
                Check.That(Distance(lp[Pelvis], ap[Pelvis]) < 1e-3f, "after the blend time the kinematic bones are at the animated pose", "pelvis " + lp[Pelvis] + ", animated " + ap[Pelvis]);
            }
        }

        /// <summary>Drops the default humanoid from 0.5 m above a plane, turned onto its back
        /// (<paramref name="back"/>) or its front, and lets it come to rest.</summary>
        static SinewGetUpInfo Drop(bool back, out float frontUp, out Vec3 pelvis)
        {
            using (World w = NewWorld())
            {
                var p = new Vec3[Humanoid];
                var q = new Quat[Humanoid];
                Ragdoll r = HumanoidOnGround(w, SinewRagdollSettings.Default, p, q);
                // Back: -90 degrees about X (forward +Z -> +Y, up +Y -> -Z); front: +90.
                float h = (float)Math.Sqrt(0.5);
                Quat turn = back ? Q(-h, 0f, 0f, h) : Q(h, 0f, 0f, h);
                for (int i = 0; i < Humanoid; i++)
                {
                    Vec3 v = Rotate(turn, p[i]);
                    p[i] = new Vec3(v.x, v.y + 0.5f + 0.3f, v.z);
                    q[i] = Mul(turn, q[i]);
                }
                r.SetPose(p, q, false);
                for (int i = 0; i < 360 && !r.IsAtRest(0.5f); i++)
                {
                    w.Step(Frame);
                }
                r.ReadPose(p, q);
                pelvis = p[Pelvis];
                SinewGetUpInfo info = r.GetUpInfo();
                frontUp = info.front_up;
                Check.That(r.IsAtRest(0.5f), (back ? "on its back" : "on its front") + ": at rest within 6 s", "rest time " + r.RestTime);
                return info;
            }
        }

        static void FaceUpFaceDown()
        {
            float fu;
            Vec3 pelvis;
            SinewGetUpInfo back = Drop(true, out fu, out pelvis);
            Check.Equal(LyingSide.FaceUp, back.Side, "dropped on its back: FaceUp");
            Check.That(!back.FromFront, "on its back: get up from the back (GetUpBack)");
            Check.That(fu > 0.7f, "on its back: the front points up", "front_up " + fu);
            Check.That(Math.Abs(back.root_position.y) < 0.02f && Math.Abs(back.root_position.x - pelvis.x) < 0.05f && Math.Abs(back.root_position.z - pelvis.z) < 0.05f,
                "on its back: the root on the ground under the pelvis", "root " + back.root_position + ", pelvis " + pelvis);
            // Lying along -Z (head towards -Z) face up, it sits up facing its feet: +Z.
            Check.That(back.heading.z < -0.9f, "on its back: heading from the pelvis to the head is -Z", "heading " + back.heading);
            Vec3 fwd = Rotate(Q(back.root_rotation.x, back.root_rotation.y, back.root_rotation.z, back.root_rotation.w), new Vec3(0f, 0f, 1f));
            Check.That(fwd.z > 0.9f, "on its back: the root faces the feet (+Z)", "forward " + fwd);
            SinewGetUpInfo front = Drop(false, out fu, out pelvis);
            Check.Equal(LyingSide.FaceDown, front.Side, "dropped on its front: FaceDown");
            Check.That(front.FromFront, "on its front: get up from the front (GetUpFront)");
            Check.That(fu < -0.7f, "on its front: the front points down", "front_up " + fu);
            Check.That(Math.Abs(front.root_position.y) < 0.02f, "on its front: the root on the ground", "root " + front.root_position);
            // Head towards +Z (turned +90 about X): it pushes up facing the head.
            Check.That(front.heading.z > 0.9f, "on its front: heading from the pelvis to the head is +Z", "heading " + front.heading);
            fwd = Rotate(Q(front.root_rotation.x, front.root_rotation.y, front.root_rotation.z, front.root_rotation.w), new Vec3(0f, 0f, 1f));
            Check.That(fwd.z > 0.9f, "on its front: the root faces the head (+Z)", "forward " + fwd);
        }

        static void PinnedFollows()
        {
            using (World w = NewWorld())
            {
                var p = new Vec3[Humanoid];
                var q = new Quat[Humanoid];
                Ragdoll r = HumanoidOnGround(w, SinewRagdollSettings.Default, p, q);
                r.SetMuscleStrengthAll(1f);
                r.SetPinWeightAll(1f);
                var tp = new Vec3[Humanoid];
                var rp = new Vec3[Humanoid];
                var rq = new Quat[Humanoid];
                float worst = 0f;
                string where = "";
                // The animation: the whole body swaying 10 cm side to side at 0.5 Hz, 2 cm up and down.
                for (int f = 0; f < 240; f++)
                {
                    float t = f * Frame;
                    float dx = 0.1f * (float)Math.Sin(Math.PI * t), dy = 0.02f * (float)Math.Sin(2 * Math.PI * t);
                    for (int i = 0; i < Humanoid; i++)
                    {
                        tp[i] = new Vec3(p[i].x + dx, p[i].y + 0.05f + dy, p[i].z);
                    }
                    r.SetTargets(tp, q);
                    w.Step(Frame);
                    r.ReadPose(rp, rq);
                    if (f >= 60)
                    {
                        for (int i = 0; i < Humanoid; i++)
                        {
                            float e = Distance(rp[i], tp[i]);
                            if (e > worst)
                            {
                                worst = e;
                                where = "bone " + i + " at frame " + f + ": " + rp[i] + " vs " + tp[i];
                            }
                        }
                    }
                }
                Check.That(worst < 0.005f, "pin weight 1: every bone within 5 mm of its target (seconds 1 to 4)", "worst " + (worst * 1000f) + " mm, " + where);
                Check.Equal(RagdollEvents.None, r.TakeEvents(), "following, it keeps its balance");
            }
        }

        static void BalanceLoss()
        {
            using (World w = NewWorld())
            {
                var p = new Vec3[Humanoid];
                var q = new Quat[Humanoid];
                Ragdoll r = HumanoidOnGround(w, SinewRagdollSettings.Default, p, q);
                // Muscles at full strength, pins light (a pinned root at weight 1 is held within
                // 0.25 m even by 600 N s; at 0.1, within 0.33 m of it after 300 N s): the body stands,
                // the hit throws it off.
                r.SetMuscleStrengthAll(1f);
                r.SetPinWeightAll(0.1f);
                r.SetTargets(p, q);
                for (int i = 0; i < 30; i++)
                {
                    r.SetTargets(p, q);
                    w.Step(Frame);
                }
                Check.Equal(RagdollEvents.None, r.TakeEvents(), "standing pinned: no event");
                int hit = r.ApplyImpulse(p[Pelvis], new Vec3(0f, 0f, 600f));
                Check.Equal(Pelvis, hit, "the impulse at the pelvis hits the pelvis");
                RagdollEvents events = RagdollEvents.None;
                int frames = 0;
                for (; frames < 60 && events == RagdollEvents.None; frames++)
                {
                    r.SetTargets(p, q);
                    w.Step(Frame);
                    events = r.TakeEvents();
                }
                Check.That((events & RagdollEvents.BalanceLost) != 0, "a 600 N s pelvis impulse (30 m/s on 20 kg): BalanceLost", "after " + frames + " frames: " + events);
                SinewDriveState d = r.GetDriveState(Pelvis);
                SinewDriveState hand = r.GetDriveState(10);
                Check.That(d.muscle_strength == 0f && d.pin_weight == 0f && hand.muscle_strength == 0f && hand.pin_weight == 0f,
                    "balance lost: every muscle strength and pin weight is 0 (limp)");
                Check.Equal(RagdollEvents.None, r.TakeEvents(), "TakeEvents cleared the bit");
                w.Step(Frame);
                Check.Equal(RagdollEvents.None, r.TakeEvents(), "limp, no further event");
            }
        }

        static void PoweredNoAllocation()
        {
            using (World w = NewWorld())
            {
                var p = new Vec3[Humanoid];
                var q = new Quat[Humanoid];
                Ragdoll r = HumanoidOnGround(w, SinewRagdollSettings.Default, p, q);
                var ap = (Vec3[])p.Clone();
                var aq = (Quat[])q.Clone();
                var op = new Vec3[Humanoid];
                var oq = new Quat[Humanoid];
                SinewGetUpQuery gq = SinewGetUpQuery.Default;
                PoweredFrame(w, r, 0, ap, aq, op, oq, gq);
                long before = GC.GetAllocatedBytesForCurrentThread();
                float sum = 0f;
                for (int i = 1; i <= 100; i++)
                {
                    sum += PoweredFrame(w, r, i, ap, aq, op, oq, gq);
                }
                long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
                Check.Equal(0L, allocated, "100 frames of SetMuscleStrength[All], SetPinWeight[All], GetDriveState, TakeEvents, CaptureSnapshot, ReadSnapshot, "
                    + "BlendFromSnapshot, PoseBlend, BlendAlpha, GetUpInfo, RestTime, IsAtRest, SetTargets, Step allocate 0 bytes");
                Check.That(!float.IsNaN(sum), "and their results are numbers");
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static float PoweredFrame(World w, Ragdoll r, int frame, Vec3[] ap, Quat[] aq, Vec3[] op, Quat[] oq, SinewGetUpQuery gq)
        {
            float s = (frame % 10) * 0.1f;
            r.SetMuscleStrength(frame % Humanoid, s);
            r.SetMuscleStrengthAll(s);
            r.SetPinWeight(frame % Humanoid, s);
            r.SetPinWeightAll(1f - s);
            SinewDriveState d = r.GetDriveState(frame % Humanoid);
            RagdollEvents e = r.TakeEvents();
            r.SetTargets(ap, aq);
            w.Step(Frame);
            if ((frame & 7) == 0)
            {
                r.CaptureSnapshot();
            }
            r.ReadSnapshot(new Span<Vec3>(op), new Span<Quat>(oq));
            float a = Ragdoll.BlendAlpha(frame * Frame, 1f);
            r.BlendFromSnapshot(ap, aq, a, op, oq);
            r.BlendFromSnapshot(new ReadOnlySpan<Vec3>(ap), new ReadOnlySpan<Quat>(aq), a, new Span<Vec3>(op), new Span<Quat>(oq));
            Ragdoll.PoseBlend(ap, aq, ap, aq, a, op, oq);
            SinewGetUpInfo info = r.GetUpInfo(gq);
            return d.effective_strength + (float)e + info.front_up + r.RestTime + (r.IsAtRest(0.5f) ? 1f : 0f);
        }
    }
}
