// Hand-written. `sinew_rope_*`.
using System;
using System.Runtime.InteropServices;

namespace Sinew
{
    /// <summary>A rope through a list of points, each joined to the next.</summary>
    public sealed class Rope : Body
    {
        Rope(World world, SinewBody handle)
            : base(world, handle)
        {
        }

        /// <summary>Creates a rope through <paramref name="points"/> (any plain 12-byte vector
        /// struct), pinning <paramref name="pinIndices"/>, with the default settings.</summary>
        public static Rope Create<T>(World world, ReadOnlySpan<T> points, ReadOnlySpan<int> pinIndices) where T : struct
        {
            return Create(world, Blit.AsVec3(points, "points"), MemoryMarshal.Cast<int, uint>(pinIndices), SinewRopeDesc.Default);
        }

        /// <inheritdoc cref="Create{T}(World, ReadOnlySpan{T}, ReadOnlySpan{int})"/>
        public static Rope Create<T>(World world, T[] points, int[] pinIndices) where T : struct
        {
            return Create(world, new ReadOnlySpan<T>(points), new ReadOnlySpan<int>(pinIndices));
        }

        /// <summary>Creates a rope; <paramref name="settings"/> gives <c>bend</c> and
        /// <c>material</c> (start from <see cref="SinewRopeDesc.Default"/>; its array fields are ignored).</summary>
        public static Rope Create<T>(World world, ReadOnlySpan<T> points, ReadOnlySpan<int> pinIndices, SinewRopeDesc settings) where T : struct
        {
            return Create(world, Blit.AsVec3(points, "points"), MemoryMarshal.Cast<int, uint>(pinIndices), settings);
        }

        /// <inheritdoc cref="Create{T}(World, ReadOnlySpan{T}, ReadOnlySpan{int}, SinewRopeDesc)"/>
        public static Rope Create<T>(World world, ReadOnlySpan<T> points, ReadOnlySpan<uint> pinIndices, SinewRopeDesc settings) where T : struct
        {
            return Create(world, Blit.AsVec3(points, "points"), pinIndices, settings);
        }

        /// <inheritdoc cref="Create{T}(World, ReadOnlySpan{T}, ReadOnlySpan{int}, SinewRopeDesc)"/>
        public static Rope Create<T>(World world, T[] points, int[] pinIndices, SinewRopeDesc settings) where T : struct
        {
            return Create(world, new ReadOnlySpan<T>(points), new ReadOnlySpan<int>(pinIndices), settings);
        }

        static unsafe Rope Create(World world, ReadOnlySpan<SinewVec3> points, ReadOnlySpan<uint> pinIndices, SinewRopeDesc desc)
        {
            if (world == null)
            {
                throw new ArgumentNullException("world");
            }
            fixed (SinewVec3* p = &MemoryMarshal.GetReference(points))
            fixed (uint* pins = &MemoryMarshal.GetReference(pinIndices))
            {
                desc.points = p;
                desc.point_count = Blit.Count(points.Length);
                desc.pin_indices = pins;
                desc.pin_count = Blit.Count(pinIndices.Length);
                SinewBody body;
                SinewException.Check(NativeMethods.sinew_rope_create(world.Handle, &desc, &body));
                return new Rope(world, body);
            }
        }
    }
}
