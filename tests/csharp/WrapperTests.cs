// Tests of the C# wrapper against the real native library, on Mono.
//
//   mono WrapperTests.exe <c_reference.bin> <layout.txt>
//
// Both files come from tests/csharp/c_reference.c (see scripts/test-csharp.sh). Only the
// public API of Sinew.dll is used, as a game would.
using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace Sinew.Tests
{
    /// <summary>Stands for UnityEngine.Vector3: any 12-byte struct of three floats.</summary>
    [StructLayout(LayoutKind.Sequential)]
    struct Vec3
    {
        public float x, y, z;

        public Vec3(float x, float y, float z)
        {
            this.x = x;
            this.y = y;
            this.z = z;
        }

        public override string ToString()
        {
            return "(" + x + ", " + y + ", " + z + ")";
        }
    }

    /// <summary>Stands for UnityEngine.Matrix4x4: 16 floats, column-major (m&lt;row&gt;&lt;column&gt;).</summary>
    [StructLayout(LayoutKind.Sequential)]
    struct Mat4
    {
        public float m00, m10, m20, m30;
        public float m01, m11, m21, m31;
        public float m02, m12, m22, m32;
        public float m03, m13, m23, m33;

        public static Mat4 Translation(float x, float y, float z)
        {
            Mat4 m = default(Mat4);
            m.m00 = m.m11 = m.m22 = m.m33 = 1f;
            m.m03 = x;
            m.m13 = y;
            m.m23 = z;
            return m;
        }

        /// <summary>Rotation by <paramref name="degrees"/> about +Y, then a translation.</summary>
        public static Mat4 RotationY(float degrees, float x, float y, float z)
        {
            Mat4 m = Translation(x, y, z);
            double a = degrees * Math.PI / 180.0;
            float c = (float)Math.Cos(a), s = (float)Math.Sin(a);
            m.m00 = c;
            m.m02 = s;
            m.m20 = -s;
            m.m22 = c;
            return m;
        }
    }

    struct WithReference
    {
        public float x, y;
        public string name;
    }

    /// <summary>
    /// The scene of c_reference.c, through the wrapper. Keep the two in step: the test
    /// compares their readback bit for bit.
    /// </summary>
    sealed class ReferenceScene : IDisposable
    {
        public const int GridColumns = 12, GridRows = 10, MeshRows = 3, RopePoints = 8, Frames = 40;
        public const float Dt = 1f / 50f;
        public static readonly int[] GridPins = { 0, GridColumns - 1 };

        public readonly World World;
        public readonly Cloth Grid;
        public readonly Cloth Mesh;
        public readonly Rope Rope;
        readonly Vec3[] start = new Vec3[GridColumns * GridRows];
        readonly Vec3[] targets = new Vec3[2];

        static int MeshLeft(int r, int c)
        {
            return r * 3 + c;
        }

        static int MeshRight(int r, int c)
        {
            return MeshRows * 3 + r * 2 + (c - 2);
        }

        public static void MeshData(out Vec3[] positions, out int[] indices, out float[] inverseMasses)
        {
            positions = new Vec3[MeshRows * 5];
            inverseMasses = new float[MeshRows * 5];
            for (int r = 0; r < MeshRows; r++)
            {
                for (int c = 0; c < 4; c++)
                {
                    var p = new Vec3(1f + 0.1f * c, 1f, 0.1f * r);
                    float w = r == 0 ? 0f : 100f;
                    if (c <= 2)
                    {
                        positions[MeshLeft(r, c)] = p;
                        inverseMasses[MeshLeft(r, c)] = w;
                    }
                    if (c >= 2)
                    {
                        positions[MeshRight(r, c)] = p;
                        inverseMasses[MeshRight(r, c)] = w;
                    }
                }
            }
            var idx = new List<int>();
            for (int r = 0; r + 1 < MeshRows; r++)
            {
                for (int c = 0; c < 3; c++)
                {
                    Func<int, int, int> v = c < 2 ? (Func<int, int, int>)MeshLeft : MeshRight;
                    idx.Add(v(r, c));
                    idx.Add(v(r + 1, c));
                    idx.Add(v(r, c + 1));
                    idx.Add(v(r, c + 1));
                    idx.Add(v(r + 1, c));
                    idx.Add(v(r + 1, c + 1));
                }
            }
            indices = idx.ToArray();
        }

        public ReferenceScene()
        {
            SinewWorldDesc wd = SinewWorldDesc.Default;
            wd.thread_count = 2;
            World = new World(wd);

            SinewClothGridDesc gd = SinewClothGridDesc.Default;
            gd.columns = GridColumns;
            gd.rows = GridRows;
            gd.spacing = 0.05f;
            gd.origin = new SinewVec3(0f, 1f, 0f);
            gd.material.stretch_compliance = 1e-6f;
            Grid = Cloth.CreateGrid(World, gd, GridPins);

            Vec3[] positions;
            int[] indices;
            float[] inverseMasses;
            MeshData(out positions, out indices, out inverseMasses);
            Mesh = Cloth.CreateMesh(World, positions, indices, inverseMasses, SinewClothMeshDesc.Default);

            var points = new Vec3[RopePoints];
            for (int i = 0; i < RopePoints; i++)
            {
                points[i] = new Vec3(-1f - 0.1f * i, 1f, 0f);
            }
            Rope = Rope.Create(World, points, new[] { 0 });

            Grid.ReadPositions(start);
        }

        /// <summary>Frame <paramref name="frame"/> (1-based): slide the grid's pins, then step.</summary>
        public void Frame(int frame, bool async)
        {
            float offset = frame / 64f;
            for (int i = 0; i < 2; i++)
            {
                targets[i] = start[GridPins[i]];
                targets[i].x = start[GridPins[i]].x + offset;
            }
            Grid.SetPinTargets(GridPins, targets);
            if (async)
            {
                World.StepBegin(Dt);
                World.StepEnd();
            }
            else
            {
                World.Step(Dt);
            }
        }

        public void Run(bool async)
        {
            for (int frame = 1; frame <= Frames; frame++)
            {
                Frame(frame, async);
            }
        }

        /// <summary>The readback in c_reference.c's file format, through each kind of destination:
        /// an array (grid), a span over part of a bigger array (mesh), unmanaged memory (rope).</summary>
        public unsafe byte[] Readback()
        {
            var bytes = new List<byte>();

            var grid = new Vec3[Grid.VertexCount];
            Grid.ReadPositions(grid);
            bytes.AddRange(MemoryMarshal.AsBytes(new Span<Vec3>(grid)).ToArray());
            Grid.ReadNormals(grid);
            bytes.AddRange(MemoryMarshal.AsBytes(new Span<Vec3>(grid)).ToArray());

            int n = Mesh.VertexCount;
            var big = new Vec3[n + 7];
            Span<Vec3> window = new Span<Vec3>(big, 3, n);
            Mesh.ReadPositions(window);
            bytes.AddRange(MemoryMarshal.AsBytes(window).ToArray());
            Mesh.ReadNormals(window);
            bytes.AddRange(MemoryMarshal.AsBytes(window).ToArray());

            int r = Rope.VertexCount;
            IntPtr native = Marshal.AllocHGlobal(r * 12);
            try
            {
                var view = new Span<byte>((void*)native, r * 12);
                Rope.ReadPositions(native, r);
                bytes.AddRange(view.ToArray());
                Rope.ReadNormals(native, r);
                bytes.AddRange(view.ToArray());
            }
            finally
            {
                Marshal.FreeHGlobal(native);
            }
            return bytes.ToArray();
        }

        public void Dispose()
        {
            World.Dispose();
        }
    }

    static class WrapperTests
    {
        static string referencePath;
        static string layoutPath;

        static int Main(string[] args)
        {
            if (args.Length != 4)
            {
                Console.Error.WriteLine("usage: WrapperTests.exe <c_reference.bin> <layout.txt> <C recording to load> <C# recording to write>");
                return 2;
            }
            referencePath = args[0];
            layoutPath = args[1];

            Check.Group("library: ABI version and declarations match the header", Library);
            Check.Group("world, grid cloth, mesh cloth, rope: create, step, read", CreateStepRead);
            Check.Group("readback into arrays, spans and unmanaged memory of any 12-byte struct", Readback);
            Check.Group("pins: pin, unpin, move pin targets", Pins);
            Check.Group("material, bounds, teleport", BodyProperties);
            Check.Group("material presets in physical units", MaterialPresets);
            Check.Group("colliders and collision pairs", Colliders);
            Check.Group("colliders: a cloth draped on a sphere, checked against its geometry", ColliderDrape);
            Check.Group("colliders: Sphere, Capsule, Plane, Box moved every frame by SetTransform", ColliderShapes);
            Check.Group("colliders: layers, collision_mask, material conveniences", ColliderLayers);
            Check.Group("colliders: errors throw SinewException with the native message", ColliderErrors);
            Check.Group("colliders: finalisers after the world is gone", ColliderFinalisers);
            Check.Group("mesh colliders: a floor of two triangles, sharing, errors", MeshColliders);
            Check.Group("asynchronous step: begin/end", AsyncStep);
            Check.Group("errors: stale handles throw SinewException with the native message", StaleHandles);
            Check.Group("errors: wrong buffers and arguments", WrongBuffers);
            Check.Group("errors: a panic inside the library", Panic);
            Check.Group("errors: a recovered body is reported and logged once", RecoveriesAreLoggedOnce);
            Check.Group("dispose twice", DoubleDispose);
            Check.Group("finalisers", Finalisers);
            CharacterTests.Run();
            RagdollTests.Run();
            SoftBodyTests.Run();
            SnapshotTests.Run();
            RecordingTests.Run(args[2], args[3]);
            Check.Group("no allocation per frame", NoAllocation);
            Check.Group("C# readback equals C readback of the same scene", SameAsC);
            return Check.Finish("WrapperTests");
        }

        // ---- library ----

        static void Library()
        {
            var layout = new Dictionary<string, long>();
            foreach (string line in File.ReadAllLines(layoutPath))
            {
                int cut = line.LastIndexOf(' ');
                layout[line.Substring(0, cut)] = long.Parse(line.Substring(cut + 1));
            }

            Check.Equal((long)SinewLibrary.ExpectedAbiVersion, layout["const SINEW_ABI_VERSION"], "ExpectedAbiVersion equals the header's SINEW_ABI_VERSION");
            Check.Equal(SinewLibrary.ExpectedAbiVersion, SinewLibrary.LibraryAbiVersion, "the loaded library reports the expected ABI version");
            Check.That(SinewLibrary.IsCompatible, "IsCompatible");

            Check.Equal(layout["const SINEW_PIN_NONE"], (long)SinewPinMode.SINEW_PIN_NONE, "SinewPinMode.SINEW_PIN_NONE = SINEW_PIN_NONE");
            Check.Equal(layout["const SINEW_PIN_TOP_ROW"], (long)SinewPinMode.SINEW_PIN_TOP_ROW, "SinewPinMode.SINEW_PIN_TOP_ROW = SINEW_PIN_TOP_ROW");
            Check.Equal(layout["const SINEW_PIN_TOP_CORNERS"], (long)SinewPinMode.SINEW_PIN_TOP_CORNERS, "SinewPinMode.SINEW_PIN_TOP_CORNERS = SINEW_PIN_TOP_CORNERS");
            Check.Equal(layout["const SINEW_PIN_LIST"], (long)SinewPinMode.SINEW_PIN_LIST, "SinewPinMode.SINEW_PIN_LIST = SINEW_PIN_LIST");
            Check.Equal(layout["const SINEW_MATERIAL_SILK"], (long)SinewMaterialPreset.SINEW_MATERIAL_SILK, "SinewMaterialPreset.SINEW_MATERIAL_SILK = SINEW_MATERIAL_SILK");
            Check.Equal(layout["const SINEW_MATERIAL_FLESH"], (long)SinewMaterialPreset.SINEW_MATERIAL_FLESH, "SinewMaterialPreset.SINEW_MATERIAL_FLESH = SINEW_MATERIAL_FLESH");
            Check.Equal(layout["const SINEW_BODY_CLOTH"], (long)SinewBodyKind.SINEW_BODY_CLOTH, "SinewBodyKind.SINEW_BODY_CLOTH = SINEW_BODY_CLOTH");
            Check.Equal(layout["const SINEW_BODY_ROPE"], (long)SinewBodyKind.SINEW_BODY_ROPE, "SinewBodyKind.SINEW_BODY_ROPE = SINEW_BODY_ROPE");
            Check.Equal(layout["const SINEW_BODY_STRANDS"], (long)SinewBodyKind.SINEW_BODY_STRANDS, "SinewBodyKind.SINEW_BODY_STRANDS = SINEW_BODY_STRANDS");
            Check.Equal(layout["const SINEW_TETHER_NONE"], (long)SinewTetherMode.SINEW_TETHER_NONE, "SinewTetherMode.SINEW_TETHER_NONE = SINEW_TETHER_NONE");
            Check.Equal(layout["const SINEW_TETHER_EUCLIDEAN"], (long)SinewTetherMode.SINEW_TETHER_EUCLIDEAN, "SinewTetherMode.SINEW_TETHER_EUCLIDEAN = SINEW_TETHER_EUCLIDEAN");
            Check.Equal(layout["const SINEW_TETHER_GEODESIC"], (long)SinewTetherMode.SINEW_TETHER_GEODESIC, "SinewTetherMode.SINEW_TETHER_GEODESIC = SINEW_TETHER_GEODESIC");
            Check.Equal(layout["const SINEW_KERNEL_AUTO"], (long)SinewKernel.SINEW_KERNEL_AUTO, "SinewKernel.SINEW_KERNEL_AUTO = SINEW_KERNEL_AUTO");
            Check.Equal(layout["const SINEW_KERNEL_SCALAR"], (long)SinewKernel.SINEW_KERNEL_SCALAR, "SinewKernel.SINEW_KERNEL_SCALAR = SINEW_KERNEL_SCALAR");
            Check.Equal(layout["const SINEW_KERNEL_SSE2"], (long)SinewKernel.SINEW_KERNEL_SSE2, "SinewKernel.SINEW_KERNEL_SSE2 = SINEW_KERNEL_SSE2");
            Check.Equal(layout["const SINEW_KERNEL_AVX"], (long)SinewKernel.SINEW_KERNEL_AVX, "SinewKernel.SINEW_KERNEL_AVX = SINEW_KERNEL_AVX");
            Check.Equal(layout["const SINEW_SHAPE_SPHERE"], (long)SinewShape.SINEW_SHAPE_SPHERE, "SinewShape.SINEW_SHAPE_SPHERE = SINEW_SHAPE_SPHERE");
            Check.Equal(layout["const SINEW_SHAPE_CAPSULE"], (long)SinewShape.SINEW_SHAPE_CAPSULE, "SinewShape.SINEW_SHAPE_CAPSULE = SINEW_SHAPE_CAPSULE");
            Check.Equal(layout["const SINEW_SHAPE_PLANE"], (long)SinewShape.SINEW_SHAPE_PLANE, "SinewShape.SINEW_SHAPE_PLANE = SINEW_SHAPE_PLANE");
            Check.Equal(layout["const SINEW_SHAPE_BOX"], (long)SinewShape.SINEW_SHAPE_BOX, "SinewShape.SINEW_SHAPE_BOX = SINEW_SHAPE_BOX");
            Check.Equal(layout["const SINEW_STRANDS_STRAIGHT"], (long)SinewStrandsMode.SINEW_STRANDS_STRAIGHT, "SinewStrandsMode.SINEW_STRANDS_STRAIGHT = SINEW_STRANDS_STRAIGHT");
            Check.Equal(layout["const SINEW_STRANDS_POINTS"], (long)SinewStrandsMode.SINEW_STRANDS_POINTS, "SinewStrandsMode.SINEW_STRANDS_POINTS = SINEW_STRANDS_POINTS");
            Check.Equal(layout["const SINEW_JOINT_FREE"], (long)SinewJointKind.SINEW_JOINT_FREE, "SinewJointKind.SINEW_JOINT_FREE = SINEW_JOINT_FREE");
            Check.Equal(layout["const SINEW_JOINT_FIXED"], (long)SinewJointKind.SINEW_JOINT_FIXED, "SinewJointKind.SINEW_JOINT_FIXED = SINEW_JOINT_FIXED");
            Check.Equal(layout["const SINEW_JOINT_HINGE"], (long)SinewJointKind.SINEW_JOINT_HINGE, "SinewJointKind.SINEW_JOINT_HINGE = SINEW_JOINT_HINGE");
            Check.Equal(layout["const SINEW_JOINT_SWING_TWIST"], (long)SinewJointKind.SINEW_JOINT_SWING_TWIST, "SinewJointKind.SINEW_JOINT_SWING_TWIST = SINEW_JOINT_SWING_TWIST");
            Check.Equal(layout["const SINEW_HUMANOID_BONE_COUNT"], (long)SinewHumanoidBone.SINEW_HUMANOID_BONE_COUNT, "SinewHumanoidBone.SINEW_HUMANOID_BONE_COUNT = SINEW_HUMANOID_BONE_COUNT");
            Check.Equal(layout["const SINEW_LYING_FACE_UP"], (long)LyingSide.FaceUp, "LyingSide.FaceUp = SINEW_LYING_FACE_UP");
            Check.Equal(layout["const SINEW_LYING_FACE_DOWN"], (long)LyingSide.FaceDown, "LyingSide.FaceDown = SINEW_LYING_FACE_DOWN");
            Check.Equal(layout["const SINEW_LYING_LEFT_SIDE"], (long)LyingSide.LeftSide, "LyingSide.LeftSide = SINEW_LYING_LEFT_SIDE");
            Check.Equal(layout["const SINEW_LYING_RIGHT_SIDE"], (long)LyingSide.RightSide, "LyingSide.RightSide = SINEW_LYING_RIGHT_SIDE");
            Check.Equal(layout["const SINEW_RAGDOLL_EVENT_BALANCE_LOST"], (long)RagdollEvents.BalanceLost, "RagdollEvents.BalanceLost = SINEW_RAGDOLL_EVENT_BALANCE_LOST");
            Check.Equal(layout["const sizeof(enum SinewResult)"], (long)Marshal.SizeOf(Enum.GetUnderlyingType(typeof(SinewResult))), "SinewResult has the C enum's size");

            Type[] structs =
            {
                typeof(SinewVec3), typeof(SinewQuat), typeof(SinewMat4), typeof(SinewWorld), typeof(SinewBody),
                typeof(SinewMaterial), typeof(SinewWorldDesc), typeof(SinewWorldStats), typeof(SinewBodyInfo),
                typeof(SinewClothGridDesc), typeof(SinewClothMeshDesc), typeof(SinewRopeDesc),
                typeof(SinewCollider), typeof(SinewColliderDesc),
                typeof(SinewBoneWeight), typeof(SinewDynamics), typeof(SinewLod), typeof(SinewWind),
                typeof(SinewStrandsDesc), typeof(SinewClothCapeDesc), typeof(SinewClothSkirtDesc),
                typeof(SinewRagdoll), typeof(SinewJointDesc), typeof(SinewBoneDesc), typeof(SinewRagdollSettings),
                typeof(SinewHumanoidBones), typeof(SinewDriveState), typeof(SinewGetUpQuery), typeof(SinewGetUpInfo),
            };
            foreach (Type t in structs)
            {
                long c;
                if (layout.TryGetValue("sizeof " + t.Name, out c))
                {
                    Check.Equal(c, (long)Marshal.SizeOf(t), "sizeof " + t.Name + " matches C");
                }
                else
                {
                    Check.That(false, "sizeof " + t.Name + " is in the C layout file");
                }
            }
            foreach (KeyValuePair<string, long> kv in layout)
            {
                if (!kv.Key.StartsWith("offsetof "))
                {
                    continue;
                }
                string[] typeField = kv.Key.Substring("offsetof ".Length).Split('.');
                Type t = typeof(SinewVec3).Assembly.GetType("Sinew." + typeField[0]);
                long cs = t == null ? -1 : (long)Marshal.OffsetOf(t, typeField[1]);
                Check.Equal(kv.Value, cs, "offsetof " + typeField[0] + "." + typeField[1] + " matches C");
            }
        }

        // ---- create, step, read ----

        static void CreateStepRead()
        {
            using (var world = new World())
            {
                SinewClothGridDesc gd = SinewClothGridDesc.Default;
                gd.columns = 8;
                gd.rows = 6;
                gd.PinMode = SinewPinMode.SINEW_PIN_TOP_ROW;
                Cloth grid = Cloth.CreateGrid(world, gd);
                Check.Equal(48, grid.VertexCount, "grid cloth: vertex count = columns × rows");
                SinewBodyInfo info = grid.GetInfo();
                Check.Equal(SinewBodyKind.SINEW_BODY_CLOTH, info.Kind, "grid cloth: kind is Cloth");
                Check.Equal(8u, info.pinned_count, "grid cloth: top row pinned");

                Vec3[] positions;
                int[] indices;
                float[] inverseMasses;
                ReferenceScene.MeshData(out positions, out indices, out inverseMasses);
                Cloth mesh = Cloth.CreateMesh(world, new ReadOnlySpan<Vec3>(positions), new ReadOnlySpan<int>(indices), inverseMasses, SinewClothMeshDesc.Default);
                SinewBodyInfo mi = mesh.GetInfo();
                Check.Equal(15, mesh.VertexCount, "mesh cloth: reads back the host's 15 vertices");
                Check.Equal(12u, mi.particle_count, "mesh cloth: the seam is welded into 12 particles");
                Check.Equal((uint)(indices.Length / 3), mi.triangle_count, "mesh cloth: triangle count");

                Rope rope = Rope.Create(world, new[] { new Vec3(0, 2, 0), new Vec3(0.1f, 2, 0), new Vec3(0.2f, 2, 0) }, new[] { 0 });
                Check.Equal(SinewBodyKind.SINEW_BODY_ROPE, rope.GetInfo().Kind, "rope: kind is Rope");
                Check.Equal(3u, world.GetStats().body_count, "world counts three bodies");

                var before = new Vec3[48];
                grid.ReadPositions(before);
                for (int i = 0; i < 30; i++)
                {
                    world.Step(1f / 60f);
                }
                var after = new Vec3[48];
                grid.ReadPositions(after);
                Check.That(after[47].y < before[47].y - 0.01f, "grid cloth: the free corner falls", before[47] + " -> " + after[47]);
                Check.That(after[0].y == before[0].y, "grid cloth: a pinned particle stays", before[0] + " -> " + after[0]);
                Check.Equal(30ul, world.GetStats().steps, "30 frames of 1/60 s are 30 fixed steps");

                var meshNow = new Vec3[15];
                mesh.ReadPositions(meshNow);
                bool seamTogether = true;
                for (int r = 0; r < 3; r++)
                {
                    Vec3 left = meshNow[r * 3 + 2], right = meshNow[9 + r * 2];
                    seamTogether &= left.x == right.x && left.y == right.y && left.z == right.z;
                }
                Check.That(seamTogether, "mesh cloth: both copies of a seam vertex read the same position");
                Check.That(meshNow[14].y < 1f - 0.01f, "mesh cloth: a free vertex falls", meshNow[14].ToString());
                Check.That(meshNow[0].y == 1f, "mesh cloth: a vertex of inverse mass 0 stays", meshNow[0].ToString());

                world.SetGravity(0f, 0f, 0f);
                world.SetGravity(new SinewVec3(0f, -9.81f, 0f));
                Check.That(true, "SetGravity accepts a vector");
            }
        }

        // ---- readback ----

        static unsafe void Readback()
        {
            using (var scene = new ReferenceScene())
            {
                scene.Run(false);
                int n = scene.Grid.VertexCount;

                var asVec3 = new Vec3[n];
                scene.Grid.ReadPositions(asVec3);
                var asSinew = new SinewVec3[n];
                scene.Grid.ReadPositions(asSinew);
                var spanTarget = new Vec3[n + 4];
                scene.Grid.ReadPositions(new Span<Vec3>(spanTarget, 2, n));
                // (mcs emits invalid IL for `Span<T> s = stackalloc T[n]`; Roslyn does not.)
                SinewVec3* onStack = stackalloc SinewVec3[n];
                var stack = new Span<SinewVec3>(onStack, n);
                scene.Grid.ReadPositions(stack);

                bool same = true;
                for (int i = 0; i < n; i++)
                {
                    same &= asVec3[i].x == asSinew[i].x && asVec3[i].y == asSinew[i].y && asVec3[i].z == asSinew[i].z;
                    same &= asVec3[i].x == spanTarget[i + 2].x && asVec3[i].y == spanTarget[i + 2].y && asVec3[i].z == spanTarget[i + 2].z;
                    same &= asVec3[i].x == stack[i].x && asVec3[i].y == stack[i].y && asVec3[i].z == stack[i].z;
                }
                Check.That(same, "positions read into Vec3[], SinewVec3[], a Span window and stackalloc agree");
                Check.That(spanTarget[0].x == 0 && spanTarget[1].y == 0 && spanTarget[n + 2].z == 0 && spanTarget[n + 3].x == 0,
                    "a span window: nothing outside it is written");

                var bigger = new Vec3[n + 5];
                for (int i = n; i < n + 5; i++)
                {
                    bigger[i] = new Vec3(7f, 7f, 7f);
                }
                scene.Grid.ReadPositions(bigger);
                Check.That(bigger[n].x == 7f && bigger[n + 4].z == 7f && bigger[n - 1].x == asVec3[n - 1].x,
                    "a longer buffer is accepted; elements past the vertex count are left alone");

                var normals = new Vec3[n];
                scene.Grid.ReadNormals(normals);
                bool unit = true;
                for (int i = 0; i < n; i++)
                {
                    float len = (float)Math.Sqrt(normals[i].x * normals[i].x + normals[i].y * normals[i].y + normals[i].z * normals[i].z);
                    unit &= Math.Abs(len - 1f) < 1e-3f;
                }
                Check.That(unit, "normals read into a Vec3[] are unit vectors");

                int r = scene.Rope.VertexCount;
                var ropeNormals = new Vec3[r];
                scene.Rope.ReadNormals(new Span<Vec3>(ropeNormals));
                Check.That(ropeNormals[0].y == 1f && ropeNormals[r - 1].y == 1f, "a rope's normals are +Y (read into a span)");
            }
        }

        // ---- pins ----

        static void Pins()
        {
            using (var world = new World())
            {
                SinewClothGridDesc gd = SinewClothGridDesc.Default;
                gd.columns = 6;
                gd.rows = 6;
                gd.spacing = 0.1f;
                gd.PinMode = SinewPinMode.SINEW_PIN_NONE;
                Cloth cloth = Cloth.CreateGrid(world, gd);
                Check.Equal(0u, cloth.GetInfo().pinned_count, "PinMode.None pins nothing");

                cloth.Pin(new[] { 0, 5 });
                Check.Equal(2u, cloth.GetInfo().pinned_count, "Pin(int[]) pins two vertices");
                cloth.Unpin(new uint[] { 5 });
                Check.Equal(1u, cloth.GetInfo().pinned_count, "Unpin(uint[]) releases one");

                var start = new Vec3[36];
                cloth.ReadPositions(start);
                var indices = new[] { 0, 5 };
                var targets = new Vec3[2];
                for (int frame = 1; frame <= 20; frame++)
                {
                    targets[0] = new Vec3(start[0].x, start[0].y + 0.01f * frame, start[0].z);
                    targets[1] = new Vec3(start[5].x, start[5].y + 0.01f * frame, start[5].z);
                    cloth.SetPinTargets(indices, targets);
                    world.Step(1f / 60f);
                }
                var now = new Vec3[36];
                cloth.ReadPositions(now);
                Check.That(Math.Abs(now[0].y - (start[0].y + 0.2f)) < 1e-4f && Math.Abs(now[5].y - (start[5].y + 0.2f)) < 1e-4f,
                    "SetPinTargets(int[], Vec3[]): pinned vertices reach their targets", now[0] + " " + now[5]);
                Check.Equal(2u, cloth.GetInfo().pinned_count, "a pin target pins a vertex not yet pinned");

                // The span overloads, with uint indices and the library's own vector type.
                ReadOnlySpan<uint> spanIndices = new uint[] { 0 };
                ReadOnlySpan<SinewVec3> spanTargets = new[] { new SinewVec3(start[0].x, start[0].y, start[0].z) };
                cloth.SetPinTargets(spanIndices, spanTargets);
                world.Step(1f / 60f);
                cloth.ReadPositions(now);
                Check.That(Math.Abs(now[0].y - start[0].y) < 1e-4f, "SetPinTargets(span, span) moves the pin back", now[0].ToString());

                var pinned = new[] { 1, 2, 3 };
                Cloth listed = Cloth.CreateGrid(world, gd, pinned);
                Check.Equal(3u, listed.GetInfo().pinned_count, "CreateGrid with a pin list pins exactly those");
            }
        }

        // ---- material, bounds, teleport ----

        static void BodyProperties()
        {
            using (var world = new World())
            {
                Cloth cloth = Cloth.CreateGrid(world, SinewClothGridDesc.Default);
                SinewMaterial m = cloth.Material;
                Check.That(m.particle_mass > 0f, "Material reads the body's material");
                m.damping = 0.25f;
                cloth.Material = m;
                Check.Equal(0.25f, cloth.Material.damping, "Material set then get round-trips");
                // Mass from density: the default 16 x 16 grid 0.1 m apart is 1.5 m x 1.5 m.
                m.Density = 0.2f;
                cloth.Material = m;
                Check.That(Math.Abs(cloth.GetInfo().mass - 0.45f) < 1e-5f, "0.2 kg/m2 on 2.25 m2 weighs 0.45 kg", "mass " + cloth.GetInfo().mass);
                m.Density = -1f;
                Check.ThrowsSinew("a negative density", SinewResult.SINEW_INVALID_ARGUMENT, () => { cloth.Material = m; }, "material.density");
                Check.That(Math.Abs(cloth.GetInfo().mass - 0.45f) < 1e-5f, "a refused material leaves the masses");
                m.Density = 0.2f;
                m.BendStiffness = 1e-4f;
                cloth.Material = m;
                Check.Equal(1e-4f, cloth.Material.BendStiffness, "BendStiffness (N m) set then get round-trips");

                SinewVec3 lo, hi;
                cloth.GetBounds(out lo, out hi);
                Vec3 lo2, hi2;
                cloth.GetBounds(out lo2, out hi2);
                Check.That(lo.x == lo2.x && hi.z == hi2.z && lo.x < hi.x, "GetBounds into SinewVec3 and into any 12-byte struct agree");

                cloth.Teleport(Mat4.Translation(1f, 2f, 3f));
                Vec3 lo3, hi3;
                cloth.GetBounds(out lo3, out hi3);
                Check.That(Math.Abs(lo3.x - (lo.x + 1f)) < 1e-5f && Math.Abs(lo3.y - (lo.y + 2f)) < 1e-5f && Math.Abs(hi3.z - (hi.z + 3f)) < 1e-5f,
                    "Teleport(any 64-byte column-major matrix) moves the body", lo + " -> " + lo3);
                cloth.Teleport(SinewMat4.Translation(-1f, -2f, -3f));
                cloth.GetBounds(out lo3, out hi3);
                Check.That(Math.Abs(lo3.x - lo.x) < 1e-5f && Math.Abs(hi3.y - hi.y) < 1e-5f, "Teleport(SinewMat4) moves it back");
                Check.That(cloth.MaxStretch >= 0f, "MaxStretch reads");
                Check.Equal(0.0, cloth.StepTimeMs, "StepTimeMs: 0 before any step");
                world.Step(1f / 60f);
                Check.That(cloth.StepTimeMs > 0.0, "StepTimeMs: the stepped cloth took some time", cloth.StepTimeMs.ToString());
            }
        }

        /// <summary>Every preset through <see cref="SinewMaterial.Preset"/>: a grid takes it, a 1 m²
        /// denim grid weighs the preset's 0.4 kg/m², and a value no preset has throws.</summary>
        static void MaterialPresets()
        {
            using (var world = new World())
            {
                Cloth cloth = Cloth.CreateGrid(world, SinewClothGridDesc.Default);
                bool all = true;
                foreach (SinewMaterialPreset p in Enum.GetValues(typeof(SinewMaterialPreset)))
                {
                    SinewMaterial m = SinewMaterial.Preset(p);
                    cloth.Material = m;
                    all &= m.Density > 0f && cloth.Material.Density == m.Density;
                }
                Check.Equal(10, Enum.GetValues(typeof(SinewMaterialPreset)).Length, "ten presets");
                Check.That(all, "every preset is accepted by a cloth and reads back");
                world.Step(1f / 60f);
                SinewClothGridDesc d = SinewClothGridDesc.Default;
                d.columns = 11;
                d.rows = 11;
                d.spacing = 0.1f;
                d.material = SinewMaterial.Preset(SinewMaterialPreset.SINEW_MATERIAL_DENIM);
                Cloth denim = Cloth.CreateGrid(world, d);
                Check.That(Math.Abs(denim.GetInfo().mass - 0.4f) < 1e-5f, "a 1 m x 1 m denim grid weighs 0.4 kg", "mass " + denim.GetInfo().mass);
                Check.That(SinewMaterial.Preset(SinewMaterialPreset.SINEW_MATERIAL_LEATHER).BendStiffness > SinewMaterial.Preset(SinewMaterialPreset.SINEW_MATERIAL_SILK).BendStiffness,
                    "leather bends stiffer than silk");
                Check.ThrowsSinew("an unknown preset", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => SinewMaterial.Preset((SinewMaterialPreset)10), "unknown material preset 10");
            }
        }

        // ---- colliders ----

        /// <summary>Height of the centre of a 16 × 16 cloth dropped from 1 m onto a 0.3 m sphere
        /// at 0.5 m, after 1 s; <paramref name="layers"/> are the sphere's layer bits.</summary>
        static float DropOnSphere(bool withSphere, uint layers, bool moveWithTransform)
        {
            using (var world = new World())
            {
                SinewClothGridDesc gd = SinewClothGridDesc.Default;
                gd.spacing = 0.05f;
                gd.origin = new SinewVec3(0f, 1f, 0f);
                gd.PinMode = SinewPinMode.SINEW_PIN_NONE;
                Cloth cloth = Cloth.CreateGrid(world, gd);
                Collider sphere = null;
                if (withSphere)
                {
                    SinewColliderDesc cd = SinewColliderDesc.Default;
                    cd.Shape = SinewShape.SINEW_SHAPE_SPHERE;
                    cd.radius = 0.3f;
                    cd.transform = SinewMat4.From(moveWithTransform ? Mat4.Translation(5f, 0.5f, 0f) : Mat4.Translation(0f, 0.5f, 0f));
                    sphere = Collider.Create(world, cd);
                    sphere.SetLayers(layers);
                    if (moveWithTransform)
                    {
                        sphere.Teleport(Mat4.Translation(0f, 0.5f, 0f));
                    }
                }
                for (int i = 0; i < 60; i++)
                {
                    if (moveWithTransform)
                    {
                        sphere.SetTransform(Mat4.Translation(0f, 0.5f, 0f));
                    }
                    world.Step(1f / 60f);
                }
                var p = new Vec3[cloth.VertexCount];
                cloth.ReadPositions(p);
                // Particles (7, 7) and (8, 8) straddle the centre of the 16 × 16 grid.
                return 0.5f * (p[7 * 16 + 7].y + p[8 * 16 + 8].y);
            }
        }

        static void Colliders()
        {
            float free = DropOnSphere(false, 1u, false);
            float held = DropOnSphere(true, 1u, false);
            float moved = DropOnSphere(true, 1u, true);
            float otherLayer = DropOnSphere(true, 0u, false);
            Check.That(free < 0.5f, "without a collider the cloth falls past the sphere's place", "centre at " + free);
            Check.That(held > 0.75f, "Collider.Create(sphere): the cloth rests on it", "centre at " + held);
            Check.That(moved > 0.75f, "Teleport and SetTransform(any 64-byte matrix) place the sphere", "centre at " + moved);
            Check.That(otherLayer < 0.5f, "SetLayers(0): the cloth no longer meets it", "centre at " + otherLayer);

            using (var world = new World())
            {
                Collider c = Collider.Create(world, SinewColliderDesc.Default);
                SinewColliderDesc box = SinewColliderDesc.Default;
                box.Shape = SinewShape.SINEW_SHAPE_BOX;
                box.half_extents = new SinewVec3(0.2f, 0.1f, 0.3f);
                Collider b = Collider.Create(world, box);
                SinewColliderDesc bad = SinewColliderDesc.Default;
                bad.radius = -1f;
                Check.ThrowsSinew("a sphere of negative radius", SinewResult.SINEW_INVALID_ARGUMENT, () => Collider.Create(world, bad));
                Mat4 nan = Mat4.Translation(float.NaN, 0f, 0f);
                Check.ThrowsSinew("a NaN collider transform", SinewResult.SINEW_NON_FINITE, () => c.SetTransform(nan));
                Mat4 stretched = Mat4.Translation(0f, 0f, 0f);
                stretched.m00 = 2f;
                Check.ThrowsSinew("a non-uniformly scaled collider transform", SinewResult.SINEW_INVALID_ARGUMENT, () => c.Teleport(stretched));
                Check.Throws<ArgumentException>("a collider transform of the wrong size is refused", () => c.SetTransform(new Vec3(0, 0, 0)));

                Cloth one = Cloth.CreateGrid(world, SinewClothGridDesc.Default);
                Cloth two = Cloth.CreateGrid(world, SinewClothGridDesc.Default);
                one.SetCollisionPair(two, true);
                one.SetCollisionPair(two, false);
                Check.That(true, "SetCollisionPair on and off");
                using (var elsewhere = new World())
                {
                    Cloth foreign = Cloth.CreateGrid(elsewhere, SinewClothGridDesc.Default);
                    Check.ThrowsSinew("a collision pair across worlds", SinewResult.SINEW_INVALID_ARGUMENT, () => one.SetCollisionPair(foreign, true), "different worlds");
                }

                c.Dispose();
                c.Dispose();
                Check.That(c.IsDisposed, "a collider disposed twice: no exception");
                Check.ThrowsSinew("moving a destroyed collider", SinewResult.SINEW_INVALID_HANDLE, () => c.SetTransform(SinewMat4.Identity), "not valid");

                world.StepBegin(1f / 60f);
                b.Dispose();
                Check.Equal(1, world.PendingDestroyCount, "a collider disposed during an asynchronous step waits for StepEnd");
                world.StepEnd();
                Check.Equal(0, world.PendingDestroyCount, "StepEnd destroys it");
                Check.ThrowsSinew("... natively", SinewResult.SINEW_INVALID_HANDLE, () => b.SetLayers(1u));

                WeakReference dropped = OnOtherThread(() => new WeakReference(Collider.Create(world, SinewColliderDesc.Default), true));
                Check.That(Collect(dropped), "an unreferenced collider is finalised");
                Check.Equal(1, world.PendingDestroyCount, "its finaliser queued it for the world instead of calling native code");
                world.Step(1f / 60f);
                Check.Equal(0, world.PendingDestroyCount, "the next Step destroyed it");
                // Unused from above on; without this the JIT may let them be finalised too.
                GC.KeepAlive(one);
                GC.KeepAlive(two);
            }
            var gone = new World();
            Collider orphan = Collider.Create(gone, SinewColliderDesc.Default);
            gone.Dispose();
            Check.That(orphan.IsDisposed, "a collider of a disposed world says it is disposed");
            orphan.Dispose();
            Check.That(true, "disposing it then: no exception");
        }

        /// <summary>A world whose readback is the newest state (no interpolation), so that what
        /// is read is what the colliders were checked against.</summary>
        static World CollisionWorld()
        {
            SinewWorldDesc wd = SinewWorldDesc.Default;
            wd.thread_count = 2;
            wd.interpolate = 0;
            return new World(wd);
        }

        /// <summary>An unpinned <paramref name="side"/> × <paramref name="side"/> cloth, flat in XZ,
        /// centred on (x, y, z).</summary>
        static Cloth FreeCloth(World world, int side, float spacing, float x, float y, float z, uint mask = uint.MaxValue)
        {
            SinewClothGridDesc gd = SinewClothGridDesc.Default;
            gd.columns = (uint)side;
            gd.rows = (uint)side;
            gd.spacing = spacing;
            gd.origin = new SinewVec3(x, y, z);
            gd.PinMode = SinewPinMode.SINEW_PIN_NONE;
            gd.material.damping = 0.5f;
            gd.material.collision_mask = mask;
            return Cloth.CreateGrid(world, gd);
        }

        static float ClosestTo(Vec3[] p, Vec3 c)
        {
            float best = float.PositiveInfinity;
            foreach (Vec3 q in p)
            {
                float dx = q.x - c.x, dy = q.y - c.y, dz = q.z - c.z;
                best = Math.Min(best, (float)Math.Sqrt(dx * dx + dy * dy + dz * dz));
            }
            return best;
        }

        static float LowestY(Vec3[] p)
        {
            float y = float.PositiveInfinity;
            foreach (Vec3 q in p)
            {
                y = Math.Min(y, q.y);
            }
            return y;
        }

        static void ColliderDrape()
        {
            using (var world = CollisionWorld())
            {
                const float radius = 0.3f;
                var centre = new Vec3(0.1f, -0.2f, 0.05f);
                Collider sphere = Collider.Sphere(world, radius);
                sphere.Teleport(Mat4.Translation(centre.x, centre.y, centre.z));
                Cloth cloth = FreeCloth(world, 16, 0.05f, centre.x, centre.y + 0.45f, centre.z);
                float thickness = cloth.Material.thickness;
                var p = new Vec3[cloth.VertexCount];
                float closest = float.PositiveInfinity;
                for (int f = 0; f < 120; f++)
                {
                    world.Step(1f / 60f);
                    cloth.ReadPositions(p);
                    closest = Math.Min(closest, ClosestTo(p, centre));
                }
                Check.That(closest >= radius + thickness - 1e-3f,
                    "120 frames: no particle centre closer than radius + thickness − 1 mm to the sphere's centre", "closest " + closest);
                float last = ClosestTo(p, centre);
                Check.That(last < radius + thickness + 0.01f, "the drape lies on the sphere (within 1 cm)", "closest " + last);

                sphere.Dispose();
                for (int f = 0; f < 30; f++)
                {
                    world.Step(1f / 60f);
                }
                cloth.ReadPositions(p);
                Check.That(LowestY(p) < centre.y - radius - 0.5f, "with the sphere disposed, the world steps and the cloth falls through", "lowest " + LowestY(p));
            }
        }

        /// <summary>Height above the collider's origin at which the middle particle of a 15 × 15
        /// cloth dropped on it comes to rest, while the collider turns about Y through
        /// <see cref="Collider.SetTransform{TMatrix}(TMatrix)"/> every frame.</summary>
        static float RestHeight(Func<World, Collider> make)
        {
            using (var world = CollisionWorld())
            {
                const float x = 0.2f, y = 0.3f, z = -0.1f;
                Collider c = make(world);
                c.Teleport(Mat4.RotationY(0f, x, y, z));
                Cloth cloth = FreeCloth(world, 15, 0.04f, x, y + 0.5f, z);
                for (int f = 1; f <= 90; f++)
                {
                    c.SetTransform(Mat4.RotationY(2f * f, x, y, z));
                    world.Step(1f / 60f);
                }
                var p = new Vec3[cloth.VertexCount];
                cloth.ReadPositions(p);
                return p[7 * 15 + 7].y - y;
            }
        }

        static void ColliderShapes()
        {
            float t = SinewMaterial.Default.thickness;
            // Expected rest heights from the shapes' definitions; a swapped argument would move
            // them (a capsule with its radii swapped tops out at 0.15 + 0.2, a box with its
            // extents out of order at 0.2 or 0.3).
            float sphere = RestHeight(w => Collider.Sphere(w, 0.2f));
            Check.That(Math.Abs(sphere - (0.2f + t)) < 3e-3f, "Collider.Sphere(world, 0.2): the cloth rests at radius + thickness", "at " + sphere);
            float capsule = RestHeight(w => Collider.Capsule(w, 0.15f, 0.2f, 0.05f));
            Check.That(Math.Abs(capsule - (0.15f + 0.05f + t)) < 3e-3f,
                "Collider.Capsule(world, 0.15, radius0 0.2, radius1 0.05): the cloth rests on the radius1 end at +half_height", "at " + capsule);
            float plane = RestHeight(w => Collider.Plane(w));
            Check.That(Math.Abs(plane - t) < 3e-3f, "Collider.Plane(world): the cloth rests at thickness above it", "at " + plane);
            float box = RestHeight(w => Collider.Box(w, new Vec3(0.3f, 0.1f, 0.2f)));
            Check.That(Math.Abs(box - (0.1f + t)) < 3e-3f, "Collider.Box(world, (0.3, 0.1, 0.2)): the cloth rests on its top face", "at " + box);
            float boxSinew = RestHeight(w => Collider.Box(w, new SinewVec3(0.3f, 0.1f, 0.2f), 1u));
            Check.That(boxSinew == box, "Collider.Box takes SinewVec3 half extents as well", boxSinew + " vs " + box);
            float fromDesc = RestHeight(w => Collider.Create(w, SinewColliderDesc.Capsule(0.15f, 0.2f, 0.05f)));
            Check.That(fromDesc == capsule, "Collider.Create(SinewColliderDesc.Capsule(...)) is the same capsule", fromDesc + " vs " + capsule);

            SinewColliderDesc d = SinewColliderDesc.Box(new SinewVec3(1f, 2f, 3f), 6u);
            Check.That(d.Shape == SinewShape.SINEW_SHAPE_BOX && d.half_extents.y == 2f && d.layers == 6u, "SinewColliderDesc.Box fills shape, half extents and layers");
            d = SinewColliderDesc.Capsule(0.5f, 0.25f, 0.125f);
            Check.That(d.Shape == SinewShape.SINEW_SHAPE_CAPSULE && d.half_height == 0.5f && d.radius0 == 0.25f && d.radius1 == 0.125f && d.layers == 1u,
                "SinewColliderDesc.Capsule fills half height, both radii, layer 1");
        }

        /// <summary>Lowest particle after a second over a plane at y = −0.5 on <paramref name="layers"/>
        /// (moved to <paramref name="newLayers"/> unless 0), for a body of <paramref name="mask"/>.</summary>
        static float FallOntoPlane(uint layers, uint mask, uint newLayers)
        {
            using (var world = CollisionWorld())
            {
                Collider plane = Collider.Plane(world, layers);
                plane.Teleport(Mat4.Translation(0f, -0.5f, 0f));
                if (newLayers != 0)
                {
                    plane.SetLayers(newLayers);
                }
                Cloth cloth = FreeCloth(world, 4, 0.1f, 0f, 0f, 0f, mask);
                for (int f = 0; f < 60; f++)
                {
                    world.Step(1f / 60f);
                }
                var p = new Vec3[cloth.VertexCount];
                cloth.ReadPositions(p);
                return LowestY(p);
            }
        }

        static void ColliderLayers()
        {
            Check.That(FallOntoPlane(1u, 1u, 0u) > -0.5f, "collision_mask 1: held by a plane on layer 1");
            Check.That(FallOntoPlane(2u, 1u, 0u) < -1.0f, "collision_mask 1: falls past a plane on layer 2");
            Check.That(FallOntoPlane(2u, 3u, 0u) > -0.5f, "collision_mask 3: held by the plane on layer 2");
            Check.That(FallOntoPlane(1u, 1u, 2u) < -1.0f, "SetLayers(2) on the layer-1 plane: the mask-1 cloth falls past it");
            Check.That(FallOntoPlane(4u, 1u, 5u) > -0.5f, "SetLayers(5) on a layer-4 plane: held");

            // Changing the body's mask through Material lets it through a plane it rested on.
            using (var world = CollisionWorld())
            {
                Collider plane = Collider.Plane(world, 1u);
                plane.Teleport(Mat4.Translation(0f, -0.5f, 0f));
                Cloth cloth = FreeCloth(world, 4, 0.1f, 0f, 0f, 0f);
                var p = new Vec3[cloth.VertexCount];
                for (int f = 0; f < 60; f++)
                {
                    world.Step(1f / 60f);
                }
                cloth.ReadPositions(p);
                Check.That(LowestY(p) > -0.5f, "the default material (all bits) meets a layer-1 plane");
                SinewMaterial m = cloth.Material;
                Check.That(m.Meets(1u) && m.Meets(0x80000000u), "SinewMaterial.Meets: the default mask meets every layer");
                m.collision_mask = 2u;
                Check.That(!m.Meets(1u) && m.Meets(3u), "SinewMaterial.Meets is layers & collision_mask != 0");
                cloth.Material = m;
                for (int f = 0; f < 60; f++)
                {
                    world.Step(1f / 60f);
                }
                cloth.ReadPositions(p);
                Check.That(LowestY(p) < -1.0f, "Material with collision_mask 2: the cloth falls through the layer-1 plane", "lowest " + LowestY(p));

                m = cloth.Material;
                Check.That(!m.SelfCollision && m.self_collision == 0u, "SelfCollision reads self_collision (default off)");
                m.SelfCollision = true;
                m.thickness = 0.02f;
                m.static_friction = 0.7f;
                m.kinetic_friction = 0.6f;
                cloth.Material = m;
                SinewMaterial back = cloth.Material;
                Check.That(back.self_collision == 1u && back.SelfCollision && back.thickness == 0.02f && back.static_friction == 0.7f
                    && back.kinetic_friction == 0.6f && back.collision_mask == 2u, "thickness, frictions, mask and SelfCollision round-trip through Material");
            }
        }

        static void MeshColliders()
        {
            var floorV = new[] { new Vec3(-4f, 0f, -4f), new Vec3(-4f, 0f, 4f), new Vec3(4f, 0f, 4f), new Vec3(4f, 0f, -4f) };
            var floorI = new[] { 0, 1, 2, 0, 2, 3 };
            using (var world = CollisionWorld())
            using (var other = CollisionWorld())
            {
                Collider floor = Collider.Mesh(world, floorV, floorI, Mat4.Translation(0f, 0.3f, 0f));
                SinewColliderMeshInfo info = floor.MeshInfo;
                Check.That(info.triangle_count == 2 && info.vertex_count == 4 && info.skipped_triangles == 0, "Collider.Mesh: two triangles, four vertices",
                    info.triangle_count + " triangles");
                Collider shared = Collider.SharedMesh(other, floor, Mat4.Translation(0f, 0f, 0f));
                Check.That(shared.MeshInfo.bytes == info.bytes, "Collider.SharedMesh shares the cooked mesh with another world", shared.MeshInfo.bytes + " bytes");
                Cloth cloth = FreeCloth(world, 8, 0.05f, 0f, 0.5f, 0f);
                for (int f = 0; f < 90; f++)
                {
                    world.Step(1f / 60f);
                }
                var p = new Vec3[cloth.VertexCount];
                cloth.ReadPositions(p);
                float worst = 0f;
                foreach (Vec3 q in p)
                {
                    worst = Math.Max(worst, Math.Abs(q.y - (0.3f + 0.01f)));
                }
                Check.That(worst < 1e-3f, "the cloth rests one thickness above the mesh floor", "worst " + worst);

                Check.ThrowsSinew("SetTransform on a static mesh collider", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => floor.SetTransform(Mat4.Translation(0f, 0f, 0f)), "static");
                floor.Teleport(Mat4.Translation(0f, 0.2f, 0f));
                Check.ThrowsSinew("an index out of range", SinewResult.SINEW_OUT_OF_RANGE,
                    () => Collider.Mesh(world, floorV, new[] { 0, 1, 2, 0, 2, 4 }, Mat4.Translation(0f, -5f, 0f)), "out of range");
                var nanV = (Vec3[])floorV.Clone();
                nanV[3].z = float.NaN;
                Check.ThrowsSinew("a NaN vertex", SinewResult.SINEW_NON_FINITE,
                    () => Collider.Mesh(world, nanV, floorI, Mat4.Translation(0f, -5f, 0f)), "mesh vertex 3");
                Check.ThrowsSinew("no triangles", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => Collider.Mesh(world, floorV, new int[0], Mat4.Translation(0f, -5f, 0f)), "at least one triangle");
                Check.ThrowsSinew("a degenerate triangle", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => Collider.Mesh(world, floorV, new[] { 0, 1, 2, 0, 0, 3 }, Mat4.Translation(0f, -5f, 0f)), "triangle 1");
                Collider skipped = Collider.Mesh(world, floorV, new[] { 0, 1, 2, 0, 0, 3 }, Mat4.Translation(0f, -5f, 0f), 1u, true);
                Check.That(skipped.MeshInfo.skipped_triangles == 1, "skipDegenerate leaves the degenerate triangle out and counts it", "");
                Collider sphere = Collider.Sphere(world, 0.1f);
                sphere.Teleport(Mat4.Translation(0f, -5f, 0f));
                Check.ThrowsSinew("MeshInfo of a sphere", SinewResult.SINEW_INVALID_ARGUMENT, () => { var unused = sphere.MeshInfo; }, "not a mesh");
                Check.ThrowsSinew("SharedMesh from a sphere", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => Collider.SharedMesh(world, sphere, Mat4.Translation(0f, 0f, 0f)), "not a mesh");
                Check.Throws<ArgumentException>("vertices that are not 12 bytes are refused before any native call",
                    () => Collider.Mesh(world, new[] { 1.0, 2.0 }, floorI, Mat4.Translation(0f, 0f, 0f)));
                world.Step(1f / 60f);
                cloth.ReadPositions(p);
                Check.That(p[0].y > 0.2f, "the world still steps, the cloth on the teleported floor", "y " + p[0].y);
            }
        }

        static void ColliderErrors()
        {
            using (var world = CollisionWorld())
            {
                Cloth cloth = FreeCloth(world, 6, 0.05f, 0f, 0f, 0f);
                Collider c = Collider.Sphere(world, 0.1f);
                c.Teleport(Mat4.Translation(0f, -10f, 0f));
                world.Step(1f / 60f);
                var before = new Vec3[cloth.VertexCount];
                cloth.ReadPositions(before);
                ulong steps = world.GetStats().steps;

                Check.ThrowsSinew("Collider.Sphere of radius 0", SinewResult.SINEW_INVALID_ARGUMENT, () => Collider.Sphere(world, 0f), "radius");
                Check.ThrowsSinew("Collider.Sphere of negative radius", SinewResult.SINEW_INVALID_ARGUMENT, () => Collider.Sphere(world, -0.5f));
                Check.ThrowsSinew("Collider.Sphere of NaN radius", SinewResult.SINEW_NON_FINITE, () => Collider.Sphere(world, float.NaN));
                Check.ThrowsSinew("Collider.Capsule with both radii 0", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => Collider.Capsule(world, 0.2f, 0f, 0f), "both are 0");
                Check.ThrowsSinew("Collider.Capsule with a negative half height", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => Collider.Capsule(world, -0.2f, 0.1f, 0.1f));
                Check.ThrowsSinew("Collider.Box with a zero extent", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => Collider.Box(world, new Vec3(0.1f, 0f, 0.1f)));
                Check.Throws<ArgumentException>("Collider.Box half extents that are not 12 bytes are refused before any native call",
                    () => Collider.Box(world, 0.5));
                SinewColliderDesc bad = SinewColliderDesc.Default;
                bad.shape = 42u;
                Check.ThrowsSinew("an unknown shape", SinewResult.SINEW_INVALID_ARGUMENT, () => Collider.Create(world, bad), "unknown collider shape");
                bad = SinewColliderDesc.Sphere(0.1f);
                bad.transform = SinewMat4.From(Mat4.Translation(0f, float.NaN, 0f));
                Check.ThrowsSinew("a NaN in the initial transform", SinewResult.SINEW_NON_FINITE, () => Collider.Create(world, bad));
                Mat4 stretched = Mat4.Translation(0f, -10f, 0f);
                stretched.m11 = 3f;
                bad.transform = SinewMat4.From(stretched);
                Check.ThrowsSinew("a non-uniform scale in the initial transform", SinewResult.SINEW_INVALID_ARGUMENT, () => Collider.Create(world, bad), "non-uniform");

                Check.ThrowsSinew("SetTransform with a NaN", SinewResult.SINEW_NON_FINITE, () => c.SetTransform(Mat4.Translation(float.NaN, 0f, 0f)));
                Check.ThrowsSinew("Teleport with an infinity", SinewResult.SINEW_NON_FINITE,
                    () => c.Teleport(SinewMat4.Translation(0f, float.PositiveInfinity, 0f)));
                Check.ThrowsSinew("SetTransform with a non-uniform scale", SinewResult.SINEW_INVALID_ARGUMENT, () => c.SetTransform(stretched), "non-uniform");
                Mat4 mirror = Mat4.Translation(0f, -10f, 0f);
                mirror.m00 = -1f;
                Check.ThrowsSinew("Teleport with a mirror", SinewResult.SINEW_INVALID_ARGUMENT, () => c.Teleport(mirror), "mirrored");
                Check.Throws<ArgumentException>("Teleport with a matrix that is not 64 bytes", () => c.Teleport(new Vec3(0f, 0f, 0f)));
                Check.Throws<ArgumentNullException>("Collider.Sphere(null world)", () => Collider.Sphere(null, 0.1f));
                Check.Throws<ArgumentNullException>("SetCollisionPair(null)", () => cloth.SetCollisionPair(null, true));
                Check.ThrowsSinew("a body paired with itself", SinewResult.SINEW_INVALID_ARGUMENT, () => cloth.SetCollisionPair(cloth, true), "itself");

                var after = new Vec3[cloth.VertexCount];
                cloth.ReadPositions(after);
                Check.That(BytesEqual(MemoryMarshal.AsBytes(new Span<Vec3>(before)).ToArray(), MemoryMarshal.AsBytes(new Span<Vec3>(after)).ToArray())
                    && world.GetStats().steps == steps, "the failed calls changed nothing");
                c.SetTransform(Mat4.Translation(0f, -10f, 0f));
                world.Step(1f / 60f);
                Check.That(true, "the collider still moves and the world still steps");

                world.StepBegin(1f / 60f);
                Check.ThrowsSinew("SetTransform during an asynchronous step", SinewResult.SINEW_BUSY, () => c.SetTransform(Mat4.Translation(0f, -10f, 0f)));
                Check.ThrowsSinew("SetLayers during an asynchronous step", SinewResult.SINEW_BUSY, () => c.SetLayers(2u));
                Check.ThrowsSinew("Collider.Plane during an asynchronous step", SinewResult.SINEW_BUSY, () => Collider.Plane(world));
                world.StepEnd();
                c.SetLayers(2u);
                Check.That(true, "after StepEnd the collider answers again");

                c.Dispose();
                Check.ThrowsSinew("SetLayers on a disposed collider", SinewResult.SINEW_INVALID_HANDLE, () => c.SetLayers(1u), "collider handle");
                Check.ThrowsSinew("Teleport on a disposed collider", SinewResult.SINEW_INVALID_HANDLE, () => c.Teleport(SinewMat4.Identity));
                Collider d = Collider.Box(world, new Vec3(0.1f, 0.1f, 0.1f));
                world.Dispose();
                Check.That(d.IsDisposed, "a collider of a disposed world says so");
                Check.ThrowsSinew("SetTransform on a collider of a disposed world", SinewResult.SINEW_INVALID_HANDLE, () => d.SetTransform(SinewMat4.Identity));
                Check.ThrowsSinew("Collider.Sphere in a disposed world", SinewResult.SINEW_INVALID_HANDLE, () => Collider.Sphere(world, 0.1f), "world handle");
                d.Dispose();
                Check.That(true, "disposing it then: no exception");
            }
        }

        static void ColliderFinalisers()
        {
            // Finalised after its world was disposed: no native call, nothing queued, no crash.
            World gone = new World();
            WeakReference orphan = OnOtherThread(() => new WeakReference(Collider.Sphere(gone, 0.1f), true));
            gone.Dispose();
            // A new world may reuse the old one's slots; the orphan must not touch its collider.
            using (var next = new World())
            {
                Collider survivor = Collider.Sphere(next, 0.1f);
                Check.That(Collect(orphan), "a collider finalised after its world was disposed: no crash");
                Check.Equal(0, gone.PendingDestroyCount, "... it was not queued for native destruction");
                Check.Equal(0, next.PendingDestroyCount, "... nor queued on the new world");
                next.Step(1f / 60f);
                survivor.SetLayers(3u);
                Check.That(true, "the new world's collider is untouched");
            }

            // A world dropped together with its colliders: finalised in either order, no crash.
            WeakReference both = OnOtherThread(() =>
            {
                var w = new World();
                Collider.Sphere(w, 0.1f);
                Collider.Plane(w);
                Collider.Capsule(w, 0.2f, 0.1f, 0.05f);
                Collider.Box(w, new Vec3(0.1f, 0.2f, 0.3f));
                return new WeakReference(w, true);
            });
            Check.That(Collect(both), "a world dropped with its colliders is finalised without a crash");
        }

        // ---- async ----

        static void AsyncStep()
        {
            byte[] sync, async;
            using (var scene = new ReferenceScene())
            {
                scene.Run(false);
                sync = scene.Readback();
            }
            using (var scene = new ReferenceScene())
            {
                scene.Run(true);
                async = scene.Readback();
            }
            Check.That(BytesEqual(sync, async), "StepBegin/StepEnd gives the same state, bit for bit, as Step");

            using (var world = new World())
            {
                Cloth a = Cloth.CreateGrid(world, SinewClothGridDesc.Default);
                Cloth b = Cloth.CreateGrid(world, SinewClothGridDesc.Default);
                var buffer = new Vec3[a.VertexCount];

                world.StepBegin(1f / 60f);
                Check.ThrowsSinew("reading during an asynchronous step", SinewResult.SINEW_BUSY, () => a.ReadPositions(buffer));
                Check.ThrowsSinew("Step during an asynchronous step", SinewResult.SINEW_BUSY, () => world.Step(1f / 60f));
                Check.ThrowsSinew("a second StepBegin", SinewResult.SINEW_BUSY, () => world.StepBegin(1f / 60f));
                b.Dispose();
                Check.That(b.IsDisposed, "a body disposed during an asynchronous step is disposed at once");
                Check.Equal(1, world.PendingDestroyCount, "... and its native destruction waits for StepEnd");
                world.StepEnd();
                Check.Equal(0, world.PendingDestroyCount, "StepEnd destroys the waiting body");
                Check.Equal(1u, world.GetStats().body_count, "one body left");
                a.ReadPositions(buffer);
                Check.That(true, "reading after StepEnd works");
                Check.ThrowsSinew("StepEnd without StepBegin", SinewResult.SINEW_INVALID_ARGUMENT, () => world.StepEnd());

                world.StepBegin(1f / 60f);
                world.Dispose();
                Check.That(world.IsDisposed, "Dispose during an asynchronous step waits for it and destroys the world");
            }
        }

        // ---- errors ----

        static void StaleHandles()
        {
            var world = new World();
            Cloth cloth = Cloth.CreateGrid(world, SinewClothGridDesc.Default);
            Rope rope = Rope.Create(world, new[] { new Vec3(0, 0, 0), new Vec3(1, 0, 0) }, new int[0]);
            var buffer = new Vec3[cloth.VertexCount];

            cloth.Dispose();
            Check.That(cloth.IsDisposed, "a disposed body says so");
            Check.ThrowsSinew("reading a destroyed body", SinewResult.SINEW_INVALID_HANDLE, () => cloth.ReadPositions(buffer), "not valid");
            Check.ThrowsSinew("pin targets on a destroyed body", SinewResult.SINEW_INVALID_HANDLE,
                () => cloth.SetPinTargets(new[] { 0 }, new[] { new Vec3(0, 0, 0) }));
            Check.ThrowsSinew("VertexCount of a destroyed body", SinewResult.SINEW_INVALID_HANDLE, () => { int n = cloth.VertexCount; });

            world.Dispose();
            Check.That(rope.IsDisposed, "a body of a disposed world says it is disposed");
            Check.ThrowsSinew("reading a body of a destroyed world", SinewResult.SINEW_INVALID_HANDLE, () => rope.ReadPositions(buffer));
            Check.ThrowsSinew("stepping a destroyed world", SinewResult.SINEW_INVALID_HANDLE, () => world.Step(0.1f), "world handle");
            Check.ThrowsSinew("creating a cloth in a destroyed world", SinewResult.SINEW_INVALID_HANDLE,
                () => Cloth.CreateGrid(world, SinewClothGridDesc.Default));

            // A handle of a destroyed world must not reach a body of a new one.
            using (var next = new World())
            {
                Cloth fresh = Cloth.CreateGrid(next, SinewClothGridDesc.Default);
                Check.ThrowsSinew("an old body handle after a new world was created", SinewResult.SINEW_INVALID_HANDLE, () => rope.ReadPositions(buffer));
                fresh.ReadPositions(new Vec3[fresh.VertexCount]);
                Check.That(true, "the new world's body still reads");
            }
        }

        static void WrongBuffers()
        {
            using (var world = new World())
            {
                Cloth cloth = Cloth.CreateGrid(world, SinewClothGridDesc.Default);
                int n = cloth.VertexCount;
                var before = new Vec3[n];
                cloth.ReadPositions(before);

                Check.ThrowsSinew("a positions buffer one short", SinewResult.SINEW_BUFFER_TOO_SMALL, () => cloth.ReadPositions(new Vec3[n - 1]), "holds " + (n - 1));
                Check.ThrowsSinew("an empty positions buffer", SinewResult.SINEW_BUFFER_TOO_SMALL, () => cloth.ReadPositions(new Vec3[0]));
                Check.ThrowsSinew("a normals span one short", SinewResult.SINEW_BUFFER_TOO_SMALL, () => cloth.ReadNormals(new Span<SinewVec3>(new SinewVec3[n], 1, n - 1)));
                IntPtr native = Marshal.AllocHGlobal((n - 1) * 12);
                try
                {
                    Check.ThrowsSinew("unmanaged memory one short", SinewResult.SINEW_BUFFER_TOO_SMALL, () => cloth.ReadPositions(native, n - 1));
                }
                finally
                {
                    Marshal.FreeHGlobal(native);
                }

                ArgumentException e = Check.Throws<ArgumentException>("a buffer of 8-byte elements is refused before any native call", () => cloth.ReadPositions(new double[n * 2]));
                Check.That(e != null && e.Message.Contains("8 bytes") && e.Message.Contains("12"), "... and the message names both sizes", e == null ? null : e.Message);
                Check.Throws<ArgumentException>("a buffer of 16-byte quaternions is refused", () => cloth.ReadNormals(new SinewQuat[n]));
                e = Check.Throws<ArgumentException>("a struct holding a reference is refused", () => cloth.ReadPositions(new WithReference[n]));
                Check.That(e != null && e.Message.Contains("references"), "... and the message says why", e == null ? null : e.Message);
                Check.Throws<ArgumentException>("pin targets of the wrong size are refused", () => cloth.SetPinTargets(new[] { 0 }, new[] { 1.0 }));
                Check.Throws<ArgumentException>("a teleport matrix of the wrong size is refused", () => cloth.Teleport(new Vec3(1, 2, 3)));

                Check.ThrowsSinew("pin targets: more positions than indices", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => cloth.SetPinTargets(new[] { 0 }, new[] { new Vec3(0, 0, 0), new Vec3(0, 0, 0) }), "differs");
                Check.ThrowsSinew("pin targets: a negative index", SinewResult.SINEW_OUT_OF_RANGE,
                    () => cloth.SetPinTargets(new[] { -1 }, new[] { new Vec3(0, 0, 0) }));
                Check.ThrowsSinew("pin targets: an index past the end", SinewResult.SINEW_OUT_OF_RANGE,
                    () => cloth.SetPinTargets(new[] { n }, new[] { new Vec3(0, 0, 0) }));
                Check.ThrowsSinew("pin targets: NaN", SinewResult.SINEW_NON_FINITE,
                    () => cloth.SetPinTargets(new[] { 0 }, new[] { new Vec3(float.NaN, 0, 0) }));
                Check.ThrowsSinew("a non-rigid teleport", SinewResult.SINEW_INVALID_ARGUMENT, () =>
                {
                    Mat4 scale = Mat4.Translation(0, 0, 0);
                    scale.m00 = 2f;
                    cloth.Teleport(scale);
                });
                Check.ThrowsSinew("a negative dt", SinewResult.SINEW_INVALID_ARGUMENT, () => world.Step(-1f));
                Check.ThrowsSinew("a mesh with no vertices", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => Cloth.CreateMesh(world, new Vec3[0], new int[0]));
                Check.ThrowsSinew("a mesh index past the end", SinewResult.SINEW_OUT_OF_RANGE,
                    () => Cloth.CreateMesh(world, new[] { new Vec3(0, 0, 0), new Vec3(1, 0, 0), new Vec3(0, 0, 1) }, new[] { 0, 1, 3 }));
                Check.ThrowsSinew("a rope of one point", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => Rope.Create(world, new[] { new Vec3(0, 0, 0) }, new int[0]));
                SinewWorldDesc bad = SinewWorldDesc.Default;
                bad.substeps = 0;
                Check.ThrowsSinew("a world with 0 substeps", SinewResult.SINEW_INVALID_ARGUMENT, () => new World(bad).Dispose());

                var after = new Vec3[n];
                cloth.ReadPositions(after);
                Check.That(BytesEqual(MemoryMarshal.AsBytes(new Span<Vec3>(before)).ToArray(), MemoryMarshal.AsBytes(new Span<Vec3>(after)).ToArray()),
                    "failed calls left the cloth unchanged");
                Check.Equal(16u, cloth.GetInfo().pinned_count, "failed pin calls pinned nothing new (the default grid pins its top row of 16)");
            }
        }

        static void Panic()
        {
#if SINEW_DEBUG_PANIC // scripts/test-csharp.sh defines it and builds the library with the feature debug-panic
            Check.ThrowsSinew("a panic inside the library", SinewResult.SINEW_PANIC, () => SinewLibrary.DebugTriggerPanic(), "deliberate panic");
#else
            Console.WriteLine("NOT CHECKED: a panic inside the library (compiled without SINEW_DEBUG_PANIC)");
#endif
            using (var world = new World())
            {
                Cloth c = Cloth.CreateGrid(world, SinewClothGridDesc.Default);
                world.Step(1f / 60f);
                c.ReadPositions(new Vec3[c.VertexCount]);
                Check.That(true, "the library keeps working after a panic");
            }
        }

        static void RecoveriesAreLoggedOnce()
        {
#if SINEW_DEBUG_PANIC
            var logged = new List<string>();
            Action<string> previous = World.Log;
            World.Log = m => logged.Add(m);
            try
            {
                using (var world = new World())
                {
                    Cloth c = Cloth.CreateGrid(world, SinewClothGridDesc.Default);
                    Cloth other = Cloth.CreateGrid(world, SinewClothGridDesc.Default);
                    world.Step(1f / 60f);
                    Check.That(logged.Count == 0, "a quiet step logs nothing");
                    SinewLibrary.DebugPoisonBody(c);
                    world.Step(1f / 60f);
                    var events = new SinewEvent[4];
                    int n = world.ReadEvents(events);
                    Check.That(n == 1 && events[0].body.id == c.Handle.id && events[0].reason == (uint)SinewRecoveryReason.SINEW_RECOVERY_STATE_NOT_FINITE, "ReadEvents names the recovered body and why");
                    Check.That(logged.Count == 1 && logged[0].Contains("recovered"), "a recovered body is logged: " + (logged.Count > 0 ? logged[0] : "nothing"));
                    SinewLibrary.DebugPoisonBody(c);
                    world.Step(1f / 60f);
                    Check.That(logged.Count == 1, "the same body is logged once, however often it recovers");
                    var p = new Vec3[c.VertexCount];
                    c.ReadPositions(p);
                    Check.That(!float.IsNaN(p[0].x), "the recovered body reads back finite");
                    GC.KeepAlive(other);
                }
            }
            finally
            {
                World.Log = previous;
            }
#else
            Console.WriteLine("NOT CHECKED: recovery logging (compiled without SINEW_DEBUG_PANIC)");
#endif
        }

        // ---- dispose ----

        static void DoubleDispose()
        {
            var world = new World();
            Cloth cloth = Cloth.CreateGrid(world, SinewClothGridDesc.Default);
            Rope rope = Rope.Create(world, new[] { new Vec3(0, 0, 0), new Vec3(1, 0, 0) }, new[] { 0 });
            cloth.Dispose();
            cloth.Dispose();
            Check.That(cloth.IsDisposed, "a body disposed twice: no exception");
            Check.Equal(1u, world.GetStats().body_count, "... and it was destroyed once");
            world.Dispose();
            world.Dispose();
            Check.That(world.IsDisposed, "a world disposed twice: no exception");
            rope.Dispose();
            rope.Dispose();
            Check.That(rope.IsDisposed, "a body disposed after its world: no exception");
            using (var w = new World())
            using (Cloth c = Cloth.CreateGrid(w, SinewClothGridDesc.Default))
            {
                c.Dispose();
            }
            Check.That(true, "using blocks dispose a body and then its world");
        }

        // ---- finalisers ----

        // Objects made on a thread that has ended are referenced from no stack, so Mono's
        // conservative stack scan cannot keep them alive.
        internal static T OnOtherThread<T>(Func<T> make)
        {
            T result = default(T);
            var t = new Thread(() => { result = make(); });
            t.Start();
            t.Join();
            return result;
        }

        internal static bool Collect(WeakReference tracked)
        {
            for (int i = 0; i < 10 && tracked.IsAlive; i++)
            {
                GC.Collect();
                GC.WaitForPendingFinalizers();
                GC.Collect();
            }
            return !tracked.IsAlive;
        }

        static void Finalisers()
        {
            // A body finalised while its world lives: no native call on the finaliser thread;
            // the world destroys it at its next step.
            using (var world = new World())
            {
                WeakReference body = OnOtherThread(() => new WeakReference(Cloth.CreateGrid(world, SinewClothGridDesc.Default), true));
                Check.Equal(1u, world.GetStats().body_count, "a body is alive before collection");
                Check.That(Collect(body), "an unreferenced body is finalised");
                Check.Equal(1, world.PendingDestroyCount, "its finaliser queued it for the world instead of calling native code");
                Check.Equal(1u, world.GetStats().body_count, "... so it still exists natively");
                world.Step(1f / 60f);
                Check.Equal(0, world.PendingDestroyCount, "the next Step destroyed it");
                Check.Equal(0u, world.GetStats().body_count, "... natively");
            }

            // A body finalised after its world was disposed: nothing to do, nothing called.
            World gone = new World();
            WeakReference orphan = OnOtherThread(() => new WeakReference(Cloth.CreateGrid(gone, SinewClothGridDesc.Default), true));
            gone.Dispose();
            Check.That(Collect(orphan), "a body finalised after its world was disposed: no crash");
            Check.Equal(0, gone.PendingDestroyCount, "... and it was not queued for native destruction");

            // A world and its bodies dropped together, in either order; one mid-step.
            WeakReference both = OnOtherThread(() =>
            {
                var w = new World();
                Cloth.CreateGrid(w, SinewClothGridDesc.Default);
                Rope.Create(w, new[] { new Vec3(0, 0, 0), new Vec3(1, 0, 0) }, new[] { 0 });
                return new WeakReference(w, true);
            });
            Check.That(Collect(both), "a world dropped with its bodies is finalised without a crash");
            WeakReference stepping = OnOtherThread(() =>
            {
                var w = new World();
                Cloth.CreateGrid(w, SinewClothGridDesc.Default);
                w.StepBegin(1f / 60f);
                return new WeakReference(w, true);
            });
            Check.That(Collect(stepping), "a world dropped during an asynchronous step is finalised without a crash or hang");

            using (var world = new World())
            {
                Cloth c = Cloth.CreateGrid(world, SinewClothGridDesc.Default);
                world.Step(1f / 60f);
                c.ReadPositions(new Vec3[c.VertexCount]);
                Check.That(true, "the library works after all that");
            }
        }

        // ---- allocation ----

        /// <summary>What the allocation test drives each frame besides the reference scene: a
        /// skinned cloth, a hair body, and the buffers, all made before the measurement.</summary>
        sealed class CharacterFrame
        {
            public Cloth Skinned;
            public Strands Hair;
            public Mat4[] Bones = new Mat4[1];
            public int[] Indices;
            public uint[] IndicesUnsigned;
            public int[] Sources;
            public Vec3 Camera;
        }

        static void NoAllocation()
        {
            using (var scene = new ReferenceScene())
            {
                int n = scene.Grid.VertexCount;
                var positions = new Vec3[n];
                var normals = new SinewVec3[n];
                var window = new Vec3[n + 2];
                var pinIndices = new[] { 0, ReferenceScene.GridColumns - 1 };
                var pinTargets = new Vec3[2];
                scene.Grid.ReadPositions(positions);
                pinTargets[0] = positions[0];
                pinTargets[1] = positions[ReferenceScene.GridColumns - 1];

                Collider bone = Collider.Create(scene.World, SinewColliderDesc.Default);
                // Level geometry under the scene: a static mesh floor (creation may allocate).
                Collider floor = Collider.Mesh(scene.World,
                    new[] { new Vec3(-9f, 0f, -9f), new Vec3(-9f, 0f, 9f), new Vec3(9f, 0f, 9f), new Vec3(9f, 0f, -9f) },
                    new[] { 0, 1, 2, 0, 2, 3 }, Mat4.Translation(0f, -1.2f, 0f));

                var character = new CharacterFrame();
                SinewClothGridDesc gd = SinewClothGridDesc.Default;
                gd.columns = 8;
                gd.rows = 8;
                gd.origin = new SinewVec3(3f, 1f, 0f);
                character.Skinned = Cloth.CreateGrid(scene.World, gd);
                var weights = new BoneWeight[character.Skinned.VertexCount];
                for (int i = 0; i < weights.Length; i++)
                {
                    weights[i] = BoneWeight.On(0);
                }
                character.Skinned.SetSkinning(weights, new[] { Mat4.Translation(0f, 0f, 0f) });
                character.Skinned.SetTethers(SinewTetherMode.SINEW_TETHER_GEODESIC);
                character.Indices = new int[character.Skinned.IndexCount];
                character.IndicesUnsigned = new uint[character.Skinned.IndexCount];
                character.Sources = new int[character.Skinned.VertexCount];
                character.Hair = Strands.Create(scene.World, new[] { new Vec3(-3f, 1.7f, 0f) }, new[] { new Vec3(0f, -1f, 0f) }, SinewStrandsDesc.Default);

                // Warm up: JIT, and the one-time measure of each vector and matrix type.
                Frame(scene, bone, 0, positions, normals, window, pinIndices, pinTargets, character);

                long before = GC.GetAllocatedBytesForCurrentThread();
                for (int i = 1; i <= 100; i++)
                {
                    Frame(scene, bone, i, positions, normals, window, pinIndices, pinTargets, character);
                }
                long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
                Check.Equal(0L, allocated,
                    "100 frames of Step, StepBegin/End, SetPinTargets, Collider.SetTransform/SetLayers, ReadPositions, ReadNormals, GetBounds, "
                    + "SetBoneMatrices/SetBoneMatrix, SetRootTransform, SetHeadTransform, World.SetCamera, Visible, Lod, Dynamics, "
                    + "TopologyVersion, ReadIndices, ReadVertexSources allocate 0 bytes");
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static void Frame(ReferenceScene scene, Collider bone, int frame, Vec3[] positions, SinewVec3[] normals, Vec3[] window, int[] pinIndices, Vec3[] pinTargets,
            CharacterFrame character)
        {
            bone.SetTransform(Mat4.Translation(0f, -1f - 0.001f * frame, 0f));
            bone.SetLayers(1u);
            scene.Grid.SetPinTargets(pinIndices, pinTargets);
            scene.Grid.SetPinTargets(new ReadOnlySpan<int>(pinIndices), new ReadOnlySpan<Vec3>(pinTargets));

            Mat4 root = Mat4.RotationY(frame, 0.01f * frame, 0f, 0f);
            character.Bones[0] = root;
            character.Skinned.SetBoneMatrices(character.Bones);
            character.Skinned.SetBoneMatrices(new ReadOnlySpan<Mat4>(character.Bones));
            character.Skinned.SetBoneMatrix(root);
            character.Skinned.SetRootTransform(root);
            character.Skinned.SetRootTransform(SinewMat4.Translation(0.01f * frame, 0f, 0f));
            character.Skinned.Visible = true;
            SinewLod lod = character.Skinned.Lod;
            character.Skinned.Lod = lod;
            SinewDynamics dynamics = character.Skinned.Dynamics;
            character.Skinned.Dynamics = dynamics;
            character.Hair.SetHeadTransform(root);
            character.Camera = new Vec3(0f, 1.6f, -3f + 0.01f * frame);
            scene.World.SetCamera(character.Camera);

            scene.World.Step(1f / 60f);
            scene.World.StepBegin(1f / 60f);
            scene.World.StepEnd();
            scene.Grid.ReadPositions(positions);
            scene.Grid.ReadPositions(new Span<Vec3>(window, 1, positions.Length));
            scene.Grid.ReadNormals(normals);
            Vec3 lo, hi;
            scene.Grid.GetBounds(out lo, out hi);
            if (character.Skinned.TopologyVersion == 0)
            {
                character.Skinned.ReadIndices(character.Indices);
                character.Skinned.ReadIndices(new Span<uint>(character.IndicesUnsigned));
                character.Skinned.ReadVertexSources(character.Sources);
            }
        }

        // ---- same as C ----

        static void SameAsC()
        {
            byte[] expected = File.ReadAllBytes(referencePath);
            byte[] actual;
            using (var scene = new ReferenceScene())
            {
                scene.Run(false);
                actual = scene.Readback();
            }
            Check.Equal(expected.Length, actual.Length, "the C# readback has as many bytes as the C one");
            int first = -1;
            for (int i = 0; i < Math.Min(expected.Length, actual.Length); i++)
            {
                if (expected[i] != actual[i])
                {
                    first = i;
                    break;
                }
            }
            Check.That(first < 0 && expected.Length == actual.Length, "grid, mesh and rope positions and normals equal the C readback bit for bit",
                first < 0 ? null : "first difference at float " + first / 4 + ": C " + BitConverter.ToSingle(expected, first / 4 * 4)
                    + ", C# " + BitConverter.ToSingle(actual, first / 4 * 4));
        }

        static bool BytesEqual(byte[] a, byte[] b)
        {
            if (a.Length != b.Length)
            {
                return false;
            }
            for (int i = 0; i < a.Length; i++)
            {
                if (a[i] != b[i])
                {
                    return false;
                }
            }
            return true;
        }
    }
}
