// bindings/csharp/Unity/SinewUnity.cs, compiled with UNITY_2021_2_OR_NEWER against the
// stand-ins of UnityStubs.cs: NativeArray readback and pin targets agree with arrays.
using System;
using Unity.Collections;

namespace Sinew.Tests
{
    struct Vector3
    {
        public float x, y, z;

        public Vector3(float x, float y, float z)
        {
            this.x = x;
            this.y = y;
            this.z = z;
        }
    }

    /// <summary>Unity's Matrix4x4 layout: 16 floats, column by column.</summary>
    struct Matrix4x4
    {
        public float m00, m10, m20, m30, m01, m11, m21, m31, m02, m12, m22, m32, m03, m13, m23, m33;

        public static Matrix4x4 Translate(float x, float y, float z)
        {
            Matrix4x4 m = default(Matrix4x4);
            m.m00 = m.m11 = m.m22 = m.m33 = 1f;
            m.m03 = x;
            m.m13 = y;
            m.m23 = z;
            return m;
        }
    }

    struct BoneWeight
    {
        public float weight0, weight1, weight2, weight3;
        public int boneIndex0, boneIndex1, boneIndex2, boneIndex3;
    }

    static class UnityExtensionTests
    {
        static int Main()
        {
            Check.Group("NativeArray extensions (Unity/SinewUnity.cs)", () =>
            {
                using (var world = new World())
                {
                    Cloth cloth = Cloth.CreateGrid(world, SinewClothGridDesc.Default);
                    int n = cloth.VertexCount;
                    var indices = new NativeArray<int>(1, Allocator.Persistent);
                    var targets = new NativeArray<Vector3>(1, Allocator.Persistent);
                    var positions = new NativeArray<Vector3>(n, Allocator.Persistent);
                    var normals = new NativeArray<Vector3>(n, Allocator.Persistent);
                    try
                    {
                        var start = new Vector3[n];
                        cloth.ReadPositions(start);
                        indices[0] = 0;
                        targets[0] = new Vector3(start[0].x, start[0].y + 0.05f, start[0].z);
                        cloth.SetPinTargets(indices, targets);
                        world.Step(1f / 60f);

                        var array = new Vector3[n];
                        cloth.ReadPositions(array);
                        cloth.ReadPositions(positions);
                        bool same = true;
                        for (int i = 0; i < n; i++)
                        {
                            same &= positions[i].x == array[i].x && positions[i].y == array[i].y && positions[i].z == array[i].z;
                        }
                        Check.That(same, "ReadPositions(NativeArray<Vector3>) equals ReadPositions(Vector3[])");
                        Check.That(Math.Abs(positions[0].y - (start[0].y + 0.05f)) < 1e-5f, "SetPinTargets(NativeArray<int>, NativeArray<Vector3>) moved the pin");

                        cloth.ReadNormals(normals);
                        Check.That(Math.Abs(normals[n / 2].y) > 0.5f, "ReadNormals(NativeArray<Vector3>) writes normals");

                        var shortArray = new NativeArray<Vector3>(n - 1, Allocator.Persistent);
                        Check.ThrowsSinew("a NativeArray one short", SinewResult.SINEW_BUFFER_TOO_SMALL, () => cloth.ReadPositions(shortArray));
                        shortArray.Dispose();
                    }
                    finally
                    {
                        indices.Dispose();
                        targets.Dispose();
                        positions.Dispose();
                        normals.Dispose();
                    }
                }
            });
            Check.Group("NativeArray extensions: bone matrices and indices", () =>
            {
                using (var world = new World())
                {
                    Cloth cloth = Cloth.CreateGrid(world, SinewClothGridDesc.Default);
                    int n = cloth.VertexCount;
                    var weights = new BoneWeight[n];
                    for (int i = 0; i < n; i++)
                    {
                        weights[i].weight0 = 1f;
                    }
                    cloth.SetSkinning(weights, 1);
                    var bones = new NativeArray<Matrix4x4>(1, Allocator.Persistent);
                    var indices = new NativeArray<int>(cloth.IndexCount, Allocator.Persistent);
                    try
                    {
                        var start = new Vector3[n];
                        cloth.ReadPositions(start);
                        bones[0] = Matrix4x4.Translate(0f, 0f, 0f);
                        cloth.SetBoneMatrices(bones);
                        bones[0] = Matrix4x4.Translate(0f, 0.05f, 0f);
                        cloth.SetBoneMatrices(bones);
                        world.Step(1f / 60f);
                        var now = new Vector3[n];
                        cloth.ReadPositions(now);
                        Check.That(Math.Abs(now[0].y - (start[0].y + 0.05f)) < 1e-5f, "SetBoneMatrices(NativeArray<Matrix4x4>) moves the skinned pins");

                        cloth.ReadIndices(indices);
                        var array = new int[cloth.IndexCount];
                        cloth.ReadIndices(array);
                        bool same = true;
                        for (int i = 0; i < array.Length; i++)
                        {
                            same &= indices[i] == array[i];
                        }
                        Check.That(same && array.Length > 0, "ReadIndices(NativeArray<int>) equals ReadIndices(int[])");
                    }
                    finally
                    {
                        bones.Dispose();
                        indices.Dispose();
                    }
                }
            });
            return Check.Finish("UnityExtensionTests");
        }
    }
}
