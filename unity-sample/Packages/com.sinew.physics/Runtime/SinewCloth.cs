// Hand-written. A mesh cloth made from the render mesh of a SkinnedMeshRenderer (skinned by
// Sinew from the renderer's bones) or a MeshFilter (pins moved with the Transform), written
// back into a mesh every frame.
using System;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// Simulates the mesh of this GameObject's <c>SkinnedMeshRenderer</c> or <c>MeshFilter</c> as
    /// cloth (<c>sinew_cloth_create_mesh</c>: vertices split at UV seams are welded, and results
    /// come back in the mesh's own vertex order). Painted vertices are pinned to the animated
    /// mesh, and the rest of the cloth hangs from them, within the painted max distances and
    /// outside the backstops.
    /// </summary>
    /// <remarks>
    /// <para>Skinned meshes are skinned by Sinew itself: the mesh's bone weights and bind poses
    /// are given once (<c>Body.SetSkinning</c>) and the bones' matrices every frame
    /// (<c>Body.SetBoneMatrices</c>), so the pins follow the animation on Sinew's worker threads
    /// with no CPU skinning on the main thread. Max distances and backstops (Unity Cloth's
    /// <c>coefficients</c>) need this, so they work on skinned meshes only. A <c>MeshFilter</c>
    /// cloth moves its pins with its Transform (<c>Body.SetPinTargets</c>).</para>
    /// <para>Output: for a <c>MeshFilter</c>, the filter gets a dynamic copy of its mesh while the
    /// component is enabled (the original is put back when it is disabled). For a
    /// <c>SkinnedMeshRenderer</c>, a hidden child "Sinew Cloth Output" (MeshFilter + MeshRenderer
    /// with the same materials) draws the cloth and the skinned renderer is switched off with
    /// <c>forceRenderingOff</c>.</para>
    /// <para>The source mesh must be readable (Read/Write enabled in its import settings).
    /// Changing pins or the mesh at run time needs <see cref="SinewBodyBehaviour.Rebuild"/>; max
    /// distances, backstops and tethers are sent again after an inspector edit or
    /// <see cref="SinewBodyBehaviour.ApplySettings()"/>.</para>
    /// <para>No per-frame managed allocation: every array is sized once when the cloth is built.</para>
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

            /// <summary>The pin weights painted in the scene view (<see cref="paint"/>), at or above the threshold.</summary>
            Painted = 3,
        }

        /// <summary>Where the per-vertex max distances come from.</summary>
        public enum MaxDistanceSource
        {
            /// <summary>No limit: free vertices go as far as their constraints let them.</summary>
            None = 0,

            /// <summary>A colour channel × <see cref="maxDistanceScale"/>: 0 (black) fixes the vertex to the
            /// animated mesh, 1 lets it move <see cref="maxDistanceScale"/> metres.</summary>
            VertexColor = 1,

            /// <summary>One distance per vertex in <see cref="maxDistances"/> (m), as Unity Cloth's
            /// <c>coefficients[i].maxDistance</c>.</summary>
            FloatList = 2,

            /// <summary>The max distances painted in the scene view (<see cref="paint"/>), in metres; unpainted = no limit.</summary>
            Painted = 3,
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
        [Tooltip("Vertex Color: vertices painted in the channel below are pinned to the animated mesh (like Unity Cloth's Max Distance 0). Weight List: one weight per vertex in Pin Weights. None: nothing is pinned. Painted: the pin weights painted in the scene view (the inspector's Paint tool).")]
        public PinSource pinSource = PinSource.VertexColor;

        [Tooltip("Colour channel read when Pin Source is Vertex Color (0 = free, 1 = pinned).")]
        public ColorChannel pinChannel = ColorChannel.Red;

        [Tooltip("A vertex is pinned when its colour channel or weight is at least this (0–1).")]
        [Range(0f, 1f)]
        public float pinThreshold = 0.5f;

        [Tooltip("Per-vertex pin weights (0 = free, 1 = pinned), in the mesh's vertex order; used when Pin Source is Weight List. Its length must be the mesh's vertex count.")]
        public float[] pinWeights = new float[0];

        [Header("Max distance (skinned meshes)")]
        [Tooltip("How far each vertex may move from its animated (skinned) position, as Unity Cloth's coefficients[i].maxDistance. None: no limit. Vertex Color: the channel below × Max Distance Scale (black = fixed to the animation). Float List: Max Distances, in metres. Painted: the max distances painted in the scene view. Needs a SkinnedMeshRenderer.")]
        public MaxDistanceSource maxDistanceSource = MaxDistanceSource.None;

        [Tooltip("Colour channel read when Max Distance Source is Vertex Color (0–1, times Max Distance Scale). Green by default, so that it does not mix with the red pin paint.")]
        public ColorChannel maxDistanceChannel = ColorChannel.Green;

        [Tooltip("Max distance (m) of a vertex whose channel is 1 when Max Distance Source is Vertex Color.")]
        [Min(0f)]
        public float maxDistanceScale = 0.1f;

        [Tooltip("Per-vertex max distances (m), in the mesh's vertex order, when Max Distance Source is Float List: 0 = fixed to the animation; negative or float.MaxValue (Unity's 'no limit') = free. Its length must be the mesh's vertex count.")]
        public float[] maxDistances = new float[0];

        [Header("Backstop (skinned meshes)")]
        [Tooltip("Keep vertices from going behind the animated surface (into the body), as Unity Cloth's collisionSphereDistance: each vertex stays outside a sphere placed behind its skinned position, against the skinned normal. Needs a SkinnedMeshRenderer.")]
        public bool useBackstop = false;

        [Tooltip("How far behind its skinned position (m) a vertex may go before the backstop sphere stops it (Unity Cloth's collisionSphereDistance), for every vertex not listed in Backstop Distances.")]
        [Min(0f)]
        public float backstopDistance = 0f;

        [Tooltip("Radius of each vertex's backstop sphere (m). Larger spheres are flatter, closer to a plane behind the vertex; make it about the body part's radius.")]
        [Min(0f)]
        public float backstopRadius = 1f;

        [Tooltip("Optional per-vertex backstop distances (m), in the mesh's vertex order, overriding Backstop Distance; negative or float.MaxValue = no backstop for that vertex. Empty: Backstop Distance for all.")]
        public float[] backstopDistances = new float[0];

        [Tooltip("Use the backstop distances painted in the scene view (unpainted vertices: no backstop) instead of Backstop Distance / Backstop Distances.")]
        public bool backstopPainted = false;

        [Header("Painted values")]
        [Tooltip("Per-vertex values painted in the scene view with the inspector's Paint tool (pins, max distances, backstops, mass): stored with the component, one value per mesh vertex. Used by the sources set to Painted above.")]
        public SinewVertexPaint paint = new SinewVertexPaint();

        [Tooltip("Scale each particle's mass by the painted Mass Scale (a weighted hem, a heavy collar). Read when the cloth is built.")]
        public bool massPainted = false;

        [Header("Tethers")]
        [Tooltip("Tie every free vertex to its nearest pinned one so that it never gets farther than Tether Scale × its rest distance, however few iterations (Unity Cloth's useTethers). Keeps skirts and capes from stretching. Needs at least one pinned vertex.")]
        public bool useTethers = true;

        [Tooltip("Euclidean: straight-line distance to the nearest pin. Geodesic: distance along the cloth, which lets folds hang freely (a skirt's pleats).")]
        public SinewTetherMode tetherMode = SinewTetherMode.SINEW_TETHER_GEODESIC;

        [Tooltip("How far beyond its rest distance to the pin a vertex may go, as a multiple (≥ 1): 1 = not at all, 1.1 = 10% slack.")]
        [Min(1f)]
        public float tetherScale = 1f;

        [Header("Tearing")]
        [Tooltip("A stretch or shear constraint strained beyond 1 + this tears the cloth there (0.5 = at 150% of its rest length); 0 = never. The mesh is rebuilt when it tears (vertices split, triangles re-pointed) and the Torn event is raised.")]
        [Min(0f)]
        public float tearThreshold = 0f;

        [Header("Mesh")]
        [Tooltip("Vertices closer than this (m) are simulated as one particle, so seams split for UVs or normals do not tear open.")]
        [Min(0f)]
        public float weldDistance = 1e-5f;

        [Tooltip("Also write the simulated normals (area-weighted, unit length) into the mesh each frame. Off: the mesh keeps its original normals.")]
        public bool writeNormals = true;

        SkinnedMeshRenderer skinned;
        MeshFilter filter;
        Mesh sourceMesh;
        Mesh originalFilterMesh;
        Mesh outputMesh;
        GameObject outputObject;
        Transform outputSpace;
        SinewVisibilityRelay outputRelay;

        Vector3[] restLocal;
        Transform[] bones;
        Matrix4x4[] boneMatrices;
        int[] pinIndices;
        Vector3[] pinTargets;
        Vector3[] positions;
        Vector3[] normals;
        bool warnedLimits;
        bool warnedTethers;

        // Tearing: the body's triangles as last read, the output mesh's vertex count, and the
        // source mesh's per-vertex attributes and sub-meshes to give split vertices and triangles.
        readonly SinewTopologyMirror topology = new SinewTopologyMirror();
        int meshVertexCount;
        Vector2[] uvSource;
        Vector2[] uvOutput;
        Color[] colorSource;
        Color[] colorOutput;
        Vector4[] tangentSource;
        Vector4[] tangentOutput;
        int[] subMeshStart;
        int[] subMeshCount;

        /// <summary>
        /// Raised after a step in which the cloth tore, once the output mesh has its new vertices and
        /// triangles (read <see cref="VertexCount"/>, <see cref="TopologyVersion"/>). Not raised, and
        /// nothing allocated, in frames where nothing tore.
        /// </summary>
        public event Action<SinewCloth> Torn;

        /// <summary>How many times the cloth's topology changed since it was built (0 = never torn).</summary>
        public uint TopologyVersion
        {
            get { return topology.Version; }
        }

        /// <summary>Vertices of the source mesh (and of the output mesh).</summary>
        public int VertexCount
        {
            get { return positions != null ? meshVertexCount : 0; }
        }

        /// <summary>Vertices painted as pinned (max distance 0 adds more on skinned meshes).</summary>
        public int PinnedCount
        {
            get { return pinIndices != null ? pinIndices.Length : 0; }
        }

        /// <summary>True when Sinew skins the mesh from a <c>SkinnedMeshRenderer</c>'s bones.</summary>
        public bool IsSkinned
        {
            get { return bones != null; }
        }

        /// <summary>The mesh the simulation is written into (null while disabled).</summary>
        public Mesh OutputMesh
        {
            get { return outputMesh; }
        }

        /// <summary>A skinned cloth's root defaults to the renderer's root bone, any other to this Transform.</summary>
        protected override Transform DefaultRoot
        {
            get { return skinned != null && skinned.rootBone != null ? skinned.rootBone : transform; }
        }

        /// <summary>
        /// The vertices of <paramref name="mesh"/> that <paramref name="source"/> pins, exactly as
        /// <see cref="SinewCloth"/> reads them, for giving another solver the same pins
        /// (the benchmark sample does so for Unity's Cloth).
        /// </summary>
        public static bool[] FindPinnedVertices(Mesh mesh, PinSource source, ColorChannel channel, float threshold, float[] weights)
        {
            return FindPinnedVertices(mesh, source, channel, threshold, weights, null);
        }

        /// <summary>As <see cref="FindPinnedVertices(Mesh, PinSource, ColorChannel, float, float[])"/>, with
        /// the painted values for <see cref="PinSource.Painted"/>.</summary>
        public static bool[] FindPinnedVertices(Mesh mesh, PinSource source, ColorChannel channel, float threshold, float[] weights, SinewVertexPaint painted)
        {
            if (mesh == null)
            {
                throw new ArgumentNullException("mesh");
            }
            int n = mesh.vertexCount;
            if (source == PinSource.Painted)
            {
                return PinnedFromWeights(Painted(painted, SinewPaintChannel.Pin, n, mesh.name), threshold);
            }
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

        /// <summary>
        /// Per-vertex max distances (m) of <paramref name="mesh"/> as <see cref="SinewCloth"/> sends
        /// them (<c>Body.SetMaxDistances</c>), with Unity Cloth's meaning: 0 = fixed to the skinned
        /// pose, negative or <c>float.MaxValue</c> = free. Null for <see cref="MaxDistanceSource.None"/>.
        /// </summary>
        public static float[] FindMaxDistances(Mesh mesh, MaxDistanceSource source, ColorChannel channel, float scale, float[] distances)
        {
            return FindMaxDistances(mesh, source, channel, scale, distances, null);
        }

        /// <summary>As <see cref="FindMaxDistances(Mesh, MaxDistanceSource, ColorChannel, float, float[])"/>,
        /// with the painted values for <see cref="MaxDistanceSource.Painted"/> (unpainted: −1, no limit).</summary>
        public static float[] FindMaxDistances(Mesh mesh, MaxDistanceSource source, ColorChannel channel, float scale, float[] distances, SinewVertexPaint painted)
        {
            if (mesh == null)
            {
                throw new ArgumentNullException("mesh");
            }
            int n = mesh.vertexCount;
            if (source == MaxDistanceSource.Painted)
            {
                return (float[])Painted(painted, SinewPaintChannel.MaxDistance, n, mesh.name).Clone();
            }
            if (source == MaxDistanceSource.VertexColor)
            {
                Color[] colors = mesh.colors;
                if (colors == null || colors.Length != n)
                {
                    throw new InvalidOperationException("Max Distance Source is Vertex Color but mesh '" + mesh.name + "' has no vertex colours");
                }
                var d = new float[n];
                for (int i = 0; i < n; i++)
                {
                    d[i] = Mathf.Max(0f, Channel(colors[i], channel)) * scale;
                }
                return d;
            }
            if (source == MaxDistanceSource.FloatList)
            {
                if (distances == null || distances.Length != n)
                {
                    throw new InvalidOperationException("Max Distances has " + (distances == null ? 0 : distances.Length)
                        + " entries but mesh '" + mesh.name + "' has " + n + " vertices");
                }
                return (float[])distances.Clone();
            }
            return null;
        }

        /// <summary>
        /// The inverse masses the cloth is built with: 0 for a pinned vertex, otherwise
        /// 1 / (<paramref name="particleMass"/> × the painted mass scale, when <paramref name="massScales"/> is given).
        /// </summary>
        /// <exception cref="InvalidOperationException">A mass scale that is not above 0.</exception>
        public static float[] InverseMasses(bool[] pinned, float particleMass, float[] massScales)
        {
            int n = pinned.Length;
            if (massScales != null && massScales.Length != n)
            {
                throw new InvalidOperationException("painted Mass Scale has " + massScales.Length + " values for " + n + " vertices");
            }
            var inverseMasses = new float[n];
            float w = 1f / particleMass;
            for (int i = 0; i < n; i++)
            {
                if (massScales != null && !(massScales[i] > 0f))
                {
                    throw new InvalidOperationException("painted Mass Scale of vertex " + i + " is " + massScales[i] + ": it must be above 0");
                }
                inverseMasses[i] = pinned[i] ? 0f : massScales != null ? w / massScales[i] : w;
            }
            return inverseMasses;
        }

        /// <summary>The vertices whose weight is at least <paramref name="threshold"/>.</summary>
        public static bool[] PinnedFromWeights(float[] weights, float threshold)
        {
            var pinned = new bool[weights.Length];
            for (int i = 0; i < weights.Length; i++)
            {
                pinned[i] = weights[i] >= threshold;
            }
            return pinned;
        }

        static float[] Painted(SinewVertexPaint painted, SinewPaintChannel channel, int n, string meshName)
        {
            if (painted == null || !painted.Has(channel, n))
            {
                int have = painted == null || painted.Values(channel) == null ? 0 : painted.Values(channel).Length;
                throw new InvalidOperationException("a source is Painted but the painted " + channel + " has " + have
                    + " values and mesh '" + meshName + "' has " + n + " vertices: paint it with the inspector's Paint tool (or choose another source)");
            }
            return painted.Values(channel);
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
            sourceMesh = source;

            int n = source.vertexCount;
            restLocal = source.vertices;
            int[] triangles = source.triangles;
            bool[] pinned = FindPinnedVertices(source, pinSource, pinChannel, pinThreshold, pinWeights, paint);
            float[] massScales = massPainted ? Painted(paint, SinewPaintChannel.MassScale, n, source.name) : null;

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
            float[] inverseMasses = InverseMasses(pinned, physicsMaterial.particleMass, massScales);
            for (int i = 0, k = 0; i < n; i++)
            {
                if (pinned[i])
                {
                    pinIndices[k++] = i;
                }
            }

            // The cloth is created from the mesh as modelled (its bind pose for a skinned mesh),
            // placed in world space by this Transform: rest lengths come from the model, not from
            // whatever pose the animation is in this frame. A skinned cloth is then moved onto the
            // animated pose by its first bone matrices (SetUpSkinning).
            Matrix4x4 meshToWorld = transform.localToWorldMatrix;
            positions = new Vector3[n];
            normals = new Vector3[n];
            for (int i = 0; i < n; i++)
            {
                positions[i] = meshToWorld.MultiplyPoint3x4(restLocal[i]);
            }

            SinewClothMeshDesc desc = SinewClothMeshDesc.Default;
            desc.weld_distance = weldDistance;
            desc.material = physicsMaterial.ToNative();
            Cloth cloth = Cloth.CreateMesh(native, positions, triangles, inverseMasses, desc);
            try
            {
                topology.Reset(cloth);
                meshVertexCount = n;
                uvSource = null;
                colorSource = null;
                tangentSource = null;
                subMeshCount = null;
                if (skinned != null)
                {
                    SetUpSkinning(cloth, source);
                }
                CreateOutput(source);
            }
            catch
            {
                cloth.Dispose();
                throw;
            }
            return cloth;
        }

        // ---- native skinning ------------------------------------------------------------------
        //
        // Unity skins vertex v (in mesh space) of a SkinnedMeshRenderer to world space as
        //     world(v) = Σ_b weight_b · bones[b].localToWorldMatrix · bindposes[b] · v,
        // where bindposes[b] takes mesh space to bone b's space as the mesh was bound (it is
        // bone_b.worldToLocal · meshTransform.localToWorld at bind time).
        //
        // Sinew skins the positions the body was created from, which are in world space:
        //     sinew(x) = Σ_b weight_b · boneMatrix_b · sinewBind_b · x,
        // with sinewBind_b taking that world-space rest position into bone b's space. The body
        // was created from x = M · v with M = this Transform's localToWorldMatrix at creation, so
        //     sinewBind_b = bindposes[b] · M⁻¹
        // gives sinew(M · v) = Σ weight_b · boneMatrix_b · bindposes[b] · v = world(v): with
        // boneMatrix_b = bones[b].localToWorldMatrix every frame, Sinew's skinned pose is exactly
        // the pose Unity would draw. M only decides where the rest shape sits and how big it is
        // (rest lengths); the skinned result does not depend on it.
        //
        // A SkinnedMeshRenderer without bones draws its mesh at its own Transform: that is one
        // bone (this Transform) with bindpose identity, i.e. sinewBind = M⁻¹.
        void SetUpSkinning(Cloth cloth, Mesh source)
        {
            int n = source.vertexCount;
            BoneWeight[] weights = source.boneWeights;
            Matrix4x4[] bindposes = source.bindposes;
            Transform[] rendererBones = skinned.bones;
            Matrix4x4 worldToMesh = transform.worldToLocalMatrix; // M⁻¹, as the cloth was just created
            Matrix4x4[] sinewBind;
            if (weights.Length == 0 && rendererBones.Length == 0)
            {
                weights = new BoneWeight[n];
                for (int i = 0; i < n; i++)
                {
                    weights[i].weight0 = 1f;
                }
                bones = new[] { transform };
                sinewBind = new[] { worldToMesh };
            }
            else
            {
                if (weights.Length != n)
                {
                    throw new InvalidOperationException("mesh '" + source.name + "' has " + weights.Length + " bone weights for " + n + " vertices");
                }
                if (bindposes.Length != rendererBones.Length)
                {
                    throw new InvalidOperationException("mesh '" + source.name + "' has " + bindposes.Length
                        + " bind poses but the SkinnedMeshRenderer has " + rendererBones.Length + " bones");
                }
                bones = new Transform[rendererBones.Length];
                sinewBind = new Matrix4x4[rendererBones.Length];
                for (int b = 0; b < bones.Length; b++)
                {
                    // A missing bone (stripped from the rig) stays with this Transform.
                    bones[b] = rendererBones[b] != null ? rendererBones[b] : transform;
                    sinewBind[b] = bindposes[b] * worldToMesh;
                }
            }
            cloth.SetSkinning(weights, sinewBind);
            boneMatrices = new Matrix4x4[bones.Length];
            // The first bone matrices put the whole cloth on this frame's animated pose.
            UpdateBoneMatrices();
            cloth.SetBoneMatrices(boneMatrices);
        }

        void UpdateBoneMatrices()
        {
            for (int b = 0; b < bones.Length; b++)
            {
                boneMatrices[b] = bones[b].localToWorldMatrix;
            }
        }

        // ---- limits and tethers ---------------------------------------------------------------

        /// <summary>The dynamics with this cloth's <see cref="tearThreshold"/>.</summary>
        public override SinewDynamics NativeDynamics()
        {
            return dynamics.ToNative(tearThreshold);
        }

        internal override void ApplySettings(Body target)
        {
            base.ApplySettings(target);
            if (IsSkinned)
            {
                float[] limits = FindMaxDistances(sourceMesh, maxDistanceSource, maxDistanceChannel, maxDistanceScale, maxDistances, paint);
                if (limits != null)
                {
                    target.SetMaxDistances(limits);
                }
                else
                {
                    target.ClearMaxDistances();
                }
                if (useBackstop)
                {
                    int n = sourceMesh.vertexCount;
                    float[] list = backstopPainted ? Painted(paint, SinewPaintChannel.Backstop, n, sourceMesh.name) : backstopDistances;
                    bool perVertex = list != null && list.Length == n;
                    if (!backstopPainted && backstopDistances != null && backstopDistances.Length != 0 && !perVertex)
                    {
                        throw new InvalidOperationException("Backstop Distances has " + backstopDistances.Length + " entries but mesh '"
                            + sourceMesh.name + "' has " + n + " vertices");
                    }
                    var offsets = new float[n];
                    var radii = new float[n];
                    for (int i = 0; i < n; i++)
                    {
                        float d = perVertex ? list[i] : backstopDistance;
                        // Unity's float.MaxValue (and a negative value) means "no backstop": a
                        // sphere of radius 0 stops nothing.
                        bool none = d < 0f || d >= 1e30f;
                        offsets[i] = none ? 0f : d;
                        radii[i] = none ? 0f : backstopRadius;
                    }
                    target.SetBackstops(offsets, radii);
                }
                else
                {
                    target.ClearBackstops();
                }
            }
            else if ((maxDistanceSource != MaxDistanceSource.None || useBackstop) && !warnedLimits)
            {
                warnedLimits = true;
                Debug.LogWarning("Sinew: " + name + ": max distances and backstops are measured from the skinned pose and need a "
                    + "SkinnedMeshRenderer; on a MeshFilter they are ignored.", this);
            }

            bool pinned = target.GetInfo().pinned_count > 0;
            if (useTethers && !pinned && !warnedTethers)
            {
                warnedTethers = true;
                Debug.LogWarning("Sinew: " + name + ": Use Tethers is on but no vertex is pinned, so there is nothing to tether to.", this);
            }
            if (useTethers && pinned)
            {
                target.SetTethers(tetherMode, tetherScale);
            }
            else
            {
                target.SetTethers(SinewTetherMode.SINEW_TETHER_NONE);
            }
        }

        // ---- output ---------------------------------------------------------------------------

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
                // The hidden skinned renderer's own visibility messages mean nothing now: the
                // child's renderer reports through its relay.
                outputRelay = outputObject.AddComponent<SinewVisibilityRelay>();
                outputRelay.Attach(this);
                DrawnBy(1, false);
            }
            else
            {
                originalFilterMesh = filter.sharedMesh;
                filter.sharedMesh = outputMesh;
                outputSpace = transform;
                bool drawn = GetComponent<MeshRenderer>() != null;
                DrawnBy(drawn ? 1 : 0, drawn);
            }
        }

        internal override void PrepareStep(float dt)
        {
            Body body = Body;
            if (bones != null)
            {
                UpdateBoneMatrices();
                body.SetBoneMatrices(boneMatrices);
                return;
            }
            if (pinIndices.Length == 0)
            {
                return;
            }
            // A MeshFilter cloth: the pinned vertices move rigidly with this Transform.
            Matrix4x4 toWorld = transform.localToWorldMatrix;
            for (int k = 0; k < pinIndices.Length; k++)
            {
                pinTargets[k] = toWorld.MultiplyPoint3x4(restLocal[pinIndices[k]]);
            }
            body.SetPinTargets(pinIndices, pinTargets);
        }

        internal override void AfterStep()
        {
            Body body = Body;
            // One native call per frame; the arrays are read again only after a tear.
            bool torn = topology.Refresh(body);
            if (torn)
            {
                GrowForTear();
            }
            int n = meshVertexCount;
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
            for (int i = 0; i < n; i++)
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
            // The vertices first: after a tear the new triangles index the added ones.
            outputMesh.SetVertices(positions, 0, n);
            if (torn)
            {
                WriteTornTopology();
            }
            outputMesh.bounds = new Bounds((min + max) * 0.5f, max - min);
            if (writeNormals)
            {
                for (int i = 0; i < n; i++)
                {
                    normals[i] = toLocal.MultiplyVector(normals[i]).normalized;
                }
                outputMesh.SetNormals(normals, 0, n);
            }
            if (torn && Torn != null)
            {
                Torn(this);
            }
        }

        // ---- tearing --------------------------------------------------------------------------
        //
        // A tear appends copies of the split vertices and re-points triangle corners at them; the
        // triangle count and order stay (SinewTopologyMirror). So the output mesh keeps its
        // sub-meshes (their index ranges are cut from the new triangles in the same order as
        // Mesh.triangles concatenates them), its first vertices, and gives each added vertex the
        // UV, colour and tangent of the vertex it was split from (Mesh resizes its other vertex
        // attributes itself when the vertex count grows, filling them with zeros).

        void GrowForTear()
        {
            int n = topology.VertexCount;
            SinewTopologyMirror.EnsureCapacity(ref positions, n);
            SinewTopologyMirror.EnsureCapacity(ref normals, n);
            if (subMeshCount == null)
            {
                // Read once, at the first tear (the source mesh is readable: it was checked).
                uvSource = sourceMesh.uv;
                colorSource = sourceMesh.colors;
                tangentSource = sourceMesh.tangents;
                subMeshCount = new int[sourceMesh.subMeshCount];
                subMeshStart = new int[subMeshCount.Length];
                int start = 0;
                for (int s = 0; s < subMeshCount.Length; s++)
                {
                    subMeshStart[s] = start;
                    subMeshCount[s] = (int)sourceMesh.GetIndexCount(s);
                    start += subMeshCount[s];
                }
                uvOutput = uvSource.Length != 0 ? (Vector2[])uvSource.Clone() : null;
                colorOutput = colorSource.Length != 0 ? (Color[])colorSource.Clone() : null;
                tangentOutput = tangentSource.Length != 0 ? (Vector4[])tangentSource.Clone() : null;
            }
            int from = meshVertexCount;
            if (uvOutput != null)
            {
                SinewTopologyMirror.EnsureCapacity(ref uvOutput, n);
                topology.CopyFromSources(uvSource, uvOutput, from);
            }
            if (colorOutput != null)
            {
                SinewTopologyMirror.EnsureCapacity(ref colorOutput, n);
                topology.CopyFromSources(colorSource, colorOutput, from);
            }
            if (tangentOutput != null)
            {
                SinewTopologyMirror.EnsureCapacity(ref tangentOutput, n);
                topology.CopyFromSources(tangentSource, tangentOutput, from);
            }
            if (!writeNormals && n > from)
            {
                // The mesh keeps its own normals: the split vertices take their sources'.
                Vector3[] sourceNormals = sourceMesh.normals;
                if (sourceNormals.Length == topology.OriginalVertexCount)
                {
                    var all = new Vector3[n];
                    outputMesh.normals.CopyTo(all, 0);
                    topology.CopyFromSources(sourceNormals, all, from);
                    outputMesh.normals = all;
                }
            }
            meshVertexCount = n;
        }

        void WriteTornTopology()
        {
            int n = meshVertexCount;
            if (n > 65535 && outputMesh.indexFormat == UnityEngine.Rendering.IndexFormat.UInt16)
            {
                outputMesh.indexFormat = UnityEngine.Rendering.IndexFormat.UInt32;
            }
            if (uvOutput != null)
            {
                outputMesh.SetUVs(0, uvOutput, 0, n);
            }
            if (colorOutput != null)
            {
                outputMesh.SetColors(colorOutput, 0, n);
            }
            if (tangentOutput != null)
            {
                outputMesh.SetTangents(tangentOutput, 0, n);
            }
            int[] indices = topology.Indices;
            int total = 0;
            for (int s = 0; s < subMeshCount.Length; s++)
            {
                total += subMeshCount[s];
            }
            if (total != topology.IndexCount)
            {
                // Not the source's triangles (cannot happen with today's tearing): one sub-mesh.
                outputMesh.subMeshCount = 1;
                outputMesh.SetTriangles(indices, 0, topology.IndexCount, 0, false, 0);
                return;
            }
            for (int s = 0; s < subMeshCount.Length; s++)
            {
                outputMesh.SetTriangles(indices, subMeshStart[s], subMeshCount[s], s, false, 0);
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
            if (outputRelay != null)
            {
                // Destroying the output may still send OnBecameInvisible: it no longer counts.
                outputRelay.Attach(null);
            }
            if (outputObject != null)
            {
                Destroy(outputObject);
            }
            if (outputMesh != null)
            {
                Destroy(outputMesh);
            }
            originalFilterMesh = null;
            outputObject = null;
            outputRelay = null;
            outputMesh = null;
            outputSpace = null;
            sourceMesh = null;
            bones = null;
            boneMatrices = null;
            uvSource = null;
            uvOutput = null;
            colorSource = null;
            colorOutput = null;
            tangentSource = null;
            tangentOutput = null;
            subMeshStart = null;
            subMeshCount = null;
        }
    }
}
