// Checks on the compiled Unity scripts that the compiler cannot make, run on Mono by
// scripts/test-unity.sh against the compile-only stub (only field initialisers and reflection
// run; no Unity member is called):
//   1. every MonoBehaviour and ScriptableObject lives in a file of its own name (Unity cannot
//      attach it, or load its assets, otherwise);
//   2. every inspector field has a [Tooltip];
//   3. no method is a misspelt Unity message ("LateUpadte" compiles, and never runs), and the
//      messages these scripts use have Unity's parameter lists;
//   4. the inspector defaults equal the native library's defaults (sinew_*_default), so that a
//      component added in the editor starts where the library does (the two deliberate
//      exceptions are checked as such), and the Unity structs the components hand to the
//      library as they are (Vector3, Matrix4x4, BoneWeight) have the library's sizes.
//
//   mono UnityScriptChecks.exe <assembly.dll>... -- <source.cs>...
//
// Last line: "checks: N passed, M failed".
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.InteropServices;
using Sinew;
using Sinew.Components;
using UnityEngine;
// Sinew.SinewCollider is also the native handle struct: name the component explicitly.
using SinewColliderComponent = Sinew.Components.SinewCollider;
using SinewRagdollComponent = Sinew.Components.SinewRagdoll;

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
        var scriptables = assemblies.SelectMany(a => a.GetTypes())
            .Where(t => t.IsClass && typeof(ScriptableObject).IsAssignableFrom(t)).ToList();
        Check(scriptables.Count >= 1, "found the ScriptableObjects (" + string.Join(", ", scriptables.Select(t => t.Name)) + ")");

        // 1. file names
        foreach (Type t in behaviours.Concat(scriptables))
        {
            Check(sources.Contains(t.Name), t.FullName + " is in a file named " + t.Name + ".cs");
        }

        // 2. tooltips on every serialized field of the components, the assets, and the [Serializable] classes they hold
        var inspected = new List<Type>(behaviours);
        inspected.AddRange(scriptables);
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
                // A real message is never a misspelling of another (OnBecameVisible and
                // OnBecameInvisible are two apart).
                string near = messages.Contains(m.Name) ? null : messages.FirstOrDefault(msg => Distance(msg, m.Name) <= 2);
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
        SinewDynamics dyn;
        SinewLod lod;
        SinewWind wind;
        SinewStrandsDesc strands;
        bool loaded = NativeMethods.sinew_material_default(&m) == SinewResult.SINEW_OK
            & NativeMethods.sinew_world_desc_default(&w) == SinewResult.SINEW_OK
            & NativeMethods.sinew_collider_desc_default(&c) == SinewResult.SINEW_OK
            & NativeMethods.sinew_cloth_mesh_desc_default(&mesh) == SinewResult.SINEW_OK
            & NativeMethods.sinew_rope_desc_default(&rope) == SinewResult.SINEW_OK
            & NativeMethods.sinew_dynamics_default(&dyn) == SinewResult.SINEW_OK
            & NativeMethods.sinew_lod_default(&lod) == SinewResult.SINEW_OK
            & NativeMethods.sinew_wind_default(&wind) == SinewResult.SINEW_OK
            & NativeMethods.sinew_strands_desc_default(&strands) == SinewResult.SINEW_OK;
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
        Same("SinewMaterialSettings.density", s.density, m.density);
        Same("SinewMaterialSettings.bendStiffness", s.bend_stiffness, m.bend_stiffness);
        Same("SinewMaterialSettings.stretchStiffness", s.stretch_stiffness, m.stretch_stiffness);
        Same("SinewMaterialSettings.shearStiffness", s.shear_stiffness, m.shear_stiffness);
        Same("SinewMaterialSettings.youngsModulus", s.youngs_modulus, m.youngs_modulus);
        Same("SinewMaterialSettings.poissonRatio", s.poisson_ratio, m.poisson_ratio);

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

        SinewRagdollSettings rs = SinewRagdollSettings.Default;
        var ragdoll = (SinewRagdollComponent)Activator.CreateInstance(typeof(SinewRagdollComponent));
        Same("SinewRagdoll.stabilize", ragdoll.stabilize ? 1u : 0u, rs.stabilize);
        Same("SinewRagdoll.maxMassRatio", ragdoll.maxMassRatio, rs.max_mass_ratio);
        Same("SinewRagdoll.selfCollision", ragdoll.selfCollision ? 1u : 0u, rs.self_collision);
        Same("SinewRagdoll.friction", ragdoll.friction, rs.friction);
        Same("SinewRagdoll.restitution", ragdoll.restitution, rs.restitution);
        Same("SinewRagdoll.linearDamping", ragdoll.linearDamping, rs.linear_damping);
        Same("SinewRagdoll.angularDamping", ragdoll.angularDamping, rs.angular_damping);
        Same("SinewRagdoll.colliderMask", unchecked((uint)ragdoll.colliderMask.value), rs.collider_mask);
        Same("SinewRagdoll.sleepThreshold", ragdoll.sleepThreshold, rs.sleep_threshold);
        Same("SinewRagdoll.sleepTime", ragdoll.sleepTime, rs.sleep_time);
        Same("SinewRagdoll.muscleFrequency", ragdoll.muscleFrequency, rs.muscle_frequency);
        Same("SinewRagdoll.muscleDampingRatio", ragdoll.muscleDampingRatio, rs.muscle_damping_ratio);
        Same("SinewRagdoll.muscleMaxTorque", ragdoll.muscleMaxTorque, rs.muscle_max_torque);
        Same("SinewRagdoll.pinFrequency", ragdoll.pinFrequency, rs.pin_frequency);
        Same("SinewRagdoll.pinDampingRatio", ragdoll.pinDampingRatio, rs.pin_damping_ratio);
        Same("SinewRagdoll.hitStrengthLoss", ragdoll.hitStrengthLoss, rs.hit_strength_loss);
        Same("SinewRagdoll.hitNeighbourFalloff", ragdoll.hitNeighbourFalloff, rs.hit_neighbour_falloff);
        Same("SinewRagdoll.hitFullImpulse", ragdoll.hitFullImpulse, rs.hit_full_impulse);
        Same("SinewRagdoll.hitRecoveryTime", ragdoll.hitRecoveryTime, rs.hit_recovery_time);
        Same("SinewRagdoll.balanceDistance", ragdoll.balanceDistance, rs.balance_distance);
        Same("SinewRagdoll.restSpeed", ragdoll.restSpeed, rs.rest_speed);
        SinewGetUpQuery gq = SinewGetUpQuery.Default;
        Same("SinewRagdoll.pelvisBone", (uint)ragdoll.pelvisBone, gq.pelvis);
        Same("SinewRagdoll.chestBone", (uint)ragdoll.chestBone, gq.chest);
        Same("SinewRagdoll.headBone", (uint)ragdoll.headBone, gq.head);
        Check(!ragdoll.powered && ragdoll.Mode == SinewRagdollComponent.RagdollMode.Animated, "SinewRagdoll starts animated, not powered");
        SinewBoneDesc bd = SinewBoneDesc.Default;
        SinewJointDesc jd = SinewJointDesc.Default;
        var bone = new Sinew.Components.SinewRagdollBone();
        Same("SinewRagdollBone.mass", bone.mass, bd.mass);
        Same("SinewRagdollBone.hingeMin", bone.hingeMin, jd.hinge_min);
        Same("SinewRagdollBone.hingeMax", bone.hingeMax, jd.hinge_max);
        Same("SinewRagdollBone.swing1", bone.swing1, jd.swing1);
        Same("SinewRagdollBone.swing2", bone.swing2, jd.swing2);
        Same("SinewRagdollBone.lowTwist", bone.lowTwist, jd.low_twist);
        Same("SinewRagdollBone.highTwist", bone.highTwist, jd.high_twist);
        Check(bone.axis.x == jd.axis.x && bone.axis.y == jd.axis.y && bone.swingAxis.y == jd.swing_axis.y, "SinewRagdollBone: axis and swing axis as the library's joint default");
        Check(!ragdoll.Ragdolling, "SinewRagdoll starts animated (Ragdolling false: kinematic, following the Animator)");

        var cloth = (SinewCloth)Activator.CreateInstance(typeof(SinewCloth));
        Same("SinewCloth.weldDistance", cloth.weldDistance, mesh.weld_distance);
        Same("SinewCloth.tearThreshold", cloth.tearThreshold, dyn.tear_threshold);
        Same("SinewCloth.NativeDynamics() tear_threshold", cloth.NativeDynamics().tear_threshold, dyn.tear_threshold);
        var ropeComponent = (SinewRope)Activator.CreateInstance(typeof(SinewRope));
        Same("SinewRope.bend", ropeComponent.bend ? 1u : 0u, rope.bend);

        var softComponent = (SinewSoftBody)Activator.CreateInstance(typeof(SinewSoftBody));
        SinewSoftSettings ssd = SinewSoftSettings.Default;
        SinewSoftSettings ssc = softComponent.ToNativeSettings();
        Same("SinewSoftBody.volumeCompliance", ssc.volume_compliance, ssd.volume_compliance);
        Same("SinewSoftBody.shapeStiffness", ssc.shape_stiffness, ssd.shape_stiffness);
        Same("SinewSoftBody.ToNativeSettings() chapter_stiffness", ssc.chapter_stiffness, ssd.chapter_stiffness);
        Same("SinewSoftBody.ToNativeSettings() shape_linear", ssc.shape_linear, ssd.shape_linear);
        Same("SinewSoftBody.plasticYield", ssc.plastic_yield, ssd.plastic_yield);
        Same("SinewSoftBody.plasticCreep", ssc.plastic_creep, ssd.plastic_creep);
        Same("SinewSoftBody.plasticMax", ssc.plastic_max, ssd.plastic_max);
        Same("SinewSoftBody.pressure", ssc.pressure, ssd.pressure);
        Same("SinewSoftBody.externalPressure", ssc.external_pressure, ssd.external_pressure);
        SinewSoftLatticeDesc sld = SinewSoftLatticeDesc.Default;
        Same("SinewSoftBody.clusterCells", (uint)softComponent.clusterCells, sld.cluster_cells);
        Same("SinewSoftBody.physicsMaterial.bendCompliance (the lattice's material)", softComponent.physicsMaterial.ToNative().bend_compliance, sld.material.bend_compliance);
        Same("SinewSoftBody.friction", softComponent.friction, sld.material.static_friction);
        Same("SinewSoftBody: kinetic friction 0.8 × friction", 0.8f * softComponent.friction, sld.material.kinetic_friction);
        Same("SinewSoftBody.collisionLayers", unchecked((uint)softComponent.collisionLayers.value), sld.material.collision_mask);
        // Deliberate: the library's lattice has rigid edges (compliance 0); a jelly component wobbles.
        Check(softComponent.edgeCompliance > 0f && sld.material.stretch_compliance == 0f && sld.material.shear_compliance == 0f,
            "SinewSoftBody.edgeCompliance = " + softComponent.edgeCompliance + " m/N, deliberately not the library's rigid 0 (documented in its tooltip)");

        // SinewSoftBody's trilinear embedding: the lattice covers the bounds; at rest every
        // embedded point comes back where it was, and under an affine motion of the particles it
        // moves with them.
        var layout = SinewSoftBody.LatticeLayout.Over(new Bounds(new Vector3(0.1f, 0.2f, -0.3f), new Vector3(0.4f, 1f, 0.25f)), 5);
        Check(layout.Nx == 3 && layout.Ny == 6 && layout.Nz == 3 && Math.Abs(layout.Spacing - 0.2f) < 1e-6f,
            "SinewSoftBody.LatticeLayout.Over: 5 cells of 0.2 m along the longest axis (1 m), 2 x 5 x 2 cells in all (" + layout.Nx + " x " + layout.Ny + " x " + layout.Nz + " particles)");
        Vector3 far = layout.Point(layout.Nx - 1, layout.Ny - 1, layout.Nz - 1);
        Check(layout.Min.x <= -0.1f + 1e-6f && layout.Min.y <= -0.3f + 1e-6f && layout.Min.z <= -0.425f + 1e-6f && far.x >= 0.3f - 1e-6f && far.y >= 0.7f - 1e-6f && far.z >= -0.175f - 1e-6f,
            "SinewSoftBody.LatticeLayout.Over: the lattice covers the bounds");
        var rest = new Vector3[layout.Nx * layout.Ny * layout.Nz];
        var moved = new Vector3[rest.Length];
        // x' = A x + t, A a rotation about z times a shear.
        float ca = (float)Math.Cos(0.7), sa = (float)Math.Sin(0.7);
        Func<Vector3, Vector3> affine = x => new Vector3(ca * x.x - sa * (x.y + 0.3f * x.z) + 1f, sa * x.x + ca * (x.y + 0.3f * x.z) - 2f, 1.2f * x.z + 0.5f);
        for (int k = 0; k < layout.Nz; k++)
        {
            for (int j = 0; j < layout.Ny; j++)
            {
                for (int i = 0; i < layout.Nx; i++)
                {
                    rest[layout.Index(i, j, k)] = layout.Point(i, j, k);
                    moved[layout.Index(i, j, k)] = affine(layout.Point(i, j, k));
                }
            }
        }
        float restError = 0f, movedError = 0f;
        for (int a = 0; a <= 10; a++)
        {
            for (int b = 0; b <= 10; b++)
            {
                for (int e = 0; e <= 10; e++)
                {
                    var v = new Vector3(-0.1f + 0.04f * a, -0.3f + 0.1f * b, -0.425f + 0.025f * e);
                    int corner;
                    Vector3 fraction;
                    layout.Embed(v, out corner, out fraction);
                    Vector3 back = layout.Blend(rest, corner, fraction) - v;
                    Vector3 follow = layout.Blend(moved, corner, fraction) - affine(v);
                    restError = Math.Max(restError, (float)Math.Sqrt(back.sqrMagnitude));
                    movedError = Math.Max(movedError, (float)Math.Sqrt(follow.sqrMagnitude));
                }
            }
        }
        Check(restError < 1e-5f, "SinewSoftBody's trilinear embedding: at rest 1331 points of the bounds come back within 0.01 mm (worst " + restError + " m)");
        Check(movedError < 1e-4f, "SinewSoftBody's trilinear embedding: under an affine motion of the lattice the points follow within 0.1 mm (worst " + movedError + " m)");

        SinewDynamics d = new SinewDynamicsSettings().ToNative();
        Same("SinewDynamicsSettings.worldVelocityScale", d.world_velocity_scale, dyn.world_velocity_scale);
        Same("SinewDynamicsSettings.worldAccelerationScale", d.world_acceleration_scale, dyn.world_acceleration_scale);
        Same("SinewDynamicsSettings.maxSpeed", d.max_speed, dyn.max_speed);
        Same("SinewDynamicsSettings.poseStiffness", d.pose_stiffness, dyn.pose_stiffness);
        Same("SinewDynamicsSettings.windScale", d.wind_scale, dyn.wind_scale);
        Same("SinewDynamicsSettings.drag", d.drag, dyn.drag);
        Same("SinewDynamicsSettings.lift", d.lift, dyn.lift);
        Same("SinewDynamicsSettings.ToNative() tear_threshold", d.tear_threshold, dyn.tear_threshold);
        Same("SinewDynamicsSettings.teleportDistance", d.teleport_distance, dyn.teleport_distance);
        Same("SinewDynamicsSettings.sleepThreshold", d.sleep_threshold, dyn.sleep_threshold);
        Same("SinewDynamicsSettings.sleepTime", d.sleep_time, dyn.sleep_time);

        SinewLod l = new SinewLodSettings().ToNative();
        Same("SinewLodSettings.reduceDistance", l.reduce_distance, lod.reduce_distance);
        Same("SinewLodSettings.reducedSubsteps", l.reduced_substeps, lod.reduced_substeps);
        Same("SinewLodSettings.freezeDistance", l.freeze_distance, lod.freeze_distance);
        Same("SinewLodSettings.freezeWhenInvisible", l.freeze_when_invisible, lod.freeze_when_invisible);

        var zone = (SinewWindZone)Activator.CreateInstance(typeof(SinewWindZone));
        Same("SinewWindZone.turbulence", zone.turbulence, wind.turbulence);
        Same("SinewWindZone.turbulenceScale", zone.turbulenceScale, wind.turbulence_scale);
        Same("SinewWindZone.turbulenceFrequency", zone.turbulenceFrequency, wind.turbulence_frequency);
        Same("SinewWindZone.gustStrength", zone.gustStrength, wind.gust_strength);
        Same("SinewWindZone.gustFrequency", zone.gustFrequency, wind.gust_frequency);
        Same("SinewWindZone.airDensity", zone.airDensity, wind.air_density);
        // Deliberate: the world's default air is calm; a wind component starts at a breeze.
        Check(zone.speed > 0f && wind.speed == 0f,
            "SinewWindZone.speed = " + zone.speed + " m/s, deliberately not the library's calm " + wind.speed + " (documented in its tooltip)");

        var hair = (SinewHair)Activator.CreateInstance(typeof(SinewHair));
        Same("SinewHair.particlesPerStrand", (uint)hair.particlesPerStrand, strands.particles_per_strand);
        Same("SinewHair.segmentLength", hair.segmentLength, strands.segment_length);
        SinewMaterial hm = hair.physicsMaterial.ToNative();
        SinewMaterial sm = strands.material;
        Same("SinewHair.physicsMaterial.particleMass", hm.particle_mass, sm.particle_mass);
        Same("SinewHair.physicsMaterial.damping", hm.damping, sm.damping);
        Same("SinewHair.physicsMaterial.gravityScale", hm.gravity_scale, sm.gravity_scale);
        Same("SinewHair.physicsMaterial.stretchCompliance", hm.stretch_compliance, sm.stretch_compliance);
        Same("SinewHair.physicsMaterial.shearCompliance", hm.shear_compliance, sm.shear_compliance);
        Same("SinewHair.physicsMaterial.bendCompliance", hm.bend_compliance, sm.bend_compliance);
        Same("SinewHair.physicsMaterial.thickness", hm.thickness, sm.thickness);
        Same("SinewHair.physicsMaterial.staticFriction", hm.static_friction, sm.static_friction);
        Same("SinewHair.physicsMaterial.kineticFriction", hm.kinetic_friction, sm.kinetic_friction);
        Same("SinewHair.physicsMaterial.collisionMask", hm.collision_mask, sm.collision_mask);
        Same("SinewHair.physicsMaterial.selfCollision", hm.self_collision, sm.self_collision);
        Check(new SinewCloth().physicsMaterial.particleMass == m.particle_mass, "SinewCloth's material still starts from the cloth defaults (not hair's)");

        // The collider component's inspector enum has SinewShape's values, name for name.
        foreach (SinewColliderComponent.Shape shape in Enum.GetValues(typeof(SinewColliderComponent.Shape)))
        {
            string shapeName = "SINEW_SHAPE_" + shape.ToString().ToUpperInvariant();
            Check(Enum.IsDefined(typeof(SinewShape), shapeName) && (uint)(SinewShape)Enum.Parse(typeof(SinewShape), shapeName) == (uint)shape,
                "SinewCollider.Shape." + shape + " = " + (uint)shape + " is SinewShape." + shapeName);
        }
        Same("SinewCollider.Shape has as many values as SinewShape", Enum.GetValues(typeof(SinewColliderComponent.Shape)).Length, Enum.GetValues(typeof(SinewShape)).Length);

        // What SinewCloth passes to the library without a copy.
        Same("sizeof UnityEngine.Vector3 (stub) = sizeof SinewVec3", Marshal.SizeOf(typeof(Vector3)), Marshal.SizeOf(typeof(SinewVec3)));
        Same("sizeof UnityEngine.Matrix4x4 (stub) = sizeof SinewMat4", Marshal.SizeOf(typeof(Matrix4x4)), Marshal.SizeOf(typeof(SinewMat4)));
        Same("sizeof UnityEngine.BoneWeight (stub, Unity's field order) = sizeof SinewBoneWeight", Marshal.SizeOf(typeof(BoneWeight)), Marshal.SizeOf(typeof(SinewBoneWeight)));
        var bw = new BoneWeight();
        bw.weight1 = 0.25f;
        bw.boneIndex2 = 7;
        SinewBoneWeight native = *(SinewBoneWeight*)&bw;
        Check(native.weight1 == 0.25f && native.bone2 == 7, "a BoneWeight read as SinewBoneWeight keeps weight1 and boneIndex2 in place");
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
