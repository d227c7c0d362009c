// Checks on the compiled Unity scripts that the compiler cannot make, run on Mono by
// scripts/test-unity.sh against the compile-only stub (only field initialisers and reflection
// run; no Unity member is called):
//   1. every MonoBehaviour lives in a file of its own name (Unity cannot attach it otherwise);
//   2. every inspector field has a [Tooltip];
//   3. no method is a misspelt Unity message ("LateUpadte" compiles, and never runs), and the
//      messages these scripts use have Unity's parameter lists;
//   4. the inspector defaults equal the native library's defaults (sinew_*_default), so that a
//      component added in the editor starts where the library does.
//
//   mono UnityScriptChecks.exe <assembly.dll>... -- <source.cs>...
//
// Last line: "checks: N passed, M failed".
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using Sinew;
using Sinew.Components;
using UnityEngine;
// Sinew.SinewCollider is also the native handle struct: name the component explicitly.
using SinewColliderComponent = Sinew.Components.SinewCollider;

static class UnityScriptChecks
{
    static int passed;
    static int failed;

    static void Check(bool ok, string what)
    {
        if (ok)
        {
            passed++;
            Console.WriteLine("ok     " + what);
        }
        else
        {
            failed++;
            Console.WriteLine("FAILED " + what);
        }
    }

    // MonoBehaviour messages (ScriptReference, MonoBehaviour, "Messages") that take no parameters.
    static readonly string[] ParameterlessMessages =
    {
        "Awake", "Start", "Update", "LateUpdate", "FixedUpdate", "OnEnable", "OnDisable", "OnDestroy",
        "OnValidate", "Reset", "OnGUI", "OnDrawGizmos", "OnDrawGizmosSelected", "OnApplicationQuit",
        "OnBecameVisible", "OnBecameInvisible", "OnPreCull", "OnPreRender", "OnPostRender",
        "OnRenderObject", "OnWillRenderObject", "OnTransformParentChanged", "OnTransformChildrenChanged",
        "OnMouseDown", "OnMouseUp", "OnMouseEnter", "OnMouseExit", "OnMouseOver", "OnMouseDrag",
        "OnAnimatorMove", "OnCanvasGroupChanged", "OnRectTransformDimensionsChange",
    };

    // Messages with parameters, for the misspelling check only.
    static readonly string[] OtherMessages =
    {
        "OnApplicationPause", "OnApplicationFocus", "OnRenderImage", "OnCollisionEnter", "OnCollisionExit",
        "OnCollisionStay", "OnTriggerEnter", "OnTriggerExit", "OnTriggerStay", "OnCollisionEnter2D",
        "OnCollisionExit2D", "OnCollisionStay2D", "OnTriggerEnter2D", "OnTriggerExit2D", "OnTriggerStay2D",
        "OnAnimatorIK", "OnJointBreak", "OnParticleCollision", "OnControllerColliderHit", "OnAudioFilterRead",
    };

    static int Main(string[] args)
    {
        int split = Array.IndexOf(args, "--");
        if (split < 0)
        {
            Console.WriteLine("usage: UnityScriptChecks.exe <assembly.dll>... -- <source.cs>...");
            return 2;
        }
        var assemblies = args.Take(split).Select(p => Assembly.LoadFrom(p)).ToList();
        var sources = args.Skip(split + 1).Select(Path.GetFileNameWithoutExtension).ToList();

        var behaviours = assemblies.SelectMany(a => a.GetTypes())
            .Where(t => t.IsClass && typeof(MonoBehaviour).IsAssignableFrom(t)).ToList();
        Check(behaviours.Count >= 7, "found the MonoBehaviours (" + string.Join(", ", behaviours.Select(t => t.Name)) + ")");

        // 1. file names
        foreach (Type t in behaviours)
        {
            Check(sources.Contains(t.Name), t.FullName + " is in a file named " + t.Name + ".cs");
        }

        // 2. tooltips on every serialized field of the components and of the [Serializable] classes they hold
        var inspected = new List<Type>(behaviours);
        inspected.AddRange(assemblies.SelectMany(a => a.GetTypes())
            .Where(t => t.IsClass && !t.IsAbstract && t.IsDefined(typeof(SerializableAttribute), false)
                && t.Namespace != null && t.Namespace.StartsWith("Sinew", StringComparison.Ordinal)));
        foreach (Type t in inspected)
        {
            var fields = t.GetFields(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly)
                .Where(f => !f.IsDefined(typeof(NonSerializedAttribute), false)).ToList();
            var missing = fields.Where(f => !f.IsDefined(typeof(TooltipAttribute), false)).Select(f => f.Name).ToList();
            Check(missing.Count == 0, t.Name + ": all " + fields.Count + " inspector fields have a [Tooltip]"
                + (missing.Count > 0 ? " (missing: " + string.Join(", ", missing) + ")" : ""));
        }

        // 3. message names and signatures
        var messages = ParameterlessMessages.Concat(OtherMessages).ToList();
        foreach (Type t in behaviours)
        {
            var methods = t.GetMethods(BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.DeclaredOnly)
                .Where(m => !m.IsSpecialName).ToList();
            var misspelt = new List<string>();
            foreach (MethodInfo m in methods)
            {
                string near = messages.FirstOrDefault(msg => msg != m.Name && Distance(msg, m.Name) <= 2);
                if (near != null)
                {
                    misspelt.Add(m.Name + " (did you mean " + near + "?)");
                }
                if (ParameterlessMessages.Contains(m.Name))
                {
                    Check(m.GetParameters().Length == 0, t.Name + "." + m.Name + "() has Unity's parameter list (none)");
                }
            }
            Check(misspelt.Count == 0, t.Name + ": none of its " + methods.Count + " methods is a misspelt Unity message"
                + (misspelt.Count > 0 ? ": " + string.Join(", ", misspelt) : ""));
        }

        // 4. inspector defaults = library defaults
        CheckDefaults();

        Console.WriteLine("checks: " + passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }

    static unsafe void CheckDefaults()
    {
        // Straight through NativeMethods: these values do not depend on the wrapper's ABI check.
        SinewMaterial m;
        SinewWorldDesc w;
        SinewColliderDesc c;
        SinewClothMeshDesc mesh;
        SinewRopeDesc rope;
        bool loaded = NativeMethods.sinew_material_default(&m) == SinewResult.SINEW_OK
            & NativeMethods.sinew_world_desc_default(&w) == SinewResult.SINEW_OK
            & NativeMethods.sinew_collider_desc_default(&c) == SinewResult.SINEW_OK
            & NativeMethods.sinew_cloth_mesh_desc_default(&mesh) == SinewResult.SINEW_OK
            & NativeMethods.sinew_rope_desc_default(&rope) == SinewResult.SINEW_OK;
        Check(loaded, "the native library answers sinew_*_default");
        if (!loaded)
        {
            return;
        }

        SinewMaterial s = new SinewMaterialSettings().ToNative();
        Same("SinewMaterialSettings.particleMass", s.particle_mass, m.particle_mass);
        Same("SinewMaterialSettings.damping", s.damping, m.damping);
        Same("SinewMaterialSettings.gravityScale", s.gravity_scale, m.gravity_scale);
        Same("SinewMaterialSettings.stretchCompliance", s.stretch_compliance, m.stretch_compliance);
        Same("SinewMaterialSettings.shearCompliance", s.shear_compliance, m.shear_compliance);
        Same("SinewMaterialSettings.bendCompliance", s.bend_compliance, m.bend_compliance);
        Same("SinewMaterialSettings.thickness", s.thickness, m.thickness);
        Same("SinewMaterialSettings.staticFriction", s.static_friction, m.static_friction);
        Same("SinewMaterialSettings.kineticFriction", s.kinetic_friction, m.kinetic_friction);
        Same("SinewMaterialSettings.collisionMask", s.collision_mask, m.collision_mask);
        Same("SinewMaterialSettings.selfCollision", s.self_collision, m.self_collision);

        var world = (SinewWorldBehaviour)Activator.CreateInstance(typeof(SinewWorldBehaviour));
        Same("SinewWorldBehaviour.gravity.x", world.gravity.x, w.gravity.x);
        Same("SinewWorldBehaviour.gravity.y", world.gravity.y, w.gravity.y);
        Same("SinewWorldBehaviour.gravity.z", world.gravity.z, w.gravity.z);
        Same("SinewWorldBehaviour.fixedRateHz", world.fixedRateHz, w.fixed_rate_hz);
        Same("SinewWorldBehaviour.substeps", (uint)world.substeps, w.substeps);
        Same("SinewWorldBehaviour.iterations", (uint)world.iterations, w.iterations);
        Same("SinewWorldBehaviour.threadCount", (uint)world.threadCount, w.thread_count);
        Same("SinewWorldBehaviour.maxStepsPerFrame", (uint)world.maxStepsPerFrame, w.max_steps_per_frame);
        Same("SinewWorldBehaviour.interpolate", world.interpolate ? 1u : 0u, w.interpolate);

        var collider = (SinewColliderComponent)Activator.CreateInstance(typeof(SinewColliderComponent));
        Same("SinewCollider.shape", (uint)collider.shape, c.shape);
        Same("SinewCollider.radius", collider.radius, c.radius);
        Same("SinewCollider.halfHeight", collider.halfHeight, c.half_height);
        Same("SinewCollider.radius0", collider.radius0, c.radius0);
        Same("SinewCollider.radius1", collider.radius1, c.radius1);
        Same("SinewCollider.halfExtents.x", collider.halfExtents.x, c.half_extents.x);
        Same("SinewCollider.halfExtents.y", collider.halfExtents.y, c.half_extents.y);
        Same("SinewCollider.halfExtents.z", collider.halfExtents.z, c.half_extents.z);
        Same("SinewCollider.layers", unchecked((uint)collider.layers.value), c.layers);

        var cloth = (SinewCloth)Activator.CreateInstance(typeof(SinewCloth));
        Same("SinewCloth.weldDistance", cloth.weldDistance, mesh.weld_distance);
        var ropeComponent = (SinewRope)Activator.CreateInstance(typeof(SinewRope));
        Same("SinewRope.bend", ropeComponent.bend ? 1u : 0u, rope.bend);
    }

    static void Same<T>(string what, T inspector, T library)
    {
        Check(EqualityComparer<T>.Default.Equals(inspector, library),
            "inspector default " + what + " = " + inspector + " equals the library's " + library);
    }

    static int Distance(string a, string b)
    {
        var d = new int[a.Length + 1, b.Length + 1];
        for (int i = 0; i <= a.Length; i++)
        {
            d[i, 0] = i;
        }
        for (int j = 0; j <= b.Length; j++)
        {
            d[0, j] = j;
        }
        for (int i = 1; i <= a.Length; i++)
        {
            for (int j = 1; j <= b.Length; j++)
            {
                int cost = char.ToLowerInvariant(a[i - 1]) == char.ToLowerInvariant(b[j - 1]) ? 0 : 1;
                d[i, j] = Math.Min(Math.Min(d[i - 1, j] + 1, d[i, j - 1] + 1), d[i - 1, j - 1] + cost);
            }
        }
        return d[a.Length, b.Length];
    }
}
