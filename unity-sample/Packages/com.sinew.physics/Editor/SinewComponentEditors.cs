// Hand-written. Inspectors of the other Sinew components (rope, hair, soft body, world, collider,
// mesh collider, wind zone, ragdoll): the same sections with units, multi-object editing, the
// help boxes for their common mistakes, and presets on the bodies.
using Sinew.Components;
using UnityEditor;
using UnityEngine;

namespace Sinew.Editor
{
    [CustomEditor(typeof(SinewRope))]
    [CanEditMultipleObjects]
    public sealed class SinewRopeEditor : UnityEditor.Editor
    {
        public override void OnInspectorGUI()
        {
            SerializedObject so = serializedObject;
            so.Update();
            SinewEditorGUI.CommonWarnings(targets);
            foreach (Object t in targets)
            {
                var rope = (SinewRope)t;
                if (!rope.pinStart && !(rope.pinEnd && rope.end != null))
                {
                    EditorGUILayout.HelpBox(rope.name + ": neither end is pinned, so the rope falls.", MessageType.Warning);
                }
            }
            if (SinewEditorGUI.Section("Presets", false))
            {
                SinewEditorGUI.PresetBar(targets);
            }
            if (SinewEditorGUI.Section("Shape", true))
            {
                SinewEditorGUI.Fields(so, "start", "end", "length", "segments", "pinStart", "pinEnd", "bend");
            }
            if (SinewEditorGUI.Section("Rendering", false))
            {
                SinewEditorGUI.Fields(so, "width");
            }
            SinewEditorGUI.BodySections(so);
            so.ApplyModifiedProperties();
        }
    }

    [CustomEditor(typeof(SinewHair))]
    [CanEditMultipleObjects]
    public sealed class SinewHairEditor : UnityEditor.Editor
    {
        public override void OnInspectorGUI()
        {
            SerializedObject so = serializedObject;
            so.Update();
            SinewEditorGUI.CommonWarnings(targets);
            foreach (Object t in targets)
            {
                var hair = (SinewHair)t;
                if (hair.rootSource != SinewHair.RootSource.Generator && (hair.roots == null || hair.roots.Length == 0))
                {
                    EditorGUILayout.HelpBox(hair.name + ": Root Source is a Transform list but Roots is empty: no strands.", MessageType.Error);
                }
                if (hair.dynamics.poseStiffness == 0f)
                {
                    EditorGUILayout.HelpBox("Pose Stiffness 0: the strands hang straight down; about 5–20 holds a style.", MessageType.Info);
                }
            }
            if (SinewEditorGUI.Section("Presets", false))
            {
                SinewEditorGUI.PresetBar(targets);
            }
            if (SinewEditorGUI.Section("Strands", true))
            {
                SinewEditorGUI.Fields(so, "head", "rootSource", "roots", "strandCount", "scalpCenter", "scalpRadius", "coverage", "particlesPerStrand", "segmentLength");
            }
            if (SinewEditorGUI.Section("Rendering", false))
            {
                SinewEditorGUI.Fields(so, "material", "rootWidth", "tipWidth");
            }
            SinewEditorGUI.BodySections(so);
            so.ApplyModifiedProperties();
        }
    }

    [CustomEditor(typeof(SinewSoftBody))]
    [CanEditMultipleObjects]
    public sealed class SinewSoftBodyEditor : UnityEditor.Editor
    {
        public override void OnInspectorGUI()
        {
            SerializedObject so = serializedObject;
            so.Update();
            SinewEditorGUI.CommonWarnings(targets);
            if (SinewEditorGUI.Section("Presets", true))
            {
                SinewEditorGUI.PresetBar(targets);
            }
            if (SinewEditorGUI.Section("Lattice", true))
            {
                SinewEditorGUI.Fields(so, "resolution", "clusterCells");
            }
            if (SinewEditorGUI.Section("Stiffness", true))
            {
                SinewEditorGUI.Fields(so, "shapeStiffness", "volumeCompliance", "edgeCompliance");
            }
            if (SinewEditorGUI.Section("Plasticity", false))
            {
                SinewEditorGUI.Fields(so, "plasticYield", "plasticCreep", "plasticMax");
            }
            if (SinewEditorGUI.Section("Gas", false))
            {
                SinewEditorGUI.Fields(so, "pressure", "externalPressure");
            }
            if (SinewEditorGUI.Section("Body", true))
            {
                SinewEditorGUI.Fields(so, "mass", "friction", "collisionLayers", "recalculateNormals");
            }
            if (SinewEditorGUI.Section("Painted pins (scene view)", false))
            {
                SinewEditorGUI.Fields(so, "pinPainted", "pinThreshold");
                SinewPaintSettings.ToolButton(typeof(SinewSoftBodyPaintTool));
                SinewPaintSettings.BrushFields(SinewPaintChannel.Pin);
                GUILayout.BeginHorizontal();
                if (GUILayout.Button("Flood with value"))
                {
                    SinewSoftBodyPaintTool.ApplyToAll(targets, SinewBrushMode.Flood);
                }
                if (GUILayout.Button("Clear pins"))
                {
                    Undo.RecordObjects(targets, "Clear Sinew soft-body pins");
                    foreach (Object t in targets)
                    {
                        ((SinewSoftBody)t).paint.Clear(SinewPaintChannel.Pin);
                        EditorUtility.SetDirty(t);
                    }
                }
                GUILayout.EndHorizontal();
                foreach (Object t in targets)
                {
                    var soft = (SinewSoftBody)t;
                    var filter = soft.GetComponent<MeshFilter>();
                    if (soft.pinPainted && filter != null && filter.sharedMesh != null && !soft.paint.Has(SinewPaintChannel.Pin, filter.sharedMesh.vertexCount))
                    {
                        EditorGUILayout.HelpBox(soft.name + ": Pin Painted is on but no pins were painted for this mesh.", MessageType.Error);
                    }
                }
            }
            SinewEditorGUI.BodySections(so);
            so.ApplyModifiedProperties();
        }
    }

    [CustomEditor(typeof(SinewWorldBehaviour))]
    public sealed class SinewWorldEditor : UnityEditor.Editor
    {
        public override void OnInspectorGUI()
        {
            SerializedObject so = serializedObject;
            so.Update();
            var world = (SinewWorldBehaviour)target;
            if (Object.FindObjectsOfType<SinewWorldBehaviour>().Length > 1)
            {
                EditorGUILayout.HelpBox("The scene has more than one Sinew World: bodies without a World field use the first one found.", MessageType.Warning);
            }
            if (world.substeps * world.fixedRateHz < 240f)
            {
                EditorGUILayout.HelpBox("Fewer than 240 substeps per second: cloth stretches visibly under gravity. Raise Substeps or the fixed rate.", MessageType.Info);
            }
            if (SinewEditorGUI.Section("Simulation", true))
            {
                SinewEditorGUI.Fields(so, "gravity", "fixedRateHz", "substeps", "iterations", "maxStepsPerFrame", "interpolate");
            }
            if (SinewEditorGUI.Section("Threads and frame", true))
            {
                SinewEditorGUI.Fields(so, "threadCount", "asyncStep", "lodCamera");
            }
            if (EditorApplication.isPlaying && GUILayout.Button("Open the Sinew debug window"))
            {
                SinewDebugWindow.Open();
            }
            so.ApplyModifiedProperties();
        }
    }

    [CustomEditor(typeof(Sinew.Components.SinewCollider))]
    [CanEditMultipleObjects]
    public sealed class SinewColliderEditor : UnityEditor.Editor
    {
        public override void OnInspectorGUI()
        {
            SerializedObject so = serializedObject;
            so.Update();
            bool scaled = false;
            foreach (Object t in targets)
            {
                scaled |= SinewEditorGUI.NonUniform(((Component)t).transform.lossyScale);
            }
            if (scaled)
            {
                EditorGUILayout.HelpBox("Non-uniform scale: the shape is scaled by the mean of the three scales.", MessageType.Warning);
            }
            SinewEditorGUI.Fields(so, "world", "shape", "center");
            var shape = (Sinew.Components.SinewCollider.Shape)so.FindProperty("shape").intValue;
            bool mixed = so.FindProperty("shape").hasMultipleDifferentValues;
            if (mixed || shape == Sinew.Components.SinewCollider.Shape.Sphere)
            {
                SinewEditorGUI.Fields(so, "radius");
            }
            if (mixed || shape == Sinew.Components.SinewCollider.Shape.Capsule)
            {
                SinewEditorGUI.Fields(so, "direction", "halfHeight", "radius0", "radius1");
            }
            if (mixed || shape == Sinew.Components.SinewCollider.Shape.Plane)
            {
                SinewEditorGUI.Fields(so, "direction");
            }
            if (mixed || shape == Sinew.Components.SinewCollider.Shape.Box)
            {
                SinewEditorGUI.Fields(so, "halfExtents");
            }
            SinewEditorGUI.Fields(so, "layers");
            so.ApplyModifiedProperties();
        }
    }

    [CustomEditor(typeof(SinewMeshCollider))]
    [CanEditMultipleObjects]
    public sealed class SinewMeshColliderEditor : UnityEditor.Editor
    {
        public override void OnInspectorGUI()
        {
            SerializedObject so = serializedObject;
            so.Update();
            foreach (Object t in targets)
            {
                var c = (SinewMeshCollider)t;
                if (c.mesh != null && !c.mesh.isReadable)
                {
                    EditorGUILayout.HelpBox("Mesh '" + c.mesh.name + "' is not readable: enable Read/Write in its import settings.", MessageType.Error);
                }
            }
            SinewEditorGUI.Fields(so, "world", "mesh", "layers", "skipDegenerate");
            so.ApplyModifiedProperties();
        }
    }

    [CustomEditor(typeof(SinewWindZone))]
    [CanEditMultipleObjects]
    public sealed class SinewWindZoneEditor : UnityEditor.Editor
    {
        public override void OnInspectorGUI()
        {
            SerializedObject so = serializedObject;
            so.Update();
            if (Object.FindObjectsOfType<SinewWindZone>().Length > 1)
            {
                EditorGUILayout.HelpBox("More than one Sinew Wind Zone: the world has one wind, and the last one to send wins.", MessageType.Warning);
            }
            if (SinewEditorGUI.Section("Wind", true))
            {
                SinewEditorGUI.Fields(so, "world", "windZone", "speed", "speedPerWindMain");
            }
            if (SinewEditorGUI.Section("Turbulence and gusts", true))
            {
                SinewEditorGUI.Fields(so, "turbulence", "turbulenceScale", "turbulenceFrequency", "gustStrength", "gustFrequency", "airDensity");
            }
            so.ApplyModifiedProperties();
        }
    }

    [CustomEditor(typeof(Sinew.Components.SinewRagdoll))]
    [CanEditMultipleObjects]
    public sealed class SinewRagdollEditor : UnityEditor.Editor
    {
        public override void OnInspectorGUI()
        {
            foreach (Object t in targets)
            {
                var r = (Sinew.Components.SinewRagdoll)t;
                if (r.GetComponent<Animator>() == null)
                {
                    EditorGUILayout.HelpBox(r.name + ": no Animator here: the ragdoll is built from the bone list, and the animated mode follows nothing.", MessageType.Info);
                }
            }
            SinewEditorGUI.CommonWarnings(targets);
            // The ragdoll's fields are grouped by their [Header]s (bones, joints, muscles, hits,
            // getting up, gizmos), drawn in that order with their ranges and units.
            SerializedObject so = serializedObject;
            so.Update();
            SinewEditorGUI.AllFields(so);
            so.ApplyModifiedProperties();
        }
    }
}
