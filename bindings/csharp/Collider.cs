// Hand-written. `sinew_collider_*`: shapes the host moves from its bones each frame.
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
