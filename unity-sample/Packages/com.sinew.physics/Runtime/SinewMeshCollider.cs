// Hand-written. Static level geometry for Sinew: a triangle-mesh collider from a Unity Mesh.
using System;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// A static triangle-mesh collider (<see cref="Sinew.Collider.Mesh{TVector, TMatrix}(World, TVector[], int[], TMatrix, uint, bool)"/>)
    /// made from a Unity <c>Mesh</c> — by default this GameObject's <c>MeshFilter</c> mesh — for level
    /// geometry that cloth, ropes and hair rest on and cannot pass through: floors, walls, stairs,
    /// terrain patches. The front of each triangle (the side it renders from) is solid; the mesh may
    /// be open.
    /// </summary>
    /// <remarks>
    /// The mesh is cooked once, when the component starts (the mesh must be readable). It is static:
    /// call <see cref="Teleport"/> after moving the GameObject; a non-uniform scale is baked into the
    /// cooked vertices, so it is exact. Editing the mesh or the fields in the inspector cooks again.
    /// </remarks>
    [DisallowMultipleComponent]
    [AddComponentMenu("Sinew/Sinew Mesh Collider")]
    public sealed class SinewMeshCollider : MonoBehaviour
    {
        [Tooltip("The world this collider is in. Empty: the scene's SinewWorldBehaviour (one is created if the scene has none).")]
        public SinewWorldBehaviour world;

        [Tooltip("The triangles to collide with (Read/Write enabled). Empty: this GameObject's MeshFilter mesh.")]
        public Mesh mesh;

        [Tooltip("Sinew collision layers of this collider. A cloth or rope meets it when its Collision Mask shares a bit.")]
        public LayerMask layers = 1;

        [Tooltip("Leave out degenerate triangles (zero area, repeated vertices) instead of refusing the mesh.")]
        public bool skipDegenerate = true;

        Collider native;
        bool started;
        Vector3 cookedScale;

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
            if (native != null)
            {
                ReleaseNative();
                Create();
            }
        }

        Mesh Source()
        {
            if (mesh != null)
            {
                return mesh;
            }
            MeshFilter filter = GetComponent<MeshFilter>();
            return filter != null ? filter.sharedMesh : null;
        }

        void Create()
        {
            if (native != null)
            {
                return;
            }
            Mesh source = Source();
            if (source == null)
            {
                Debug.LogError("Sinew: mesh collider " + name + " has no mesh (set Mesh, or add a MeshFilter)", this);
                enabled = false;
                return;
            }
            if (!source.isReadable)
            {
                Debug.LogError("Sinew: mesh collider " + name + ": enable Read/Write on the mesh " + source.name + " so Sinew can read its triangles", this);
                enabled = false;
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
            // Cooking allocates (the arrays Unity returns, the library's copy): once, here.
            Vector3[] vertices = source.vertices;
            cookedScale = transform.lossyScale;
            for (int i = 0; i < vertices.Length; i++)
            {
                Vector3 v = vertices[i];
                vertices[i] = new Vector3(v.x * cookedScale.x, v.y * cookedScale.y, v.z * cookedScale.z);
            }
            world.CompleteStep();
            try
            {
                native = Collider.Mesh(w, vertices, source.triangles, MeshToWorld(), unchecked((uint)layers.value), skipDegenerate);
            }
            catch (SinewException e)
            {
                Debug.LogError("Sinew: mesh collider " + name + " was refused: " + e.Message, this);
                enabled = false;
            }
        }

        void ReleaseNative()
        {
            if (world != null)
            {
                world.CompleteStep();
            }
            if (native != null)
            {
                native.Dispose();
                native = null;
            }
        }

        /// <summary>Moves the collider to where its GameObject is now (position and rotation; a changed
        /// scale cooks the mesh again). Nothing between the old and the new place is touched.</summary>
        public void Teleport()
        {
            if (native == null)
            {
                return;
            }
            world.CompleteStep();
            Vector3 s = transform.lossyScale;
            if (s.x != cookedScale.x || s.y != cookedScale.y || s.z != cookedScale.z)
            {
                ReleaseNative();
                Create();
                return;
            }
            native.Teleport(MeshToWorld());
        }

        /// <summary>The cooked (scaled) mesh's frame in the world: this Transform's position and rotation.</summary>
        public Matrix4x4 MeshToWorld()
        {
            return Matrix4x4.TRS(transform.position, transform.rotation, Vector3.one);
        }
    }
}
