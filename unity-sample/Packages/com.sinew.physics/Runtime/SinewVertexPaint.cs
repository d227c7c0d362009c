// Hand-written. Per-vertex values painted in the scene view (Editor/SinewPaintTool.cs), stored
// with the component (serialized in the scene or prefab, undone with Unity's Undo), not in the
// mesh's vertex colours. Vertex colours can still be imported into it (ImportColors).
using System;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>A channel of <see cref="SinewVertexPaint"/>.</summary>
    public enum SinewPaintChannel
    {
        /// <summary>1 = pinned to the animated mesh, 0 = free (a vertex is pinned at or above the cloth's Pin Threshold).</summary>
        Pin = 0,

        /// <summary>How far (m) a vertex may move from its skinned position; negative = no limit.</summary>
        MaxDistance = 1,

        /// <summary>How far (m) behind its skinned position a vertex may go (the backstop); negative = no backstop.</summary>
        Backstop = 2,

        /// <summary>Mass of the vertex's particle as a multiple of the material's particle mass (× 1 unpainted).</summary>
        MassScale = 3,
    }

    /// <summary>
    /// Painted per-vertex values of a cloth, one array per <see cref="SinewPaintChannel"/>, each as
    /// long as the mesh has vertices (in the mesh's vertex order) or empty (never painted).
    /// </summary>
    [Serializable]
    public sealed class SinewVertexPaint
    {
        [Tooltip("Painted pin weights, one per mesh vertex (0 = free, 1 = pinned). Empty: never painted.")]
        public float[] pin = new float[0];

        [Tooltip("Painted max distances (m), one per mesh vertex; negative = no limit. Empty: never painted.")]
        public float[] maxDistance = new float[0];

        [Tooltip("Painted backstop distances (m), one per mesh vertex; negative = no backstop. Empty: never painted.")]
        public float[] backstop = new float[0];

        [Tooltip("Painted mass multipliers (×), one per mesh vertex: 2 = twice the material's particle mass (a weighted hem). Empty: never painted.")]
        public float[] massScale = new float[0];

        /// <summary>The value of a vertex nobody painted: pin 0, max distance and backstop −1 (none), mass × 1.</summary>
        public static float Unpainted(SinewPaintChannel channel)
        {
            switch (channel)
            {
                case SinewPaintChannel.MaxDistance:
                case SinewPaintChannel.Backstop:
                    return -1f;
                case SinewPaintChannel.MassScale:
                    return 1f;
                default:
                    return 0f;
            }
        }

        /// <summary>The array of <paramref name="channel"/> (possibly empty).</summary>
        public float[] Values(SinewPaintChannel channel)
        {
            switch (channel)
            {
                case SinewPaintChannel.MaxDistance:
                    return maxDistance;
                case SinewPaintChannel.Backstop:
                    return backstop;
                case SinewPaintChannel.MassScale:
                    return massScale;
                default:
                    return pin;
            }
        }

        /// <summary>True when <paramref name="channel"/> holds one value per vertex of a mesh of <paramref name="vertexCount"/>.</summary>
        public bool Has(SinewPaintChannel channel, int vertexCount)
        {
            float[] v = Values(channel);
            return v != null && v.Length == vertexCount && vertexCount > 0;
        }

        /// <summary>
        /// The array of <paramref name="channel"/> sized for <paramref name="vertexCount"/> vertices:
        /// kept when it already fits, otherwise a new one filled with the unpainted value (a mesh
        /// with another vertex count is another mesh: its old paint means nothing).
        /// </summary>
        public float[] Ensure(SinewPaintChannel channel, int vertexCount)
        {
            if (vertexCount < 0)
            {
                throw new ArgumentOutOfRangeException("vertexCount");
            }
            float[] v = Values(channel);
            if (v != null && v.Length == vertexCount)
            {
                return v;
            }
            v = new float[vertexCount];
            float fill = Unpainted(channel);
            for (int i = 0; i < vertexCount; i++)
            {
                v[i] = fill;
            }
            Set(channel, v);
            return v;
        }

        /// <summary>Forgets what was painted in <paramref name="channel"/>.</summary>
        public void Clear(SinewPaintChannel channel)
        {
            Set(channel, new float[0]);
        }

        /// <summary>
        /// Fills <paramref name="channel"/> from a colour channel of the mesh's vertex colours
        /// (the import option for meshes painted in a DCC tool): the channel's value × <paramref name="scale"/>.
        /// Returns false (and changes nothing) when the colours are missing or of another count.
        /// </summary>
        public bool ImportColors(SinewPaintChannel channel, Color[] colors, SinewCloth.ColorChannel colorChannel, float scale, int vertexCount)
        {
            if (colors == null || colors.Length != vertexCount || vertexCount == 0)
            {
                return false;
            }
            var v = new float[vertexCount];
            for (int i = 0; i < vertexCount; i++)
            {
                Color c = colors[i];
                float x = colorChannel == SinewCloth.ColorChannel.Green ? c.g
                    : colorChannel == SinewCloth.ColorChannel.Blue ? c.b
                    : colorChannel == SinewCloth.ColorChannel.Alpha ? c.a : c.r;
                v[i] = x * scale;
            }
            Set(channel, v);
            return true;
        }

        void Set(SinewPaintChannel channel, float[] v)
        {
            switch (channel)
            {
                case SinewPaintChannel.MaxDistance:
                    maxDistance = v;
                    break;
                case SinewPaintChannel.Backstop:
                    backstop = v;
                    break;
                case SinewPaintChannel.MassScale:
                    massScale = v;
                    break;
                default:
                    pin = v;
                    break;
            }
        }
    }
}
