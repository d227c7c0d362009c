// Sample. N (32) identical ragdolls dropped and kicked every few seconds, simulated by Sinew
// (SinewRagdoll) or by Unity's own physics built the way the chapter's RagdollBuilder (and the
// Ragdoll Wizard) does it -- a Rigidbody, a collider and a CharacterJoint or HingeJoint per bone --
// from the same bone list. Logs frame time and simulation time per frame to a CSV file and the
// screen, like the Cloth Benchmark. README.md beside this file says how to run it.
using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Text;
using Sinew;
using Sinew.Components;
using Unity.Profiling;
using UnityEngine;
using Debug = UnityEngine.Debug;
// Sinew.SinewRagdoll is the native handle; the component is meant here.
using SinewRagdoll = Sinew.Components.SinewRagdoll;
using SinewCollider = Sinew.Components.SinewCollider;
using Collider = UnityEngine.Collider;

namespace SinewSamples
{
    /// <summary>
    /// The crowd. Every ragdoll is the humanoid template (<see cref="Ragdoll.HumanoidBoneDescs(SinewHumanoidBones)"/>:
    /// the Ragdoll Wizard's 11 bodies, masses and limits) as a flat rig of 11 GameObjects with
    /// primitive visuals. <see cref="Solver.Sinew"/> gives each a <see cref="SinewRagdoll"/>
    /// (<see cref="SinewRagdoll.Build"/>); <see cref="Solver.UnityPhysics"/> gives each bone a
    /// Rigidbody of the same mass, the same shape as a CapsuleCollider / SphereCollider /
    /// BoxCollider and its joint as a CharacterJoint (swing-twist) or HingeJoint with the same
    /// axes and limits; <see cref="Solver.Both"/> puts the two crowds side by side.
    /// </summary>
    [DefaultExecutionOrder(-1000)]
    public sealed class RagdollCrowd : MonoBehaviour
    {
        public enum Solver
        {
            Sinew = 0,
            UnityPhysics = 1,
            Both = 2,
        }

        [Header("Scene")]
        [Tooltip("Number of identical ragdolls per solver (N).")]
        [Min(1)]
        public int ragdollCount = 32;

        [Tooltip("Which physics simulates the ragdolls: Sinew, Unity's (Rigidbody + joints), or both crowds side by side.")]
        public Solver solver = Solver.Both;

        [Tooltip("Distance between neighbouring ragdolls on the grid (m).")]
        [Min(0.5f)]
        public float spacing = 1.5f;

        [Tooltip("Height the ragdolls are dropped from (m above the ground).")]
        [Min(0f)]
        public float dropHeight = 0.5f;

        [Tooltip("Seconds between kicks: an explosion under each crowd throws the ragdolls up again, so they never all sleep.")]
        [Min(0.5f)]
        public float kickInterval = 3f;

        [Tooltip("Impulse of a kick at the centre (N·s per bone, falling off linearly to 0 at Kick Radius).")]
        [Min(0f)]
        public float kickImpulse = 8f;

        [Tooltip("Radius of a kick (m) around each ragdoll's pelvis.")]
        [Min(0.1f)]
        public float kickRadius = 1.5f;

        [Header("Matched solver settings")]
        [Tooltip("Physics steps per second for both: Sinew's fixed rate, and Unity's Time.fixedDeltaTime = 1 / this.")]
        [Range(30f, 240f)]
        public float fixedRateHz = 60f;

        [Tooltip("Sinew substeps per fixed step.")]
        [Range(1, 16)]
        public int sinewSubsteps = 4;

        [Header("Measurement")]
        [Tooltip("Frames run before measuring.")]
        [Min(0)]
        public int warmupFrames = 120;

        [Tooltip("Frames measured; the CSV has one row per frame.")]
        [Min(1)]
        public int measuredFrames = 600;

        [Tooltip("Profiler marker whose time is logged as Unity physics' simulation time (Physics.Simulate in 2021-2022; copy the name from the Profiler's Timeline view if it differs). Empty: not recorded.")]
        public string unityPhysicsMarker = "Physics.Simulate";

        [Tooltip("Write the CSV to Application.persistentDataPath when the measurement ends.")]
        public bool writeCsv = true;

        const int Bones = (int)SinewHumanoidBone.SINEW_HUMANOID_BONE_COUNT;

        SinewWorldBehaviour sinewWorld;
        SinewRagdoll[] sinewRagdolls = new SinewRagdoll[0];
        Rigidbody[] unityBodies = new Rigidbody[0];
        Transform[] unityPelvis = new Transform[0];
        float nextKick;

        ProfilerRecorder physicsRecorder;

        long lastTimestamp;
        int frame;
        float[] frameMs;
        float[] sinewMs;
        float[] unityMs;
        string status = "";
        float nextStatusTime;
        bool finished;

        bool RunsSinew
        {
            get { return solver != Solver.UnityPhysics; }
        }

        bool RunsUnity
        {
            get { return solver != Solver.Sinew; }
        }

        void Start()
        {
            Time.fixedDeltaTime = 1f / fixedRateHz;
            GameObject ground = GameObject.CreatePrimitive(PrimitiveType.Plane);
            ground.name = "Ground";
            ground.transform.localScale = new Vector3(10f, 1f, 10f);
            if (RunsSinew)
            {
                sinewWorld = gameObject.AddComponent<SinewWorldBehaviour>();
                sinewWorld.gravity = Physics.gravity;
                sinewWorld.fixedRateHz = fixedRateHz;
                sinewWorld.substeps = sinewSubsteps;
                sinewWorld.asyncStep = true;
                var plane = ground.AddComponent<SinewCollider>();
                plane.world = sinewWorld;
                plane.shape = SinewCollider.Shape.Plane;
                sinewRagdolls = new SinewRagdoll[ragdollCount];
            }
            if (RunsUnity)
            {
                unityBodies = new Rigidbody[ragdollCount * Bones];
                unityPelvis = new Transform[ragdollCount];
            }

            int side = Mathf.CeilToInt(Mathf.Sqrt(ragdollCount));
            float width = side * spacing;
            for (int i = 0; i < ragdollCount; i++)
            {
                Vector3 cell = new Vector3((i % side - (side - 1) * 0.5f) * spacing, dropHeight, (i / side) * spacing);
                if (RunsSinew)
                {
                    Vector3 at = cell - (solver == Solver.Both ? new Vector3(0.5f * width + 1f, 0f, 0f) : Vector3.zero);
                    sinewRagdolls[i] = SpawnSinew(i, at);
                }
                if (RunsUnity)
                {
                    Vector3 at = cell + (solver == Solver.Both ? new Vector3(0.5f * width + 1f, 0f, 0f) : Vector3.zero);
                    unityPelvis[i] = SpawnUnity(i, at);
                }
            }
            Camera camera = Camera.main;
            if (camera != null)
            {
                float extent = Mathf.Max(2f, solver == Solver.Both ? 2f * width + 2f : width);
                Vector3 middle = new Vector3(0f, 0.5f, side * spacing * 0.5f);
                camera.transform.position = middle + new Vector3(0f, 1f + extent * 0.5f, -1f - extent * 0.8f);
                camera.transform.LookAt(middle);
            }

            frameMs = new float[measuredFrames];
            sinewMs = new float[measuredFrames];
            unityMs = new float[measuredFrames];
            if (RunsUnity && !string.IsNullOrEmpty(unityPhysicsMarker))
            {
                physicsRecorder = ProfilerRecorder.StartNew(ProfilerCategory.Physics, unityPhysicsMarker, 15);
            }
            nextKick = Time.time + kickInterval;
            lastTimestamp = Stopwatch.GetTimestamp();
        }

        /// <summary>The humanoid template standing at <paramref name="at"/>, tilted a little so that it falls.</summary>
        static SinewBoneDesc[] Descs(Vector3 at, int index)
        {
            SinewHumanoidBones h = SinewHumanoidBones.Default;
            SinewBoneDesc[] descs = Ragdoll.HumanoidBoneDescs(h);
            // Turned about Y by the index (each falls its own way) and tilted 10 degrees forward.
            Quaternion turn = Quaternion.Euler(10f, index * 37f, 0f);
            for (int b = 0; b < descs.Length; b++)
            {
                Vector3 p = turn * new Vector3(descs[b].position.x, descs[b].position.y, descs[b].position.z) + at;
                Quaternion q = turn * new Quaternion(descs[b].rotation.x, descs[b].rotation.y, descs[b].rotation.z, descs[b].rotation.w);
                descs[b].position = new SinewVec3(p.x, p.y, p.z);
                descs[b].rotation = new SinewQuat(q.x, q.y, q.z, q.w);
            }
            return descs;
        }

        /// <summary>11 bone GameObjects under one root (flat: every bone is simulated), each with
        /// its shape as a primitive without a collider.</summary>
        static Transform[] Rig(string name, SinewBoneDesc[] descs)
        {
            var root = new GameObject(name).transform;
            var bones = new Transform[descs.Length];
            for (int b = 0; b < descs.Length; b++)
            {
                SinewBoneDesc d = descs[b];
                var bone = new GameObject(((SinewHumanoidBone)b).ToString()).transform;
                bone.SetParent(root, false);
                bone.SetPositionAndRotation(new Vector3(d.position.x, d.position.y, d.position.z),
                    new Quaternion(d.rotation.x, d.rotation.y, d.rotation.z, d.rotation.w));
                GameObject visual;
                Vector3 scale;
                switch ((SinewShape)d.shape)
                {
                    case SinewShape.SINEW_SHAPE_SPHERE:
                        visual = GameObject.CreatePrimitive(PrimitiveType.Sphere);
                        scale = new Vector3(2f * d.radius, 2f * d.radius, 2f * d.radius);
                        break;
                    case SinewShape.SINEW_SHAPE_CAPSULE:
                        visual = GameObject.CreatePrimitive(PrimitiveType.Capsule);
                        float r = Mathf.Max(d.radius0, d.radius1);
                        scale = new Vector3(2f * r, d.half_height + r, 2f * r);
                        break;
                    default:
                        visual = GameObject.CreatePrimitive(PrimitiveType.Cube);
                        scale = new Vector3(2f * d.half_extents.x, 2f * d.half_extents.y, 2f * d.half_extents.z);
                        break;
                }
                // Off at once (Destroy waits for the end of the frame, after the first physics
                // step): the visuals' own colliders must not join the Rigidbody's compound.
                Collider primitiveCollider = visual.GetComponent<Collider>();
                primitiveCollider.enabled = false;
                UnityEngine.Object.Destroy(primitiveCollider);
                visual.transform.SetParent(bone, false);
                visual.transform.localPosition = new Vector3(d.shape_offset.x, d.shape_offset.y, d.shape_offset.z);
                visual.transform.localRotation = new Quaternion(d.shape_rotation.x, d.shape_rotation.y, d.shape_rotation.z, d.shape_rotation.w);
                visual.transform.localScale = scale;
                bones[b] = bone;
            }
            return bones;
        }

        SinewRagdoll SpawnSinew(int index, Vector3 at)
        {
            SinewBoneDesc[] descs = Descs(at, index);
            Transform[] bones = Rig("Sinew ragdoll " + index, descs);
            var ragdoll = bones[0].parent.gameObject.AddComponent<SinewRagdoll>();
            ragdoll.world = sinewWorld;
            ragdoll.drawJointLimits = index == 0;
            ragdoll.Build(bones, descs);
            ragdoll.SetRagdoll(true);
            return ragdoll;
        }

        /// <summary>The chapter's RagdollBuilder from the same bone list: per bone a Rigidbody,
        /// a collider of its shape, and a CharacterJoint or HingeJoint to its parent.</summary>
        Transform SpawnUnity(int index, Vector3 at)
        {
            SinewBoneDesc[] descs = Descs(at, index);
            Transform[] bones = Rig("Unity ragdoll " + index, descs);
            var bodies = new Rigidbody[descs.Length];
            for (int b = 0; b < descs.Length; b++)
            {
                SinewBoneDesc d = descs[b];
                GameObject go = bones[b].gameObject;
                Rigidbody body = go.AddComponent<Rigidbody>();
                body.mass = d.mass;
                bodies[b] = body;
                unityBodies[index * Bones + b] = body;
                // The collider on a child placed as the shape (Unity's collider centre has no rotation).
                var shape = new GameObject("Collider").transform;
                shape.SetParent(bones[b], false);
                shape.localPosition = new Vector3(d.shape_offset.x, d.shape_offset.y, d.shape_offset.z);
                shape.localRotation = new Quaternion(d.shape_rotation.x, d.shape_rotation.y, d.shape_rotation.z, d.shape_rotation.w);
                switch ((SinewShape)d.shape)
                {
                    case SinewShape.SINEW_SHAPE_SPHERE:
                        shape.gameObject.AddComponent<SphereCollider>().radius = d.radius;
                        break;
                    case SinewShape.SINEW_SHAPE_CAPSULE:
                        CapsuleCollider capsule = shape.gameObject.AddComponent<CapsuleCollider>();
                        float r = Mathf.Max(d.radius0, d.radius1);
                        capsule.direction = 1;
                        capsule.radius = r;
                        capsule.height = 2f * (d.half_height + r);
                        break;
                    default:
                        shape.gameObject.AddComponent<BoxCollider>().size = new Vector3(2f * d.half_extents.x, 2f * d.half_extents.y, 2f * d.half_extents.z);
                        break;
                }
                if (d.parent < 0)
                {
                    continue;
                }
                SinewJointDesc j = d.joint;
                Vector3 axis = new Vector3(j.axis.x, j.axis.y, j.axis.z);
                Vector3 anchor = new Vector3(j.anchor.x, j.anchor.y, j.anchor.z);
                if ((SinewJointKind)j.kind == SinewJointKind.SINEW_JOINT_HINGE)
                {
                    HingeJoint hinge = go.AddComponent<HingeJoint>();
                    hinge.connectedBody = bodies[d.parent];
                    hinge.anchor = anchor;
                    hinge.axis = axis;
                    hinge.useLimits = true;
                    JointLimits limits = hinge.limits;
                    limits.min = j.hinge_min;
                    limits.max = j.hinge_max;
                    hinge.limits = limits;
                }
                else
                {
                    CharacterJoint cj = go.AddComponent<CharacterJoint>();
                    cj.connectedBody = bodies[d.parent];
                    cj.anchor = anchor;
                    cj.axis = axis;
                    cj.swingAxis = new Vector3(j.swing_axis.x, j.swing_axis.y, j.swing_axis.z);
                    cj.lowTwistLimit = Limit(j.low_twist);
                    cj.highTwistLimit = Limit(j.high_twist);
                    cj.swing1Limit = Limit(j.swing1);
                    cj.swing2Limit = Limit(j.swing2);
                }
            }
            return bones[0];
        }

        static SoftJointLimit Limit(float degrees)
        {
            SoftJointLimit l = default(SoftJointLimit);
            l.limit = degrees;
            return l;
        }

        void Update()
        {
            long now = Stopwatch.GetTimestamp();
            float frameTime = (float)((now - lastTimestamp) * 1000.0 / Stopwatch.Frequency);
            lastTimestamp = now;
            if (Time.time >= nextKick)
            {
                nextKick = Time.time + kickInterval;
                Kick();
            }
            if (finished)
            {
                return;
            }
            int row = frame - warmupFrames;
            frame++;
            if (row < 0)
            {
                if (StatusDue())
                {
                    status = Header() + "\nwarming up " + frame + "/" + warmupFrames;
                }
                return;
            }
            frameMs[row] = frameTime;
            sinewMs[row] = sinewWorld != null ? (float)sinewWorld.LastFrameTimings.MainThreadMs : float.NaN;
            unityMs[row] = physicsRecorder.Valid ? physicsRecorder.LastValue * 1e-6f : float.NaN;
            if (row + 1 == measuredFrames)
            {
                Finish();
            }
            else if (StatusDue())
            {
                status = Header() + "\nmeasuring " + (row + 1) + "/" + measuredFrames
                    + "   frame " + frameTime.ToString("F2", CultureInfo.InvariantCulture) + " ms"
                    + (RunsSinew ? "   Sinew " + sinewMs[row].ToString("F2", CultureInfo.InvariantCulture) + " ms" : "")
                    + (RunsUnity ? "   Unity physics " + unityMs[row].ToString("F2", CultureInfo.InvariantCulture) + " ms" : "");
            }
        }

        /// <summary>The same kick for both crowds: impulse × (1 − d / radius) on each bone within the
        /// radius of a point under the pelvis (Sinew: ApplyExplosion; Unity: AddExplosionForce, Impulse).</summary>
        void Kick()
        {
            if (sinewWorld != null)
            {
                sinewWorld.CompleteStep();
            }
            for (int i = 0; i < sinewRagdolls.Length; i++)
            {
                SinewRagdoll r = sinewRagdolls[i];
                if (r != null && r.Native != null)
                {
                    Vector3 centre = r.GetBone(0).position - new Vector3(0f, 0.3f, 0f);
                    r.Native.ApplyExplosion(centre, kickImpulse, kickRadius);
                }
            }
            for (int i = 0; i < unityPelvis.Length; i++)
            {
                Vector3 centre = unityPelvis[i].position - new Vector3(0f, 0.3f, 0f);
                for (int b = 0; b < Bones; b++)
                {
                    unityBodies[i * Bones + b].AddExplosionForce(kickImpulse, centre, kickRadius, 0f, ForceMode.Impulse);
                }
            }
        }

        bool StatusDue()
        {
            if (Time.unscaledTime < nextStatusTime)
            {
                return false;
            }
            nextStatusTime = Time.unscaledTime + 0.5f;
            return true;
        }

        string Header()
        {
            return "Ragdoll crowd: " + ragdollCount + " ragdolls × " + Bones + " bones, "
                + (solver == Solver.Both ? "Sinew (left) and Unity physics (right)" : solver == Solver.Sinew ? "Sinew" : "Unity physics")
                + ", " + fixedRateHz.ToString("F0", CultureInfo.InvariantCulture) + " Hz"
                + (RunsSinew ? " (Sinew × " + sinewSubsteps + " substeps)" : "");
        }

        void Finish()
        {
            finished = true;
            string summary = Header() + "\n"
                + "frame time: median " + Percentile(frameMs, 0.5f) + " ms, 95th percentile " + Percentile(frameMs, 0.95f) + " ms\n"
                + (RunsSinew ? "Sinew: median " + Percentile(sinewMs, 0.5f) + " ms, 95th percentile " + Percentile(sinewMs, 0.95f) + " ms (main-thread time: step begin, wait, write-back to the bones)\n" : "")
                + (RunsUnity ? "Unity physics: median " + Percentile(unityMs, 0.5f) + " ms, 95th percentile " + Percentile(unityMs, 0.95f) + " ms (profiler marker '" + unityPhysicsMarker + "')" : "");
            if (writeCsv)
            {
                try
                {
                    summary += "\nCSV: " + WriteCsv();
                }
                catch (IOException e)
                {
                    summary += "\nCSV not written: " + e.Message;
                }
            }
            status = summary;
            Debug.Log(summary, this);
        }

        string WriteCsv()
        {
            string stamp = DateTime.Now.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture);
            string file = Path.Combine(Application.persistentDataPath,
                "ragdoll-crowd-" + solver.ToString().ToLowerInvariant() + "-" + ragdollCount + "-" + stamp + ".csv");
            var text = new StringBuilder();
            text.Append("# ").Append(Header().Replace("\n", " ")).Append('\n');
            text.Append("# unity ").Append(Application.unityVersion).Append(", ").Append(SystemInfo.processorType)
                .Append(", ").Append(SystemInfo.processorCount).Append(" logical processors\n");
            text.Append("frame,frame_ms,sinew_ms,unity_physics_ms\n");
            for (int i = 0; i < frameMs.Length; i++)
            {
                text.Append(i).Append(',').Append(Format(frameMs[i])).Append(',').Append(Format(sinewMs[i])).Append(',').Append(Format(unityMs[i])).Append('\n');
            }
            File.WriteAllText(file, text.ToString());
            return file;
        }

        static string Format(float value)
        {
            return float.IsNaN(value) ? "" : value.ToString("F4", CultureInfo.InvariantCulture);
        }

        static string Percentile(float[] values, float q)
        {
            var sorted = new float[values.Length];
            int n = 0;
            for (int i = 0; i < values.Length; i++)
            {
                if (!float.IsNaN(values[i]))
                {
                    sorted[n++] = values[i];
                }
            }
            if (n == 0)
            {
                return "n/a";
            }
            Array.Sort(sorted, 0, n);
            return sorted[Mathf.Clamp(Mathf.RoundToInt(q * (n - 1)), 0, n - 1)].ToString("F3", CultureInfo.InvariantCulture);
        }

        void OnGUI()
        {
            GUI.Label(new Rect(10f, 10f, 1000f, 160f), status);
        }

        void OnDestroy()
        {
            if (physicsRecorder.Valid)
            {
                physicsRecorder.Dispose();
            }
        }
    }
}
