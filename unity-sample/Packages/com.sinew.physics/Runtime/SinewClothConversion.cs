// Hand-written. How a UnityEngine.Cloth's settings become a SinewCloth's, on plain data, so that
// the mapping is tested field by field without the editor. The menu command that applies it to
// the selected objects is Editor/SinewClothConverter.cs; the table is in docs/unity.md.
using System;
using System.Collections.Generic;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>The settings of a <c>UnityEngine.Cloth</c>, copied out of the component.</summary>
    public struct UnityClothSettings
    {
        public float stretchingStiffness;
        public float bendingStiffness;
        public float damping;
        public bool useGravity;
        public float worldVelocityScale;
        public float worldAccelerationScale;
        public float friction;
        public float collisionMassScale;
        public bool useTethers;
        public float sleepThreshold;
        public float clothSolverFrequency;
        public float selfCollisionDistance;
        public float selfCollisionStiffness;
        public Vector3 externalAcceleration;
        public Vector3 randomAcceleration;
        public float useVirtualParticles;
        public bool enableContinuousCollision;
        public ClothSkinningCoefficient[] coefficients;

        /// <summary>Unity's defaults for a new Cloth component (as its inspector shows them).</summary>
        public static UnityClothSettings Default
        {
            get
            {
                UnityClothSettings s = default(UnityClothSettings);
                s.stretchingStiffness = 1f;
                s.bendingStiffness = 0f;
                s.damping = 0f;
                s.useGravity = true;
                s.worldVelocityScale = 0.5f;
                s.worldAccelerationScale = 1f;
                s.friction = 0.5f;
                s.collisionMassScale = 0f;
                s.useTethers = true;
                s.sleepThreshold = 0.1f;
                s.clothSolverFrequency = 120f;
                s.useVirtualParticles = 1f;
                s.coefficients = new ClothSkinningCoefficient[0];
                return s;
            }
        }
    }

    /// <summary>What the Sinew side is simulated with, which the conversion needs.</summary>
    public struct SinewConversionContext
    {
        /// <summary>The world's fixed rate (Hz) and substeps: the substep h = 1 / (rate × substeps).</summary>
        public float fixedRateHz;
        public int substeps;

        /// <summary>The world's gravity (m/s²).</summary>
        public Vector3 gravity;

        /// <summary>The particle mass (kg) the cloth will have.</summary>
        public float particleMass;

        /// <summary>The cloth's area (m²) and particle count, for its areal density (the wind equivalent).</summary>
        public float area;
        public int particleCount;

        /// <summary>Air density (kg/m³) and the cloth's drag coefficient, for the wind equivalent.</summary>
        public float airDensity;
        public float drag;

        /// <summary>When true, the material starts from the library's fabric preset <see cref="preset"/>
        /// (<see cref="SinewClothConversion.NearestFabric"/> picks one): its areal density (kg/m²) gives
        /// the particle mass over <see cref="area"/> and <see cref="particleCount"/>, and its bending
        /// stiffness (N·m) replaces the mapped bend compliance. Needs the native library.</summary>
        public bool usePreset;
        public SinewMaterialPreset preset;

        /// <summary>Substep length (s).</summary>
        public float Substep
        {
            get { return 1f / (fixedRateHz * Mathf.Max(1, substeps)); }
        }
    }

    /// <summary>The result of <see cref="SinewClothConversion.Map"/>: what to write into the new SinewCloth.</summary>
    public sealed class SinewClothMapping
    {
        public SinewMaterialSettings material = new SinewMaterialSettings();
        public SinewDynamicsSettings dynamics = new SinewDynamicsSettings();
        public bool useTethers;
        public SinewTetherMode tetherMode = SinewTetherMode.SINEW_TETHER_EUCLIDEAN;
        public float tetherScale = 1f;

        /// <summary>Per-vertex max distances (m; −1 = no limit), or null when no vertex is limited.</summary>
        public float[] maxDistances;

        /// <summary>Per-vertex backstop distances (m; −1 = none), or null when no vertex has one.</summary>
        public float[] backstops;

        /// <summary>The vertices with max distance 0: pinned to the skinned mesh.</summary>
        public int pinnedCount;

        /// <summary>A wind that pushes as the acceleration across gravity would (see docs/unity.md): speed 0 = none.</summary>
        public Vector3 windDirection;
        public float windSpeed;
        public float windTurbulence;

        /// <summary>What has no counterpart or only an approximate one, for the converter's report.</summary>
        public readonly List<string> notes = new List<string>();
    }

    /// <summary>The Unity Cloth → Sinew mapping (docs/unity.md, "Converting from Unity Cloth").</summary>
    public static class SinewClothConversion
    {
        /// <summary>Unity's "no limit" for a coefficient: float.MaxValue; anything this large counts.</summary>
        public const float Unlimited = 1e30f;

        /// <summary>The largest compliance (m/N) a stiffness of nearly 0 maps to.</summary>
        public const float MaxCompliance = 10f;

        /// <summary>
        /// The XPBD compliance whose constraint, in one iteration of a substep <paramref name="h"/>,
        /// removes the share <paramref name="stiffness"/> of its error, as a PBD stiffness does:
        /// Δλ = −C / (Σw + α/h²) moves the particles by Σw/(Σw + α/h²) of C, so
        /// α = h² Σw (1 − s) / s with Σw = 2 / m for two particles of mass m. s ≥ 1 → 0 (rigid).
        /// </summary>
        public static float ComplianceFromStiffness(float stiffness, float particleMass, float h)
        {
            float s = Mathf.Clamp01(stiffness);
            if (s >= 1f)
            {
                return 0f;
            }
            if (s <= 0f)
            {
                return MaxCompliance;
            }
            float sumW = 2f / particleMass;
            return Mathf.Min(MaxCompliance, h * h * sumW * (1f - s) / s);
        }

        /// <summary>The share of its error a constraint of <paramref name="compliance"/> removes per iteration (the inverse of the above).</summary>
        public static float StiffnessFromCompliance(float compliance, float particleMass, float h)
        {
            float sumW = 2f / particleMass;
            return sumW / (sumW + compliance / (h * h));
        }

        /// <summary>
        /// Sinew's damping rate c (1/s) for Unity's per-iteration damping d at the solver frequency f,
        /// for substeps of <paramref name="h"/> s: Unity keeps (1 − d)^f of the velocity per second;
        /// Sinew multiplies it by (1 − c h) each substep, so c = (1 − (1 − d)^(f h)) / h keeps the
        /// same share per second exactly (→ −f ln(1 − d) as h → 0).
        /// </summary>
        public static float DampingRate(float unityDamping, float solverFrequency, float h)
        {
            double d = Mathf.Clamp(unityDamping, 0f, 0.999f);
            double perSubstep = Math.Pow(1.0 - d, Math.Max(1f, solverFrequency) * h);
            return (float)((1.0 - perSubstep) / h);
        }

        /// <summary>
        /// The library's fabric preset nearest a Unity Cloth's <paramref name="bendingStiffness"/> (0–1):
        /// below 0.1 silk, below 0.4 cotton, below 0.7 denim, else leather. Unity's stiffness is a share
        /// of the error removed per solver iteration, not a physical quantity, so this is a starting
        /// point by feel (floppy to stiff), not a conversion; pick another preset if the look differs.
        /// </summary>
        public static SinewMaterialPreset NearestFabric(float bendingStiffness)
        {
            float b = Mathf.Clamp01(bendingStiffness);
            if (b < 0.1f)
            {
                return SinewMaterialPreset.SINEW_MATERIAL_SILK;
            }
            if (b < 0.4f)
            {
                return SinewMaterialPreset.SINEW_MATERIAL_COTTON;
            }
            if (b < 0.7f)
            {
                return SinewMaterialPreset.SINEW_MATERIAL_DENIM;
            }
            return SinewMaterialPreset.SINEW_MATERIAL_LEATHER;
        }

        /// <summary>Maps <paramref name="cloth"/> onto Sinew's settings (see the table in docs/unity.md).</summary>
        public static SinewClothMapping Map(UnityClothSettings cloth, SinewConversionContext context)
        {
            if (!(context.particleMass > 0f) || !(context.fixedRateHz > 0f))
            {
                throw new ArgumentException("the conversion needs a particle mass and a fixed rate above 0 (got " + context.particleMass + " kg, " + context.fixedRateHz + " Hz)");
            }
            var r = new SinewClothMapping();
            float h = context.Substep;
            if (context.usePreset)
            {
                r.material = SinewMaterialSettings.FromPreset(context.preset);
                if (r.material.density > 0f && context.area > 0f && context.particleCount > 0)
                {
                    context.particleMass = r.material.density * context.area / context.particleCount;
                }
                r.notes.Add("material from the preset " + context.preset + ": " + r.material.density + " kg/m², bending stiffness "
                    + r.material.bendStiffness + " N·m (replaces bendingStiffness " + cloth.bendingStiffness + ")");
            }
            SinewMaterialSettings m = r.material;
            m.particleMass = context.particleMass;
            m.stretchCompliance = ComplianceFromStiffness(cloth.stretchingStiffness, m.particleMass, h);
            // Unity Cloth has no separate shear stiffness: its stretch constraints cover both.
            m.shearCompliance = m.stretchCompliance;
            m.bendCompliance = ComplianceFromStiffness(cloth.bendingStiffness, m.particleMass, h);
            m.damping = DampingRate(cloth.damping, cloth.clothSolverFrequency, h);
            m.staticFriction = Mathf.Max(0f, cloth.friction);
            m.kineticFriction = 0.8f * m.staticFriction;
            if (cloth.selfCollisionDistance > 0f)
            {
                // Unity keeps particles selfCollisionDistance apart; Sinew keeps them 2 × thickness apart.
                m.selfCollision = true;
                m.thickness = 0.5f * cloth.selfCollisionDistance;
                if (cloth.selfCollisionStiffness < 1f)
                {
                    r.notes.Add("selfCollisionStiffness " + cloth.selfCollisionStiffness + ": Sinew's self-collision is always a hard contact");
                }
            }

            // External acceleration: its part along gravity is exact as a gravity scale; the rest
            // becomes a wind that pushes a cloth facing it as hard (approximate).
            Vector3 g = context.gravity;
            float g2 = g.sqrMagnitude;
            float along = g2 > 0f ? Vector3.Dot(cloth.externalAcceleration, g) / g2 : 0f;
            m.gravityScale = (cloth.useGravity ? 1f : 0f) + along;
            Vector3 across = cloth.externalAcceleration - g * along;
            float acrossLength = Mathf.Sqrt(across.sqrMagnitude);
            float randomLength = Mathf.Sqrt(cloth.randomAcceleration.sqrMagnitude);
            if (acrossLength > 1e-6f || randomLength > 1e-6f)
            {
                float sigma = context.area > 0f && context.particleCount > 0 ? m.particleMass * context.particleCount / context.area : 0.15f;
                float rho = context.airDensity > 0f ? context.airDensity : 1.2f;
                float cd = context.drag > 0f ? context.drag : 1f;
                float push = acrossLength > 1e-6f ? acrossLength : randomLength;
                // ½ ρ C_d v² = σ a  ⇒  v = √(2 σ a / (ρ C_d)).
                r.windSpeed = Mathf.Sqrt(2f * sigma * push / (rho * cd));
                r.windDirection = acrossLength > 1e-6f ? across * (1f / acrossLength) : Vector3.right;
                r.windTurbulence = acrossLength > 1e-6f ? randomLength / acrossLength : 1f;
                r.notes.Add("externalAcceleration across gravity / randomAcceleration became a wind of " + r.windSpeed.ToString("0.00")
                    + " m/s (turbulence " + r.windTurbulence.ToString("0.00") + "): Sinew's wind pushes by area and angle, and is the world's, not this cloth's");
            }

            SinewDynamicsSettings d = r.dynamics;
            d.worldVelocityScale = Mathf.Clamp01(cloth.worldVelocityScale);
            d.worldAccelerationScale = Mathf.Clamp01(cloth.worldAccelerationScale);
            if (cloth.worldVelocityScale > 1f || cloth.worldAccelerationScale > 1f)
            {
                r.notes.Add("world velocity / acceleration scales above 1 were clamped to 1");
            }
            d.sleepThreshold = Mathf.Max(0f, cloth.sleepThreshold);
            d.drag = context.drag > 0f ? context.drag : d.drag;

            r.useTethers = cloth.useTethers;
            r.tetherMode = SinewTetherMode.SINEW_TETHER_EUCLIDEAN;
            r.tetherScale = 1f;

            ClothSkinningCoefficient[] c = cloth.coefficients ?? new ClothSkinningCoefficient[0];
            bool anyLimit = false, anyBackstop = false;
            var limits = new float[c.Length];
            var backs = new float[c.Length];
            for (int i = 0; i < c.Length; i++)
            {
                float md = c[i].maxDistance;
                bool free = !(md >= 0f) || md >= Unlimited;
                limits[i] = free ? -1f : md;
                anyLimit |= !free;
                if (!free && md == 0f)
                {
                    r.pinnedCount++;
                }
                float bd = c[i].collisionSphereDistance;
                bool none = !(bd >= 0f) || bd >= Unlimited;
                backs[i] = none ? -1f : bd;
                anyBackstop |= !none;
            }
            r.maxDistances = anyLimit ? limits : null;
            r.backstops = anyBackstop ? backs : null;

            if (cloth.collisionMassScale > 0f)
            {
                r.notes.Add("collisionMassScale " + cloth.collisionMassScale + " has no counterpart (Sinew's contacts do not change particle masses)");
            }
            if (cloth.enableContinuousCollision)
            {
                r.notes.Add("enableContinuousCollision: Sinew's substeps do that job (raise the world's Substeps for fast colliders)");
            }
            if (cloth.useVirtualParticles > 0f)
            {
                r.notes.Add("useVirtualParticles: no counterpart (Sinew collides particles; thickness keeps triangles off colliders)");
            }
            return r;
        }

        /// <summary>A Unity CapsuleCollider (local centre, radius, height with the caps, direction 0/1/2)
        /// as a <see cref="SinewCollider"/> on the same Transform: half height = height/2 − radius.</summary>
        public static void MapCapsule(Vector3 center, float radius, float height, int direction, SinewCollider target)
        {
            target.shape = SinewCollider.Shape.Capsule;
            target.center = center;
            target.direction = direction == 0 ? SinewCollider.Axis.X : direction == 2 ? SinewCollider.Axis.Z : SinewCollider.Axis.Y;
            target.radius0 = radius;
            target.radius1 = radius;
            target.radius = radius;
            target.halfHeight = Mathf.Max(0f, 0.5f * height - radius);
        }

        /// <summary>
        /// A ClothSphereColliderPair with both spheres, given in one space (centres and radii): the
        /// tapered capsule between them, as its centre, its unit axis (from the first to the second),
        /// its half height and its two radii. False when the centres coincide (then: the larger sphere).
        /// </summary>
        public static bool MapSpherePair(Vector3 first, float firstRadius, Vector3 second, float secondRadius,
            out Vector3 center, out Vector3 axis, out float halfHeight)
        {
            Vector3 d = second - first;
            float length = Mathf.Sqrt(d.sqrMagnitude);
            center = (first + second) * 0.5f;
            if (length < 1e-6f)
            {
                axis = Vector3.up;
                halfHeight = 0f;
                return false;
            }
            axis = d * (1f / length);
            halfHeight = 0.5f * length;
            return true;
        }

        /// <summary>
        /// Unity Cloth's coefficients, one per <i>mesh</i> vertex. Unity welds coincident vertices,
        /// so its coefficients follow <c>Cloth.vertices</c> (<paramref name="clothVertices"/>), not the
        /// mesh: with as many of each they are taken in order; otherwise each mesh vertex takes the
        /// coefficient of the nearest cloth vertex (so the copies of a welded vertex share one).
        /// </summary>
        public static ClothSkinningCoefficient[] PerMeshVertex(ClothSkinningCoefficient[] coefficients, Vector3[] clothVertices, Vector3[] meshVertices)
        {
            if (coefficients == null || meshVertices == null)
            {
                throw new ArgumentNullException(coefficients == null ? "coefficients" : "meshVertices");
            }
            if (coefficients.Length == meshVertices.Length)
            {
                return (ClothSkinningCoefficient[])coefficients.Clone();
            }
            if (clothVertices == null || clothVertices.Length != coefficients.Length || coefficients.Length == 0)
            {
                throw new ArgumentException("Unity Cloth has " + coefficients.Length + " coefficients for " + (clothVertices == null ? 0 : clothVertices.Length)
                    + " cloth vertices and " + meshVertices.Length + " mesh vertices: they cannot be matched");
            }
            var result = new ClothSkinningCoefficient[meshVertices.Length];
            for (int v = 0; v < meshVertices.Length; v++)
            {
                int best = 0;
                float bestDistance = float.MaxValue;
                for (int i = 0; i < clothVertices.Length; i++)
                {
                    float d = (clothVertices[i] - meshVertices[v]).sqrMagnitude;
                    if (d < bestDistance)
                    {
                        bestDistance = d;
                        best = i;
                    }
                }
                result[v] = coefficients[best];
            }
            return result;
        }

        /// <summary>Writes <paramref name="mapping"/> into <paramref name="target"/> (a new SinewCloth).</summary>
        /// <exception cref="InvalidOperationException">The mapping's per-vertex values are not one per
        /// vertex of a mesh of <paramref name="vertexCount"/> (map the coefficients with <see cref="PerMeshVertex"/>).</exception>
        public static void Apply(SinewClothMapping mapping, SinewCloth target, int vertexCount)
        {
            if ((mapping.maxDistances != null && mapping.maxDistances.Length != vertexCount)
                || (mapping.backstops != null && mapping.backstops.Length != vertexCount))
            {
                throw new InvalidOperationException("the mapped max distances / backstops have "
                    + (mapping.maxDistances != null ? mapping.maxDistances.Length : mapping.backstops.Length) + " values for a mesh of " + vertexCount
                    + " vertices: map Unity's coefficients onto the mesh's vertices first (PerMeshVertex)");
            }
            target.physicsMaterial = SinewClothPreset.Copy(mapping.material);
            target.dynamics = SinewClothPreset.Copy(mapping.dynamics);
            target.useTethers = mapping.useTethers;
            target.tetherMode = mapping.tetherMode;
            target.tetherScale = mapping.tetherScale;
            if (mapping.maxDistances != null)
            {
                target.paint.maxDistance = (float[])mapping.maxDistances.Clone();
                target.maxDistanceSource = SinewCloth.MaxDistanceSource.Painted;
                // Unity pins what has max distance 0; so does the painted pin channel here.
                var pins = new float[vertexCount];
                for (int i = 0; i < vertexCount; i++)
                {
                    pins[i] = mapping.maxDistances[i] == 0f ? 1f : 0f;
                }
                target.paint.pin = pins;
                target.pinSource = SinewCloth.PinSource.Painted;
            }
            else
            {
                target.maxDistanceSource = SinewCloth.MaxDistanceSource.None;
                target.pinSource = SinewCloth.PinSource.None;
            }
            if (mapping.backstops != null)
            {
                target.paint.backstop = (float[])mapping.backstops.Clone();
                target.backstopPainted = true;
                target.useBackstop = true;
            }
        }
    }
}
