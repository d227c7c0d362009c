// Sample. A rigged character built entirely from generated meshes (the package ships no model):
// an 11-bone humanoid hierarchy, a body mesh skinned to it, a cape (SinewCloth on a
// SkinnedMeshRenderer, pinned and limited by painted vertex colours, with a backstop), a
// ponytail of hair (SinewHair on the head bone), capsule colliders on the legs and the spine
// (SinewCollider) and a ragdoll of the same bones (SinewRagdoll). It walks on the spot by a
// procedural cycle; Space lets it fall as a ragdoll and Space again stands it back up, R
// teleports it. README.md beside this file says how to run it and what to look at.
using Sinew;
using Sinew.Components;
using UnityEngine;
// Sinew.SinewRagdoll and Sinew.Collider are the native handles; the components are meant here.
using SinewRagdoll = Sinew.Components.SinewRagdoll;
using SinewCollider = Sinew.Components.SinewCollider;

namespace SinewSamples
{
    /// <summary>
    /// The character. Its bones are the humanoid template's (<see cref="Ragdoll.HumanoidBoneDescs(SinewHumanoidBones)"/>:
    /// pelvis, upper and lower legs, spine, head, upper and lower arms) as a real hierarchy of
    /// Transforms, each child under its parent, so the body mesh, the cape's pins, the hair's
    /// roots, the colliders and the ragdoll all follow what an Animator would move.
    /// </summary>
    [DefaultExecutionOrder(-1000)]
    public sealed class RiggedCharacter : MonoBehaviour
    {
        [Header("Walk")]
        [Tooltip("Steps per second of the procedural walk cycle.")]
        [Min(0f)]
        public float stepRate = 1.6f;

        [Tooltip("How far the legs swing forward and back (degrees).")]
        [Range(0f, 60f)]
        public float legSwing = 30f;

        [Tooltip("How far the character turns to and fro about its up axis (degrees), so the cape swings.")]
        [Range(0f, 90f)]
        public float turn = 35f;

        [Header("Cape")]
        [Tooltip("Columns of the generated cape's vertex grid.")]
        [Min(2)]
        public int capeColumns = 12;

        [Tooltip("Rows of the generated cape's vertex grid (the top row is pinned).")]
        [Min(2)]
        public int capeRows = 16;

        [Tooltip("How far the bottom row may move from its skinned position (m); the pinned top row 0, rising linearly in between (painted as the green vertex colour).")]
        [Min(0f)]
        public float capeMaxDistance = 0.6f;

        [Tooltip("Optional material for the body and the cape (else Unity's default).")]
        public Material material;

        SinewWorldBehaviour world;
        Transform root;
        Transform[] bones;
        Quaternion[] bindLocal;
        SinewRagdoll ragdoll;
        SinewCloth cape;
        float walkTime;

        const int Pelvis = (int)SinewHumanoidBone.SINEW_HUMANOID_PELVIS;
        const int Spine = (int)SinewHumanoidBone.SINEW_HUMANOID_MIDDLE_SPINE;
        const int Head = (int)SinewHumanoidBone.SINEW_HUMANOID_HEAD;

        void Start()
        {
            world = gameObject.AddComponent<SinewWorldBehaviour>();
            world.gravity = Physics.gravity;

            GameObject ground = GameObject.CreatePrimitive(PrimitiveType.Plane);
            ground.name = "Ground";
            var plane = ground.AddComponent<SinewCollider>();
            plane.world = world;
            plane.shape = SinewCollider.Shape.Plane;

            root = new GameObject("Rigged character").transform;
            SinewBoneDesc[] descs = Ragdoll.HumanoidBoneDescs(SinewHumanoidBones.Default);
            bones = Rig(root, descs);
            bindLocal = new Quaternion[bones.Length];
            for (int b = 0; b < bones.Length; b++)
            {
                bindLocal[b] = bones[b].localRotation;
            }

            Material shared = material != null ? material : ground.GetComponent<Renderer>().sharedMaterial;
            SkinBody(root, bones, descs, shared);
            cape = Cape(root, bones[Spine], shared);
            Hair(bones[Head]);
            for (int b = 0; b < descs.Length; b++)
            {
                // The cape meets the legs and the spine (the arms stay in front of it).
                bool legOrSpine = b == Spine || b == (int)SinewHumanoidBone.SINEW_HUMANOID_LEFT_HIP
                    || b == (int)SinewHumanoidBone.SINEW_HUMANOID_LEFT_KNEE || b == (int)SinewHumanoidBone.SINEW_HUMANOID_RIGHT_HIP
                    || b == (int)SinewHumanoidBone.SINEW_HUMANOID_RIGHT_KNEE;
                if (legOrSpine)
                {
                    CapsuleOn(bones[b], descs[b]);
                }
            }

            ragdoll = root.gameObject.AddComponent<SinewRagdoll>();
            ragdoll.world = world;
            ragdoll.Build(bones, descs);

            Camera camera = Camera.main;
            if (camera != null)
            {
                camera.transform.position = new Vector3(1.6f, 1.6f, -3.2f);
                camera.transform.LookAt(new Vector3(0f, 1f, 0f));
            }
        }

        /// <summary>The bones as a hierarchy under <paramref name="parent"/>: each at its template pose
        /// (world), under its parent bone.</summary>
        static Transform[] Rig(Transform parent, SinewBoneDesc[] descs)
        {
            var result = new Transform[descs.Length];
            for (int b = 0; b < descs.Length; b++)
            {
                SinewBoneDesc d = descs[b];
                var bone = new GameObject(((SinewHumanoidBone)b).ToString()).transform;
                bone.SetParent(d.parent >= 0 ? result[d.parent] : parent, false);
                bone.SetPositionAndRotation(new Vector3(d.position.x, d.position.y, d.position.z),
                    new Quaternion(d.rotation.x, d.rotation.y, d.rotation.z, d.rotation.w));
                result[b] = bone;
            }
            return result;
        }

        /// <summary>One mesh for the whole body, skinned: per bone a closed cylinder of its shape,
        /// every vertex weighted 1 to that bone. bindpose = bone⁻¹ · mesh-to-world.</summary>
        static void SkinBody(Transform parent, Transform[] bones, SinewBoneDesc[] descs, Material material)
        {
            const int Sides = 10;
            int perBone = 2 * Sides + 2;
            var vertices = new Vector3[bones.Length * perBone];
            var weights = new BoneWeight[vertices.Length];
            var triangles = new int[bones.Length * Sides * 12];
            int t = 0;
            for (int b = 0; b < bones.Length; b++)
            {
                SinewBoneDesc d = descs[b];
                float radius, half;
                switch ((SinewShape)d.shape)
                {
                    case SinewShape.SINEW_SHAPE_SPHERE:
                        radius = d.radius;
                        half = d.radius;
                        break;
                    case SinewShape.SINEW_SHAPE_CAPSULE:
                        radius = Mathf.Max(d.radius0, d.radius1);
                        half = d.half_height + radius;
                        break;
                    default:
                        radius = Mathf.Max(d.half_extents.x, d.half_extents.z);
                        half = d.half_extents.y;
                        break;
                }
                // In the bone's frame: the shape's offset and rotation, its axis local Y.
                Matrix4x4 shape = Matrix4x4.TRS(new Vector3(d.shape_offset.x, d.shape_offset.y, d.shape_offset.z),
                    new Quaternion(d.shape_rotation.x, d.shape_rotation.y, d.shape_rotation.z, d.shape_rotation.w), Vector3.one);
                Matrix4x4 toWorld = bones[b].localToWorldMatrix * shape;
                int first = b * perBone;
                for (int s = 0; s < Sides; s++)
                {
                    float a = 2f * Mathf.PI * s / Sides;
                    var ring = new Vector3(radius * Mathf.Cos(a), 0f, radius * Mathf.Sin(a));
                    vertices[first + s] = toWorld.MultiplyPoint3x4(ring + new Vector3(0f, -half, 0f));
                    vertices[first + Sides + s] = toWorld.MultiplyPoint3x4(ring + new Vector3(0f, half, 0f));
                }
                vertices[first + 2 * Sides] = toWorld.MultiplyPoint3x4(new Vector3(0f, -half, 0f));
                vertices[first + 2 * Sides + 1] = toWorld.MultiplyPoint3x4(new Vector3(0f, half, 0f));
                for (int v = first; v < first + perBone; v++)
                {
                    weights[v].boneIndex0 = b;
                    weights[v].weight0 = 1f;
                }
                for (int s = 0; s < Sides; s++)
                {
                    int n = (s + 1) % Sides;
                    int lo0 = first + s, lo1 = first + n, hi0 = first + Sides + s, hi1 = first + Sides + n;
                    t = Quad(triangles, t, lo0, hi0, hi1, lo1);
                    t = Triangle(triangles, t, first + 2 * Sides, lo0, lo1);
                    t = Triangle(triangles, t, first + 2 * Sides + 1, hi1, hi0);
                }
            }
            var mesh = new Mesh { name = "Generated body" };
            mesh.vertices = vertices;
            mesh.triangles = triangles;
            mesh.boneWeights = weights;
            var body = new GameObject("Body");
            body.transform.SetParent(parent, false);
            var bind = new Matrix4x4[bones.Length];
            for (int b = 0; b < bones.Length; b++)
            {
                bind[b] = bones[b].worldToLocalMatrix * body.transform.localToWorldMatrix;
            }
            mesh.bindposes = bind;
            mesh.RecalculateNormals();
            mesh.RecalculateBounds();
            var skin = body.AddComponent<SkinnedMeshRenderer>();
            skin.sharedMesh = mesh;
            skin.bones = bones;
            skin.rootBone = bones[Pelvis];
            skin.sharedMaterial = material;
        }

        /// <summary>A cape behind the spine bone, skinned to it: red marks the pinned top row, green
        /// the max distance (0 at the top, 1 at the bottom, × <see cref="capeMaxDistance"/>).</summary>
        SinewCloth Cape(Transform parent, Transform spine, Material material)
        {
            int columns = Mathf.Max(2, capeColumns), rows = Mathf.Max(2, capeRows);
            const float Width = 0.5f, Length = 0.9f;
            var capeObject = new GameObject("Cape");
            capeObject.transform.SetParent(parent, false);
            capeObject.transform.position = spine.position + new Vector3(0f, 0.22f, -0.16f);
            var vertices = new Vector3[columns * rows];
            var colors = new Color[vertices.Length];
            var weights = new BoneWeight[vertices.Length];
            var triangles = new int[(columns - 1) * (rows - 1) * 6];
            int t = 0;
            for (int r = 0; r < rows; r++)
            {
                float down = (float)r / (rows - 1);
                for (int c = 0; c < columns; c++)
                {
                    int i = r * columns + c;
                    vertices[i] = new Vector3(((float)c / (columns - 1) - 0.5f) * Width, -down * Length, -0.1f * down);
                    colors[i] = new Color(r == 0 ? 1f : 0f, down, 0f, 1f);
                    weights[i].boneIndex0 = 0;
                    weights[i].weight0 = 1f;
                    if (r > 0 && c > 0)
                    {
                        t = Quad(triangles, t, i - columns - 1, i - columns, i, i - 1);
                    }
                }
            }
            var mesh = new Mesh { name = "Generated cape" };
            mesh.vertices = vertices;
            mesh.colors = colors;
            mesh.triangles = triangles;
            mesh.boneWeights = weights;
            mesh.bindposes = new[] { spine.worldToLocalMatrix * capeObject.transform.localToWorldMatrix };
            mesh.RecalculateNormals();
            mesh.RecalculateBounds();
            var skin = capeObject.AddComponent<SkinnedMeshRenderer>();
            skin.sharedMesh = mesh;
            skin.bones = new[] { spine };
            skin.rootBone = spine;
            skin.sharedMaterial = material;

            var cloth = capeObject.AddComponent<SinewCloth>();
            cloth.world = world;
            cloth.pinSource = SinewCloth.PinSource.VertexColor;
            cloth.pinChannel = SinewCloth.ColorChannel.Red;
            cloth.maxDistanceSource = SinewCloth.MaxDistanceSource.VertexColor;
            cloth.maxDistanceChannel = SinewCloth.ColorChannel.Green;
            cloth.maxDistanceScale = capeMaxDistance;
            cloth.useBackstop = true;           // never through the back, whatever the walk does
            cloth.backstopDistance = 0.02f;
            cloth.backstopRadius = 0.5f;
            cloth.root = root;                  // inertia and teleports from the character's root
            return cloth;
        }

        /// <summary>A ponytail over the back of the head.</summary>
        void Hair(Transform head)
        {
            var hair = head.gameObject.AddComponent<SinewHair>();
            hair.world = world;
            hair.head = head;
            hair.strandCount = 24;
            hair.scalpCenter = new Vector3(0f, 0.02f, -0.02f);
            hair.scalpRadius = 0.11f;
            hair.coverage = 80f;
            hair.particlesPerStrand = 10;
            hair.segmentLength = 0.025f;
            hair.root = root;
        }

        /// <summary>A Sinew capsule of the bone's own shape, on a child placed at the shape's offset.</summary>
        void CapsuleOn(Transform bone, SinewBoneDesc d)
        {
            if ((SinewShape)d.shape != SinewShape.SINEW_SHAPE_CAPSULE)
            {
                return;
            }
            var holder = new GameObject(bone.name + " collider").transform;
            holder.SetParent(bone, false);
            holder.localPosition = new Vector3(d.shape_offset.x, d.shape_offset.y, d.shape_offset.z);
            holder.localRotation = new Quaternion(d.shape_rotation.x, d.shape_rotation.y, d.shape_rotation.z, d.shape_rotation.w);
            var capsule = holder.gameObject.AddComponent<SinewCollider>();
            capsule.world = world;
            capsule.shape = SinewCollider.Shape.Capsule;
            capsule.direction = SinewCollider.Axis.Y;
            capsule.radius0 = d.radius0;
            capsule.radius1 = d.radius1;
            capsule.halfHeight = d.half_height;
        }

        void Update()
        {
            if (Input.GetKeyDown(KeyCode.Space))
            {
                ragdoll.SetRagdoll(!ragdoll.Ragdolling);
            }
            if (Input.GetKeyDown(KeyCode.R))
            {
                // A jump of 4 m: the cape, the hair and the ragdoll are carried with the root,
                // not dragged across (their automatic teleport).
                root.position += new Vector3(root.position.x > 1f ? -4f : 4f, 0f, 0f);
            }
            if (ragdoll.Ragdolling)
            {
                return;
            }
            // The walk on the spot: legs and arms swing in opposition, the whole body turns to and
            // fro. Written into the bones' local rotations, as an Animator would.
            walkTime += Time.deltaTime;
            float phase = 2f * Mathf.PI * stepRate * 0.5f * walkTime;
            float swing = legSwing * Mathf.Sin(phase);
            root.rotation = Quaternion.Euler(0f, turn * Mathf.Sin(0.35f * phase), 0f);
            Pose(SinewHumanoidBone.SINEW_HUMANOID_LEFT_HIP, swing, 0f);
            Pose(SinewHumanoidBone.SINEW_HUMANOID_RIGHT_HIP, -swing, 0f);
            Pose(SinewHumanoidBone.SINEW_HUMANOID_LEFT_KNEE, Mathf.Max(0f, -swing) * 1.2f, 0f);
            Pose(SinewHumanoidBone.SINEW_HUMANOID_RIGHT_KNEE, Mathf.Max(0f, swing) * 1.2f, 0f);
            Pose(SinewHumanoidBone.SINEW_HUMANOID_LEFT_ARM, -0.6f * swing, 0f);
            Pose(SinewHumanoidBone.SINEW_HUMANOID_RIGHT_ARM, 0.6f * swing, 0f);
            Pose(SinewHumanoidBone.SINEW_HUMANOID_MIDDLE_SPINE, 0f, 5f * Mathf.Sin(phase));
        }

        /// <summary>The bone's bind rotation turned about the character's right axis (pitch, degrees)
        /// and its up axis (yaw), expressed in the parent's frame.</summary>
        void Pose(SinewHumanoidBone which, float pitch, float yaw)
        {
            int b = (int)which;
            Transform bone = bones[b];
            Quaternion world = Quaternion.AngleAxis(yaw, root.up) * Quaternion.AngleAxis(pitch, root.rotation * Vector3.right);
            Quaternion parent = bone.parent.rotation;
            // world rotation = turn · (parent's world rotation · bind local)
            bone.localRotation = Quaternion.Inverse(parent) * world * parent * bindLocal[b];
        }

        void OnGUI()
        {
            string state = ragdoll == null ? "" : ragdoll.Ragdolling ? (ragdoll.IsAtRest ? "ragdoll, at rest" : "ragdoll, falling") : "walking";
            GUI.Label(new Rect(10f, 10f, 600f, 60f), "Rigged character: " + state + "\nSpace: ragdoll / stand up    R: teleport 4 m (relocate)"
                + (cape != null ? "\ncape: " + cape.VertexCount + " vertices, " + cape.PinnedCount + " pinned" : ""));
        }

        static int Quad(int[] triangles, int t, int a, int b, int c, int d)
        {
            t = Triangle(triangles, t, a, b, c);
            return Triangle(triangles, t, a, c, d);
        }

        static int Triangle(int[] triangles, int t, int a, int b, int c)
        {
            triangles[t] = a;
            triangles[t + 1] = b;
            triangles[t + 2] = c;
            return t + 3;
        }
    }
}
