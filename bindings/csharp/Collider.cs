// Hand-written. `sinew_collider_*`: shapes the host moves from its bones each frame, and
// static triangle meshes for level geometry.
using System;
using System.Runtime.InteropServices;

namespace Sinew
{
    /// <summary>
    /// A collision shape in a <see cref="World"/> (sphere, tapered capsule, plane, box) that
    /// bodies whose <c>material.collision_mask</c> meets its layers are kept out of. Make one
    /// with <see cref="Sphere"/>, <see cref="Capsule"/>, <see cref="Plane"/>, <see cref="Box"/>
    /// or <see cref="Create"/>, place it with <see cref="Teleport(SinewMat4)"/>, and move it
    /// every frame with <see cref="SetTransform(SinewMat4)"/> from a bone's
    /// <c>localToWorldMatrix</c>; during the step it sweeps from its last pose.
    /// </summary>
    /// <remarks>
    /// <para>Sizes are in the collider's local frame: a uniform scale in its matrix scales the
    /// shape. Non-uniform scale, shear and mirroring are refused (<c>SINEW_INVALID_ARGUMENT</c>).</para>
    /// <para>Disposal follows the rules of <see cref="Body"/>: safe twice, after the world,
    /// and from the finaliser (which only queues it for the world).</para>
    /// </remarks>
    public sealed class Collider : IDisposable
    {
        readonly World world;
        readonly SinewCollider handle;
        bool disposed;

        Collider(World world, SinewCollider handle)
        {
            this.world = world;
            this.handle = handle;
        }

        ~Collider()
        {
            if (!disposed)
            {
                disposed = true;
                world.DestroyOwned(World.Owned.Collider(handle), true);
            }
        }

        /// <summary>Creates a collider; start from <see cref="SinewColliderDesc.Default"/>.</summary>
        public static unsafe Collider Create(World world, SinewColliderDesc desc)
        {
            if (world == null)
            {
                throw new ArgumentNullException("world");
            }
            SinewCollider c;
            SinewException.Check(NativeMethods.sinew_collider_create(world.Handle, &desc, &c));
            return new Collider(world, c);
        }

        /// <summary>A sphere of <paramref name="radius"/> (m) at the origin; place it with <see cref="Teleport(SinewMat4)"/>.</summary>
        public static Collider Sphere(World world, float radius, uint layers = 1u)
        {
            return Create(world, SinewColliderDesc.Sphere(radius, layers));
        }

        /// <summary>A tapered capsule along local Y: <paramref name="radius0"/> (m) around
        /// (0, −<paramref name="halfHeight"/>, 0), <paramref name="radius1"/> around (0, +<paramref name="halfHeight"/>, 0).
        /// One radius may be 0 (a cone to a point), not both.</summary>
        public static Collider Capsule(World world, float halfHeight, float radius0, float radius1, uint layers = 1u)
        {
            return Create(world, SinewColliderDesc.Capsule(halfHeight, radius0, radius1, layers));
        }

        /// <summary>A half-space: solid below the local XZ plane (normal local +Y).</summary>
        public static Collider Plane(World world, uint layers = 1u)
        {
            return Create(world, SinewColliderDesc.Plane(layers));
        }

        /// <summary>An oriented box of <paramref name="halfExtents"/> (m): any plain 12-byte vector
        /// struct, e.g. <see cref="SinewVec3"/> or Unity's <c>Vector3</c>.</summary>
        public static Collider Box<TVector>(World world, TVector halfExtents, uint layers = 1u) where TVector : struct
        {
            return Create(world, SinewColliderDesc.Box(SinewVec3.From(halfExtents), layers));
        }

        /// <summary>
        /// A static triangle-mesh collider (level geometry): <paramref name="vertices"/> (any plain
        /// 12-byte vector struct, e.g. Unity's <c>Vector3</c>) in the mesh's own frame and a triangle
        /// list (e.g. <c>Mesh.triangles</c>: Unity's winding is the front as it is), placed at
        /// <paramref name="transform"/> (any 64-byte column-major matrix struct). Cloth and ropes meet
        /// the front of each triangle. It moves only by <see cref="Teleport(SinewMat4)"/>
        /// (<see cref="SetTransform(SinewMat4)"/> throws). Creation copies the arrays and cooks the mesh;
        /// <paramref name="skipDegenerate"/> leaves out degenerate triangles instead of refusing them.
        /// </summary>
        public static Collider Mesh<TVector, TMatrix>(World world, ReadOnlySpan<TVector> vertices, ReadOnlySpan<int> indices, TMatrix transform,
            uint layers = 1u, bool skipDegenerate = false) where TVector : struct where TMatrix : struct
        {
            return Mesh(world, Blit.AsVec3(vertices, "vertices"), MemoryMarshal.Cast<int, uint>(indices), SinewMat4.From(transform), layers, skipDegenerate);
        }

        /// <inheritdoc cref="Mesh{TVector, TMatrix}(World, ReadOnlySpan{TVector}, ReadOnlySpan{int}, TMatrix, uint, bool)"/>
        public static Collider Mesh<TVector, TMatrix>(World world, TVector[] vertices, int[] indices, TMatrix transform,
            uint layers = 1u, bool skipDegenerate = false) where TVector : struct where TMatrix : struct
        {
            return Mesh(world, new ReadOnlySpan<TVector>(vertices), new ReadOnlySpan<int>(indices), transform, layers, skipDegenerate);
        }

        static unsafe Collider Mesh(World world, ReadOnlySpan<SinewVec3> vertices, ReadOnlySpan<uint> indices, SinewMat4 transform, uint layers, bool skipDegenerate)
        {
            if (world == null)
            {
                throw new ArgumentNullException("world");
            }
            SinewColliderMeshDesc d = SinewColliderMeshDesc.Default;
            fixed (SinewVec3* v = &MemoryMarshal.GetReference(vertices))
            fixed (uint* i = &MemoryMarshal.GetReference(indices))
            {
                d.vertices = v;
                d.vertex_count = Blit.Count(vertices.Length);
                d.indices = i;
                d.index_count = Blit.Count(indices.Length);
                d.skip_degenerate = skipDegenerate ? 1u : 0u;
                d.layers = layers;
                d.transform = transform;
                SinewCollider c;
                SinewException.Check(NativeMethods.sinew_collider_create_mesh(world.Handle, &d, &c));
                return new Collider(world, c);
            }
        }

        /// <summary>A mesh collider in <paramref name="world"/> (any world) sharing the cooked mesh of
        /// <paramref name="source"/>, a mesh collider: no copy, no second cooking.</summary>
        public static unsafe Collider SharedMesh<TMatrix>(World world, Collider source, TMatrix transform, uint layers = 1u) where TMatrix : struct
        {
            if (world == null)
            {
                throw new ArgumentNullException("world");
            }
            if (source == null)
            {
                throw new ArgumentNullException("source");
            }
            SinewColliderMeshDesc d = SinewColliderMeshDesc.Default;
            d.vertices = null;
            d.vertex_count = Blit.Count(0);
            d.indices = null;
            d.index_count = Blit.Count(0);
            d.share = source.handle;
            d.layers = layers;
            d.transform = SinewMat4.From(transform);
            SinewCollider c;
            SinewException.Check(NativeMethods.sinew_collider_create_mesh(world.Handle, &d, &c));
            return new Collider(world, c);
        }

        /// <summary>A mesh collider's counts and bounds (<c>SINEW_INVALID_ARGUMENT</c> for another shape).</summary>
        public unsafe SinewColliderMeshInfo MeshInfo
        {
            get
            {
                SinewColliderMeshInfo info;
                SinewException.Check(NativeMethods.sinew_collider_get_mesh_info(handle, &info));
                return info;
            }
        }

        /// <summary>The world this collider lives in.</summary>
        public World World
        {
            get { return world; }
        }

        /// <summary>The native handle; still returned after <see cref="Dispose"/>.</summary>
        public SinewCollider Handle
        {
            get { return handle; }
        }

        /// <summary>True once the collider was disposed, or its world was.</summary>
        public bool IsDisposed
        {
            get { return disposed || world.IsDisposed; }
        }

        /// <summary>Where the collider is at the end of the next step (rotation, uniform scale,
        /// translation; column-major). During the step it sweeps there from where it was.</summary>
        public unsafe void SetTransform(SinewMat4 transform)
        {
            SinewException.Check(NativeMethods.sinew_collider_set_transform(handle, &transform));
        }

        /// <summary>As <see cref="SetTransform(SinewMat4)"/>, from any 64-byte column-major matrix
        /// struct (e.g. Unity's <c>Matrix4x4</c>). Allocates nothing.</summary>
        public void SetTransform<TMatrix>(TMatrix transform) where TMatrix : struct
        {
            SetTransform(SinewMat4.From(transform));
        }

        /// <summary>Moves the collider without sweeping: nothing between is touched.</summary>
        public unsafe void Teleport(SinewMat4 transform)
        {
            SinewException.Check(NativeMethods.sinew_collider_teleport(handle, &transform));
        }

        /// <summary>As <see cref="Teleport(SinewMat4)"/>, from any 64-byte column-major matrix struct.</summary>
        public void Teleport<TMatrix>(TMatrix transform) where TMatrix : struct
        {
            Teleport(SinewMat4.From(transform));
        }

        /// <summary>Changes the collider's layer bits; bodies meet it when
        /// <c>layers &amp; material.collision_mask != 0</c>.</summary>
        public void SetLayers(uint layers)
        {
            SinewException.Check(NativeMethods.sinew_collider_set_layers(handle, layers));
        }

        /// <summary>Destroys the native collider. Safe to call twice and after the world was disposed.</summary>
        public void Dispose()
        {
            if (!disposed)
            {
                disposed = true;
                GC.SuppressFinalize(this);
                world.DestroyOwned(World.Owned.Collider(handle), false);
            }
        }
    }
}
