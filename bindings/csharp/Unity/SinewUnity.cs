// Hand-written. NativeArray overloads for Unity 2021.2+ (the first Unity with Span<T> in
// its .NET Standard 2.1 profile). Compiled only inside Unity: outside it this file is empty,
// so the core wrapper builds on plain Mono/.NET without UnityEngine.
#if UNITY_2021_2_OR_NEWER
using System;
using Unity.Collections;
using Unity.Collections.LowLevel.Unsafe;

namespace Sinew
{
    /// <summary>
    /// <c>NativeArray&lt;T&gt;</c> versions of the bulk calls of <see cref="Body"/>: the array's own
    /// memory is passed to the library, with no copy. <c>T</c> is a 12-byte vector struct such
    /// as <c>Vector3</c>, or a 64-byte matrix such as <c>Matrix4x4</c> for bone matrices
    /// (checked, as for spans).
    /// </summary>
    public static unsafe class SinewUnityExtensions
    {
        /// <summary>Reads vertex positions straight into <paramref name="destination"/>
        /// (e.g. the vertex stream of a <c>Mesh.MeshData</c>).</summary>
        public static void ReadPositions<T>(this Body body, NativeArray<T> destination) where T : struct
        {
            body.ReadPositions(new Span<T>(NativeArrayUnsafeUtility.GetUnsafePtr(destination), destination.Length));
        }

        /// <summary>Reads vertex normals straight into <paramref name="destination"/>.</summary>
        public static void ReadNormals<T>(this Body body, NativeArray<T> destination) where T : struct
        {
            body.ReadNormals(new Span<T>(NativeArrayUnsafeUtility.GetUnsafePtr(destination), destination.Length));
        }

        /// <summary>Moves pinned vertices <paramref name="indices"/> to <paramref name="positions"/>
        /// over the next step (see <see cref="Body.SetPinTargets{T}(ReadOnlySpan{int}, ReadOnlySpan{T})"/>).</summary>
        public static void SetPinTargets<T>(this Body body, NativeArray<int> indices, NativeArray<T> positions) where T : struct
        {
            body.SetPinTargets(
                new ReadOnlySpan<int>(NativeArrayUnsafeUtility.GetUnsafeReadOnlyPtr(indices), indices.Length),
                new ReadOnlySpan<T>(NativeArrayUnsafeUtility.GetUnsafeReadOnlyPtr(positions), positions.Length));
        }

        /// <summary>This frame's bone matrices straight from <paramref name="matrices"/> (e.g. filled by a
        /// job from a <c>TransformAccessArray</c>); see <see cref="Body.SetBoneMatrices{TMatrix}(ReadOnlySpan{TMatrix})"/>.</summary>
        public static void SetBoneMatrices<T>(this Body body, NativeArray<T> matrices) where T : struct
        {
            body.SetBoneMatrices(new ReadOnlySpan<T>(NativeArrayUnsafeUtility.GetUnsafeReadOnlyPtr(matrices), matrices.Length));
        }

        /// <summary>Reads the triangles straight into <paramref name="destination"/> (e.g. an index
        /// buffer after a tear); see <see cref="Body.ReadIndices(Span{int})"/>.</summary>
        public static void ReadIndices(this Body body, NativeArray<int> destination)
        {
            body.ReadIndices(new Span<int>(NativeArrayUnsafeUtility.GetUnsafePtr(destination), destination.Length));
        }
    }
}
#endif
