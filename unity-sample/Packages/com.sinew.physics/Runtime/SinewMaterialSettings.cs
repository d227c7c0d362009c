// Hand-written. The particle material of a SinewCloth, SinewRope or SinewHair, as inspector fields in
// the units of docs/design.md ("Units"). The initial values are the library's defaults
// (sinew_material_default); scripts/test-unity.sh checks that they still agree.
// Why a hand-written mirror of the native struct (ToNative) and not csbindgen's struct itself:
// an inspector needs camelCase serialized fields with [Tooltip]/[Min]/[Range] and Unity types
// (LayerMask, bool), which the generated blittable struct cannot carry. The mirror is checked:
// scripts/test-unity.sh compares ToNative() of the defaults with sinew_*_default, field by field.
using System;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// Inspector settings that become a <see cref="SinewMaterial"/>. Stiffness is a compliance
    /// (m/N, the inverse of a spring constant), so it means the same at any frame rate,
    /// substep count or iteration count.
    /// </summary>
    [Serializable]
    public sealed class SinewMaterialSettings
    {
        [Tooltip("Mass of each particle (kg). With compliance in m/N, heavier cloth sags more under the same stiffness.")]
        [Min(1e-6f)]
        public float particleMass = 0.01f;

        [Tooltip("Velocity damping rate (1/s): about this fraction of the velocity is removed per second. 0 = no damping beyond the solver's own.")]
        [Min(0f)]
        public float damping = 0.3f;

        [Tooltip("Multiplies the world's gravity for this body: 1 = normal, 0 = weightless.")]
        public float gravityScale = 1f;

        [Tooltip("Compliance of stretch (structural) constraints (m/N); 0 = inextensible. Unlike Unity Cloth's stretchingStiffness (0–1) it does not change with the solver frequency.")]
        [Min(0f)]
        public float stretchCompliance = 0f;

        [Tooltip("Compliance of shear (diagonal) constraints (m/N); 0 = rigid.")]
        [Min(0f)]
        public float shearCompliance = 0f;

        [Tooltip("Compliance of bend constraints (m/N): larger folds more easily; 0 = as stiff as the solver makes it.")]
        [Min(0f)]
        public float bendCompliance = 0.001f;

        [Tooltip("Mass from density when above 0 (kg/m² for cloth, kg/m for ropes and hair): the body weighs the same at any mesh resolution, and Particle Mass only weighs vertices no triangle or link uses. Soft bodies take their Mass instead. 0 = every particle weighs Particle Mass. See docs/materials.md.")]
        [Min(0f)]
        public float density = 0f;

        [Tooltip("Bending stiffness (N·m) by the angle between adjacent triangles, the same at any resolution; above 0 it replaces the Bend Compliance of cloth. Silk 2e-6, cotton 1e-5, denim 1e-4, leather 1e-3. 0 = Bend Compliance.")]
        [Min(0f)]
        public float bendStiffness = 0f;

        [Tooltip("Membrane stretch stiffness (N/m) along the threads, e.g. cotton 2e4. Stored and sent; the library does not use it yet (docs/materials.md): Stretch and Shear Compliance hold the cloth.")]
        [Min(0f)]
        public float stretchStiffness = 0f;

        [Tooltip("Membrane shear stiffness (N/m) between the threads, e.g. cotton 56. Stored and sent; the library does not use it yet (docs/materials.md).")]
        [Min(0f)]
        public float shearStiffness = 0f;

        [Tooltip("Young's modulus (Pa) of a soft body as a Neo-Hookean solid, e.g. jelly 5e3, rubber 1e6. Stored and sent; the library does not use it yet (docs/materials.md).")]
        [Min(0f)]
        public float youngsModulus = 0f;

        [Tooltip("Poisson's ratio of the Neo-Hookean solid, 0–0.49 (0.49 keeps the volume). Stored and sent; the library does not use it yet.")]
        [Range(0f, 0.49f)]
        public float poissonRatio = 0.3f;

        [Tooltip("Particle radius for collisions (m): how far particles keep from colliders, and from each other (2 × thickness) with self-collision.")]
        [Min(0f)]
        public float thickness = 0.01f;

        [Tooltip("Static friction against colliders (dimensionless): a particle sticks while its sliding is below this × the push-out distance.")]
        [Min(0f)]
        public float staticFriction = 0.5f;

        [Tooltip("Kinetic friction against colliders while sliding (dimensionless).")]
        [Min(0f)]
        public float kineticFriction = 0.4f;

        [Tooltip("Which SinewCollider layers this body meets: a collider whose Layers share a bit with this mask pushes the body out. Uses Unity's layer names as bit names.")]
        public LayerMask collisionMask = ~0;

        [Tooltip("Keep the body's own particles 2 × thickness apart (cloth folding onto itself). Costs extra time each substep.")]
        public bool selfCollision = false;

        /// <summary>The library's defaults for hair (the material of <c>sinew_strands_desc_default</c>):
        /// light, thin particles with rigid bending and stronger damping.</summary>
        public static SinewMaterialSettings Strands()
        {
            var m = new SinewMaterialSettings();
            m.particleMass = 0.001f;
            m.damping = 1f;
            m.bendCompliance = 0f;
            m.thickness = 0.005f;
            return m;
        }

        /// <summary>These settings as the native material.</summary>
        public SinewMaterial ToNative()
        {
            SinewMaterial m = default(SinewMaterial);
            m.particle_mass = particleMass;
            m.damping = damping;
            m.gravity_scale = gravityScale;
            m.stretch_compliance = stretchCompliance;
            m.shear_compliance = shearCompliance;
            m.bend_compliance = bendCompliance;
            m.thickness = thickness;
            m.static_friction = staticFriction;
            m.kinetic_friction = kineticFriction;
            m.collision_mask = unchecked((uint)collisionMask.value);
            m.self_collision = selfCollision ? 1u : 0u;
            m.density = density;
            m.bend_stiffness = bendStiffness;
            m.stretch_stiffness = stretchStiffness;
            m.shear_stiffness = shearStiffness;
            m.youngs_modulus = youngsModulus;
            m.poisson_ratio = poissonRatio;
            return m;
        }

        /// <summary>The native material <paramref name="m"/> as inspector settings (every field).</summary>
        public static SinewMaterialSettings FromNative(SinewMaterial m)
        {
            var s = new SinewMaterialSettings();
            s.particleMass = m.particle_mass;
            s.damping = m.damping;
            s.gravityScale = m.gravity_scale;
            s.stretchCompliance = m.stretch_compliance;
            s.shearCompliance = m.shear_compliance;
            s.bendCompliance = m.bend_compliance;
            s.thickness = m.thickness;
            s.staticFriction = m.static_friction;
            s.kineticFriction = m.kinetic_friction;
            s.collisionMask = unchecked((int)m.collision_mask);
            s.selfCollision = m.self_collision != 0;
            s.density = m.density;
            s.bendStiffness = m.bend_stiffness;
            s.stretchStiffness = m.stretch_stiffness;
            s.shearStiffness = m.shear_stiffness;
            s.youngsModulus = m.youngs_modulus;
            s.poissonRatio = m.poisson_ratio;
            return s;
        }

        /// <summary>The library's material preset <paramref name="preset"/> (<c>sinew_material_preset</c>,
        /// the one table C, C++ and C# read; values and sources in docs/materials.md) as inspector
        /// settings. Needs the native library.</summary>
        public static SinewMaterialSettings FromPreset(SinewMaterialPreset preset)
        {
            return FromNative(SinewMaterial.Preset(preset));
        }
    }
}
