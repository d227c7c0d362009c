// Hand-written. What SinewCloth and SinewRope share: finding the world, creating and
// destroying the native body with the component, and the per-frame hooks the world calls.
using System;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// Base of the components that own one native <see cref="Sinew.Body"/>. The body is created
    /// in <c>Start</c> (after every <c>Awake</c>, so procedural meshes exist) or, later, when the
    /// component is enabled again, and destroyed when it is disabled.
    /// </summary>
    public abstract class SinewBodyBehaviour : MonoBehaviour
    {
        [Tooltip("The world this body is simulated in. Empty: the scene's SinewWorldBehaviour (one is created if the scene has none).")]
        public SinewWorldBehaviour world;

        [Tooltip("Mass, damping, compliance (stiffness), thickness, friction and collision mask of the particles.")]
        public SinewMaterialSettings physicsMaterial = new SinewMaterialSettings();

        Body body;
        bool started;
        bool materialDirty;

        /// <summary>The native body's wrapper; null while the component is disabled or failed to build.
        /// Call <see cref="SinewWorldBehaviour.CompleteStep"/> on <see cref="world"/> before using it
        /// between LateUpdate and rendering.</summary>
        public Body Body
        {
            get { return body; }
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
            // Inspector edits in Play mode reach the native material before the next step.
            materialDirty = true;
        }

        /// <summary>Sends <see cref="physicsMaterial"/> to the native body before the next step
        /// (call after changing it from a script).</summary>
        public void ApplyMaterial()
        {
            materialDirty = true;
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
            try
            {
                body = CreateBody(native);
            }
            catch (Exception e)
            {
                Debug.LogError("Sinew: " + name + " could not be created: " + e.Message, this);
                ReleaseResources();
                enabled = false;
                return;
            }
            materialDirty = false;
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
            ReleaseResources();
        }

        internal void PrepareStepChecked(float dt)
        {
            if (body == null || body.IsDisposed)
            {
                return;
            }
            if (materialDirty)
            {
                materialDirty = false;
                body.Material = physicsMaterial.ToNative();
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

        /// <summary>Creates the native body (the world is idle). May throw; then
        /// <see cref="ReleaseResources"/> runs and the component disables itself.</summary>
        internal abstract Body CreateBody(World native);

        /// <summary>LateUpdate, before the step: pin targets, teleports.</summary>
        internal abstract void PrepareStep(float dt);

        /// <summary>After the step, before rendering: readback into the mesh or line.</summary>
        internal abstract void AfterStep();

        /// <summary>Frees what <see cref="CreateBody"/> made besides the body (meshes, objects).</summary>
        internal abstract void ReleaseResources();
    }
}
