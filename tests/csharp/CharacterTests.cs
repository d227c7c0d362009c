// Tests of the wrapper's character-cloth API against the real native library, on Mono:
// skinning, tethers, the character's root and automatic teleport, wind, LOD and visibility,
// tearing and the triangle readback, the cape / skirt / hair generators, and the errors.
// Compiled into WrapperTests.exe (scripts/test-csharp.sh); WrapperTests.Main runs Run().
// Only the public API of Sinew.dll is used, as a game would.
using System;
using System.Runtime.InteropServices;

namespace Sinew.Tests
{
    /// <summary>Stands for UnityEngine.BoneWeight: four float weights, then four int bone indices (32 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    struct BoneWeight
    {
        public float weight0, weight1, weight2, weight3;
        public int boneIndex0, boneIndex1, boneIndex2, boneIndex3;

        public static BoneWeight On(int bone)
        {
            BoneWeight w = default(BoneWeight);
            w.boneIndex0 = bone;
            w.weight0 = 1f;
            return w;
        }
    }

    static class CharacterTests
    {
        const float Dt = 1f / 60f;

        public static void Run()
        {
            Check.Group("character: a skinned grid follows its bone", SkinnedGrid);
            Check.Group("character: max distances and backstops around the skinned pose", Limits);
            Check.Group("character: tethers hold every particle within reach at one iteration", Tethers);
            Check.Group("character: the root teleports the body when it jumps", RootTeleport);
            Check.Group("character: dynamics and the root carry a cloth (world velocity scale)", RootInertia);
            Check.Group("character: a cloth rides in a moving, turning anchor (a vehicle)", Anchor);
            Check.Group("character: wind deflects a cloth downwind", Wind);
            Check.Group("character: LOD by camera distance and visibility", Lod);
            Check.Group("character: tearing changes the vertices, triangles and topology version", Tearing);
            Check.Group("character: cape and skirt created and driven by their bones", CapeAndSkirt);
            Check.Group("character: hair strands created and driven by the head", Hair);
            Check.Group("character: errors throw SinewException with the native message", Errors);
        }

        // ---- helpers ----

        /// <summary>Readback of the newest state (no interpolation), one thread: exact checks.</summary>
        static World MakeWorld(uint substeps, uint iterations)
        {
            SinewWorldDesc d = SinewWorldDesc.Default;
            d.substeps = substeps;
            d.iterations = iterations;
            d.interpolate = 0;
            d.thread_count = 1;
            return new World(d);
        }

        /// <summary>A grid hanging in the XY plane below y = 0, top row (vertices 0..columns−1) pinned.</summary>
        static Cloth HangingGrid(World world, int columns, int rows, float spacing)
        {
            SinewClothGridDesc gd = SinewClothGridDesc.Default;
            gd.columns = (uint)columns;
            gd.rows = (uint)rows;
            gd.spacing = spacing;
            float a = (float)(Math.PI / 4); // +90° about X: rows run down −Y
            gd.orientation = new SinewQuat((float)Math.Sin(a), 0f, 0f, (float)Math.Cos(a));
            gd.origin = new SinewVec3(0f, -(rows - 1) * spacing * 0.5f, 0f);
            gd.PinMode = SinewPinMode.SINEW_PIN_TOP_ROW;
            return Cloth.CreateGrid(world, gd);
        }

        static Vec3[] Read(Body body)
        {
            var p = new Vec3[body.VertexCount];
            body.ReadPositions(p);
            return p;
        }

        static float Dist(Vec3 a, Vec3 b)
        {
            float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
            return (float)Math.Sqrt(dx * dx + dy * dy + dz * dz);
        }

        static Vec3 Apply(Mat4 m, Vec3 p)
        {
            return new Vec3(
                m.m00 * p.x + m.m01 * p.y + m.m02 * p.z + m.m03,
                m.m10 * p.x + m.m11 * p.y + m.m12 * p.z + m.m13,
                m.m20 * p.x + m.m21 * p.y + m.m22 * p.z + m.m23);
        }

        static float MaxStep(Vec3[] a, Vec3[] b)
        {
            float worst = 0f;
            for (int i = 0; i < a.Length; i++)
            {
                worst = Math.Max(worst, Dist(a[i], b[i]));
            }
            return worst;
        }

        static BoneWeight[] OneBone(int vertices)
        {
            var w = new BoneWeight[vertices];
            for (int i = 0; i < vertices; i++)
            {
                w[i] = BoneWeight.On(0);
            }
            return w;
        }

        static float[] Filled(int n, float value)
        {
            var a = new float[n];
            for (int i = 0; i < n; i++)
            {
                a[i] = value;
            }
            return a;
        }

        // ---- skinning ----

        static void SkinnedGrid()
        {
            using (World world = MakeWorld(8, 1))
            {
                Cloth cloth = HangingGrid(world, 12, 12, 0.05f);
                Vec3[] rest = Read(cloth);
                // Created in world space with the bone at the origin: every bind pose is the identity.
                cloth.SetSkinning(OneBone(rest.Length), new[] { Mat4.Translation(0f, 0f, 0f) });

                // The first bone matrices put the whole body on the skinned pose at once.
                Mat4 bone = Mat4.Translation(2f, 0f, 0f);
                cloth.SetBoneMatrices(new[] { bone });
                Vec3[] placed = Read(cloth);
                float off = 0f;
                for (int i = 0; i < rest.Length; i++)
                {
                    off = Math.Max(off, Dist(placed[i], Apply(bone, rest[i])));
                }
                Check.That(off < 1e-5f, "SetSkinning(BoneWeight[], Matrix4x4[]) + the first SetBoneMatrices: every vertex on the skinned pose", "off by " + off);

                // The bone walks along +X and turns about Y; the pinned top row follows exactly,
                // the rest hangs from it.
                float worstPin = 0f;
                float fastest = 0f;
                Vec3[] before = placed;
                for (int f = 1; f <= 90; f++)
                {
                    bone = Mat4.RotationY(f * 0.5f, 2f + f * 0.01f, 0f, 0f);
                    cloth.SetBoneMatrices(new ReadOnlySpan<Mat4>(new[] { bone }));
                    world.Step(Dt);
                    Vec3[] now = Read(cloth);
                    for (int c = 0; c < 12; c++)
                    {
                        worstPin = Math.Max(worstPin, Dist(now[c], Apply(bone, rest[c])));
                    }
                    fastest = Math.Max(fastest, MaxStep(before, now) / Dt);
                    before = now;
                }
                Check.That(worstPin < 1e-4f, "SetBoneMatrices(span): the pinned row is on its skinned position after every step", "off by " + worstPin);
                Check.That(fastest < 2f, "... and nothing spikes while the bone moves at 0.6 m/s", "fastest " + fastest + " m/s");
                Vec3[] end = Read(cloth);
                Vec3 hem = end[rest.Length - 6];
                Vec3 hemRest = Apply(bone, rest[rest.Length - 6]);
                Check.That(Dist(hem, hemRest) < 0.2f, "the free hem came along with the bone (within 0.2 m of its skinned spot)", hem + " vs " + hemRest);

                // ResetPose: back on the skinned pose, at rest.
                cloth.ResetPose();
                Vec3[] reset = Read(cloth);
                off = 0f;
                for (int i = 0; i < rest.Length; i++)
                {
                    off = Math.Max(off, Dist(reset[i], Apply(bone, rest[i])));
                }
                Check.That(off < 1e-5f, "ResetPose puts every vertex back on the skinned pose", "off by " + off);
            }

            // Without bind poses the first bone matrices are the bind: the body stays where it
            // was created, then follows the bone's motion from there.
            using (World world = MakeWorld(8, 1))
            {
                Cloth cloth = HangingGrid(world, 6, 6, 0.05f);
                Vec3[] rest = Read(cloth);
                cloth.SetSkinning(new ReadOnlySpan<BoneWeight>(OneBone(rest.Length)), 1);
                cloth.SetBoneMatrix(Mat4.Translation(5f, 0f, 0f));
                Check.That(MaxStep(rest, Read(cloth)) < 1e-6f, "SetSkinning(weights, boneCount): the first matrices are the bind pose, nothing moves");
                for (int f = 1; f <= 10; f++)
                {
                    cloth.SetBoneMatrix(Mat4.Translation(5f + 0.01f * f, 0f, 0f));
                    world.Step(Dt);
                }
                Vec3 pin = Read(cloth)[3];
                Check.That(Math.Abs(pin.x - (rest[3].x + 0.1f)) < 1e-5f && Math.Abs(pin.y - rest[3].y) < 1e-5f,
                    "SetBoneMatrix: a pin follows the bone's motion since the first frame", pin + " vs " + rest[3]);

                // A Unity-style bind pose (bindpose = bone⁻¹ · mesh-to-world at bind time) converted
                // to the world-space rest the body was created in gives the same skin.
                Cloth other = HangingGrid(world, 6, 6, 0.05f);
                Mat4 meshToWorld = Mat4.Translation(0f, 0f, 0f);
                Mat4 bindBone = Mat4.Translation(0f, 1f, 0f);
                Mat4 unityBind = Mat4.Translation(0f, -1f, 0f); // bindBone⁻¹ · meshToWorld
                other.SetSkinning(OneBone(rest.Length), new[] { unityBind });
                other.SetBoneMatrix(bindBone);
                Check.That(MaxStep(rest, Read(other)) < 1e-6f, "a bind pose that inverts the bone's bind-time matrix leaves the body in place");
                GC.KeepAlive(meshToWorld);
            }
        }

        static void Limits()
        {
            using (World world = MakeWorld(8, 1))
            {
                SinewClothGridDesc gd = SinewClothGridDesc.Default;
                gd.columns = 8;
                gd.rows = 8;
                gd.spacing = 0.05f;
                gd.PinMode = SinewPinMode.SINEW_PIN_NONE;
                Cloth cloth = Cloth.CreateGrid(world, gd);
                int n = cloth.VertexCount;
                cloth.SetSkinning(OneBone(n), 1);
                Mat4 bone = Mat4.Translation(0f, 0f, 0f);
                cloth.SetBoneMatrix(bone);
                Vec3[] skinned = Read(cloth);

                // Max distance alone: gravity pulls every vertex to its 5 cm limit, not beyond.
                cloth.SetMaxDistances(Filled(n, 0.05f));
                float farthest = 0f;
                for (int f = 0; f < 60; f++)
                {
                    cloth.SetBoneMatrix(bone);
                    world.Step(Dt);
                    Vec3[] p = Read(cloth);
                    for (int i = 0; i < n; i++)
                    {
                        farthest = Math.Max(farthest, Dist(p[i], skinned[i]));
                    }
                }
                Check.That(farthest <= 0.05f + 1e-5f && farthest > 0.045f, "SetMaxDistances(0.05): vertices fall to 5 cm from their skinned positions and no farther", "farthest " + farthest);

                // Backstop: a 1 m sphere whose top is 1 cm below each vertex's skinned spot (skinned normal +Y).
                cloth.ResetPose();
                cloth.SetBackstops(Filled(n, 0.01f), Filled(n, 1f));
                float deepest = float.PositiveInfinity;
                for (int f = 0; f < 60; f++)
                {
                    cloth.SetBoneMatrix(bone);
                    world.Step(Dt);
                    Vec3[] p = Read(cloth);
                    for (int i = 0; i < n; i++)
                    {
                        var centre = new Vec3(skinned[i].x, skinned[i].y - 1.01f, skinned[i].z);
                        deepest = Math.Min(deepest, Dist(p[i], centre));
                    }
                }
                Check.That(deepest >= 1f - 1e-5f, "SetBackstops(0.01, 1): no vertex inside its backstop sphere", "closest to a centre " + deepest);
                float low = float.PositiveInfinity;
                foreach (Vec3 q in Read(cloth))
                {
                    low = Math.Min(low, q.y);
                }
                Check.That(low < -0.009f, "... and gravity pulls it down onto the backstop", "lowest " + low);

                cloth.ClearBackstops();
                cloth.SetMaxDistances(Filled(n, float.MaxValue)); // Unity's "no limit"
                for (int f = 0; f < 30; f++)
                {
                    world.Step(Dt);
                }
                low = float.PositiveInfinity;
                foreach (Vec3 q in Read(cloth))
                {
                    low = Math.Min(low, q.y);
                }
                Check.That(low < -0.5f, "ClearBackstops and max distance float.MaxValue: the unpinned cloth falls freely", "lowest " + low);

                // Max distance 0 fixes a vertex to its skinned position: it becomes pinned.
                float[] some = Filled(n, -1f);
                some[0] = 0f;
                some[7] = 0f;
                cloth.SetMaxDistances(some);
                Check.Equal(2u, cloth.GetInfo().pinned_count, "max distance 0 pins a vertex (negative: unlimited)");
                cloth.ClearMaxDistances();
                Check.That(true, "ClearMaxDistances");
            }
        }

        // ---- tethers ----

        /// <summary>Largest distance beyond its reach of any particle of a 16 × 24 grid hanging at one
        /// substep and one iteration, over 2 s.</summary>
        static float TetherRun(SinewTetherMode mode)
        {
            const int cols = 16, rows = 24;
            const float s = 0.04f;
            using (World world = MakeWorld(1, 1))
            {
                Cloth cloth = HangingGrid(world, cols, rows, s);
                SinewMaterial m = cloth.Material;
                m.particle_mass = 0.05f;
                cloth.Material = m;
                if (mode != SinewTetherMode.SINEW_TETHER_NONE)
                {
                    cloth.SetTethers(mode);
                }
                float worst = 0f;
                var p = new Vec3[cloth.VertexCount];
                for (int f = 0; f < 120; f++)
                {
                    world.Step(Dt);
                    cloth.ReadPositions(p);
                    for (int r = 1; r < rows; r++)
                    {
                        for (int c = 0; c < cols; c++)
                        {
                            // The nearest pin at rest is the top of the same column.
                            worst = Math.Max(worst, Dist(p[r * cols + c], p[c]) - r * s);
                        }
                    }
                }
                return worst;
            }
        }

        static void Tethers()
        {
            float euclidean = TetherRun(SinewTetherMode.SINEW_TETHER_EUCLIDEAN);
            Check.That(euclidean <= 1e-5f, "SetTethers(Euclidean): no particle beyond its reach", euclidean + " m beyond");
            float geodesic = TetherRun(SinewTetherMode.SINEW_TETHER_GEODESIC);
            Check.That(geodesic <= 1e-5f, "SetTethers(Geodesic): no particle beyond its reach", geodesic + " m beyond");
            float none = TetherRun(SinewTetherMode.SINEW_TETHER_NONE);
            Check.That(none > 0.01f, "without tethers the same cloth stretches at one iteration (the test can fail)", none + " m beyond");

            using (World world = MakeWorld(1, 1))
            {
                Cloth cloth = HangingGrid(world, 4, 4, 0.05f);
                cloth.SetTethers(SinewTetherMode.SINEW_TETHER_GEODESIC, 1.1f);
                cloth.SetTethers(SinewTetherMode.SINEW_TETHER_NONE);
                Check.That(true, "SetTethers(mode, scale 1.1) and SetTethers(None) are accepted");
            }
        }

        // ---- root ----

        /// <summary>A skinned cloth on a root walking at 1 m/s that jumps 100 m in frame 90.
        /// Returns the largest motion relative to the root in the frame before and in the jump frame.</summary>
        static void TeleportRun(float teleportDistance, out float before, out float during)
        {
            before = during = 0f;
            using (World world = MakeWorld(8, 1))
            {
                Cloth cloth = HangingGrid(world, 10, 10, 0.05f);
                cloth.SetSkinning(OneBone(cloth.VertexCount), 1);
                SinewDynamics d = SinewDynamics.Default;
                d.teleport_distance = teleportDistance;
                cloth.Dynamics = d;
                float x = 0f;
                Vec3[] prev = null;
                for (int frame = 0; frame < 100; frame++)
                {
                    x += Dt;
                    if (frame == 90)
                    {
                        x += 100f;
                    }
                    Mat4 m = Mat4.Translation(x, 0f, 0f);
                    cloth.SetRootTransform(m);
                    cloth.SetBoneMatrix(m);
                    world.Step(Dt);
                    Vec3[] rel = Read(cloth);
                    for (int i = 0; i < rel.Length; i++)
                    {
                        rel[i].x -= x;
                    }
                    if (prev != null)
                    {
                        float moved = MaxStep(prev, rel);
                        if (frame == 89)
                        {
                            before = moved;
                        }
                        if (frame == 90)
                        {
                            during = moved;
                        }
                    }
                    prev = rel;
                }
            }
        }

        static void RootTeleport()
        {
            float before, during;
            TeleportRun(5f, out before, out during);
            Check.That(during <= before * 1.1f + 1e-4f, "teleport_distance 5 m + SetRootTransform: a 100 m jump moves nothing relative to the root",
                "relative motion " + during + " m in the jump frame vs " + before + " m the frame before");
            TeleportRun(0f, out before, out during);
            Check.That(during > 1f, "teleport_distance 0 (never): the same jump drags the cloth (the test can fail)", "relative motion " + during + " m");

            using (World world = MakeWorld(2, 1))
            {
                Cloth cloth = HangingGrid(world, 4, 4, 0.05f);
                cloth.SetRootTransform(SinewMat4.Translation(1f, 2f, 3f));
                Mat4 scaled = Mat4.Translation(0f, 0f, 0f);
                scaled.m00 = scaled.m11 = scaled.m22 = 2f;
                cloth.SetRootTransform(scaled);
                world.Step(Dt);
                Check.That(true, "SetRootTransform(SinewMat4) and a uniformly scaled matrix are accepted");
            }
        }

        /// <summary>Largest lag behind a root running 3 m along +Z over half a second, pins carried.</summary>
        static float Carried(float worldVelocityScale)
        {
            using (World world = MakeWorld(8, 1))
            {
                Cloth cloth = HangingGrid(world, 8, 8, 0.05f);
                SinewDynamics d = cloth.Dynamics;
                d.world_velocity_scale = worldVelocityScale;
                cloth.Dynamics = d;
                cloth.SetRootTransform(Mat4.Translation(0f, 0f, 0f));
                for (int f = 0; f < 60; f++)
                {
                    world.Step(Dt);
                }
                Vec3[] start = Read(cloth);
                var pins = new[] { 0, 1, 2, 3, 4, 5, 6, 7 };
                var targets = new Vec3[8];
                for (int f = 1; f <= 30; f++)
                {
                    float z = f * 0.1f;
                    cloth.SetRootTransform(Mat4.Translation(0f, 0f, z));
                    for (int k = 0; k < 8; k++)
                    {
                        targets[k] = new Vec3(start[k].x, start[k].y, start[k].z + z);
                    }
                    cloth.SetPinTargets(pins, targets);
                    world.Step(Dt);
                }
                Vec3[] end = Read(cloth);
                float lag = 0f;
                for (int i = 0; i < end.Length; i++)
                {
                    lag = Math.Max(lag, Dist(new Vec3(start[i].x, start[i].y, start[i].z + 3f), end[i]));
                }
                return lag;
            }
        }

        static void RootInertia()
        {
            using (World world = MakeWorld(2, 1))
            {
                Cloth cloth = HangingGrid(world, 4, 4, 0.05f);
                SinewDynamics d = cloth.Dynamics;
                SinewDynamics def = SinewDynamics.Default;
                Check.That(d.world_velocity_scale == def.world_velocity_scale && d.drag == def.drag && d.tear_threshold == def.tear_threshold,
                    "a new body has SinewDynamics.Default");
                d.max_speed = 3f;
                d.lift = 0.5f;
                cloth.Dynamics = d;
                SinewDynamics back = cloth.Dynamics;
                Check.That(back.max_speed == 3f && back.lift == 0.5f, "Dynamics set then get round-trips");
            }
            float carried = Carried(0f);
            Check.That(carried < 1e-3f, "world_velocity_scale 0: the cloth moves rigidly with its root", "lag " + carried + " m");
            float free = Carried(1f);
            Check.That(free > 0.05f, "world_velocity_scale 1: the cloth lags behind its root", "lag " + free + " m");
        }

        // ---- the moving-platform anchor ----

        /// <summary>Largest distance (m) of a hanging 4 × 4 cloth from where it hung, in the frame
        /// of a vehicle that drives off at 2 m/s² while turning at 20°/s, its pins moved with
        /// the vehicle, riding in it with anchor inertia <paramref name="inertia"/>.</summary>
        static float Ride(float inertia)
        {
            using (World world = MakeWorld(8, 1))
            {
                Cloth cloth = HangingGrid(world, 4, 4, 0.05f);
                cloth.SetAnchor(Mat4.Translation(0f, 0f, 0f), inertia);
                for (int f = 0; f < 240; f++)
                {
                    world.Step(Dt);
                }
                Vec3[] rest = Read(cloth);
                var pins = new[] { 0, 1, 2, 3 };
                var targets = new Vec3[4];
                var p = new Vec3[rest.Length];
                float worst = 0f;
                for (int f = 1; f <= 120; f++)
                {
                    float t = f * Dt, degrees = 20f * t;
                    Mat4 m = Mat4.RotationY(degrees, t * t, 0f, 0f);
                    for (int i = 0; i < 4; i++)
                    {
                        Vec3 r = rest[i];
                        targets[i] = new Vec3(m.m00 * r.x + m.m02 * r.z + m.m03, r.y, m.m20 * r.x + m.m22 * r.z + m.m23);
                    }
                    cloth.SetPinTargets(pins, targets);
                    cloth.SetAnchor(m, inertia);
                    world.Step(Dt);
                    cloth.ReadPositions(p);
                    for (int i = 0; i < p.Length; i++)
                    {
                        // Back into the vehicle's frame: the inverse rotation is the transpose.
                        float dx = p[i].x - m.m03, dz = p[i].z - m.m23;
                        float lx = m.m00 * dx + m.m20 * dz, lz = m.m02 * dx + m.m22 * dz;
                        float ex = lx - rest[i].x, ey = p[i].y - rest[i].y, ez = lz - rest[i].z;
                        worst = Math.Max(worst, (float)Math.Sqrt(ex * ex + ey * ey + ez * ez));
                    }
                }
                return worst;
            }
        }

        static void Anchor()
        {
            float carried = Ride(0f);
            Check.That(carried < 1e-4f, "anchor inertia 0: the cloth rides at rest in the vehicle's frame", carried + " m from where it hung");
            float felt = Ride(1f);
            Check.That(felt > 0.01f, "anchor inertia 1: the same ride swings it (the check can fail)", felt + " m");
            using (World world = MakeWorld(2, 1))
            {
                Cloth cloth = HangingGrid(world, 4, 4, 0.05f);
                Mat4 nan = Mat4.Translation(float.NaN, 0f, 0f);
                Check.ThrowsSinew("a NaN anchor", SinewResult.SINEW_NON_FINITE, () => cloth.SetAnchor(nan, 0.5f), "anchor transform");
                Check.ThrowsSinew("anchor inertia 1.5", SinewResult.SINEW_INVALID_ARGUMENT, () => cloth.SetAnchor(Mat4.Translation(0f, 0f, 0f), 1.5f), "[0, 1]");
                Mat4 scaled = Mat4.Translation(0f, 0f, 0f);
                scaled.m11 = 3f;
                Check.ThrowsSinew("a scaled anchor", SinewResult.SINEW_INVALID_ARGUMENT, () => cloth.SetAnchor(scaled, 0.5f), "scale");
                cloth.SetAnchor(Mat4.Translation(1f, 0f, 0f), 0.25f);
                world.Step(Dt);
                cloth.ClearAnchor();
                world.Step(Dt);
            }
        }

        // ---- wind ----

        /// <summary>Mean downwind (+Z) displacement of a hanging 10 × 10 cloth over its last second of four.</summary>
        static float Deflection(float speed, float windScale)
        {
            using (World world = MakeWorld(8, 1))
            {
                Cloth cloth = HangingGrid(world, 10, 10, 0.05f);
                if (windScale != 1f)
                {
                    SinewDynamics d = cloth.Dynamics;
                    d.wind_scale = windScale;
                    cloth.Dynamics = d;
                }
                world.Wind = SinewWind.Blowing(new Vec3(0f, 0f, 2f), speed);
                Vec3[] rest = Read(cloth);
                for (int f = 0; f < 180; f++)
                {
                    world.Step(Dt);
                }
                float z = 0f;
                var p = new Vec3[rest.Length];
                for (int f = 0; f < 60; f++)
                {
                    world.Step(Dt);
                    cloth.ReadPositions(p);
                    for (int i = 0; i < p.Length; i++)
                    {
                        z += (p[i].z - rest[i].z) / p.Length;
                    }
                }
                return z / 60f;
            }
        }

        static void Wind()
        {
            using (var world = new World())
            {
                SinewWind calm = world.Wind;
                Check.Equal(0f, calm.speed, "a new world's Wind is calm (SinewWind.Default)");
                SinewWind w = SinewWind.Default;
                w.speed = 7f;
                w.direction = new SinewVec3(1f, 0f, 0f);
                world.SetWind(w);
                Check.Equal(7f, world.Wind.speed, "SetWind then Wind round-trips");
            }
            float still = Deflection(0f, 1f);
            Check.That(Math.Abs(still) < 1e-6f, "calm air moves nothing downwind", still + " m");
            float five = Deflection(5f, 1f);
            float ten = Deflection(10f, 1f);
            Check.That(five > 1e-3f, "wind of 5 m/s along +Z pushes the cloth downwind", five + " m");
            Check.That(ten > five, "10 m/s pushes it farther than 5 m/s", ten + " m vs " + five + " m");
            float ignored = Deflection(10f, 0f);
            Check.That(Math.Abs(ignored) < 1e-6f, "Dynamics.wind_scale 0: the body ignores the wind", ignored + " m");
        }

        // ---- LOD ----

        static void Lod()
        {
            using (World world = MakeWorld(8, 1))
            {
                Cloth cloth = HangingGrid(world, 6, 6, 0.05f);
                SinewLod lod = cloth.Lod;
                Check.That(lod.reduce_distance == 0f && lod.FreezeWhenInvisible, "a new body's Lod is SinewLod.Default (no reduction, freeze when invisible)");
                lod.reduce_distance = 10f;
                lod.reduced_substeps = 2;
                lod.freeze_distance = 50f;
                cloth.Lod = lod;
                Check.Equal(50f, cloth.Lod.freeze_distance, "Lod set then get round-trips");

                float[] cameras = { 1f, 20f, 100f, 1f };
                uint[] substeps = { 8u, 2u, 0u, 8u };
                bool[] frozen = { false, false, true, false };
                for (int k = 0; k < cameras.Length; k++)
                {
                    world.SetCamera(new Vec3(0f, 0f, cameras[k]));
                    world.Step(Dt);
                    SinewBodyInfo info = cloth.GetInfo();
                    Check.Equal(frozen[k], cloth.IsFrozen, "camera at " + cameras[k] + " m: IsFrozen " + frozen[k]);
                    if (!frozen[k])
                    {
                        Check.Equal(substeps[k], info.substeps, "camera at " + cameras[k] + " m: " + substeps[k] + " substeps");
                    }
                }
                world.SetCamera(new SinewVec3(0f, 0f, 0f));
            }

            using (World world = MakeWorld(8, 1))
            {
                Cloth cloth = HangingGrid(world, 8, 8, 0.05f);
                // Swing it out of its plane like a curtain, then hide it mid-swing.
                var pins = new[] { 0, 1, 2, 3, 4, 5, 6, 7 };
                Vec3[] start = Read(cloth);
                var top = new Vec3[8];
                for (int f = 0; f < 40; f++)
                {
                    for (int k = 0; k < 8; k++)
                    {
                        top[k] = new Vec3(start[k].x, start[k].y, start[k].z + 0.05f * (float)Math.Sin(0.25 * f));
                    }
                    cloth.SetPinTargets(pins, top);
                    world.Step(Dt);
                }
                Vec3[] a = Read(cloth);
                world.Step(Dt);
                Vec3[] b = Read(cloth);
                float motion = MaxStep(a, b);
                Check.That(motion > 1e-3f, "the cloth swings before it is hidden", motion + " m per frame");
                Check.That(cloth.Visible, "a new body is Visible");
                cloth.Visible = false;
                bool allFrozen = true;
                for (int f = 0; f < 20; f++)
                {
                    world.Step(Dt);
                    allFrozen &= cloth.IsFrozen;
                }
                Vec3[] held = Read(cloth);
                Check.That(allFrozen && !cloth.Visible, "Visible = false: frozen (LOD freezes invisible bodies by default)");
                Check.That(MaxStep(b, held) == 0f, "a frozen body keeps its pose exactly");
                cloth.Visible = true;
                world.Step(Dt);
                Check.That(!cloth.IsFrozen, "Visible = true: it runs again");
                float jump = MaxStep(held, Read(cloth));
                Check.That(jump <= motion + 1e-4f, "... without a jump", jump + " m vs a frame's motion of " + motion + " m");

                SinewLod keepRunning = SinewLod.Default;
                keepRunning.FreezeWhenInvisible = false;
                cloth.Lod = keepRunning;
                cloth.Visible = false;
                world.Step(Dt);
                Check.That(!cloth.IsFrozen, "FreezeWhenInvisible = false: an invisible body keeps running");
            }
        }

        // ---- tearing ----

        static void Tearing()
        {
            using (World world = MakeWorld(8, 1))
            {
                const int cols = 10, rows = 6;
                SinewClothGridDesc gd = SinewClothGridDesc.Default;
                gd.columns = cols;
                gd.rows = rows;
                gd.spacing = 0.05f;
                gd.PinMode = SinewPinMode.SINEW_PIN_NONE;
                gd.material.stretch_compliance = 1e-3f;
                gd.material.shear_compliance = 1e-3f;
                gd.material.bend_compliance = 1e-2f;
                Cloth cloth = Cloth.CreateGrid(world, gd);
                int n0 = cloth.VertexCount;
                int indexCount = cloth.IndexCount;
                Check.Equal((int)cloth.GetInfo().triangle_count * 3, indexCount, "IndexCount is 3 per triangle");
                Check.Equal(0u, cloth.TopologyVersion, "an untorn cloth is at topology version 0");
                var sources = new int[n0];
                cloth.ReadVertexSources(sources);
                bool identity = true;
                for (int i = 0; i < n0; i++)
                {
                    identity &= sources[i] == i;
                }
                Check.That(identity, "ReadVertexSources of an untorn cloth: every vertex is its own source");
                var indices = new int[indexCount];
                cloth.ReadIndices(indices);
                var unsigned = new uint[indexCount + 3];
                cloth.ReadIndices(new Span<uint>(unsigned));
                bool same = unsigned[indexCount] == 0u;
                for (int i = 0; i < indexCount; i++)
                {
                    same &= unsigned[i] == (uint)indices[i];
                }
                Check.That(same, "ReadIndices(int[]) and ReadIndices(Span<uint>) agree; a longer buffer is accepted");

                SinewDynamics d = cloth.Dynamics;
                d.tear_threshold = 0.3f;
                cloth.Dynamics = d;
                var left = new int[rows];
                var right = new int[rows];
                for (int r = 0; r < rows; r++)
                {
                    left[r] = r * cols;
                    right[r] = r * cols + cols - 1;
                }
                Vec3[] start = Read(cloth);
                var lt = new Vec3[rows];
                var rt = new Vec3[rows];
                int firstTear = -1;
                uint version = 0;
                int versionChanges = 0;
                bool indicesValid = true, originalsKept = true;
                string badSources = "";
                for (int f = 0; f < 240; f++)
                {
                    float pull = f * 0.005f;
                    for (int r = 0; r < rows; r++)
                    {
                        lt[r] = new Vec3(start[left[r]].x - pull, start[left[r]].y, start[left[r]].z);
                        rt[r] = new Vec3(start[right[r]].x + pull, start[right[r]].y, start[right[r]].z);
                    }
                    cloth.SetPinTargets(left, lt);
                    cloth.SetPinTargets(right, rt);
                    world.Step(Dt);
                    uint now = cloth.TopologyVersion;
                    if (now != version)
                    {
                        versionChanges++;
                        version = now;
                        if (firstTear < 0)
                        {
                            firstTear = f;
                        }
                        // What a host does on a tear: read the vertex count, triangles and sources again.
                        int n = cloth.VertexCount;
                        indices = new int[cloth.IndexCount];
                        cloth.ReadIndices(indices);
                        sources = new int[n];
                        cloth.ReadVertexSources(sources);
                        foreach (int i in indices)
                        {
                            indicesValid &= i >= 0 && i < n;
                        }
                        for (int i = 0; i < n; i++)
                        {
                            originalsKept &= i >= n0 || sources[i] == i;
                            if ((sources[i] < 0 || sources[i] >= n0) && badSources.Length < 200)
                            {
                                badSources += " vertex " + i + " (tear " + now + ") -> " + sources[i] + ";";
                            }
                        }
                    }
                }
                Check.That(firstTear > 0, "tear_threshold 0.3: pulled apart, the cloth tears (not before it is pulled)", "first tear at frame " + firstTear);
                Check.That(versionChanges > 0 && cloth.TopologyVersion > 0, "TopologyVersion changes when it tears", versionChanges + " changes");
                Check.That(cloth.VertexCount > n0, "tearing adds vertices", cloth.VertexCount + " vertices, " + n0 + " before");
                Check.That(indicesValid, "after every tear: every index is within the new vertex count");
                Check.That(originalsKept, "after every tear: every original vertex is its own source");
                // The header promises "the original vertex it was copied from": a host indexes its
                // original UV and colour arrays with these, so a source past them would crash it.
                Check.That(badSources.Length == 0, "after every tear: every added vertex's source is one of the " + n0 + " original vertices",
                    "sources outside the original vertices:" + badSources);
                Vec3[] p = Read(cloth);
                Check.That(Dist(p[0], p[cols - 1]) > 1.5f, "the halves follow their pins apart", Dist(p[0], p[cols - 1]) + " m");
                Check.ThrowsSinew("ReadVertexSources into the old vertex count after a tear", SinewResult.SINEW_BUFFER_TOO_SMALL,
                    () => cloth.ReadVertexSources(new int[n0]));
            }

            using (World world = MakeWorld(2, 1))
            {
                Rope rope = Rope.Create(world, new[] { new Vec3(0, 0, 0), new Vec3(0.1f, 0, 0), new Vec3(0.2f, 0, 0) }, new[] { 0 });
                Check.Equal(0, rope.IndexCount, "a rope has no triangles (IndexCount 0)");
                rope.ReadIndices(Span<int>.Empty);
                Check.That(true, "ReadIndices(empty span) of a rope is accepted");
            }
        }

        // ---- generators ----

        static void CapeAndSkirt()
        {
            using (World world = MakeWorld(2, 1))
            {
                SinewClothCapeDesc cd = SinewClothCapeDesc.Default;
                cd.left_shoulder = SinewMat4.From(Mat4.Translation(-0.2f, 1.5f, 0f));
                cd.neck = SinewMat4.From(Mat4.Translation(0f, 1.6f, 0f));
                cd.right_shoulder = SinewMat4.From(Mat4.Translation(0.2f, 1.5f, 0f));
                Cloth cape = Cloth.CreateCape(world, cd);
                SinewClothSkirtDesc sd = SinewClothSkirtDesc.Default;
                sd.waist = SinewMat4.Translation(0f, 1f, 0f);
                Cloth skirt = Cloth.CreateSkirt(world, sd);
                Check.Equal((int)(cd.columns * cd.rows), cape.VertexCount, "CreateCape: columns × rows vertices");
                Check.Equal(SinewBodyKind.SINEW_BODY_CLOTH, cape.GetInfo().Kind, "a cape is a Cloth");
                Check.That(cape.IndexCount > 0 && skirt.IndexCount > 0, "cape and skirt have triangles");
                Check.That(skirt.GetInfo().pinned_count == sd.columns, "CreateSkirt: the top ring is pinned", skirt.GetInfo().pinned_count + " pinned");

                var bones = new Mat4[3];
                float capeLow = float.PositiveInfinity, skirtLow = float.PositiveInfinity;
                for (int f = 0; f < 120; f++)
                {
                    float x = f * 0.01f;
                    bones[0] = Mat4.Translation(x - 0.2f, 1.5f, 0f);
                    bones[1] = Mat4.Translation(x, 1.6f, 0f);
                    bones[2] = Mat4.Translation(x + 0.2f, 1.5f, 0f);
                    cape.SetBoneMatrices(bones);
                    skirt.SetBoneMatrix(Mat4.Translation(x, 1f, 0f));
                    world.Step(Dt);
                    foreach (Vec3 q in Read(cape))
                    {
                        capeLow = Math.Min(capeLow, q.y);
                    }
                    foreach (Vec3 q in Read(skirt))
                    {
                        skirtLow = Math.Min(skirtLow, q.y);
                    }
                }
                Check.That(capeLow >= 1.5f - cd.length - 1e-3f, "the cape's hem stays within its length of the shoulders (tethers on by default)", "lowest " + capeLow);
                float slant = (float)Math.Sqrt((sd.radius_bottom - sd.radius_top) * (sd.radius_bottom - sd.radius_top) + sd.length * sd.length);
                Check.That(skirtLow >= 1f - slant - 1e-3f, "the skirt's hem stays within its length of the waist", "lowest " + skirtLow);
                Vec3 top = Read(skirt)[0];
                Check.That(Math.Abs(top.x - (1.19f + sd.radius_top)) < 1e-4f && Math.Abs(top.y - 1f) < 1e-4f,
                    "the skirt's waist ring follows its bone", top.ToString());
            }
        }

        static void Hair()
        {
            using (World world = MakeWorld(8, 1))
            {
                // Four straight strands from a head at 1.7 m, pointing out and down.
                var roots = new[] { new Vec3(0.1f, 1.7f, 0f), new Vec3(-0.1f, 1.7f, 0f), new Vec3(0f, 1.7f, 0.1f), new Vec3(0f, 1.7f, -0.1f) };
                var dirs = new[] { new Vec3(1f, -1f, 0f), new Vec3(-1f, -1f, 0f), new Vec3(0f, -1f, 1f), new Vec3(0f, -1f, -1f) };
                SinewStrandsDesc sd = SinewStrandsDesc.Default;
                sd.particles_per_strand = 10;
                sd.segment_length = 0.03f;
                Strands hair = Strands.Create(world, roots, dirs, sd);
                Check.Equal(SinewBodyKind.SINEW_BODY_STRANDS, hair.GetInfo().Kind, "Strands.Create(roots, directions): kind Strands");
                Check.Equal(4, hair.StrandCount, "StrandCount");
                Check.Equal(10, hair.ParticlesPerStrand, "ParticlesPerStrand");
                Check.Equal(40, hair.VertexCount, "one vertex per particle");
                Check.Equal(8u, hair.GetInfo().pinned_count, "the first two particles of each strand are pinned");
                Vec3[] rest = Read(hair);
                Check.That(Dist(rest[0], roots[0]) < 1e-6f && Math.Abs(Dist(rest[0], rest[1]) - 0.03f) < 1e-5f,
                    "strand 0 starts at its root, segment_length apart");

                Mat4 head = Mat4.Translation(0f, 0f, 0f);
                for (int f = 1; f <= 60; f++)
                {
                    head = Mat4.RotationY(f, 0f, 0f, 0.005f * f);
                    hair.SetHeadTransform(head);
                    world.Step(Dt);
                }
                Vec3[] p = Read(hair);
                float worst = 0f;
                for (int s = 0; s < 4; s++)
                {
                    worst = Math.Max(worst, Dist(p[s * 10], Apply(head, rest[s * 10])));
                    worst = Math.Max(worst, Dist(p[s * 10 + 1], Apply(head, rest[s * 10 + 1])));
                }
                Check.That(worst < 1e-4f, "SetHeadTransform: the pinned roots follow the head bone", "off by " + worst);
                float reach = 0f, turned = 0f, stayed = 0f;
                for (int s = 0; s < 4; s++)
                {
                    reach = Math.Max(reach, Dist(p[s * 10 + 9], p[s * 10]));
                    turned = Math.Max(turned, Dist(p[s * 10 + 9], Apply(head, rest[s * 10 + 9])));
                    stayed = Math.Min(stayed == 0f ? float.PositiveInfinity : stayed, Dist(p[s * 10 + 9], rest[s * 10 + 9]));
                }
                Check.That(reach <= 9 * 0.03f + 1e-3f, "no tip is farther from its root than the strand is long", reach + " m");
                Check.That(turned < 0.5f * stayed, "the free tips turned with the head (nearer their carried place than their rest place)",
                    "tips " + turned + " m from where the head carried them, at least " + stayed + " m from where they started");
            }

            // A curled ponytail from explicit points, held by pose stiffness.
            Func<float, float> droop = stiffness =>
            {
                using (World world = MakeWorld(8, 1))
                {
                    var pts = new Vec3[5 * 12];
                    for (int s = 0; s < 5; s++)
                    {
                        for (int i = 0; i < 12; i++)
                        {
                            float a = i * 0.12f;
                            pts[s * 12 + i] = new Vec3(s * 0.01f, 1.7f + 0.15f * (float)Math.Sin(a), -0.1f - 0.15f * (1f - (float)Math.Cos(a)) - i * 0.005f);
                        }
                    }
                    Strands tail = Strands.Create(world, pts, 12, SinewStrandsDesc.Default);
                    SinewDynamics d = tail.Dynamics;
                    d.pose_stiffness = stiffness;
                    tail.Dynamics = d;
                    for (int f = 0; f < 120; f++)
                    {
                        tail.SetHeadTransform(SinewMat4.Identity);
                        world.Step(Dt);
                    }
                    Vec3[] p = Read(tail);
                    float tip = 0f;
                    for (int s = 0; s < 5; s++)
                    {
                        tip = Math.Max(tip, Dist(p[s * 12 + 11], pts[s * 12 + 11]));
                    }
                    Check.Equal(5, tail.StrandCount, "Strands.Create(points, 12): 60 points are 5 strands");
                    return tip;
                }
            };
            float held = droop(20f);
            float limp = droop(0f);
            Check.That(held < 0.05f && held < 0.5f * limp, "pose_stiffness 20/s holds a curled ponytail's shape",
                "tips moved " + held + " m, without stiffness " + limp + " m");
        }

        // ---- errors ----

        static void Errors()
        {
            using (World world = MakeWorld(2, 1))
            {
                Cloth cloth = HangingGrid(world, 4, 4, 0.05f);
                Vec3[] before = Read(cloth);

                Check.ThrowsSinew("SetSkinning with 3 weights for 16 vertices", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => cloth.SetSkinning(OneBone(3), 1), "16 vertices");
                BoneWeight[] bad = OneBone(16);
                bad[5].boneIndex0 = 7;
                Check.ThrowsSinew("SetSkinning naming bone 7 of 2", SinewResult.SINEW_OUT_OF_RANGE,
                    () => cloth.SetSkinning(bad, new[] { Mat4.Translation(0, 0, 0), Mat4.Translation(0, 0, 0) }), "bone 7");
                Check.ThrowsSinew("SetMaxDistances before skinning", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => cloth.SetMaxDistances(Filled(16, 0.1f)), "skinning");
                Check.ThrowsSinew("SetBackstops before skinning", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => cloth.SetBackstops(Filled(16, 0f), Filled(16, 1f)), "skinning");
                Check.ThrowsSinew("SetBoneMatrices before skinning", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => cloth.SetBoneMatrix(Mat4.Translation(0, 0, 0)), "skinning");
                Check.Throws<ArgumentException>("SetSkinning with a 16-byte weight type is refused before any native call",
                    () => cloth.SetSkinning(new SinewQuat[16], 1));
                ArgumentException e = Check.Throws<ArgumentException>("SetBoneMatrices with 12-byte elements is refused",
                    () => cloth.SetBoneMatrices(new Vec3[1]));
                Check.That(e != null && e.Message.Contains("64 bytes") && e.Message.Contains("Matrix4x4"), "... and the message says what is needed", e == null ? null : e.Message);
                e = Check.Throws<ArgumentException>("SetSkinning with 12-byte weights is refused", () => cloth.SetSkinning(new Vec3[16], 1));
                Check.That(e != null && e.Message.Contains("32 bytes") && e.Message.Contains("BoneWeight"), "... and the message names BoneWeight", e == null ? null : e.Message);
                Check.Throws<ArgumentOutOfRangeException>("SetSkinning with a negative bone count", () => cloth.SetSkinning(OneBone(16), -1));

                cloth.SetSkinning(OneBone(16), 1);
                Mat4 nan = Mat4.Translation(0, 0, 0);
                nan.m30 = float.NaN;
                Check.ThrowsSinew("a NaN bone matrix", SinewResult.SINEW_NON_FINITE, () => cloth.SetBoneMatrix(nan));
                Check.ThrowsSinew("two bone matrices for one bone", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => cloth.SetBoneMatrices(new[] { Mat4.Translation(0, 0, 0), Mat4.Translation(0, 0, 0) }), "2 bone matrices");
                Check.ThrowsSinew("max distances for 3 of 16 vertices", SinewResult.SINEW_INVALID_ARGUMENT, () => cloth.SetMaxDistances(Filled(3, 0.1f)));
                Check.ThrowsSinew("a NaN max distance", SinewResult.SINEW_NON_FINITE, () => cloth.SetMaxDistances(Filled(16, float.NaN)));
                Check.ThrowsSinew("16 backstop offsets but 15 radii", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => cloth.SetBackstops(Filled(16, 0f), Filled(15, 1f)), "15 radii");
                Check.ThrowsSinew("a negative backstop radius", SinewResult.SINEW_INVALID_ARGUMENT, () => cloth.SetBackstops(Filled(16, 0f), Filled(16, -1f)));

                Check.ThrowsSinew("an unknown tether mode", SinewResult.SINEW_INVALID_ARGUMENT, () => cloth.SetTethers((SinewTetherMode)9), "tether mode 9");
                Check.ThrowsSinew("a tether scale below 1", SinewResult.SINEW_INVALID_ARGUMENT, () => cloth.SetTethers(SinewTetherMode.SINEW_TETHER_GEODESIC, 0.5f), ">= 1");
                Check.ThrowsSinew("a NaN tether scale", SinewResult.SINEW_NON_FINITE, () => cloth.SetTethers(SinewTetherMode.SINEW_TETHER_GEODESIC, float.NaN));

                SinewDynamics d = SinewDynamics.Default;
                d.world_velocity_scale = 2f;
                Check.ThrowsSinew("world_velocity_scale 2", SinewResult.SINEW_INVALID_ARGUMENT, () => cloth.Dynamics = d, "world_velocity_scale");
                d = SinewDynamics.Default;
                d.drag = float.PositiveInfinity;
                Check.ThrowsSinew("an infinite drag", SinewResult.SINEW_NON_FINITE, () => cloth.Dynamics = d);
                d = SinewDynamics.Default;
                d.teleport_distance = -1f;
                Check.ThrowsSinew("a negative teleport distance", SinewResult.SINEW_INVALID_ARGUMENT, () => cloth.Dynamics = d);
                Check.Equal(SinewDynamics.Default.drag, cloth.Dynamics.drag, "refused dynamics left the body's unchanged");

                Mat4 stretched = Mat4.Translation(0, 0, 0);
                stretched.m00 = 2f;
                Check.ThrowsSinew("a non-uniformly scaled root", SinewResult.SINEW_INVALID_ARGUMENT, () => cloth.SetRootTransform(stretched), "non-uniform");
                Check.ThrowsSinew("a NaN root", SinewResult.SINEW_NON_FINITE, () => cloth.SetRootTransform(nan));
                Check.Throws<ArgumentException>("a root of the wrong size is refused", () => cloth.SetRootTransform(new Vec3(0, 0, 0)));

                SinewLod l = SinewLod.Default;
                l.reduced_substeps = 0;
                Check.ThrowsSinew("LOD with 0 reduced substeps", SinewResult.SINEW_INVALID_ARGUMENT, () => cloth.Lod = l, "reduced_substeps");
                Check.Equal(2u, cloth.Lod.reduced_substeps, "a refused Lod is not remembered");

                SinewWind w = SinewWind.Default;
                w.direction.x = float.NaN;
                Check.ThrowsSinew("a NaN wind direction", SinewResult.SINEW_NON_FINITE, () => world.SetWind(w));
                w = SinewWind.Default;
                w.speed = -1f;
                Check.ThrowsSinew("a negative wind speed", SinewResult.SINEW_INVALID_ARGUMENT, () => world.Wind = w, "wind speed");
                Check.Equal(0f, world.Wind.speed, "a refused Wind is not remembered");
                Check.ThrowsSinew("an infinite camera position", SinewResult.SINEW_NON_FINITE, () => world.SetCamera(new Vec3(float.PositiveInfinity, 0, 0)));

                Check.ThrowsSinew("ReadIndices into 4 of 54 indices", SinewResult.SINEW_BUFFER_TOO_SMALL, () => cloth.ReadIndices(new int[4]), "holds 4");
                Check.ThrowsSinew("ReadIndices into an empty span", SinewResult.SINEW_BUFFER_TOO_SMALL, () => cloth.ReadIndices(Span<uint>.Empty));
                Check.ThrowsSinew("ReadVertexSources one short", SinewResult.SINEW_BUFFER_TOO_SMALL, () => cloth.ReadVertexSources(new int[15]));

                SinewClothGridDesc free = SinewClothGridDesc.Default;
                free.PinMode = SinewPinMode.SINEW_PIN_NONE;
                Cloth unpinned = Cloth.CreateGrid(world, free);
                Check.ThrowsSinew("tethers on a cloth without pins", SinewResult.SINEW_INVALID_ARGUMENT, () => unpinned.SetTethers(SinewTetherMode.SINEW_TETHER_EUCLIDEAN), "pinned");

                SinewStrandsDesc sd = SinewStrandsDesc.Default;
                sd.particles_per_strand = 2;
                var root = new[] { new Vec3(0, 0, 0) };
                var down = new[] { new Vec3(0, -1, 0) };
                Check.ThrowsSinew("strands of 2 particles", SinewResult.SINEW_INVALID_ARGUMENT, () => Strands.Create(world, root, down, sd));
                sd.particles_per_strand = 5;
                Check.ThrowsSinew("a strand with a zero direction", SinewResult.SINEW_INVALID_ARGUMENT, () => Strands.Create(world, root, root, sd));
                Check.Throws<ArgumentException>("one root but two directions is refused by the wrapper",
                    () => Strands.Create(world, root, new[] { new Vec3(0, -1, 0), new Vec3(0, -1, 0) }, sd));
                Check.ThrowsSinew("hair from no points", SinewResult.SINEW_INVALID_ARGUMENT, () => Strands.Create(world, new Vec3[0], 5, sd));
                SinewClothSkirtDesc skirt = SinewClothSkirtDesc.Default;
                skirt.columns = 2;
                Check.ThrowsSinew("a skirt of 2 columns", SinewResult.SINEW_INVALID_ARGUMENT, () => Cloth.CreateSkirt(world, skirt));
                SinewClothCapeDesc cape = SinewClothCapeDesc.Default;
                cape.width = float.NaN;
                Check.ThrowsSinew("a cape of NaN width", SinewResult.SINEW_NON_FINITE, () => Cloth.CreateCape(world, cape));
                Check.Throws<ArgumentNullException>("CreateCape(null world)", () => Cloth.CreateCape(null, SinewClothCapeDesc.Default));

                Check.That(MaxStep(before, Read(cloth)) == 0f, "failed calls left the cloth where it was");

                cloth.Dispose();
                Check.ThrowsSinew("SetBoneMatrices on a disposed body", SinewResult.SINEW_INVALID_HANDLE, () => cloth.SetBoneMatrix(Mat4.Translation(0, 0, 0)), "not valid");
                Check.ThrowsSinew("Dynamics of a disposed body", SinewResult.SINEW_INVALID_HANDLE, () => { SinewDynamics x = cloth.Dynamics; });
                Check.ThrowsSinew("Visible on a disposed body", SinewResult.SINEW_INVALID_HANDLE, () => cloth.Visible = false);
                GC.KeepAlive(unpinned);
            }
        }
    }
}
