// Hand-written. Recording a ragdoll's or a body's simulated motion (PuppetMaster's "Baker",
// issue 29): frames captured from the readback into preallocated arrays, replayed through
// SetPose / SetPinTargets, saved and loaded in the little-endian layout of include/sinew.hpp's
// sinew::RagdollRecording (docs/design.md, "Recording a ragdoll").
using System;
using System.IO;

namespace Sinew
{
    /// <summary>
    /// The saved layout of a recording, shared with C++ (<c>sinew::RagdollRecording</c>) and the
    /// C pattern of docs/design.md. Little-endian, every float an IEEE-754 binary32:
    /// <code>
    /// offset 0   4 bytes  magic "SNWR"
    ///        4   u32      version, 1
    ///        8   u32      kind: 1 = ragdoll bones (position and rotation), 2 = body vertices (position)
    ///       12   u32      element count n: bones (1–256) or vertices (≥ 1)
    ///       16   u32      frame count F
    ///       20   F frames: f32 time (s); n × (f32 x, y, z) world positions (m);
    ///                     kind 1 only: n × (f32 x, y, z, w) world rotations
    /// </code>
    /// A frame is 4 + 28·n bytes (kind 1) or 4 + 12·n bytes (kind 2).
    /// </summary>
    public static class RecordingLayout
    {
        /// <summary>"SNWR" read as a little-endian u32.</summary>
        public const uint Magic = 0x52574E53u;
        public const uint Version = 1;
        public const uint KindRagdoll = 1;
        public const uint KindBody = 2;
        public const int HeaderSize = 20;

        /// <summary>Bytes of one frame of <paramref name="count"/> elements of <paramref name="kind"/>.</summary>
        public static int FrameSize(uint kind, int count)
        {
            return 4 + (kind == KindRagdoll ? 28 : 12) * count;
        }

        internal static void Put(byte[] b, ref int at, uint v)
        {
            b[at] = (byte)v;
            b[at + 1] = (byte)(v >> 8);
            b[at + 2] = (byte)(v >> 16);
            b[at + 3] = (byte)(v >> 24);
            at += 4;
        }

        internal static unsafe void Put(byte[] b, ref int at, float v)
        {
            Put(b, ref at, *(uint*)&v);
        }

        internal static void Put(byte[] b, ref int at, SinewVec3 v)
        {
            Put(b, ref at, v.x);
            Put(b, ref at, v.y);
            Put(b, ref at, v.z);
        }

        internal static void Put(byte[] b, ref int at, SinewQuat q)
        {
            Put(b, ref at, q.x);
            Put(b, ref at, q.y);
            Put(b, ref at, q.z);
            Put(b, ref at, q.w);
        }

        internal static uint GetU32(byte[] b, int at)
        {
            return b[at] | (uint)b[at + 1] << 8 | (uint)b[at + 2] << 16 | (uint)b[at + 3] << 24;
        }

        internal static unsafe float GetF32(byte[] b, ref int at)
        {
            uint v = GetU32(b, at);
            at += 4;
            return *(float*)&v;
        }

        internal static SinewVec3 GetVec3(byte[] b, ref int at)
        {
            return new SinewVec3 { x = GetF32(b, ref at), y = GetF32(b, ref at), z = GetF32(b, ref at) };
        }

        internal static SinewQuat GetQuat(byte[] b, ref int at)
        {
            return new SinewQuat { x = GetF32(b, ref at), y = GetF32(b, ref at), z = GetF32(b, ref at), w = GetF32(b, ref at) };
        }

        /// <summary>Frame <paramref name="frame"/>'s time, checked finite and not before <paramref name="last"/>'s.</summary>
        internal static float GetTime(byte[] b, ref int at, int frame, float last)
        {
            float t = GetF32(b, ref at);
            if (float.IsNaN(t) || float.IsInfinity(t) || (frame > 0 && t < last))
            {
                throw new InvalidDataException("frame " + frame + " has a non-finite or decreasing time (" + t + ")");
            }
            return t;
        }

        internal static byte[] Header(uint kind, int count, int frames)
        {
            var b = new byte[HeaderSize + frames * FrameSize(kind, count)];
            int at = 0;
            Put(b, ref at, Magic);
            Put(b, ref at, Version);
            Put(b, ref at, kind);
            Put(b, ref at, (uint)count);
            Put(b, ref at, (uint)frames);
            return b;
        }

        /// <summary>Checks a saved recording's header and size; returns its element and frame counts.</summary>
        internal static void Read(byte[] data, uint kind, out int count, out int frames)
        {
            if (data == null)
            {
                throw new ArgumentNullException(nameof(data));
            }
            if (data.Length < HeaderSize)
            {
                throw new InvalidDataException("a recording is at least " + HeaderSize + " bytes (got " + data.Length + ")");
            }
            if (GetU32(data, 0) != Magic || GetU32(data, 4) != Version || GetU32(data, 8) != kind)
            {
                throw new InvalidDataException("not a version-1 " + (kind == KindRagdoll ? "ragdoll" : "body") + " recording (magic, version or kind)");
            }
            uint n = GetU32(data, 12), f = GetU32(data, 16);
            if (n < 1 || (kind == KindRagdoll && n > 256) || n > int.MaxValue / 28)
            {
                throw new InvalidDataException("element count " + n + " is out of range");
            }
            long size = (long)(data.Length - HeaderSize), frameSize = FrameSize(kind, (int)n);
            if (size % frameSize != 0 || size / frameSize != f)
            {
                throw new InvalidDataException(data.Length + " bytes do not hold " + f + " frames of " + n + " elements");
            }
            count = (int)n;
            frames = (int)f;
        }

        internal static void CheckTime(float time, float last, int frames, string what)
        {
            if (float.IsNaN(time) || float.IsInfinity(time) || (frames > 0 && time < last))
            {
                throw new ArgumentException(what + ": time must be finite and not before the last frame's (got " + time + ")", "time");
            }
        }
    }

    /// <summary>
    /// A recording of a ragdoll's simulated motion: per frame a time stamp (s) and every bone's
    /// world position and rotation exactly as <see cref="Ragdoll.ReadPose{TVector, TQuaternion}(Span{TVector}, Span{TQuaternion})"/>
    /// gave them. <see cref="Apply"/> poses a ragdoll of the same bone count through
    /// <see cref="Ragdoll.SetPose{TVector, TQuaternion}(ReadOnlySpan{TVector}, ReadOnlySpan{TQuaternion}, bool)"/>,
    /// after which ReadPose gives back the recorded bits (until a fixed step moves it). Replaying
    /// in a game: step the world, then apply the frame, then read the bones for rendering.
    /// </summary>
    /// <remarks>
    /// Frames live in arrays sized for <see cref="Capacity"/> frames at construction:
    /// <see cref="Capture"/> allocates no managed memory until the recording outgrows them (it
    /// then doubles them). <see cref="Save"/> and <see cref="Load(byte[])"/> use the layout of
    /// <see cref="RecordingLayout"/>, byte for byte the one C++'s <c>sinew::RagdollRecording</c>
    /// writes.
    /// </remarks>
    public sealed class RagdollRecorder
    {
        readonly int bones;
        float[] times;
        SinewVec3[] positions;
        SinewQuat[] rotations;
        int frames;

        /// <summary>An empty recording of <paramref name="boneCount"/> bones (1–256) with room for
        /// <paramref name="frameCapacity"/> frames.</summary>
        public RagdollRecorder(int boneCount, int frameCapacity)
        {
            if (boneCount < 1 || boneCount > 256)
            {
                throw new ArgumentOutOfRangeException(nameof(boneCount), boneCount, "a ragdoll has 1-256 bones");
            }
            if (frameCapacity < 0)
            {
                throw new ArgumentOutOfRangeException(nameof(frameCapacity), frameCapacity, "must not be negative");
            }
            bones = boneCount;
            times = new float[frameCapacity];
            positions = new SinewVec3[frameCapacity * boneCount];
            rotations = new SinewQuat[frameCapacity * boneCount];
        }

        public int BoneCount => bones;
        public int FrameCount => frames;
        /// <summary>Frames it holds before <see cref="Capture"/> has to allocate.</summary>
        public int Capacity => times.Length;

        /// <summary>Time stamp (s) of <paramref name="frame"/>, as given to <see cref="Capture"/>.</summary>
        public float Time(int frame)
        {
            return times[CheckFrame(frame)];
        }

        /// <summary>The <see cref="BoneCount"/> world positions of <paramref name="frame"/>.</summary>
        public ReadOnlySpan<SinewVec3> Positions(int frame)
        {
            return new ReadOnlySpan<SinewVec3>(positions, CheckFrame(frame) * bones, bones);
        }

        /// <summary>The <see cref="BoneCount"/> world rotations (x, y, z, w) of <paramref name="frame"/>.</summary>
        public ReadOnlySpan<SinewQuat> Rotations(int frame)
        {
            return new ReadOnlySpan<SinewQuat>(rotations, CheckFrame(frame) * bones, bones);
        }

        /// <summary>Copies <paramref name="frame"/> into any 12-byte vector and 16-byte quaternion
        /// type (Unity's <c>Vector3</c> and <c>Quaternion</c>); each span holds at least
        /// <see cref="BoneCount"/>.</summary>
        public void ReadFrame<TVector, TQuaternion>(int frame, Span<TVector> outPositions, Span<TQuaternion> outRotations)
            where TVector : struct
            where TQuaternion : struct
        {
            Positions(frame).CopyTo(Blit.AsVec3(outPositions, nameof(outPositions)));
            Rotations(frame).CopyTo(Blit.AsQuat(outRotations, nameof(outRotations)));
        }

        /// <summary>Appends <paramref name="ragdoll"/>'s pose as ReadPose gives it now, at
        /// <paramref name="time"/> (s, finite, not before the last frame's). The ragdoll must have
        /// <see cref="BoneCount"/> bones.</summary>
        public void Capture(Ragdoll ragdoll, float time)
        {
            if (ragdoll == null)
            {
                throw new ArgumentNullException(nameof(ragdoll));
            }
            RecordingLayout.CheckTime(time, frames > 0 ? times[frames - 1] : 0f, frames, "Capture");
            int n = ragdoll.BoneCount;
            if (n != bones)
            {
                throw new ArgumentException("the ragdoll has " + n + " bones, the recording " + bones, nameof(ragdoll));
            }
            if (frames == times.Length)
            {
                Grow();
            }
            ragdoll.ReadPose(new Span<SinewVec3>(positions, frames * bones, bones), new Span<SinewQuat>(rotations, frames * bones, bones));
            times[frames++] = time;
        }

        /// <summary>Poses <paramref name="ragdoll"/> at <paramref name="frame"/> through SetPose
        /// (velocities zeroed unless <paramref name="keepVelocity"/>). Its ReadPose then returns
        /// the frame's bits exactly.</summary>
        public void Apply(Ragdoll ragdoll, int frame, bool keepVelocity = false)
        {
            if (ragdoll == null)
            {
                throw new ArgumentNullException(nameof(ragdoll));
            }
            ragdoll.SetPose(Positions(frame), Rotations(frame), keepVelocity);
        }

        /// <summary>Forgets every frame; keeps the room.</summary>
        public void Clear()
        {
            frames = 0;
        }

        /// <summary>The recording in the layout of <see cref="RecordingLayout"/>.</summary>
        public byte[] Save()
        {
            byte[] b = RecordingLayout.Header(RecordingLayout.KindRagdoll, bones, frames);
            int at = RecordingLayout.HeaderSize;
            for (int f = 0; f < frames; f++)
            {
                RecordingLayout.Put(b, ref at, times[f]);
                for (int i = f * bones; i < (f + 1) * bones; i++)
                {
                    RecordingLayout.Put(b, ref at, positions[i]);
                }
                for (int i = f * bones; i < (f + 1) * bones; i++)
                {
                    RecordingLayout.Put(b, ref at, rotations[i]);
                }
            }
            return b;
        }

        /// <summary>A recording from the layout of <see cref="RecordingLayout"/>; anything else
        /// (magic, version, kind, sizes, non-finite or decreasing times) throws
        /// <see cref="InvalidDataException"/> saying what.</summary>
        public static RagdollRecorder Load(byte[] data)
        {
            RecordingLayout.Read(data, RecordingLayout.KindRagdoll, out int n, out int count);
            var r = new RagdollRecorder(n, count);
            int at = RecordingLayout.HeaderSize;
            for (int f = 0; f < count; f++)
            {
                r.times[f] = RecordingLayout.GetTime(data, ref at, f, f > 0 ? r.times[f - 1] : 0f);
                for (int i = f * n; i < (f + 1) * n; i++)
                {
                    r.positions[i] = RecordingLayout.GetVec3(data, ref at);
                }
                for (int i = f * n; i < (f + 1) * n; i++)
                {
                    r.rotations[i] = RecordingLayout.GetQuat(data, ref at);
                }
            }
            r.frames = count;
            return r;
        }

        /// <summary>Writes <see cref="Save"/>'s bytes to <paramref name="path"/>.</summary>
        public void Save(string path)
        {
            File.WriteAllBytes(path, Save());
        }

        /// <summary><see cref="Load(byte[])"/> from the file at <paramref name="path"/>.</summary>
        public static RagdollRecorder Load(string path)
        {
            return Load(File.ReadAllBytes(path));
        }

        int CheckFrame(int frame)
        {
            if ((uint)frame >= (uint)frames)
            {
                throw new ArgumentOutOfRangeException(nameof(frame), frame, "the recording has " + frames + " frames");
            }
            return frame;
        }

        void Grow()
        {
            int capacity = Math.Max(16, times.Length * 2);
            Array.Resize(ref times, capacity);
            Array.Resize(ref positions, capacity * bones);
            Array.Resize(ref rotations, capacity * bones);
        }
    }

    /// <summary>
    /// A recording of a cloth's, rope's or soft body's simulated motion: per frame a time stamp
    /// (s) and every vertex's world position as <see cref="Body.ReadPositions{T}(Span{T})"/> gave
    /// them. <see cref="Apply"/> drives a copy of the body (same vertex count) as a kinematic
    /// body: every vertex pinned, its pin target the recorded position
    /// (<see cref="Body.SetPinTargets{T}(ReadOnlySpan{int}, ReadOnlySpan{T})"/>), which the copy
    /// reads back at once. Saved as kind 2 of <see cref="RecordingLayout"/>. Like
    /// <see cref="RagdollRecorder"/>, Capture allocates nothing within its capacity.
    /// </summary>
    public sealed class BodyRecorder
    {
        readonly int vertices;
        readonly int[] all;
        float[] times;
        SinewVec3[] positions;
        int frames;

        /// <summary>An empty recording of <paramref name="vertexCount"/> vertices (≥ 1) with room for
        /// <paramref name="frameCapacity"/> frames.</summary>
        public BodyRecorder(int vertexCount, int frameCapacity)
        {
            if (vertexCount < 1 || vertexCount > int.MaxValue / 28)
            {
                throw new ArgumentOutOfRangeException(nameof(vertexCount), vertexCount, "a body has at least one vertex");
            }
            if (frameCapacity < 0)
            {
                throw new ArgumentOutOfRangeException(nameof(frameCapacity), frameCapacity, "must not be negative");
            }
            vertices = vertexCount;
            all = new int[vertexCount];
            for (int i = 0; i < vertexCount; i++)
            {
                all[i] = i;
            }
            times = new float[frameCapacity];
            positions = new SinewVec3[frameCapacity * vertexCount];
        }

        public int VertexCount => vertices;
        public int FrameCount => frames;
        /// <summary>Frames it holds before <see cref="Capture"/> has to allocate.</summary>
        public int Capacity => times.Length;

        /// <summary>Time stamp (s) of <paramref name="frame"/>.</summary>
        public float Time(int frame)
        {
            return times[CheckFrame(frame)];
        }

        /// <summary>The <see cref="VertexCount"/> world positions of <paramref name="frame"/>.</summary>
        public ReadOnlySpan<SinewVec3> Positions(int frame)
        {
            return new ReadOnlySpan<SinewVec3>(positions, CheckFrame(frame) * vertices, vertices);
        }

        /// <summary>Appends <paramref name="body"/>'s positions as ReadPositions gives them now, at
        /// <paramref name="time"/> (s, finite, not before the last frame's).</summary>
        public void Capture(Body body, float time)
        {
            if (body == null)
            {
                throw new ArgumentNullException(nameof(body));
            }
            RecordingLayout.CheckTime(time, frames > 0 ? times[frames - 1] : 0f, frames, "Capture");
            int n = body.VertexCount;
            if (n != vertices)
            {
                throw new ArgumentException("the body has " + n + " vertices, the recording " + vertices, nameof(body));
            }
            if (frames == times.Length)
            {
                int capacity = Math.Max(16, times.Length * 2);
                Array.Resize(ref times, capacity);
                Array.Resize(ref positions, capacity * vertices);
            }
            body.ReadPositions(new Span<SinewVec3>(positions, frames * vertices, vertices));
            times[frames++] = time;
        }

        /// <summary>Pins every vertex of <paramref name="copy"/> (the same vertex count) to
        /// <paramref name="frame"/>'s positions.</summary>
        public void Apply(Body copy, int frame)
        {
            if (copy == null)
            {
                throw new ArgumentNullException(nameof(copy));
            }
            copy.SetPinTargets(new ReadOnlySpan<int>(all), Positions(frame));
        }

        /// <summary>Forgets every frame; keeps the room.</summary>
        public void Clear()
        {
            frames = 0;
        }

        /// <summary>The recording in the layout of <see cref="RecordingLayout"/> (kind 2).</summary>
        public byte[] Save()
        {
            byte[] b = RecordingLayout.Header(RecordingLayout.KindBody, vertices, frames);
            int at = RecordingLayout.HeaderSize;
            for (int f = 0; f < frames; f++)
            {
                RecordingLayout.Put(b, ref at, times[f]);
                for (int i = f * vertices; i < (f + 1) * vertices; i++)
                {
                    RecordingLayout.Put(b, ref at, positions[i]);
                }
            }
            return b;
        }

        /// <summary>A body recording from the layout (kind 2); anything else throws
        /// <see cref="InvalidDataException"/>.</summary>
        public static BodyRecorder Load(byte[] data)
        {
            RecordingLayout.Read(data, RecordingLayout.KindBody, out int n, out int count);
            var r = new BodyRecorder(n, count);
            int at = RecordingLayout.HeaderSize;
            for (int f = 0; f < count; f++)
            {
                r.times[f] = RecordingLayout.GetTime(data, ref at, f, f > 0 ? r.times[f - 1] : 0f);
                for (int i = f * n; i < (f + 1) * n; i++)
                {
                    r.positions[i] = RecordingLayout.GetVec3(data, ref at);
                }
            }
            r.frames = count;
            return r;
        }

        int CheckFrame(int frame)
        {
            if ((uint)frame >= (uint)frames)
            {
                throw new ArgumentOutOfRangeException(nameof(frame), frame, "the recording has " + frames + " frames");
            }
            return frame;
        }
    }
}
