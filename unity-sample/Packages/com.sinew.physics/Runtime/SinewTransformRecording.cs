// Hand-written. Frames of a rig's local transforms, the data an AnimationClip is baked from
// (SinewRagdollRecorder records them; the editor's SinewAnimationClipBaker writes the clip).
using System;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// Frames of local transforms: per frame a time (s) and each recorded transform's
    /// <c>localPosition</c> and <c>localRotation</c>, with the transform's path from the root
    /// ("Hips/Spine/Chest", "" for the root itself) as an AnimationClip binds it. Preallocated:
    /// <see cref="Capture"/> allocates nothing until it outgrows <see cref="Capacity"/> (then
    /// doubles it).
    /// </summary>
    public sealed class SinewTransformRecording
    {
        readonly string[] paths;
        float[] times;
        Vector3[] positions;
        Quaternion[] rotations;
        int frames;

        /// <summary>A recording of the transforms at <paramref name="paths"/> (relative to the
        /// clip's root) with room for <paramref name="frameCapacity"/> frames.</summary>
        public SinewTransformRecording(string[] paths, int frameCapacity)
        {
            if (paths == null || paths.Length == 0)
            {
                throw new ArgumentException("record at least one transform", "paths");
            }
            if (frameCapacity < 0)
            {
                throw new ArgumentOutOfRangeException("frameCapacity", frameCapacity, "must not be negative");
            }
            this.paths = (string[])paths.Clone();
            times = new float[frameCapacity];
            positions = new Vector3[frameCapacity * paths.Length];
            rotations = new Quaternion[frameCapacity * paths.Length];
        }

        public int TransformCount
        {
            get { return paths.Length; }
        }

        public int FrameCount
        {
            get { return frames; }
        }

        public int Capacity
        {
            get { return times.Length; }
        }

        /// <summary>Path of transform <paramref name="transform"/> from the root ("" is the root).</summary>
        public string Path(int transform)
        {
            return paths[transform];
        }

        /// <summary>Time (s) of <paramref name="frame"/>, from the start of the recording.</summary>
        public float Time(int frame)
        {
            return times[CheckFrame(frame)];
        }

        public Vector3 LocalPosition(int frame, int transform)
        {
            return positions[CheckFrame(frame) * paths.Length + CheckTransform(transform)];
        }

        public Quaternion LocalRotation(int frame, int transform)
        {
            return rotations[CheckFrame(frame) * paths.Length + CheckTransform(transform)];
        }

        /// <summary>Appends a frame: <see cref="TransformCount"/> local positions and rotations
        /// at <paramref name="time"/> (s, finite, not before the last frame's).</summary>
        public void Capture(float time, Vector3[] localPositions, Quaternion[] localRotations)
        {
            int n = paths.Length;
            if (float.IsNaN(time) || float.IsInfinity(time) || (frames > 0 && time < times[frames - 1]))
            {
                throw new ArgumentException("time must be finite and not before the last frame's (got " + time + ")", "time");
            }
            if (localPositions == null || localRotations == null || localPositions.Length != n || localRotations.Length != n)
            {
                throw new ArgumentException("one local position and rotation per recorded transform (" + n + ")");
            }
            if (frames == times.Length)
            {
                int capacity = Math.Max(16, times.Length * 2);
                Array.Resize(ref times, capacity);
                Array.Resize(ref positions, capacity * n);
                Array.Resize(ref rotations, capacity * n);
            }
            Array.Copy(localPositions, 0, positions, frames * n, n);
            Array.Copy(localRotations, 0, rotations, frames * n, n);
            times[frames++] = time;
        }

        /// <summary>Forgets every frame; keeps the room.</summary>
        public void Clear()
        {
            frames = 0;
        }

        /// <summary>The path of <paramref name="transform"/> from <paramref name="root"/>, names
        /// joined by '/' as AnimationClip bindings spell it ("" for the root itself); throws when
        /// it is not under the root.</summary>
        public static string PathFrom(Transform root, Transform transform)
        {
            string path = "";
            for (Transform t = transform; t != root; t = t.parent)
            {
                if (t == null)
                {
                    throw new ArgumentException(transform.name + " is not under the recording's root " + root.name, "transform");
                }
                path = path.Length == 0 ? t.name : t.name + "/" + path;
            }
            return path;
        }

        int CheckFrame(int frame)
        {
            if ((uint)frame >= (uint)frames)
            {
                throw new ArgumentOutOfRangeException("frame", frame, "the recording has " + frames + " frames");
            }
            return frame;
        }

        int CheckTransform(int transform)
        {
            if ((uint)transform >= (uint)paths.Length)
            {
                throw new ArgumentOutOfRangeException("transform", transform, "the recording has " + paths.Length + " transforms");
            }
            return transform;
        }
    }
}
