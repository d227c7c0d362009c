// Hand-written. Scene-view gizmos of the cloth, rope and hair components (the soft body, ragdoll,
// collider and wind-zone gizmos are the components' own OnDrawGizmosSelected): particles coloured
// by their painted values, constraints as the mesh's edges, tethers on demand, a rope's segments,
// the hair's scalp and roots. In Play mode they show the simulated positions.
using Sinew.Components;
using UnityEditor;
using UnityEngine;

namespace Sinew.Editor
{
    public static class SinewGizmos
    {
        public static bool ShowParticles = true;
        public static bool ShowConstraints = false;
        public static bool ShowTethers = false;

        // Above this many vertices only every k-th is drawn (gizmos are a preview).
        const int MaxDrawn = 4000;

        [DrawGizmo(GizmoType.Selected | GizmoType.Active)]
        static void DrawCloth(SinewCloth cloth, GizmoType type)
        {
            Mesh mesh = SinewEditorGUI.ClothMesh(cloth);
            if (mesh == null || !mesh.isReadable)
            {
                return;
            }
            int n = mesh.vertexCount;
            Vector3[] points = PlayPositions(cloth, n);
            bool live = points != null;
            if (!live)
            {
                points = mesh.vertices;
                Matrix4x4 toWorld = cloth.transform.localToWorldMatrix;
                for (int i = 0; i < points.Length; i++)
                {
                    points[i] = toWorld.MultiplyPoint3x4(points[i]);
                }
            }
            int step = Mathf.Max(1, n / MaxDrawn);
            float size = 0.004f * Mathf.Max(0.01f, Mean(cloth.transform.lossyScale));
            // The pins as the cloth would take them now, from whichever source it reads.
            bool[] pinned = null;
            try
            {
                pinned = SinewCloth.FindPinnedVertices(mesh, cloth.pinSource, cloth.pinChannel, cloth.pinThreshold, cloth.pinWeights, cloth.paint);
            }
            catch (System.InvalidOperationException)
            {
                // The inspector's help box says what is missing.
            }
            if (ShowParticles)
            {
                bool painted = cloth.paint.Has(SinewPaintSettings.Channel, n);
                float[] values = painted ? cloth.paint.Values(SinewPaintSettings.Channel) : null;
                float max = SinewPaintSettings.RampMax(cloth, SinewPaintSettings.Channel);
                for (int i = 0; i < n; i += step)
                {
                    // The painted channel's colour ramp; unpainted: pins red, free vertices grey.
                    Gizmos.color = painted ? SinewBrush.ValueColor(values[i], 0f, max)
                        : pinned != null && pinned[i] ? new Color(0.9f, 0.1f, 0.1f, 1f) : new Color(0.8f, 0.8f, 0.8f, 1f);
                    Gizmos.DrawWireSphere(points[i], size);
                }
            }
            if (ShowConstraints)
            {
                Gizmos.color = new Color(0.55f, 0.6f, 0.65f, 0.6f);
                int[] t = mesh.triangles;
                for (int i = 0; i + 2 < t.Length && i / 3 < MaxDrawn; i += 3)
                {
                    Gizmos.DrawLine(points[t[i]], points[t[i + 1]]);
                    Gizmos.DrawLine(points[t[i + 1]], points[t[i + 2]]);
                    Gizmos.DrawLine(points[t[i + 2]], points[t[i]]);
                }
            }
            if (ShowTethers && cloth.useTethers && pinned != null)
            {
                // Each free vertex to its nearest pin (straight: Euclidean tethers; geodesic ones
                // reach the pin nearest along the cloth, which may be another).
                Gizmos.color = new Color(0.3f, 0.9f, 0.5f, 0.7f);
                for (int i = 0; i < n; i += step * 4)
                {
                    if (pinned[i])
                    {
                        continue;
                    }
                    int best = -1;
                    float bestD = float.MaxValue;
                    for (int j = 0; j < n; j++)
                    {
                        if (pinned[j])
                        {
                            float d = (points[j] - points[i]).sqrMagnitude;
                            if (d < bestD)
                            {
                                bestD = d;
                                best = j;
                            }
                        }
                    }
                    if (best >= 0)
                    {
                        Gizmos.DrawLine(points[i], points[best]);
                    }
                }
            }
        }

        [DrawGizmo(GizmoType.Selected | GizmoType.Active)]
        static void DrawRope(SinewRope rope, GizmoType type)
        {
            int n = Mathf.Max(1, rope.segments) + 1;
            Vector3[] points = PlayPositions(rope, n);
            if (points == null)
            {
                Vector3 a = rope.start != null ? rope.start.position : rope.transform.position;
                Vector3 b = rope.end != null ? rope.end.position : a + Vector3.down * rope.length;
                points = new Vector3[n];
                for (int i = 0; i < n; i++)
                {
                    float t = (float)i / (n - 1);
                    points[i] = a + (b - a) * t;
                }
            }
            for (int i = 0; i < points.Length; i++)
            {
                bool pinned = (i == 0 && rope.pinStart) || (i == points.Length - 1 && rope.pinEnd && rope.end != null);
                Gizmos.color = pinned ? new Color(0.9f, 0.1f, 0.1f, 1f) : new Color(1f, 0.8f, 0.2f, 1f);
                Gizmos.DrawWireSphere(points[i], Mathf.Max(0.002f, 0.5f * rope.width));
                if (i > 0)
                {
                    Gizmos.DrawLine(points[i - 1], points[i]);
                }
            }
        }

        [DrawGizmo(GizmoType.Selected | GizmoType.Active)]
        static void DrawHair(SinewHair hair, GizmoType type)
        {
            Transform head = hair.head != null ? hair.head : hair.transform;
            Gizmos.color = new Color(0.6f, 0.4f, 1f, 1f);
            Gizmos.DrawWireSphere(head.TransformPoint(hair.scalpCenter), hair.scalpRadius * Mean(head.lossyScale));
            if (hair.rootSource != SinewHair.RootSource.Generator)
            {
                return;
            }
            int count = Mathf.Clamp(hair.strandCount, 0, 512);
            var roots = new Vector3[count];
            var directions = new Vector3[count];
            SinewHair.GenerateScalp(head.localToWorldMatrix, hair.scalpCenter, hair.scalpRadius, hair.coverage, count, roots, directions);
            float length = hair.segmentLength * Mathf.Max(1, hair.particlesPerStrand - 1);
            for (int i = 0; i < count; i++)
            {
                Gizmos.DrawLine(roots[i], roots[i] + directions[i] * length);
            }
        }

        /// <summary>The body's simulated positions in Play mode (after the step completes), or null.</summary>
        static Vector3[] PlayPositions(SinewBodyBehaviour body, int n)
        {
            if (!EditorApplication.isPlaying || body.Body == null || body.Body.IsDisposed || body.world == null)
            {
                return null;
            }
            body.world.CompleteStep();
            int count = body.Body.VertexCount;
            var points = new Vector3[count];
            body.Body.ReadPositions(points);
            return points.Length >= n ? points : null;
        }

        static float Mean(Vector3 s)
        {
            return (Mathf.Abs(s.x) + Mathf.Abs(s.y) + Mathf.Abs(s.z)) / 3f;
        }
    }
}
