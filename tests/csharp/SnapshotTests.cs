// Tests of the C# snapshot calls against the real native library, on Mono (run from
// WrapperTests.cs): World.SaveState() / SaveState(Span<byte>) / LoadState and Body's and
// Ragdoll's own. A world with a cloth, a rope, a jelly, a humanoid ragdoll and a floor is
// rewound 200 frames and replays them to the same bits; a corrupted, truncated or foreign
// snapshot throws SINEW_INVALID_ARGUMENT and changes nothing; a short span throws
// SINEW_BUFFER_TOO_SMALL; a load during an asynchronous step SINEW_BUSY; saving into a span
// allocates nothing.
using System;

namespace Sinew.Tests
{
    static class SnapshotTests
    {
        const float Frame = 1f / 60f;

        public static void Run()
        {
            Check.Group("snapshots: rewind and replay to the same bits (world, 2 threads, async steps)", Replay);
            Check.Group("snapshots: refused snapshots change nothing", Refusals);
            Check.Group("snapshots: a body's and a ragdoll's own", PerObject);
            Check.Group("snapshots: saving into a span allocates nothing", NoAllocation);
        }

        sealed class Scene : IDisposable
        {
            public readonly World World;
            public readonly Cloth Cloth;
            public readonly Rope Rope;
            public readonly SoftBody Jelly;
            public readonly Ragdoll Ragdoll;

            public Scene()
            {
                SinewWorldDesc wd = SinewWorldDesc.Default;
                wd.thread_count = 2;
                World = new World(wd);
                SinewClothGridDesc gd = SinewClothGridDesc.Default;
                gd.columns = 10;
                gd.rows = 10;
                Cloth = Cloth.CreateGrid(World, gd);
                var points = new Vec3[8];
                for (int i = 0; i < points.Length; i++)
                {
                    points[i] = new Vec3(1f + 0.1f * i, 1f, 0f);
                }
                Rope = Rope.Create(World, points, new[] { 0 });
                SinewSoftLatticeDesc ld = SinewSoftLatticeDesc.Default;
                ld.nx = ld.ny = ld.nz = 3;
                ld.origin = new SinewVec3 { x = -1f, y = 0.5f, z = 0f };
                Jelly = World.CreateSoftLattice(ld);
                Ragdoll = World.CreateHumanoidRagdoll(SinewHumanoidBones.Default, SinewRagdollSettings.Default);
                Collider.Plane(World);
            }

            public void Frame(int f)
            {
                if (f == 30) Ragdoll.SetKinematic(true);
                if (f == 60) Ragdoll.SetKinematic(false);
                if (f % 3 == 1)
                {
                    World.StepBegin(SnapshotTests.Frame);
                    World.StepEnd();
                }
                else
                {
                    World.Step(SnapshotTests.Frame);
                }
            }

            // Everything the host reads back, as bits.
            public float[] Readback()
            {
                var cloth = new Vec3[Cloth.VertexCount];
                var rope = new Vec3[Rope.VertexCount];
                var jelly = new Vec3[Jelly.VertexCount];
                var bones = new Vec3[Ragdoll.BoneCount];
                var rotations = new SinewQuat[Ragdoll.BoneCount];
                Cloth.ReadPositions(cloth);
                Rope.ReadPositions(rope);
                Jelly.ReadPositions(jelly);
                Ragdoll.ReadPose(bones, rotations);
                var all = new System.Collections.Generic.List<float>();
                foreach (Vec3[] list in new[] { cloth, rope, jelly, bones })
                {
                    foreach (Vec3 v in list)
                    {
                        all.Add(v.x);
                        all.Add(v.y);
                        all.Add(v.z);
                    }
                }
                foreach (SinewQuat q in rotations)
                {
                    all.Add(q.x);
                    all.Add(q.y);
                    all.Add(q.z);
                    all.Add(q.w);
                }
                return all.ToArray();
            }

            public void Dispose()
            {
                World.Dispose();
            }
        }

        static bool Same(float[] a, float[] b)
        {
            if (a.Length != b.Length) return false;
            for (int i = 0; i < a.Length; i++)
            {
                if (BitConverter.ToInt32(BitConverter.GetBytes(a[i]), 0) != BitConverter.ToInt32(BitConverter.GetBytes(b[i]), 0)) return false;
            }
            return true;
        }

        static float[] Flat(Vec3[] v)
        {
            var f = new float[3 * v.Length];
            for (int i = 0; i < v.Length; i++)
            {
                f[3 * i] = v[i].x;
                f[3 * i + 1] = v[i].y;
                f[3 * i + 2] = v[i].z;
            }
            return f;
        }

        static bool Same(byte[] a, byte[] b)
        {
            return a.AsSpan().SequenceEqual(b);
        }

        static void Replay()
        {
            using (var s = new Scene())
            {
                for (int f = 0; f < 50; f++) s.Frame(f);
                byte[] snapshot = s.World.SaveState();
                Check.That(snapshot.Length == s.World.StateSize && snapshot.Length > 16, "SaveState returns StateSize bytes");
                float[] atSave = s.Readback();
                for (int f = 50; f < 250; f++) s.Frame(f);
                float[] first = s.Readback();
                Check.That(!Same(first, atSave), "the world moves after the snapshot");
                s.World.LoadState(snapshot);
                Check.That(Same(s.Readback(), atSave), "the load restores what the host read at the save");
                for (int f = 50; f < 250; f++) s.Frame(f);
                Check.That(Same(s.Readback(), first), "200 frames after the load: the same bits as after the save");
            }
            // A second world built the same way takes the first's snapshot (networked rollback).
            using (var a = new Scene())
            using (var b = new Scene())
            {
                for (int f = 0; f < 80; f++) a.Frame(f);
                for (int f = 0; f < 10; f++) b.Frame(f);
                b.World.LoadState(a.World.SaveState());
                for (int f = 80; f < 200; f++)
                {
                    a.Frame(f);
                    b.Frame(f);
                }
                Check.That(Same(a.Readback(), b.Readback()), "a second world loaded with the first's snapshot continues identically");
            }
        }

        static void Refusals()
        {
            using (var s = new Scene())
            using (var other = new World())
            {
                Cloth.CreateGrid(other, SinewClothGridDesc.Default);
                for (int f = 0; f < 20; f++) s.Frame(f);
                byte[] snapshot = s.World.SaveState();
                s.Frame(20);
                byte[] before = s.World.SaveState();
                byte[] bad = (byte[])snapshot.Clone();
                bad[bad.Length / 2] ^= 0x08;
                Check.ThrowsSinew("a flipped byte", SinewResult.SINEW_INVALID_ARGUMENT, () => s.World.LoadState(bad), "checksum");
                Check.ThrowsSinew("a truncated snapshot", SinewResult.SINEW_INVALID_ARGUMENT, () => s.World.LoadState(snapshot.AsSpan(0, snapshot.Length - 4)), "nothing was changed");
                Check.ThrowsSinew("an empty snapshot", SinewResult.SINEW_INVALID_ARGUMENT, () => s.World.LoadState(ReadOnlySpan<byte>.Empty));
                Check.ThrowsSinew("another world's snapshot", SinewResult.SINEW_INVALID_ARGUMENT, () => s.World.LoadState(other.SaveState()), "count");
                Check.ThrowsSinew("this world's snapshot into another", SinewResult.SINEW_INVALID_ARGUMENT, () => other.LoadState(snapshot), "count");
                Check.ThrowsSinew("a body's snapshot into the world", SinewResult.SINEW_INVALID_ARGUMENT, () => s.World.LoadState(s.Rope.SaveState()), "what the snapshot holds");
                var small = new byte[snapshot.Length - 1];
                Check.ThrowsSinew("a span one byte short", SinewResult.SINEW_BUFFER_TOO_SMALL, () => s.World.SaveState(small.AsSpan()), snapshot.Length.ToString());
                Check.That(Array.TrueForAll(small, x => x == 0), "nothing was written into the short span");
                Check.Equal(snapshot.Length, s.World.SaveState(Span<byte>.Empty), "an empty span returns the size needed");
                Check.That(Same(s.World.SaveState(), before), "the refused loads changed nothing");
                s.World.StepBegin(Frame);
                Check.ThrowsSinew("a load during an asynchronous step", SinewResult.SINEW_BUSY, () => s.World.LoadState(snapshot));
                Check.ThrowsSinew("a save during an asynchronous step", SinewResult.SINEW_BUSY, () => s.World.SaveState());
                s.World.StepEnd();
                s.World.LoadState(snapshot);
                Check.That(Same(s.World.SaveState(), snapshot), "after the step ends the snapshot loads");
            }
        }

        static void PerObject()
        {
            using (var s = new Scene())
            {
                for (int f = 0; f < 40; f++) s.Frame(f);
                byte[] jelly = s.Jelly.SaveState();
                byte[] ragdoll = s.Ragdoll.SaveState();
                var jellyThen = new Vec3[s.Jelly.VertexCount];
                var bonesThen = new Vec3[s.Ragdoll.BoneCount];
                var rotThen = new SinewQuat[s.Ragdoll.BoneCount];
                s.Jelly.ReadPositions(jellyThen);
                s.Ragdoll.ReadPose(bonesThen, rotThen);
                for (int f = 40; f < 70; f++) s.Frame(f);
                s.Jelly.LoadState(jelly);
                s.Ragdoll.LoadState(ragdoll);
                var jellyNow = new Vec3[s.Jelly.VertexCount];
                var bonesNow = new Vec3[s.Ragdoll.BoneCount];
                var rotNow = new SinewQuat[s.Ragdoll.BoneCount];
                s.Jelly.ReadPositions(jellyNow);
                s.Ragdoll.ReadPose(bonesNow, rotNow);
                Check.That(Same(Flat(jellyNow), Flat(jellyThen)), "Body.LoadState restores the jelly's positions");
                Check.That(Same(Flat(bonesNow), Flat(bonesThen)), "Ragdoll.LoadState restores the bones");
                Check.ThrowsSinew("a ragdoll's snapshot into a body", SinewResult.SINEW_INVALID_ARGUMENT, () => s.Cloth.LoadState(ragdoll), "what the snapshot holds");
                Check.ThrowsSinew("the jelly's snapshot into the cloth", SinewResult.SINEW_INVALID_ARGUMENT, () => s.Cloth.LoadState(jelly));
            }
        }

        static void NoAllocation()
        {
            using (var s = new Scene())
            {
                for (int f = 0; f < 5; f++) s.Frame(f);
                var buffer = new byte[s.World.StateSize];
                s.World.SaveState(buffer.AsSpan());
                s.World.LoadState(buffer);
                long before = GC.GetAllocatedBytesForCurrentThread();
                for (int i = 0; i < 50; i++)
                {
                    s.World.SaveState(buffer.AsSpan());
                    s.World.LoadState(buffer);
                }
                long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
                Check.Equal(0L, allocated, "50 saves into a span and loads allocate no managed memory");
            }
        }
    }
}
