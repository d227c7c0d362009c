// Hand-written. A Sinew collision shape that follows its Transform (a bone, a prop) every frame.
using System;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// A sphere, tapered capsule, plane or box (<see cref="Sinew.Collider"/>) that keeps cloth and
    /// ropes out. It takes its Transform's position, rotation and uniform scale every frame; during
    /// the step it sweeps from the last pose to the new one, so a fast limb does not tunnel through
    /// the cloth. Bodies whose collision mask shares a bit with <see cref="layers"/> collide with it.
    /// </summary>
    /// <remarks>
    /// Sinew colliders are separate from Unity's PhysX colliders: put one on each bone the cloth
    /// should collide with (like filling Unity Cloth's capsuleColliders and sphereColliders lists).
    /// A non-uniformly scaled Transform is approximated by the mean of its three scales, because
    /// Sinew's shapes take rotation, uniform scale and translation only.
    /// </remarks>
    [DisallowMultipleComponent]
    [AddComponentMenu("Sinew/Sinew Collider")]
    public sealed class SinewCollider : MonoBehaviour
    {
        /// <summary>Collider shape: <see cref="SinewShape"/>'s values under inspector-friendly names
        /// (tests/unity-stub/UnityScriptChecks.cs checks that they agree, name for name).</summary>
        public enum Shape
        {
            Sphere = 1,
            Capsule = 2,
            Plane = 3,
            Box = 4,
        }

        /// <summary>A local axis.</summary>
        public enum Axis
        {
            X = 0,
            Y = 1,
            Z = 2,
        }

        [Tooltip("The world this collider is in. Empty: the scene's SinewWorldBehaviour (one is created if the scene has none).")]
        public SinewWorldBehaviour world;

        [Tooltip("Sphere; Capsule (two spheres joined, each with its own radius, like a pair in Unity Cloth's sphereColliders); Plane (everything below it is solid, the normal is Direction); Box.")]
        public Shape shape = Shape.Sphere;

        [Tooltip("Centre of the shape in this Transform's local space (m, scaled with the Transform).")]
        public Vector3 center = Vector3.zero;

        [Tooltip("Local axis of a capsule (from the Radius 0 end to the Radius 1 end), or the normal of a plane.")]
        public Axis direction = Axis.Y;

        [Tooltip("Sphere radius (m).")]
        [Min(0f)]
        public float radius = 0.1f;

        [Tooltip("Capsule: half the distance between the centres of its two end spheres (m). For a Unity CapsuleCollider of height h and radius r this is h/2 − r.")]
        [Min(0f)]
        public float halfHeight = 0.25f;

        [Tooltip("Capsule radius at the −Direction end (m).")]
        [Min(0f)]
        public float radius0 = 0.1f;

        [Tooltip("Capsule radius at the +Direction end (m). Different from Radius 0: a tapered capsule (a forearm, a thigh).")]
        [Min(0f)]
        public float radius1 = 0.1f;

        [Tooltip("Box half extents along local X, Y, Z (m).")]
        public Vector3 halfExtents = new Vector3(0.1f, 0.1f, 0.1f);

        [Tooltip("Sinew collision layers of this collider (Unity's layer names are used as names for the 32 bits). A cloth or rope meets it when its Collision Mask shares a bit.")]
        public LayerMask layers = 1;

        Collider native;
        bool started;
        bool dirty;

        /// <summary>The native collider's wrapper; null while disabled.</summary>
        public Collider Native
        {
            get { return native; }
        }

        void Start()
        {
            started = true;
            Create();
        }

        void OnEnable()
        {
            if (started)
            {
                Create();
            }
        }

        void OnDisable()
        {
            ReleaseNative();
        }

        void OnValidate()
        {
            dirty = true;
        }

        void Create()
        {
            if (native != null)
            {
                return;
            }
            if (world == null)
            {
                world = SinewWorldBehaviour.GetOrCreate();
            }
            World w = world.World;
            if (w == null)
            {
                enabled = false;
                return;
            }
            world.CompleteStep();
            try
            {
                native = Collider.Create(w, ToDesc());
            }
            catch (SinewException e)
            {
                Debug.LogError("Sinew: collider " + name + " was refused: " + e.Message, this);
                enabled = false;
                return;
            }
            dirty = false;
            world.Register(this);
        }

        void ReleaseNative()
        {
            if (world != null)
            {
                world.CompleteStep();
                world.Unregister(this);
            }
            if (native != null)
            {
                native.Dispose();
                native = null;
            }
        }

        /// <summary>Called by the world in LateUpdate, before the step.</summary>
        internal void PushTransform()
        {
            if (native == null || native.IsDisposed)
            {
                return;
            }
            if (dirty)
            {
                // Shape or size edited in the inspector: the ABI has no shape setter, so recreate.
                native.Dispose();
                native = Collider.Create(world.World, ToDesc());
                dirty = false;
                return;
            }
            native.SetTransform(ShapeToWorld());
        }

        /// <summary>Moves the collider to its Transform without sweeping (after a respawn or
        /// a cut), so nothing between the old and new place is pushed.</summary>
        public void Teleport()
        {
            if (native == null)
            {
                return;
            }
            world.CompleteStep();
            native.Teleport(ShapeToWorld());
        }

        SinewColliderDesc ToDesc()
        {
            SinewColliderDesc d = SinewColliderDesc.Default;
            d.Shape = (SinewShape)(uint)shape;
            d.radius = radius;
            d.half_height = halfHeight;
            d.radius0 = radius0;
            d.radius1 = radius1;
            d.half_extents = new SinewVec3(halfExtents.x, halfExtents.y, halfExtents.z);
            d.layers = unchecked((uint)layers.value);
            d.transform = SinewMat4.From(ShapeToWorld());
            return d;
        }

        /// <summary>
        /// Shape space to world: this Transform's position and rotation, the mean of its scales,
        /// then <see cref="center"/> and a rotation taking Sinew's local +Y (capsule axis, plane
        /// normal) to <see cref="direction"/>.
        /// </summary>
        public Matrix4x4 ShapeToWorld()
        {
            Vector3 s = transform.lossyScale;
            float scale = (Mathf.Abs(s.x) + Mathf.Abs(s.y) + Mathf.Abs(s.z)) / 3f;
            return Matrix4x4.TRS(transform.position, transform.rotation, new Vector3(scale, scale, scale))
                * Matrix4x4.TRS(center, AxisRotation(direction), Vector3.one);
        }

        static Quaternion AxisRotation(Axis axis)
        {
            switch (axis)
            {
                case Axis.X:
                    return Quaternion.Euler(0f, 0f, -90f); // +Y to +X
                case Axis.Z:
                    return Quaternion.Euler(90f, 0f, 0f); // +Y to +Z
                default:
                    return Quaternion.identity;
            }
        }

        void OnDrawGizmosSelected()
        {
            Gizmos.color = new Color(0.2f, 0.9f, 0.6f, 1f);
            Gizmos.matrix = ShapeToWorld();
            switch (shape)
            {
                case Shape.Sphere:
                    Gizmos.DrawWireSphere(Vector3.zero, radius);
                    break;
                case Shape.Capsule:
                    Vector3 a = new Vector3(0f, -halfHeight, 0f);
                    Vector3 b = new Vector3(0f, halfHeight, 0f);
                    Gizmos.DrawWireSphere(a, radius0);
                    Gizmos.DrawWireSphere(b, radius1);
                    Gizmos.DrawLine(a + Vector3.right * radius0, b + Vector3.right * radius1);
                    Gizmos.DrawLine(a - Vector3.right * radius0, b - Vector3.right * radius1);
                    Gizmos.DrawLine(a + Vector3.forward * radius0, b + Vector3.forward * radius1);
                    Gizmos.DrawLine(a - Vector3.forward * radius0, b - Vector3.forward * radius1);
                    break;
                case Shape.Plane:
                    Gizmos.DrawWireCube(Vector3.zero, new Vector3(2f, 0f, 2f));
                    Gizmos.DrawLine(Vector3.zero, Vector3.up * 0.5f);
                    break;
                case Shape.Box:
                    Gizmos.DrawWireCube(Vector3.zero, halfExtents * 2f);
                    break;
            }
            Gizmos.matrix = Matrix4x4.identity;
        }
    }
}
