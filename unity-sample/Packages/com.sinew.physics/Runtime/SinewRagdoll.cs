// Hand-written. A character's bones as a Sinew ragdoll: animated, powered (muscles and pins
// towards the animation), limp, and getting up again (the chapter's sections 4 and 5).
using System;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// One bone of a <see cref="SinewRagdoll"/> built from a bone list instead of a humanoid
    /// Animator. The fields are those of Unity's Rigidbody, collider and CharacterJoint /
    /// HingeJoint on the same bone (docs/unity.md, "Ragdolls", maps them).
    /// </summary>
    [Serializable]
    public sealed class SinewRagdollBone
    {
        /// <summary>A bone's joint to its parent.</summary>
        public enum Joint
        {
            Free = 0,
            Fixed = 1,
            Hinge = 2,
            SwingTwist = 3,
        }

        /// <summary>A bone's shape.</summary>
        public enum Shape
        {
            Sphere = 1,
            Capsule = 2,
            Box = 4,
        }

        [Tooltip("The rig bone this ragdoll bone moves (its world pose now is the bind pose).")]
        public Transform bone;

        [Tooltip("Index of the parent in the bone list (-1: a root). Parents come before their children.")]
        public int parent = -1;

        [Tooltip("Mass (kg), as Rigidbody.mass.")]
        [Min(0.001f)]
        public float mass = 1f;

        [Tooltip("Shape: sphere, capsule (CapsuleCollider) or box (BoxCollider).")]
        public Shape shape = Shape.Capsule;

        [Tooltip("Shape centre in the bone's frame (m), as the collider's center.")]
        public Vector3 center = Vector3.zero;

        [Tooltip("Capsule axis in the bone's frame: 0 X, 1 Y, 2 Z, as CapsuleCollider.direction.")]
        [Range(0, 2)]
        public int direction = 1;

        [Tooltip("Sphere or capsule radius (m).")]
        [Min(0.001f)]
        public float radius = 0.05f;

        [Tooltip("Capsule height end to end (m), as CapsuleCollider.height (at least twice the radius).")]
        [Min(0f)]
        public float height = 0.3f;

        [Tooltip("Box size (m), as BoxCollider.size.")]
        public Vector3 size = new Vector3(0.2f, 0.2f, 0.2f);

        [Tooltip("Joint to the parent: Free (a root), Fixed, Hinge (HingeJoint) or SwingTwist (CharacterJoint).")]
        public Joint joint = Joint.SwingTwist;

        [Tooltip("Joint anchor in the bone's frame (m), as Joint.anchor.")]
        public Vector3 anchor = Vector3.zero;

        [Tooltip("Hinge or twist axis in the bone's frame, as Joint.axis.")]
        public Vector3 axis = new Vector3(1f, 0f, 0f);

        [Tooltip("Swing-1 axis in the bone's frame, as CharacterJoint.swingAxis.")]
        public Vector3 swingAxis = new Vector3(0f, 1f, 0f);

        [Tooltip("Hinge limits (degrees), as HingeJoint.limits.min / max.")]
        public float hingeMin = -90f;

        [Tooltip("Upper hinge limit (degrees).")]
        public float hingeMax = 90f;

        [Tooltip("Twist limits (degrees), as CharacterJoint.lowTwistLimit.limit / highTwistLimit.limit.")]
        public float lowTwist = -20f;

        [Tooltip("Upper twist limit (degrees).")]
        public float highTwist = 20f;

        [Tooltip("Swing cone half-angle about the swing axis (degrees), as CharacterJoint.swing1Limit.limit.")]
        [Range(0f, 177f)]
        public float swing1 = 30f;

        [Tooltip("Swing cone half-angle about the third axis (degrees), as CharacterJoint.swing2Limit.limit.")]
        [Range(0f, 177f)]
        public float swing2 = 30f;

        /// <summary>This bone as the library's descriptor (bind pose: the bone's world pose now).</summary>
        public SinewBoneDesc ToNative()
        {
            SinewBoneDesc d = SinewBoneDesc.Default;
            d.parent = parent;
            Vector3 p = bone.position;
            Quaternion q = bone.rotation;
            d.position = new SinewVec3(p.x, p.y, p.z);
            d.rotation = new SinewQuat(q.x, q.y, q.z, q.w);
            d.mass = mass;
            d.shape = (uint)shape;
            d.shape_offset = new SinewVec3(center.x, center.y, center.z);
            switch (shape)
            {
                case Shape.Sphere:
                    d.radius = radius;
                    break;
                case Shape.Capsule:
                    d.radius0 = radius;
                    d.radius1 = radius;
                    d.half_height = Mathf.Max(0f, 0.5f * height - radius);
                    // The library's capsule runs along the bone's Y; X and Z turn it there.
                    Quaternion turn = direction == 0 ? Quaternion.Euler(0f, 0f, 90f) : direction == 2 ? Quaternion.Euler(90f, 0f, 0f) : Quaternion.identity;
                    d.shape_rotation = new SinewQuat(turn.x, turn.y, turn.z, turn.w);
                    break;
                default:
                    d.half_extents = new SinewVec3(0.5f * size.x, 0.5f * size.y, 0.5f * size.z);
                    break;
            }
            SinewJointDesc j = SinewJointDesc.Default;
            j.kind = (uint)(parent < 0 ? Joint.Free : joint);
            j.anchor = new SinewVec3(anchor.x, anchor.y, anchor.z);
            j.axis = new SinewVec3(axis.x, axis.y, axis.z);
            j.swing_axis = new SinewVec3(swingAxis.x, swingAxis.y, swingAxis.z);
            j.hinge_min = hingeMin;
            j.hinge_max = hingeMax;
            j.low_twist = lowTwist;
            j.high_twist = highTwist;
            j.swing1 = swing1;
            j.swing2 = swing2;
            d.joint = j;
            return d;
        }
    }

    /// <summary>
    /// A character's bones as a Sinew ragdoll, in the same world as its cloth: from a humanoid
    /// <see cref="Animator"/> through the humanoid template (the 11 bodies of Unity's Ragdoll
    /// Wizard: pelvis, middle spine, head, both hips, knees, arms and elbows, with its masses and
    /// joint limits), or from a bone list (<see cref="boneList"/>, or <see cref="Build"/> from code).
    /// </summary>
    /// <remarks>
    /// <para>Four modes (<see cref="Mode"/>):</para>
    /// <list type="bullet">
    /// <item><b>Animated</b>: kinematic bones follow the Animator (every LateUpdate its bones
    /// become the targets), so they push cloth and carry the animation's velocity.</item>
    /// <item><b>Powered</b> (<see cref="powered"/>): dynamic bones that the muscles
    /// (<see cref="MuscleStrength"/>) turn towards the animated joint rotations and the pins
    /// (<see cref="PinWeight"/>) pull towards the animated world pose; hits
    /// (<see cref="Hit"/>) weaken them for a while, and a root pushed farther than
    /// <see cref="balanceDistance"/> from the animation loses its balance
    /// (<see cref="BalanceLost"/>; then limp, if <see cref="ragdollOnBalanceLoss"/>).</item>
    /// <item><b>Ragdoll</b> (<see cref="SetRagdoll"/>(true), <see cref="Die"/>): the Animator is off,
    /// every bone dynamic and limp.</item>
    /// <item><b>GettingUp</b> (<see cref="StartGetUp"/>): the chapter's section 5, done by
    /// Sinew: the snapshot of the lying pose, the get-up clip chosen from the side the body lies
    /// on and its root put where the body lies, then for <see cref="blendTime"/> s the blend
    /// from the snapshot to the clip's pose, written to the bones and sent as targets.</item>
    /// </list>
    /// <para>Whenever physics moves the bones (Powered, Ragdoll), each step's bone poses are
    /// written back to the rig's transforms after the step, parents first; the rig's other bones
    /// (chest, neck, feet, hands, fingers) follow their parents. The offset of each rig bone to
    /// its ragdoll bone is taken once, at creation, in the bind pose the rig is in then.</para>
    /// <para>No managed allocation per frame (changing a setting that the library reads at
    /// creation, such as <see cref="MuscleFrequency"/>, rebuilds the native ragdoll and does).</para>
    /// </remarks>
    [DisallowMultipleComponent]
    [AddComponentMenu("Sinew/Sinew Ragdoll")]
    public sealed class SinewRagdoll : MonoBehaviour
    {
        /// <summary>What moves the bones.</summary>
        public enum RagdollMode
        {
            Animated = 0,
            Powered = 1,
            Ragdoll = 2,
            GettingUp = 3,
        }

        [Tooltip("The world this ragdoll is in. Empty: the scene's SinewWorldBehaviour (one is created if the scene has none).")]
        public SinewWorldBehaviour world;

        [Tooltip("The Animator that animates the bones (and plays the get-up clips). Empty: the Animator on this GameObject. With no Bone List it must be humanoid.")]
        public Animator animator;

        [Tooltip("Bones of a custom ragdoll, parents first. Empty: the humanoid template from the Animator's humanoid bones.")]
        public SinewRagdollBone[] boneList = new SinewRagdollBone[0];

        [Tooltip("Total mass of the humanoid template (kg), shared out as the Ragdoll Wizard does. The wizard's default is 20.")]
        [Min(0.01f)]
        public float totalMass = 20f;

        [Tooltip("Even out mass ratios along the chains (child within Max Mass Ratio of its parent), as Jolt's Stabilize; on by default.")]
        public bool stabilize = true;

        [Tooltip("Largest mass ratio between a bone and its parent when Stabilize is on (1 to 10000).")]
        [Min(1f)]
        public float maxMassRatio = 5f;

        [Tooltip("Bones collide with each other (never with their parent or children).")]
        public bool selfCollision = true;

        [Tooltip("Coulomb friction of the bones' contacts (0 to 100).")]
        [Min(0f)]
        public float friction = 0.6f;

        [Tooltip("Bounce of the bones' contacts: 0 none, 1 elastic.")]
        [Range(0f, 1f)]
        public float restitution = 0f;

        [Tooltip("Fraction of linear velocity removed per second (0 to 1).")]
        [Range(0f, 1f)]
        public float linearDamping = 0.05f;

        [Tooltip("Fraction of angular velocity removed per second (0 to 1).")]
        [Range(0f, 1f)]
        public float angularDamping = 0.05f;

        [Tooltip("Sinew collider layers the bones meet (a collider is met when its Layers share a bit).")]
        public LayerMask colliderMask = -1;

        [Tooltip("The ragdoll sleeps once every bone has stayed slower than this (m/s) for Sleep Time.")]
        [Min(0f)]
        public float sleepThreshold = 0.02f;

        [Tooltip("Seconds below Sleep Threshold before the ragdoll sleeps.")]
        [Min(0f)]
        public float sleepTime = 0.5f;

        [Tooltip("Start as a ragdoll (physics, Animator off) instead of animated.")]
        [SerializeField]
        bool ragdolling;

        [Header("Powered ragdoll")]
        [Tooltip("Alive, the bones are dynamic and driven towards the animation by muscles and pins (a powered ragdoll) instead of kinematic.")]
        public bool powered;

        [Tooltip("Muscle strength of every bone while powered: 0 limp, 1 turning each joint to the animated rotation at Muscle Frequency.")]
        [Range(0f, 1f)]
        public float muscleStrength = 1f;

        [Tooltip("Pin weight of every bone while powered: 0 free, 1 pulled onto the animated world pose (within millimetres).")]
        [Range(0f, 1f)]
        public float pinWeight = 0f;

        [Tooltip("Natural frequency (Hz) of a muscle at strength 1, whatever the bones' inertias (0 to 1000).")]
        [Min(0f)]
        public float muscleFrequency = 4f;

        [Tooltip("Damping ratio of the muscles: 1 critical (0 to 1000).")]
        [Min(0f)]
        public float muscleDampingRatio = 1f;

        [Tooltip("Largest torque a muscle gives (N·m): a muscle weaker than its load gives way.")]
        [Min(0f)]
        public float muscleMaxTorque = 400f;

        [Tooltip("Natural frequency (Hz) of the pins at weight 1 (20 Hz: a bone hangs 0.6 mm under its pose).")]
        [Min(0f)]
        public float pinFrequency = 20f;

        [Tooltip("Damping ratio of the pins: 1 critical.")]
        [Min(0f)]
        public float pinDampingRatio = 1f;

        [Tooltip("Share of muscle strength and pin weight a full hit takes from the bone hit (0 to 1).")]
        [Range(0f, 1f)]
        public float hitStrengthLoss = 0.8f;

        [Tooltip("Share of a hit's loss each joint passes on to the neighbours (0 to 1).")]
        [Range(0f, 1f)]
        public float hitNeighbourFalloff = 0.5f;

        [Tooltip("Impulse (N·s) of a full hit; smaller ones take proportionally less.")]
        [Min(0f)]
        public float hitFullImpulse = 20f;

        [Tooltip("Seconds a hit's loss takes to recover (linearly).")]
        [Min(0f)]
        public float hitRecoveryTime = 1.5f;

        [Tooltip("A powered ragdoll whose root is farther than this (m) from its animated position loses its balance (0: never).")]
        [Min(0f)]
        public float balanceDistance = 0.4f;

        [Tooltip("On a balance loss, turn into a limp ragdoll (Animator off), ready to get up.")]
        public bool ragdollOnBalanceLoss = true;

        [Header("Getting up")]
        [Tooltip("Animator state played to get up from lying face down (the chapter's GetUpFront).")]
        public string getUpFrontClip = "GetUpFront";

        [Tooltip("Animator state played to get up from lying on the back.")]
        public string getUpBackClip = "GetUpBack";

        [Tooltip("Animator layer of the get-up states.")]
        [Min(0)]
        public int getUpLayer = 0;

        [Tooltip("Seconds of the blend from the lying pose to the get-up clip's pose.")]
        [Min(0f)]
        public float blendTime = 0.5f;

        [Tooltip("The at-rest clock runs while every bone is slower than this (m/s).")]
        [Min(0f)]
        public float restSpeed = 0.05f;

        [Tooltip("Seconds below Rest Speed before the ragdoll counts as at rest (IsAtRest, CameToRest).")]
        [Min(0f)]
        public float restSeconds = 1f;

        [Tooltip("A ragdoll (not one that was told to die) gets up by itself once at rest.")]
        public bool autoGetUp;

        [Tooltip("Bone standing for the pelvis in the get-up test (the humanoid template's: 0).")]
        [Min(0)]
        public int pelvisBone = (int)SinewHumanoidBone.SINEW_HUMANOID_PELVIS;

        [Tooltip("Bone standing for the chest (the humanoid template's middle spine: 5).")]
        [Min(0)]
        public int chestBone = (int)SinewHumanoidBone.SINEW_HUMANOID_MIDDLE_SPINE;

        [Tooltip("Bone standing for the head (the humanoid template's: 6).")]
        [Min(0)]
        public int headBone = (int)SinewHumanoidBone.SINEW_HUMANOID_HEAD;

        [Header("Moving platform")]
        [Tooltip("A moving platform the ragdoll rides in (a vehicle, an elevator, a ship's deck), sent every frame: its motion is felt only as much as Anchor Inertia says. Move the platform's Sinew Collider with it. Empty: none (world physics).")]
        public Transform anchor;

        [Tooltip("How much of the anchor's motion the ragdoll feels as world motion: 0 none (carried rigidly with the anchor, as if it stood still), 1 all (world physics).")]
        [Range(0f, 1f)]
        public float anchorInertia = 0f;

        bool anchored;

        [Header("Gizmos")]
        [Tooltip("Draw each joint's hinge arc or swing cone and twist range when selected, green free to red at the limit.")]
        public bool drawJointLimits = true;

        [Tooltip("Radius (m) of the drawn joint arcs and cones.")]
        [Min(0.01f)]
        public float gizmoSize = 0.12f;

        // The template's bones, in SinewHumanoidBone order, as the rig's HumanBodyBones.
        static readonly HumanBodyBones[] Slots =
        {
            HumanBodyBones.Hips,
            HumanBodyBones.LeftUpperLeg,
            HumanBodyBones.LeftLowerLeg,
            HumanBodyBones.RightUpperLeg,
            HumanBodyBones.RightLowerLeg,
            HumanBodyBones.Spine,
            HumanBodyBones.Head,
            HumanBodyBones.LeftUpperArm,
            HumanBodyBones.LeftLowerArm,
            HumanBodyBones.RightUpperArm,
            HumanBodyBones.RightLowerArm,
        };

        const int HumanoidBoneCount = 11;

        Ragdoll native;
        bool started;
        RagdollMode mode;
        int boneCount;
        Transform[] bones = new Transform[0];
        SinewBoneDesc[] descs = new SinewBoneDesc[0];
        Transform[] codeBones;
        SinewBoneDesc[] codeDescs;
        // Each ragdoll bone in its rig bone's frame (fixed at creation).
        Vector3[] offsetPositions = new Vector3[0];
        Quaternion[] offsetRotations = new Quaternion[0];
        // Per-frame buffers: targets out, poses back, the blend.
        Vector3[] positions = new Vector3[0];
        Quaternion[] rotations = new Quaternion[0];
        Vector3[] blendPositions = new Vector3[0];
        Quaternion[] blendRotations = new Quaternion[0];
        // The character root's pose at creation: its forward and up are the bind forward and up.
        Quaternion bindRootRotation = Quaternion.identity;
        Vector3 bindForward = Vector3.forward;
        Vector3 bindUp = Vector3.up;
        float getUpClock;
        bool lostBalance;
        bool atRest;
        bool dead;
        SinewGetUpInfo lastGetUp;

        /// <summary>Raised after the step in which a powered ragdoll lost its balance.</summary>
        public event Action<SinewRagdoll> BalanceLost;

        /// <summary>Raised once when a ragdoll comes to rest (every bone slower than
        /// <see cref="restSpeed"/> for <see cref="restSeconds"/>).</summary>
        public event Action<SinewRagdoll> CameToRest;

        /// <summary>Raised when a get-up blend has finished (the clip plays on, animated or powered).</summary>
        public event Action<SinewRagdoll> GotUp;

        /// <summary>Raised after each step's result is in and, while physics moves the bones,
        /// written to the rig: where <see cref="SinewRagdollRecorder"/> takes its frames.</summary>
        public event Action<SinewRagdoll> Stepped;

        /// <summary>The native ragdoll's wrapper; null while disabled.</summary>
        public Ragdoll Native
        {
            get { return native; }
        }

        /// <summary>The number of ragdoll bones (11 for the humanoid template); 0 before creation.</summary>
        public int BoneCount
        {
            get { return boneCount; }
        }

        /// <summary>The rig bone of ragdoll bone <paramref name="bone"/> (<see cref="SinewHumanoidBone"/> order for the template).</summary>
        public Transform GetBone(int bone)
        {
            return bones[bone];
        }

        /// <summary>The descriptor ragdoll bone <paramref name="bone"/> was created from (shape, mass, joint, bind pose).</summary>
        public SinewBoneDesc GetBoneDesc(int bone)
        {
            return descs[bone];
        }

        /// <summary>What moves the bones now.</summary>
        public RagdollMode Mode
        {
            get { return mode; }
        }

        /// <summary>
        /// False: alive (animated, or powered). True: a ragdoll (the Animator is disabled, the
        /// bones are dynamic and limp and written back to the rig every frame). As <see cref="SetRagdoll"/>.
        /// </summary>
        public bool Ragdolling
        {
            get { return ragdolling; }
            set { SetRagdoll(value); }
        }

        /// <summary>True since the last balance loss, until <see cref="StartGetUp"/> or <see cref="SetRagdoll"/>(false).</summary>
        public bool LostBalance
        {
            get { return lostBalance; }
        }

        /// <summary>True while every bone has stayed slower than <see cref="restSpeed"/> for
        /// <see cref="restSeconds"/> (as of the last step).</summary>
        public bool IsAtRest
        {
            get { return atRest; }
        }

        /// <summary>What the last <see cref="StartGetUp"/> found: the side, the clip, the root.</summary>
        public SinewGetUpInfo LastGetUpInfo
        {
            get { return lastGetUp; }
        }

        /// <summary>Muscle strength of every bone while powered (0–1); set at once if powered.</summary>
        public float MuscleStrength
        {
            get { return muscleStrength; }
            set
            {
                muscleStrength = value;
                if (native != null && mode == RagdollMode.Powered)
                {
                    world.CompleteStep();
                    native.SetMuscleStrengthAll(value);
                }
            }
        }

        /// <summary>Pin weight of every bone while powered (0–1); set at once if powered.</summary>
        public float PinWeight
        {
            get { return pinWeight; }
            set
            {
                pinWeight = value;
                if (native != null && mode == RagdollMode.Powered)
                {
                    world.CompleteStep();
                    native.SetPinWeightAll(value);
                }
            }
        }

        /// <summary>One bone's muscle strength (0–1), until the next mode change or <see cref="MuscleStrength"/>.</summary>
        public void SetMuscleStrength(int bone, float strength)
        {
            if (native != null)
            {
                world.CompleteStep();
                native.SetMuscleStrength(bone, strength);
            }
        }

        /// <summary>One bone's pin weight (0–1), until the next mode change or <see cref="PinWeight"/>.</summary>
        public void SetPinWeight(int bone, float weight)
        {
            if (native != null)
            {
                world.CompleteStep();
                native.SetPinWeight(bone, weight);
            }
        }

        /// <summary>A bone's muscle and pin as set and as acting after hits.</summary>
        public SinewDriveState GetDriveState(int bone)
        {
            if (native == null)
            {
                return default(SinewDriveState);
            }
            world.CompleteStep();
            return native.GetDriveState(bone);
        }

        /// <summary>Muscle natural frequency (Hz). Read at creation: setting it rebuilds the native ragdoll.</summary>
        public float MuscleFrequency
        {
            get { return muscleFrequency; }
            set { muscleFrequency = value; Rebuild(); }
        }

        /// <summary>Muscle damping ratio. Setting it rebuilds the native ragdoll.</summary>
        public float MuscleDampingRatio
        {
            get { return muscleDampingRatio; }
            set { muscleDampingRatio = value; Rebuild(); }
        }

        /// <summary>Muscle torque limit (N·m). Setting it rebuilds the native ragdoll.</summary>
        public float MuscleMaxTorque
        {
            get { return muscleMaxTorque; }
            set { muscleMaxTorque = value; Rebuild(); }
        }

        /// <summary>Pin natural frequency (Hz). Setting it rebuilds the native ragdoll.</summary>
        public float PinFrequency
        {
            get { return pinFrequency; }
            set { pinFrequency = value; Rebuild(); }
        }

        /// <summary>Pin damping ratio. Setting it rebuilds the native ragdoll.</summary>
        public float PinDampingRatio
        {
            get { return pinDampingRatio; }
            set { pinDampingRatio = value; Rebuild(); }
        }

        /// <summary>Share of strength a full hit takes (0–1). Setting it rebuilds the native ragdoll.</summary>
        public float HitStrengthLoss
        {
            get { return hitStrengthLoss; }
            set { hitStrengthLoss = value; Rebuild(); }
        }

        /// <summary>Share of a hit's loss passed on per joint (0–1). Setting it rebuilds the native ragdoll.</summary>
        public float HitNeighbourFalloff
        {
            get { return hitNeighbourFalloff; }
            set { hitNeighbourFalloff = value; Rebuild(); }
        }

        /// <summary>Impulse of a full hit (N·s). Setting it rebuilds the native ragdoll.</summary>
        public float HitFullImpulse
        {
            get { return hitFullImpulse; }
            set { hitFullImpulse = value; Rebuild(); }
        }

        /// <summary>Seconds a hit takes to recover. Setting it rebuilds the native ragdoll.</summary>
        public float HitRecoveryTime
        {
            get { return hitRecoveryTime; }
            set { hitRecoveryTime = value; Rebuild(); }
        }

        /// <summary>Speed (m/s) below which the at-rest clock runs. Setting it rebuilds the native ragdoll.</summary>
        public float RestSpeed
        {
            get { return restSpeed; }
            set { restSpeed = value; Rebuild(); }
        }

        /// <summary>Balance distance (m; 0 never). Setting it rebuilds the native ragdoll.</summary>
        public float BalanceDistance
        {
            get { return balanceDistance; }
            set { balanceDistance = value; Rebuild(); }
        }

        /// <summary>
        /// Builds from code instead of the inspector: <paramref name="rigBones"/>[k] is moved by
        /// ragdoll bone <paramref name="boneDescs"/>[k] (parents first; bind pose the descriptors').
        /// Call before Start, or at any time to rebuild.
        /// </summary>
        public void Build(Transform[] rigBones, SinewBoneDesc[] boneDescs)
        {
            if (rigBones == null || boneDescs == null || rigBones.Length != boneDescs.Length || rigBones.Length == 0)
            {
                throw new ArgumentException("Build needs one rig bone per descriptor, at least one");
            }
            codeBones = (Transform[])rigBones.Clone();
            codeDescs = (SinewBoneDesc[])boneDescs.Clone();
            if (started)
            {
                ReleaseNative();
                Create();
            }
        }

        /// <summary>The chapter's <c>SetRagdoll</c>: true turns the Animator off and every bone
        /// dynamic and limp; false turns the Animator on and the bones kinematic (or powered).</summary>
        public void SetRagdoll(bool on)
        {
            ragdolling = on;
            if (!on)
            {
                dead = false;
                lostBalance = false;
            }
            SetMode(on ? RagdollMode.Ragdoll : AliveMode);
        }

        /// <summary>
        /// Chapter section 4's <c>Die</c>: becomes a ragdoll and applies <paramref name="impulse"/>
        /// (N·s, world) at <paramref name="hitPoint"/> to the bone nearest to it, whose rig
        /// Transform is returned (null when the ragdoll does not exist). A dead ragdoll does not
        /// get up by itself (<see cref="autoGetUp"/>); <see cref="StartGetUp"/> still works.
        /// </summary>
        public Transform Die(Vector3 hitPoint, Vector3 impulse)
        {
            SetRagdoll(true);
            dead = true;
            if (native == null)
            {
                return null;
            }
            world.CompleteStep();
            int bone = native.ApplyImpulse(hitPoint, impulse);
            return bones[bone];
        }

        /// <summary>A hit that does not kill: the impulse on the nearest bone. On a powered
        /// ragdoll its muscles and pins weaken for a while (the hit reaction), and a hard enough
        /// hit costs it its balance. Returns the bone's rig Transform (null without a ragdoll).</summary>
        public Transform Hit(Vector3 hitPoint, Vector3 impulse)
        {
            if (native == null)
            {
                return null;
            }
            world.CompleteStep();
            if (mode == RagdollMode.Animated)
            {
                // An animated body has nothing to react with: it takes the hit powered.
                powered = true;
                SetMode(RagdollMode.Powered);
            }
            int bone = native.ApplyImpulse(hitPoint, impulse);
            return bones[bone];
        }

        /// <summary>
        /// Chapter section 5 with Sinew: takes the snapshot (the bones turn kinematic where they
        /// lie), picks <see cref="getUpFrontClip"/> or <see cref="getUpBackClip"/> from the side
        /// the body lies on, puts the character root where the get-up clip starts (on the ground
        /// under the pelvis, facing the way the clip stands up), plays the clip, and over the
        /// next <see cref="blendTime"/> s blends the bones from the snapshot to the clip's pose in
        /// LateUpdate. Call it from Update. Returns the clip's name (null when not possible).
        /// </summary>
        public string StartGetUp()
        {
            if (native == null || animator == null || mode == RagdollMode.GettingUp || mode == RagdollMode.Animated)
            {
                return null;
            }
            world.CompleteStep();
            SinewGetUpQuery q = SinewGetUpQuery.Default;
            q.pelvis = (uint)pelvisBone;
            q.chest = (uint)chestBone;
            q.head = (uint)headBone;
            Vector3 up = world.gravity.sqrMagnitude > 0f ? -world.gravity.normalized : Vector3.up;
            q.up = new SinewVec3(up.x, up.y, up.z);
            q.bind_forward = new SinewVec3(bindForward.x, bindForward.y, bindForward.z);
            q.bind_up = new SinewVec3(bindUp.x, bindUp.y, bindUp.z);
            lastGetUp = native.GetUpInfo(q);
            // Physics lets go: the bones stay where they lie, and that is the snapshot.
            native.SetKinematic(true);
            native.SetMuscleStrengthAll(0f);
            native.SetPinWeightAll(0f);
            string clip = lastGetUp.FromFront ? getUpFrontClip : getUpBackClip;
            Transform root = animator.transform;
            SinewQuat rr = lastGetUp.root_rotation;
            root.SetPositionAndRotation(new Vector3(lastGetUp.root_position.x, lastGetUp.root_position.y, lastGetUp.root_position.z),
                new Quaternion(rr.x, rr.y, rr.z, rr.w) * bindRootRotation);
            ragdolling = false;
            dead = false;
            lostBalance = false;
            atRest = false;
            animator.enabled = true;
            animator.Play(clip, getUpLayer, 0f);
            getUpClock = 0f;
            mode = RagdollMode.GettingUp;
            return clip;
        }

        /// <summary>
        /// The first bone a ray meets (its shape as the library has it, where the bones are now),
        /// for shooting: the hit point and the bone. The ragdoll's bones are not Unity colliders,
        /// so <c>Physics.Raycast</c> does not see them.
        /// </summary>
        public bool Raycast(Ray ray, float maxDistance, out Vector3 hitPoint, out int bone)
        {
            hitPoint = Vector3.zero;
            bone = -1;
            float best = maxDistance;
            Vector3 d = ray.direction.normalized;
            for (int i = 0; i < boneCount; i++)
            {
                Vector3 p;
                Quaternion r;
                BonePose(i, out p, out r);
                SinewBoneDesc b = descs[i];
                Quaternion sr = r * Q(b.shape_rotation);
                Vector3 c = p + r * V(b.shape_offset);
                float t;
                bool hit;
                switch ((SinewShape)b.shape)
                {
                    case SinewShape.SINEW_SHAPE_SPHERE:
                        hit = RaySphere(ray.origin, d, c, b.radius, out t);
                        break;
                    case SinewShape.SINEW_SHAPE_CAPSULE:
                        Vector3 axis = sr * Vector3.up;
                        hit = RayCapsule(ray.origin, d, c - axis * b.half_height, c + axis * b.half_height, Mathf.Max(b.radius0, b.radius1), out t);
                        break;
                    default:
                        Quaternion inv = Quaternion.Inverse(sr);
                        hit = RayBox(inv * (ray.origin - c), inv * d, V(b.half_extents), out t);
                        break;
                }
                if (hit && t < best)
                {
                    best = t;
                    bone = i;
                }
            }
            if (bone < 0)
            {
                return false;
            }
            hitPoint = ray.origin + d * best;
            return true;
        }

        RagdollMode AliveMode
        {
            get { return powered ? RagdollMode.Powered : RagdollMode.Animated; }
        }

        void Start()
        {
            started = true;
            Create();
        }

        void OnEnable()
        {
            if (started)
            {
                Create();
            }
        }

        void OnDisable()
        {
            ReleaseNative();
        }

        void Create()
        {
            if (native != null)
            {
                return;
            }
            if (animator == null)
            {
                animator = GetComponent<Animator>();
            }
            if (world == null)
            {
                world = SinewWorldBehaviour.GetOrCreate();
            }
            World w = world.World;
            if (w == null)
            {
                enabled = false;
                return;
            }
            string problem = CollectBones();
            if (problem != null)
            {
                Debug.LogError("Sinew: ragdoll " + name + ": " + problem + "; it is disabled.", this);
                enabled = false;
                return;
            }
            Transform root = animator != null ? animator.transform : transform;
            bindRootRotation = root.rotation;
            bindForward = root.forward;
            bindUp = root.up;
            world.CompleteStep();
            try
            {
                TakeOffsets();
                native = w.CreateRagdoll(Settings(), descs);
                anchored = false;
            }
            catch (SinewException e)
            {
                Debug.LogError("Sinew: ragdoll " + name + " was refused: " + e.Message, this);
                enabled = false;
                return;
            }
            world.Register(this);
            SetMode(ragdolling ? RagdollMode.Ragdoll : AliveMode);
        }

        /// <summary>Fills bones and descs (and sizes the buffers) from code, the bone list or the
        /// humanoid Animator; the problem, or null.</summary>
        string CollectBones()
        {
            if (codeBones != null)
            {
                Allocate(codeBones.Length);
                Array.Copy(codeBones, bones, boneCount);
                Array.Copy(codeDescs, descs, boneCount);
                return null;
            }
            if (boneList != null && boneList.Length > 0)
            {
                Allocate(boneList.Length);
                for (int i = 0; i < boneCount; i++)
                {
                    if (boneList[i] == null || boneList[i].bone == null)
                    {
                        return "bone " + i + " of the Bone List has no Transform";
                    }
                    bones[i] = boneList[i].bone;
                    descs[i] = boneList[i].ToNative();
                }
                return null;
            }
            if (animator == null || !animator.isHuman)
            {
                return "with no Bone List it needs a humanoid Animator (Animator.isHuman)";
            }
            Allocate(HumanoidBoneCount);
            SinewHumanoidBones h;
            string missing = Humanoid(out h);
            if (missing != null)
            {
                return "the Animator maps no bone to HumanBodyBones." + missing;
            }
            try
            {
                Ragdoll.HumanoidBoneDescs(h, descs);
            }
            catch (SinewException e)
            {
                return "the humanoid was refused: " + e.Message;
            }
            return null;
        }

        /// <summary>Each ragdoll bone in its rig bone's frame, from the pose the rig is in now.</summary>
        void TakeOffsets()
        {
            for (int i = 0; i < boneCount; i++)
            {
                Quaternion inverse = Quaternion.Inverse(bones[i].rotation);
                offsetPositions[i] = inverse * (V(descs[i].position) - bones[i].position);
                offsetRotations[i] = inverse * Q(descs[i].rotation);
            }
        }

        void Allocate(int n)
        {
            if (boneCount == n && bones.Length == n)
            {
                return;
            }
            boneCount = n;
            bones = new Transform[n];
            descs = new SinewBoneDesc[n];
            offsetPositions = new Vector3[n];
            offsetRotations = new Quaternion[n];
            positions = new Vector3[n];
            rotations = new Quaternion[n];
            blendPositions = new Vector3[n];
            blendRotations = new Quaternion[n];
        }

        /// <summary>The rig's bone positions in the Ragdoll Wizard's slots; the name of the
        /// first unmapped bone, or null.</summary>
        string Humanoid(out SinewHumanoidBones h)
        {
            h = default(SinewHumanoidBones);
            for (int i = 0; i < HumanoidBoneCount; i++)
            {
                bones[i] = animator.GetBoneTransform(Slots[i]);
                if (bones[i] == null)
                {
                    return Slots[i].ToString();
                }
            }
            Transform leftFoot = animator.GetBoneTransform(HumanBodyBones.LeftFoot);
            Transform rightFoot = animator.GetBoneTransform(HumanBodyBones.RightFoot);
            Transform leftHand = animator.GetBoneTransform(HumanBodyBones.LeftHand);
            Transform rightHand = animator.GetBoneTransform(HumanBodyBones.RightHand);
            if (leftFoot == null || rightFoot == null || leftHand == null || rightHand == null)
            {
                return leftFoot == null ? "LeftFoot" : rightFoot == null ? "RightFoot" : leftHand == null ? "LeftHand" : "RightHand";
            }
            h.pelvis = S(bones[0].position);
            h.left_hip = S(bones[1].position);
            h.left_knee = S(bones[2].position);
            h.left_foot = S(leftFoot.position);
            h.right_hip = S(bones[3].position);
            h.right_knee = S(bones[4].position);
            h.right_foot = S(rightFoot.position);
            h.middle_spine = S(bones[5].position);
            h.head = S(bones[6].position);
            h.left_arm = S(bones[7].position);
            h.left_elbow = S(bones[8].position);
            h.left_hand = S(leftHand.position);
            h.right_arm = S(bones[9].position);
            h.right_elbow = S(bones[10].position);
            h.right_hand = S(rightHand.position);
            Transform root = animator.transform;
            h.up = S(root.up);
            h.forward = S(root.forward);
            h.total_mass = totalMass;
            return null;
        }

        static SinewVec3 S(Vector3 v)
        {
            return new SinewVec3(v.x, v.y, v.z);
        }

        static Vector3 V(SinewVec3 v)
        {
            return new Vector3(v.x, v.y, v.z);
        }

        static Quaternion Q(SinewQuat q)
        {
            return new Quaternion(q.x, q.y, q.z, q.w);
        }

        SinewRagdollSettings Settings()
        {
            SinewRagdollSettings s = SinewRagdollSettings.Default;
            s.stabilize = stabilize ? 1u : 0u;
            s.max_mass_ratio = maxMassRatio;
            s.self_collision = selfCollision ? 1u : 0u;
            s.friction = friction;
            s.restitution = restitution;
            s.linear_damping = linearDamping;
            s.angular_damping = angularDamping;
            s.collider_mask = unchecked((uint)colliderMask.value);
            s.sleep_threshold = sleepThreshold;
            s.sleep_time = sleepTime;
            s.Kinematic = !ragdolling && !powered;
            s.muscle_frequency = muscleFrequency;
            s.muscle_damping_ratio = muscleDampingRatio;
            s.muscle_max_torque = muscleMaxTorque;
            s.pin_frequency = pinFrequency;
            s.pin_damping_ratio = pinDampingRatio;
            s.hit_strength_loss = hitStrengthLoss;
            s.hit_neighbour_falloff = hitNeighbourFalloff;
            s.hit_full_impulse = hitFullImpulse;
            s.hit_recovery_time = hitRecoveryTime;
            s.balance_distance = balanceDistance;
            s.rest_speed = restSpeed;
            return s;
        }

        /// <summary>A new native ragdoll with the current settings, at the bones' current pose
        /// (settings the library reads only at creation). Allocates.</summary>
        void Rebuild()
        {
            if (native == null)
            {
                return;
            }
            world.CompleteStep();
            native.ReadPose(positions, rotations);
            native.Dispose();
            native = null;
            try
            {
                native = world.World.CreateRagdoll(Settings(), descs);
                native.SetPose(positions, rotations, false);
            }
            catch (SinewException e)
            {
                Debug.LogError("Sinew: ragdoll " + name + " was refused: " + e.Message, this);
                world.Unregister(this);
                native = null;
                enabled = false;
                return;
            }
            RagdollMode m = mode;
            mode = RagdollMode.Animated;
            SetMode(m == RagdollMode.GettingUp ? RagdollMode.Animated : m);
        }

        void SetMode(RagdollMode m)
        {
            mode = m;
            if (animator != null)
            {
                animator.enabled = m != RagdollMode.Ragdoll;
            }
            if (native == null)
            {
                return;
            }
            world.CompleteStep();
            bool limp = m != RagdollMode.Powered;
            native.SetMuscleStrengthAll(limp ? 0f : muscleStrength);
            native.SetPinWeightAll(limp ? 0f : pinWeight);
            native.SetKinematic(m == RagdollMode.Animated || m == RagdollMode.GettingUp);
            if (m == RagdollMode.Powered)
            {
                // The animated pose now, so the first step already drives towards it.
                AnimatedPose(positions, rotations);
                native.SetTargets(positions, rotations);
            }
            atRest = false;
        }

        void ReleaseNative()
        {
            if (world != null)
            {
                world.CompleteStep();
                world.Unregister(this);
            }
            if (native != null)
            {
                native.Dispose();
                native = null;
            }
        }

        /// <summary>Where the rig's bones put the ragdoll's bones (the animated pose while the Animator runs).</summary>
        void AnimatedPose(Vector3[] p, Quaternion[] q)
        {
            for (int i = 0; i < boneCount; i++)
            {
                Quaternion r = bones[i].rotation;
                p[i] = bones[i].position + r * offsetPositions[i];
                q[i] = r * offsetRotations[i];
            }
        }

        /// <summary>Ragdoll bone poses into the rig, parents first (so no bone is moved by a
        /// parent written after it).</summary>
        void WriteBones(Vector3[] p, Quaternion[] q)
        {
            for (int i = 0; i < boneCount; i++)
            {
                Quaternion r = q[i] * Quaternion.Inverse(offsetRotations[i]);
                bones[i].SetPositionAndRotation(p[i] - r * offsetPositions[i], r);
            }
        }

        void BonePose(int i, out Vector3 p, out Quaternion q)
        {
            Quaternion r = bones[i].rotation;
            p = bones[i].position + r * offsetPositions[i];
            q = r * offsetRotations[i];
        }

        // After the Animator (it updates before LateUpdate) and before the world steps (its
        // LateUpdate runs at SinewWorldBehaviour.ExecutionOrder): the animated pose as targets,
        // or this frame of the get-up blend.
        void LateUpdate()
        {
            if (native == null || native.IsDisposed)
            {
                return;
            }
            world.CompleteStep();
            try
            {
                if (anchor != null)
                {
                    native.SetAnchor(Matrix4x4.TRS(anchor.position, anchor.rotation, Vector3.one), anchorInertia);
                    anchored = true;
                }
                else if (anchored)
                {
                    native.ClearAnchor();
                    anchored = false;
                }
                switch (mode)
                {
                    case RagdollMode.Animated:
                    case RagdollMode.Powered:
                        AnimatedPose(positions, rotations);
                        native.SetTargets(positions, rotations);
                        break;
                    case RagdollMode.GettingUp:
                        getUpClock += Time.deltaTime;
                        float alpha = Ragdoll.BlendAlpha(getUpClock, blendTime);
                        AnimatedPose(positions, rotations);
                        native.BlendFromSnapshot(positions, rotations, alpha, blendPositions, blendRotations);
                        WriteBones(blendPositions, blendRotations);
                        // Kinematic bones at the blended pose: cloth on the body follows it.
                        native.SetTargets(blendPositions, blendRotations);
                        if (alpha >= 1f)
                        {
                            SetMode(AliveMode);
                            if (GotUp != null)
                            {
                                GotUp(this);
                            }
                        }
                        break;
                    default:
                        if (autoGetUp && !dead && atRest)
                        {
                            StartGetUp();
                        }
                        break;
                }
            }
            catch (SinewException e)
            {
                Debug.LogError("Sinew: ragdoll " + name + ": " + e.Message + "; the ragdoll is disabled.", this);
                enabled = false;
            }
        }

        /// <summary>Called by the world once a step's result is in: events, the at-rest clock,
        /// and while physics moves the bones their poses back into the rig.</summary>
        internal void AfterStepChecked()
        {
            if (native == null || native.IsDisposed)
            {
                return;
            }
            if ((native.TakeEvents() & RagdollEvents.BalanceLost) != 0)
            {
                lostBalance = true;
                if (ragdollOnBalanceLoss && mode == RagdollMode.Powered)
                {
                    ragdolling = true;
                    SetMode(RagdollMode.Ragdoll);
                }
                if (BalanceLost != null)
                {
                    BalanceLost(this);
                }
            }
            if (mode == RagdollMode.Ragdoll || mode == RagdollMode.Powered)
            {
                native.ReadPose(positions, rotations);
                WriteBones(positions, rotations);
                bool rest = native.IsAtRest(restSeconds);
                if (rest && !atRest && CameToRest != null)
                {
                    atRest = true;
                    CameToRest(this);
                }
                atRest = rest;
            }
            if (Stepped != null)
            {
                Stepped(this);
            }
        }

        // ---- gizmos ----

        void OnDrawGizmosSelected()
        {
            if (native == null)
            {
                // Not built (edit mode, or disabled): the bones as they would be built from the
                // rig's pose now, which is then the bind pose (every joint green).
                if (animator == null)
                {
                    animator = GetComponent<Animator>();
                }
                try
                {
                    if (CollectBones() != null)
                    {
                        return;
                    }
                    TakeOffsets();
                }
                catch (Exception)
                {
                    return; // no native library in this editor: nothing to preview
                }
            }
            if (boneCount == 0 || bones.Length != boneCount)
            {
                return;
            }
            Matrix4x4 saved = Gizmos.matrix;
            for (int i = 0; i < boneCount; i++)
            {
                if (bones[i] == null)
                {
                    continue;
                }
                Vector3 p;
                Quaternion q;
                BonePose(i, out p, out q);
                SinewBoneDesc b = descs[i];
                float limit = 0f;
                int parent = b.parent;
                if (parent >= 0 && bones[parent] != null)
                {
                    Vector3 pp;
                    Quaternion pq;
                    BonePose(parent, out pp, out pq);
                    limit = DrawJoint(b, p, q, pq);
                }
                Gizmos.color = Color.Lerp(Color.green, Color.red, limit);
                Gizmos.matrix = Matrix4x4.TRS(p + q * V(b.shape_offset), q * Q(b.shape_rotation), Vector3.one);
                switch ((SinewShape)b.shape)
                {
                    case SinewShape.SINEW_SHAPE_SPHERE:
                        Gizmos.DrawWireSphere(Vector3.zero, b.radius);
                        break;
                    case SinewShape.SINEW_SHAPE_CAPSULE:
                        DrawCapsule(b.half_height, b.radius0, b.radius1);
                        break;
                    default:
                        Gizmos.DrawWireCube(Vector3.zero, 2f * V(b.half_extents));
                        break;
                }
                Gizmos.matrix = saved;
            }
        }

        static void DrawCapsule(float halfHeight, float r0, float r1)
        {
            Vector3 top = new Vector3(0f, halfHeight, 0f);
            Vector3 bottom = -top;
            Gizmos.DrawWireSphere(bottom, r0);
            Gizmos.DrawWireSphere(top, r1);
            Gizmos.DrawLine(bottom + new Vector3(r0, 0f, 0f), top + new Vector3(r1, 0f, 0f));
            Gizmos.DrawLine(bottom - new Vector3(r0, 0f, 0f), top - new Vector3(r1, 0f, 0f));
            Gizmos.DrawLine(bottom + new Vector3(0f, 0f, r0), top + new Vector3(0f, 0f, r1));
            Gizmos.DrawLine(bottom - new Vector3(0f, 0f, r0), top - new Vector3(0f, 0f, r1));
        }

        /// <summary>Draws bone <paramref name="b"/>'s joint limits at its anchor and returns how
        /// near the current pose is to them (0 at the bind pose … 1 at a limit).</summary>
        float DrawJoint(SinewBoneDesc b, Vector3 p, Quaternion q, Quaternion parentRotation)
        {
            SinewJointDesc j = b.joint;
            SinewJointKind kind = (SinewJointKind)j.kind;
            if (kind == SinewJointKind.SINEW_JOINT_FREE || kind == SinewJointKind.SINEW_JOINT_FIXED)
            {
                return 0f;
            }
            // The joint's rotation from the bind pose, in the child's frame.
            Quaternion bindRel = Quaternion.Inverse(Q(descs[b.parent].rotation)) * Q(b.rotation);
            Quaternion rel = Quaternion.Inverse(bindRel) * (Quaternion.Inverse(parentRotation) * q);
            if (rel.w < 0f)
            {
                rel = new Quaternion(-rel.x, -rel.y, -rel.z, -rel.w);
            }
            Vector3 axis = V(j.axis).normalized;
            Vector3 s1 = V(j.swing_axis);
            s1 = (s1 - axis * Vector3.Dot(s1, axis)).normalized;
            Vector3 s2 = Vector3.Cross(axis, s1);
            Vector3 v = new Vector3(rel.x, rel.y, rel.z);
            float twist = 2f * Mathf.Atan2(Vector3.Dot(v, axis), rel.w) * Mathf.Rad2Deg;
            Vector3 anchor = p + q * V(j.anchor);
            // Limits drawn in the parent's frame carried to the child's bind: where the child's axes are at zero angle.
            Quaternion frame = parentRotation * bindRel;
            Vector3 axisW = frame * axis;
            Vector3 s1W = frame * s1;
            Vector3 s2W = frame * s2;
            float ratio;
            if (kind == SinewJointKind.SINEW_JOINT_HINGE)
            {
                ratio = Ratio(twist, j.hinge_min, j.hinge_max);
                if (drawJointLimits)
                {
                    Gizmos.color = Color.Lerp(Color.green, Color.red, ratio);
                    DrawArc(anchor, axisW, s1W, j.hinge_min, j.hinge_max, gizmoSize);
                    Gizmos.DrawLine(anchor, anchor + (q * s1) * gizmoSize);
                }
                return ratio;
            }
            // Swing-twist: swing = rel · twist⁻¹, its angles about s1 and s2 against the cone.
            Quaternion twistQ = Quaternion.AngleAxis(twist, axis);
            Quaternion swing = rel * Quaternion.Inverse(twistQ);
            float a1 = 2f * Mathf.Atan2(swing.x * s1.x + swing.y * s1.y + swing.z * s1.z, swing.w) * Mathf.Rad2Deg;
            float a2 = 2f * Mathf.Atan2(swing.x * s2.x + swing.y * s2.y + swing.z * s2.z, swing.w) * Mathf.Rad2Deg;
            float c1 = j.swing1 > 0.01f ? a1 / j.swing1 : (Mathf.Abs(a1) > 0.5f ? 1f : 0f);
            float c2 = j.swing2 > 0.01f ? a2 / j.swing2 : (Mathf.Abs(a2) > 0.5f ? 1f : 0f);
            float swingRatio = Mathf.Clamp01(Mathf.Sqrt(c1 * c1 + c2 * c2));
            float twistRatio = Ratio(twist, j.low_twist, j.high_twist);
            ratio = Mathf.Max(swingRatio, twistRatio);
            if (drawJointLimits)
            {
                // The cone: the twist axis turned to the limit all round (swing1 about s1, swing2 about s2).
                Gizmos.color = Color.Lerp(Color.green, Color.red, swingRatio);
                Vector3 previous = Vector3.zero;
                for (int k = 0; k <= 24; k++)
                {
                    float phi = k * (2f * Mathf.PI / 24f);
                    float c = Mathf.Cos(phi), s = Mathf.Sin(phi);
                    float e1 = j.swing1 > 0.01f ? c / j.swing1 : 0f, e2 = j.swing2 > 0.01f ? s / j.swing2 : 0f;
                    float e = Mathf.Sqrt(e1 * e1 + e2 * e2);
                    float angle = e > 0f ? 1f / e : 0f;
                    Vector3 rim = anchor + Quaternion.AngleAxis(angle, c * s1W + s * s2W) * axisW * gizmoSize;
                    if (k > 0)
                    {
                        Gizmos.DrawLine(previous, rim);
                    }
                    if (k % 6 == 0)
                    {
                        Gizmos.DrawLine(anchor, rim);
                    }
                    previous = rim;
                }
                Gizmos.DrawLine(anchor, anchor + (q * axis) * gizmoSize * 1.2f);
                Gizmos.color = Color.Lerp(Color.green, Color.red, twistRatio);
                DrawArc(anchor + axisW * gizmoSize, axisW, s1W, j.low_twist, j.high_twist, gizmoSize * 0.5f);
            }
            return ratio;
        }

        static float Ratio(float angle, float min, float max)
        {
            if (angle >= 0f)
            {
                return max > 0.01f ? Mathf.Clamp01(angle / max) : (angle > 0.5f ? 1f : 0f);
            }
            return min < -0.01f ? Mathf.Clamp01(angle / min) : (angle < -0.5f ? 1f : 0f);
        }

        static void DrawArc(Vector3 centre, Vector3 axis, Vector3 from, float minDegrees, float maxDegrees, float radius)
        {
            const int Segments = 16;
            Vector3 previous = centre + Quaternion.AngleAxis(minDegrees, axis) * from * radius;
            Gizmos.DrawLine(centre, previous);
            for (int k = 1; k <= Segments; k++)
            {
                float a = minDegrees + (maxDegrees - minDegrees) * k / Segments;
                Vector3 next = centre + Quaternion.AngleAxis(a, axis) * from * radius;
                Gizmos.DrawLine(previous, next);
                previous = next;
            }
            Gizmos.DrawLine(centre, previous);
        }

        // ---- ray tests (Raycast) ----

        static bool RaySphere(Vector3 o, Vector3 d, Vector3 c, float r, out float t)
        {
            Vector3 m = o - c;
            float b = Vector3.Dot(m, d);
            float cc = Vector3.Dot(m, m) - r * r;
            t = 0f;
            if (cc > 0f && b > 0f)
            {
                return false;
            }
            float disc = b * b - cc;
            if (disc < 0f)
            {
                return false;
            }
            t = Mathf.Max(0f, -b - Mathf.Sqrt(disc));
            return true;
        }

        static bool RayCapsule(Vector3 o, Vector3 d, Vector3 a, Vector3 b, float r, out float t)
        {
            // The nearest of the two end spheres and the cylinder between them.
            float best = float.MaxValue;
            float s;
            if (RaySphere(o, d, a, r, out s))
            {
                best = s;
            }
            if (RaySphere(o, d, b, r, out s) && s < best)
            {
                best = s;
            }
            Vector3 ab = b - a;
            float len2 = Vector3.Dot(ab, ab);
            if (len2 > 1e-12f)
            {
                Vector3 ao = o - a;
                float dab = Vector3.Dot(d, ab), aoab = Vector3.Dot(ao, ab);
                Vector3 dp = d - ab * (dab / len2);
                Vector3 op = ao - ab * (aoab / len2);
                float qa = Vector3.Dot(dp, dp), qb = Vector3.Dot(dp, op), qc = Vector3.Dot(op, op) - r * r;
                float disc = qb * qb - qa * qc;
                if (qa > 1e-12f && disc >= 0f)
                {
                    float hit = (-qb - Mathf.Sqrt(disc)) / qa;
                    float along = aoab + hit * dab;
                    if (hit >= 0f && along >= 0f && along <= len2 && hit < best)
                    {
                        best = hit;
                    }
                }
            }
            t = best;
            return best < float.MaxValue;
        }

        static bool RayBox(Vector3 o, Vector3 d, Vector3 h, out float t)
        {
            float near = 0f, far = float.MaxValue;
            t = 0f;
            for (int k = 0; k < 3; k++)
            {
                float ok = k == 0 ? o.x : k == 1 ? o.y : o.z;
                float dk = k == 0 ? d.x : k == 1 ? d.y : d.z;
                float hk = k == 0 ? h.x : k == 1 ? h.y : h.z;
                if (Mathf.Abs(dk) < 1e-9f)
                {
                    if (ok < -hk || ok > hk)
                    {
                        return false;
                    }
                    continue;
                }
                float t0 = (-hk - ok) / dk, t1 = (hk - ok) / dk;
                if (t0 > t1)
                {
                    float x = t0;
                    t0 = t1;
                    t1 = x;
                }
                near = Mathf.Max(near, t0);
                far = Mathf.Min(far, t1);
                if (near > far)
                {
                    return false;
                }
            }
            t = near;
            return true;
        }
    }
}
