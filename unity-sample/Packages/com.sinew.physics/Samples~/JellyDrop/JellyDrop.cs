// Sample. A few jellies (SinewSoftBody: the chapter's lattice jelly under a render mesh) dropped
// onto a plane and onto each other: stacks of jelly cubes and jelly balls, every pair of them
// colliding (Body.SetCollisionPair). README.md beside this file says how to run it.
using System.Text;
using Sinew.Components;
using UnityEngine;
// Sinew.SinewCollider is the native handle; the component is meant here.
using SinewCollider = Sinew.Components.SinewCollider;
using Collider = UnityEngine.Collider;

namespace SinewSamples
{
    /// <summary>
    /// Builds, when Play starts, a ground plane (a Sinew plane collider) and
    /// <see cref="stacks"/> × <see cref="jelliesPerStack"/> jellies held above it, each stack's
    /// jellies one above the other so that they land on the one below. Cubes are a subdivided box
    /// mesh (so that the lattice's wobble shows on the faces), balls Unity's sphere; every jelly is a
    /// <see cref="SinewSoftBody"/> with the settings below, and every pair of jellies collides.
    /// The screen shows each jelly's volume against its rest volume.
    /// </summary>
    [AddComponentMenu("Sinew Samples/Jelly Drop")]
    public sealed class JellyDrop : MonoBehaviour
    {
        [Header("Scene")]
        [Tooltip("Stacks of jellies side by side.")]
        [Range(1, 8)]
        public int stacks = 3;

        [Tooltip("Jellies per stack, one above the other: each lands on the one below.")]
        [Range(1, 6)]
        public int jelliesPerStack = 2;

        [Tooltip("Edge length of a jelly cube and diameter of a jelly ball (m).")]
        [Min(0.05f)]
        public float jellySize = 0.4f;

        [Tooltip("Height (m) of the lowest jelly's bottom above the ground when it is let go.")]
        [Min(0f)]
        public float dropHeight = 0.6f;

        [Tooltip("Gap (m) between the jellies of a stack when they are let go.")]
        [Min(0f)]
        public float stackGap = 0.3f;

        [Tooltip("Every other jelly is a ball (Unity's sphere over a cubic lattice) instead of a cube.")]
        public bool alternateBalls = true;

        [Tooltip("Each jelly is turned by this much (degrees) about the vertical and a horizontal axis, so that the stacks topple rather than land flat.")]
        [Range(0f, 45f)]
        public float tilt = 12f;

        [Header("Jelly (SinewSoftBody)")]
        [Tooltip("Lattice cells along a jelly's longest axis.")]
        [Range(1, 12)]
        public int resolution = 5;

        [Tooltip("Shape stiffness: the fraction of the way back to the rest shape per 1/60 s (0–1).")]
        [Range(0f, 1f)]
        public float shapeStiffness = 0.3f;

        [Tooltip("Compliance of the lattice's edges (m/N): larger wobbles more.")]
        [Range(0f, 0.01f)]
        public float edgeCompliance = 2e-4f;

        [Tooltip("Compliance of the volume of each tetrahedron (m³/(N·m)): 0 keeps it exactly.")]
        [Range(0f, 1f)]
        public float volumeCompliance = 0f;

        [Tooltip("Mass of each jelly (kg).")]
        [Min(1e-3f)]
        public float mass = 1f;

        [Tooltip("Subdivisions of each face of a jelly cube's render mesh.")]
        [Range(1, 32)]
        public int cubeSubdivisions = 8;

        [Header("World")]
        [Tooltip("Fixed steps per second of the Sinew world.")]
        [Min(1f)]
        public float fixedRateHz = 60f;

        [Tooltip("Substeps per fixed step of the Sinew world.")]
        [Range(1, 64)]
        public int substeps = 8;

        SinewWorldBehaviour world;
        SinewSoftBody[] jellies;
        Mesh cubeMesh;
        bool paired;
        readonly StringBuilder status = new StringBuilder(512);

        void Start()
        {
            world = gameObject.AddComponent<SinewWorldBehaviour>();
            world.fixedRateHz = fixedRateHz;
            world.substeps = substeps;

            GameObject ground = GameObject.CreatePrimitive(PrimitiveType.Plane);
            ground.name = "Ground";
            ground.transform.localScale = new Vector3(2f, 1f, 2f);
            var plane = ground.AddComponent<SinewCollider>();
            plane.world = world;
            plane.shape = SinewCollider.Shape.Plane;

            cubeMesh = SubdividedCube(cubeSubdivisions);
            jellies = new SinewSoftBody[stacks * jelliesPerStack];
            float pitch = jellySize * 1.6f;
            for (int s = 0; s < stacks; s++)
            {
                for (int k = 0; k < jelliesPerStack; k++)
                {
                    int index = s * jelliesPerStack + k;
                    bool ball = alternateBalls && index % 2 == 1;
                    Vector3 at = new Vector3((s - 0.5f * (stacks - 1)) * pitch,
                        dropHeight + 0.5f * jellySize + k * (jellySize + stackGap), 0f);
                    jellies[index] = Spawn(index, ball, at);
                }
            }
        }

        SinewSoftBody Spawn(int index, bool ball, Vector3 at)
        {
            GameObject jelly = GameObject.CreatePrimitive(ball ? PrimitiveType.Sphere : PrimitiveType.Cube);
            jelly.name = (ball ? "Jelly Ball " : "Jelly Cube ") + index;
            // Sinew moves the jelly: Unity's own collider of the primitive is not needed.
            Collider primitiveCollider = jelly.GetComponent<Collider>();
            primitiveCollider.enabled = false;
            Object.Destroy(primitiveCollider);
            if (!ball)
            {
                jelly.GetComponent<MeshFilter>().sharedMesh = cubeMesh;
            }
            float turn = (index % 2 == 0 ? 1f : -1f) * tilt;
            jelly.transform.SetPositionAndRotation(at, Quaternion.Euler(turn, 2f * turn, 0f));
            jelly.transform.localScale = new Vector3(jellySize, jellySize, jellySize);

            // The component builds the lattice in its Start, from the fields set here.
            var soft = jelly.AddComponent<SinewSoftBody>();
            soft.world = world;
            soft.resolution = resolution;
            soft.shapeStiffness = shapeStiffness;
            soft.edgeCompliance = edgeCompliance;
            soft.volumeCompliance = volumeCompliance;
            soft.mass = mass;
            return soft;
        }

        void Update()
        {
            if (paired || jellies == null)
            {
                return;
            }
            // The bodies exist once every jelly's Start has run: then pair them all, once.
            for (int i = 0; i < jellies.Length; i++)
            {
                if (jellies[i] == null || jellies[i].Body == null)
                {
                    return;
                }
            }
            world.CompleteStep();
            for (int i = 0; i < jellies.Length; i++)
            {
                for (int j = i + 1; j < jellies.Length; j++)
                {
                    jellies[i].Body.SetCollisionPair(jellies[j].Body, true);
                }
            }
            paired = true;
        }

        void OnGUI()
        {
            if (jellies == null || world == null)
            {
                return;
            }
            // A sample's screen text: built anew each time (the components themselves allocate nothing per frame).
            world.CompleteStep();
            status.Length = 0;
            status.Append("Jelly Drop: ").Append(jellies.Length).Append(" jellies, ").Append(paired ? "all pairs collide" : "pairing...").Append('\n');
            for (int i = 0; i < jellies.Length; i++)
            {
                Sinew.SoftBody body = jellies[i] != null ? jellies[i].SoftBody : null;
                if (body == null)
                {
                    continue;
                }
                float volume, rest;
                body.GetVolume(out volume, out rest);
                status.Append(jellies[i].name).Append(": volume ").Append((100f * volume / rest).ToString("F1")).Append(" % of rest, ")
                    .Append(jellies[i].ParticleCount).Append(" particles\n");
            }
            GUI.Label(new Rect(10f, 10f, 600f, 24f + 18f * jellies.Length), status.ToString());
        }

        void OnDestroy()
        {
            if (cubeMesh != null)
            {
                Object.Destroy(cubeMesh);
            }
        }

        /// <summary>A unit cube centred on the origin with <paramref name="s"/> × <paramref name="s"/>
        /// quads per face (its own vertices per face, so that the normals stay sharp at the edges).</summary>
        public static Mesh SubdividedCube(int s)
        {
            s = Mathf.Max(1, s);
            // Each face: its normal n and two axes u, v with u × v = n, so that the triangles
            // (00, 10, 11) and (00, 11, 01) face outward.
            Vector3[] n = { Vector3.right, -Vector3.right, Vector3.up, -Vector3.up, Vector3.forward, -Vector3.forward };
            Vector3[] u = { Vector3.up, Vector3.forward, Vector3.forward, Vector3.right, Vector3.right, Vector3.up };
            Vector3[] v = { Vector3.forward, Vector3.up, Vector3.right, Vector3.forward, Vector3.up, Vector3.right };
            int side = s + 1;
            var vertices = new Vector3[6 * side * side];
            var uv = new Vector2[vertices.Length];
            var triangles = new int[6 * s * s * 6];
            int t = 0;
            for (int f = 0; f < 6; f++)
            {
                int first = f * side * side;
                for (int i = 0; i <= s; i++)
                {
                    for (int j = 0; j <= s; j++)
                    {
                        float a = (float)i / s, b = (float)j / s;
                        vertices[first + i * side + j] = 0.5f * n[f] + (a - 0.5f) * u[f] + (b - 0.5f) * v[f];
                        uv[first + i * side + j] = new Vector2(a, b);
                    }
                }
                for (int i = 0; i < s; i++)
                {
                    for (int j = 0; j < s; j++)
                    {
                        int p00 = first + i * side + j, p10 = p00 + side, p11 = p10 + 1, p01 = p00 + 1;
                        triangles[t++] = p00;
                        triangles[t++] = p10;
                        triangles[t++] = p11;
                        triangles[t++] = p00;
                        triangles[t++] = p11;
                        triangles[t++] = p01;
                    }
                }
            }
            var mesh = new Mesh();
            mesh.name = "Jelly Cube " + s + "x" + s;
            mesh.vertices = vertices;
            mesh.uv = uv;
            mesh.triangles = triangles;
            mesh.RecalculateNormals();
            mesh.RecalculateBounds();
            return mesh;
        }
    }
}
