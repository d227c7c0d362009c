// Hand-written. Hair strands pinned to a head bone, drawn with one LineRenderer per strand.
using System;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// Hair (<c>sinew_strands_create</c>): straight strands of <see cref="particlesPerStrand"/>
    /// particles, either one from each Transform in <see cref="roots"/> along its forward (blue)
    /// axis, or <see cref="strandCount"/> generated over a cap of the head, pointing outwards. The
    /// first two particles of every strand are pinned to the <see cref="head"/> bone and follow it
    /// every frame; the rest swing, with <c>dynamics.poseStiffness</c> holding a styled shape.
    /// </summary>
    /// <remarks>
    /// Each strand is drawn by a LineRenderer on a hidden child object ("Sinew Hair Strand"),
    /// tapering from <see cref="rootWidth"/> to <see cref="tipWidth"/>. For many strands a custom
    /// mesh renderer reading <c>Body.ReadPositions</c> is cheaper; this is the simple way.
    /// No per-frame managed allocation.
    /// </remarks>
    [DisallowMultipleComponent]
    [AddComponentMenu("Sinew/Sinew Hair")]
    public sealed class SinewHair : SinewBodyBehaviour
    {
        /// <summary>Where the strands start.</summary>
        public enum RootSource
        {
            /// <summary>One strand per Transform in <see cref="roots"/>, along its forward axis.</summary>
            Transforms = 0,

            /// <summary><see cref="strandCount"/> strands spread over a cap of the head.</summary>
            Generator = 1,
        }

        [Header("Strands (read when the hair is created)")]
        [Tooltip("The head bone the strands are pinned to (their first two particles follow it). Empty: this Transform.")]
        public Transform head;

        [Tooltip("Transforms: one strand from each Transform in Roots, along its forward (blue) axis. Generator: Strand Count strands spread over a cap of the head, pointing outwards.")]
        public RootSource rootSource = RootSource.Generator;

        [Tooltip("Strand roots for Root Source = Transforms: each strand starts at the Transform's position and grows along its forward (blue) axis. Place them under the head bone.")]
        public Transform[] roots = new Transform[0];

        [Tooltip("Number of strands for Root Source = Generator.")]
        [Range(1, 2000)]
        public int strandCount = 32;

        [Tooltip("Centre of the generated scalp in the head's local space (m, scaled with the head).")]
        public Vector3 scalpCenter = new Vector3(0f, 0.05f, 0f);

        [Tooltip("Radius of the generated scalp (m, in the head's local space): roots sit on this sphere around Scalp Center.")]
        [Min(0.001f)]
        public float scalpRadius = 0.1f;

        [Tooltip("Half-angle (degrees) of the cap the generated roots cover, around the head's local up axis: 90 = the upper half of the head, 180 = all of it.")]
        [Range(1f, 180f)]
        public float coverage = 100f;

        [Tooltip("Particles per strand (3–256); the first two are pinned to the head.")]
        [Range(3, 256)]
        public int particlesPerStrand = 8;

        [Tooltip("Distance between neighbouring particles of a strand (m): a strand is (Particles Per Strand − 1) × this long.")]
        [Min(0.001f)]
        public float segmentLength = 0.02f;

        [Header("Rendering")]
        [Tooltip("Material of the strand lines (any material a LineRenderer can use). Empty: the lines have no material, which most render pipelines draw magenta; a warning is logged.")]
        public Material material;

        [Tooltip("Line width at the root (m).")]
        [Min(0f)]
        public float rootWidth = 0.004f;

        [Tooltip("Line width at the tip (m).")]
        [Min(0f)]
        public float tipWidth = 0.001f;

        Transform headTransform;
        Vector3[] points;
        Vector3[][] strandPoints;
        LineRenderer[] lines;
        SinewVisibilityRelay[] relays;

        /// <summary>For Unity: hair starts from the library's strand material (light, thin, stiff bending).</summary>
        public SinewHair()
            : base(SinewMaterialSettings.Strands())
        {
        }

        /// <summary>Strands of the hair body (0 while disabled).</summary>
        public int StrandCount
        {
            get { return lines != null ? lines.Length : 0; }
        }

        Transform Head
        {
            get { return head != null ? head : transform; }
        }

        /// <summary>Hair's root defaults to its head: a head that jumps carries the hair along.</summary>
        protected override Transform DefaultRoot
        {
            get { return Head; }
        }

        /// <summary>
        /// Roots and directions (world space) of <paramref name="count"/> strands spread evenly (a
        /// Fibonacci spiral) over a cap of half-angle <paramref name="coverageDegrees"/> around the
        /// local +Y axis of a sphere (<paramref name="center"/>, <paramref name="radius"/>) in
        /// <paramref name="headToWorld"/>'s space, pointing outwards.
        /// </summary>
        public static void GenerateScalp(Matrix4x4 headToWorld, Vector3 center, float radius, float coverageDegrees, int count,
            Vector3[] rootsOut, Vector3[] directionsOut)
        {
            if (rootsOut == null || directionsOut == null || rootsOut.Length < count || directionsOut.Length < count)
            {
                throw new ArgumentException("the output arrays hold fewer than " + count + " elements");
            }
            float lowest = Mathf.Cos(Mathf.Clamp(coverageDegrees, 0f, 180f) * Mathf.Deg2Rad);
            const float golden = 2.39996323f; // π (3 − √5), the golden angle
            for (int i = 0; i < count; i++)
            {
                float y = 1f - (1f - lowest) * (i + 0.5f) / count;
                float r = Mathf.Sqrt(Mathf.Max(0f, 1f - y * y));
                float phi = i * golden;
                var d = new Vector3(r * Mathf.Cos(phi), y, r * Mathf.Sin(phi));
                rootsOut[i] = headToWorld.MultiplyPoint3x4(center + d * radius);
                directionsOut[i] = headToWorld.MultiplyVector(d);
            }
        }

        internal override Body CreateBody(World native)
        {
            headTransform = Head;
            Vector3[] rootPositions;
            Vector3[] directions;
            if (rootSource == RootSource.Transforms)
            {
                if (roots == null || roots.Length == 0)
                {
                    throw new InvalidOperationException("Root Source is Transforms but Roots is empty");
                }
                rootPositions = new Vector3[roots.Length];
                directions = new Vector3[roots.Length];
                for (int s = 0; s < roots.Length; s++)
                {
                    if (roots[s] == null)
                    {
                        throw new InvalidOperationException("Roots element " + s + " is empty");
                    }
                    rootPositions[s] = roots[s].position;
                    directions[s] = roots[s].forward;
                }
            }
            else
            {
                int count = Mathf.Max(1, strandCount);
                rootPositions = new Vector3[count];
                directions = new Vector3[count];
                GenerateScalp(headTransform.localToWorldMatrix, scalpCenter, scalpRadius, coverage, count, rootPositions, directions);
            }

            int per = Mathf.Clamp(particlesPerStrand, 3, 256);
            SinewStrandsDesc desc = SinewStrandsDesc.Default;
            desc.particles_per_strand = (uint)per;
            desc.segment_length = segmentLength;
            desc.head = SinewMat4.From(headTransform.localToWorldMatrix);
            desc.material = physicsMaterial.ToNative();
            Strands hair = Strands.Create(native, rootPositions, directions, desc);

            int strands = rootPositions.Length;
            points = new Vector3[strands * per];
            strandPoints = new Vector3[strands][];
            lines = new LineRenderer[strands];
            relays = new SinewVisibilityRelay[strands];
            hair.ReadPositions(points);
            for (int s = 0; s < strands; s++)
            {
                strandPoints[s] = new Vector3[per];
                var child = new GameObject("Sinew Hair Strand");
                child.hideFlags = HideFlags.DontSave;
                child.layer = gameObject.layer;
                child.transform.SetParent(transform, false);
                LineRenderer line = child.AddComponent<LineRenderer>();
                line.useWorldSpace = true;
                line.positionCount = per;
                line.startWidth = rootWidth;
                line.endWidth = tipWidth;
                line.sharedMaterial = material;
                lines[s] = line;
                relays[s] = child.AddComponent<SinewVisibilityRelay>();
                relays[s].Attach(this);
            }
            if (material == null)
            {
                Debug.LogWarning("Sinew: " + name + ": Sinew Hair has no Material; its strand lines are drawn without one.", this);
            }
            DrawnBy(strands, false);
            WriteLines();
            return hair;
        }

        internal override void PrepareStep(float dt)
        {
            ((Strands)Body).SetHeadTransform(headTransform.localToWorldMatrix);
        }

        internal override void AfterStep()
        {
            Body.ReadPositions(points);
            WriteLines();
        }

        void WriteLines()
        {
            int per = strandPoints.Length > 0 ? strandPoints[0].Length : 0;
            for (int s = 0; s < lines.Length; s++)
            {
                Array.Copy(points, s * per, strandPoints[s], 0, per);
                lines[s].SetPositions(strandPoints[s]);
            }
        }

        internal override void ReleaseResources()
        {
            if (lines != null)
            {
                for (int s = 0; s < lines.Length; s++)
                {
                    if (relays[s] != null)
                    {
                        relays[s].Attach(null);
                    }
                    if (lines[s] != null)
                    {
                        Destroy(lines[s].gameObject);
                    }
                }
            }
            lines = null;
            relays = null;
            points = null;
            strandPoints = null;
            headTransform = null;
        }
    }
}
