// Hand-written. Bakes a SinewRagdollRecorder's recording into an AnimationClip asset (issue 29,
// PuppetMaster's "Baker"): one float curve per local position and rotation component of each
// recorded transform, keyed at the recorded frames, bound by path from the recorder's root.
using System;
using Sinew.Components;
using UnityEditor;
using UnityEngine;

namespace Sinew.Editor
{
    /// <summary>
    /// Writes a <see cref="SinewTransformRecording"/> as an <see cref="AnimationClip"/>: for each
    /// recorded transform (path from the root, "" for the root) the curves
    /// <c>m_LocalPosition.x/y/z</c> and <c>m_LocalRotation.x/y/z/w</c> of <see cref="Transform"/>
    /// (<see cref="AnimationUtility.SetEditorCurve"/> with <see cref="EditorCurveBinding.FloatCurve"/>),
    /// one key per recorded frame at its time from the first frame's (the clip starts at 0).
    /// Every key's value is the recorded one, except that a rotation whose quaternion lies in
    /// the other hemisphere from the key before is written negated (the same rotation), so
    /// that Unity's component-wise interpolation between keys does not swing the long way
    /// round. Tangents are the finite differences of the neighbouring keys (one-sided at the
    /// ends), so the clip moves as recorded between keys instead of easing into each one.
    /// </summary>
    public static class SinewAnimationClipBaker
    {
        /// <summary>The Transform properties written, in the order of their curves.</summary>
        public static readonly string[] Properties =
        {
            "m_LocalPosition.x", "m_LocalPosition.y", "m_LocalPosition.z",
            "m_LocalRotation.x", "m_LocalRotation.y", "m_LocalRotation.z", "m_LocalRotation.w",
        };

        /// <summary>A new clip with the recording's curves (frame rate: the recording's mean
        /// frame rate, rounded; 60 for a recording of one frame).</summary>
        public static AnimationClip Bake(SinewTransformRecording recording)
        {
            var clip = new AnimationClip();
            int frames = recording.FrameCount;
            float span = frames > 1 ? recording.Time(frames - 1) - recording.Time(0) : 0f;
            clip.frameRate = span > 0f ? (float)Math.Round((frames - 1) / span) : 60f;
            WriteCurves(clip, recording);
            return clip;
        }

        /// <summary>Sets the recording's seven curves per transform on <paramref name="clip"/>.</summary>
        public static void WriteCurves(AnimationClip clip, SinewTransformRecording recording)
        {
            int frames = recording.FrameCount;
            if (frames == 0)
            {
                throw new ArgumentException("the recording has no frames", "recording");
            }
            var times = new float[frames];
            for (int f = 0; f < frames; f++)
            {
                times[f] = recording.Time(f) - recording.Time(0);
            }
            var values = new float[Properties.Length][];
            for (int c = 0; c < values.Length; c++)
            {
                values[c] = new float[frames];
            }
            for (int t = 0; t < recording.TransformCount; t++)
            {
                Channels(recording, t, values);
                for (int c = 0; c < Properties.Length; c++)
                {
                    EditorCurveBinding binding = EditorCurveBinding.FloatCurve(recording.Path(t), typeof(Transform), Properties[c]);
                    AnimationUtility.SetEditorCurve(clip, binding, Curve(times, values[c]));
                }
            }
        }

        /// <summary>Bakes the recording and saves it as an asset at <paramref name="assetPath"/>
        /// ("Assets/…/Name.anim").</summary>
        public static AnimationClip Save(SinewTransformRecording recording, string assetPath)
        {
            AnimationClip clip = Bake(recording);
            AssetDatabase.CreateAsset(clip, assetPath);
            AssetDatabase.SaveAssets();
            return clip;
        }

        /// <summary>Transform <paramref name="t"/>'s seven channels over the frames into
        /// <paramref name="values"/>, each rotation in the hemisphere of the one before.</summary>
        static void Channels(SinewTransformRecording recording, int t, float[][] values)
        {
            Quaternion previous = new Quaternion(0f, 0f, 0f, 1f);
            for (int f = 0; f < recording.FrameCount; f++)
            {
                Vector3 p = recording.LocalPosition(f, t);
                Quaternion q = recording.LocalRotation(f, t);
                if (f > 0 && q.x * previous.x + q.y * previous.y + q.z * previous.z + q.w * previous.w < 0f)
                {
                    q = new Quaternion(-q.x, -q.y, -q.z, -q.w);
                }
                previous = q;
                values[0][f] = p.x;
                values[1][f] = p.y;
                values[2][f] = p.z;
                values[3][f] = q.x;
                values[4][f] = q.y;
                values[5][f] = q.z;
                values[6][f] = q.w;
            }
        }

        /// <summary>A curve through (<paramref name="times"/>[k], <paramref name="values"/>[k]) with
        /// finite-difference tangents.</summary>
        public static AnimationCurve Curve(float[] times, float[] values)
        {
            int n = times.Length;
            var keys = new Keyframe[n];
            for (int k = 0; k < n; k++)
            {
                int a = Math.Max(k - 1, 0), b = Math.Min(k + 1, n - 1);
                float slope = b > a && times[b] > times[a] ? (values[b] - values[a]) / (times[b] - times[a]) : 0f;
                keys[k] = new Keyframe(times[k], values[k], slope, slope);
            }
            return new AnimationCurve(keys);
        }
    }

    /// <summary>The recorder's inspector: its fields, then Start / Stop in play mode, the frame
    /// count, and "Save AnimationClip…" once there is a recording.</summary>
    [CustomEditor(typeof(SinewRagdollRecorder))]
    public sealed class SinewRagdollRecorderEditor : UnityEditor.Editor
    {
        public override void OnInspectorGUI()
        {
            DrawDefaultInspector();
            var recorder = (SinewRagdollRecorder)target;
            if (EditorApplication.isPlaying)
            {
                if (!recorder.IsRecording && GUILayout.Button("Start recording"))
                {
                    recorder.StartRecording();
                }
                if (recorder.IsRecording && GUILayout.Button("Stop recording"))
                {
                    recorder.StopRecording();
                }
            }
            SinewTransformRecording rec = recorder.Recording;
            if (rec == null)
            {
                EditorGUILayout.HelpBox("Enter play mode and start recording (or tick Record On Start); stop, then save the frames as an AnimationClip.", MessageType.Info);
                return;
            }
            EditorGUILayout.LabelField("Frames", rec.FrameCount + (rec.FrameCount > 0 ? " (" + rec.Time(rec.FrameCount - 1).ToString("F2") + " s)" : ""));
            if (rec.FrameCount > 0 && GUILayout.Button("Save AnimationClip…"))
            {
                SaveWithDialog(recorder);
            }
        }

        /// <summary>Asks where, then bakes the recorder's frames into a clip asset there.</summary>
        internal static void SaveWithDialog(SinewRagdollRecorder recorder)
        {
            string path = EditorUtility.SaveFilePanelInProject("Save ragdoll recording", "RagdollRecording", "anim", "Where to save the AnimationClip");
            if (!string.IsNullOrEmpty(path))
            {
                SinewAnimationClipBaker.Save(recorder.Recording, path);
            }
        }

        [MenuItem("CONTEXT/SinewRagdollRecorder/Save Recording as AnimationClip…", true)]
        static bool CanSaveFromMenu(MenuCommand command)
        {
            var recorder = command.context as SinewRagdollRecorder;
            return recorder != null && recorder.Recording != null && recorder.Recording.FrameCount > 0;
        }

        [MenuItem("CONTEXT/SinewRagdollRecorder/Save Recording as AnimationClip…")]
        static void SaveFromMenu(MenuCommand command)
        {
            SaveWithDialog((SinewRagdollRecorder)command.context);
        }
    }
}
