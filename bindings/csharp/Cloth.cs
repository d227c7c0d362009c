// Hand-written. `sinew_cloth_*`: grid and mesh cloth, and the cape and skirt generators.
using System;
using System.Runtime.InteropServices;

namespace Sinew
{
    /// <summary>A cloth: a rectangular grid, a render mesh welded into particles, or a generated
    /// cape or skirt skinned to a character's bones.</summary>
    public sealed class Cloth : Body
    {
        Cloth(World world, SinewBody handle)
            : base(world, handle)
        {
        }

        /// <summary>Creates a rectangular cloth (see <see cref="SinewClothGridDesc"/>); start from
        /// <see cref="SinewClothGridDesc.Default"/>. Its <c>pin_indices</c> pointer is used as given:
        /// to pin a list, prefer the overload that takes the indices.</summary>
        public static unsafe Cloth CreateGrid(World world, SinewClothGridDesc desc)
        {
            if (world == null)
            {
                throw new ArgumentNullException("world");
            }
            SinewBody body;
            SinewException.Check(NativeMethods.sinew_cloth_create_grid(world.Handle, &desc, &body));
            return new Cloth(world, body);
        }

        /// <summary>Creates a rectangular cloth pinning the particles <paramref name="pinIndices"/>
        /// (<c>row * columns + column</c>); sets <c>pin_mode</c> to <see cref="SinewPinMode.SINEW_PIN_LIST"/>.</summary>
        public static Cloth CreateGrid(World world, SinewClothGridDesc desc, ReadOnlySpan<int> pinIndices)
        {
            return CreateGrid(world, desc, MemoryMarshal.Cast<int, uint>(pinIndices));
        }

        /// <inheritdoc cref="CreateGrid(World, SinewClothGridDesc, ReadOnlySpan{int})"/>
        public static unsafe Cloth CreateGrid(World world, SinewClothGridDesc desc, ReadOnlySpan<uint> pinIndices)
        {
            fixed (uint* pins = &MemoryMarshal.GetReference(pinIndices))
            {
                desc.pin_mode = (uint)SinewPinMode.SINEW_PIN_LIST;
                desc.pin_indices = pins;
                desc.pin_count = Blit.Count(pinIndices.Length);
                return CreateGrid(world, desc);
            }
        }

        /// <summary>
        /// Creates a cloth from a render mesh as the host has it (vertices may be split at UV
        /// seams; coincident ones are welded), with the default weld distance and material.
        /// <typeparamref name="T"/> is any plain 12-byte vector struct.
        /// </summary>
        public static Cloth CreateMesh<T>(World world, ReadOnlySpan<T> positions, ReadOnlySpan<int> indices) where T : struct
        {
            return CreateMesh(world, Blit.AsVec3(positions, "positions"), MemoryMarshal.Cast<int, uint>(indices),
                ReadOnlySpan<float>.Empty, SinewClothMeshDesc.Default);
        }

        /// <inheritdoc cref="CreateMesh{T}(World, ReadOnlySpan{T}, ReadOnlySpan{int})"/>
        public static Cloth CreateMesh<T>(World world, T[] positions, int[] indices) where T : struct
        {
            return CreateMesh(world, new ReadOnlySpan<T>(positions), new ReadOnlySpan<int>(indices));
        }

        /// <summary>
        /// Creates a cloth from a render mesh. <paramref name="inverseMasses"/> is empty or has one
        /// entry per vertex (0 pins the vertex); <paramref name="settings"/> gives
        /// <c>weld_distance</c> and <c>material</c> (its array fields are ignored).
        /// </summary>
        public static Cloth CreateMesh<T>(World world, ReadOnlySpan<T> positions, ReadOnlySpan<int> indices,
            ReadOnlySpan<float> inverseMasses, SinewClothMeshDesc settings) where T : struct
        {
            return CreateMesh(world, Blit.AsVec3(positions, "positions"), MemoryMarshal.Cast<int, uint>(indices), inverseMasses, settings);
        }

        /// <inheritdoc cref="CreateMesh{T}(World, ReadOnlySpan{T}, ReadOnlySpan{int}, ReadOnlySpan{float}, SinewClothMeshDesc)"/>
        public static Cloth CreateMesh<T>(World world, ReadOnlySpan<T> positions, ReadOnlySpan<uint> indices,
            ReadOnlySpan<float> inverseMasses, SinewClothMeshDesc settings) where T : struct
        {
            return CreateMesh(world, Blit.AsVec3(positions, "positions"), indices, inverseMasses, settings);
        }

        /// <inheritdoc cref="CreateMesh{T}(World, ReadOnlySpan{T}, ReadOnlySpan{int}, ReadOnlySpan{float}, SinewClothMeshDesc)"/>
        public static Cloth CreateMesh<T>(World world, T[] positions, int[] indices, float[] inverseMasses, SinewClothMeshDesc settings) where T : struct
        {
            return CreateMesh(world, new ReadOnlySpan<T>(positions), new ReadOnlySpan<int>(indices), new ReadOnlySpan<float>(inverseMasses), settings);
        }

        /// <summary>
        /// Creates a cape hanging from the line between two shoulders, <c>back_offset</c> behind the
        /// neck, skinned to three bones (left shoulder, neck, right shoulder: their transforms now,
        /// in <paramref name="desc"/>), top row pinned, geodesic tethers on. Start from
        /// <see cref="SinewClothCapeDesc.Default"/>. Move it every frame with
        /// <see cref="Body.SetBoneMatrices{TMatrix}(ReadOnlySpan{TMatrix})"/> and the three bones'
        /// matrices in that order.
        /// </summary>
        public static unsafe Cloth CreateCape(World world, SinewClothCapeDesc desc)
        {
            if (world == null)
            {
                throw new ArgumentNullException("world");
            }
            SinewBody body;
            SinewException.Check(NativeMethods.sinew_cloth_create_cape(world.Handle, &desc, &body));
            return new Cloth(world, body);
        }

        /// <summary>
        /// Creates a skirt: a ring around the waist bone's local Y axis (the bone's transform now,
        /// in <paramref name="desc"/>), skinned to it, top ring pinned, geodesic tethers on. Start
        /// from <see cref="SinewClothSkirtDesc.Default"/>. Move it every frame with
        /// <see cref="Body.SetBoneMatrix{TMatrix}(TMatrix)"/> and the waist bone's matrix.
        /// </summary>
        public static unsafe Cloth CreateSkirt(World world, SinewClothSkirtDesc desc)
        {
            if (world == null)
            {
                throw new ArgumentNullException("world");
            }
            SinewBody body;
            SinewException.Check(NativeMethods.sinew_cloth_create_skirt(world.Handle, &desc, &body));
            return new Cloth(world, body);
        }

        static unsafe Cloth CreateMesh(World world, ReadOnlySpan<SinewVec3> positions, ReadOnlySpan<uint> indices,
            ReadOnlySpan<float> inverseMasses, SinewClothMeshDesc desc)
        {
            if (world == null)
            {
                throw new ArgumentNullException("world");
            }
            fixed (SinewVec3* p = &MemoryMarshal.GetReference(positions))
            fixed (uint* i = &MemoryMarshal.GetReference(indices))
            fixed (float* w = &MemoryMarshal.GetReference(inverseMasses))
            {
                desc.positions = p;
                desc.vertex_count = Blit.Count(positions.Length);
                desc.indices = i;
                desc.index_count = Blit.Count(indices.Length);
                desc.inverse_masses = w;
                desc.inverse_mass_count = Blit.Count(inverseMasses.Length);
                SinewBody body;
                SinewException.Check(NativeMethods.sinew_cloth_create_mesh(world.Handle, &desc, &body));
                return new Cloth(world, body);
            }
        }
    }
}
