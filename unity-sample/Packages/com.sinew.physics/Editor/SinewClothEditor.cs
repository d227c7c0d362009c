// Hand-written. The Sinew Cloth inspector, grouped like Unity's Cloth inspector: pins and
// constraints first, then painting, tethers, tearing, the mesh, material, dynamics and LOD, with
// help boxes for the common mistakes and the preset bar.
using Sinew.Components;
using UnityEditor;
using UnityEngine;

namespace Sinew.Editor
{
    [CustomEditor(typeof(SinewCloth))]
    [CanEditMultipleObjects]
    public sealed class SinewClothEditor : UnityEditor.Editor
    {
        static readonly string[] ChannelNames = { "Pin", "Max Distance", "Backstop", "Mass Scale" };

        public override void OnInspectorGUI()
        {
            SerializedObject so = serializedObject;
            so.Update();
            Warnings();

            if (SinewEditorGUI.Section("Presets", true))
            {
                SinewEditorGUI.PresetBar(targets);
            }
            if (SinewEditorGUI.Section("Paint (scene view)", true))
            {
                PaintSection();
            }
            if (SinewEditorGUI.Section("Pins", true))
            {
                SinewEditorGUI.Fields(so, "pinSource", "pinChannel", "pinThreshold", "pinWeights");
            }
            if (SinewEditorGUI.Section("Constraints: max distance and backstop (skinned meshes)", true))
            {
                SinewEditorGUI.Fields(so, "maxDistanceSource", "maxDistanceChannel", "maxDistanceScale", "maxDistances",
                    "useBackstop", "backstopDistance", "backstopRadius", "backstopDistances", "backstopPainted", "massPainted");
            }
            if (SinewEditorGUI.Section("Tethers", true))
            {
                SinewEditorGUI.Fields(so, "useTethers", "tetherMode", "tetherScale");
            }
            if (SinewEditorGUI.Section("Tearing", false))
            {
                SinewEditorGUI.Fields(so, "tearThreshold");
            }
            if (SinewEditorGUI.Section("Mesh", false))
            {
                SinewEditorGUI.Fields(so, "weldDistance", "writeNormals");
            }
            SinewEditorGUI.BodySections(so);
            if (SinewEditorGUI.Section("Gizmos", false))
            {
                SinewGizmos.ShowParticles = EditorGUILayout.Toggle("Particles (coloured by the paint channel)", SinewGizmos.ShowParticles);
                SinewGizmos.ShowConstraints = EditorGUILayout.Toggle("Constraints (mesh edges)", SinewGizmos.ShowConstraints);
                SinewGizmos.ShowTethers = EditorGUILayout.Toggle("Tethers (to the nearest pin)", SinewGizmos.ShowTethers);
            }
            so.ApplyModifiedProperties();
        }

        void Warnings()
        {
            SinewEditorGUI.CommonWarnings(targets);
            foreach (Object t in targets)
            {
                var cloth = (SinewCloth)t;
                Mesh mesh = SinewEditorGUI.ClothMesh(cloth);
                if (mesh == null)
                {
                    EditorGUILayout.HelpBox(cloth.name + ": Sinew Cloth needs a SkinnedMeshRenderer or a MeshFilter with a mesh.", MessageType.Error);
                    continue;
                }
                if (!mesh.isReadable)
                {
                    EditorGUILayout.HelpBox("Mesh '" + mesh.name + "' is not readable: enable Read/Write in its import settings.", MessageType.Error);
                    continue;
                }
                int n = mesh.vertexCount;
                bool skinned = cloth.GetComponent<SkinnedMeshRenderer>() != null;
                bool noPins = cloth.pinSource == SinewCloth.PinSource.None
                    || (cloth.pinSource == SinewCloth.PinSource.Painted && !AnyAtLeast(cloth.paint.pin, n, cloth.pinThreshold))
                    || (cloth.pinSource == SinewCloth.PinSource.WeightList && !AnyAtLeast(cloth.pinWeights, n, cloth.pinThreshold));
                bool limited = skinned && cloth.maxDistanceSource != SinewCloth.MaxDistanceSource.None;
                if (noPins && !limited)
                {
                    EditorGUILayout.HelpBox(cloth.name + ": no vertex is pinned, so the whole cloth falls (and tethers have nothing to hold). "
                        + "Paint pins with the Paint tool (channel Pin), or give a skinned cloth max distances.", MessageType.Warning);
                }
                if ((cloth.pinSource == SinewCloth.PinSource.Painted && !cloth.paint.Has(SinewPaintChannel.Pin, n))
                    || (cloth.maxDistanceSource == SinewCloth.MaxDistanceSource.Painted && !cloth.paint.Has(SinewPaintChannel.MaxDistance, n)))
                {
                    EditorGUILayout.HelpBox(cloth.name + ": a source is Painted but that channel was not painted for this mesh (" + n + " vertices). Paint it, or flood it.", MessageType.Error);
                }
                if (!skinned && (cloth.maxDistanceSource != SinewCloth.MaxDistanceSource.None || cloth.useBackstop))
                {
                    EditorGUILayout.HelpBox(cloth.name + ": max distances and backstops are measured from the skinned pose and need a SkinnedMeshRenderer; on a MeshFilter they are ignored.", MessageType.Warning);
                }
            }
        }

        static bool AnyAtLeast(float[] values, int n, float threshold)
        {
            if (values == null || values.Length != n)
            {
                return false;
            }
            foreach (float v in values)
            {
                if (v >= threshold)
                {
                    return true;
                }
            }
            return false;
        }

        void PaintSection()
        {
            SinewPaintSettings.ToolButton(typeof(SinewPaintTool));
            SinewPaintSettings.Channel = (SinewPaintChannel)GUILayout.Toolbar((int)SinewPaintSettings.Channel, ChannelNames);
            SinewPaintSettings.BrushFields(SinewPaintSettings.Channel);
            if (targets.Length == 1)
            {
                var cloth = (SinewCloth)target;
                Mesh mesh = SinewEditorGUI.ClothMesh(cloth);
                int n = mesh != null ? mesh.vertexCount : 0;
                string painted = "";
                for (int c = 0; c < ChannelNames.Length; c++)
                {
                    painted += (c > 0 ? ", " : "") + ChannelNames[c] + (cloth.paint.Has((SinewPaintChannel)c, n) ? " painted" : " not painted");
                }
                EditorGUILayout.LabelField("Paint (" + n + " vertices)", painted);
            }
            GUILayout.BeginHorizontal();
            if (GUILayout.Button("Flood with value"))
            {
                SinewPaintTool.ApplyToAll(targets, SinewBrushMode.Flood);
            }
            if (GUILayout.Button("Clear channel"))
            {
                Undo.RecordObjects(targets, "Clear Sinew paint");
                foreach (Object t in targets)
                {
                    ((SinewCloth)t).paint.Clear(SinewPaintSettings.Channel);
                    EditorUtility.SetDirty(t);
                }
            }
            if (GUILayout.Button("Import vertex colours"))
            {
                Undo.RecordObjects(targets, "Import vertex colours into Sinew paint");
                foreach (Object t in targets)
                {
                    var cloth = (SinewCloth)t;
                    Mesh mesh = SinewEditorGUI.ClothMesh(cloth);
                    if (mesh == null)
                    {
                        continue;
                    }
                    SinewCloth.ColorChannel channel = SinewPaintSettings.Channel == SinewPaintChannel.MaxDistance ? cloth.maxDistanceChannel : cloth.pinChannel;
                    float scale = SinewPaintSettings.Channel == SinewPaintChannel.MaxDistance ? cloth.maxDistanceScale : 1f;
                    if (!cloth.paint.ImportColors(SinewPaintSettings.Channel, mesh.colors, channel, scale, mesh.vertexCount))
                    {
                        EditorUtility.DisplayDialog("Sinew", "Mesh '" + mesh.name + "' has no vertex colours to import.", "OK");
                    }
                    EditorUtility.SetDirty(cloth);
                }
            }
            GUILayout.EndHorizontal();
            EditorGUILayout.HelpBox("Left-drag on the mesh paints; Alt keeps the scene view's orbit. Values are stored with the component "
                + "(Painted Values), one per mesh vertex, and are undone with Edit ▸ Undo. Set Pin Source / Max Distance Source to Painted to use them.", MessageType.None);
        }
    }
}
