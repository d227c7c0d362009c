// Hand-written. What the Sinew inspectors share: foldout sections like Unity's Cloth inspector,
// fields labelled with their units, the checks behind the help boxes (no colliders, no pins,
// non-uniform scale), and the preset bar (apply a preset, save the current settings as one).
using System;
using System.Collections.Generic;
using Sinew.Components;
using UnityEditor;
using UnityEngine;

namespace Sinew.Editor
{
    /// <summary>Drawing helpers for the Sinew inspectors (all multi-object: they go through SerializedProperty).</summary>
    public static class SinewEditorGUI
    {
        // Units of the fields, by serialized name (the tooltips say the same in words).
        static readonly Dictionary<string, string> Units = new Dictionary<string, string>
        {
            { "particleMass", "kg" }, { "damping", "1/s" }, { "gravityScale", "×" }, { "stretchCompliance", "m/N" },
            { "shearCompliance", "m/N" }, { "bendCompliance", "m/N" }, { "density", "kg/m² · kg/m" }, { "bendStiffness", "N·m" },
            { "stretchStiffness", "N/m" }, { "shearStiffness", "N/m" }, { "youngsModulus", "Pa" }, { "thickness", "m" }, { "maxSpeed", "m/s" },
            { "teleportDistance", "m" }, { "poseStiffness", "1/s" }, { "windScale", "×" }, { "sleepThreshold", "m/s" },
            { "sleepTime", "s" }, { "reduceDistance", "m" }, { "freezeDistance", "m" }, { "maxDistanceScale", "m" },
            { "backstopDistance", "m" }, { "backstopRadius", "m" }, { "tetherScale", "×" }, { "weldDistance", "m" },
            { "tearThreshold", "strain" }, { "length", "m" }, { "width", "m" }, { "segmentLength", "m" },
            { "scalpRadius", "m" }, { "coverage", "°" }, { "rootWidth", "m" }, { "tipWidth", "m" }, { "mass", "kg" },
            { "edgeCompliance", "m/N" }, { "pressure", "Pa" }, { "externalPressure", "Pa" }, { "plasticCreep", "1/s" },
            { "radius", "m" }, { "radius0", "m" }, { "radius1", "m" }, { "halfHeight", "m" }, { "halfExtents", "m" },
            { "speed", "m/s" }, { "turbulenceScale", "m" }, { "turbulenceFrequency", "Hz" }, { "gustFrequency", "Hz" },
            { "airDensity", "kg/m³" }, { "fixedRateHz", "Hz" }, { "gravity", "m/s²" }, { "arealDensity", "kg/m²" },
            { "totalMass", "kg" }, { "height", "m" }, { "hingeMin", "°" }, { "hingeMax", "°" }, { "lowTwist", "°" },
            { "highTwist", "°" }, { "swing1", "°" }, { "swing2", "°" }, { "muscleFrequency", "Hz" }, { "pinFrequency", "Hz" },
            { "muscleMaxTorque", "N·m" }, { "hitFullImpulse", "N·s" }, { "hitRecoveryTime", "s" }, { "balanceDistance", "m" },
            { "blendTime", "s" }, { "restSpeed", "m/s" }, { "restSeconds", "s" }, { "gizmoSize", "m" },
        };

        static readonly Dictionary<string, bool> Open = new Dictionary<string, bool>();

        /// <summary>A foldout section header, remembered per title for the session; true while open.</summary>
        public static bool Section(string title, bool openByDefault)
        {
            bool open;
            if (!Open.TryGetValue(title, out open))
            {
                open = openByDefault;
            }
            open = EditorGUILayout.Foldout(open, title, true);
            Open[title] = open;
            return open;
        }

        /// <summary>The field <paramref name="path"/> of <paramref name="so"/>, labelled with its unit; nothing when it does not exist.</summary>
        public static void Field(SerializedObject so, string path)
        {
            SerializedProperty p = so.FindProperty(path);
            if (p == null)
            {
                return;
            }
            string unit;
            string label = Units.TryGetValue(p.name, out unit) ? p.displayName + " (" + unit + ")" : p.displayName;
            EditorGUILayout.PropertyField(p, new GUIContent(label, p.tooltip), true);
        }

        /// <summary>Every visible field of <paramref name="so"/> in declaration order (with their
        /// [Header] groups and ranges), labelled with units; the script field is left out.</summary>
        public static void AllFields(SerializedObject so)
        {
            SerializedProperty p = so.GetIterator();
            bool enter = true;
            while (p.NextVisible(enter))
            {
                enter = false;
                if (p.name == "m_Script")
                {
                    continue;
                }
                string unit;
                string label = Units.TryGetValue(p.name, out unit) ? p.displayName + " (" + unit + ")" : p.displayName;
                EditorGUILayout.PropertyField(p, new GUIContent(label, p.tooltip), true);
            }
        }

        /// <summary>The fields of <paramref name="paths"/>, indented, inside a section.</summary>
        public static void Fields(SerializedObject so, params string[] paths)
        {
            EditorGUI.indentLevel++;
            foreach (string path in paths)
            {
                Field(so, path);
            }
            EditorGUI.indentLevel--;
        }

        /// <summary>The fields of a nested settings object (material, dynamics, LOD) with units.</summary>
        public static void Nested(SerializedObject so, string parent, params string[] children)
        {
            EditorGUI.indentLevel++;
            foreach (string child in children)
            {
                Field(so, parent + "." + child);
            }
            EditorGUI.indentLevel--;
        }

        /// <summary>The material, dynamics, LOD and root sections every body has.</summary>
        public static void BodySections(SerializedObject so)
        {
            if (Section("Physics material", true))
            {
                Nested(so, "physicsMaterial", "particleMass", "density", "damping", "gravityScale", "stretchCompliance", "shearCompliance", "bendCompliance",
                    "bendStiffness", "stretchStiffness", "shearStiffness", "youngsModulus", "poissonRatio", "thickness", "staticFriction", "kineticFriction",
                    "collisionMask", "selfCollision");
            }
            if (Section("Dynamics", false))
            {
                Nested(so, "dynamics", "worldVelocityScale", "worldAccelerationScale", "maxSpeed", "teleportDistance", "poseStiffness",
                    "windScale", "drag", "lift", "sleepThreshold", "sleepTime");
            }
            if (Section("Level of detail", false))
            {
                Nested(so, "lod", "reduceDistance", "reducedSubsteps", "freezeDistance", "freezeWhenInvisible");
            }
            if (Section("World and root", false))
            {
                Fields(so, "world", "root");
            }
        }

        /// <summary>True when the scene has a Sinew collider for the bodies to meet.</summary>
        public static bool SceneHasColliders()
        {
            return UnityEngine.Object.FindObjectsOfType<Sinew.Components.SinewCollider>().Length > 0
                || UnityEngine.Object.FindObjectsOfType<SinewMeshCollider>().Length > 0;
        }

        /// <summary>True when the three components of <paramref name="s"/> differ by more than 0.1%.</summary>
        public static bool NonUniform(Vector3 s)
        {
            float a = Mathf.Abs(s.x), b = Mathf.Abs(s.y), c = Mathf.Abs(s.z);
            float max = Mathf.Max(a, Mathf.Max(b, c));
            float min = Mathf.Min(a, Mathf.Min(b, c));
            return max > 0f && (max - min) > 1e-3f * max;
        }

        /// <summary>The help boxes every body shares: scale, colliders.</summary>
        public static void CommonWarnings(UnityEngine.Object[] targets)
        {
            bool nonUniform = false;
            foreach (UnityEngine.Object t in targets)
            {
                var c = t as Component;
                if (c != null && NonUniform(c.transform.lossyScale))
                {
                    nonUniform = true;
                }
            }
            if (nonUniform)
            {
                EditorGUILayout.HelpBox("The Transform's scale is not uniform. Sinew takes the mean of the three scales (the library accepts uniform scale only): "
                    + "rest lengths, thickness and limits scale with it, and the shape is simulated as modelled. Scale the mesh in its import settings instead.", MessageType.Warning);
            }
            if (!SceneHasColliders())
            {
                EditorGUILayout.HelpBox("No Sinew Collider in the scene: nothing stops this body but its pins. Add Sinew Collider components to the character's bones "
                    + "(or convert Unity Cloth's colliders with Tools ▸ Sinew ▸ Convert Selected Unity Cloth).", MessageType.Info);
            }
        }

        // ---- presets ----

        static int presetChoice;

        // One instance per built-in preset for the editor session (not saved, not in the scene).
        static readonly Dictionary<string, SinewClothPreset> BuiltIns = new Dictionary<string, SinewClothPreset>();

        static SinewClothPreset BuiltIn(string name)
        {
            SinewClothPreset p;
            if (!BuiltIns.TryGetValue(name, out p) || p == null)
            {
                p = ScriptableObject.CreateInstance<SinewClothPreset>();
                p.hideFlags = HideFlags.HideAndDontSave;
                SinewClothPreset.BuiltIn(name, p);
                BuiltIns[name] = p;
            }
            return p;
        }

        /// <summary>The preset bar: a menu of the built-in presets and the project's SinewClothPreset assets,
        /// Apply (with undo, for every selected body) and Save as preset…</summary>
        public static void PresetBar(UnityEngine.Object[] targets)
        {
            var names = new List<string>();
            var assets = new List<SinewClothPreset>();
            foreach (string n in SinewClothPreset.BuiltInNames)
            {
                names.Add("Built-in/" + n);
                assets.Add(null);
            }
            foreach (string guid in AssetDatabase.FindAssets("t:SinewClothPreset"))
            {
                var a = AssetDatabase.LoadAssetAtPath<SinewClothPreset>(AssetDatabase.GUIDToAssetPath(guid));
                if (a != null)
                {
                    names.Add("Assets/" + a.name);
                    assets.Add(a);
                }
            }
            presetChoice = Mathf.Clamp(presetChoice, 0, names.Count - 1);
            GUILayout.BeginHorizontal();
            presetChoice = EditorGUILayout.Popup("Preset", presetChoice, names.ToArray());
            bool apply = GUILayout.Button("Apply", GUILayout.Width(60f));
            GUILayout.EndHorizontal();
            SinewClothPreset chosen = assets[presetChoice] != null ? assets[presetChoice] : BuiltIn(SinewClothPreset.BuiltInNames[presetChoice]);
            if (chosen.description.Length > 0)
            {
                EditorGUILayout.HelpBox(chosen.description, MessageType.None);
            }
            if (apply)
            {
                Undo.RecordObjects(targets, "Apply Sinew preset " + names[presetChoice]);
                foreach (UnityEngine.Object t in targets)
                {
                    var body = t as SinewBodyBehaviour;
                    if (body != null)
                    {
                        float area;
                        int particles;
                        SurfaceOf(body, out area, out particles);
                        chosen.ApplyTo(body, area, particles);
                        EditorUtility.SetDirty(body);
                    }
                }
            }
            if (GUILayout.Button("Save as preset…"))
            {
                var body = targets[0] as SinewBodyBehaviour;
                string path = EditorUtility.SaveFilePanelInProject("Save Sinew preset", body.name + " Preset", "asset",
                    "The body's material, dynamics and (cloth) tearing and tethers are saved.");
                if (!string.IsNullOrEmpty(path))
                {
                    var preset = ScriptableObject.CreateInstance<SinewClothPreset>();
                    preset.CaptureFrom(body);
                    AssetDatabase.CreateAsset(preset, path);
                    AssetDatabase.SaveAssets();
                }
            }
        }

        /// <summary>A cloth's world-space area (m²) and vertex count, for a preset's areal density; 0 for other bodies.</summary>
        public static void SurfaceOf(SinewBodyBehaviour body, out float area, out int particles)
        {
            area = 0f;
            particles = 0;
            var cloth = body as SinewCloth;
            if (cloth == null)
            {
                return;
            }
            Mesh mesh = ClothMesh(cloth);
            if (mesh == null || !mesh.isReadable)
            {
                return;
            }
            Vector3[] v = mesh.vertices;
            int[] t = mesh.triangles;
            double sum = 0.0;
            for (int i = 0; i + 2 < t.Length; i += 3)
            {
                Vector3 c = Vector3.Cross(v[t[i + 1]] - v[t[i]], v[t[i + 2]] - v[t[i]]);
                sum += 0.5 * Math.Sqrt(c.sqrMagnitude);
            }
            Vector3 s = cloth.transform.lossyScale;
            float scale = (Mathf.Abs(s.x) + Mathf.Abs(s.y) + Mathf.Abs(s.z)) / 3f;
            area = (float)sum * scale * scale;
            particles = v.Length;
        }

        /// <summary>The mesh a cloth is made from: its SkinnedMeshRenderer's or MeshFilter's (null: none).</summary>
        public static Mesh ClothMesh(SinewCloth cloth)
        {
            var skinned = cloth.GetComponent<SkinnedMeshRenderer>();
            if (skinned != null)
            {
                return skinned.sharedMesh;
            }
            var filter = cloth.GetComponent<MeshFilter>();
            return filter != null ? filter.sharedMesh : null;
        }
    }
}
