// Sample. Shoot humanoid SinewRagdolls with the mouse: a left click kills (Die: ragdoll at the
// hit, with the shot's impulse), a right click hits a powered ragdoll (it staggers, and a hard
// enough hit costs it its balance). Lying at rest, a body gets up again from whichever side it
// lies on (StartGetUp: GetUpFront or GetUpBack). README.md beside this file says how to set up
// the character.
using Sinew.Components;
using UnityEngine;

namespace SinewSamples
{
    /// <summary>
    /// Put on the camera (or anything) in a scene with one or more characters carrying
    /// <see cref="SinewRagdoll"/> and an Animator whose controller has the states named by
    /// <see cref="SinewRagdoll.getUpFrontClip"/> and <see cref="SinewRagdoll.getUpBackClip"/>.
    /// </summary>
    public sealed class RagdollShooting : MonoBehaviour
    {
        [Tooltip("The camera the mouse aims through. Empty: Camera.main.")]
        public Camera shooterCamera;

        [Tooltip("The ragdolls that can be shot. Empty: every SinewRagdoll in the scene at Start.")]
        public SinewRagdoll[] targets = new SinewRagdoll[0];

        [Tooltip("Impulse of a killing shot (N·s), along the shot.")]
        [Min(0f)]
        public float killImpulse = 60f;

        [Tooltip("Impulse of a hit on a powered ragdoll (N·s): a hit of the ragdolls' Hit Full Impulse or more takes Hit Strength Loss of the bone's strength.")]
        [Min(0f)]
        public float hitImpulse = 25f;

        [Tooltip("Range of a shot (m).")]
        [Min(0.1f)]
        public float range = 100f;

        [Tooltip("Seconds a ragdoll lies at rest (SinewRagdoll.IsAtRest) before it gets up.")]
        [Min(0f)]
        public float getUpDelay = 1f;

        [Tooltip("Make the targets powered ragdolls (muscles on), so that a right click staggers them.")]
        public bool poweredTargets = true;

        [Tooltip("Add a ground: a plane primitive with a Sinew plane collider at y = 0.")]
        public bool makeGround = true;

        float[] restClock = new float[0];
        string status = "Left click: kill (Die). Right click: hit a powered ragdoll. G: everyone gets up.";
        string shown = "";

        void Start()
        {
            if (shooterCamera == null)
            {
                shooterCamera = Camera.main;
            }
            if (targets == null || targets.Length == 0)
            {
                targets = FindObjectsOfType<SinewRagdoll>();
            }
            restClock = new float[targets.Length];
            for (int i = 0; i < targets.Length; i++)
            {
                targets[i].powered = poweredTargets;
                if (!targets[i].Ragdolling)
                {
                    targets[i].SetRagdoll(false);
                }
                targets[i].BalanceLost += OnBalanceLost;
                targets[i].GotUp += OnGotUp;
            }
            if (makeGround)
            {
                GameObject ground = GameObject.CreatePrimitive(PrimitiveType.Plane);
                ground.name = "Ground";
                ground.transform.localScale = new Vector3(4f, 1f, 4f);
                var plane = ground.AddComponent<SinewCollider>();
                plane.shape = SinewCollider.Shape.Plane;
            }
        }

        void OnBalanceLost(SinewRagdoll ragdoll)
        {
            Say(ragdoll.name + " lost its balance");
        }

        void OnGotUp(SinewRagdoll ragdoll)
        {
            Say(ragdoll.name + " is up again");
        }

        void Update()
        {
            if (shooterCamera != null && (Input.GetMouseButtonDown(0) || Input.GetMouseButtonDown(1)))
            {
                Shoot(shooterCamera.ScreenPointToRay(Input.mousePosition), Input.GetMouseButtonDown(0));
            }
            bool everyone = Input.GetKeyDown(KeyCode.G);
            for (int i = 0; i < targets.Length; i++)
            {
                SinewRagdoll r = targets[i];
                if (r == null || r.Native == null)
                {
                    continue;
                }
                bool lying = r.Mode == SinewRagdoll.RagdollMode.Ragdoll;
                restClock[i] = lying && r.IsAtRest ? restClock[i] + Time.deltaTime : 0f;
                if (lying && (restClock[i] >= getUpDelay || everyone))
                {
                    restClock[i] = 0f;
                    string clip = r.StartGetUp();
                    if (clip != null)
                    {
                        Say(r.name + " lies " + r.LastGetUpInfo.Side + ": plays " + clip);
                    }
                }
            }
        }

        void Shoot(Ray ray, bool kill)
        {
            SinewRagdoll best = null;
            Vector3 bestPoint = Vector3.zero;
            float bestDistance = range;
            for (int i = 0; i < targets.Length; i++)
            {
                Vector3 point;
                int bone;
                if (targets[i] != null && targets[i].Raycast(ray, bestDistance, out point, out bone))
                {
                    best = targets[i];
                    bestPoint = point;
                    bestDistance = Vector3.Dot(point - ray.origin, ray.direction.normalized);
                }
            }
            if (best == null)
            {
                return;
            }
            Vector3 along = ray.direction.normalized;
            Transform hit = kill || best.Mode == SinewRagdoll.RagdollMode.Ragdoll
                ? best.Die(bestPoint, along * killImpulse)
                : best.Hit(bestPoint, along * hitImpulse);
            Say(best.name + (kill ? " shot dead in the " : " hit in the ") + (hit != null ? hit.name : "?"));
        }

        // The text is built when something happens, not every frame.
        void Say(string text)
        {
            shown = status + "\n" + text;
        }

        void OnGUI()
        {
            GUI.Label(new Rect(10f, 10f, 900f, 60f), shown.Length > 0 ? shown : status);
        }

        void OnDestroy()
        {
            for (int i = 0; i < targets.Length; i++)
            {
                if (targets[i] != null)
                {
                    targets[i].BalanceLost -= OnBalanceLost;
                    targets[i].GotUp -= OnGotUp;
                }
            }
        }
    }
}
