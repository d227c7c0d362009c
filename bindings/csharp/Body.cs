// Hand-written. What every particle body (cloth, rope) answers to: `sinew_body_*`.
using System;
using System.Runtime.InteropServices;

namespace Sinew
{
    /// <summary>
    /// A particle body in a <see cref="World"/>: a <see cref="Cloth"/>, a <see cref="Rope"/> or a
    /// <see cref="SoftBody"/>.
    /// </summary>
    /// <remarks>
    /// <para>Vector arguments are spans or arrays of any plain 12-byte struct of three floats
    /// (<see cref="SinewVec3"/>, <c>UnityEngine.Vector3</c>, <c>System.Numerics.Vector3</c>):
    /// the memory is handed to the library as it is, with no copy and no per-element
    /// marshalling. For a <c>NativeArray&lt;Vector3&gt;</c>, pass
    /// <c>new Span&lt;Vector3&gt;(NativeArrayUnsafeUtility.GetUnsafePtr(array), array.Length)</c>,
    /// or use the extension methods of <c>Unity/SinewUnity.cs</c>.</para>
    /// <para>Indices are the host's vertex indices (a mesh cloth's own numbering), as
    /// <c>int</c> or <c>uint</c>; negative ones are out of range.</para>
    /// <para>No method allocates managed memory, except when it throws and once per vector
    /// type (to measure it).</para>
    /// </remarks>
    public abstract partial class Body : IDisposable
    {
        readonly World world;
        readonly SinewBody handle;
        bool disposed;

        internal Body(World world, SinewBody handle)
        {
            this.world = world;
            this.handle = handle;
        }

        // A finalised body never calls native code: its world destroys it on its own thread
        // (or already has, if the world is gone).
        ~Body()
        {
            if (!disposed)
            {
                disposed = true;
                world.DestroyOwned(World.Owned.Body(handle), true);
            }
        }

        /// <summary>The world this body lives in.</summary>
        public World World
        {
            get { return world; }
        }

        /// <summary>The native handle, for calls the wrapper does not cover. Still returned
        /// after <see cref="Dispose"/>: the library answers <c>SINEW_INVALID_HANDLE</c> for it.</summary>
        public SinewBody Handle
        {
            get { return handle; }
        }

        /// <summary>True once the body was disposed, or its world was.</summary>
        public bool IsDisposed
        {
            get { return disposed || world.IsDisposed; }
        }

        /// <summary>
        /// Destroys the native body. Safe to call twice, and after the world was disposed (which
        /// destroyed the body already). During an asynchronous step the destruction is queued
        /// until the world's next <see cref="World.StepEnd"/>.
        /// </summary>
        public void Dispose()
        {
            if (!disposed)
            {
                disposed = true;
                GC.SuppressFinalize(this);
                world.DestroyOwned(World.Owned.Body(handle), false);
            }
        }

        /// <summary>Kind, particle, vertex, constraint and triangle counts (<c>sinew_body_get_info</c>).</summary>
        public unsafe SinewBodyInfo GetInfo()
        {
            SinewBodyInfo info;
            SinewException.Check(NativeMethods.sinew_body_get_info(handle, &info));
            return info;
        }

        /// <summary>Bytes <see cref="SaveState(Span{byte})"/> needs now (the size query of
        /// <c>sinew_body_save_state</c>).</summary>
        public int StateSize
        {
            get
            {
                return Snapshot.Size(new BodyState { Handle = handle });
            }
        }

        /// <summary>A snapshot of this body's dynamic state alone (docs/snapshots.md); <see cref="LoadState"/> restores it, leaving the rest of the world as it is.</summary>
        public byte[] SaveState()
        {
            return Snapshot.Save(new BodyState { Handle = handle });
        }

        /// <summary>Writes the snapshot into <paramref name="destination"/> and returns its length;
        /// no allocation. An empty span only returns the length needed (as <see cref="StateSize"/>).</summary>
        /// <exception cref="SinewException"><c>SINEW_BUFFER_TOO_SMALL</c> when the span is shorter
        /// than <see cref="StateSize"/> (nothing is written); <c>SINEW_BUSY</c> during an
        /// asynchronous step.</exception>
        public int SaveState(Span<byte> destination)
        {
            return Snapshot.Save(new BodyState { Handle = handle }, destination);
        }

        /// <summary>Restores a snapshot <see cref="SaveState()"/> wrote.</summary>
        /// <exception cref="SinewException"><c>SINEW_INVALID_ARGUMENT</c>, changing nothing, for a
        /// truncated, corrupted or mismatched snapshot (the message names the difference);
        /// <c>SINEW_BUSY</c> during an asynchronous step.</exception>
        public void LoadState(ReadOnlySpan<byte> snapshot)
        {
            Snapshot.Load(new BodyState { Handle = handle }, snapshot);
        }

        /// <summary>Number of vertices <see cref="ReadPositions{T}(Span{T})"/> writes: the host's
        /// own vertex count for a mesh cloth.</summary>
        public unsafe int VertexCount
        {
            get
            {
                UIntPtr n;
                SinewException.Check(NativeMethods.sinew_body_get_vertex_count(handle, &n));
                return checked((int)n.ToUInt64());
            }
        }

        /// <summary>The body's material; a new one applies from the next step on.</summary>
        public unsafe SinewMaterial Material
        {
            get
            {
                SinewMaterial m;
                SinewException.Check(NativeMethods.sinew_body_get_material(handle, &m));
                return m;
            }
            set
            {
                SinewException.Check(NativeMethods.sinew_body_set_material(handle, &value));
            }
        }

        /// <summary>Largest <c>|length/rest − 1|</c> over the body's constraints.</summary>
        public unsafe float MaxStretch
        {
            get
            {
                float s;
                SinewException.Check(NativeMethods.sinew_body_get_max_stretch(handle, &s));
                return s;
            }
        }

        /// <summary>Wall time (ms) the body's fixed steps took in the last <c>Step</c> (or
        /// <c>StepEnd</c>) that ran any; bodies stepped together share their group's time by
        /// particle count; 0 while frozen or asleep. For profiling. Allocates nothing.</summary>
        public unsafe double StepTimeMs
        {
            get
            {
                ulong ns;
                SinewException.Check(NativeMethods.sinew_body_get_step_time_ns(handle, &ns));
                return ns * 1e-6;
            }
        }

        /// <summary>Axis-aligned bounds of the body's particles.</summary>
        public unsafe void GetBounds(out SinewVec3 min, out SinewVec3 max)
        {
            SinewVec3 lo, hi;
            SinewException.Check(NativeMethods.sinew_body_get_bounds(handle, &lo, &hi));
            min = lo;
            max = hi;
        }

        /// <summary>Axis-aligned bounds, as any 12-byte vector type (e.g. <c>UnityEngine.Vector3</c>).</summary>
        public void GetBounds<T>(out T min, out T max) where T : struct
        {
            Blit.Require<T>(Blit.Vec3Size, "T");
            SinewVec3 lo, hi;
            GetBounds(out lo, out hi);
            min = MemoryMarshal.Cast<SinewVec3, T>(MemoryMarshal.CreateReadOnlySpan(ref lo, 1))[0];
            max = MemoryMarshal.Cast<SinewVec3, T>(MemoryMarshal.CreateReadOnlySpan(ref hi, 1))[0];
        }

        /// <summary>Turns particle contact between this body and <paramref name="other"/> (of the same
        /// world) on or off. Each body's <c>material.thickness</c> is its particles' radius; for
        /// contact of a body with itself, set <c>material.self_collision</c>.</summary>
        public void SetCollisionPair(Body other, bool enabled)
        {
            if (other == null)
            {
                throw new ArgumentNullException("other");
            }
            SinewException.Check(NativeMethods.sinew_body_set_collision_pair(handle, other.handle, enabled ? 1u : 0u));
        }

        // ---- pins ----

        /// <summary>Pins vertices where they are.</summary>
        public void Pin(ReadOnlySpan<int> indices)
        {
            Pin(MemoryMarshal.Cast<int, uint>(indices));
        }

        /// <summary>Pins vertices where they are.</summary>
        public unsafe void Pin(ReadOnlySpan<uint> indices)
        {
            fixed (uint* i = &MemoryMarshal.GetReference(indices))
            {
                SinewException.Check(NativeMethods.sinew_body_pin(handle, i, Blit.Count(indices.Length)));
            }
        }

        /// <summary>Releases pinned vertices; they keep the velocity of their pin's motion.</summary>
        public void Unpin(ReadOnlySpan<int> indices)
        {
            Unpin(MemoryMarshal.Cast<int, uint>(indices));
        }

        /// <summary>Releases pinned vertices; they keep the velocity of their pin's motion.</summary>
        public unsafe void Unpin(ReadOnlySpan<uint> indices)
        {
            fixed (uint* i = &MemoryMarshal.GetReference(indices))
            {
                SinewException.Check(NativeMethods.sinew_body_unpin(handle, i, Blit.Count(indices.Length)));
            }
        }

        /// <summary>
        /// Sets where vertices <c>indices[k]</c> should be at the end of the next step: they travel
        /// there in a straight line across its substeps. A vertex not yet pinned becomes pinned.
        /// The two spans must have the same length (the library checks).
        /// </summary>
        public void SetPinTargets<T>(ReadOnlySpan<int> indices, ReadOnlySpan<T> positions) where T : struct
        {
            SetPinTargets(MemoryMarshal.Cast<int, uint>(indices), Blit.AsVec3(positions, "positions"));
        }

        /// <inheritdoc cref="SetPinTargets{T}(ReadOnlySpan{int}, ReadOnlySpan{T})"/>
        public void SetPinTargets<T>(ReadOnlySpan<uint> indices, ReadOnlySpan<T> positions) where T : struct
        {
            SetPinTargets(indices, Blit.AsVec3(positions, "positions"));
        }

        /// <inheritdoc cref="SetPinTargets{T}(ReadOnlySpan{int}, ReadOnlySpan{T})"/>
        public void SetPinTargets<T>(int[] indices, T[] positions) where T : struct
        {
            SetPinTargets(MemoryMarshal.Cast<int, uint>(new ReadOnlySpan<int>(indices)), Blit.AsVec3(new ReadOnlySpan<T>(positions), "positions"));
        }

        /// <inheritdoc cref="SetPinTargets{T}(ReadOnlySpan{int}, ReadOnlySpan{T})"/>
        public void SetPinTargets<T>(uint[] indices, T[] positions) where T : struct
        {
            SetPinTargets(new ReadOnlySpan<uint>(indices), Blit.AsVec3(new ReadOnlySpan<T>(positions), "positions"));
        }

        unsafe void SetPinTargets(ReadOnlySpan<uint> indices, ReadOnlySpan<SinewVec3> positions)
        {
            fixed (uint* i = &MemoryMarshal.GetReference(indices))
            fixed (SinewVec3* p = &MemoryMarshal.GetReference(positions))
            {
                SinewException.Check(NativeMethods.sinew_body_set_pin_targets(
                    handle, i, Blit.Count(indices.Length), p, Blit.Count(positions.Length)));
            }
        }

        // ---- teleport ----

        /// <summary>Moves the whole body by a rigid transform (rotation + translation,
        /// column-major), carrying its velocities along.</summary>
        public unsafe void Teleport(SinewMat4 transform)
        {
            SinewException.Check(NativeMethods.sinew_body_teleport(handle, &transform));
        }

        /// <summary>As <see cref="Teleport(SinewMat4)"/>, from any 64-byte column-major matrix
        /// struct (e.g. <c>UnityEngine.Matrix4x4</c>, such as <c>transform.localToWorldMatrix</c>).</summary>
        public void Teleport<TMatrix>(TMatrix transform) where TMatrix : struct
        {
            Teleport(SinewMat4.From(transform));
        }

        // ---- readback ----

        /// <summary>
        /// Copies vertex positions (interpolated between fixed steps) into <paramref name="destination"/>,
        /// in the host's vertex order. It must hold at least <see cref="VertexCount"/> elements;
        /// <typeparamref name="T"/> must be a plain 12-byte vector struct.
        /// </summary>
        /// <exception cref="ArgumentException"><typeparamref name="T"/> is not 12 bytes of plain data.</exception>
        /// <exception cref="SinewException"><c>SINEW_BUFFER_TOO_SMALL</c>, <c>SINEW_INVALID_HANDLE</c>, <c>SINEW_BUSY</c>.</exception>
        public void ReadPositions<T>(Span<T> destination) where T : struct
        {
            ReadPositions(Blit.AsVec3(destination, "destination"));
        }

        /// <inheritdoc cref="ReadPositions{T}(Span{T})"/>
        public void ReadPositions<T>(T[] destination) where T : struct
        {
            ReadPositions(Blit.AsVec3(new Span<T>(destination), "destination"));
        }

        /// <summary>Copies vertex positions to unmanaged memory holding <paramref name="capacity"/>
        /// 12-byte vectors (e.g. <c>NativeArrayUnsafeUtility.GetUnsafePtr</c> of a <c>NativeArray&lt;Vector3&gt;</c>).</summary>
        public unsafe void ReadPositions(IntPtr destination, int capacity)
        {
            ReadPositions(new Span<SinewVec3>((void*)destination, capacity));
        }

        unsafe void ReadPositions(Span<SinewVec3> destination)
        {
            fixed (SinewVec3* p = &MemoryMarshal.GetReference(destination))
            {
                // An empty span's null address is fine: null goes with capacity 0, and the library
                // answers SINEW_BUFFER_TOO_SMALL unless the body has nothing to write.
                SinewException.Check(NativeMethods.sinew_body_read_positions(handle, p, Blit.Count(destination.Length)));
            }
        }

        /// <summary>Copies unit, area-weighted vertex normals into <paramref name="destination"/>
        /// (a rope's are +Y); the same rules as <see cref="ReadPositions{T}(Span{T})"/>.</summary>
        public void ReadNormals<T>(Span<T> destination) where T : struct
        {
            ReadNormals(Blit.AsVec3(destination, "destination"));
        }

        /// <inheritdoc cref="ReadNormals{T}(Span{T})"/>
        public void ReadNormals<T>(T[] destination) where T : struct
        {
            ReadNormals(Blit.AsVec3(new Span<T>(destination), "destination"));
        }

        /// <summary>Copies normals to unmanaged memory holding <paramref name="capacity"/> 12-byte vectors.</summary>
        public unsafe void ReadNormals(IntPtr destination, int capacity)
        {
            ReadNormals(new Span<SinewVec3>((void*)destination, capacity));
        }

        unsafe void ReadNormals(Span<SinewVec3> destination)
        {
            fixed (SinewVec3* p = &MemoryMarshal.GetReference(destination))
            {
                SinewException.Check(NativeMethods.sinew_body_read_normals(handle, p, Blit.Count(destination.Length)));
            }
        }
    }
}
