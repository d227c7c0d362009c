// Hand-written. `sinew_collider_*`: shapes the host moves from its bones each frame.
using System;
using System.Runtime.InteropServices;

namespace Sinew
{
    /// <summary>
    /// A collision shape in a <see cref="World"/> (sphere, tapered capsule, plane, box) that
    /// bodies whose <c>material.collision_mask</c> meets its layers are kept out of. Move it
    /// every frame with <see cref="SetTransform(SinewMat4)"/> from a bone's
    /// <c>localToWorldMatrix</c>; during the step it sweeps from its last pose.
    /// </summary>
    /// <remarks>Disposal follows the rules of <see cref="Body"/>: safe twice, after the world,
    /// and from the finaliser (which only queues it for the world).</remarks>
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
        /// struct (e.g. Unity's <c>Matrix4x4</c>).</summary>
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
