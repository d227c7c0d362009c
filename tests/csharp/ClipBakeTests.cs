// The Unity package's recorder baked to an AnimationClip (issue 29), on Mono against the
// UnityEngine / UnityEditor stubs (tests/unity-stub: AnimationClip, AnimationCurve and
// AnimationUtility's curve calls hold what is set) and the real libsinew.so
// (scripts/test-unity.sh). A humanoid's 90-frame fall is simulated through the package's
// Sinew.Runtime wrapper; each frame its bones' poses go into a SinewTransformRecording as the
// local transforms of 11 transforms directly under an identity root (so local = world) and
// into the native RagdollRecorder; SinewAnimationClipBaker.Bake writes the clip. Checked: one
// float curve per bone and Transform property (m_LocalPosition.x..z, m_LocalRotation.x..w),
// bound by path, each with one key per frame at the frame's time from the first; every key
// the recorded value (rotations: all four components negated together only where the
// quaternion crossed hemispheres, so consecutive keys never interpolate the long way round);
// the first and last keys the recorded bits; tangents the finite differences; the frame rate
// the recording's; the rotation hemisphere fix on a rotation that does cross.
using System;
using System.Collections.Generic;
using Sinew.Components;
using Sinew.Editor;
using UnityEditor;
using UnityEngine;

namespace Sinew.Tests
{
    static class ClipBakeTests
    {
        const int Frames = 90;
        const float HostDt = 1f / 50f;
        const int Bones = (int)SinewHumanoidBone.SINEW_HUMANOID_BONE_COUNT;

        static int Main()
        {
            Check.Group("clip: a humanoid's recorded fall baked into an AnimationClip's curves", HumanoidClip);
            Check.Group("clip: a rotation crossing hemispheres is keyed continuously (the same rotation)", Hemisphere);
            Check.Group("clip: refusals", Refusals);
            return Check.Finish("clip");
        }

        static string[] Paths()
        {
            var paths = new string[Bones];
            for (int i = 0; i < Bones; i++)
            {
                paths[i] = "Armature/" + (SinewHumanoidBone)i;
            }
            return paths;
        }

        static void HumanoidClip()
        {
            var rec = new SinewTransformRecording(Paths(), Frames);
            var native = new RagdollRecorder(Bones, Frames);
            var p = new Vector3[Bones];
            var q = new Quaternion[Bones];
            SinewWorldDesc d = SinewWorldDesc.Default;
            d.thread_count = 1;
            using (var w = new World(d))
            {
                Ragdoll r = w.CreateHumanoidRagdoll(SinewHumanoidBones.Default, SinewRagdollSettings.Default);
                r.ApplyImpulse(new Vector3(0.1f, 1.5f, 0f), new Vector3(0f, 0f, 30f));
                for (int f = 0; f < Frames; f++)
                {
                    w.Step(HostDt);
                    float t = 0.5f + f * HostDt;
                    r.ReadPose(p, q);
                    rec.Capture(t, p, q);
                    native.Capture(r, t);
                }
            }
            Check.Equal(Frames, rec.FrameCount, "90 frames recorded");
            bool sameAsNative = true;
            for (int f = 0; f < Frames; f++)
            {
                for (int b = 0; b < Bones; b++)
                {
                    sameAsNative &= Bits(rec.LocalPosition(f, b).x) == Bits(native.Positions(f)[b].x) && Bits(rec.LocalRotation(f, b).w) == Bits(native.Rotations(f)[b].w);
                }
            }
            Check.That(sameAsNative, "the transform recording holds the native recorder's bits (same readback)");

            AnimationClip clip = SinewAnimationClipBaker.Bake(rec);
            Check.Equal(50f, clip.frameRate, "the clip's frame rate is the recording's (50)");
            EditorCurveBinding[] bindings = AnimationUtility.GetCurveBindings(clip);
            Check.Equal(Bones * 7, bindings.Length, "one curve per bone and property: 11 x 7 = 77");
            var seen = new HashSet<string>();
            foreach (EditorCurveBinding b in bindings)
            {
                seen.Add(b.path + "|" + b.propertyName + "|" + b.type.Name);
            }
            bool all = true;
            foreach (string path in Paths())
            {
                foreach (string prop in new[] { "m_LocalPosition.x", "m_LocalPosition.y", "m_LocalPosition.z", "m_LocalRotation.x", "m_LocalRotation.y", "m_LocalRotation.z", "m_LocalRotation.w" })
                {
                    all &= seen.Contains(path + "|" + prop + "|Transform");
                }
            }
            Check.That(all, "every binding is (bone path, m_LocalPosition.x..z / m_LocalRotation.x..w, Transform)");

            int wrongCount = 0, wrongTime = 0, wrongValue = 0, flipped = 0, longWay = 0, wrongTangent = 0;
            bool endsExact = true;
            for (int b = 0; b < Bones; b++)
            {
                Keyframe[][] k = Curves(clip, Paths()[b]);
                for (int c = 0; c < 7; c++)
                {
                    wrongCount += k[c].Length != Frames ? 1 : 0;
                }
                if (wrongCount > 0)
                {
                    continue;
                }
                for (int f = 0; f < Frames; f++)
                {
                    for (int c = 0; c < 7; c++)
                    {
                        wrongTime += Bits(k[c][f].time) != Bits(rec.Time(f) - rec.Time(0)) ? 1 : 0;
                    }
                    Vector3 rp = rec.LocalPosition(f, b);
                    Quaternion rq = rec.LocalRotation(f, b);
                    wrongValue += Bits(k[0][f].value) != Bits(rp.x) || Bits(k[1][f].value) != Bits(rp.y) || Bits(k[2][f].value) != Bits(rp.z) ? 1 : 0;
                    bool same = Bits(k[3][f].value) == Bits(rq.x) && Bits(k[4][f].value) == Bits(rq.y) && Bits(k[5][f].value) == Bits(rq.z) && Bits(k[6][f].value) == Bits(rq.w);
                    bool negated = k[3][f].value == -rq.x && k[4][f].value == -rq.y && k[5][f].value == -rq.z && k[6][f].value == -rq.w;
                    wrongValue += same || negated ? 0 : 1;
                    flipped += !same && negated ? 1 : 0;
                    if (f > 0)
                    {
                        float dot = 0f;
                        for (int c = 3; c < 7; c++)
                        {
                            dot += k[c][f].value * k[c][f - 1].value;
                        }
                        longWay += dot < 0f ? 1 : 0;
                    }
                    if (f > 0 && f < Frames - 1)
                    {
                        for (int c = 0; c < 7; c++)
                        {
                            float slope = (k[c][f + 1].value - k[c][f - 1].value) / (k[c][f + 1].time - k[c][f - 1].time);
                            wrongTangent += Bits(k[c][f].inTangent) != Bits(slope) || Bits(k[c][f].outTangent) != Bits(slope) ? 1 : 0;
                        }
                    }
                }
                Vector3 last = rec.LocalPosition(Frames - 1, b);
                endsExact &= Bits(k[0][0].value) == Bits(rec.LocalPosition(0, b).x) && Bits(k[6][0].value) == Bits(rec.LocalRotation(0, b).w)
                    && Bits(k[0][Frames - 1].value) == Bits(last.x) && Bits(k[1][Frames - 1].value) == Bits(last.y) && Bits(k[2][Frames - 1].value) == Bits(last.z);
            }
            Console.WriteLine("       " + flipped + " rotation keys of " + Bones * Frames + " were negated to stay in the previous key's hemisphere");
            Check.Equal(0, wrongCount, "every curve has one key per recorded frame (90)");
            Check.Equal(0, wrongTime, "every key is at its frame's time from the first frame's (the clip starts at 0)");
            Check.Equal(0, wrongValue, "every key is the recorded local position / rotation (a rotation only ever negated as a whole)");
            Check.That(endsExact, "the first and last keys are the recorded local transforms, bit for bit");
            Check.Equal(0, longWay, "no two consecutive rotation keys lie in opposite hemispheres");
            Check.Equal(0, wrongTangent, "inner keys' tangents are the finite differences of their neighbours");
        }

        static void Hemisphere()
        {
            // About Y by 170°, 180°, 190°, the last given as the quaternion with w >= 0 (the
            // other hemisphere from the one before): the baker keys it negated.
            float s85 = (float)Math.Sin(85.0 * Math.PI / 180.0), c85 = (float)Math.Cos(85.0 * Math.PI / 180.0);
            var rec = new SinewTransformRecording(new[] { "" }, 3);
            rec.Capture(0f, new[] { new Vector3(0f, 0f, 0f) }, new[] { new Quaternion(0f, s85, 0f, c85) });
            rec.Capture(0.1f, new[] { new Vector3(0f, 0f, 0f) }, new[] { new Quaternion(0f, 1f, 0f, 0f) });
            rec.Capture(0.2f, new[] { new Vector3(0f, 0f, 0f) }, new[] { new Quaternion(0f, -s85, 0f, c85) });
            Keyframe[][] k = Curves(SinewAnimationClipBaker.Bake(rec), "");
            Check.That(k[4][0].value == s85 && k[6][0].value == c85, "the first key is the recorded rotation");
            Check.That(k[4][2].value == s85 && k[6][2].value == -c85, "the third key is the recorded rotation negated (y " + k[4][2].value + ", w " + k[6][2].value + ")");
            Check.Equal(10f, SinewAnimationClipBaker.Bake(rec).frameRate, "frame rate 10 for frames 0.1 s apart");
        }

        static void Refusals()
        {
            var rec = new SinewTransformRecording(new[] { "a" }, 1);
            Check.Throws<ArgumentException>("an empty recording is not baked", () => SinewAnimationClipBaker.Bake(rec));
            rec.Capture(1f, new[] { new Vector3(1f, 2f, 3f) }, new[] { new Quaternion(0f, 0f, 0f, 1f) });
            Check.Throws<ArgumentException>("a time before the last frame's is refused", () => rec.Capture(0.5f, new[] { new Vector3() }, new[] { new Quaternion(0f, 0f, 0f, 1f) }));
            Check.Throws<ArgumentException>("a frame of the wrong transform count is refused", () => rec.Capture(2f, new Vector3[2], new Quaternion[2]));
            Check.Throws<ArgumentException>("a recording of no transforms is refused", () => new SinewTransformRecording(new string[0], 1));
            rec.Capture(2f, new[] { new Vector3(1f, 2f, 3f) }, new[] { new Quaternion(0f, 0f, 0f, 1f) });
            Check.That(rec.FrameCount == 2 && rec.Capacity >= 2, "beyond its capacity the recording grows");
            Check.Throws<ArgumentOutOfRangeException>("frame 2 of a two-frame recording is out of range", () => rec.LocalPosition(2, 0));
        }

        /// <summary>The seven curves' keys of the transform at <paramref name="path"/>, in the baker's property order.</summary>
        static Keyframe[][] Curves(AnimationClip clip, string path)
        {
            var k = new Keyframe[7][];
            for (int c = 0; c < 7; c++)
            {
                AnimationCurve curve = AnimationUtility.GetEditorCurve(clip, EditorCurveBinding.FloatCurve(path, typeof(Transform), SinewAnimationClipBaker.Properties[c]));
                k[c] = curve == null ? new Keyframe[0] : curve.keys;
            }
            return k;
        }

        static unsafe uint Bits(float f)
        {
            return *(uint*)&f;
        }
    }
}
