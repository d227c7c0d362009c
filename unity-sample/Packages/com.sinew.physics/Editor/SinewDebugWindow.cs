// Hand-written. Window ▸ Sinew ▸ Debug: in Play mode, each world's counters and frame timings,
// each body's step time, particles, constraints, substeps (LOD), frozen and sleeping state,
// tears and recoveries, and each ragdoll's step time, bones and sleep, refreshed a few times a
// second.
using Sinew.Components;
using UnityEditor;
using UnityEngine;

namespace Sinew.Editor
{
    public sealed class SinewDebugWindow : EditorWindow
    {
        Vector2 scroll;

        [MenuItem("Window/Sinew/Debug")]
        public static void Open()
        {
            SinewDebugWindow w = GetWindow<SinewDebugWindow>("Sinew Debug");
            w.Show();
        }

        // Unity calls this ten times a second: enough for counters.
        void OnInspectorUpdate()
        {
            if (EditorApplication.isPlaying)
            {
                Repaint();
            }
        }

        void OnGUI()
        {
            if (!EditorApplication.isPlaying)
            {
                EditorGUILayout.HelpBox("Enter Play mode to see the worlds and bodies.", MessageType.Info);
                return;
            }
            scroll = GUILayout.BeginScrollView(scroll);
            foreach (SinewWorldBehaviour w in Object.FindObjectsOfType<SinewWorldBehaviour>())
            {
                if (w.World == null || w.World.IsDisposed)
                {
                    EditorGUILayout.LabelField(w.name, "no native world (see the console)");
                    continue;
                }
                // Reading counters needs the step finished; this only waits for it earlier.
                w.CompleteStep();
                SinewWorldStats s = w.World.GetStats();
                SinewFrameTimings t = w.LastFrameTimings;
                EditorGUILayout.LabelField("World " + w.name, EditorStyles.boldLabel);
                EditorGUILayout.LabelField("Bodies / particles / constraints", s.body_count + " / " + s.particle_count + " / " + s.constraint_count);
                EditorGUILayout.LabelField("Ragdolls / bones", s.ragdoll_count + " / " + s.bone_count);
                EditorGUILayout.LabelField("Threads", s.thread_count.ToString());
                EditorGUILayout.LabelField("Fixed steps (last frame / all)", s.last_frame_steps + " / " + s.steps);
                EditorGUILayout.LabelField("Interpolation α", s.alpha.ToString("0.00"));
                EditorGUILayout.LabelField("Recovered (last step) bodies / ragdolls", s.recovered_bodies + " / " + s.recovered_ragdolls);
                EditorGUILayout.LabelField("Particles at the contact search cap", s.capped_particles.ToString());
                EditorGUILayout.LabelField("Main thread (ms): prepare + wait + write back",
                    t.PrepareMs.ToString("0.000") + " + " + t.WaitMs.ToString("0.000") + " + " + t.WriteBackMs.ToString("0.000") + " = " + t.MainThreadMs.ToString("0.000"));
                EditorGUILayout.Space();
            }
            EditorGUILayout.LabelField("Bodies", EditorStyles.boldLabel);
            foreach (SinewBodyBehaviour b in Object.FindObjectsOfType<SinewBodyBehaviour>())
            {
                if (b.Body == null || b.Body.IsDisposed)
                {
                    EditorGUILayout.LabelField(b.name, "not simulated (disabled, or it failed to build)");
                    continue;
                }
                SinewBodyInfo info = b.Body.GetInfo();
                string state = info.sleeping != 0 ? "sleeping" : info.frozen != 0 ? "frozen (LOD)" : "running";
                EditorGUILayout.LabelField(b.name + " (" + b.GetType().Name + ")", state + ", " + info.substeps + " substeps");
                EditorGUI.indentLevel++;
                EditorGUILayout.LabelField("Step time (ms)", b.Body.StepTimeMs.ToString("0.000"));
                EditorGUILayout.LabelField("Particles / vertices", info.particle_count + " / " + info.vertex_count);
                EditorGUILayout.LabelField("Constraints / batches / pinned", info.constraint_count + " / " + info.batch_count + " / " + info.pinned_count);
                EditorGUILayout.LabelField("Max stretch", (100f * b.Body.MaxStretch).ToString("0.0") + " %");
                EditorGUILayout.LabelField("Tears (topology version) / recoveries", info.topology_version + " / " + info.recoveries);
                EditorGUI.indentLevel--;
            }
            EditorGUILayout.LabelField("Ragdolls", EditorStyles.boldLabel);
            foreach (Sinew.Components.SinewRagdoll r in Object.FindObjectsOfType<Sinew.Components.SinewRagdoll>())
            {
                Ragdoll native = r.Native;
                if (native == null || native.IsDisposed)
                {
                    EditorGUILayout.LabelField(r.name, "not simulated (disabled, or it failed to build)");
                    continue;
                }
                string mode = native.IsAsleep ? "asleep" : r.Ragdolling ? "ragdoll" : "animated";
                EditorGUILayout.LabelField(r.name + " (" + native.BoneCount + " bones)",
                    mode + ", step " + native.StepTimeMs.ToString("0.000") + " ms");
            }
            GUILayout.EndScrollView();
        }
    }
}
