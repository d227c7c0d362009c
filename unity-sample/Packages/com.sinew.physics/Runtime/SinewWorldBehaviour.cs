// Hand-written. One Sinew world per scene, and the frame schedule that lets cloth run on
// Sinew's worker threads beside Unity's own work.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using UnityEngine;
using UnityEngine.Rendering;
using Debug = UnityEngine.Debug;

namespace Sinew.Components
{
    /// <summary>
    /// Owns the native <see cref="Sinew.World"/> of a scene and steps it once per frame for every
    /// enabled <see cref="SinewCloth"/>, <see cref="SinewRope"/>, <see cref="SinewHair"/> and
    /// <see cref="SinewCollider"/>. Before each step it sends the LOD camera's position and the
    /// wind of the enabled <see cref="SinewWindZone"/>.
    /// </summary>
    /// <remarks>
    /// <para>The frame, with <see cref="asyncStep"/> on:</para>
    /// <list type="number">
    /// <item>Update, then Unity's animation update: the bones reach this frame's pose.</item>
    /// <item>LateUpdate of every other script (IK, camera rigs), then this one's, last
    /// (<see cref="ExecutionOrder"/>): colliders take their Transforms, bodies their pin targets
    /// from the animated pose, and <c>sinew_world_step_begin</c> starts the step on Sinew's
    /// worker threads. The main thread goes on with Unity's end-of-frame work (skinning,
    /// culling preparation, UI) while the cloth is solved.</item>
    /// <item>Just before the first camera renders, <c>sinew_world_step_end</c> waits for the step
    /// and every body writes its positions and normals into its mesh, so this frame draws this
    /// frame's cloth.</item>
    /// </list>
    /// <para>"Before rendering" is a different callback per render pipeline:
    /// <c>Camera.onPreCull</c> in the Built-in Render Pipeline (it is not called by a Scriptable
    /// Render Pipeline), <c>RenderPipelineManager.beginContextRendering</c> in URP, HDRP and
    /// custom SRPs (it is not called by the Built-in pipeline, and unlike
    /// <c>beginFrameRendering</c> it does not allocate). This component listens to both and
    /// finishes the step at whichever comes first; later calls in the same frame (more cameras,
    /// the Scene view) find nothing to finish. When no camera renders at all (a minimised
    /// player, batch mode, a frame with every camera disabled), the step is finished at the
    /// start of this component's next Update, or next LateUpdate, whichever runs first.</para>
    /// <para>Any script may call <see cref="CompleteStep"/> before using a body's wrapper directly;
    /// the Sinew components do so themselves before they create or destroy native objects.</para>
    /// </remarks>
    [DefaultExecutionOrder(ExecutionOrder)]
    [DisallowMultipleComponent]
    [AddComponentMenu("Sinew/Sinew World")]
    public sealed class SinewWorldBehaviour : MonoBehaviour
    {
        /// <summary>Script execution order: LateUpdate after every script of default order (0),
        /// so that IK and other LateUpdate changes to the bones are in the pin targets.</summary>
        public const int ExecutionOrder = 10000;

        [Header("Solver (read when the world is created)")]
        [Tooltip("Gravity (m/s²). Unity's Physics.gravity is (0, −9.81, 0) by default.")]
        public Vector3 gravity = new Vector3(0f, -9.81f, 0f);

        [Tooltip("Internal fixed step rate (Hz), independent of the frame rate: the world runs whole steps of 1/rate s and interpolates between them, so cloth behaves the same at 30, 60 or 144 fps.")]
        [Range(1f, 1000f)]
        public float fixedRateHz = 60f;

        [Tooltip("Substeps per fixed step (1–64). Constraint passes per second = rate × substeps × iterations, the analogue of Unity Cloth's clothSolverFrequency. More substeps stretch less than more iterations at the same cost.")]
        [Range(1, 64)]
        public int substeps = 8;

        [Tooltip("Constraint passes per substep (1–256).")]
        [Range(1, 256)]
        public int iterations = 1;

        [Tooltip("Sinew worker threads; 0 = one per CPU core.")]
        [Min(0)]
        public int threadCount = 0;

        [Tooltip("Most fixed steps one frame may take; after a longer hitch the cloth runs in slow motion instead of spending ever more time catching up.")]
        [Range(1, 64)]
        public int maxStepsPerFrame = 4;

        [Tooltip("Read back positions interpolated between the last two fixed steps (smooth when the frame rate is not a multiple of the fixed rate). Off: the newest step.")]
        public bool interpolate = true;

        [Header("Level of detail")]
        [Tooltip("The camera that bodies' LOD distances (Reduce Distance, Freeze Distance) are measured from, sent every frame. Empty: Camera.main, the first enabled camera tagged MainCamera.")]
        public Camera lodCamera;

        [Header("Schedule")]
        [Tooltip("On: the step runs on Sinew's worker threads from the end of LateUpdate until just before rendering, beside Unity's main thread. Off: the step runs to completion inside LateUpdate.")]
        public bool asyncStep = true;

        static SinewWorldBehaviour active;

        World world;
        bool creationFailed;
        bool stepping;
        readonly List<SinewBodyBehaviour> bodies = new List<SinewBodyBehaviour>(32);
        readonly List<SinewCollider> colliders = new List<SinewCollider>(32);
        readonly List<SinewRagdoll> ragdolls = new List<SinewRagdoll>(8);
        SinewWindZone wind;
        bool windSent;
        long prepareTicks;
        SinewFrameTimings lastTimings;

        /// <summary>The scene's world behaviour: the first one enabled, or any in the scene.</summary>
        public static SinewWorldBehaviour Active
        {
            get
            {
                if (active == null)
                {
                    active = FindObjectOfType<SinewWorldBehaviour>();
                }
                return active;
            }
        }

        /// <summary>The scene's world behaviour; one is added on a new GameObject when the scene has none.</summary>
        public static SinewWorldBehaviour GetOrCreate()
        {
            SinewWorldBehaviour w = Active;
            if (w == null)
            {
                w = new GameObject("Sinew World").AddComponent<SinewWorldBehaviour>();
                Debug.Log("Sinew: the scene had no SinewWorldBehaviour; added one with default settings.", w);
            }
            return w;
        }

        /// <summary>
        /// The native world, created from the fields above on first use; null when the native
        /// library could not be loaded (the reason is logged once).
        /// </summary>
        public World World
        {
            get
            {
                if ((world == null || world.IsDisposed) && !creationFailed)
                {
                    CreateWorld();
                }
                return world;
            }
        }

        /// <summary>True between the start of an asynchronous step and its end.</summary>
        public bool IsStepping
        {
            get { return stepping; }
        }

        /// <summary>Main-thread time of the last completed frame's step (for benchmarks).</summary>
        public SinewFrameTimings LastFrameTimings
        {
            get { return lastTimings; }
        }

        /// <summary>Number of cloths, ropes and hair bodies stepped by this world.</summary>
        public int BodyCount
        {
            get { return bodies.Count; }
        }

        // Enter Play Mode without a domain reload keeps statics: forget the last session's world.
        [RuntimeInitializeOnLoadMethod(RuntimeInitializeLoadType.SubsystemRegistration)]
        static void ResetStatics()
        {
            active = null;
        }

        void CreateWorld()
        {
            try
            {
                SinewWorldDesc d = SinewWorldDesc.Default;
                d.gravity = new SinewVec3(gravity.x, gravity.y, gravity.z);
                d.fixed_rate_hz = fixedRateHz;
                d.substeps = (uint)Mathf.Max(1, substeps);
                d.iterations = (uint)Mathf.Max(1, iterations);
                d.thread_count = (uint)Mathf.Max(0, threadCount);
                d.max_steps_per_frame = (uint)Mathf.Max(1, maxStepsPerFrame);
                d.interpolate = interpolate ? 1u : 0u;
                world = new World(d);
            }
            catch (SinewLoadException e)
            {
                creationFailed = true;
                Debug.LogError("Sinew: " + e.Message, this);
            }
            catch (SinewException e)
            {
                creationFailed = true;
                Debug.LogError("Sinew: the world settings were refused: " + e.Message, this);
            }
        }

        void Awake()
        {
            // A body the library had to recover is reported once, in the console.
            World.Log = message => Debug.LogWarning(message);
            if (active == null)
            {
                active = this;
            }
            else if (active != this)
            {
                Debug.LogWarning("Sinew: more than one SinewWorldBehaviour in the scene; components without an explicit World use " + active.name + ".", this);
            }
        }

        void OnEnable()
        {
            Camera.onPreCull += OnCameraPreCull;
            RenderPipelineManager.beginContextRendering += OnBeginContextRendering;
        }

        void OnDisable()
        {
            CompleteStep();
            Camera.onPreCull -= OnCameraPreCull;
            RenderPipelineManager.beginContextRendering -= OnBeginContextRendering;
        }

        void OnDestroy()
        {
            CompleteStep();
            if (world != null)
            {
                // Destroys every body and collider in it; their components' wrappers become
                // disposed, and disposing them again later is harmless.
                world.Dispose();
                world = null;
            }
            if (active == this)
            {
                active = null;
            }
        }

        // Fallback for frames in which no camera rendered: finish last frame's step before any
        // script of this frame's LateUpdate touches the bodies.
        void Update()
        {
            CompleteStep();
        }

        void LateUpdate()
        {
            CompleteStep();
            if (world == null || world.IsDisposed || (bodies.Count == 0 && colliders.Count == 0 && ragdolls.Count == 0))
            {
                return;
            }
            float dt = Time.deltaTime;
            long start = Stopwatch.GetTimestamp();
            SendCameraAndWind();
            for (int i = 0; i < colliders.Count; i++)
            {
                try
                {
                    colliders[i].PushTransform();
                }
                catch (Exception e)
                {
                    Debug.LogException(e, colliders[i]);
                }
            }
            for (int i = 0; i < bodies.Count; i++)
            {
                try
                {
                    bodies[i].PrepareStepChecked(dt);
                }
                catch (Exception e)
                {
                    Debug.LogException(e, bodies[i]);
                }
            }
            try
            {
                if (asyncStep)
                {
                    world.StepBegin(dt);
                    stepping = true;
                    prepareTicks = Stopwatch.GetTimestamp() - start;
                }
                else
                {
                    world.Step(dt);
                    long stepped = Stopwatch.GetTimestamp();
                    WriteBack();
                    long done = Stopwatch.GetTimestamp();
                    lastTimings = new SinewFrameTimings(stepped - start, 0, done - stepped, bodies.Count);
                }
            }
            catch (SinewException e)
            {
                Debug.LogException(e, this);
            }
        }

        void SendCameraAndWind()
        {
            Camera camera = lodCamera != null ? lodCamera : Camera.main;
            if (camera != null)
            {
                try
                {
                    world.SetCamera(camera.transform.position);
                }
                catch (SinewException e)
                {
                    Debug.LogException(e, camera);
                }
            }
            if (wind != null || windSent)
            {
                try
                {
                    // A disabled or destroyed wind zone leaves calm air behind.
                    world.Wind = wind != null ? wind.ToNative() : SinewWind.Default;
                    windSent = wind != null;
                }
                catch (SinewException e)
                {
                    Debug.LogException(e, wind != null ? (UnityEngine.Object)wind : this);
                }
            }
        }

        void OnCameraPreCull(Camera camera)
        {
            CompleteStep();
        }

        void OnBeginContextRendering(ScriptableRenderContext context, List<Camera> cameras)
        {
            CompleteStep();
        }

        /// <summary>
        /// Waits for the asynchronous step, if one is running, and writes every body's result into
        /// its mesh. Call it before using a body's or collider's wrapper from your own scripts
        /// between LateUpdate and rendering; it does nothing when no step is running.
        /// </summary>
        public void CompleteStep()
        {
            if (!stepping)
            {
                return;
            }
            stepping = false;
            long start = Stopwatch.GetTimestamp();
            try
            {
                world.StepEnd();
            }
            catch (SinewException e)
            {
                Debug.LogException(e, this);
            }
            long ended = Stopwatch.GetTimestamp();
            WriteBack();
            long done = Stopwatch.GetTimestamp();
            lastTimings = new SinewFrameTimings(prepareTicks, ended - start, done - ended, bodies.Count);
        }

        void WriteBack()
        {
            for (int i = 0; i < ragdolls.Count; i++)
            {
                try
                {
                    ragdolls[i].AfterStepChecked();
                }
                catch (Exception e)
                {
                    Debug.LogException(e, ragdolls[i]);
                }
            }
            for (int i = 0; i < bodies.Count; i++)
            {
                try
                {
                    bodies[i].AfterStepChecked();
                }
                catch (Exception e)
                {
                    Debug.LogException(e, bodies[i]);
                }
            }
        }

        internal void Register(SinewBodyBehaviour body)
        {
            if (!bodies.Contains(body))
            {
                bodies.Add(body);
            }
        }

        internal void Unregister(SinewBodyBehaviour body)
        {
            bodies.Remove(body);
        }

        internal void Register(SinewCollider collider)
        {
            if (!colliders.Contains(collider))
            {
                colliders.Add(collider);
            }
        }

        internal void Register(SinewRagdoll ragdoll)
        {
            if (!ragdolls.Contains(ragdoll))
            {
                ragdolls.Add(ragdoll);
            }
        }

        internal void Unregister(SinewRagdoll ragdoll)
        {
            ragdolls.Remove(ragdoll);
        }

        internal void Unregister(SinewCollider collider)
        {
            colliders.Remove(collider);
        }

        /// <summary>The wind zone whose wind the world takes from now on (one per world: the
        /// last one enabled).</summary>
        internal void SetWind(SinewWindZone zone)
        {
            if (wind != null && wind != zone)
            {
                Debug.LogWarning("Sinew: more than one enabled SinewWindZone; " + zone.name + " replaces " + wind.name + ".", zone);
            }
            wind = zone;
        }

        internal void RemoveWind(SinewWindZone zone)
        {
            if (wind == zone)
            {
                wind = null;
            }
        }
    }

    /// <summary>Main-thread cost of one frame's step, in milliseconds (Stopwatch time).</summary>
    public struct SinewFrameTimings
    {
        /// <summary>Collider transforms, pin targets and <c>StepBegin</c> (or the whole <c>Step</c> when not asynchronous).</summary>
        public readonly double PrepareMs;

        /// <summary>Time the main thread waited in <c>StepEnd</c> for the worker threads.</summary>
        public readonly double WaitMs;

        /// <summary>Readback of positions and normals and the mesh updates.</summary>
        public readonly double WriteBackMs;

        /// <summary>Cloths and ropes stepped.</summary>
        public readonly int Bodies;

        internal SinewFrameTimings(long prepareTicks, long waitTicks, long writeBackTicks, int bodies)
        {
            double toMs = 1000.0 / Stopwatch.Frequency;
            PrepareMs = prepareTicks * toMs;
            WaitMs = waitTicks * toMs;
            WriteBackMs = writeBackTicks * toMs;
            Bodies = bodies;
        }

        /// <summary>All the time Sinew took on the main thread this frame.</summary>
        public double MainThreadMs
        {
            get { return PrepareMs + WaitMs + WriteBackMs; }
        }
    }
}
