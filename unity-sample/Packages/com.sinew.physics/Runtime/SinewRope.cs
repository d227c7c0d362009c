// Hand-written. A rope between two Transforms (or hanging from one), drawn with a LineRenderer.
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// A rope of <see cref="segments"/> equal segments (<c>sinew_rope_create</c>), laid straight from
    /// <see cref="start"/> to <see cref="end"/> (or hanging <see cref="length"/> metres below the
    /// start), with its ends pinned to those Transforms and following them every frame. The
    /// simulated points are written into this GameObject's <c>LineRenderer</c> in world space.
    /// </summary>
    [DisallowMultipleComponent]
    [RequireComponent(typeof(LineRenderer))]
    [AddComponentMenu("Sinew/Sinew Rope")]
    public sealed class SinewRope : SinewBodyBehaviour
    {
        [Header("Shape (read when the rope is created)")]
        [Tooltip("Where the rope starts. Empty: this GameObject.")]
        public Transform start;

        [Tooltip("Where the rope ends. Empty: the rope hangs Length metres straight down from the start, with a free end.")]
        public Transform end;

        [Tooltip("Rope length (m) when there is no End; with an End the rope is as long as the distance between the two.")]
        [Min(0.001f)]
        public float length = 1f;

        [Tooltip("Number of segments; the rope has one more particle than segments. Shorter segments bend more smoothly and cost more.")]
        [Range(1, 1000)]
        public int segments = 20;

        [Tooltip("Pin the first particle to Start, following it every frame.")]
        public bool pinStart = true;

        [Tooltip("Pin the last particle to End (when there is one), following it every frame.")]
        public bool pinEnd = true;

        [Tooltip("Also join each particle to the one two over (with the material's bend compliance), so the rope resists folding.")]
        public bool bend = true;

        [Header("Rendering")]
        [Tooltip("Width of the drawn line (m).")]
        [Min(0f)]
        public float width = 0.02f;

        LineRenderer line;
        Vector3[] points;
        int[] pinIndices;
        Vector3[] pinTargets;
        Transform[] pinTransforms;

        Transform StartTransform
        {
            get { return start != null ? start : transform; }
        }

        internal override Body CreateBody(World native)
        {
            int n = Mathf.Max(1, segments) + 1;
            points = new Vector3[n];
            Vector3 a = StartTransform.position;
            Vector3 b = end != null ? end.position : a + Vector3.down * length;
            for (int i = 0; i < n; i++)
            {
                points[i] = Vector3.Lerp(a, b, i / (float)(n - 1));
            }

            bool pinLast = pinEnd && end != null;
            int pinCount = (pinStart ? 1 : 0) + (pinLast ? 1 : 0);
            pinIndices = new int[pinCount];
            pinTargets = new Vector3[pinCount];
            pinTransforms = new Transform[pinCount];
            int k = 0;
            if (pinStart)
            {
                pinIndices[k] = 0;
                pinTransforms[k++] = StartTransform;
            }
            if (pinLast)
            {
                pinIndices[k] = n - 1;
                pinTransforms[k] = end;
            }

            SinewRopeDesc desc = SinewRopeDesc.Default;
            desc.bend = bend ? 1u : 0u;
            desc.material = physicsMaterial.ToNative();
            Rope rope = Rope.Create(native, points, pinIndices, desc);

            line = GetComponent<LineRenderer>();
            line.useWorldSpace = true;
            line.positionCount = n;
            line.startWidth = width;
            line.endWidth = width;
            line.SetPositions(points);
            DrawnBy(1, true);
            return rope;
        }

        internal override void PrepareStep(float dt)
        {
            if (pinIndices.Length == 0)
            {
                return;
            }
            for (int k = 0; k < pinTransforms.Length; k++)
            {
                pinTargets[k] = pinTransforms[k].position;
            }
            Body.SetPinTargets(pinIndices, pinTargets);
        }

        internal override void AfterStep()
        {
            Body.ReadPositions(points);
            line.SetPositions(points);
        }

        internal override void ReleaseResources()
        {
            line = null;
        }
    }
}
