// Hand-written. The world's wind, set from the inspector or from a Unity WindZone.
// Why a hand-written mirror of the native struct (ToNative) and not csbindgen's struct itself:
// an inspector needs camelCase serialized fields with [Tooltip]/[Min]/[Range] and Unity types
// (LayerMask, bool), which the generated blittable struct cannot carry. The mirror is checked:
// scripts/test-unity.sh compares ToNative() of the defaults with sinew_*_default, field by field.
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// Sets the Sinew world's wind (<c>sinew_world_set_wind</c>) every frame: a mean wind along this
    /// Transform's forward (blue) axis with turbulence and gusts, or the wind of a Unity
    /// <c>WindZone</c>. Cloth, ropes and hair feel it through their Dynamics (drag, lift, wind
    /// scale). Sinew's wind is one for the whole world, like a Directional WindZone; with several
    /// enabled Sinew Wind Zones the last one enabled blows. Disabling it calms the air.
    /// </summary>
    /// <remarks>
    /// Named SinewWindZone, not SinewWind, because <c>Sinew.SinewWind</c> is the native wind struct.
    /// </remarks>
    [DisallowMultipleComponent]
    [AddComponentMenu("Sinew/Sinew Wind Zone")]
    public sealed class SinewWindZone : MonoBehaviour
    {
        [Tooltip("The world whose wind this sets. Empty: the scene's SinewWorldBehaviour (one is created if the scene has none).")]
        public SinewWorldBehaviour world;

        [Tooltip("Take direction (its forward axis, sign of Main), speed (|Main| × Speed Per Wind Main), turbulence (Turbulence ÷ Main) and gust strength (Pulse Magnitude) from this Unity WindZone every frame, so trees and cloth share one wind. Empty: the fields below, blowing along this Transform's forward (blue) axis.")]
        public WindZone windZone;

        [Header("Wind")]
        [Tooltip("Mean wind speed (m/s) when there is no Wind Zone. 5 m/s is a gentle breeze, 10 m/s a strong one. (The library's default wind is calm, speed 0; a wind component starts at a breeze so that adding it shows something.)")]
        [Min(0f)]
        public float speed = 5f;

        [Tooltip("With a Wind Zone: wind speed (m/s) per unit of its Main. Unity documents Main as 'the wind speed' without a unit; 1 takes it as m/s.")]
        [Min(0f)]
        public float speedPerWindMain = 1f;

        [Header("Turbulence and gusts")]
        [Tooltip("Turbulent velocity as a fraction of the mean speed (0 = steady wind). With a Wind Zone: its Turbulence ÷ Main.")]
        [Min(0f)]
        public float turbulence = 0.3f;

        [Tooltip("Size of the turbulent eddies (m): small values make neighbouring parts of a cloth move differently.")]
        [Min(0.001f)]
        public float turbulenceScale = 1f;

        [Tooltip("How fast the turbulence changes (Hz).")]
        [Min(0f)]
        public float turbulenceFrequency = 0.5f;

        [Tooltip("Gust amplitude as a fraction of the mean speed. With a Wind Zone: its Pulse Magnitude (Unity: 'a multiplier of Main').")]
        [Min(0f)]
        public float gustStrength = 0.3f;

        [Tooltip("How often gusts come (Hz). Kept from this field with a Wind Zone too, because Unity gives its Pulse Frequency no unit.")]
        [Min(0f)]
        public float gustFrequency = 0.2f;

        [Tooltip("Air density (kg/m³): 1.2 at sea level. The aerodynamic force scales with it.")]
        [Min(0f)]
        public float airDensity = 1.2f;

        bool started;
        bool warnedSpherical;

        void Start()
        {
            started = true;
            Attach();
        }

        void OnEnable()
        {
            if (started)
            {
                Attach();
            }
        }

        void OnDisable()
        {
            if (world != null)
            {
                world.RemoveWind(this);
            }
        }

        void Attach()
        {
            if (world == null)
            {
                world = SinewWorldBehaviour.GetOrCreate();
            }
            world.SetWind(this);
        }

        /// <summary>This frame's wind as the native struct: from <see cref="windZone"/> when set,
        /// otherwise from the fields and this Transform's forward axis.</summary>
        public SinewWind ToNative()
        {
            SinewWind w = SinewWind.Default;
            Vector3 direction;
            float mean;
            w.turbulence = turbulence;
            w.gust_strength = gustStrength;
            if (windZone != null)
            {
                if (windZone.mode != WindZoneMode.Directional && !warnedSpherical)
                {
                    warnedSpherical = true;
                    Debug.LogWarning("Sinew: " + name + ": the Wind Zone is Spherical, but Sinew's wind fills the whole world; its radius is ignored.", this);
                }
                float main = windZone.windMain;
                direction = windZone.transform.forward * (main < 0f ? -1f : 1f);
                mean = Mathf.Abs(main) * speedPerWindMain;
                w.turbulence = main != 0f ? Mathf.Abs(windZone.windTurbulence / main) : 0f;
                w.gust_strength = Mathf.Max(0f, windZone.windPulseMagnitude);
            }
            else
            {
                direction = transform.forward;
                mean = speed;
            }
            w.direction = new SinewVec3(direction.x, direction.y, direction.z);
            w.speed = mean;
            w.turbulence_scale = turbulenceScale;
            w.turbulence_frequency = turbulenceFrequency;
            w.gust_frequency = gustFrequency;
            w.air_density = airDensity;
            return w;
        }

        void OnDrawGizmosSelected()
        {
            Gizmos.color = new Color(0.4f, 0.7f, 1f, 1f);
            Transform t = windZone != null ? windZone.transform : transform;
            Vector3 from = t.position;
            Gizmos.DrawLine(from, from + t.forward);
        }
    }
}
