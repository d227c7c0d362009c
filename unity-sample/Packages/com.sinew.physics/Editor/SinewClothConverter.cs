// Hand-written. Tools ▸ Sinew ▸ Convert Selected Unity Cloth: a SinewCloth set up like each selected
// UnityEngine.Cloth (Runtime/SinewClothConversion.cs holds the mapping, tested field by field),
// its capsule and sphere-pair colliders as SinewColliders, and the original left disabled so the
// two can be compared. One undo step for the whole conversion.
using System.Text;
using Sinew.Components;
using UnityEditor;
using UnityEngine;

namespace Sinew.Editor
{
    public static class SinewClothConverter
    {
        const string MenuPath = "Tools/Sinew/Convert Selected Unity Cloth";

        [MenuItem(MenuPath, true)]
        static bool CanConvert()
        {
            foreach (GameObject go in Selection.gameObjects)
            {
                if (go.GetComponent<UnityEngine.Cloth>() != null)
                {
                    return true;
                }
            }
            return false;
        }

        [MenuItem(MenuPath, false, 2000)]
        static void ConvertSelected()
        {
            Undo.IncrementCurrentGroup();
            int group = Undo.GetCurrentGroup();
            Undo.SetCurrentGroupName("Convert Unity Cloth to Sinew");
            var report = new StringBuilder();
            int converted = 0;
            foreach (GameObject go in Selection.gameObjects)
            {
                UnityEngine.Cloth cloth = go.GetComponent<UnityEngine.Cloth>();
                if (cloth == null)
                {
                    continue;
                }
                if (go.GetComponent<SinewCloth>() != null)
                {
                    report.AppendLine(go.name + ": already has a Sinew Cloth, left as it is.");
                    continue;
                }
                Convert(cloth, report);
                converted++;
            }
            Undo.CollapseUndoOperations(group);
            string text = converted + " cloth(s) converted. The Unity Cloth components are disabled: enable one or the other to compare.\n\n" + report;
            Debug.Log("Sinew: " + text, null);
            EditorUtility.DisplayDialog("Sinew: Unity Cloth converted", text, "OK");
        }

        /// <summary>Converts one Unity Cloth (its GameObject gets a SinewCloth; the Cloth is disabled).</summary>
        public static SinewCloth Convert(UnityEngine.Cloth cloth, StringBuilder report)
        {
            GameObject go = cloth.gameObject;
            UnityClothSettings u = Read(cloth);
            var skinned = go.GetComponent<SkinnedMeshRenderer>();
            Mesh mesh = skinned != null ? skinned.sharedMesh : null;
            int n = mesh != null ? mesh.vertexCount : 0;
            if (mesh != null && mesh.isReadable && u.coefficients != null && u.coefficients.Length > 0)
            {
                if (u.coefficients.Length != n)
                {
                    report.AppendLine(go.name + ": Unity Cloth welded " + n + " mesh vertices into " + u.coefficients.Length
                        + " particles; its coefficients were matched to the mesh's vertices by position.");
                }
                u.coefficients = SinewClothConversion.PerMeshVertex(u.coefficients, cloth.vertices, mesh.vertices);
            }

            SinewWorldBehaviour world = Object.FindObjectOfType<SinewWorldBehaviour>();
            SinewConversionContext ctx = default(SinewConversionContext);
            ctx.fixedRateHz = world != null ? world.fixedRateHz : 60f;
            ctx.substeps = world != null ? world.substeps : 8;
            ctx.gravity = world != null ? world.gravity : new Vector3(0f, -9.81f, 0f);
            ctx.particleMass = new SinewMaterialSettings().particleMass;
            ctx.airDensity = 1.2f;
            ctx.drag = new SinewDynamicsSettings().drag;

            SinewCloth target = Undo.AddComponent<SinewCloth>(go);
            float area;
            int particles;
            SinewEditorGUI.SurfaceOf(target, out area, out particles);
            ctx.area = area;
            ctx.particleCount = particles;
            // Start from the library's fabric preset nearest Unity's bending stiffness (docs/unity.md).
            ctx.usePreset = true;
            ctx.preset = SinewClothConversion.NearestFabric(u.bendingStiffness);
            SinewClothMapping m = SinewClothConversion.Map(u, ctx);
            SinewClothConversion.Apply(m, target, n);
            report.AppendLine(go.name + ": " + m.pinnedCount + " pinned vertices (max distance 0), "
                + (m.maxDistances != null ? "painted max distances" : "no max distances") + ", " + (m.backstops != null ? "painted backstops" : "no backstops") + ".");
            foreach (string note in m.notes)
            {
                report.AppendLine("  - " + note);
            }

            int colliders = 0;
            foreach (CapsuleCollider capsule in cloth.capsuleColliders ?? new CapsuleCollider[0])
            {
                if (capsule == null || capsule.gameObject.GetComponent<Sinew.Components.SinewCollider>() != null)
                {
                    continue;
                }
                var c = Undo.AddComponent<Sinew.Components.SinewCollider>(capsule.gameObject);
                SinewClothConversion.MapCapsule(capsule.center, capsule.radius, capsule.height, capsule.direction, c);
                colliders++;
            }
            foreach (ClothSphereColliderPair pair in cloth.sphereColliders ?? new ClothSphereColliderPair[0])
            {
                if (pair.first == null)
                {
                    continue;
                }
                Transform a = pair.first.transform;
                if (pair.second == null)
                {
                    var s = Undo.AddComponent<Sinew.Components.SinewCollider>(pair.first.gameObject);
                    s.shape = Sinew.Components.SinewCollider.Shape.Sphere;
                    s.center = pair.first.center;
                    s.radius = pair.first.radius;
                    colliders++;
                    continue;
                }
                // Both spheres in the first's space; the capsule lives on a child turned along them.
                Vector3 pa = pair.first.center;
                Vector3 pb = a.InverseTransformPoint(pair.second.transform.TransformPoint(pair.second.center));
                Vector3 center, axis;
                float halfHeight;
                SinewClothConversion.MapSpherePair(pa, pair.first.radius, pb, pair.second.radius, out center, out axis, out halfHeight);
                var child = new GameObject("Sinew Capsule (" + pair.first.name + " – " + pair.second.name + ")");
                Undo.RegisterCreatedObjectUndo(child, "Sinew capsule");
                child.transform.SetParent(a, false);
                child.transform.localPosition = center;
                child.transform.localRotation = Quaternion.FromToRotation(Vector3.up, axis);
                var cap = child.AddComponent<Sinew.Components.SinewCollider>();
                cap.shape = Sinew.Components.SinewCollider.Shape.Capsule;
                cap.direction = Sinew.Components.SinewCollider.Axis.Y;
                cap.center = Vector3.zero;
                cap.halfHeight = halfHeight;
                cap.radius0 = pair.first.radius;
                cap.radius1 = pair.second.radius;
                colliders++;
                report.AppendLine("  - sphere pair " + pair.first.name + "/" + pair.second.name + ": a tapered capsule on a child of " + pair.first.name
                    + " (it follows that sphere; Unity's pair follows both)");
            }
            report.AppendLine("  " + colliders + " Sinew Collider(s) added.");

            if (m.windSpeed > 0f)
            {
                if (Object.FindObjectOfType<SinewWindZone>() == null)
                {
                    var windObject = new GameObject("Sinew Wind (from " + go.name + "'s Unity Cloth acceleration)");
                    Undo.RegisterCreatedObjectUndo(windObject, "Sinew wind");
                    windObject.transform.rotation = Quaternion.LookRotation(m.windDirection);
                    var wind = windObject.AddComponent<SinewWindZone>();
                    wind.speed = m.windSpeed;
                    wind.turbulence = m.windTurbulence;
                }
                else
                {
                    report.AppendLine("  - the scene has a Sinew Wind Zone already: the acceleration's wind was not added.");
                }
            }

            Undo.RecordObject(cloth, "Disable Unity Cloth");
            cloth.enabled = false;
            EditorUtility.SetDirty(target);
            return target;
        }

        /// <summary>The settings of a Unity Cloth as plain data.</summary>
        public static UnityClothSettings Read(UnityEngine.Cloth cloth)
        {
            UnityClothSettings u = default(UnityClothSettings);
            u.stretchingStiffness = cloth.stretchingStiffness;
            u.bendingStiffness = cloth.bendingStiffness;
            u.damping = cloth.damping;
            u.useGravity = cloth.useGravity;
            u.worldVelocityScale = cloth.worldVelocityScale;
            u.worldAccelerationScale = cloth.worldAccelerationScale;
            u.friction = cloth.friction;
            u.collisionMassScale = cloth.collisionMassScale;
            u.useTethers = cloth.useTethers;
            u.sleepThreshold = cloth.sleepThreshold;
            u.clothSolverFrequency = cloth.clothSolverFrequency;
            u.selfCollisionDistance = cloth.selfCollisionDistance;
            u.selfCollisionStiffness = cloth.selfCollisionStiffness;
            u.externalAcceleration = cloth.externalAcceleration;
            u.randomAcceleration = cloth.randomAcceleration;
            u.useVirtualParticles = cloth.useVirtualParticles;
            u.enableContinuousCollision = cloth.enableContinuousCollision;
            u.coefficients = cloth.coefficients;
            return u;
        }
    }
}
