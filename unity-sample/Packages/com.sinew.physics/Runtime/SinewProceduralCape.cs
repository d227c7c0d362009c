// Hand-written. A rectangular cape mesh with its top row painted as pinned, for trying
// SinewCloth without a modelled garment (the sample scene and the benchmark use it).
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// Gives this GameObject's <c>MeshFilter</c> a grid mesh in <c>Awake</c>: <see cref="columns"/>
    /// × <see cref="rows"/> vertices, the top row along local X at y = 0 and the rest hanging down
    /// along −Y, facing −Z. The top row's vertex colour is red (pinned for a <see cref="SinewCloth"/>
    /// reading the red channel), every other vertex black.
    /// </summary>
    [RequireComponent(typeof(MeshFilter))]
    [DefaultExecutionOrder(-100)]
    [AddComponentMenu("Sinew/Sinew Procedural Cape")]
    public sealed class SinewProceduralCape : MonoBehaviour
    {
        [Tooltip("Width along local X (m).")]
        [Min(0.01f)]
        public float width = 0.8f;

        [Tooltip("Length hanging down along local −Y (m).")]
        [Min(0.01f)]
        public float length = 1f;

        [Tooltip("Vertices across (2–250).")]
        [Range(2, 250)]
        public int columns = 16;

        [Tooltip("Vertices down (2–250).")]
        [Range(2, 250)]
        public int rows = 20;

        void Awake()
        {
            Mesh mesh = BuildMesh(columns, rows, width, length);
            mesh.hideFlags = HideFlags.DontSave;
            GetComponent<MeshFilter>().sharedMesh = mesh;
        }

        /// <summary>
        /// The cape mesh: vertex <c>row * columns + column</c>, row 0 at the top. No vertex is
        /// shared by two UV islands, so Sinew and Unity's Cloth see the same particles.
        /// </summary>
        public static Mesh BuildMesh(int columns, int rows, float width, float length)
        {
            columns = Mathf.Clamp(columns, 2, 250);
            rows = Mathf.Clamp(rows, 2, 250);
            int n = columns * rows;
            var vertices = new Vector3[n];
            var normals = new Vector3[n];
            var uv = new Vector2[n];
            var colors = new Color[n];
            for (int r = 0; r < rows; r++)
            {
                float v = r / (float)(rows - 1);
                for (int c = 0; c < columns; c++)
                {
                    float u = c / (float)(columns - 1);
                    int i = r * columns + c;
                    vertices[i] = new Vector3((u - 0.5f) * width, -v * length, 0f);
                    normals[i] = new Vector3(0f, 0f, -1f);
                    uv[i] = new Vector2(u, 1f - v);
                    colors[i] = r == 0 ? new Color(1f, 0f, 0f, 1f) : new Color(0f, 0f, 0f, 1f);
                }
            }
            // Clockwise seen from −Z (Unity's front faces), so the cape's outside faces −Z.
            var triangles = new int[(columns - 1) * (rows - 1) * 6];
            int t = 0;
            for (int r = 0; r < rows - 1; r++)
            {
                for (int c = 0; c < columns - 1; c++)
                {
                    int i = r * columns + c;
                    triangles[t++] = i;
                    triangles[t++] = i + 1;
                    triangles[t++] = i + columns;
                    triangles[t++] = i + 1;
                    triangles[t++] = i + columns + 1;
                    triangles[t++] = i + columns;
                }
            }
            var mesh = new Mesh();
            mesh.name = "Sinew Procedural Cape";
            mesh.vertices = vertices;
            mesh.normals = normals;
            mesh.uv = uv;
            mesh.colors = colors;
            mesh.triangles = triangles;
            mesh.RecalculateBounds();
            return mesh;
        }
    }
}
