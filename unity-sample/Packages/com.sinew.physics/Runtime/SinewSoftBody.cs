// Hand-written. A soft body (the chapter's jelly) over the render mesh of a MeshFilter: a lattice
// of particles filling the mesh's bounds, and the mesh deformed with it every frame.
using System;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// Simulates this GameObject's <c>MeshFilter</c> mesh as a soft body: a lattice of particles
    /// over the mesh's bounds (<c>sinew_softbody_create_lattice</c>, <see cref="resolution"/>
    /// cells along the longest axis) that keeps its volume and its shape, and deforms the render
    /// mesh with it by trilinear interpolation of the lattice particles.
    /// </summary>
    /// <remarks>
    /// <para>Each render vertex is embedded once, when the body is built, in the lattice cell
    /// that holds it: its 8 corner particles and the trilinear weights of its place in the cell.
    /// After every step the particles are read back (<c>Body.ReadPositions</c>) and each vertex is
    /// put at the weighted sum of its 8 particles; the normals are recomputed from the deformed
    /// triangles. The library's native embedding (<c>sinew_softbody_create_from_mesh</c>,
    /// <c>World.CreateSoftBodyFromMesh</c>: a lattice over the mesh's voxels, the render vertices
    /// embedded by the library and read back as the body's own vertices) is meant to replace
    /// the C# weights here; the component's settings stay the same.</para>
    /// <para>The lattice is made in world space from this Transform (position, rotation and a
    /// uniform scale) and then moves freely: moving the Transform later does not move the body.
    /// The MeshFilter gets a dynamic copy of its mesh while the component is enabled (the original
    /// is put back when it is disabled). The mesh must be readable (Read/Write enabled).</para>
    /// <para><see cref="shapeStiffness"/>, <see cref="volumeCompliance"/>, the plasticity,
    /// <see cref="edgeCompliance"/>, <see cref="mass"/>, <see cref="friction"/> and
    /// <see cref="collisionLayers"/> may change at run time (after an inspector edit or
    /// <see cref="SinewBodyBehaviour.ApplySettings()"/>); <see cref="resolution"/> needs
    /// <see cref="SinewBodyBehaviour.Rebuild"/>. They set the Physics Material's particle mass,
    /// compliances, friction and collision mask; its damping, gravity scale, thickness (the
    /// particles' radius against colliders) and self-collision apply as they are.</para>
    /// <para>No per-frame managed allocation: every array is sized once when the body is built.</para>
    /// </remarks>
    [DisallowMultipleComponent]
    [RequireComponent(typeof(MeshFilter))]
    [AddComponentMenu("Sinew/Sinew Soft Body")]
    public sealed class SinewSoftBody : SinewBodyBehaviour
    {
        [Header("Lattice (read when the body is built)")]
        [Tooltip("Lattice cells along the longest axis of the mesh's bounds; the other axes get cells of the same size. Particles: (cells + 1) per axis, so 6 gives up to 343. More follow the mesh more closely and cost more.")]
        [Range(1, 24)]
        public int resolution = 6;

        [Tooltip("Shape-matching clusters: 0 = one for the whole body (it keeps its shape as a whole); c = overlapping blocks of c × c × c cells, each keeping its own shape (a long body bends more like a beam).")]
        [Range(0, 8)]
        public int clusterCells = 0;

        [Header("Stiffness")]
        [Tooltip("Shape matching: the fraction of the way back to the rest shape (moved with the body and turned with it) per 1/60 s, 0–1. 0 = off (only the edges and the volume hold it), 1 = rigid. The same at any frame rate and substep count.")]
        [Range(0f, 1f)]
        public float shapeStiffness = 0.5f;

        [Tooltip("Compliance of the volume kept by each of the lattice's tetrahedra (m³/(N·m), 0–1000 in the library): 0 keeps every volume exactly; larger lets it be squeezed.")]
        [Range(0f, 1f)]
        public float volumeCompliance = 0f;

        [Tooltip("Compliance of the lattice's edges (m/N), axis neighbours and diagonals alike: 0 = rigid edges (only shape matching gives); larger wobbles more. With 1 kg over a few hundred particles, 1e-4 is a jelly. Deliberately not the library's 0 (rigid), which would not wobble.")]
        [Range(0f, 0.01f)]
        public float edgeCompliance = 1e-4f;

        [Header("Plasticity")]
        [Tooltip("Deformation (‖S − 1‖ of the best-fit stretch, dimensionless) beyond which the rest shape gives way and creeps towards the deformed one.")]
        [Range(0f, 1f)]
        public float plasticYield = 0.1f;

        [Tooltip("How fast the rest shape creeps towards the deformed one beyond the yield (1/s). 0 = elastic: it always springs back.")]
        [Range(0f, 10f)]
        public float plasticCreep = 0f;

        [Tooltip("The largest permanent deformation (‖S − 1‖, dimensionless) the rest shape may take.")]
        [Range(0f, 1f)]
        public float plasticMax = 0.5f;

        [Header("Gas")]
        [Tooltip("Pressure (Pa) of a gas inside the body's closed surface at its rest volume: an ideal, isothermal gas (p = pressure × V₀ / V) that pushes the surface out. 0 = no gas (a jelly); a balloon is mostly gas.")]
        [Min(0f)]
        public float pressure = 0f;

        [Tooltip("Pressure (Pa) of the outside on the surface, against the gas. 0 = none.")]
        [Min(0f)]
        public float externalPressure = 0f;

        [Header("Body")]
        [Tooltip("Total mass (kg), shared equally by the lattice's particles.")]
        [Min(1e-4f)]
        public float mass = 1f;

        [Tooltip("Static friction against colliders (dimensionless); kinetic friction while sliding is 0.8 × this (the library's defaults are 0.5 and 0.4).")]
        [Range(0f, 2f)]
        public float friction = 0.5f;

        [Tooltip("Which SinewCollider layers this body meets (Unity's layer names as bit names): a collider whose Layers share a bit with this mask pushes it out. Another body is met only when paired (Body.SetCollisionPair).")]
        public LayerMask collisionLayers = ~0;

        [Header("Rendering")]
        [Tooltip("Recompute the mesh's normals from the deformed triangles every frame. Off: the mesh keeps its rest normals.")]
        public bool recalculateNormals = true;

        [Header("Painted pins")]
        [Tooltip("Pin the lattice particles nearest to the vertices painted as pinned (Paint tool, channel Pin) and move them with this Transform: a jelly stuck to a wall or a moving platform. Read when the body is built.")]
        public bool pinPainted = false;

        [Tooltip("A painted vertex pins its nearest lattice particle when its pin weight is at least this (0–1).")]
        [Range(0f, 1f)]
        public float pinThreshold = 0.5f;

        [Tooltip("Per-vertex values painted in the scene view (the Pin channel is used), one per mesh vertex, stored with the component.")]
        public SinewVertexPaint paint = new SinewVertexPaint();

        int[] pinIndices = new int[0];
        Vector3[] pinLocal = new Vector3[0];
        Vector3[] pinTargets = new Vector3[0];

        MeshFilter filter;
        Mesh originalMesh;
        Mesh outputMesh;

        LatticeLayout lattice;
        int particleCount;
        Vector3[] particles;
        bool particlesRead;

        // The trilinear embedding: per render vertex, the particle index of the lowest corner of
        // its cell and its place in the cell (0–1 along each axis).
        int[] embedCorner;
        Vector3[] embedFraction;
        Vector3[] vertices;

        /// <summary>Particles of the lattice (0 while the body is not built).</summary>
        public int ParticleCount
        {
            get { return particles != null ? particleCount : 0; }
        }

        /// <summary>The native soft body (null while disabled): its <see cref="SoftBody.Volume"/>,
        /// <see cref="SoftBody.Settings"/> and every <see cref="Sinew.Body"/> call.</summary>
        public SoftBody SoftBody
        {
            get { return Body as SoftBody; }
        }

        /// <summary>The mesh the simulation is written into (null while disabled).</summary>
        public Mesh OutputMesh
        {
            get { return outputMesh; }
        }

        /// <summary>For Unity: a soft body's material (no bend constraints in a full lattice).</summary>
        public SinewSoftBody()
            : base(SoftMaterial())
        {
        }

        static SinewMaterialSettings SoftMaterial()
        {
            var m = new SinewMaterialSettings();
            m.bendCompliance = 0f;
            return m;
        }

        /// <summary>These settings as the native soft-body settings.</summary>
        public SinewSoftSettings ToNativeSettings()
        {
            SinewSoftSettings s = default(SinewSoftSettings);
            s.volume_compliance = volumeCompliance;
            s.shape_stiffness = shapeStiffness;
            s.chapter_stiffness = 0u;
            s.shape_linear = 0f;
            s.plastic_yield = plasticYield;
            s.plastic_creep = plasticCreep;
            s.plastic_max = plasticMax;
            s.pressure = pressure;
            s.external_pressure = externalPressure;
            return s;
        }

        // ---- the lattice over the mesh's bounds ----------------------------------------------

        /// <summary>The lattice <see cref="SinewSoftBody"/> builds over a mesh's bounds: particle
        /// counts, cell size and lowest corner, in the mesh's space; particle (i, j, k) is
        /// <c>(k · Ny + j) · Nx + i</c>, as the library numbers a lattice.</summary>
        public struct LatticeLayout
        {
            /// <summary>Particles along the mesh's x, y and z axes (at least 2 each).</summary>
            public int Nx, Ny, Nz;

            /// <summary>Distance between neighbouring particles, in the mesh's space.</summary>
            public float Spacing;

            /// <summary>Particle (0, 0, 0), in the mesh's space.</summary>
            public Vector3 Min;

            /// <summary><paramref name="cells"/> cubic cells along the longest axis of
            /// <paramref name="bounds"/>, as many of the same size as cover each other axis (at least
            /// one), centred on the bounds.</summary>
            public static LatticeLayout Over(Bounds bounds, int cells)
            {
                Vector3 size = bounds.extents * 2f;
                float longest = Mathf.Max(size.x, Mathf.Max(size.y, size.z));
                LatticeLayout l;
                l.Spacing = longest > 0f ? longest / Mathf.Max(1, cells) : 0.05f;
                // Enough cells to cover each axis (a flat axis still gets one cell).
                l.Nx = Mathf.Max(1, Mathf.CeilToInt(size.x / l.Spacing - 1e-3f)) + 1;
                l.Ny = Mathf.Max(1, Mathf.CeilToInt(size.y / l.Spacing - 1e-3f)) + 1;
                l.Nz = Mathf.Max(1, Mathf.CeilToInt(size.z / l.Spacing - 1e-3f)) + 1;
                Vector3 half = new Vector3(l.Nx - 1, l.Ny - 1, l.Nz - 1) * (0.5f * l.Spacing);
                l.Min = bounds.center - half;
                return l;
            }

            /// <summary>Particle index of lattice point (i, j, k).</summary>
            public int Index(int i, int j, int k)
            {
                return (k * Ny + j) * Nx + i;
            }

            /// <summary>Rest position of particle (i, j, k) in the mesh's space.</summary>
            public Vector3 Point(int i, int j, int k)
            {
                return Min + new Vector3(i, j, k) * Spacing;
            }

            /// <summary>The trilinear embedding of <paramref name="point"/> (mesh space): the
            /// particle index of the lowest corner of its cell and its place in the cell (0–1 along
            /// each axis; outside the lattice, the nearest cell extended).</summary>
            public void Embed(Vector3 point, out int corner, out Vector3 fraction)
            {
                Vector3 u = (point - Min) * (1f / Spacing);
                int i = Mathf.Clamp((int)Math.Floor(u.x), 0, Nx - 2);
                int j = Mathf.Clamp((int)Math.Floor(u.y), 0, Ny - 2);
                int k = Mathf.Clamp((int)Math.Floor(u.z), 0, Nz - 2);
                corner = Index(i, j, k);
                fraction = new Vector3(u.x - i, u.y - j, u.z - k);
            }

            /// <summary>The point embedded as (<paramref name="corner"/>, <paramref name="fraction"/>)
            /// among <paramref name="particles"/> (this lattice's, anywhere): the trilinear blend of
            /// its cell's 8 particles. At rest it is the embedded point; under any affine motion of
            /// the particles it moves with them exactly.</summary>
            public Vector3 Blend(Vector3[] particles, int corner, Vector3 fraction)
            {
                int c = corner, nx = Nx, nxy = Nx * Ny;
                Vector3 f = fraction;
                float gx = 1f - f.x, gy = 1f - f.y, gz = 1f - f.z;
                return particles[c] * (gx * gy * gz)
                    + particles[c + 1] * (f.x * gy * gz)
                    + particles[c + nx] * (gx * f.y * gz)
                    + particles[c + nx + 1] * (f.x * f.y * gz)
                    + particles[c + nxy] * (gx * gy * f.z)
                    + particles[c + nxy + 1] * (f.x * gy * f.z)
                    + particles[c + nxy + nx] * (gx * f.y * f.z)
                    + particles[c + nxy + nx + 1] * (f.x * f.y * f.z);
            }
        }

        /// <summary>The lattice layout while the body is built (default while it is not).</summary>
        public LatticeLayout Layout
        {
            get { return lattice; }
        }

        internal override Body CreateBody(World native)
        {
            filter = GetComponent<MeshFilter>();
            if (filter == null)
            {
                throw new InvalidOperationException("SinewSoftBody needs a MeshFilter on the same GameObject");
            }
            Mesh source = filter.sharedMesh;
            if (source == null)
            {
                throw new InvalidOperationException("the MeshFilter has no mesh");
            }
            if (!source.isReadable)
            {
                throw new InvalidOperationException("mesh '" + source.name + "' is not readable: enable Read/Write in its import settings");
            }

            lattice = LatticeLayout.Over(source.bounds, resolution);
            particleCount = lattice.Nx * lattice.Ny * lattice.Nz;
            Matrix4x4 pose = UniformPose(transform);
            float scale = (Mathf.Abs(transform.lossyScale.x) + Mathf.Abs(transform.lossyScale.y) + Mathf.Abs(transform.lossyScale.z)) / 3f;
            Vector3 centre = lattice.Min + new Vector3(lattice.Nx - 1, lattice.Ny - 1, lattice.Nz - 1) * (0.5f * lattice.Spacing);

            SinewSoftLatticeDesc desc = SinewSoftLatticeDesc.Default;
            desc.nx = (uint)lattice.Nx;
            desc.ny = (uint)lattice.Ny;
            desc.nz = (uint)lattice.Nz;
            desc.spacing = lattice.Spacing * scale;
            desc.origin = SinewVec3.From(pose.MultiplyPoint3x4(centre));
            Quaternion q = transform.rotation;
            desc.orientation = new SinewQuat(q.x, q.y, q.z, q.w);
            desc.AllNeighbours = true;
            desc.cluster_cells = (uint)Mathf.Max(0, clusterCells);
            desc.material = MaterialFor(particleCount);
            desc.soft = ToNativeSettings();
            SoftBody body = native.CreateSoftLattice(desc);
            try
            {
                Vector3[] rest = source.vertices;
                Embed(rest);
                pinIndices = new int[0];
                if (pinPainted)
                {
                    if (!paint.Has(SinewPaintChannel.Pin, rest.Length))
                    {
                        throw new InvalidOperationException("Pin Painted is on but the painted Pin channel has " + paint.pin.Length
                            + " values and mesh '" + source.name + "' has " + rest.Length + " vertices: paint it with the Paint tool");
                    }
                    pinIndices = PinnedParticles(lattice, rest, paint.pin, pinThreshold);
                    pinLocal = new Vector3[pinIndices.Length];
                    pinTargets = new Vector3[pinIndices.Length];
                    for (int k = 0; k < pinIndices.Length; k++)
                    {
                        pinLocal[k] = lattice.Point(pinIndices[k] % lattice.Nx, (pinIndices[k] / lattice.Nx) % lattice.Ny, pinIndices[k] / (lattice.Nx * lattice.Ny));
                    }
                    if (pinIndices.Length > 0)
                    {
                        body.Pin(pinIndices);
                    }
                }
                particles = new Vector3[particleCount];
                particlesRead = false;
                CreateOutput(source);
            }
            catch
            {
                body.Dispose();
                throw;
            }
            return body;
        }

        /// <summary>Puts each render vertex in its lattice cell, once: the cell's lowest corner
        /// particle and the vertex's place in the cell.</summary>
        void Embed(Vector3[] rest)
        {
            int n = rest.Length;
            embedCorner = new int[n];
            embedFraction = new Vector3[n];
            vertices = new Vector3[n];
            for (int v = 0; v < n; v++)
            {
                lattice.Embed(rest[v], out embedCorner[v], out embedFraction[v]);
            }
        }

        SinewMaterial MaterialFor(int count)
        {
            // The soft fields decide these; the rest of the Physics Material applies as it is.
            physicsMaterial.particleMass = mass / Mathf.Max(1, count);
            // The total mass is Mass: a density (of a cloth preset, in kg/m²) would override it.
            physicsMaterial.density = 0f;
            physicsMaterial.stretchCompliance = edgeCompliance;
            physicsMaterial.shearCompliance = edgeCompliance;
            physicsMaterial.bendCompliance = 0f;
            physicsMaterial.staticFriction = friction;
            physicsMaterial.kineticFriction = 0.8f * friction;
            physicsMaterial.collisionMask = collisionLayers;
            return physicsMaterial.ToNative();
        }

        internal override void ApplySettings(Body target)
        {
            MaterialFor(particleCount);
            base.ApplySettings(target);
            var soft = target as SoftBody;
            if (soft != null)
            {
                soft.Settings = ToNativeSettings();
            }
        }

        // ---- output ---------------------------------------------------------------------------

        void CreateOutput(Mesh source)
        {
            outputMesh = Instantiate(source);
            outputMesh.name = source.name + " (Sinew)";
            outputMesh.hideFlags = HideFlags.DontSave;
            outputMesh.MarkDynamic();
            originalMesh = filter.sharedMesh;
            filter.sharedMesh = outputMesh;
            bool drawn = GetComponent<MeshRenderer>() != null;
            DrawnBy(drawn ? 1 : 0, drawn);
        }

        internal override void PrepareStep(float dt)
        {
            // Nothing drives a free soft body: it moves under gravity, colliders and its pairs.
            // Painted pins move with this Transform.
            if (pinIndices.Length == 0)
            {
                return;
            }
            Matrix4x4 pose = UniformPose(transform);
            for (int k = 0; k < pinIndices.Length; k++)
            {
                pinTargets[k] = pose.MultiplyPoint3x4(pinLocal[k]);
            }
            Body.SetPinTargets(pinIndices, pinTargets);
        }

        /// <summary>
        /// The lattice particles pinned by painted vertices: for each vertex of <paramref name="rest"/>
        /// (mesh space) whose weight is at least <paramref name="threshold"/>, the lattice point
        /// nearest to it (the corner of its cell it is closest to), each once, in increasing order.
        /// </summary>
        public static int[] PinnedParticles(LatticeLayout layout, Vector3[] rest, float[] weights, float threshold)
        {
            if (rest == null || weights == null || rest.Length != weights.Length)
            {
                throw new ArgumentException("one pin weight per vertex is needed");
            }
            var pinned = new bool[layout.Nx * layout.Ny * layout.Nz];
            int count = 0;
            for (int v = 0; v < rest.Length; v++)
            {
                if (!(weights[v] >= threshold))
                {
                    continue;
                }
                int corner;
                Vector3 f;
                layout.Embed(rest[v], out corner, out f);
                int i = corner % layout.Nx + (f.x >= 0.5f ? 1 : 0);
                int j = (corner / layout.Nx) % layout.Ny + (f.y >= 0.5f ? 1 : 0);
                int k = corner / (layout.Nx * layout.Ny) + (f.z >= 0.5f ? 1 : 0);
                int p = layout.Index(Mathf.Clamp(i, 0, layout.Nx - 1), Mathf.Clamp(j, 0, layout.Ny - 1), Mathf.Clamp(k, 0, layout.Nz - 1));
                if (!pinned[p])
                {
                    pinned[p] = true;
                    count++;
                }
            }
            var indices = new int[count];
            for (int p = 0, n = 0; p < pinned.Length; p++)
            {
                if (pinned[p])
                {
                    indices[n++] = p;
                }
            }
            return indices;
        }

        internal override void AfterStep()
        {
            Body.ReadPositions(particles);
            particlesRead = true;
            // The particles are in world space; the mesh is drawn in this Transform's. Each vertex
            // is the trilinear blend of its cell's 8 particles, and the same pass finds the local
            // bounds (setting vertices does not update them) for culling.
            Matrix4x4 toLocal = transform.worldToLocalMatrix;
            Vector3 min = new Vector3(float.MaxValue, float.MaxValue, float.MaxValue);
            Vector3 max = new Vector3(float.MinValue, float.MinValue, float.MinValue);
            for (int v = 0; v < vertices.Length; v++)
            {
                Vector3 p = toLocal.MultiplyPoint3x4(lattice.Blend(particles, embedCorner[v], embedFraction[v]));
                vertices[v] = p;
                min.x = Mathf.Min(min.x, p.x);
                min.y = Mathf.Min(min.y, p.y);
                min.z = Mathf.Min(min.z, p.z);
                max.x = Mathf.Max(max.x, p.x);
                max.y = Mathf.Max(max.y, p.y);
                max.z = Mathf.Max(max.z, p.z);
            }
            outputMesh.SetVertices(vertices);
            outputMesh.bounds = new Bounds((min + max) * 0.5f, max - min);
            if (recalculateNormals)
            {
                outputMesh.RecalculateNormals();
            }
        }

        internal override void ReleaseResources()
        {
            if (filter != null && originalMesh != null)
            {
                filter.sharedMesh = originalMesh;
            }
            if (outputMesh != null)
            {
                Destroy(outputMesh);
            }
            originalMesh = null;
            outputMesh = null;
            particles = null;
            particlesRead = false;
            embedCorner = null;
            embedFraction = null;
            vertices = null;
        }

        // ---- gizmos ---------------------------------------------------------------------------

        void OnDrawGizmosSelected()
        {
            LatticeLayout l;
            bool live = particles != null && particlesRead;
            if (live)
            {
                l = lattice;
            }
            else
            {
                // Not simulating (edit mode, or not stepped yet): the lattice it would build now.
                MeshFilter f = GetComponent<MeshFilter>();
                if (f == null || f.sharedMesh == null)
                {
                    return;
                }
                l = LatticeLayout.Over(f.sharedMesh.bounds, resolution);
            }
            Matrix4x4 saved = Gizmos.matrix;
            // Live particles are in world space; the preview is in the mesh's.
            Gizmos.matrix = live ? Matrix4x4.identity : UniformPose(transform);
            float radius = 0.08f * l.Spacing * (live ? (Mathf.Abs(transform.lossyScale.x) + Mathf.Abs(transform.lossyScale.y) + Mathf.Abs(transform.lossyScale.z)) / 3f : 1f);
            Gizmos.color = new Color(1f, 0.55f, 0.1f, 1f);
            for (int k = 0; k < l.Nz; k++)
            {
                for (int j = 0; j < l.Ny; j++)
                {
                    for (int i = 0; i < l.Nx; i++)
                    {
                        Vector3 p = GizmoPoint(l, live, i, j, k);
                        Gizmos.DrawWireSphere(p, radius);
                        if (i + 1 < l.Nx)
                        {
                            Gizmos.DrawLine(p, GizmoPoint(l, live, i + 1, j, k));
                        }
                        if (j + 1 < l.Ny)
                        {
                            Gizmos.DrawLine(p, GizmoPoint(l, live, i, j + 1, k));
                        }
                        if (k + 1 < l.Nz)
                        {
                            Gizmos.DrawLine(p, GizmoPoint(l, live, i, j, k + 1));
                        }
                    }
                }
            }
            Gizmos.matrix = saved;
        }

        Vector3 GizmoPoint(LatticeLayout l, bool live, int i, int j, int k)
        {
            return live ? particles[l.Index(i, j, k)] : l.Point(i, j, k);
        }
    }
}
