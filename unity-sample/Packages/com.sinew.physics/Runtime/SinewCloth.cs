// Hand-written. A mesh cloth made from the render mesh of a SkinnedMeshRenderer or
// MeshFilter, pinned where the mesh is painted, written back into a mesh every frame.
using System;
using System.Collections.Generic;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// Simulates the mesh of this GameObject's <c>SkinnedMeshRenderer</c> or <c>MeshFilter</c> as
    /// cloth (<c>sinew_cloth_create_mesh</c>: vertices split at UV seams are welded, and results
    /// come back in the mesh's own vertex order). Painted vertices are pinned: they follow the
    /// animated (skinned) or transformed mesh every frame, and the rest of the cloth hangs from them.
    /// </summary>
    /// <remarks>
    /// <para>Output: for a <c>MeshFilter</c>, the filter gets a dynamic copy of its mesh while the
    /// component is enabled (the original is put back when it is disabled). For a
    /// <c>SkinnedMeshRenderer</c>, a hidden child "Sinew Cloth Output" (MeshFilter + MeshRenderer
    /// with the same materials) draws the cloth and the skinned renderer is switched off with
    /// <c>forceRenderingOff</c>; the skinned renderer still animates and is baked for the pins.</para>
    /// <para>The source mesh must be readable (Read/Write enabled in its import settings).
    /// Changing pins or the mesh at run time needs <see cref="SinewBodyBehaviour.Rebuild"/>.</para>
    /// <para>No per-frame managed allocation: every array and list is sized once when the cloth is built.</para>
    /// </remarks>
    [DisallowMultipleComponent]
    [AddComponentMenu("Sinew/Sinew Cloth")]
    public sealed class SinewCloth : SinewBodyBehaviour
    {
        /// <summary>Where the pinned vertices come from.</summary>
        public enum PinSource
        {
            /// <summary>A colour channel of the mesh's vertex colours, at or above the threshold.</summary>
            VertexColor = 0,

            /// <summary>One weight per vertex in <see cref="pinWeights"/>, at or above the threshold.</summary>
            WeightList = 1,

            /// <summary>Nothing is pinned: the whole mesh falls (with colliders to catch it).</summary>
            None = 2,
        }

        /// <summary>A channel of <c>Mesh.colors</c>.</summary>
        public enum ColorChannel
        {
            Red = 0,
            Green = 1,
            Blue = 2,
            Alpha = 3,
        }

        [Header("Pins")]
        [Tooltip("Vertex Color: vertices painted in the channel below are pinned to the animated mesh (like Unity Cloth's Max Distance 0). Weight List: one weight per vertex in Pin Weights. None: nothing is pinned.")]
        public PinSource pinSource = PinSource.VertexColor;

        [Tooltip("Colour channel read when Pin Source is Vertex Color (0 = free, 1 = pinned).")]
        public ColorChannel pinChannel = ColorChannel.Red;

        [Tooltip("A vertex is pinned when its colour channel or weight is at least this (0–1).")]
        [Range(0f, 1f)]
        public float pinThreshold = 0.5f;

        [Tooltip("Per-vertex pin weights (0 = free, 1 = pinned), in the mesh's vertex order; used when Pin Source is Weight List. Its length must be the mesh's vertex count.")]
        public float[] pinWeights = new float[0];

        [Header("Mesh")]
        [Tooltip("Vertices closer than this (m) are simulated as one particle, so seams split for UVs or normals do not tear open.")]
        [Min(0f)]
        public float weldDistance = 1e-5f;

        [Tooltip("Also write the simulated normals (area-weighted, unit length) into the mesh each frame. Off: the mesh keeps its original normals.")]
        public bool writeNormals = true;

        [Tooltip("When the character's root (the skinned root bone, or this Transform) moves farther than this in one frame (m), the cloth is carried along rigidly instead of being dragged and stretched. 0 = never.")]
        [Min(0f)]
        public float teleportDistance = 2f;

        SkinnedMeshRenderer skinned;
        MeshFilter filter;
        Mesh originalFilterMesh;
        Mesh outputMesh;
        Mesh bakedMesh;
        GameObject outputObject;
        Transform outputSpace;
        Transform teleportReference;
        Vector3 lastRootPosition;
        Quaternion lastRootRotation;

        Vector3[] restLocal;
        int[] pinIndices;
        Vector3[] pinTargets;
        Vector3[] positions;
        Vector3[] normals;
        List<Vector3> baked;

        /// <summary>Vertices of the source mesh (and of the output mesh).</summary>
        public int VertexCount
        {
            get { return positions != null ? positions.Length : 0; }
        }

        /// <summary>Vertices that follow the animated mesh.</summary>
        public int PinnedCount
        {
            get { return pinIndices != null ? pinIndices.Length : 0; }
        }

        /// <summary>The mesh the simulation is written into (null while disabled).</summary>
        public Mesh OutputMesh
        {
            get { return outputMesh; }
        }

        /// <summary>
        /// The vertices of <paramref name="mesh"/> that <paramref name="source"/> pins, exactly as
        /// <see cref="SinewCloth"/> reads them, for giving another solver the same pins
        /// (the benchmark sample does so for Unity's Cloth).
        /// </summary>
        public static bool[] FindPinnedVertices(Mesh mesh, PinSource source, ColorChannel channel, float threshold, float[] weights)
        {
            if (mesh == null)
            {
                throw new ArgumentNullException("mesh");
            }
            int n = mesh.vertexCount;
            var pinned = new bool[n];
            if (source == PinSource.VertexColor)
            {
                Color[] colors = mesh.colors;
                if (colors == null || colors.Length != n)
                {
                    throw new InvalidOperationException("Pin Source is Vertex Color but mesh '" + mesh.name
                        + "' has no vertex colours: paint the pinned vertices, or choose Weight List");
                }
                for (int i = 0; i < n; i++)
                {
                    pinned[i] = Channel(colors[i], channel) >= threshold;
                }
            }
            else if (source == PinSource.WeightList)
            {
                if (weights == null || weights.Length != n)
                {
                    throw new InvalidOperationException("Pin Weights has " + (weights == null ? 0 : weights.Length)
                        + " entries but mesh '" + mesh.name + "' has " + n + " vertices");
                }
                for (int i = 0; i < n; i++)
                {
                    pinned[i] = weights[i] >= threshold;
                }
            }
            return pinned;
        }

        static float Channel(Color c, ColorChannel channel)
        {
            switch (channel)
            {
                case ColorChannel.Green:
                    return c.g;
                case ColorChannel.Blue:
                    return c.b;
                case ColorChannel.Alpha:
                    return c.a;
                default:
                    return c.r;
            }
        }

        internal override Body CreateBody(World native)
        {
            skinned = GetComponent<SkinnedMeshRenderer>();
            filter = skinned == null ? GetComponent<MeshFilter>() : null;
            if (skinned == null && filter == null)
            {
                throw new InvalidOperationException("SinewCloth needs a SkinnedMeshRenderer or a MeshFilter on the same GameObject");
            }
            Mesh source = skinned != null ? skinned.sharedMesh : filter.sharedMesh;
            if (source == null)
            {
                throw new InvalidOperationException("the " + (skinned != null ? "SkinnedMeshRenderer" : "MeshFilter") + " has no mesh");
            }
            if (!source.isReadable)
            {
                throw new InvalidOperationException("mesh '" + source.name + "' is not readable: enable Read/Write in its import settings");
            }

            int n = source.vertexCount;
            restLocal = source.vertices;
            int[] triangles = source.triangles;
            bool[] pinned = FindPinnedVertices(source, pinSource, pinChannel, pinThreshold, pinWeights);

            int pinCount = 0;
            for (int i = 0; i < n; i++)
            {
                if (pinned[i])
                {
                    pinCount++;
                }
            }
            pinIndices = new int[pinCount];
            pinTargets = new Vector3[pinCount];
            var inverseMasses = new float[n];
            float w = 1f / physicsMaterial.particleMass;
            for (int i = 0, k = 0; i < n; i++)
            {
                inverseMasses[i] = pinned[i] ? 0f : w;
                if (pinned[i])
                {
                    pinIndices[k++] = i;
                }
            }

            positions = new Vector3[n];
            normals = new Vector3[n];
            if (skinned != null)
            {
                bakedMesh = new Mesh();
                bakedMesh.name = source.name + " (Sinew bake)";
                bakedMesh.hideFlags = HideFlags.HideAndDontSave;
                baked = new List<Vector3>(n);
                teleportReference = skinned.rootBone != null ? skinned.rootBone : transform;
            }
            else
            {
                teleportReference = transform;
            }
            // The cloth starts in the current (animated) pose, in world space.
            CurrentPose(positions);

            SinewClothMeshDesc desc = SinewClothMeshDesc.Default;
            desc.weld_distance = weldDistance;
            desc.material = physicsMaterial.ToNative();
            Cloth cloth = Cloth.CreateMesh(native, positions, triangles, inverseMasses, desc);

            CreateOutput(source);
            lastRootPosition = teleportReference.position;
            lastRootRotation = teleportReference.rotation;
            return cloth;
        }

        // World-space positions of the mesh as animated this frame (every vertex).
        void CurrentPose(Vector3[] destination)
        {
            Matrix4x4 toWorld = transform.localToWorldMatrix;
            if (skinned != null)
            {
                BakeSkinned();
                for (int i = 0; i < destination.Length; i++)
                {
                    destination[i] = toWorld.MultiplyPoint3x4(baked[i]);
                }
            }
            else
            {
                for (int i = 0; i < destination.Length; i++)
                {
                    destination[i] = toWorld.MultiplyPoint3x4(restLocal[i]);
                }
            }
        }

        // CPU-skins the renderer into the reused bakedMesh and copies its vertices into the
        // reused list (GetVertices into a List with enough capacity does not allocate).
        // useScale: true bakes in the renderer's local space including its scale, so that
        // localToWorldMatrix takes the result to world space (Unity 2020.2+; the two readings of
        // the documentation agree at scale 1).
        void BakeSkinned()
        {
            skinned.BakeMesh(bakedMesh, true);
            bakedMesh.GetVertices(baked);
        }

        void CreateOutput(Mesh source)
        {
            outputMesh = Instantiate(source);
            outputMesh.name = source.name + " (Sinew)";
            outputMesh.hideFlags = HideFlags.DontSave;
            outputMesh.MarkDynamic();
            if (skinned != null)
            {
                // A renderer cannot share a GameObject with another renderer: draw from a child
                // with an identity local transform, so its space is this Transform's space.
                outputObject = new GameObject("Sinew Cloth Output");
                outputObject.hideFlags = HideFlags.DontSave;
                outputObject.layer = gameObject.layer;
                outputObject.transform.SetParent(transform, false);
                outputObject.AddComponent<MeshFilter>().sharedMesh = outputMesh;
                MeshRenderer renderer = outputObject.AddComponent<MeshRenderer>();
                renderer.sharedMaterials = skinned.sharedMaterials;
                renderer.shadowCastingMode = skinned.shadowCastingMode;
                renderer.receiveShadows = skinned.receiveShadows;
                skinned.forceRenderingOff = true;
                outputSpace = outputObject.transform;
            }
            else
            {
                originalFilterMesh = filter.sharedMesh;
                filter.sharedMesh = outputMesh;
                outputSpace = transform;
            }
        }

        internal override void PrepareStep(float dt)
        {
            Body body = Body;
            if (teleportDistance > 0f)
            {
                Vector3 p = teleportReference.position;
                Quaternion r = teleportReference.rotation;
                if ((p - lastRootPosition).sqrMagnitude > teleportDistance * teleportDistance)
                {
                    // x' = p1 + R1·R0⁻¹·(x − p0): rigid, so velocities turn with it and nothing flies off.
                    Matrix4x4 delta = Matrix4x4.TRS(p, r * Quaternion.Inverse(lastRootRotation), Vector3.one)
                        * Matrix4x4.Translate(-lastRootPosition);
                    body.Teleport(delta);
                }
                lastRootPosition = p;
                lastRootRotation = r;
            }
            if (pinIndices.Length == 0)
            {
                return;
            }
            UpdatePinTargets();
            body.SetPinTargets(pinIndices, pinTargets);
        }

        // ---- EXTENSION POINT: native skinning --------------------------------------------------
        // Today the pinned vertices follow the animation because their targets are computed here,
        // on the main thread: a SkinnedMeshRenderer is baked on the CPU (BakeMesh skins every
        // vertex) and each pinned vertex is taken to world space, then Body.SetPinTargets sends
        // them. The C ABI now also has sinew_body_set_skinning and sinew_body_set_bone_matrices
        // (ABI 3, declared in NativeMethods.g.cs); once the hand-written wrapper exposes them,
        // replace this with
        //   once, in CreateBody:  body.SetSkinning(mesh.boneWeights, mesh.bindposes, bones.Length)
        //   per frame, here:      boneMatrices[b] = skinned.bones[b].localToWorldMatrix;
        //                         body.SetBoneMatrices(boneMatrices)
        // so the library skins the pins on its worker threads, and max distances / backstops
        // (sinew_body_set_max_distances / _set_backstops, Unity Cloth's coefficients) can be
        // painted too. Until then a MeshFilter cloth costs one matrix multiply per pinned vertex
        // and a skinned one a full CPU skin per frame.
        void UpdatePinTargets()
        {
            Matrix4x4 toWorld = transform.localToWorldMatrix;
            if (skinned != null)
            {
                BakeSkinned();
                for (int k = 0; k < pinIndices.Length; k++)
                {
                    pinTargets[k] = toWorld.MultiplyPoint3x4(baked[pinIndices[k]]);
                }
            }
            else
            {
                for (int k = 0; k < pinIndices.Length; k++)
                {
                    pinTargets[k] = toWorld.MultiplyPoint3x4(restLocal[pinIndices[k]]);
                }
            }
        }

        internal override void AfterStep()
        {
            Body body = Body;
            body.ReadPositions(positions);
            if (writeNormals)
            {
                body.ReadNormals(normals);
            }
            // Sinew simulates in world space; the mesh is drawn in outputSpace. The same pass
            // finds the local bounds, which setting vertices does not update (Mesh.RecalculateBounds
            // would take a second pass), so that culling sees where the cloth is now.
            Matrix4x4 toLocal = outputSpace.worldToLocalMatrix;
            Vector3 min = new Vector3(float.MaxValue, float.MaxValue, float.MaxValue);
            Vector3 max = new Vector3(float.MinValue, float.MinValue, float.MinValue);
            for (int i = 0; i < positions.Length; i++)
            {
                Vector3 p = toLocal.MultiplyPoint3x4(positions[i]);
                positions[i] = p;
                min.x = Mathf.Min(min.x, p.x);
                min.y = Mathf.Min(min.y, p.y);
                min.z = Mathf.Min(min.z, p.z);
                max.x = Mathf.Max(max.x, p.x);
                max.y = Mathf.Max(max.y, p.y);
                max.z = Mathf.Max(max.z, p.z);
            }
            outputMesh.SetVertices(positions);
            outputMesh.bounds = new Bounds((min + max) * 0.5f, max - min);
            if (writeNormals)
            {
                for (int i = 0; i < normals.Length; i++)
                {
                    normals[i] = toLocal.MultiplyVector(normals[i]).normalized;
                }
                outputMesh.SetNormals(normals);
            }
        }

        internal override void ReleaseResources()
        {
            if (filter != null && originalFilterMesh != null)
            {
                filter.sharedMesh = originalFilterMesh;
            }
            if (skinned != null)
            {
                skinned.forceRenderingOff = false;
            }
            if (outputObject != null)
            {
                Destroy(outputObject);
            }
            if (outputMesh != null)
            {
                Destroy(outputMesh);
            }
            if (bakedMesh != null)
            {
                Destroy(bakedMesh);
            }
            originalFilterMesh = null;
            outputObject = null;
            outputMesh = null;
            bakedMesh = null;
            baked = null;
            outputSpace = null;
        }
    }
}
