// Hand-written. `sinew_softbody_*`: soft bodies from a lattice (the chapter's jelly) or a
// tetrahedral mesh, their settings and volume; and every particle body's centre of mass.
using System;
using System.Runtime.InteropServices;

namespace Sinew
{
    /// <summary>
    /// A soft body (<c>SINEW_BODY_SOFT</c>): particles that keep a volume, from a lattice
    /// (<see cref="World.CreateSoftLattice(SinewSoftLatticeDesc)"/>) or a tetrahedral mesh
    /// (<see cref="World.CreateSoftBody{T}(ReadOnlySpan{T}, ReadOnlySpan{int}, SinewMaterial, SinewSoftSettings)"/>).
    /// </summary>
    /// <remarks>
    /// <para>It is a <see cref="Body"/>: pins, collision pairs, teleport, material, LOD and the
    /// readback of positions, normals and indices (its surface triangles) work as on cloth. A
    /// lattice's particles are numbered <c>(k · ny + j) · nx + i</c>; a tetrahedral body's are the
    /// positions it was made from.</para>
    /// <para>No method allocates managed memory, except when it throws and once per vector
    /// type (to measure it).</para>
    /// </remarks>
    public sealed class SoftBody : Body
    {
        internal SoftBody(World world, SinewBody handle)
            : base(world, handle)
        {
        }

        /// <summary>The soft body's settings (<c>sinew_softbody_get_settings</c> /
        /// <c>_set_settings</c>); a new value is checked whole, applies from the next step on and
        /// wakes the body.</summary>
        /// <exception cref="SinewException"><c>SINEW_INVALID_ARGUMENT</c> for a value out of its
        /// range, <c>SINEW_NON_FINITE</c> for NaN or infinity (naming the field).</exception>
        public unsafe SinewSoftSettings Settings
        {
            get
            {
                SinewSoftSettings s;
                SinewException.Check(NativeMethods.sinew_softbody_get_settings(Handle, &s));
                return s;
            }
            set
            {
                SinewException.Check(NativeMethods.sinew_softbody_set_settings(Handle, &value));
            }
        }

        /// <summary>The volume its tetrahedra enclose after the newest fixed step and at rest (m³;
        /// the rest one scaled by the body's scale), in one call.</summary>
        public unsafe void GetVolume(out float volume, out float restVolume)
        {
            float v, r;
            SinewException.Check(NativeMethods.sinew_softbody_get_volume(Handle, &v, &r));
            volume = v;
            restVolume = r;
        }

        /// <summary>The volume its tetrahedra enclose after the newest fixed step (m³).</summary>
        public float Volume
        {
            get
            {
                float v, r;
                GetVolume(out v, out r);
                return v;
            }
        }

        /// <summary>The volume at rest (m³), scaled by the body's scale.</summary>
        public float RestVolume
        {
            get
            {
                float v, r;
                GetVolume(out v, out r);
                return r;
            }
        }
    }

    public sealed partial class World
    {
        /// <summary>Creates a lattice soft body, the chapter's jelly: <c>nx × ny × nz</c> particles
        /// <c>spacing</c> apart, distance constraints, 6 tetrahedra per cell keeping the volume,
        /// shape matching, the box's faces as its surface. Start from
        /// <see cref="SinewSoftLatticeDesc.Default"/>.</summary>
        /// <exception cref="SinewException">The library's checks (sizes, spacing, orientation,
        /// material, settings), with its message.</exception>
        public unsafe SoftBody CreateSoftLattice(SinewSoftLatticeDesc desc)
        {
            SinewBody b;
            SinewException.Check(NativeMethods.sinew_softbody_create_lattice(handle, &desc, &b));
            return new SoftBody(this, b);
        }

        /// <summary>
        /// Creates a soft body from a tetrahedral mesh: <paramref name="positions"/> (any plain
        /// 12-byte vector struct) and 4 indices per tetrahedron in <paramref name="tetIndices"/>
        /// (any orientation; a degenerate or out-of-range one is refused with its index).
        /// Distance constraints on every edge (the material's stretch compliance), one
        /// shape-matching cluster, the boundary faces as its surface. Start
        /// <paramref name="material"/> and <paramref name="settings"/> from
        /// <see cref="SinewMaterial.Default"/> and <see cref="SinewSoftSettings.Default"/>.
        /// </summary>
        /// <exception cref="SinewException"><c>SINEW_INVALID_ARGUMENT</c> when the index count is
        /// not a multiple of 4, <c>SINEW_OUT_OF_RANGE</c> for a bad index, the other checks of
        /// the library.</exception>
        public SoftBody CreateSoftBody<T>(ReadOnlySpan<T> positions, ReadOnlySpan<int> tetIndices, SinewMaterial material, SinewSoftSettings settings)
            where T : struct
        {
            return CreateSoftBody(Blit.AsVec3(positions, "positions"), MemoryMarshal.Cast<int, uint>(tetIndices), material, settings);
        }

        /// <inheritdoc cref="CreateSoftBody{T}(ReadOnlySpan{T}, ReadOnlySpan{int}, SinewMaterial, SinewSoftSettings)"/>
        public SoftBody CreateSoftBody<T>(ReadOnlySpan<T> positions, ReadOnlySpan<uint> tetIndices, SinewMaterial material, SinewSoftSettings settings)
            where T : struct
        {
            return CreateSoftBody(Blit.AsVec3(positions, "positions"), tetIndices, material, settings);
        }

        /// <inheritdoc cref="CreateSoftBody{T}(ReadOnlySpan{T}, ReadOnlySpan{int}, SinewMaterial, SinewSoftSettings)"/>
        public SoftBody CreateSoftBody<T>(T[] positions, int[] tetIndices, SinewMaterial material, SinewSoftSettings settings)
            where T : struct
        {
            return CreateSoftBody(new ReadOnlySpan<T>(positions), new ReadOnlySpan<int>(tetIndices), material, settings);
        }

        /// <summary>
        /// Creates a soft body from a closed render mesh (what a Unity <c>MeshFilter</c> holds):
        /// a lattice of <paramref name="resolution"/> cubes along the mesh's longest side is
        /// simulated and the mesh's vertices are embedded in it, so <see cref="Body.ReadPositions{T}(Span{T})"/>
        /// answers in the mesh's own vertex order and count (exactly the mesh at rest).
        /// <paramref name="clusterCells"/> 0 is one shape-matching cluster.
        /// </summary>
        /// <exception cref="SinewException">The library's checks (closed triangle list, indices in
        /// range, resolution 1–64, material, settings), with its message.</exception>
        public unsafe SoftBody CreateSoftBodyFromMesh<T>(ReadOnlySpan<T> positions, ReadOnlySpan<int> indices, int resolution, int clusterCells, SinewMaterial material, SinewSoftSettings settings)
            where T : struct
        {
            ReadOnlySpan<SinewVec3> p = Blit.AsVec3(positions, "positions");
            ReadOnlySpan<uint> idx = MemoryMarshal.Cast<int, uint>(indices);
            if (resolution < 0 || clusterCells < 0)
                throw new ArgumentOutOfRangeException(resolution < 0 ? "resolution" : "clusterCells", "must be >= 0");
            SinewBody b;
            fixed (SinewVec3* pp = &MemoryMarshal.GetReference(p))
            fixed (uint* ii = &MemoryMarshal.GetReference(idx))
            {
                SinewSoftMeshDesc d;
                SinewException.Check(NativeMethods.sinew_soft_mesh_desc_default(&d));
                d.positions = pp;
                d.vertex_count = Blit.Count(p.Length);
                d.indices = ii;
                d.index_count = Blit.Count(idx.Length);
                d.resolution = (uint)resolution;
                d.cluster_cells = (uint)clusterCells;
                d.material = material;
                d.soft = settings;
                SinewException.Check(NativeMethods.sinew_softbody_create_from_mesh(handle, &d, &b));
            }
            return new SoftBody(this, b);
        }

        /// <summary>
        /// Creates a balloon: the closed mesh (welded within <paramref name="weldDistance"/>, its
        /// edges stretch constraints as for a mesh cloth) holding a gas of
        /// <c>settings.pressure</c> Pa at its rest volume (ideal and isothermal, against
        /// <c>settings.external_pressure</c>). The triangles must be wound outward.
        /// </summary>
        /// <exception cref="SinewException">The library's checks, e.g. triangles that enclose no volume.</exception>
        public unsafe SoftBody CreateBalloon<T>(ReadOnlySpan<T> positions, ReadOnlySpan<int> indices, float weldDistance, SinewMaterial material, SinewSoftSettings settings)
            where T : struct
        {
            ReadOnlySpan<SinewVec3> p = Blit.AsVec3(positions, "positions");
            ReadOnlySpan<uint> idx = MemoryMarshal.Cast<int, uint>(indices);
            SinewBody b;
            fixed (SinewVec3* pp = &MemoryMarshal.GetReference(p))
            fixed (uint* ii = &MemoryMarshal.GetReference(idx))
            {
                SinewClothMeshDesc d;
                SinewException.Check(NativeMethods.sinew_cloth_mesh_desc_default(&d));
                d.positions = pp;
                d.vertex_count = Blit.Count(p.Length);
                d.indices = ii;
                d.index_count = Blit.Count(idx.Length);
                d.weld_distance = weldDistance;
                d.material = material;
                SinewException.Check(NativeMethods.sinew_softbody_create_balloon(handle, &d, &settings, &b));
            }
            return new SoftBody(this, b);
        }

        unsafe SoftBody CreateSoftBody(ReadOnlySpan<SinewVec3> positions, ReadOnlySpan<uint> tetIndices, SinewMaterial material, SinewSoftSettings settings)
        {
            SinewBody b;
            fixed (SinewVec3* p = &MemoryMarshal.GetReference(positions))
            fixed (uint* i = &MemoryMarshal.GetReference(tetIndices))
            {
                SinewException.Check(NativeMethods.sinew_softbody_create_tets(
                    handle, p, Blit.Count(positions.Length), i, Blit.Count(tetIndices.Length), &material, &settings, &b));
            }
            return new SoftBody(this, b);
        }
    }

    public abstract partial class Body
    {
        /// <summary>The centre of mass of the body's particles (m), after the newest fixed step
        /// (<c>sinew_body_get_center_of_mass</c>; any particle body).</summary>
        public unsafe SinewVec3 CenterOfMass
        {
            get
            {
                SinewVec3 c;
                SinewException.Check(NativeMethods.sinew_body_get_center_of_mass(Handle, &c));
                return c;
            }
        }

        /// <summary><see cref="CenterOfMass"/> as any 12-byte vector type (e.g. <c>UnityEngine.Vector3</c>).</summary>
        public void GetCenterOfMass<T>(out T center) where T : struct
        {
            Blit.Require<T>(Blit.Vec3Size, "T");
            SinewVec3 c = CenterOfMass;
            center = MemoryMarshal.Cast<SinewVec3, T>(MemoryMarshal.CreateReadOnlySpan(ref c, 1))[0];
        }
    }

    public unsafe partial struct SinewSoftSettings
    {
        /// <summary>The library's default soft-body settings (<c>sinew_soft_settings_default</c>):
        /// volume kept exactly, shape stiffness 0.5 per 1/60 s, elastic.</summary>
        public static SinewSoftSettings Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewSoftSettings s;
                SinewException.Check(NativeMethods.sinew_soft_settings_default(&s));
                return s;
            }
        }

        /// <summary><see cref="chapter_stiffness"/> as a bool: apply <see cref="shape_stiffness"/>
        /// per substep, as the chapter's pseudo-code does (it then depends on the substep count).</summary>
        public bool ChapterStiffness
        {
            get { return chapter_stiffness != 0; }
            set { chapter_stiffness = value ? 1u : 0u; }
        }
    }

    public unsafe partial struct SinewSoftLatticeDesc
    {
        /// <summary>The library's default lattice (<c>sinew_soft_lattice_desc_default</c>): 4 × 4 × 4
        /// particles 5 cm apart at the origin, all 26 neighbours, one cluster.</summary>
        public static SinewSoftLatticeDesc Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewSoftLatticeDesc d;
                SinewException.Check(NativeMethods.sinew_soft_lattice_desc_default(&d));
                return d;
            }
        }

        /// <summary><see cref="all_neighbours"/> as a bool: distance constraints to all 26
        /// neighbours (false: axis neighbours, face diagonals and bend constraints two over).</summary>
        public bool AllNeighbours
        {
            get { return all_neighbours != 0; }
            set { all_neighbours = value ? 1u : 0u; }
        }

        /// <summary>Number of particles, <c>nx · ny · nz</c>.</summary>
        public int ParticleCount
        {
            get { return checked((int)((long)nx * ny * nz)); }
        }

        /// <summary>Particle index of lattice point (<paramref name="i"/>, <paramref name="j"/>,
        /// <paramref name="k"/>): <c>(k · ny + j) · nx + i</c>.</summary>
        public int Index(int i, int j, int k)
        {
            return (k * (int)ny + j) * (int)nx + i;
        }
    }
}
