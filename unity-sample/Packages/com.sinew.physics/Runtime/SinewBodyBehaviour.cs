// Hand-written. What SinewCloth, SinewRope and SinewHair share: finding the world, creating and
// destroying the native body with the component, the settings every body has (material,
// dynamics, LOD), the character's root, visibility, and the per-frame hooks the world calls.
using System;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// Base of the components that own one native <see cref="Sinew.Body"/>. The body is created
    /// in <c>Start</c> (after every <c>Awake</c>, so procedural meshes exist) or, later, when the
    /// component is enabled again, and destroyed when it is disabled.
    /// </summary>
    /// <remarks>
    /// <para>Every frame, before the step, the body gets the <see cref="root"/>'s transform
    /// (inertia, automatic teleport, run-time scale) and any changed settings; then the derived
    /// component moves its pins or bones.</para>
    /// <para>Visibility: the renderers that draw the body report <c>OnBecameVisible</c> /
    /// <c>OnBecameInvisible</c> (a renderer on this GameObject directly, renderers on child objects
    /// through a <see cref="SinewVisibilityRelay"/>); the body is visible while any of them is, and
    /// freezes while none is if <see cref="lod"/> says so.</para>
    /// </remarks>
    public abstract class SinewBodyBehaviour : MonoBehaviour
    {
        [Tooltip("The world this body is simulated in. Empty: the scene's SinewWorldBehaviour (one is created if the scene has none).")]
        public SinewWorldBehaviour world;

        [Tooltip("Mass, damping, compliance (stiffness), thickness, friction and collision mask of the particles.")]
        public SinewMaterialSettings physicsMaterial;

        [Tooltip("Response to the character's motion (world velocity and acceleration scale, speed limit, automatic teleport), pose stiffness, and response to the wind (drag, lift).")]
        public SinewDynamicsSettings dynamics = new SinewDynamicsSettings();

        [Tooltip("Level of detail: fewer substeps or frozen by distance from the camera, frozen while invisible.")]
        public SinewLodSettings lod = new SinewLodSettings();

        [Tooltip("The character's root, whose motion drives inertia (World Velocity / Acceleration Scale), the automatic teleport (Teleport Distance) and the body's size (scale it ×2 and rest lengths double). Empty: see the component (a skinned cloth uses its root bone, hair its head).")]
        public Transform root;

        [Tooltip("A moving platform the body rides in (a vehicle, an elevator, a ship's deck), sent every frame: its motion is felt only as much as Anchor Inertia says, and the root's inertia is taken relative to it. Empty: none (world physics).")]
        public Transform anchor;

        [Tooltip("How much of the anchor's motion the body feels as world motion: 0 none (carried rigidly with the anchor, as if it stood still), 1 all (world physics). In a vehicle accelerating at a, a cape hangs at atan(inertia × a / g) from the vertical.")]
        [Range(0f, 1f)]
        public float anchorInertia = 0f;

        Body body;
        bool anchored;
        bool started;
        bool settingsDirty;
        Transform activeRoot;

        // Visibility bookkeeping: how many of the renderers drawing the body are visible.
        bool drawnByOwnRenderer;
        bool ownRendererVisible;
        int visibleRenderers;
        bool visibilityDirty;

        /// <summary>For Unity: the cloth and rope defaults of the material.</summary>
        protected SinewBodyBehaviour()
            : this(new SinewMaterialSettings())
        {
        }

        /// <summary>For a body kind whose material defaults differ (hair).</summary>
        protected SinewBodyBehaviour(SinewMaterialSettings materialDefaults)
        {
            physicsMaterial = materialDefaults;
        }

        /// <summary>The native body's wrapper; null while the component is disabled or failed to build.
        /// Call <see cref="SinewWorldBehaviour.CompleteStep"/> on <see cref="world"/> before using it
        /// between LateUpdate and rendering.</summary>
        public Body Body
        {
            get { return body; }
        }

        /// <summary>The Transform whose motion is sent as the root: <see cref="root"/>, or the
        /// component's default (null: none).</summary>
        public Transform ActiveRoot
        {
            get { return activeRoot; }
        }

        protected virtual void Start()
        {
            started = true;
            Build();
        }

        protected virtual void OnEnable()
        {
            if (started)
            {
                Build();
            }
        }

        protected virtual void OnDisable()
        {
            Release();
        }

        protected virtual void OnValidate()
        {
            // Inspector edits in Play mode reach the native body before the next step.
            settingsDirty = true;
        }

        // Unity sends these to scripts on a renderer's GameObject; they count only when that
        // renderer draws the body (see DrawnBy).
        protected void OnBecameVisible()
        {
            if (drawnByOwnRenderer)
            {
                ReportVisible(ref ownRendererVisible, true);
            }
        }

        protected void OnBecameInvisible()
        {
            if (drawnByOwnRenderer)
            {
                ReportVisible(ref ownRendererVisible, false);
            }
        }

        /// <summary>Sends <see cref="physicsMaterial"/> to the native body before the next step
        /// (call after changing it from a script).</summary>
        public void ApplyMaterial()
        {
            settingsDirty = true;
        }

        /// <summary>Sends every setting that can change while the body exists (material,
        /// dynamics, LOD, and a cloth's limits and tethers) before the next step.</summary>
        public void ApplySettings()
        {
            settingsDirty = true;
        }

        /// <summary>Destroys and recreates the native body from the current settings (pins,
        /// mesh, shape). The simulation starts again from the current pose.</summary>
        public void Rebuild()
        {
            if (body != null)
            {
                Release();
                Build();
            }
        }

        /// <summary>The character's root as Sinew takes it: position, rotation and the mean of the
        /// three scales (the library accepts uniform scale only).</summary>
        public static Matrix4x4 UniformPose(Transform t)
        {
            Vector3 s = t.lossyScale;
            float scale = (Mathf.Abs(s.x) + Mathf.Abs(s.y) + Mathf.Abs(s.z)) / 3f;
            return Matrix4x4.TRS(t.position, t.rotation, new Vector3(scale, scale, scale));
        }

        void Build()
        {
            if (body != null)
            {
                return;
            }
            if (world == null)
            {
                world = SinewWorldBehaviour.GetOrCreate();
            }
            World native = world.World;
            if (native == null)
            {
                // The world logged why (no native library, refused settings).
                enabled = false;
                return;
            }
            world.CompleteStep();
            DrawnBy(0, false);
            Body created = null;
            try
            {
                created = CreateBody(native);
                activeRoot = root != null ? root : DefaultRoot;
                if (activeRoot != null)
                {
                    // The root's first transform is the size the body was made at.
                    created.SetRootTransform(UniformPose(activeRoot));
                }
                ApplySettings(created);
            }
            catch (Exception e)
            {
                Debug.LogError("Sinew: " + name + " could not be created: " + e.Message, this);
                if (created != null)
                {
                    created.Dispose();
                }
                ReleaseResources();
                enabled = false;
                return;
            }
            body = created;
            settingsDirty = false;
            world.Register(this);
        }

        void Release()
        {
            if (world != null)
            {
                world.CompleteStep();
                world.Unregister(this);
            }
            if (body != null)
            {
                body.Dispose();
                body = null;
            }
            activeRoot = null;
            anchored = false;
            ReleaseResources();
        }

        internal void PrepareStepChecked(float dt)
        {
            if (body == null || body.IsDisposed)
            {
                return;
            }
            if (settingsDirty)
            {
                settingsDirty = false;
                ApplySettings(body);
            }
            if (visibilityDirty)
            {
                visibilityDirty = false;
                body.Visible = visibleRenderers > 0;
            }
            if (activeRoot != null)
            {
                body.SetRootTransform(UniformPose(activeRoot));
            }
            if (anchor != null)
            {
                body.SetAnchor(Matrix4x4.TRS(anchor.position, anchor.rotation, Vector3.one), anchorInertia);
                anchored = true;
            }
            else if (anchored)
            {
                body.ClearAnchor();
                anchored = false;
            }
            PrepareStep(dt);
        }

        internal void AfterStepChecked()
        {
            if (body == null || body.IsDisposed)
            {
                return;
            }
            AfterStep();
        }

        /// <summary>
        /// Declares which renderers draw the body, from <see cref="CreateBody"/>:
        /// <paramref name="ownRenderer"/> for a renderer on this GameObject, and in all
        /// <paramref name="renderers"/> (own included) that report visibility. Each counts as
        /// visible until Unity says otherwise. With none, the body is always visible.
        /// </summary>
        internal void DrawnBy(int renderers, bool ownRenderer)
        {
            drawnByOwnRenderer = ownRenderer;
            ownRendererVisible = true;
            visibleRenderers = renderers;
            visibilityDirty = false;
        }

        /// <summary>A renderer drawing the body became visible or invisible; <paramref name="state"/>
        /// is that renderer's own flag, so that repeated messages count once.</summary>
        internal void ReportVisible(ref bool state, bool visible)
        {
            if (state == visible)
            {
                return;
            }
            state = visible;
            visibleRenderers += visible ? 1 : -1;
            visibilityDirty = true;
        }

        /// <summary>The root used when <see cref="root"/> is empty (null: none).</summary>
        protected virtual Transform DefaultRoot
        {
            get { return null; }
        }

        /// <summary>Sends the settings that may change at run time: material, dynamics and LOD here;
        /// derived components add theirs. Runs after <see cref="CreateBody"/> and after inspector edits.</summary>
        internal virtual void ApplySettings(Body target)
        {
            target.Material = physicsMaterial.ToNative();
            target.Dynamics = NativeDynamics();
            target.Lod = lod.ToNative();
        }

        /// <summary>The dynamics sent to the body: <see cref="dynamics"/>, with what the derived
        /// component adds (a cloth's tear threshold).</summary>
        public virtual SinewDynamics NativeDynamics()
        {
            return dynamics.ToNative();
        }

        /// <summary>Creates the native body (the world is idle). May throw; then the body, if it was
        /// made, is disposed, <see cref="ReleaseResources"/> runs and the component disables itself.</summary>
        internal abstract Body CreateBody(World native);

        /// <summary>LateUpdate, before the step: pin targets, bone matrices.</summary>
        internal abstract void PrepareStep(float dt);

        /// <summary>After the step, before rendering: readback into the mesh or lines.</summary>
        internal abstract void AfterStep();

        /// <summary>Frees what <see cref="CreateBody"/> made besides the body (meshes, objects).</summary>
        internal abstract void ReleaseResources();
    }
}
