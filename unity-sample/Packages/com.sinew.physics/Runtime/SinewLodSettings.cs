// Hand-written. Level of detail of a body, as inspector fields. The initial values are the
// library's defaults (sinew_lod_default); scripts/test-unity.sh checks that they still agree.
// Why a hand-written mirror of the native struct (ToNative) and not csbindgen's struct itself:
// an inspector needs camelCase serialized fields with [Tooltip]/[Min]/[Range] and Unity types
// (LayerMask, bool), which the generated blittable struct cannot carry. The mirror is checked:
// scripts/test-unity.sh compares ToNative() of the defaults with sinew_*_default, field by field.
using System;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// Inspector settings that become a <see cref="SinewLod"/>: fewer substeps beyond one camera
    /// distance, frozen beyond another or while no camera sees the body. Distances are measured
    /// from the camera <see cref="SinewWorldBehaviour"/> reports (<c>Camera.main</c> unless set).
    /// A frozen body keeps its pose and resumes without a jump.
    /// </summary>
    [Serializable]
    public sealed class SinewLodSettings
    {
        [Tooltip("Beyond this distance from the camera (m) the body runs Reduced Substeps instead of the world's substeps. 0 = never.")]
        [Min(0f)]
        public float reduceDistance = 0f;

        [Tooltip("Substeps per fixed step beyond Reduce Distance (1–64). Fewer substeps stretch more but cost less.")]
        [Range(1, 64)]
        public int reducedSubsteps = 2;

        [Tooltip("Beyond this distance from the camera (m) the body is frozen: not simulated, pose kept. 0 = never.")]
        [Min(0f)]
        public float freezeDistance = 0f;

        [Tooltip("Freeze the body while none of its renderers is visible to any camera (Unity's OnBecameInvisible; in the editor the Scene view counts as a camera).")]
        public bool freezeWhenInvisible = true;

        /// <summary>These settings as the native LOD.</summary>
        public SinewLod ToNative()
        {
            SinewLod l = default(SinewLod);
            l.reduce_distance = reduceDistance;
            l.reduced_substeps = (uint)Mathf.Clamp(reducedSubsteps, 1, 64);
            l.freeze_distance = freezeDistance;
            l.freeze_when_invisible = freezeWhenInvisible ? 1u : 0u;
            return l;
        }
    }
}
