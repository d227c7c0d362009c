// Hand-written. The scene-view paint tool of Sinew Cloth: turns the mouse into SinewBrush calls
// (Runtime/SinewBrush.cs holds the maths, tested without the editor), with one undo step per
// stroke, and shows the painted values as coloured dots.
using System.Collections.Generic;
using Sinew.Components;
using UnityEditor;
using UnityEditor.EditorTools;
using UnityEngine;

namespace Sinew.Editor
{
    /// <summary>The brush settings, shared by the tool and the inspector's Paint section (for the session).</summary>
    public static class SinewPaintSettings
    {
        public static SinewPaintChannel Channel = SinewPaintChannel.Pin;
        public static SinewBrushMode Mode = SinewBrushMode.Paint;
        public static float Value = 1f;
        public static float Radius = 0.05f;
        public static float Falloff = 0.5f;
        public static float Strength = 1f;
        public static SinewMirrorAxis Mirror = SinewMirrorAxis.None;

        /// <summary>The unit of the current channel's values.</summary>
        public static string Unit
        {
            get { return Channel == SinewPaintChannel.Pin ? "0–1" : Channel == SinewPaintChannel.MassScale ? "×" : "m"; }
        }

        /// <summary>The top of the colour ramp for the current channel.</summary>
        public static float RampMax(SinewCloth cloth)
        {
            switch (Channel)
            {
                case SinewPaintChannel.MaxDistance:
                    return Mathf.Max(0.01f, cloth.maxDistanceScale);
                case SinewPaintChannel.Backstop:
                    return Mathf.Max(0.01f, cloth.backstopRadius);
                case SinewPaintChannel.MassScale:
                    return 4f;
                default:
                    return 1f;
            }
        }
    }

    [EditorTool("Paint Sinew Cloth", typeof(SinewCloth))]
    public sealed class SinewPaintTool : EditorTool
    {
        // The mesh's rest vertices and triangles, read once per mesh (painting is in mesh space).
        static readonly Dictionary<Mesh, Vector3[]> Vertices = new Dictionary<Mesh, Vector3[]>();
        static readonly Dictionary<Mesh, int[]> Triangles = new Dictionary<Mesh, int[]>();
        int strokeGroup = -1;

        public override GUIContent toolbarIcon
        {
            get { return new GUIContent("Paint", "Paint Sinew Cloth: pins, max distance, backstop, mass"); }
        }

        public override void OnToolGUI(EditorWindow window)
        {
            var cloth = target as SinewCloth;
            if (cloth == null)
            {
                return;
            }
            Mesh mesh = SinewEditorGUI.ClothMesh(cloth);
            if (mesh == null || !mesh.isReadable)
            {
                return;
            }
            Vector3[] vertices = Read(mesh);
            int[] triangles = Triangles[mesh];
            int id = GUIUtility.GetControlID(FocusType.Passive);
            HandleUtility.AddDefaultControl(id);
            Event e = Event.current;

            // The brush centre: the mouse ray in mesh space onto the rest mesh.
            Matrix4x4 toLocal = cloth.transform.worldToLocalMatrix;
            Matrix4x4 toWorld = cloth.transform.localToWorldMatrix;
            Ray ray = HandleUtility.GUIPointToWorldRay(e.mousePosition);
            float distance;
            Vector3 hit;
            bool onMesh = SinewBrush.Raycast(vertices, triangles, toLocal.MultiplyPoint3x4(ray.origin), toLocal.MultiplyVector(ray.direction), out distance, out hit);

            EventType type = e.GetTypeForControl(id);
            if (onMesh && !e.alt && e.button == 0 && (type == EventType.MouseDown || type == EventType.MouseDrag))
            {
                if (type == EventType.MouseDown)
                {
                    Undo.IncrementCurrentGroup();
                    strokeGroup = Undo.GetCurrentGroup();
                    Undo.SetCurrentGroupName("Paint Sinew " + SinewPaintSettings.Channel);
                    GUIUtility.hotControl = id;
                }
                Dab(cloth, vertices, hit, SinewPaintSettings.Mode);
                e.Use();
            }
            else if (type == EventType.MouseUp && GUIUtility.hotControl == id)
            {
                GUIUtility.hotControl = 0;
                if (strokeGroup >= 0)
                {
                    Undo.CollapseUndoOperations(strokeGroup);
                    strokeGroup = -1;
                }
                e.Use();
            }

            if (type == EventType.Repaint)
            {
                DrawValues(cloth, vertices, toWorld);
                if (onMesh)
                {
                    Handles.color = new Color(1f, 1f, 1f, 0.9f);
                    Vector3 c = toWorld.MultiplyPoint3x4(hit);
                    float r = SinewPaintSettings.Radius * Mean(cloth.transform.lossyScale);
                    Handles.DrawWireDisc(c, ray.direction, r);
                    Handles.DrawWireDisc(c, ray.direction, r * (1f - SinewPaintSettings.Falloff));
                    if (SinewPaintSettings.Mirror != SinewMirrorAxis.None)
                    {
                        Handles.color = new Color(0.6f, 0.8f, 1f, 0.9f);
                        Handles.DrawWireDisc(toWorld.MultiplyPoint3x4(SinewBrush.Mirror(hit, SinewPaintSettings.Mirror)), ray.direction, r);
                    }
                }
            }
            if (type == EventType.MouseMove || type == EventType.MouseDrag)
            {
                window.Repaint();
            }
        }

        /// <summary>One dab on <paramref name="cloth"/> at <paramref name="center"/> (mesh space), recorded for undo.</summary>
        static void Dab(SinewCloth cloth, Vector3[] vertices, Vector3 center, SinewBrushMode mode)
        {
            Undo.RecordObject(cloth, "Paint Sinew " + SinewPaintSettings.Channel);
            float[] values = cloth.paint.Ensure(SinewPaintSettings.Channel, vertices.Length);
            // The radius is in world metres; the mesh space differs by the Transform's scale.
            float radius = SinewPaintSettings.Radius / Mathf.Max(1e-6f, Mean(cloth.transform.lossyScale));
            SinewBrush.Apply(vertices, values, center, radius, SinewPaintSettings.Falloff, SinewPaintSettings.Strength,
                SinewPaintSettings.Value, mode, SinewPaintSettings.Mirror, SinewVertexPaint.Unpainted(SinewPaintSettings.Channel));
            EditorUtility.SetDirty(cloth);
            cloth.ApplySettings();
        }

        /// <summary>Applies <paramref name="mode"/> (Flood) to every selected cloth, with undo.</summary>
        public static void ApplyToAll(Object[] targets, SinewBrushMode mode)
        {
            foreach (Object t in targets)
            {
                var cloth = (SinewCloth)t;
                Mesh mesh = SinewEditorGUI.ClothMesh(cloth);
                if (mesh != null && mesh.isReadable)
                {
                    Dab(cloth, Read(mesh), Vector3.zero, mode);
                }
            }
            SceneView.RepaintAll();
        }

        static void DrawValues(SinewCloth cloth, Vector3[] vertices, Matrix4x4 toWorld)
        {
            if (!cloth.paint.Has(SinewPaintSettings.Channel, vertices.Length))
            {
                return;
            }
            float[] values = cloth.paint.Values(SinewPaintSettings.Channel);
            float max = SinewPaintSettings.RampMax(cloth);
            // Thin out big meshes: the dots are a preview, not the data.
            int step = Mathf.Max(1, vertices.Length / 6000);
            for (int i = 0; i < vertices.Length; i += step)
            {
                Vector3 p = toWorld.MultiplyPoint3x4(vertices[i]);
                Handles.color = SinewBrush.ValueColor(values[i], 0f, max);
                Handles.DotHandleCap(0, p, Quaternion.identity, 0.01f * HandleUtility.GetHandleSize(p), EventType.Repaint);
            }
        }

        static Vector3[] Read(Mesh mesh)
        {
            Vector3[] v;
            if (!Vertices.TryGetValue(mesh, out v) || v.Length != mesh.vertexCount)
            {
                v = mesh.vertices;
                Vertices[mesh] = v;
                Triangles[mesh] = mesh.triangles;
            }
            return v;
        }

        static float Mean(Vector3 s)
        {
            return (Mathf.Abs(s.x) + Mathf.Abs(s.y) + Mathf.Abs(s.z)) / 3f;
        }
    }
}
