// Hand-written. Material and dynamics presets (silk, cotton, leather, chainmail, hair, jelly…) as
// ScriptableObject assets, applied from the inspectors (Editor/SinewPresetGUI.cs) or from a script,
// and the built-in ones the package ships (SinewClothPreset.BuiltIn).
using System;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// A saved look of a body: its physics material, its dynamics and (for cloth) tearing and
    /// tethers, with the fabric's areal density, so that the particle mass follows the mesh's size
    /// and resolution. Create one with Assets ▸ Create ▸ Sinew ▸ Body Preset or with "Save as
    /// preset…" in a body's inspector.
    /// </summary>
    /// <remarks>
    /// <para>Applying a preset with an <see cref="arealDensity"/> (kg/m²) to a cloth of area A (m²)
    /// and N particles sets the particle mass to density × A / N: the same preset weighs the same
    /// per square metre on a coarse and on a fine mesh. The built-in fabrics, rubber sheet and hair
    /// are the library's presets (<see cref="SinewMaterialSettings.FromPreset"/>): their material's
    /// density and bending stiffness are in physical units, the same at any resolution. Other
    /// compliances are per constraint (m/N), so a mesh much finer than the presets' 2–3 cm spacing
    /// behaves a little stiffer.</para>
    /// <para>The soft-body fields apply to a <see cref="SinewSoftBody"/> only; its total mass is
    /// <see cref="softMass"/>.</para>
    /// </remarks>
    [CreateAssetMenu(fileName = "Sinew Preset", menuName = "Sinew/Body Preset", order = 400)]
    public sealed class SinewClothPreset : ScriptableObject
    {
        [Tooltip("What the preset is for, shown in the inspector's preset menu.")]
        public string description = "";

        [Tooltip("Mass per square metre of the fabric (kg/m²), e.g. silk 0.05, cotton 0.15, leather 0.8, chainmail 7. Sets the particle mass from the mesh's area and particle count when applied. 0 = keep the Particle Mass below.")]
        [Min(0f)]
        public float arealDensity = 0f;

        [Tooltip("The physics material it applies (Particle Mass is replaced when Areal Density is set and the mesh's area is known).")]
        public SinewMaterialSettings physicsMaterial = new SinewMaterialSettings();

        [Tooltip("The dynamics it applies (inertia, speed limit, teleport, pose stiffness, wind, sleep).")]
        public SinewDynamicsSettings dynamics = new SinewDynamicsSettings();

        [Tooltip("Cloth: strain beyond 1 + this tears (0 = never).")]
        [Min(0f)]
        public float tearThreshold = 0f;

        [Tooltip("Cloth: tie free vertices to their nearest pin (Use Tethers).")]
        public bool useTethers = true;

        [Tooltip("Cloth: how far beyond its rest distance to the pin a vertex may go (× rest distance, ≥ 1).")]
        [Min(1f)]
        public float tetherScale = 1f;

        [Tooltip("Soft body: total mass (kg).")]
        [Min(1e-4f)]
        public float softMass = 1f;

        [Tooltip("Soft body: shape-matching stiffness per 1/60 s (0–1).")]
        [Range(0f, 1f)]
        public float softShapeStiffness = 0.5f;

        [Tooltip("Soft body: compliance of the lattice's edges (m/N).")]
        [Range(0f, 0.01f)]
        public float softEdgeCompliance = 1e-4f;

        [Tooltip("Soft body: compliance of the tetrahedra's volumes.")]
        [Range(0f, 1f)]
        public float softVolumeCompliance = 0f;

        /// <summary>The names of <see cref="BuiltIn"/>'s presets, in menu order.</summary>
        public static readonly string[] BuiltInNames = { "Silk", "Cotton", "Denim", "Leather", "Chainmail", "Hair", "Jelly", "Rubber" };

        /// <summary>
        /// Writes this preset into <paramref name="target"/>: material and dynamics for every body,
        /// tearing and tethers for a cloth, the soft-body fields for a soft body. With an
        /// <see cref="arealDensity"/> and <paramref name="area"/> &gt; 0 (m², the mesh's surface in
        /// world units) and <paramref name="particleCount"/> &gt; 0, the particle mass becomes
        /// density × area / count. The body picks the settings up before its next step
        /// (<see cref="SinewBodyBehaviour.ApplySettings()"/>); changed pins or masses need a rebuild.
        /// </summary>
        public void ApplyTo(SinewBodyBehaviour target, float area, int particleCount)
        {
            if (target == null)
            {
                throw new ArgumentNullException("target");
            }
            SinewMaterialSettings m = Copy(physicsMaterial);
            if (arealDensity > 0f && area > 0f && particleCount > 0)
            {
                m.particleMass = arealDensity * area / particleCount;
            }
            if (arealDensity > 0f && !(target is SinewCloth))
            {
                // A fabric's density is per square metre: on a rope or hair it would read as kg/m.
                m.density = 0f;
            }
            target.physicsMaterial = m;
            target.dynamics = Copy(dynamics);
            var cloth = target as SinewCloth;
            if (cloth != null)
            {
                cloth.tearThreshold = tearThreshold;
                cloth.useTethers = useTethers;
                cloth.tetherScale = tetherScale;
            }
            var soft = target as SinewSoftBody;
            if (soft != null)
            {
                soft.mass = softMass;
                soft.shapeStiffness = softShapeStiffness;
                soft.edgeCompliance = softEdgeCompliance;
                soft.volumeCompliance = softVolumeCompliance;
                soft.friction = m.staticFriction;
            }
            target.ApplySettings();
        }

        /// <summary>Copies <paramref name="source"/>'s current settings into this preset ("Save as preset…").
        /// The areal density is kept as it was (a body knows its particle mass, not its fabric).</summary>
        public void CaptureFrom(SinewBodyBehaviour source)
        {
            if (source == null)
            {
                throw new ArgumentNullException("source");
            }
            physicsMaterial = Copy(source.physicsMaterial);
            dynamics = Copy(source.dynamics);
            var cloth = source as SinewCloth;
            if (cloth != null)
            {
                tearThreshold = cloth.tearThreshold;
                useTethers = cloth.useTethers;
                tetherScale = cloth.tetherScale;
            }
            var soft = source as SinewSoftBody;
            if (soft != null)
            {
                softMass = soft.mass;
                softShapeStiffness = soft.shapeStiffness;
                softEdgeCompliance = soft.edgeCompliance;
                softVolumeCompliance = soft.volumeCompliance;
            }
        }

        /// <summary>
        /// Fills <paramref name="preset"/> with the built-in preset <paramref name="name"/> (one of
        /// <see cref="BuiltInNames"/>). The values and where they come from are in docs/unity.md
        /// ("Presets"). Returns false for an unknown name, changing nothing.
        /// </summary>
        public static bool BuiltIn(string name, SinewClothPreset preset)
        {
            if (preset == null)
            {
                throw new ArgumentNullException("preset");
            }
            var m = new SinewMaterialSettings();
            var d = new SinewDynamicsSettings();
            float density, tear = 0f;
            string about;
            // The fabrics, the rubber sheet and hair are the library's presets (sinew_material_preset,
            // in physical units: density, bending stiffness in N·m); the rest: compliances for a
            // 2–3 cm vertex spacing; friction against skin and clothing.
            switch (name)
            {
                case "Silk":
                    about = "Light, flowing, catches the wind: 0.05 kg per square metre, almost no bending stiffness (2e-6 N·m).";
                    m = SinewMaterialSettings.FromPreset(SinewMaterialPreset.SINEW_MATERIAL_SILK);
                    density = m.density;
                    Air(d, 1.2f, 0.5f);
                    break;
                case "Cotton":
                    about = "A shirt or a cape: 0.15 kg per square metre, folds softly (1e-5 N·m).";
                    m = SinewMaterialSettings.FromPreset(SinewMaterialPreset.SINEW_MATERIAL_COTTON);
                    density = m.density;
                    Air(d, 1f, 0.3f);
                    break;
                case "Denim":
                    about = "Jeans, a work jacket: 0.4 kg per square metre, stiff folds (1e-4 N·m).";
                    m = SinewMaterialSettings.FromPreset(SinewMaterialPreset.SINEW_MATERIAL_DENIM);
                    density = m.density;
                    Air(d, 1f, 0.2f);
                    break;
                case "Leather":
                    about = "A leather coat or a belt flap: 1 kg per square metre, does not stretch, resists bending (1e-3 N·m).";
                    m = SinewMaterialSettings.FromPreset(SinewMaterialPreset.SINEW_MATERIAL_LEATHER);
                    density = m.density;
                    Air(d, 0.9f, 0.1f);
                    break;
                case "Chainmail":
                    about = "Riveted rings: 7 kg per square metre, the rings do not stretch but the mail folds freely; air passes through it.";
                    density = 7f;
                    Fabric(m, 0f, 1e-4f, 1f, 0.012f, 0.6f, 0.35f, 0.3f);
                    Air(d, 0.15f, 0f);
                    break;
                case "Hair":
                    about = "Strands (Sinew Hair): 0.001 kg per metre of strand, damped, inextensible, held in style by pose stiffness.";
                    density = 0f;
                    m = SinewMaterialSettings.FromPreset(SinewMaterialPreset.SINEW_MATERIAL_HAIR);
                    d.poseStiffness = 5f;
                    Air(d, 1f, 0f);
                    break;
                case "Jelly":
                    about = "A soft body that wobbles and keeps its volume (Sinew Soft Body): 1 kg.";
                    density = 0f;
                    Fabric(m, 0f, 0f, 0.001f, 0.01f, 1f, 0.5f, 0.4f);
                    preset.softMass = 1f;
                    preset.softShapeStiffness = 0.3f;
                    preset.softEdgeCompliance = 1e-3f;
                    preset.softVolumeCompliance = 0f;
                    break;
                case "Rubber":
                    about = "A firm rubber body (Sinew Soft Body): springs back quickly, 1 kg. As cloth: a tearable 1 mm rubber sheet, 1.2 kg per square metre.";
                    m = SinewMaterialSettings.FromPreset(SinewMaterialPreset.SINEW_MATERIAL_RUBBER_SHEET);
                    density = m.density;
                    preset.softMass = 1f;
                    preset.softShapeStiffness = 0.8f;
                    preset.softEdgeCompliance = 1e-5f;
                    preset.softVolumeCompliance = 0f;
                    tear = 1.5f;
                    break;
                default:
                    return false;
            }
            preset.description = about;
            preset.arealDensity = density;
            preset.physicsMaterial = m;
            preset.dynamics = d;
            preset.tearThreshold = tear;
            preset.useTethers = name != "Hair" && name != "Jelly";
            preset.tetherScale = name == "Silk" ? 1.05f : 1f;
            return true;
        }

        static void Fabric(SinewMaterialSettings m, float stretch, float shear, float bend, float thickness, float damping,
            float staticFriction, float kineticFriction)
        {
            m.stretchCompliance = stretch;
            m.shearCompliance = shear;
            m.bendCompliance = bend;
            m.thickness = thickness;
            m.damping = damping;
            m.staticFriction = staticFriction;
            m.kineticFriction = kineticFriction;
        }

        static void Air(SinewDynamicsSettings d, float drag, float lift)
        {
            d.drag = drag;
            d.lift = lift;
        }

        internal static SinewMaterialSettings Copy(SinewMaterialSettings s)
        {
            var c = new SinewMaterialSettings();
            if (s == null)
            {
                return c;
            }
            c.particleMass = s.particleMass;
            c.damping = s.damping;
            c.gravityScale = s.gravityScale;
            c.stretchCompliance = s.stretchCompliance;
            c.shearCompliance = s.shearCompliance;
            c.bendCompliance = s.bendCompliance;
            c.thickness = s.thickness;
            c.staticFriction = s.staticFriction;
            c.kineticFriction = s.kineticFriction;
            c.collisionMask = s.collisionMask;
            c.selfCollision = s.selfCollision;
            c.density = s.density;
            c.bendStiffness = s.bendStiffness;
            c.stretchStiffness = s.stretchStiffness;
            c.shearStiffness = s.shearStiffness;
            c.youngsModulus = s.youngsModulus;
            c.poissonRatio = s.poissonRatio;
            return c;
        }

        internal static SinewDynamicsSettings Copy(SinewDynamicsSettings s)
        {
            var c = new SinewDynamicsSettings();
            if (s == null)
            {
                return c;
            }
            c.worldVelocityScale = s.worldVelocityScale;
            c.worldAccelerationScale = s.worldAccelerationScale;
            c.maxSpeed = s.maxSpeed;
            c.teleportDistance = s.teleportDistance;
            c.poseStiffness = s.poseStiffness;
            c.windScale = s.windScale;
            c.drag = s.drag;
            c.lift = s.lift;
            c.sleepThreshold = s.sleepThreshold;
            c.sleepTime = s.sleepTime;
            return c;
        }
    }
}
