// Hand-written. Records a ragdoll's simulated motion (PuppetMaster's "Baker", issue 29): each
// step the rig's local transforms, for an AnimationClip (the editor's "Save AnimationClip"), and
// the native bones' world poses (Sinew.RagdollRecorder: replayed bit for bit, saved in the
// layout C and C++ read).
using System;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// Records a <see cref="SinewRagdoll"/>'s motion after every step: the rig's local transforms
    /// (its ragdoll bones and <see cref="extraTransforms"/>, e.g. bones a cape or hair moves),
    /// relative to <see cref="root"/>, for an AnimationClip — a cutscene, or a get-up clip that
    /// starts from where the ragdoll lay (the editor's "Save AnimationClip…" button or
    /// <c>SinewAnimationClipBaker.Save</c>) — and the native bones' world poses
    /// (<see cref="NativeRecording"/>: replays onto a ragdoll bit for bit, saves the layout
    /// C, C++ and <see cref="RagdollRecorder"/> share). No allocation per frame within
    /// <see cref="frameCapacity"/>.
    /// </summary>
    public sealed class SinewRagdollRecorder : MonoBehaviour
    {
        [Tooltip("The ragdoll to record. Empty: the SinewRagdoll on this GameObject.")]
        public SinewRagdoll ragdoll;

        [Tooltip("Where the clip's paths start: the Animator's GameObject that will play the clip. Empty: this GameObject.")]
        public Transform root;

        [Tooltip("More transforms under the root to record beside the ragdoll's bones, e.g. the bones a cape or hair drives.")]
        public Transform[] extraTransforms = new Transform[0];

        [Tooltip("Frames to make room for at the start (600: 10 s at 60 frames per second); beyond them the recording grows (and allocates).")]
        [Min(1)]
        public int frameCapacity = 600;

        [Tooltip("Start recording as soon as the ragdoll exists.")]
        public bool recordOnStart;

        Transform[] recorded = new Transform[0];
        Vector3[] localPositions;
        Quaternion[] localRotations;
        SinewTransformRecording recording;
        RagdollRecorder nativeRecording;
        bool isRecording;
        float startTime;
        SinewRagdoll subscribed;

        /// <summary>The local transforms recorded so far (null before the first recording).</summary>
        public SinewTransformRecording Recording
        {
            get { return recording; }
        }

        /// <summary>The native bones' world poses, frame for frame with <see cref="Recording"/>.</summary>
        public RagdollRecorder NativeRecording
        {
            get { return nativeRecording; }
        }

        public bool IsRecording
        {
            get { return isRecording; }
        }

        /// <summary>The transform the clip's paths start from.</summary>
        public Transform Root
        {
            get { return root != null ? root : transform; }
        }

        /// <summary>Starts a new recording (the last one is forgotten). The ragdoll must exist
        /// (enabled, created).</summary>
        public void StartRecording()
        {
            SinewRagdoll r = Ragdoll();
            if (r == null || r.Native == null)
            {
                throw new InvalidOperationException("SinewRagdollRecorder: no created SinewRagdoll to record (enable it first)");
            }
            recorded = new Transform[r.BoneCount + extraTransforms.Length];
            for (int i = 0; i < r.BoneCount; i++)
            {
                recorded[i] = r.GetBone(i);
            }
            Array.Copy(extraTransforms, 0, recorded, r.BoneCount, extraTransforms.Length);
            var paths = new string[recorded.Length];
            for (int i = 0; i < recorded.Length; i++)
            {
                paths[i] = SinewTransformRecording.PathFrom(Root, recorded[i]);
            }
            localPositions = new Vector3[recorded.Length];
            localRotations = new Quaternion[recorded.Length];
            recording = new SinewTransformRecording(paths, frameCapacity);
            nativeRecording = new RagdollRecorder(r.BoneCount, frameCapacity);
            startTime = UnityEngine.Time.time;
            isRecording = true;
            Subscribe(r);
        }

        /// <summary>Stops recording; the frames stay in <see cref="Recording"/> and <see cref="NativeRecording"/>.</summary>
        public void StopRecording()
        {
            isRecording = false;
        }

        void Start()
        {
            if (recordOnStart)
            {
                StartRecording();
            }
        }

        void OnDisable()
        {
            isRecording = false;
            Subscribe(null);
        }

        SinewRagdoll Ragdoll()
        {
            return ragdoll != null ? ragdoll : GetComponent<SinewRagdoll>();
        }

        void Subscribe(SinewRagdoll r)
        {
            if (subscribed != null)
            {
                subscribed.Stepped -= OnStepped;
            }
            subscribed = r;
            if (r != null)
            {
                r.Stepped += OnStepped;
            }
        }

        void OnStepped(SinewRagdoll r)
        {
            if (!isRecording || r.Native == null)
            {
                return;
            }
            for (int i = 0; i < recorded.Length; i++)
            {
                localPositions[i] = recorded[i].localPosition;
                localRotations[i] = recorded[i].localRotation;
            }
            float t = UnityEngine.Time.time - startTime;
            recording.Capture(t, localPositions, localRotations);
            nativeRecording.Capture(r.Native, t);
        }
    }
}
