// Hand-written. The maths of the scene-view paint brush, on plain arrays, so that it runs (and
// is tested) without the editor: which vertices a stroke reaches and by how much, paint / erase
// / flood, the mirror image of a stroke, the ray from the mouse onto the mesh, and the colours
// the gizmos and docs pictures give a painted value. The editor tool (Editor/SinewPaintTool.cs)
// only turns mouse events into calls of these.
using System;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>What a stroke does to the values under the brush.</summary>
    public enum SinewBrushMode
    {
        /// <summary>Move each value towards the brush value by strength × falloff weight.</summary>
        Paint = 0,

        /// <summary>Move each value back towards the channel's unpainted value.</summary>
        Erase = 1,

        /// <summary>Set every vertex to the brush value, wherever the brush is.</summary>
        Flood = 2,
    }

    /// <summary>The mesh-space plane a stroke is mirrored across (x = 0, y = 0 or z = 0).</summary>
    public enum SinewMirrorAxis
    {
        None = 0,
        X = 1,
        Y = 2,
        Z = 3,
    }

    /// <summary>
    /// The paint brush on plain data. Positions and the brush centre are in the same space (the
    /// mesh's own, so that a mirror plane x = 0 is the model's symmetry plane).
    /// </summary>
    /// <remarks>
    /// <para>Weight of a vertex at distance d from the centre, for radius r and falloff f ∈ [0, 1]:
    /// 1 for d ≤ r(1 − f), 0 for d ≥ r, and between them the smoothstep 3t² − 2t³ of
    /// t = (r − d) / (r f). f = 0 is a hard-edged brush, f = 1 fades from the centre.</para>
    /// <para>Paint moves a value v towards the brush value b: v ← v + (b − v) · s · w (s the
    /// strength); an unpainted value (negative, for the channels where negative means "free")
    /// counts as b, so the first touch sets it. Erase moves towards the channel's unpainted value
    /// the same way, and sets a "free" channel back to its (negative) unpainted value where
    /// s · w ≥ 0.5. Flood sets every value to b.</para>
    /// <para>Mirroring applies the weight max(w(p − c), w(p − c′)) with c′ the centre mirrored
    /// across the plane: a vertex reached by both halves of the stroke is painted once, so a
    /// mirrored stroke on a symmetric mesh leaves symmetric values.</para>
    /// </remarks>
    public static class SinewBrush
    {
        /// <summary>The weight of a vertex <paramref name="distance"/> metres from the centre.</summary>
        public static float Weight(float distance, float radius, float falloff)
        {
            if (!(radius > 0f) || distance >= radius)
            {
                return 0f;
            }
            float f = Mathf.Clamp01(falloff);
            float inner = radius * (1f - f);
            if (distance <= inner)
            {
                return 1f;
            }
            float t = (radius - distance) / (radius - inner);
            return t * t * (3f - 2f * t);
        }

        /// <summary><paramref name="p"/> mirrored across the plane of <paramref name="axis"/> (itself for None).</summary>
        public static Vector3 Mirror(Vector3 p, SinewMirrorAxis axis)
        {
            switch (axis)
            {
                case SinewMirrorAxis.X:
                    return new Vector3(-p.x, p.y, p.z);
                case SinewMirrorAxis.Y:
                    return new Vector3(p.x, -p.y, p.z);
                case SinewMirrorAxis.Z:
                    return new Vector3(p.x, p.y, -p.z);
                default:
                    return p;
            }
        }

        /// <summary>
        /// Applies one dab of the brush to <paramref name="values"/> (one per position) and returns
        /// how many values changed. <paramref name="unpainted"/> is the channel's value for "not
        /// painted" (<see cref="SinewVertexPaint.Unpainted"/>). Allocates nothing.
        /// </summary>
        /// <exception cref="ArgumentException">The arrays differ in length, or a number is not finite.</exception>
        public static int Apply(Vector3[] positions, float[] values, Vector3 center, float radius, float falloff, float strength,
            float value, SinewBrushMode mode, SinewMirrorAxis mirror, float unpainted)
        {
            if (positions == null || values == null)
            {
                throw new ArgumentNullException(positions == null ? "positions" : "values");
            }
            if (positions.Length != values.Length)
            {
                throw new ArgumentException("the brush got " + positions.Length + " positions and " + values.Length + " values: paint data must have one value per vertex");
            }
            if (!Finite(radius) || !Finite(falloff) || !Finite(strength) || !Finite(value) || !Finite(center.x) || !Finite(center.y) || !Finite(center.z))
            {
                throw new ArgumentException("brush settings must be finite numbers (radius " + radius + ", falloff " + falloff + ", strength " + strength + ", value " + value + ")");
            }
            int changed = 0;
            if (mode == SinewBrushMode.Flood)
            {
                for (int i = 0; i < values.Length; i++)
                {
                    if (values[i] != value)
                    {
                        values[i] = value;
                        changed++;
                    }
                }
                return changed;
            }
            float s = Mathf.Clamp01(strength);
            bool mirrored = mirror != SinewMirrorAxis.None;
            Vector3 other = Mirror(center, mirror);
            bool freeChannel = unpainted < 0f;
            for (int i = 0; i < positions.Length; i++)
            {
                float w = Weight(Distance(positions[i], center), radius, falloff);
                if (mirrored)
                {
                    w = Mathf.Max(w, Weight(Distance(positions[i], other), radius, falloff));
                }
                float a = s * w;
                if (a <= 0f)
                {
                    continue;
                }
                float old = values[i];
                float next;
                if (mode == SinewBrushMode.Paint)
                {
                    float from = freeChannel && old < 0f ? value : old;
                    next = a >= 1f ? value : from + (value - from) * a;
                }
                else if (freeChannel)
                {
                    next = a >= 0.5f ? unpainted : old;
                }
                else
                {
                    next = a >= 1f ? unpainted : old + (unpainted - old) * a;
                }
                if (next != old)
                {
                    values[i] = next;
                    changed++;
                }
            }
            return changed;
        }

        /// <summary>
        /// The nearest hit of the ray (<paramref name="origin"/>, <paramref name="direction"/>) on
        /// the triangles (Möller–Trumbore, both faces); false when it misses them all.
        /// <paramref name="distance"/> is in units of <paramref name="direction"/>'s length.
        /// </summary>
        public static bool Raycast(Vector3[] positions, int[] triangles, Vector3 origin, Vector3 direction, out float distance, out Vector3 point)
        {
            int triangle;
            Vector2 barycentric;
            return Raycast(positions, triangles, origin, direction, out distance, out point, out triangle, out barycentric);
        }

        /// <summary>
        /// As <see cref="Raycast(Vector3[], int[], Vector3, Vector3, out float, out Vector3)"/>, with
        /// the first index of the triangle hit (into <paramref name="triangles"/>) and the hit's
        /// barycentric coordinates (u, v) on it: point = (1 − u − v)·a + u·b + v·c. The same (u, v)
        /// on another pose of the mesh (its rest shape) gives the same place on the surface.
        /// </summary>
        public static bool Raycast(Vector3[] positions, int[] triangles, Vector3 origin, Vector3 direction, out float distance, out Vector3 point,
            out int triangle, out Vector2 barycentric)
        {
            distance = float.PositiveInfinity;
            point = origin;
            triangle = -1;
            barycentric = new Vector2(0f, 0f);
            if (positions == null || triangles == null)
            {
                return false;
            }
            const float Epsilon = 1e-12f;
            for (int t = 0; t + 2 < triangles.Length; t += 3)
            {
                int ia = triangles[t], ib = triangles[t + 1], ic = triangles[t + 2];
                if ((uint)ia >= (uint)positions.Length || (uint)ib >= (uint)positions.Length || (uint)ic >= (uint)positions.Length)
                {
                    continue;
                }
                Vector3 a = positions[ia];
                Vector3 e1 = positions[ib] - a;
                Vector3 e2 = positions[ic] - a;
                Vector3 p = Vector3.Cross(direction, e2);
                float det = Vector3.Dot(e1, p);
                if (det > -Epsilon && det < Epsilon)
                {
                    continue;
                }
                float inv = 1f / det;
                Vector3 s = origin - a;
                float u = Vector3.Dot(s, p) * inv;
                if (u < 0f || u > 1f)
                {
                    continue;
                }
                Vector3 q = Vector3.Cross(s, e1);
                float v = Vector3.Dot(direction, q) * inv;
                if (v < 0f || u + v > 1f)
                {
                    continue;
                }
                float d = Vector3.Dot(e2, q) * inv;
                if (d >= 0f && d < distance)
                {
                    distance = d;
                    triangle = t;
                    barycentric = new Vector2(u, v);
                }
            }
            if (float.IsPositiveInfinity(distance))
            {
                return false;
            }
            point = origin + direction * distance;
            return true;
        }

        /// <summary>The point at barycentric (u, v) of the triangle starting at <paramref name="triangle"/> of <paramref name="positions"/>.</summary>
        public static Vector3 OnTriangle(Vector3[] positions, int[] triangles, int triangle, Vector2 barycentric)
        {
            Vector3 a = positions[triangles[triangle]];
            Vector3 b = positions[triangles[triangle + 1]];
            Vector3 c = positions[triangles[triangle + 2]];
            return a * (1f - barycentric.x - barycentric.y) + b * barycentric.x + c * barycentric.y;
        }

        /// <summary>
        /// The colour of a painted value in the gizmos and pictures: unpainted ("free", negative)
        /// is grey; otherwise a ramp over [<paramref name="min"/>, <paramref name="max"/>] from
        /// black-red (min: pinned, no movement) through orange and yellow to white-blue (max).
        /// </summary>
        public static Color ValueColor(float value, float min, float max)
        {
            if (value < 0f || !Finite(value))
            {
                return new Color(0.5f, 0.5f, 0.5f, 1f);
            }
            float t = max > min ? Mathf.Clamp01((value - min) / (max - min)) : 1f;
            // Four stops: dark red, orange, yellow, pale blue.
            if (t < 1f / 3f)
            {
                return Mix(new Color(0.45f, 0f, 0f, 1f), new Color(1f, 0.45f, 0f, 1f), t * 3f);
            }
            if (t < 2f / 3f)
            {
                return Mix(new Color(1f, 0.45f, 0f, 1f), new Color(1f, 0.95f, 0.2f, 1f), t * 3f - 1f);
            }
            return Mix(new Color(1f, 0.95f, 0.2f, 1f), new Color(0.75f, 0.9f, 1f, 1f), t * 3f - 2f);
        }

        static Color Mix(Color a, Color b, float t)
        {
            return new Color(a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t, 1f);
        }

        static float Distance(Vector3 a, Vector3 b)
        {
            return Mathf.Sqrt((a - b).sqrMagnitude);
        }

        static bool Finite(float f)
        {
            return !float.IsNaN(f) && !float.IsInfinity(f);
        }
    }
}
