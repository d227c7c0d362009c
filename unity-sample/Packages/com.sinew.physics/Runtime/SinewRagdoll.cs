// Hand-written. A humanoid Animator's bones as a Sinew ragdoll: animated while alive, physics once it dies.
using System;
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// Turns a humanoid <see cref="Animator"/>'s bones into a Sinew ragdoll through the humanoid
    /// template (the 11 bodies of Unity's Ragdoll Wizard: pelvis, middle spine, head, both hips,
    /// knees, arms and elbows, with its masses and joint limits), in the same world as the cloth.
    /// </summary>
    /// <remarks>
    /// <para>While <see cref="Ragdolling"/> is false the ragdoll is kinematic: every LateUpdate it
    /// sends the animated bones' transforms as targets, so its bones push cloth and track the
    /// animation's velocity. <see cref="Ragdolling"/> = true (or <see cref="Die"/>) disables the
    /// Animator and makes the bones dynamic; they keep the animation's momentum, and each step's
    /// bone poses are written back to the rig's transforms in the template's order, which lists
    /// parents first, so that no parent moves a child already placed. The rig's other bones
    /// (chest, neck, feet, hands, fingers) follow their parents.</para>
    /// <para>The template's bone frames need not match the rig's: the offset of each rig bone to
    /// its ragdoll bone is taken once, at creation, in the bind pose the rig is in then.</para>
    /// <para>No allocation per frame. Getting up again and editor tooling come later; turning
    /// <see cref="Ragdolling"/> off simply re-enables the Animator.</para>
    /// </remarks>
    [DisallowMultipleComponent]
    [AddComponentMenu("Sinew/Sinew Ragdoll")]
    public sealed class SinewRagdoll : MonoBehaviour
    {
        [Tooltip("The world this ragdoll is in. Empty: the scene's SinewWorldBehaviour (one is created if the scene has none).")]
        public SinewWorldBehaviour world;

        [Tooltip("The humanoid Animator whose bones become the ragdoll. Empty: the Animator on this GameObject.")]
        public Animator animator;

        [Tooltip("Total mass of the ragdoll (kg), shared out as the Ragdoll Wizard does. The wizard's default is 20.")]
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

        [Tooltip("Start as a ragdoll (physics) instead of animated.")]
        [SerializeField]
        bool ragdolling;

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

        const int BoneCount = 11;

        Ragdoll native;
        bool started;
        readonly Transform[] bones = new Transform[BoneCount];
        // Each ragdoll bone in its rig bone's frame (fixed at creation).
        readonly Vector3[] offsetPositions = new Vector3[BoneCount];
        readonly Quaternion[] offsetRotations = new Quaternion[BoneCount];
        // Per-frame buffers: targets out, poses back.
        readonly Vector3[] positions = new Vector3[BoneCount];
        readonly Quaternion[] rotations = new Quaternion[BoneCount];

        /// <summary>The native ragdoll's wrapper; null while disabled.</summary>
        public Ragdoll Native
        {
            get { return native; }
        }

        /// <summary>The rig bone of template bone <paramref name="bone"/> (<see cref="SinewHumanoidBone"/> order).</summary>
        public Transform GetBone(int bone)
        {
            return bones[bone];
        }

        /// <summary>
        /// False: animated (kinematic bones follow the Animator). True: a ragdoll (the Animator is
        /// disabled, the bones are dynamic and written back to the rig every frame).
        /// </summary>
        public bool Ragdolling
        {
            get { return ragdolling; }
            set
            {
                if (ragdolling == value)
                {
                    return;
                }
                ragdolling = value;
                Apply();
            }
        }

        /// <summary>
        /// Chapter section 4's <c>Die</c>: becomes a ragdoll and applies <paramref name="impulse"/>
        /// (N·s, world) at <paramref name="point"/> to the bone nearest to it, whose rig
        /// Transform is returned (null when the ragdoll does not exist).
        /// </summary>
        public Transform Die(Vector3 point, Vector3 impulse)
        {
            Ragdolling = true;
            if (native == null)
            {
                return null;
            }
            world.CompleteStep();
            int bone = native.ApplyImpulse(point, impulse);
            return bones[bone];
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
            if (animator == null || !animator.isHuman)
            {
                Debug.LogError("Sinew: ragdoll " + name + " needs a humanoid Animator (Animator.isHuman); it is disabled.", this);
                enabled = false;
                return;
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
            SinewHumanoidBones h;
            string missing = Humanoid(out h);
            if (missing != null)
            {
                Debug.LogError("Sinew: ragdoll " + name + ": the Animator maps no bone to HumanBodyBones." + missing + "; it is disabled.", this);
                enabled = false;
                return;
            }
            world.CompleteStep();
            try
            {
                SinewBoneDesc[] descs = Ragdoll.HumanoidBoneDescs(h);
                for (int i = 0; i < BoneCount; i++)
                {
                    Quaternion inverse = Quaternion.Inverse(bones[i].rotation);
                    Vector3 p = new Vector3(descs[i].position.x, descs[i].position.y, descs[i].position.z);
                    Quaternion q = new Quaternion(descs[i].rotation.x, descs[i].rotation.y, descs[i].rotation.z, descs[i].rotation.w);
                    offsetPositions[i] = inverse * (p - bones[i].position);
                    offsetRotations[i] = inverse * q;
                }
                native = w.CreateRagdoll(Settings(), descs);
            }
            catch (SinewException e)
            {
                Debug.LogError("Sinew: ragdoll " + name + " was refused: " + e.Message, this);
                enabled = false;
                return;
            }
            world.Register(this);
            Apply();
        }

        /// <summary>The rig's bone positions in the Ragdoll Wizard's slots; the name of the
        /// first unmapped bone, or null.</summary>
        string Humanoid(out SinewHumanoidBones h)
        {
            h = default(SinewHumanoidBones);
            for (int i = 0; i < BoneCount; i++)
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
            h.pelvis = V(bones[0].position);
            h.left_hip = V(bones[1].position);
            h.left_knee = V(bones[2].position);
            h.left_foot = V(leftFoot.position);
            h.right_hip = V(bones[3].position);
            h.right_knee = V(bones[4].position);
            h.right_foot = V(rightFoot.position);
            h.middle_spine = V(bones[5].position);
            h.head = V(bones[6].position);
            h.left_arm = V(bones[7].position);
            h.left_elbow = V(bones[8].position);
            h.left_hand = V(leftHand.position);
            h.right_arm = V(bones[9].position);
            h.right_elbow = V(bones[10].position);
            h.right_hand = V(rightHand.position);
            h.up = V(transform.up);
            h.forward = V(transform.forward);
            h.total_mass = totalMass;
            return null;
        }

        static SinewVec3 V(Vector3 v)
        {
            return new SinewVec3(v.x, v.y, v.z);
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
            s.Kinematic = !ragdolling;
            return s;
        }

        void Apply()
        {
            if (animator != null)
            {
                animator.enabled = !ragdolling;
            }
            if (native == null)
            {
                return;
            }
            world.CompleteStep();
            native.SetKinematic(!ragdolling);
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

        // After the Animator (it updates before LateUpdate) and before the world steps (its
        // LateUpdate runs at SinewWorldBehaviour.ExecutionOrder): the animated pose as targets.
        void LateUpdate()
        {
            if (native == null || native.IsDisposed || ragdolling)
            {
                return;
            }
            world.CompleteStep();
            for (int i = 0; i < BoneCount; i++)
            {
                Quaternion r = bones[i].rotation;
                positions[i] = bones[i].position + r * offsetPositions[i];
                rotations[i] = r * offsetRotations[i];
            }
            try
            {
                native.SetTargets(positions, rotations);
            }
            catch (SinewException e)
            {
                Debug.LogError("Sinew: ragdoll " + name + ": the animated pose was refused (" + e.Message + "); the ragdoll is disabled.", this);
                enabled = false;
            }
        }

        /// <summary>Called by the world once a step's result is in: while ragdolling, the bone
        /// poses back into the rig.</summary>
        internal void AfterStepChecked()
        {
            if (native == null || native.IsDisposed || !ragdolling)
            {
                return;
            }
            native.ReadPose(positions, rotations);
            // The template's order has parents first (pelvis, legs, spine, head, arms), so no
            // bone is moved by a parent written after it.
            for (int i = 0; i < BoneCount; i++)
            {
                Quaternion r = rotations[i] * Quaternion.Inverse(offsetRotations[i]);
                bones[i].SetPositionAndRotation(positions[i] - r * offsetPositions[i], r);
            }
        }
    }
}
