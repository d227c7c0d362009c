// Hand-written. How a body responds to its character's motion and to the wind, as inspector
// fields in the units of docs/design.md ("Units"). The initial values are the library's defaults
// (sinew_dynamics_default); scripts/test-unity.sh checks them.
// Why a hand-written mirror of the native struct (ToNative) and not csbindgen's struct itself:
// an inspector needs camelCase serialized fields with [Tooltip]/[Min]/[Range] and Unity types
// (LayerMask, bool), which the generated blittable struct cannot carry. The mirror is checked:
// scripts/test-unity.sh compares ToNative() of the defaults with sinew_*_default, field by field.
using System;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// Inspector settings that become a <see cref="SinewDynamics"/>: inertia relative to the
    /// character's root (Unity Cloth's <c>worldVelocityScale</c> / <c>worldAccelerationScale</c>),
    /// a speed limit, the automatic teleport, pose stiffness, and the response to the world's wind.
    /// </summary>
    [Serializable]
    public sealed class SinewDynamicsSettings
    {
        [Tooltip("Share of the root's motion the particles feel as motion through the air, 0–1 (Unity Cloth's worldVelocityScale): 1 = the cloth is left behind as the character moves (full inertia), 0 = it is carried rigidly with the root. Needs a Root.")]
        [Range(0f, 1f)]
        public float worldVelocityScale = 1f;

        [Tooltip("Share of the root's change of velocity (starting, stopping, turning) the particles feel, 0–1 (Unity Cloth's worldAccelerationScale). Needs a Root.")]
        [Range(0f, 1f)]
        public float worldAccelerationScale = 1f;

        [Tooltip("Largest particle speed relative to the root (m/s); stops a fast turn from whipping the cloth out. 0 = no limit.")]
        [Min(0f)]
        public float maxSpeed = 0f;

        [Tooltip("When the root, the pin targets or the skinned pose jump farther than this in one frame (m), the body is carried along rigidly (a teleport) instead of being dragged and stretched. 0 = never. Default 2 m (the library's too): more than a sprint or a swung limb covers in one simulated frame.")]
        [Min(0f)]
        public float teleportDistance = 2f;

        [Tooltip("Pull of free particles towards their skinned (animated) pose (1/s): 0 = none; about 20 holds a styled shape such as a ponytail against gravity. Needs skinning (skinned cloth, hair).")]
        [Min(0f)]
        public float poseStiffness = 0f;

        [Tooltip("Multiplies the world's wind for this body (×): 0 = the body ignores the wind.")]
        [Min(0f)]
        public float windScale = 1f;

        [Tooltip("Aerodynamic drag coefficient (dimensionless, per triangle): how strongly the relative wind pushes the cloth along its flow. A flat plate across the flow is about 1.")]
        [Min(0f)]
        public float drag = 1f;

        [Tooltip("Aerodynamic lift coefficient (dimensionless, per triangle): the push across the flow on cloth at an angle to it, which makes flags flutter.")]
        [Min(0f)]
        public float lift = 0.3f;

        [Tooltip("A body whose particles all stay slower than this (m/s) for Sleep Time falls asleep: it is not stepped (costs nothing) until something that concerns it changes (its pins, bones or root move, a collider near it moves, wind, gravity, a setting). Unity Cloth's sleepThreshold. 0 = never sleep.")]
        [Min(0f)]
        public float sleepThreshold = 0.005f;

        [Tooltip("How long (s of simulated time) a body must stay below Sleep Threshold before it sleeps. 0 = never sleep.")]
        [Min(0f)]
        public float sleepTime = 1f;

        /// <summary>These settings as the native dynamics; <paramref name="tearThreshold"/> (strain
        /// beyond 1 + this tears, 0 = never) is not an inspector field here.</summary>
        public SinewDynamics ToNative(float tearThreshold = 0f)
        {
            SinewDynamics d = default(SinewDynamics);
            d.world_velocity_scale = worldVelocityScale;
            d.world_acceleration_scale = worldAccelerationScale;
            d.max_speed = maxSpeed;
            d.teleport_distance = teleportDistance;
            d.pose_stiffness = poseStiffness;
            d.wind_scale = windScale;
            d.drag = drag;
            d.lift = lift;
            d.tear_threshold = tearThreshold;
            d.sleep_threshold = sleepThreshold;
            d.sleep_time = sleepTime;
            return d;
        }
    }
}
