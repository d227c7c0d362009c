// Tests of Sinew.RagdollRecorder and Sinew.BodyRecorder (bindings/csharp/Recording.cs) against
// the real native library, on Mono (run from WrapperTests.cs): a humanoid's fall recorded and
// replayed onto a second humanoid reads back the recorded bits every frame; the saved bytes are
// the documented layout and the very bytes tests/c/recording.c writes for the same scene (the
// file it wrote loads, and the file written here is replayed by it: scripts/test-csharp.sh);
// a cloth's fall recorded and replayed onto a copy pinned at every vertex; no allocation per
// frame within the capacity; refusals.
using System;
using System.IO;
using System.Runtime.CompilerServices;

namespace Sinew.Tests
{
    static class RecordingTests
    {
        const float HostDt = 1f / 50f;
        const int Frames = 120;
        const int Humanoid = (int)SinewHumanoidBone.SINEW_HUMANOID_BONE_COUNT;
        const int Head = (int)SinewHumanoidBone.SINEW_HUMANOID_HEAD;

        static string cFile, csharpFile;

        /// <param name="cRecording">the file tests/c/recording.c wrote (null: that group is skipped and fails)</param>
        /// <param name="csharpRecording">where to write this side's recording for the C program</param>
        public static void Run(string cRecording, string csharpRecording)
        {
            cFile = cRecording;
            csharpFile = csharpRecording;
            Check.Group("recording: a humanoid's fall replayed onto another humanoid reads back the recorded bits every frame", RagdollRoundTrip);
            Check.Group("recording: Save writes the documented layout, Load reads it back, bad data is refused", Layout);
            Check.Group("recording: the file the C program wrote for the same scene loads, and Save writes the same bytes", SameBytesAsC);
            Check.Group("recording: a cloth's fall replayed onto a copy pinned at every vertex", ClothRoundTrip);
            Check.Group("recording: Capture and Apply allocate nothing within the capacity", NoAllocation);
            Check.Group("recording: errors (bone count, time, frame index, null)", Errors);
        }

        static World NewWorld()
        {
            SinewWorldDesc d = SinewWorldDesc.Default;
            d.thread_count = 1;
            return new World(d);
        }

        static Ragdoll NewHumanoid(World w)
        {
            return w.CreateHumanoidRagdoll(SinewHumanoidBones.Default, SinewRagdollSettings.Default);
        }

        /// <summary>The scene of tests/c/recording.c: a humanoid knocked over, 120 frames of 1/50 s
        /// in a 60 Hz world, captured after each step at time (f + 1) / 50.</summary>
        static RagdollRecorder RecordFall()
        {
            var rec = new RagdollRecorder(Humanoid, Frames);
            using (World w = NewWorld())
            {
                Ragdoll r = NewHumanoid(w);
                r.ApplyImpulse(new Vec3(0.1f, 1.5f, 0f), new Vec3(0f, 0f, 30f));
                for (int f = 0; f < Frames; f++)
                {
                    w.Step(HostDt);
                    rec.Capture(r, (f + 1) * HostDt);
                }
            }
            return rec;
        }

        static unsafe bool SameBits(ReadOnlySpan<SinewVec3> a, Vec3[] b)
        {
            for (int i = 0; i < a.Length; i++)
            {
                SinewVec3 x = a[i];
                Vec3 y = b[i];
                if (*(uint*)&x.x != *(uint*)&y.x || *(uint*)&x.y != *(uint*)&y.y || *(uint*)&x.z != *(uint*)&y.z)
                {
                    return false;
                }
            }
            return true;
        }

        static unsafe bool SameBits(ReadOnlySpan<SinewQuat> a, Quat[] b)
        {
            for (int i = 0; i < a.Length; i++)
            {
                SinewQuat x = a[i];
                Quat y = b[i];
                if (*(uint*)&x.x != *(uint*)&y.x || *(uint*)&x.y != *(uint*)&y.y || *(uint*)&x.z != *(uint*)&y.z || *(uint*)&x.w != *(uint*)&y.w)
                {
                    return false;
                }
            }
            return true;
        }

        /// <summary>Replays <paramref name="rec"/> onto a kinematic humanoid in a world stepped at the
        /// same rate; returns the frames whose readback was the recorded bits.</summary>
        static int Replay(RagdollRecorder rec, out int alphaInside)
        {
            int same = 0;
            alphaInside = 0;
            var p = new Vec3[Humanoid];
            var q = new Quat[Humanoid];
            using (World w = NewWorld())
            {
                Ragdoll r = NewHumanoid(w);
                r.SetKinematic(true);
                for (int f = 0; f < rec.FrameCount; f++)
                {
                    w.Step(HostDt);
                    float alpha = w.GetStats().alpha;
                    alphaInside += alpha > 0f && alpha < 1f ? 1 : 0;
                    rec.Apply(r, f);
                    r.ReadPose(p, q);
                    same += SameBits(rec.Positions(f), p) && SameBits(rec.Rotations(f), q) ? 1 : 0;
                }
            }
            return same;
        }

        static void RagdollRoundTrip()
        {
            RagdollRecorder rec = RecordFall();
            Check.Equal(Frames, rec.FrameCount, "120 frames captured");
            Check.That(rec.Positions(Frames - 1)[Head].y < rec.Positions(0)[Head].y - 0.5f, "the recorded humanoid fell: its head ends more than 0.5 m lower");
            int moved = 0;
            for (int f = 1; f < Frames; f++)
            {
                moved += rec.Positions(f)[Head].y != rec.Positions(f - 1)[Head].y ? 1 : 0;
            }
            Check.Equal(Frames - 1, moved, "the head moved in every frame (the recording is not one pose)");
            int same = Replay(rec, out int alphaInside);
            Console.WriteLine("       replay: " + same + " of " + Frames + " frames read back the recorded bits; alpha inside (0, 1) at " + alphaInside + " frames");
            Check.That(alphaInside > Frames / 2, "the replaying world's alpha was inside (0, 1) at most frames");
            Check.Equal(Frames, same, "every replayed frame reads back exactly the recorded bits");
            var vp = new Vec3[Humanoid];
            var vq = new Quat[Humanoid];
            rec.ReadFrame(7, new Span<Vec3>(vp), new Span<Quat>(vq));
            Check.That(SameBits(rec.Positions(7), vp) && SameBits(rec.Rotations(7), vq), "ReadFrame copies a frame into the caller's vector and quaternion types");
        }

        static void Layout()
        {
            RagdollRecorder rec = RecordFall();
            byte[] b = rec.Save();
            int frameSize = 4 + 28 * Humanoid;
            Check.Equal(20 + Frames * frameSize, b.Length, "saved size: 20 + frames * (4 + 28 * bones) bytes");
            Check.That(b[0] == (byte)'S' && b[1] == (byte)'N' && b[2] == (byte)'W' && b[3] == (byte)'R', "magic \"SNWR\"");
            Check.That(BitConverter.IsLittleEndian, "this machine is little-endian (BitConverter reads the layout's fields as they are)");
            Check.That(BitConverter.ToUInt32(b, 4) == 1 && BitConverter.ToUInt32(b, 8) == 1 && BitConverter.ToUInt32(b, 12) == Humanoid && BitConverter.ToUInt32(b, 16) == Frames,
                "header: version 1, kind 1 (ragdoll), 11 bones, 120 frames");
            int last = 20 + (Frames - 1) * frameSize;
            Check.That(BitConverter.ToSingle(b, last) == rec.Time(Frames - 1) && BitConverter.ToSingle(b, last + 4) == rec.Positions(Frames - 1)[0].x
                    && BitConverter.ToSingle(b, last + 4 + 12 * Humanoid + 12) == rec.Rotations(Frames - 1)[0].w,
                "the last frame: time, positions, rotations (x, y, z, w) where the layout puts them");
            RagdollRecorder loaded = RagdollRecorder.Load(b);
            Check.That(loaded.FrameCount == Frames && loaded.BoneCount == Humanoid, "Load: 120 frames of 11 bones");
            Check.That(Same(b, loaded.Save()), "loaded and saved again: the same bytes");
            int same = Replay(loaded, out int _);
            Check.Equal(Frames, same, "the loaded recording replays to the recorded bits every frame");

            var bad = (byte[])b.Clone();
            bad[0] = (byte)'X';
            Check.Throws<InvalidDataException>("a wrong magic is refused", () => RagdollRecorder.Load(bad));
            Check.Throws<InvalidDataException>("a truncated recording is refused", () => RagdollRecorder.Load(Take(b, b.Length - 1)));
            Check.Throws<InvalidDataException>("a header alone (3 bytes) is refused", () => RagdollRecorder.Load(Take(b, 3)));
            bad = (byte[])b.Clone();
            Array.Copy(BitConverter.GetBytes(float.NaN), 0, bad, 20 + frameSize, 4);
            Check.Throws<InvalidDataException>("a NaN time is refused", () => RagdollRecorder.Load(bad));
            Check.Throws<InvalidDataException>("a ragdoll recording is not a body recording (kind)", () => BodyRecorder.Load(b));
            Check.Throws<ArgumentNullException>("null data is refused", () => RagdollRecorder.Load((byte[])null));
        }

        static void SameBytesAsC()
        {
            RagdollRecorder rec = RecordFall();
            byte[] mine = rec.Save();
            rec.Save(csharpFile);
            Check.That(File.Exists(csharpFile), "the C# recording is written for the C program (" + csharpFile + ")");
            Check.That(cFile != null && File.Exists(cFile), "the C program's recording exists (" + cFile + ")");
            if (cFile == null || !File.Exists(cFile))
            {
                return;
            }
            byte[] theirs = File.ReadAllBytes(cFile);
            RagdollRecorder loaded = RagdollRecorder.Load(theirs);
            Check.Equal(Frames, loaded.FrameCount, "the C program's recording loads (120 frames)");
            Check.That(Same(theirs, mine), "C# Save writes byte for byte the file the C program wrote for the same scene (" + theirs.Length + " bytes)");
            Check.Equal(Frames, Replay(loaded, out int _), "the C program's recording replays to its bits every frame");
        }

        static void ClothRoundTrip()
        {
            const int Side = 12;
            SinewClothGridDesc desc = SinewClothGridDesc.Default;
            desc.columns = Side;
            desc.rows = Side;
            desc.spacing = 0.05f;
            var rec = new BodyRecorder(Side * Side, Frames);
            using (World w = NewWorld())
            {
                Cloth c = Cloth.CreateGrid(w, desc, new[] { 0, Side - 1 });
                for (int f = 0; f < Frames; f++)
                {
                    w.Step(HostDt);
                    rec.Capture(c, (f + 1) * HostDt);
                }
            }
            float drop = rec.Positions(0)[Side * Side - 1].y - rec.Positions(Frames - 1)[Side * Side - 1].y;
            Check.That(drop > 0.2f, "the recorded cloth swung down: its free corner fell " + drop.ToString("F3") + " m");
            byte[] b = rec.Save();
            Check.Equal(20 + Frames * (4 + 12 * Side * Side), b.Length, "saved size: 20 + frames * (4 + 12 * vertices) bytes (kind 2)");
            Check.Equal(2u, BitConverter.ToUInt32(b, 8), "kind 2: body vertices");
            BodyRecorder loaded = BodyRecorder.Load(b);
            Check.That(Same(b, loaded.Save()), "a body recording loads and saves to the same bytes");

            // The copy: the same grid, every vertex pinned to the recorded positions each frame.
            int same = 0, sameAfterStep = 0;
            float worst = 0f;
            var p = new Vec3[Side * Side];
            using (World w = NewWorld())
            {
                Cloth copy = Cloth.CreateGrid(w, desc);
                for (int f = 0; f < Frames; f++)
                {
                    w.Step(HostDt);
                    loaded.Apply(copy, f);
                    copy.ReadPositions(p);
                    same += SameBits(loaded.Positions(f), p) ? 1 : 0;
                }
                // Held at the last frame: a step carries the pinned vertices to the target itself.
                w.Step(HostDt);
                copy.ReadPositions(p);
                ReadOnlySpan<SinewVec3> lastFrame = loaded.Positions(Frames - 1);
                for (int i = 0; i < p.Length; i++)
                {
                    worst = Math.Max(worst, Math.Max(Math.Abs(p[i].x - lastFrame[i].x), Math.Max(Math.Abs(p[i].y - lastFrame[i].y), Math.Abs(p[i].z - lastFrame[i].z))));
                }
                sameAfterStep = SameBits(lastFrame, p) ? 1 : 0;
            }
            Console.WriteLine("       cloth replay: " + same + " of " + Frames + " frames read back the recorded bits; one step later, held at the last frame: largest difference " + worst + " m");
            Check.Equal(Frames, same, "every replayed cloth frame reads back exactly the recorded positions (pins read back at once)");
            Check.That(sameAfterStep == 1, "held at the last frame for a step, the pinned copy still reads it bit for bit (largest difference " + worst + " m)");
        }

        static void NoAllocation()
        {
            using (World w = NewWorld())
            {
                Ragdoll r = NewHumanoid(w);
                Ragdoll copy = NewHumanoid(w);
                copy.SetKinematic(true);
                var rec = new RagdollRecorder(Humanoid, 200);
                Frame(w, r, copy, rec, 0);
                long before = GC.GetAllocatedBytesForCurrentThread();
                for (int i = 1; i < 150; i++)
                {
                    Frame(w, r, copy, rec, i);
                }
                long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
                Check.Equal(0L, allocated, "149 frames of Step, Capture, Apply, Positions, Rotations, Time allocate 0 bytes");
                Check.Equal(200, rec.Capacity, "the capacity never grew");
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static void Frame(World w, Ragdoll r, Ragdoll copy, RagdollRecorder rec, int i)
        {
            w.Step(HostDt);
            rec.Capture(r, i * HostDt);
            rec.Apply(copy, i);
            if (rec.Positions(i).Length != Humanoid || rec.Rotations(i).Length != Humanoid || rec.Time(i) != i * HostDt)
            {
                throw new InvalidOperationException("frame " + i + " was not recorded");
            }
        }

        static void Errors()
        {
            using (World w = NewWorld())
            {
                Ragdoll r = NewHumanoid(w);
                var rec = new RagdollRecorder(Humanoid, 2);
                rec.Capture(r, 1f);
                Check.Throws<ArgumentException>("a time before the last frame's is refused", () => rec.Capture(r, 0.5f));
                Check.Throws<ArgumentException>("a NaN time is refused", () => rec.Capture(r, float.NaN));
                var wrong = new RagdollRecorder(3, 1);
                Check.Throws<ArgumentException>("a ragdoll of another bone count is refused", () => wrong.Capture(r, 0f));
                Check.Equal(0, wrong.FrameCount, "a refused capture adds no frame");
                Check.Throws<ArgumentOutOfRangeException>("frame 1 of a one-frame recording is out of range", () => rec.Positions(1));
                Check.Throws<ArgumentOutOfRangeException>("frame -1 is out of range", () => rec.Apply(r, -1));
                Check.Throws<ArgumentNullException>("a null ragdoll is refused", () => rec.Capture(null, 2f));
                Check.Throws<ArgumentOutOfRangeException>("a recording of 0 bones is refused", () => new RagdollRecorder(0, 1));
                Check.Throws<ArgumentOutOfRangeException>("a recording of 257 bones is refused", () => new RagdollRecorder(257, 1));
                rec.Capture(r, 2f);
                rec.Capture(r, 3f);
                Check.That(rec.FrameCount == 3 && rec.Capacity >= 3, "beyond its capacity the recording grows (" + rec.Capacity + " frames)");
                Ragdoll gone = NewHumanoid(w);
                gone.Dispose();
                Check.ThrowsSinew("applying to a disposed ragdoll", SinewResult.SINEW_INVALID_HANDLE, () => rec.Apply(gone, 0));
            }
        }

        static bool Same(byte[] a, byte[] b)
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

        static byte[] Take(byte[] b, int n)
        {
            var t = new byte[n];
            Array.Copy(b, t, n);
            return t;
        }
    }
}
