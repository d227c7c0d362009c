// Hand-written. Conveniences on the generated structs (they are partial) and the layout check
// that lets any 12-byte vector, 64-byte matrix or 32-byte bone weight struct cross the boundary
// without a copy. The structs and the mode enums (SinewPinMode, SinewShape, SinewBodyKind,
// SinewTetherMode, SinewKernel, SinewStrandsMode, SinewMaterialPreset) are csbindgen's, in NativeMethods.g.cs; the
// descriptors keep those fields as uint (as in C), so the properties below give them typed.
using System;
using System.Runtime.InteropServices;

namespace Sinew
{
    public partial struct SinewVec3
    {
        public SinewVec3(float x, float y, float z)
        {
            this.x = x;
            this.y = y;
            this.z = z;
        }

        /// <summary>Any plain 12-byte vector struct (e.g. Unity's <c>Vector3</c>) as a <see cref="SinewVec3"/>, bit for bit.</summary>
        public static SinewVec3 From<TVector>(TVector v) where TVector : struct
        {
            Blit.Require<TVector>(Blit.Vec3Size, "v");
            return MemoryMarshal.Cast<TVector, SinewVec3>(MemoryMarshal.CreateReadOnlySpan(ref v, 1))[0];
        }

        public override string ToString()
        {
            return "(" + x + ", " + y + ", " + z + ")";
        }
    }

    public partial struct SinewQuat
    {
        public SinewQuat(float x, float y, float z, float w)
        {
            this.x = x;
            this.y = y;
            this.z = z;
            this.w = w;
        }

        public static SinewQuat Identity
        {
            get { return new SinewQuat(0f, 0f, 0f, 1f); }
        }
    }

    public unsafe partial struct SinewMat4
    {
        /// <summary>The identity transform.</summary>
        public static SinewMat4 Identity
        {
            get { return Translation(0f, 0f, 0f); }
        }

        /// <summary>Any plain 64-byte column-major matrix struct (e.g. Unity's <c>Matrix4x4</c>,
        /// such as <c>transform.localToWorldMatrix</c>) as a <see cref="SinewMat4"/>, bit for bit.</summary>
        public static SinewMat4 From<TMatrix>(TMatrix m) where TMatrix : struct
        {
            Blit.Require<TMatrix>(Blit.Mat4Size, "m");
            return MemoryMarshal.Cast<TMatrix, SinewMat4>(MemoryMarshal.CreateReadOnlySpan(ref m, 1))[0];
        }

        /// <summary>A pure translation (column-major, translation in m[12..14]).</summary>
        public static SinewMat4 Translation(float x, float y, float z)
        {
            SinewMat4 r = default(SinewMat4);
            r.m[0] = 1f;
            r.m[5] = 1f;
            r.m[10] = 1f;
            r.m[15] = 1f;
            r.m[12] = x;
            r.m[13] = y;
            r.m[14] = z;
            return r;
        }
    }

    public unsafe partial struct SinewWorldDesc
    {
        /// <summary>The library's default world settings (<c>sinew_world_desc_default</c>).</summary>
        public static SinewWorldDesc Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewWorldDesc d;
                SinewException.Check(NativeMethods.sinew_world_desc_default(&d));
                return d;
            }
        }

        /// <summary><see cref="kernel"/> as an enum.</summary>
        public SinewKernel Kernel
        {
            get { return (SinewKernel)kernel; }
            set { kernel = (uint)value; }
        }
    }

    public unsafe partial struct SinewMaterial
    {
        /// <summary>The library's default material (<c>sinew_material_default</c>).</summary>
        public static SinewMaterial Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewMaterial m;
                SinewException.Check(NativeMethods.sinew_material_default(&m));
                return m;
            }
        }

        /// <summary>A material preset in physical units (<c>sinew_material_preset</c>): a
        /// fabric's areal density (kg/m²), bending (N·m) and membrane (N/m) stiffness, a rope's or
        /// hair's linear density (kg/m), a solid's density (kg/m³) and Young's modulus. The table
        /// and its sources: docs/materials.md.</summary>
        /// <exception cref="SinewException">SINEW_INVALID_ARGUMENT for a value no preset has.</exception>
        public static SinewMaterial Preset(SinewMaterialPreset preset)
        {
            SinewLibrary.EnsureCompatible();
            SinewMaterial m;
            SinewException.Check(NativeMethods.sinew_material_preset((uint)preset, &m));
            return m;
        }

        /// <summary><see cref="self_collision"/> as a bool: particles of the body keep
        /// 2 × <see cref="thickness"/> apart from each other.</summary>
        public bool SelfCollision
        {
            get { return self_collision != 0; }
            set { self_collision = value ? 1u : 0u; }
        }

        /// <summary>True when the body meets a collider on <paramref name="colliderLayers"/>
        /// (<c>layers &amp; collision_mask != 0</c>).</summary>
        public bool Meets(uint colliderLayers)
        {
            return (colliderLayers & collision_mask) != 0;
        }
    }

    public unsafe partial struct SinewClothGridDesc
    {
        /// <summary>The library's default grid (<c>sinew_cloth_grid_desc_default</c>). Leave
        /// <c>pin_indices</c> null: pass a list of pins to <c>Cloth.CreateGrid</c> instead.</summary>
        public static SinewClothGridDesc Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewClothGridDesc d;
                SinewException.Check(NativeMethods.sinew_cloth_grid_desc_default(&d));
                return d;
            }
        }

        /// <summary><see cref="pin_mode"/> as an enum.</summary>
        public SinewPinMode PinMode
        {
            get { return (SinewPinMode)pin_mode; }
            set { pin_mode = (uint)value; }
        }
    }

    public unsafe partial struct SinewClothMeshDesc
    {
        /// <summary>The library's default mesh settings (<c>sinew_cloth_mesh_desc_default</c>). Only
        /// <c>weld_distance</c> and <c>material</c> are read by <c>Cloth.CreateMesh</c>; the arrays are
        /// passed to it separately.</summary>
        public static SinewClothMeshDesc Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewClothMeshDesc d;
                SinewException.Check(NativeMethods.sinew_cloth_mesh_desc_default(&d));
                return d;
            }
        }
    }

    public unsafe partial struct SinewRopeDesc
    {
        /// <summary>The library's default rope settings (<c>sinew_rope_desc_default</c>). Only
        /// <c>bend</c> and <c>material</c> are read by <c>Rope.Create</c>; the arrays are passed to it
        /// separately.</summary>
        public static SinewRopeDesc Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewRopeDesc d;
                SinewException.Check(NativeMethods.sinew_rope_desc_default(&d));
                return d;
            }
        }
    }

    public unsafe partial struct SinewColliderDesc
    {
        /// <summary>The library's default collider (<c>sinew_collider_desc_default</c>).</summary>
        public static SinewColliderDesc Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewColliderDesc d;
                SinewException.Check(NativeMethods.sinew_collider_desc_default(&d));
                return d;
            }
        }

        /// <summary><see cref="shape"/> as an enum.</summary>
        public SinewShape Shape
        {
            get { return (SinewShape)shape; }
            set { shape = (uint)value; }
        }

        /// <summary>A sphere of <paramref name="radius"/> (m); the rest from <see cref="Default"/>.</summary>
        public static SinewColliderDesc Sphere(float radius, uint layers = 1u)
        {
            SinewColliderDesc d = Default;
            d.shape = (uint)SinewShape.SINEW_SHAPE_SPHERE;
            d.radius = radius;
            d.layers = layers;
            return d;
        }

        /// <summary>A tapered capsule along local Y: <paramref name="radius0"/> at −<paramref name="halfHeight"/>,
        /// <paramref name="radius1"/> at +<paramref name="halfHeight"/> (m); the rest from <see cref="Default"/>.</summary>
        public static SinewColliderDesc Capsule(float halfHeight, float radius0, float radius1, uint layers = 1u)
        {
            SinewColliderDesc d = Default;
            d.shape = (uint)SinewShape.SINEW_SHAPE_CAPSULE;
            d.half_height = halfHeight;
            d.radius0 = radius0;
            d.radius1 = radius1;
            d.layers = layers;
            return d;
        }

        /// <summary>A half-space, solid below the local XZ plane; the rest from <see cref="Default"/>.</summary>
        public static SinewColliderDesc Plane(uint layers = 1u)
        {
            SinewColliderDesc d = Default;
            d.shape = (uint)SinewShape.SINEW_SHAPE_PLANE;
            d.layers = layers;
            return d;
        }

        /// <summary>An oriented box of <paramref name="halfExtents"/> (m); the rest from <see cref="Default"/>.</summary>
        public static SinewColliderDesc Box(SinewVec3 halfExtents, uint layers = 1u)
        {
            SinewColliderDesc d = Default;
            d.shape = (uint)SinewShape.SINEW_SHAPE_BOX;
            d.half_extents = halfExtents;
            d.layers = layers;
            return d;
        }
    }

    public unsafe partial struct SinewColliderMeshDesc
    {
        /// <summary>The library's default mesh collider (<c>sinew_collider_mesh_desc_default</c>): a 2 m
        /// floor of two triangles in the library's static memory, layer 1, identity transform.</summary>
        public static SinewColliderMeshDesc Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewColliderMeshDesc d;
                SinewException.Check(NativeMethods.sinew_collider_mesh_desc_default(&d));
                return d;
            }
        }
    }

    public partial struct SinewBodyInfo
    {
        /// <summary><see cref="kind"/> as an enum.</summary>
        public SinewBodyKind Kind
        {
            get { return (SinewBodyKind)kind; }
        }

        /// <summary><see cref="frozen"/> as a bool: LOD keeps the body still this frame.</summary>
        public bool IsFrozen
        {
            get { return frozen != 0; }
        }
    }

    public partial struct SinewEvent
    {
        /// <summary><see cref="kind"/> as an enum.</summary>
        public SinewEventKind Kind
        {
            get { return (SinewEventKind)kind; }
        }

        /// <summary><see cref="reason"/> as an enum (for a recovery).</summary>
        public SinewRecoveryReason Reason
        {
            get { return (SinewRecoveryReason)reason; }
        }
    }

    public partial struct SinewBoneWeight
    {
        /// <summary>A vertex on one bone with weight 1.</summary>
        public static SinewBoneWeight Single(int bone)
        {
            SinewBoneWeight w = default(SinewBoneWeight);
            w.weight0 = 1f;
            w.bone0 = bone;
            return w;
        }
    }

    public unsafe partial struct SinewDynamics
    {
        /// <summary>The library's default dynamics (<c>sinew_dynamics_default</c>): full world
        /// inertia, no speed limit, no automatic teleport, no tearing.</summary>
        public static SinewDynamics Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewDynamics d;
                SinewException.Check(NativeMethods.sinew_dynamics_default(&d));
                return d;
            }
        }
    }

    public unsafe partial struct SinewLod
    {
        /// <summary>The library's default LOD (<c>sinew_lod_default</c>): no reduction, no distance
        /// freeze, freeze while invisible. A new body has these.</summary>
        public static SinewLod Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewLod d;
                SinewException.Check(NativeMethods.sinew_lod_default(&d));
                return d;
            }
        }

        /// <summary><see cref="freeze_when_invisible"/> as a bool.</summary>
        public bool FreezeWhenInvisible
        {
            get { return freeze_when_invisible != 0; }
            set { freeze_when_invisible = value ? 1u : 0u; }
        }
    }

    public unsafe partial struct SinewWind
    {
        /// <summary>The library's default wind (<c>sinew_wind_default</c>): calm air (speed 0) with
        /// default turbulence and gusts. A new world has it.</summary>
        public static SinewWind Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewWind d;
                SinewException.Check(NativeMethods.sinew_wind_default(&d));
                return d;
            }
        }

        /// <summary><see cref="Default"/> blowing towards <paramref name="direction"/> (any plain 12-byte
        /// vector struct; the library normalises it) at <paramref name="speed"/> (m/s).</summary>
        public static SinewWind Blowing<TVector>(TVector direction, float speed) where TVector : struct
        {
            SinewWind w = Default;
            w.direction = SinewVec3.From(direction);
            w.speed = speed;
            return w;
        }
    }

    public unsafe partial struct SinewStrandsDesc
    {
        /// <summary>The library's default hair (<c>sinew_strands_desc_default</c>): straight strands,
        /// none yet, 8 particles 2 cm apart, head at the origin, a light strand material. Leave the
        /// pointer fields null: pass the points or roots to <c>Strands.Create</c> instead.</summary>
        public static SinewStrandsDesc Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewStrandsDesc d;
                SinewException.Check(NativeMethods.sinew_strands_desc_default(&d));
                return d;
            }
        }

        /// <summary><see cref="mode"/> as an enum: where the particles come from.</summary>
        public SinewStrandsMode Mode
        {
            get { return (SinewStrandsMode)mode; }
            set { mode = (uint)value; }
        }
    }

    public unsafe partial struct SinewClothCapeDesc
    {
        /// <summary>The library's default cape (<c>sinew_cloth_cape_desc_default</c>): 12 × 16, 0.5 m wide,
        /// 0.9 m long, all three bones at the origin (set them to the character's).</summary>
        public static SinewClothCapeDesc Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewClothCapeDesc d;
                SinewException.Check(NativeMethods.sinew_cloth_cape_desc_default(&d));
                return d;
            }
        }
    }

    public unsafe partial struct SinewClothSkirtDesc
    {
        /// <summary>The library's default skirt (<c>sinew_cloth_skirt_desc_default</c>): 24 × 10, radius
        /// 0.16 m at the waist to 0.3 m at the hem, 0.45 m long, waist at the origin.</summary>
        public static SinewClothSkirtDesc Default
        {
            get
            {
                SinewLibrary.EnsureCompatible();
                SinewClothSkirtDesc d;
                SinewException.Check(NativeMethods.sinew_cloth_skirt_desc_default(&d));
                return d;
            }
        }
    }

    /// <summary>
    /// The managed size of <typeparamref name="T"/>, measured once per type; -1 when it holds
    /// references and so cannot be viewed as raw memory.
    /// </summary>
    /// <remarks>
    /// C# 7.3's <c>where T : unmanaged</c> would let the compiler do this, but Mono's mcs (C# 7.2)
    /// does not know that constraint, so the wrapper takes <c>where T : struct</c> and checks here.
    /// </remarks>
    internal static class Layout<T> where T : struct
    {
        internal static readonly int Size = Measure();

        static int Measure()
        {
            try
            {
                // One allocation per type, at first use; AsBytes throws for types with references.
                return MemoryMarshal.AsBytes(new Span<T>(new T[1])).Length;
            }
            catch (ArgumentException)
            {
                return -1;
            }
        }
    }

    /// <summary>Reinterpretation of caller memory as the C vector, matrix and bone weight types.</summary>
    internal static class Blit
    {
        internal const int Vec3Size = 12;
        internal const int Mat4Size = 64;
        internal const int BoneWeightSize = 32;
        internal const int QuatSize = 16;

        /// <summary>Throws unless <typeparamref name="T"/> is a reference-free struct of <paramref name="bytes"/> bytes.</summary>
        internal static void Require<T>(int bytes, string parameter) where T : struct
        {
            int size = Layout<T>.Size;
            if (size != bytes)
            {
                throw new ArgumentException(size < 0
                    ? typeof(T).FullName + " holds references; Sinew needs a plain struct of " + bytes + " bytes (" + Describe(bytes) + ")"
                    : typeof(T).FullName + " is " + size + " bytes; Sinew needs " + bytes + " bytes (" + Describe(bytes) + ")",
                    parameter);
            }
        }

        static string Describe(int bytes)
        {
            switch (bytes)
            {
                case Vec3Size:
                    return "three floats, like Unity's Vector3";
                case Mat4Size:
                    return "16 floats, column-major, like Unity's Matrix4x4";
                case QuatSize:
                    return "four floats x, y, z, w, like Unity's Quaternion";
                default:
                    return "four float weights, then four int bone indices, like Unity's BoneWeight";
            }
        }

        /// <summary><paramref name="span"/> viewed as C vectors, after the size check.</summary>
        internal static Span<SinewVec3> AsVec3<T>(Span<T> span, string parameter) where T : struct
        {
            Require<T>(Vec3Size, parameter);
            return MemoryMarshal.Cast<T, SinewVec3>(span);
        }

        /// <summary><paramref name="span"/> viewed as C vectors, after the size check.</summary>
        internal static ReadOnlySpan<SinewVec3> AsVec3<T>(ReadOnlySpan<T> span, string parameter) where T : struct
        {
            Require<T>(Vec3Size, parameter);
            return MemoryMarshal.Cast<T, SinewVec3>(span);
        }

        /// <summary><paramref name="span"/> viewed as C matrices, after the size check.</summary>
        internal static ReadOnlySpan<SinewMat4> AsMat4<T>(ReadOnlySpan<T> span, string parameter) where T : struct
        {
            Require<T>(Mat4Size, parameter);
            return MemoryMarshal.Cast<T, SinewMat4>(span);
        }

        /// <summary><paramref name="span"/> viewed as C matrices, after the size check.</summary>
        internal static Span<SinewMat4> AsMat4<T>(Span<T> span, string parameter) where T : struct
        {
            Require<T>(Mat4Size, parameter);
            return MemoryMarshal.Cast<T, SinewMat4>(span);
        }

        /// <summary><paramref name="span"/> viewed as C quaternions, after the size check.</summary>
        internal static ReadOnlySpan<SinewQuat> AsQuat<T>(ReadOnlySpan<T> span, string parameter) where T : struct
        {
            Require<T>(QuatSize, parameter);
            return MemoryMarshal.Cast<T, SinewQuat>(span);
        }

        /// <summary><paramref name="span"/> viewed as C quaternions, after the size check.</summary>
        internal static Span<SinewQuat> AsQuat<T>(Span<T> span, string parameter) where T : struct
        {
            Require<T>(QuatSize, parameter);
            return MemoryMarshal.Cast<T, SinewQuat>(span);
        }

        /// <summary><paramref name="span"/> viewed as C bone weights, after the size check.</summary>
        internal static ReadOnlySpan<SinewBoneWeight> AsBoneWeights<T>(ReadOnlySpan<T> span, string parameter) where T : struct
        {
            Require<T>(BoneWeightSize, parameter);
            return MemoryMarshal.Cast<T, SinewBoneWeight>(span);
        }

        /// <summary>A length as the C <c>size_t</c>.</summary>
        internal static UIntPtr Count(int length)
        {
            return new UIntPtr((uint)length);
        }
    }
}
