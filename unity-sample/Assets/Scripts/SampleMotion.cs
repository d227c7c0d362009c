// Moves the sample scene's "character" so the cape, its pins and the body collider have
// something to follow: a sway from side to side, a bob, and a turn back and forth.
using UnityEngine;

public sealed class SampleMotion : MonoBehaviour
{
    [Tooltip("Side-to-side amplitude (m).")]
    public float sway = 0.6f;

    [Tooltip("Up-and-down amplitude (m).")]
    public float bob = 0.05f;

    [Tooltip("Turn amplitude (degrees).")]
    public float turn = 40f;

    [Tooltip("Cycles per second (Hz).")]
    public float frequency = 0.4f;

    Vector3 origin;

    void Start()
    {
        origin = transform.position;
    }

    void Update()
    {
        float phase = 2f * Mathf.PI * frequency * Time.time;
        transform.position = origin + new Vector3(Mathf.Sin(phase) * sway, Mathf.Abs(Mathf.Sin(2f * phase)) * bob, 0f);
        transform.rotation = Quaternion.Euler(0f, Mathf.Sin(phase + 0.5f) * turn, 0f);
    }
}
