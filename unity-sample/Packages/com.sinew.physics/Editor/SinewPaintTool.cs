// Hand-written. The scene-view paint tool of Sinew Cloth (and, for pins, Sinew Soft Body:
// SinewSoftBodyPaintTool.cs): turns the mouse into SinewBrush calls
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

        /// <summary>The unit of <paramref name="channel"/>'s values.</summary>
        public static string Unit(SinewPaintChannel channel)
        {
            return channel == SinewPaintChannel.Pin ? "0–1" : channel == SinewPaintChannel.MassScale ? "×" : "m";
        }

        /// <summary>The button that starts and stops painting with <paramref name="tool"/>.</summary>
        public static void ToolButton(System.Type tool)
        {
            bool active = ToolManager.activeToolType == tool;
            if (GUILayout.Button(active ? "Stop painting" : "Paint in the scene view"))
            {
                if (active)
                {
                    ToolManager.RestorePreviousTool();
                }
                else
                {
                    ToolManager.SetActiveTool(tool);
                }
            }
        }

        /// <summary>Mode, value (ranged for <paramref name="channel"/>), radius, falloff, strength and mirror.</summary>
        public static void BrushFields(SinewPaintChannel channel)
        {
            Mode = (SinewBrushMode)EditorGUILayout.EnumPopup("Mode", Mode);
            float min = channel == SinewPaintChannel.MassScale ? 0.1f : 0f;
            float max = channel == SinewPaintChannel.MassScale ? 10f : 1f;
            Value = EditorGUILayout.Slider("Value (" + Unit(channel) + ")", Mathf.Clamp(Value, min, max), min, max);
            Radius = EditorGUILayout.Slider("Radius (m)", Radius, 0.001f, 2f);
            Falloff = EditorGUILayout.Slider("Falloff (share of the radius)", Falloff, 0f, 1f);
            Strength = EditorGUILayout.Slider("Strength (per dab)", Strength, 0f, 1f);
            Mirror = (SinewMirrorAxis)EditorGUILayout.EnumPopup("Mirror (mesh space)", Mirror);
        }

        /// <summary>The top of the colour ramp for <paramref name="channel"/>.</summary>
        public static float RampMax(SinewBodyBehaviour body, SinewPaintChannel channel)
        {
            var cloth = body as SinewCloth;
            switch (channel)
            {
                case SinewPaintChannel.MaxDistance:
                    return cloth != null ? Mathf.Max(0.01f, cloth.maxDistanceScale) : 0.1f;
                case SinewPaintChannel.Backstop:
                    return cloth != null ? Mathf.Max(0.01f, cloth.backstopRadius) : 0.1f;
                case SinewPaintChannel.MassScale:
                    return 4f;
                default:
                    return 1f;
            }
        }
    }

    /// <summary>The paint tool of Sinew Cloth: pins, max distances, backstops, mass.</summary>
    [EditorTool("Paint Sinew Cloth", typeof(SinewCloth))]
    public sealed class SinewPaintTool : SinewPaintToolBase
    {
        public override GUIContent toolbarIcon
        {
            get { return new GUIContent("Paint", "Paint Sinew Cloth: pins, max distance, backstop, mass"); }
        }

        protected override Mesh MeshOf(SinewBodyBehaviour body)
        {
            return SinewEditorGUI.ClothMesh((SinewCloth)body);
        }

        protected override SinewVertexPaint PaintOf(SinewBodyBehaviour body)
        {
            return ((SinewCloth)body).paint;
        }

        protected override SinewPaintChannel Channel
        {
            get { return SinewPaintSettings.Channel; }
        }

        /// <summary>Applies <paramref name="mode"/> (Flood) to every selected cloth, with undo.</summary>
        public static void ApplyToAll(Object[] targets, SinewBrushMode mode)
        {
            FloodAll(targets, mode, SinewPaintSettings.Channel, t => SinewEditorGUI.ClothMesh((SinewCloth)t), t => ((SinewCloth)t).paint);
        }
    }

    /// <summary>What the cloth and soft-body paint tools share: the mouse, the stroke's undo group, the preview.</summary>
    public abstract class SinewPaintToolBase : EditorTool
    {
        // The mesh's rest vertices and triangles, read once per mesh (painting is in mesh space).
        static readonly Dictionary<Mesh, Vector3[]> Vertices = new Dictionary<Mesh, Vector3[]>();
        static readonly Dictionary<Mesh, int[]> Triangles = new Dictionary<Mesh, int[]>();
        int strokeGroup = -1;
        Mesh baked;
        Vector3[] bakedVertices;

        // Unity sends OnDisable when the tool is unloaded: the baked pose goes with it.
        void OnDisable()
        {
            if (baked != null)
            {
                DestroyImmediate(baked);
                baked = null;
            }
        }

        /// <summary>The mesh painted on (its rest vertices, in mesh space).</summary>
        protected abstract Mesh MeshOf(SinewBodyBehaviour body);

        /// <summary>Where the painted values are stored.</summary>
        protected abstract SinewVertexPaint PaintOf(SinewBodyBehaviour body);

        /// <summary>The channel painted.</summary>
        protected abstract SinewPaintChannel Channel { get; }

        public override void OnToolGUI(EditorWindow window)
        {
            var cloth = target as SinewBodyBehaviour;
            if (cloth == null)
            {
                return;
            }
            Mesh mesh = MeshOf(cloth);
            if (mesh == null || !mesh.isReadable)
            {
                return;
            }
            Event e = Event.current;
            Vector3[] rest = Read(mesh);
            Vector3[] vertices = rest;
            int[] triangles = Triangles[mesh];
            // A skinned mesh is shown in its bones' current pose: the mouse ray meets that pose
            // (baked when a stroke starts and while the mouse only moves, in the renderer's local
            // space, scale included), and the brush works at the same place of the rest shape,
            // where the mirror plane is the model's.
            var skinned = cloth.GetComponent<SkinnedMeshRenderer>();
            if (skinned != null && skinned.sharedMesh == mesh)
            {
                if (baked == null)
                {
                    baked = new Mesh();
                    baked.hideFlags = HideFlags.HideAndDontSave;
                }
                if (bakedVertices == null || bakedVertices.Length != vertices.Length || e.type == EventType.MouseDown || e.type == EventType.MouseMove)
                {
                    skinned.BakeMesh(baked, true);
                    bakedVertices = baked.vertices;
                }
                if (bakedVertices.Length == vertices.Length)
                {
                    vertices = bakedVertices;
                }
            }
            int id = GUIUtility.GetControlID(FocusType.Passive);
            if (e.type == EventType.Layout)
            {
                // While the tool is active, a click paints instead of selecting another object.
                HandleUtility.AddDefaultControl(id);
            }

            // The brush centre: the mouse ray in mesh space onto the rest mesh.
            Matrix4x4 toLocal = cloth.transform.worldToLocalMatrix;
            Matrix4x4 toWorld = cloth.transform.localToWorldMatrix;
            Ray ray = HandleUtility.GUIPointToWorldRay(e.mousePosition);
            float distance;
            Vector3 shown;
            int triangle;
            Vector2 barycentric;
            bool onMesh = SinewBrush.Raycast(vertices, triangles, toLocal.MultiplyPoint3x4(ray.origin), toLocal.MultiplyVector(ray.direction),
                out distance, out shown, out triangle, out barycentric);
            Vector3 hit = onMesh ? SinewBrush.OnTriangle(rest, triangles, triangle, barycentric) : shown;

            EventType type = e.GetTypeForControl(id);
            if (onMesh && !e.alt && e.button == 0 && (type == EventType.MouseDown || type == EventType.MouseDrag))
            {
                if (type == EventType.MouseDown)
                {
                    Undo.IncrementCurrentGroup();
                    strokeGroup = Undo.GetCurrentGroup();
                    Undo.SetCurrentGroupName("Paint Sinew " + Channel);
                    GUIUtility.hotControl = id;
                }
                Dab(cloth, PaintOf(cloth), Channel, rest, hit, SinewPaintSettings.Mode);
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
                DrawValues(cloth, PaintOf(cloth), Channel, vertices, toWorld);
                if (onMesh)
                {
                    Handles.color = new Color(1f, 1f, 1f, 0.9f);
                    Vector3 c = toWorld.MultiplyPoint3x4(shown);
                    float r = SinewPaintSettings.Radius * Mean(cloth.transform.lossyScale);
                    Handles.DrawWireDisc(c, ray.direction, r);
                    Handles.DrawWireDisc(c, ray.direction, r * (1f - SinewPaintSettings.Falloff));
                    if (SinewPaintSettings.Mirror != SinewMirrorAxis.None)
                    {
                        Handles.color = new Color(0.6f, 0.8f, 1f, 0.9f);
                        // Where the mirrored dab lands: at the rest vertex nearest to it, as shown.
                        Vector3 m = SinewBrush.Mirror(hit, SinewPaintSettings.Mirror);
                        int nearest = 0;
                        for (int i = 1; i < rest.Length; i++)
                        {
                            if ((rest[i] - m).sqrMagnitude < (rest[nearest] - m).sqrMagnitude)
                            {
                                nearest = i;
                            }
                        }
                        Handles.DrawWireDisc(toWorld.MultiplyPoint3x4(vertices[nearest] + (m - rest[nearest])), ray.direction, r);
                    }
                }
            }
            if (type == EventType.MouseMove || type == EventType.MouseDrag)
            {
                window.Repaint();
            }
        }

        /// <summary>One dab on <paramref name="body"/> at <paramref name="center"/> (mesh space), recorded for undo.</summary>
        static void Dab(SinewBodyBehaviour body, SinewVertexPaint paint, SinewPaintChannel channel, Vector3[] vertices, Vector3 center, SinewBrushMode mode)
        {
            Undo.RecordObject(body, "Paint Sinew " + channel);
            float[] values = paint.Ensure(channel, vertices.Length);
            // The radius is in world metres; the mesh space differs by the Transform's scale.
            float radius = SinewPaintSettings.Radius / Mathf.Max(1e-6f, Mean(body.transform.lossyScale));
            SinewBrush.Apply(vertices, values, center, radius, SinewPaintSettings.Falloff, SinewPaintSettings.Strength,
                SinewPaintSettings.Value, mode, SinewPaintSettings.Mirror, SinewVertexPaint.Unpainted(channel));
            EditorUtility.SetDirty(body);
            body.ApplySettings();
        }

        /// <summary>Applies <paramref name="mode"/> (Flood) to every target, with undo.</summary>
        protected static void FloodAll(Object[] targets, SinewBrushMode mode, SinewPaintChannel channel,
            System.Func<Object, Mesh> meshOf, System.Func<Object, SinewVertexPaint> paintOf)
        {
            foreach (Object t in targets)
            {
                Mesh mesh = meshOf(t);
                if (mesh != null && mesh.isReadable)
                {
                    Dab((SinewBodyBehaviour)t, paintOf(t), channel, Read(mesh), Vector3.zero, mode);
                }
            }
            SceneView.RepaintAll();
        }

        static void DrawValues(SinewBodyBehaviour body, SinewVertexPaint paint, SinewPaintChannel channel, Vector3[] vertices, Matrix4x4 toWorld)
        {
            if (!paint.Has(channel, vertices.Length))
            {
                return;
            }
            float[] values = paint.Values(channel);
            float max = SinewPaintSettings.RampMax(body, channel);
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
