// Sample. Spawns N identical characters wearing either Unity's built-in Cloth or SinewCloth
// with matched settings, and logs frame time and simulation time per frame to a CSV file and
// to the screen. README.md beside this file says how to run it and how the settings are matched.
using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Text;
using Sinew.Components;
using Unity.Profiling;
using UnityEngine;
using Debug = UnityEngine.Debug;

namespace SinewSamples
{
    /// <summary>
    /// The benchmark. Each character is a capsule body with a Unity CapsuleCollider, a
    /// "Shoulders" bone and a cape: a <see cref="SkinnedMeshRenderer"/> skinned to the shoulders
    /// whose top row is painted as pinned. The capes get either <c>UnityEngine.Cloth</c>
    /// (max distance 0 on the painted vertices, the capsule in capsuleColliders) or
    /// <see cref="SinewCloth"/> (the same painted vertices pinned, a <see cref="SinewCollider"/>
    /// capsule of the same size). Every character sways and turns the same way.
    /// </summary>
    [DefaultExecutionOrder(-1000)]
    public sealed class ClothBenchmark : MonoBehaviour
    {
        public enum Solver
        {
            Sinew = 0,
            UnityCloth = 1,
        }

        [Header("Scene")]
        [Tooltip("Number of identical characters to spawn (N).")]
        [Min(1)]
        public int characterCount = 16;

        [Tooltip("Which cloth every character wears: SinewCloth or Unity's built-in Cloth.")]
        public Solver solver = Solver.Sinew;

        [Tooltip("Distance between neighbouring characters on the square grid (m).")]
        [Min(0.5f)]
        public float spacing = 2f;

        [Tooltip("Material of the capes. Empty: the default material of the capsule primitive (works in every render pipeline).")]
        public Material capeMaterial;

        [Header("Cape (identical for both solvers)")]
        [Tooltip("Vertices across the cape.")]
        [Range(2, 250)]
        public int capeColumns = 16;

        [Tooltip("Vertices down the cape.")]
        [Range(2, 250)]
        public int capeRows = 20;

        [Tooltip("Cape width (m).")]
        [Min(0.05f)]
        public float capeWidth = 0.8f;

        [Tooltip("Cape length (m).")]
        [Min(0.05f)]
        public float capeLength = 1f;

        [Header("Matched solver settings")]
        [Tooltip("Constraint passes per second, for both. Unity: clothSolverFrequency. Sinew: 60 Hz fixed steps × (this / 60) substeps × 1 iteration.")]
        [Range(60f, 3840f)]
        public float solverFrequency = 480f;

        [Tooltip("Unity Cloth stretchingStiffness (0–1]. Sinew's stretch and shear compliance are 0 (inextensible), which is what 1 asks of Unity's solver.")]
        [Range(0.01f, 1f)]
        public float unityStretchingStiffness = 1f;

        [Tooltip("Unity Cloth bendingStiffness (0–1].")]
        [Range(0f, 1f)]
        public float unityBendingStiffness = 1f;

        [Tooltip("Sinew bend compliance (m/N); 0 = as stiff as the solver makes it, the counterpart of bendingStiffness 1.")]
        [Min(0f)]
        public float sinewBendCompliance = 0f;

        [Tooltip("Friction against the body collider: Unity Cloth's friction, and Sinew's static and kinetic friction.")]
        [Range(0f, 1f)]
        public float friction = 0.5f;

        [Header("Motion")]
        [Tooltip("Side-to-side sway of every character (m).")]
        public float swayAmplitude = 0.5f;

        [Tooltip("Turn back and forth (degrees).")]
        public float turnAmplitude = 60f;

        [Tooltip("Cycles per second of the sway and turn (Hz).")]
        public float motionFrequency = 0.5f;

        [Header("Measurement")]
        [Tooltip("Frames run before measuring (cloth settles, caches warm up).")]
        [Min(0)]
        public int warmupFrames = 120;

        [Tooltip("Frames measured; the CSV has one row per frame.")]
        [Min(1)]
        public int measuredFrames = 600;

        [Tooltip("Profiler marker whose time is logged as Unity Cloth's simulation time. Marker names differ between Unity versions: copy the cloth marker's name from the Profiler's Timeline view. Empty: not recorded.")]
        public string unityClothMarker = "";

        [Tooltip("Write the CSV to Application.persistentDataPath when the measurement ends.")]
        public bool writeCsv = true;

        const float FixedRateHz = 60f;

        SinewWorldBehaviour sinewWorld;
        Transform[] roots;
        Vector3[] origins;
        int vertexCount;
        int pinnedCount;
        int substeps;

        ProfilerRecorder mainThreadRecorder;
        ProfilerRecorder clothRecorder;

        long lastTimestamp;
        int frame;
        float[] frameMs;
        float[] mainThreadMs;
        float[] simMs;
        float[] simWaitMs;
        string status = "";
        float nextStatusTime;
        string csvPath = "";
        bool finished;

        void Start()
        {
            substeps = Mathf.Max(1, Mathf.RoundToInt(solverFrequency / FixedRateHz));
            Mesh cape = SinewProceduralCape.BuildMesh(capeColumns, capeRows, capeWidth, capeLength);
            cape.name = "Benchmark Cape";
            vertexCount = cape.vertexCount;
            bool[] pinned = SinewCloth.FindPinnedVertices(cape, SinewCloth.PinSource.VertexColor, SinewCloth.ColorChannel.Red, 0.5f, null);
            pinnedCount = 0;
            for (int i = 0; i < pinned.Length; i++)
            {
                pinnedCount += pinned[i] ? 1 : 0;
            }

            if (solver == Solver.Sinew)
            {
                // Created here so its settings are in place before the first cloth creates the world.
                sinewWorld = gameObject.AddComponent<SinewWorldBehaviour>();
                sinewWorld.gravity = Physics.gravity;
                sinewWorld.fixedRateHz = FixedRateHz;
                sinewWorld.substeps = substeps;
                sinewWorld.iterations = 1;
                sinewWorld.asyncStep = true;
            }

            int side = Mathf.CeilToInt(Mathf.Sqrt(characterCount));
            roots = new Transform[characterCount];
            origins = new Vector3[characterCount];
            for (int i = 0; i < characterCount; i++)
            {
                Vector3 at = new Vector3((i % side - (side - 1) * 0.5f) * spacing, 0f, (i / side) * spacing);
                roots[i] = SpawnCharacter(i, at, cape, pinned);
                origins[i] = at;
            }
            FrameCamera(side);

            frameMs = new float[measuredFrames];
            mainThreadMs = new float[measuredFrames];
            simMs = new float[measuredFrames];
            simWaitMs = new float[measuredFrames];
            mainThreadRecorder = ProfilerRecorder.StartNew(ProfilerCategory.Internal, "Main Thread", 15);
            if (solver == Solver.UnityCloth && !string.IsNullOrEmpty(unityClothMarker))
            {
                clothRecorder = ProfilerRecorder.StartNew(ProfilerCategory.Physics, unityClothMarker, 15);
            }
            lastTimestamp = Stopwatch.GetTimestamp();
        }

        Transform SpawnCharacter(int index, Vector3 at, Mesh cape, bool[] pinned)
        {
            var root = new GameObject("Character " + index).transform;
            root.position = at;

            // Body: Unity's capsule primitive (radius 0.5, height 2) at scale 0.5: radius 0.25 m,
            // height 1 m, centre 1 m above the ground. Uniform scale, so Sinew's capsule (which
            // takes uniform scale only) is exactly Unity's.
            GameObject body = GameObject.CreatePrimitive(PrimitiveType.Capsule);
            body.name = "Body";
            body.transform.SetParent(root, false);
            body.transform.localPosition = new Vector3(0f, 1f, 0f);
            body.transform.localScale = new Vector3(0.5f, 0.5f, 0.5f);
            CapsuleCollider capsule = body.GetComponent<CapsuleCollider>();

            var shoulders = new GameObject("Shoulders").transform;
            shoulders.SetParent(root, false);
            shoulders.localPosition = new Vector3(0f, 1.45f, 0f);

            // The cape hangs from the shoulders, just behind the body (facing −Z).
            var capeObject = new GameObject("Cape");
            capeObject.transform.SetParent(root, false);
            capeObject.transform.localPosition = new Vector3(0f, 1.45f, -0.32f);
            if (index == 0)
            {
                // One skin for every character: all vertices on the shoulder bone, so the
                // unsimulated pose moves rigidly with it. bindpose = bone⁻¹ · mesh-to-world.
                var weights = new BoneWeight[cape.vertexCount];
                for (int i = 0; i < weights.Length; i++)
                {
                    weights[i].boneIndex0 = 0;
                    weights[i].weight0 = 1f;
                }
                cape.boneWeights = weights;
                cape.bindposes = new[] { shoulders.worldToLocalMatrix * capeObject.transform.localToWorldMatrix };
            }
            var skin = capeObject.AddComponent<SkinnedMeshRenderer>();
            skin.sharedMesh = cape;
            skin.bones = new[] { shoulders };
            skin.rootBone = shoulders;
            skin.sharedMaterial = capeMaterial != null ? capeMaterial : body.GetComponent<Renderer>().sharedMaterial;

            if (solver == Solver.UnityCloth)
            {
                SetUpUnityCloth(capeObject, capsule, cape, pinned);
            }
            else
            {
                SetUpSinewCloth(capeObject, body, capsule);
            }
            return root;
        }

        void SetUpUnityCloth(GameObject capeObject, CapsuleCollider capsule, Mesh cape, bool[] pinned)
        {
            UnityEngine.Cloth cloth = capeObject.AddComponent<UnityEngine.Cloth>();
            cloth.clothSolverFrequency = solverFrequency;
            cloth.stretchingStiffness = unityStretchingStiffness;
            cloth.bendingStiffness = unityBendingStiffness;
            cloth.useTethers = false;               // Sinew has no tethers here either
            cloth.useGravity = true;                // Physics.gravity, which Sinew's world also uses
            cloth.damping = 0f;                     // no damping beyond the solvers' own
            cloth.worldVelocityScale = 1f;          // full inertia: Sinew simulates in world space
            cloth.worldAccelerationScale = 1f;
            cloth.friction = friction;
            cloth.collisionMassScale = 0f;
            cloth.useVirtualParticles = 0f;         // particles at the vertices only, as in Sinew
            cloth.enableContinuousCollision = true; // Sinew sweeps colliders between poses
            cloth.sleepThreshold = 0f;              // Sinew never sleeps a body
            cloth.externalAcceleration = Vector3.zero;
            cloth.randomAcceleration = Vector3.zero;
            cloth.capsuleColliders = new[] { capsule };

            // Unity's Cloth welds coincident vertices, so its coefficients follow cloth.vertices,
            // not the mesh. The cape has none to weld and the counts agree; otherwise match by position.
            Vector3[] clothVertices = cloth.vertices;
            ClothSkinningCoefficient[] coefficients = cloth.coefficients;
            Vector3[] meshVertices = cape.vertices;
            for (int i = 0; i < coefficients.Length; i++)
            {
                int v = clothVertices.Length == meshVertices.Length ? i : Nearest(meshVertices, clothVertices[i]);
                coefficients[i].maxDistance = pinned[v] ? 0f : float.MaxValue;
                coefficients[i].collisionSphereDistance = float.MaxValue;
            }
            cloth.coefficients = coefficients;
        }

        static int Nearest(Vector3[] points, Vector3 p)
        {
            int best = 0;
            float bestDistance = float.MaxValue;
            for (int i = 0; i < points.Length; i++)
            {
                float d = (points[i] - p).sqrMagnitude;
                if (d < bestDistance)
                {
                    bestDistance = d;
                    best = i;
                }
            }
            return best;
        }

        void SetUpSinewCloth(GameObject capeObject, GameObject body, CapsuleCollider capsule)
        {
            var cloth = capeObject.AddComponent<SinewCloth>();
            cloth.world = sinewWorld;
            cloth.pinSource = SinewCloth.PinSource.VertexColor;
            cloth.pinChannel = SinewCloth.ColorChannel.Red;
            cloth.pinThreshold = 0.5f;
            cloth.useTethers = false;                  // Unity's Cloth has useTethers = false here too
            cloth.dynamics.teleportDistance = 0f;      // Unity's Cloth has no teleport
            cloth.dynamics.worldVelocityScale = 1f;    // as cloth.worldVelocityScale above
            cloth.dynamics.worldAccelerationScale = 1f;
            cloth.lod.freezeWhenInvisible = false;     // every character is simulated, seen or not
            SinewMaterialSettings m = cloth.physicsMaterial;
            m.damping = 0f;
            m.gravityScale = 1f;
            m.stretchCompliance = 0f;
            m.shearCompliance = 0f;
            m.bendCompliance = sinewBendCompliance;
            m.staticFriction = friction;
            m.kineticFriction = friction;
            m.selfCollision = false;

            // Unity's capsule (local radius r, height h along Y) as Sinew's: two end spheres of
            // radius r whose centres are h/2 − r from the middle; the body's scale applies to both.
            var collider = body.AddComponent<SinewCollider>();
            collider.world = sinewWorld;
            collider.shape = SinewCollider.Shape.Capsule;
            collider.center = capsule.center;
            collider.direction = SinewCollider.Axis.Y;
            collider.radius0 = capsule.radius;
            collider.radius1 = capsule.radius;
            collider.halfHeight = Mathf.Max(0f, capsule.height * 0.5f - capsule.radius);
        }

        void FrameCamera(int side)
        {
            Camera camera = Camera.main;
            if (camera == null)
            {
                return;
            }
            float extent = Mathf.Max(1f, (side - 1) * spacing);
            Vector3 middle = new Vector3(0f, 1f, extent * 0.5f);
            camera.transform.position = middle + new Vector3(0f, 1.5f + extent * 0.6f, -2.5f - extent);
            camera.transform.LookAt(middle);
        }

        void Update()
        {
            long now = Stopwatch.GetTimestamp();
            float frameTime = (float)((now - lastTimestamp) * 1000.0 / Stopwatch.Frequency);
            lastTimestamp = now;

            float phase = 2f * Mathf.PI * motionFrequency * Time.time;
            Vector3 sway = new Vector3(Mathf.Sin(phase) * swayAmplitude, 0f, 0f);
            Quaternion turn = Quaternion.Euler(0f, Mathf.Sin(phase + 0.5f) * turnAmplitude, 0f);
            for (int i = 0; i < roots.Length; i++)
            {
                roots[i].SetPositionAndRotation(origins[i] + sway, turn);
            }

            if (finished)
            {
                return;
            }
            // This frame's row describes the previous frame: its duration, and the simulation
            // work done in it (recorders and Sinew's timings report the last finished frame).
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
            mainThreadMs[row] = mainThreadRecorder.Valid ? mainThreadRecorder.LastValue * 1e-6f : float.NaN;
            if (solver == Solver.Sinew)
            {
                SinewFrameTimings t = sinewWorld.LastFrameTimings;
                simMs[row] = (float)t.MainThreadMs;
                simWaitMs[row] = (float)t.WaitMs;
            }
            else
            {
                simMs[row] = clothRecorder.Valid ? clothRecorder.LastValue * 1e-6f : float.NaN;
                simWaitMs[row] = float.NaN;
            }
            if (row + 1 == measuredFrames)
            {
                Finish();
            }
            else if (StatusDue())
            {
                status = Header() + "\nmeasuring " + (row + 1) + "/" + measuredFrames
                    + "   frame " + frameTime.ToString("F2", CultureInfo.InvariantCulture)
                    + " ms   simulation " + simMs[row].ToString("F2", CultureInfo.InvariantCulture) + " ms";
            }
        }

        // Building the status text allocates, so it is rebuilt at most twice a second.
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
            return "Cloth benchmark: " + (solver == Solver.Sinew ? "SinewCloth" : "Unity Cloth") + ", " + characterCount
                + " characters × " + vertexCount + " vertices (" + pinnedCount + " pinned), "
                + solverFrequency.ToString("F0", CultureInfo.InvariantCulture) + " constraint passes/s"
                + (solver == Solver.Sinew ? " (60 Hz × " + substeps + " substeps × 1 iteration)" : "");
        }

        void Finish()
        {
            finished = true;
            string summary = Header() + "\n"
                + "frame time: median " + Median(frameMs) + " ms, 95th percentile " + Percentile(frameMs, 0.95f) + " ms\n"
                + "main thread: median " + Median(mainThreadMs) + " ms\n"
                + "simulation: median " + Median(simMs) + " ms, 95th percentile " + Percentile(simMs, 0.95f) + " ms"
                + (solver == Solver.Sinew ? " (Sinew's main-thread time: pins, step begin, wait, readback)" : " (profiler marker '" + unityClothMarker + "')");
            if (writeCsv)
            {
                try
                {
                    csvPath = WriteCsv();
                    summary += "\nCSV: " + csvPath;
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
                "cloth-benchmark-" + (solver == Solver.Sinew ? "sinew" : "unity") + "-" + characterCount + "-" + stamp + ".csv");
            var text = new StringBuilder();
            text.Append("# ").Append(Header().Replace("\n", " ")).Append('\n');
            text.Append("# unity ").Append(Application.unityVersion).Append(", ").Append(SystemInfo.processorType)
                .Append(", ").Append(SystemInfo.processorCount).Append(" logical processors");
            if (sinewWorld != null && sinewWorld.World != null)
            {
                sinewWorld.CompleteStep();
                text.Append(", sinew worker threads ").Append(sinewWorld.World.GetStats().thread_count);
            }
            text.Append('\n');
            text.Append("# sim_ms: ").Append(solver == Solver.Sinew
                ? "Sinew's main-thread time per frame (collider and pin upload, step begin, waiting in step end, readback and mesh update)"
                : "time of profiler marker '" + unityClothMarker + "' (empty when no marker was given)").Append('\n');
            text.Append("frame,frame_ms,main_thread_ms,sim_ms,sim_wait_ms\n");
            for (int i = 0; i < frameMs.Length; i++)
            {
                text.Append(i).Append(',')
                    .Append(Format(frameMs[i])).Append(',')
                    .Append(Format(mainThreadMs[i])).Append(',')
                    .Append(Format(simMs[i])).Append(',')
                    .Append(Format(simWaitMs[i])).Append('\n');
            }
            File.WriteAllText(file, text.ToString());
            return file;
        }

        static string Format(float value)
        {
            return float.IsNaN(value) ? "" : value.ToString("F4", CultureInfo.InvariantCulture);
        }

        static string Median(float[] values)
        {
            return Percentile(values, 0.5f);
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
            GUI.Label(new Rect(10f, 10f, 900f, 160f), status);
        }

        void OnDestroy()
        {
            if (mainThreadRecorder.Valid)
            {
                mainThreadRecorder.Dispose();
            }
            if (clothRecorder.Valid)
            {
                clothRecorder.Dispose();
            }
        }
    }
}
