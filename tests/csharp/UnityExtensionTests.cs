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
            return Check.Finish("UnityExtensionTests");
        }
    }
}
