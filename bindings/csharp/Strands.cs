// Hand-written. `sinew_strands_*`: hair.
using System;
using System.Runtime.InteropServices;

namespace Sinew
{
    /// <summary>
    /// Hair: many strands of equal particle count in one body. The first two particles of each
    /// strand are pinned to the head bone; move it every frame with <see cref="SetHeadTransform{TMatrix}(TMatrix)"/>
    /// (the head's <c>localToWorldMatrix</c>). <c>Dynamics.pose_stiffness</c> holds a styled shape
    /// (a curled ponytail) against gravity.
    /// </summary>
    public sealed class Strands : Body
    {
        readonly int strandCount;
        readonly int particlesPerStrand;

        Strands(World world, SinewBody handle, int strandCount, int particlesPerStrand)
            : base(world, handle)
        {
            this.strandCount = strandCount;
            this.particlesPerStrand = particlesPerStrand;
        }

        /// <summary>Number of strands. Particle <c>k</c> of strand <c>s</c> is vertex
        /// <c>s * ParticlesPerStrand + k</c>, root first.</summary>
        public int StrandCount
        {
            get { return strandCount; }
        }

        /// <summary>Particles per strand (≥ 3).</summary>
        public int ParticlesPerStrand
        {
            get { return particlesPerStrand; }
        }

        /// <summary>
        /// Creates hair from <paramref name="desc"/> as it is (its pointers are used as given); start
        /// from <see cref="SinewStrandsDesc.Default"/>. Prefer the overloads that take the points or
        /// the roots and directions.
        /// </summary>
        public static unsafe Strands Create(World world, SinewStrandsDesc desc)
        {
            if (world == null)
            {
                throw new ArgumentNullException("world");
            }
            SinewBody body;
            SinewException.Check(NativeMethods.sinew_strands_create(world.Handle, &desc, &body));
            ulong count = desc.Mode == SinewStrandsMode.SINEW_STRANDS_POINTS
                ? desc.point_count.ToUInt64() / Math.Max(1u, desc.particles_per_strand)
                : desc.root_count.ToUInt64();
            return new Strands(world, body, checked((int)count), checked((int)desc.particles_per_strand));
        }

        /// <summary>
        /// Creates styled hair through <paramref name="points"/> (any plain 12-byte vector struct):
        /// every strand's particles, strand after strand, root first, <paramref name="particlesPerStrand"/>
        /// each (e.g. a curled ponytail). <paramref name="settings"/> gives the head's current
        /// transform (<c>head</c>) and the <c>material</c>; start from <see cref="SinewStrandsDesc.Default"/>.
        /// </summary>
        public static unsafe Strands Create<T>(World world, ReadOnlySpan<T> points, int particlesPerStrand, SinewStrandsDesc settings) where T : struct
        {
            ReadOnlySpan<SinewVec3> p = Blit.AsVec3(points, "points");
            if (particlesPerStrand < 0)
            {
                throw new ArgumentOutOfRangeException("particlesPerStrand", particlesPerStrand, "a particle count is not negative");
            }
            fixed (SinewVec3* pp = &MemoryMarshal.GetReference(p))
            {
                settings.Mode = SinewStrandsMode.SINEW_STRANDS_POINTS;
                settings.points = pp;
                settings.point_count = Blit.Count(p.Length);
                settings.roots = null;
                settings.directions = null;
                settings.root_count = UIntPtr.Zero;
                settings.direction_count = UIntPtr.Zero;
                settings.particles_per_strand = (uint)particlesPerStrand;
                return Create(world, settings);
            }
        }

        /// <inheritdoc cref="Create{T}(World, ReadOnlySpan{T}, int, SinewStrandsDesc)"/>
        public static Strands Create<T>(World world, T[] points, int particlesPerStrand, SinewStrandsDesc settings) where T : struct
        {
            return Create(world, new ReadOnlySpan<T>(points), particlesPerStrand, settings);
        }

        /// <summary>
        /// Creates straight strands, one from each of <paramref name="roots"/> along the matching
        /// <paramref name="directions"/> (any plain 12-byte vector struct; the two spans have the
        /// same length), of <c>particles_per_strand</c> particles <c>segment_length</c> (m) apart.
        /// <paramref name="settings"/> gives those, the head's current transform (<c>head</c>) and the
        /// <c>material</c>; start from <see cref="SinewStrandsDesc.Default"/>.
        /// </summary>
        public static unsafe Strands Create<T>(World world, ReadOnlySpan<T> roots, ReadOnlySpan<T> directions, SinewStrandsDesc settings) where T : struct
        {
            ReadOnlySpan<SinewVec3> r = Blit.AsVec3(roots, "roots");
            ReadOnlySpan<SinewVec3> d = Blit.AsVec3(directions, "directions");
            if (r.Length != d.Length)
            {
                throw new ArgumentException(roots.Length + " roots but " + directions.Length + " directions: give one direction per root", "directions");
            }
            fixed (SinewVec3* rp = &MemoryMarshal.GetReference(r))
            fixed (SinewVec3* dp = &MemoryMarshal.GetReference(d))
            {
                settings.Mode = SinewStrandsMode.SINEW_STRANDS_STRAIGHT;
                settings.points = null;
                settings.point_count = UIntPtr.Zero;
                settings.roots = rp;
                settings.directions = dp;
                settings.root_count = Blit.Count(r.Length);
                settings.direction_count = Blit.Count(d.Length);
                return Create(world, settings);
            }
        }

        /// <inheritdoc cref="Create{T}(World, ReadOnlySpan{T}, ReadOnlySpan{T}, SinewStrandsDesc)"/>
        public static Strands Create<T>(World world, T[] roots, T[] directions, SinewStrandsDesc settings) where T : struct
        {
            return Create(world, new ReadOnlySpan<T>(roots), new ReadOnlySpan<T>(directions), settings);
        }

        /// <summary>The head bone's transform this frame (any 64-byte column-major matrix struct, e.g.
        /// the head's <c>localToWorldMatrix</c>): the pinned roots follow it across the next step.
        /// Allocates nothing.</summary>
        public void SetHeadTransform<TMatrix>(TMatrix head) where TMatrix : struct
        {
            SetBoneMatrix(head);
        }
    }
}
