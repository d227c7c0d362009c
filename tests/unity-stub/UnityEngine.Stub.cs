// COMPILE-ONLY STUB of the Unity scripting API -- not Unity, and not usable as Unity.
//
// scripts/test-unity.sh compiles every Unity script of this repository (the package's
// Runtime/, its Samples~, the sample project's Assets/, and bindings/csharp with
// UNITY_2021_2_OR_NEWER) against this file, built as UnityEngine.dll, so that a misspelt
// member, a wrong argument type or an API that Unity does not have fails the build.
//
// It declares exactly the types and members those scripts use, with the signatures of Unity's
// documented scripting API (Unity 2021.2-2022.3 ScriptReference; the page is named beside each
// member that is not obvious). Bodies are placeholders: value types (Vector3, Color, LayerMask,
// ...) hold their data so that field initialisers run (the defaults check creates components
// on Mono); everything the engine would do throws StubOnlyException. When a script needs a new
// Unity member, add it here with the documented signature -- never a made-up convenience.
//
// UnityEditor types live in UnityEditor.Stub.cs (a separate assembly, as in Unity, so that a
// runtime script using UnityEditor fails to compile).
using System;
using System.Collections.Generic;

namespace UnityEngine
{
    /// <summary>Thrown by every stub member that would need the engine.</summary>
    public sealed class StubOnlyException : Exception
    {
        public StubOnlyException()
            : base("compile-only stub of the Unity API (tests/unity-stub): this member does nothing outside Unity")
        {
        }
    }

    // ---- attributes (UnityEngine.CoreModule) ----

    [AttributeUsage(AttributeTargets.Field, Inherited = true, AllowMultiple = false)]
    public class TooltipAttribute : PropertyAttribute
    {
        public readonly string tooltip;

        public TooltipAttribute(string tooltip)
        {
            this.tooltip = tooltip;
        }
    }

    [AttributeUsage(AttributeTargets.Field, Inherited = true, AllowMultiple = true)]
    public class HeaderAttribute : PropertyAttribute
    {
        public readonly string header;

        public HeaderAttribute(string header)
        {
            this.header = header;
        }
    }

    [AttributeUsage(AttributeTargets.Field, Inherited = true, AllowMultiple = false)]
    public sealed class RangeAttribute : PropertyAttribute
    {
        public readonly float min;
        public readonly float max;

        public RangeAttribute(float min, float max)
        {
            this.min = min;
            this.max = max;
        }
    }

    // SerializeField: "Force Unity to serialize a private field."
    [AttributeUsage(AttributeTargets.Field, Inherited = true, AllowMultiple = false)]
    public sealed class SerializeField : Attribute
    {
    }

    // MinAttribute (2018.3+): "Attribute used to make a float or int variable in a script be restricted to a specific minimum value."
    [AttributeUsage(AttributeTargets.Field, Inherited = true, AllowMultiple = false)]
    public sealed class MinAttribute : PropertyAttribute
    {
        public readonly float min;

        public MinAttribute(float min)
        {
            this.min = min;
        }
    }

    [AttributeUsage(AttributeTargets.Field, Inherited = true, AllowMultiple = false)]
    public abstract class PropertyAttribute : Attribute
    {
    }

    [AttributeUsage(AttributeTargets.Class, Inherited = false)]
    public sealed class DisallowMultipleComponent : Attribute
    {
    }

    [AttributeUsage(AttributeTargets.Class, AllowMultiple = false)]
    public sealed class AddComponentMenu : Attribute
    {
        public AddComponentMenu(string menuName)
        {
        }
    }

    [AttributeUsage(AttributeTargets.Class, AllowMultiple = true)]
    public sealed class RequireComponent : Attribute
    {
        public Type m_Type0;

        public RequireComponent(Type requiredComponent)
        {
            m_Type0 = requiredComponent;
        }
    }

    // DefaultExecutionOrder: "Specifies the script execution order of a MonoBehaviour."
    [AttributeUsage(AttributeTargets.Class)]
    public class DefaultExecutionOrder : Attribute
    {
        public DefaultExecutionOrder(int order)
        {
            this.order = order;
        }

        public int order { get; }
    }

    public enum RuntimeInitializeLoadType
    {
        AfterSceneLoad = 0,
        BeforeSceneLoad = 1,
        AfterAssembliesLoaded = 2,
        BeforeSplashScreen = 3,
        SubsystemRegistration = 4,
    }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false)]
    public class RuntimeInitializeOnLoadMethodAttribute : Attribute
    {
        public RuntimeInitializeOnLoadMethodAttribute(RuntimeInitializeLoadType loadType)
        {
            this.loadType = loadType;
        }

        public RuntimeInitializeLoadType loadType { get; set; }
    }

    // ---- value types: real data, so field initialisers work ----

    public struct Vector2
    {
        public float x;
        public float y;

        public Vector2(float x, float y)
        {
            this.x = x;
            this.y = y;
        }
    }

    public struct Vector3
    {
        public float x;
        public float y;
        public float z;

        public Vector3(float x, float y, float z)
        {
            this.x = x;
            this.y = y;
            this.z = z;
        }

        public static Vector3 zero
        {
            get { return new Vector3(0f, 0f, 0f); }
        }

        public static Vector3 one
        {
            get { return new Vector3(1f, 1f, 1f); }
        }

        public static Vector3 up
        {
            get { return new Vector3(0f, 1f, 0f); }
        }

        public static Vector3 down
        {
            get { return new Vector3(0f, -1f, 0f); }
        }

        public static Vector3 right
        {
            get { return new Vector3(1f, 0f, 0f); }
        }

        public static Vector3 forward
        {
            get { return new Vector3(0f, 0f, 1f); }
        }

        public float sqrMagnitude
        {
            get { return x * x + y * y + z * z; }
        }

        public Vector3 normalized
        {
            get { throw new StubOnlyException(); }
        }

        public static Vector3 Lerp(Vector3 a, Vector3 b, float t)
        {
            throw new StubOnlyException();
        }

        // Vector3.Dot: "Dot Product of two vectors."
        public static float Dot(Vector3 lhs, Vector3 rhs)
        {
            return lhs.x * rhs.x + lhs.y * rhs.y + lhs.z * rhs.z;
        }

        // Vector3.Cross: "Cross Product of two vectors."
        public static Vector3 Cross(Vector3 lhs, Vector3 rhs)
        {
            return new Vector3(lhs.y * rhs.z - lhs.z * rhs.y, lhs.z * rhs.x - lhs.x * rhs.z, lhs.x * rhs.y - lhs.y * rhs.x);
        }

        public static Vector3 operator +(Vector3 a, Vector3 b)
        {
            return new Vector3(a.x + b.x, a.y + b.y, a.z + b.z);
        }

        public static Vector3 operator -(Vector3 a, Vector3 b)
        {
            return new Vector3(a.x - b.x, a.y - b.y, a.z - b.z);
        }

        public static Vector3 operator -(Vector3 a)
        {
            return new Vector3(-a.x, -a.y, -a.z);
        }

        public static Vector3 operator *(Vector3 a, float d)
        {
            return new Vector3(a.x * d, a.y * d, a.z * d);
        }

        public static Vector3 operator *(float d, Vector3 a)
        {
            return new Vector3(a.x * d, a.y * d, a.z * d);
        }
    }

    // Vector4 (x, y, z, w): the type of Mesh.tangents.
    public struct Vector4
    {
        public float x;
        public float y;
        public float z;
        public float w;

        public Vector4(float x, float y, float z, float w)
        {
            this.x = x;
            this.y = y;
            this.z = z;
            this.w = w;
        }
    }

    public struct Quaternion
    {
        public float x;
        public float y;
        public float z;
        public float w;

        public Quaternion(float x, float y, float z, float w)
        {
            this.x = x;
            this.y = y;
            this.z = z;
            this.w = w;
        }

        public static Quaternion identity
        {
            get { return new Quaternion(0f, 0f, 0f, 1f); }
        }

        public static Quaternion Euler(float x, float y, float z)
        {
            throw new StubOnlyException();
        }

        // Quaternion.AngleAxis(float angle, Vector3 axis): "Creates a rotation which rotates angle degrees around axis."
        public static Quaternion AngleAxis(float angle, Vector3 axis)
        {
            throw new StubOnlyException();
        }

        public static Quaternion Inverse(Quaternion rotation)
        {
            throw new StubOnlyException();
        }

        // Quaternion.FromToRotation(Vector3 fromDirection, Vector3 toDirection): "Creates a rotation
        // which rotates from fromDirection to toDirection."
        public static Quaternion FromToRotation(Vector3 fromDirection, Vector3 toDirection)
        {
            throw new StubOnlyException();
        }

        // Quaternion.LookRotation(Vector3 forward): "Creates a rotation with the specified forward direction" (up = Vector3.up).
        public static Quaternion LookRotation(Vector3 forward)
        {
            throw new StubOnlyException();
        }

        public static Quaternion operator *(Quaternion lhs, Quaternion rhs)
        {
            throw new StubOnlyException();
        }

        // Quaternion * Vector3: "Rotates the point point with rotation."
        public static Vector3 operator *(Quaternion rotation, Vector3 point)
        {
            throw new StubOnlyException();
        }
    }

    // Unity declares the 16 floats column by column (m00, m10, m20, m30, m01, ...): 64 bytes,
    // column-major, the layout of SinewMat4.
    public struct Matrix4x4
    {
        public float m00;
        public float m10;
        public float m20;
        public float m30;
        public float m01;
        public float m11;
        public float m21;
        public float m31;
        public float m02;
        public float m12;
        public float m22;
        public float m32;
        public float m03;
        public float m13;
        public float m23;
        public float m33;

        public static Matrix4x4 identity
        {
            get
            {
                Matrix4x4 m = default(Matrix4x4);
                m.m00 = 1f;
                m.m11 = 1f;
                m.m22 = 1f;
                m.m33 = 1f;
                return m;
            }
        }

        public static Matrix4x4 TRS(Vector3 pos, Quaternion q, Vector3 s)
        {
            throw new StubOnlyException();
        }

        public static Matrix4x4 Translate(Vector3 vector)
        {
            throw new StubOnlyException();
        }

        public Vector3 MultiplyPoint3x4(Vector3 point)
        {
            throw new StubOnlyException();
        }

        public Vector3 MultiplyVector(Vector3 vector)
        {
            throw new StubOnlyException();
        }

        public static Matrix4x4 operator *(Matrix4x4 lhs, Matrix4x4 rhs)
        {
            throw new StubOnlyException();
        }
    }

    // Ray: "Representation of rays" -- Ray(Vector3 origin, Vector3 direction); direction is normalised.
    public struct Ray
    {
        public Ray(Vector3 origin, Vector3 direction)
        {
            this = default(Ray);
            this.origin = origin;
            this.direction = direction;
        }

        public Vector3 origin { get; set; }

        public Vector3 direction { get; set; }

        public Vector3 GetPoint(float distance)
        {
            throw new StubOnlyException();
        }
    }

    // Bounds: an axis-aligned box, Bounds(Vector3 center, Vector3 size).

    public struct Bounds
    {
        public Bounds(Vector3 center, Vector3 size)
        {
            this = default(Bounds);
            this.center = center;
            extents = size * 0.5f;
        }

        public Vector3 center { get; set; }

        public Vector3 extents { get; set; }
    }

    public struct Color
    {
        public float r;
        public float g;
        public float b;
        public float a;

        public Color(float r, float g, float b, float a)
        {
            this.r = r;
            this.g = g;
            this.b = b;
            this.a = a;
        }

        // Color.green: "Solid green. RGBA is (0, 1, 0, 1)."
        public static Color green
        {
            get { return new Color(0f, 1f, 0f, 1f); }
        }

        // Color.red: "Solid red. RGBA is (1, 0, 0, 1)."
        public static Color red
        {
            get { return new Color(1f, 0f, 0f, 1f); }
        }

        // Color.Lerp(Color a, Color b, float t): "Linearly interpolates between colors a and b by t" (t clamped to [0, 1]).
        public static Color Lerp(Color a, Color b, float t)
        {
            throw new StubOnlyException();
        }
    }

    public struct Rect
    {
        public Rect(float x, float y, float width, float height)
        {
            this.x = x;
            this.y = y;
            this.width = width;
            this.height = height;
        }

        public float x { get; set; }

        public float y { get; set; }

        public float width { get; set; }

        public float height { get; set; }
    }

    // LayerMask: "Specifies Layers to use in a Physics.Raycast"; implicit conversions to and from int.
    public struct LayerMask
    {
        int m_Mask;

        public int value
        {
            get { return m_Mask; }
            set { m_Mask = value; }
        }

        public static implicit operator int(LayerMask mask)
        {
            return mask.m_Mask;
        }

        public static implicit operator LayerMask(int intVal)
        {
            LayerMask mask;
            mask.m_Mask = intVal;
            return mask;
        }
    }

    // BoneWeight: weight0..3 and boneIndex0..3 are properties over the private fields m_Weight0..3
    // then m_BoneIndex0..3, in that order (UnityEngine.CoreModule): 32 bytes, the layout of
    // SinewBoneWeight, so a BoneWeight[] passes to Body.SetSkinning as it is.
    public struct BoneWeight
    {
        float m_Weight0;
        float m_Weight1;
        float m_Weight2;
        float m_Weight3;
        int m_BoneIndex0;
        int m_BoneIndex1;
        int m_BoneIndex2;
        int m_BoneIndex3;

        public float weight0
        {
            get { return m_Weight0; }
            set { m_Weight0 = value; }
        }

        public float weight1
        {
            get { return m_Weight1; }
            set { m_Weight1 = value; }
        }

        public float weight2
        {
            get { return m_Weight2; }
            set { m_Weight2 = value; }
        }

        public float weight3
        {
            get { return m_Weight3; }
            set { m_Weight3 = value; }
        }

        public int boneIndex0
        {
            get { return m_BoneIndex0; }
            set { m_BoneIndex0 = value; }
        }

        public int boneIndex1
        {
            get { return m_BoneIndex1; }
            set { m_BoneIndex1 = value; }
        }

        public int boneIndex2
        {
            get { return m_BoneIndex2; }
            set { m_BoneIndex2 = value; }
        }

        public int boneIndex3
        {
            get { return m_BoneIndex3; }
            set { m_BoneIndex3 = value; }
        }
    }

    // ClothSkinningCoefficient: public fields maxDistance and collisionSphereDistance.
    public struct ClothSkinningCoefficient
    {
        public float maxDistance;
        public float collisionSphereDistance;
    }

    [Flags]
    public enum HideFlags
    {
        None = 0,
        HideInHierarchy = 1,
        HideInInspector = 2,
        DontSaveInEditor = 4,
        NotEditable = 8,
        DontSaveInBuild = 16,
        DontUnloadUnusedAsset = 32,
        DontSave = 52,
        HideAndDontSave = 61,
    }

    public enum PrimitiveType
    {
        Sphere = 0,
        Capsule = 1,
        Cylinder = 2,
        Cube = 3,
        Plane = 4,
        Quad = 5,
    }

    // ---- static classes ----

    public static class Mathf
    {
        public const float PI = 3.14159274f;

        // Mathf.Deg2Rad: "Degrees-to-radians conversion constant (Read Only)", PI * 2 / 360.
        public const float Deg2Rad = 0.0174532924f;

        // Mathf.Rad2Deg: "Radians-to-degrees conversion constant (Read Only)", 360 / (PI * 2).
        public const float Rad2Deg = 57.29578f;

        // Mathf.Atan2(float y, float x): "Returns the angle in radians whose Tan is y/x."
        public static float Atan2(float y, float x)
        {
            return (float)Math.Atan2(y, x);
        }

        // Mathf.Clamp01: "Clamps value between 0 and 1 and returns value."
        public static float Clamp01(float value)
        {
            return value < 0f ? 0f : value > 1f ? 1f : value;
        }

        public static float Cos(float f)
        {
            return (float)Math.Cos(f);
        }

        public static float Sin(float f)
        {
            return (float)Math.Sin(f);
        }

        public static float Sqrt(float f)
        {
            return (float)Math.Sqrt(f);
        }

        public static float Abs(float f)
        {
            return Math.Abs(f);
        }

        public static int Max(int a, int b)
        {
            return Math.Max(a, b);
        }

        public static float Max(float a, float b)
        {
            return Math.Max(a, b);
        }

        public static float Min(float a, float b)
        {
            return Math.Min(a, b);
        }

        public static int Clamp(int value, int min, int max)
        {
            return value < min ? min : value > max ? max : value;
        }

        public static float Clamp(float value, float min, float max)
        {
            return value < min ? min : value > max ? max : value;
        }

        public static int CeilToInt(float f)
        {
            return (int)Math.Ceiling(f);
        }

        public static int RoundToInt(float f)
        {
            return (int)Math.Round(f);
        }
    }

    public class Time
    {
        public static float deltaTime
        {
            get { throw new StubOnlyException(); }
        }

        public static float time
        {
            get { throw new StubOnlyException(); }
        }

        public static float unscaledTime
        {
            get { throw new StubOnlyException(); }
        }

        // Time.fixedDeltaTime: "The interval in seconds at which physics and other fixed frame rate updates are performed."
        public static float fixedDeltaTime
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }
    }

    public class Debug
    {
        public static void Log(object message, Object context)
        {
            throw new StubOnlyException();
        }

        public static void LogWarning(object message)
        {
            throw new StubOnlyException();
        }

        public static void LogWarning(object message, Object context)
        {
            throw new StubOnlyException();
        }

        public static void LogError(object message, Object context)
        {
            throw new StubOnlyException();
        }

        public static void LogException(Exception exception, Object context)
        {
            throw new StubOnlyException();
        }
    }

    public class Physics
    {
        public static Vector3 gravity
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }
    }

    // Input (the Input Manager, UnityEngine.InputLegacyModule).
    public class Input
    {
        // Input.mousePosition: "The current mouse position in pixel coordinates."
        public static Vector3 mousePosition
        {
            get { throw new StubOnlyException(); }
        }

        // Input.GetMouseButtonDown(int button): "Returns true during the frame the user pressed the given mouse button."
        public static bool GetMouseButtonDown(int button)
        {
            throw new StubOnlyException();
        }

        // Input.GetKeyDown(KeyCode key): "Returns true during the frame the user starts pressing down the key."
        public static bool GetKeyDown(KeyCode key)
        {
            throw new StubOnlyException();
        }
    }

    // KeyCode: the members used (values are Unity's).
    public enum KeyCode
    {
        None = 0,
        Space = 32,
        G = 103,
        K = 107,
        R = 114,
    }

    // ForceMode: "Use ForceMode to specify how to apply a force using Rigidbody.AddForce."
    public enum ForceMode
    {
        Force = 0,
        Acceleration = 5,
        Impulse = 1,
        VelocityChange = 2,
    }

    public class Application
    {
        public static string persistentDataPath
        {
            get { throw new StubOnlyException(); }
        }

        public static string unityVersion
        {
            get { throw new StubOnlyException(); }
        }
    }

    public sealed class SystemInfo
    {
        public static string processorType
        {
            get { throw new StubOnlyException(); }
        }

        public static int processorCount
        {
            get { throw new StubOnlyException(); }
        }
    }

    // GUIContent: "The contents of a GUI element" -- GUIContent(string text), GUIContent(string text, string tooltip).
    public class GUIContent
    {
        public GUIContent(string text, string tooltip)
        {
        }
    }

    // GUIStyle: "Styling information for GUI elements."
    public class GUIStyle
    {
    }

    // GUILayoutOption: "Class internally used to pass layout options into GUILayout functions."
    public sealed class GUILayoutOption
    {
    }

    // GUILayout: "The GUILayout class is the interface for Unity gui with automatic layout."
    public class GUILayout
    {
        public static bool Button(string text, params GUILayoutOption[] options)
        {
            throw new StubOnlyException();
        }

        // GUILayout.Toolbar(int selected, string[] texts, params GUILayoutOption[] options): "Make a toolbar."
        public static int Toolbar(int selected, string[] texts, params GUILayoutOption[] options)
        {
            throw new StubOnlyException();
        }

        public static void BeginHorizontal(params GUILayoutOption[] options)
        {
            throw new StubOnlyException();
        }

        public static void EndHorizontal()
        {
            throw new StubOnlyException();
        }

        public static Vector2 BeginScrollView(Vector2 scrollPosition, params GUILayoutOption[] options)
        {
            throw new StubOnlyException();
        }

        public static void EndScrollView()
        {
            throw new StubOnlyException();
        }

        // GUILayout.Width(float width): "Option passed to a control to give it an absolute width."
        public static GUILayoutOption Width(float width)
        {
            throw new StubOnlyException();
        }
    }

    // FocusType: "Used by GUIUtility.GetControlID to inform the IMGUI system if a given control can get keyboard focus."
    public enum FocusType
    {
        Keyboard = 1,
        Passive = 2,
    }

    // GUIUtility: "Utility class for making new GUI controls."
    public class GUIUtility
    {
        // GUIUtility.GetControlID(FocusType focus): "Get a unique ID for a control."
        public static int GetControlID(FocusType focus)
        {
            throw new StubOnlyException();
        }

        // GUIUtility.hotControl: "The controlID of the current hot control."
        public static int hotControl
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }
    }

    // EventType: "Types of UnityGUI input and processing events" (Unity's values).
    public enum EventType
    {
        MouseDown = 0,
        MouseUp = 1,
        MouseMove = 2,
        MouseDrag = 3,
        KeyDown = 4,
        KeyUp = 5,
        ScrollWheel = 6,
        Repaint = 7,
        Layout = 8,
        Used = 12,
        MouseLeaveWindow = 21,
    }

    // Event: "A UnityGUI event."
    public sealed class Event
    {
        public static Event current
        {
            get { throw new StubOnlyException(); }
        }

        public EventType type
        {
            get { throw new StubOnlyException(); }
        }

        public int button
        {
            get { throw new StubOnlyException(); }
        }

        public bool alt
        {
            get { throw new StubOnlyException(); }
        }

        public Vector2 mousePosition
        {
            get { throw new StubOnlyException(); }
        }

        // Event.GetTypeForControl(int controlID): "Get a filtered event type for a given control ID."
        public EventType GetTypeForControl(int controlID)
        {
            throw new StubOnlyException();
        }

        // Event.Use(): "Use this event" (no other control handles it).
        public void Use()
        {
            throw new StubOnlyException();
        }
    }

    public class GUI
    {
        public static void Label(Rect position, string text)
        {
            throw new StubOnlyException();
        }
    }

    public sealed class Gizmos
    {
        public static Color color
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public static Matrix4x4 matrix
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public static void DrawLine(Vector3 from, Vector3 to)
        {
            throw new StubOnlyException();
        }

        public static void DrawWireSphere(Vector3 center, float radius)
        {
            throw new StubOnlyException();
        }

        public static void DrawWireCube(Vector3 center, Vector3 size)
        {
            throw new StubOnlyException();
        }
    }

    // ---- objects ----

    public class Object
    {
        public string name
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public HideFlags hideFlags
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public static void Destroy(Object obj)
        {
            throw new StubOnlyException();
        }

        // Object.DestroyImmediate(Object obj, bool allowDestroyingAssets = false): "Destroys the object
        // obj immediately" (editor code: Destroy is deferred to the end of a frame that never comes).
        public static void DestroyImmediate(Object obj, bool allowDestroyingAssets = false)
        {
            throw new StubOnlyException();
        }

        public static T Instantiate<T>(T original)
            where T : Object
        {
            throw new StubOnlyException();
        }

        public static T FindObjectOfType<T>()
            where T : Object
        {
            throw new StubOnlyException();
        }

        // Object.FindObjectsOfType<T>(): "Gets a list of all loaded objects of Type type" (active ones).
        public static T[] FindObjectsOfType<T>()
            where T : Object
        {
            throw new StubOnlyException();
        }

        // Unity compares with the native object's liveness: a destroyed object equals null.
        public static bool operator ==(Object x, Object y)
        {
            return ReferenceEquals(x, y);
        }

        public static bool operator !=(Object x, Object y)
        {
            return !ReferenceEquals(x, y);
        }

        public static implicit operator bool(Object exists)
        {
            return !ReferenceEquals(exists, null);
        }

        public override bool Equals(object other)
        {
            return ReferenceEquals(this, other);
        }

        public override int GetHashCode()
        {
            return 0;
        }
    }

    public class Component : Object
    {
        public Transform transform
        {
            get { throw new StubOnlyException(); }
        }

        public GameObject gameObject
        {
            get { throw new StubOnlyException(); }
        }

        public T GetComponent<T>()
        {
            throw new StubOnlyException();
        }
    }

    public class Behaviour : Component
    {
        public bool enabled
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }
    }

    public class MonoBehaviour : Behaviour
    {
    }

    // HumanBodyBones: "Human Body Bones" (the values are Unity's; LastBone is 55).
    public enum HumanBodyBones
    {
        Hips = 0,
        LeftUpperLeg = 1,
        RightUpperLeg = 2,
        LeftLowerLeg = 3,
        RightLowerLeg = 4,
        LeftFoot = 5,
        RightFoot = 6,
        Spine = 7,
        Chest = 8,
        Neck = 9,
        Head = 10,
        LeftShoulder = 11,
        RightShoulder = 12,
        LeftUpperArm = 13,
        RightUpperArm = 14,
        LeftLowerArm = 15,
        RightLowerArm = 16,
        LeftHand = 17,
        RightHand = 18,
        UpperChest = 54,
        LastBone = 55,
    }

    // ---- animation clips (UnityEngine.AnimationModule) ----
    // Unlike the rest of this stub, AnimationClip, AnimationCurve and Keyframe hold their data
    // (and UnityEditor.AnimationUtility's curve calls record them per clip), so that
    // tests/csharp/ClipBakeTests.cs can read back the curves the package's baker writes.

    // Keyframe: "A single keyframe that can be injected into an animation curve."
    public struct Keyframe
    {
        // Keyframe(float time, float value, float inTangent, float outTangent): "Create a keyframe."
        public Keyframe(float time, float value, float inTangent, float outTangent)
        {
            this.time = time;
            this.value = value;
            this.inTangent = inTangent;
            this.outTangent = outTangent;
        }

        public float time { get; set; }

        public float value { get; set; }

        public float inTangent { get; set; }

        public float outTangent { get; set; }
    }

    // AnimationCurve: "Store a collection of Keyframes that can be evaluated over time."
    public class AnimationCurve
    {
        Keyframe[] stored;

        // AnimationCurve(params Keyframe[] keys): "Creates an animation curve from an arbitrary number of keyframes."
        public AnimationCurve(params Keyframe[] keys)
        {
            stored = (Keyframe[])keys.Clone();
        }

        // AnimationCurve.keys: "All keys defined in the animation curve." (a copy)
        public Keyframe[] keys
        {
            get { return (Keyframe[])stored.Clone(); }
            set { stored = (Keyframe[])value.Clone(); }
        }

        // AnimationCurve.length: "The number of keys in the curve. (Read Only)"
        public int length
        {
            get { return stored.Length; }
        }
    }

    // Motion: "Base class for AnimationClips and BlendTrees."
    public class Motion : Object
    {
    }

    // AnimationClip: "Stores keyframe based animations."
    public class AnimationClip : Motion
    {
        // AnimationClip.frameRate: "Frame rate at which keyframes are sampled. (Read Only)" (settable in the editor API)
        public float frameRate { get; set; }
    }

    // Animator: "Interface to control the Mecanim animation system."
    public class Animator : Behaviour
    {
        // Animator.isHuman: "Returns true if the current rig is humanoid, false if it is generic."
        public bool isHuman
        {
            get { throw new StubOnlyException(); }
        }

        // Animator.GetBoneTransform: "Returns Transform mapped to this human bone id" (null if unmapped).
        public Transform GetBoneTransform(HumanBodyBones humanBoneId)
        {
            throw new StubOnlyException();
        }

        // Animator.Play(string stateName, int layer = -1, float normalizedTime = float.NegativeInfinity):
        // "Plays a state."
        public void Play(string stateName, int layer = -1, float normalizedTime = float.NegativeInfinity)
        {
            throw new StubOnlyException();
        }
    }

    public sealed class GameObject : Object
    {
        public GameObject(string name)
        {
        }

        public Transform transform
        {
            get { throw new StubOnlyException(); }
        }

        public int layer
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public T AddComponent<T>()
            where T : Component
        {
            throw new StubOnlyException();
        }

        public T GetComponent<T>()
        {
            throw new StubOnlyException();
        }

        public static GameObject CreatePrimitive(PrimitiveType type)
        {
            throw new StubOnlyException();
        }
    }

    public class Transform : Component
    {
        public Vector3 position
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Quaternion rotation
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Vector3 localPosition
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Vector3 localScale
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // Transform.localRotation: "The rotation of the transform relative to the transform rotation of the parent."
        public Quaternion localRotation
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // Transform.parent: "The parent of the transform."
        public Transform parent
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Vector3 lossyScale
        {
            get { throw new StubOnlyException(); }
        }

        // Transform.up: "The green axis of the transform in world space."
        public Vector3 up
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // Transform.forward: "Returns a normalized vector representing the blue axis of the transform in world space."
        public Vector3 forward
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Matrix4x4 localToWorldMatrix
        {
            get { throw new StubOnlyException(); }
        }

        public Matrix4x4 worldToLocalMatrix
        {
            get { throw new StubOnlyException(); }
        }

        public void SetParent(Transform parent, bool worldPositionStays)
        {
            throw new StubOnlyException();
        }

        public void SetPositionAndRotation(Vector3 position, Quaternion rotation)
        {
            throw new StubOnlyException();
        }

        public void LookAt(Vector3 worldPosition)
        {
            throw new StubOnlyException();
        }

        // Transform.TransformPoint(Vector3 position): "Transforms position from local space to world space."
        public Vector3 TransformPoint(Vector3 position)
        {
            throw new StubOnlyException();
        }

        // Transform.InverseTransformPoint(Vector3 position): "Transforms position from world space to local space."
        public Vector3 InverseTransformPoint(Vector3 position)
        {
            throw new StubOnlyException();
        }
    }

    public sealed class Mesh : Object
    {
        public Mesh()
        {
        }

        public int vertexCount
        {
            get { throw new StubOnlyException(); }
        }

        public bool isReadable
        {
            get { throw new StubOnlyException(); }
        }

        public Vector3[] vertices
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Vector3[] normals
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Vector2[] uv
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Color[] colors
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public int[] triangles
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public BoneWeight[] boneWeights
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Matrix4x4[] bindposes
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Bounds bounds
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public void RecalculateBounds()
        {
            throw new StubOnlyException();
        }

        // Mesh.RecalculateNormals: "Recalculates the normals of the Mesh from the triangles and vertices."
        public void RecalculateNormals()
        {
            throw new StubOnlyException();
        }

        public void MarkDynamic()
        {
            throw new StubOnlyException();
        }

        public void GetVertices(List<Vector3> vertices)
        {
            throw new StubOnlyException();
        }

        public void SetVertices(Vector3[] inVertices)
        {
            throw new StubOnlyException();
        }

        public void SetNormals(Vector3[] inNormals)
        {
            throw new StubOnlyException();
        }

        // Mesh.tangents: "The tangents of the Mesh" (Vector4, w = bitangent sign).
        public Vector4[] tangents
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // Mesh.subMeshCount: "The number of sub-meshes inside the Mesh object."
        public int subMeshCount
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // Mesh.indexFormat: "Format of the mesh index buffer data" (UInt16 by default).
        public Rendering.IndexFormat indexFormat
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // Mesh.GetIndexCount(int submesh): "Gets the index count of the given sub-mesh."
        public uint GetIndexCount(int submesh)
        {
            throw new StubOnlyException();
        }

        // Mesh.SetVertices(Vector3[] inVertices, int start, int length, MeshUpdateFlags flags = MeshUpdateFlags.Default)
        // (2019.3+): "Sets the vertex positions of the Mesh, using a part of the input array."
        public void SetVertices(Vector3[] inVertices, int start, int length, Rendering.MeshUpdateFlags flags = Rendering.MeshUpdateFlags.Default)
        {
            throw new StubOnlyException();
        }

        // Mesh.SetNormals(Vector3[] inNormals, int start, int length, MeshUpdateFlags flags = MeshUpdateFlags.Default).
        public void SetNormals(Vector3[] inNormals, int start, int length, Rendering.MeshUpdateFlags flags = Rendering.MeshUpdateFlags.Default)
        {
            throw new StubOnlyException();
        }

        // Mesh.SetUVs(int channel, Vector2[] uvs, int start, int length, MeshUpdateFlags flags = MeshUpdateFlags.Default).
        public void SetUVs(int channel, Vector2[] uvs, int start, int length, Rendering.MeshUpdateFlags flags = Rendering.MeshUpdateFlags.Default)
        {
            throw new StubOnlyException();
        }

        // Mesh.SetColors(Color[] inColors, int start, int length, MeshUpdateFlags flags = MeshUpdateFlags.Default).
        public void SetColors(Color[] inColors, int start, int length, Rendering.MeshUpdateFlags flags = Rendering.MeshUpdateFlags.Default)
        {
            throw new StubOnlyException();
        }

        // Mesh.SetTangents(Vector4[] inTangents, int start, int length, MeshUpdateFlags flags = MeshUpdateFlags.Default).
        public void SetTangents(Vector4[] inTangents, int start, int length, Rendering.MeshUpdateFlags flags = Rendering.MeshUpdateFlags.Default)
        {
            throw new StubOnlyException();
        }

        // Mesh.SetTriangles(int[] triangles, int trianglesStart, int trianglesLength, int submesh,
        // bool calculateBounds = true, int baseVertex = 0) (2019.3+).
        public void SetTriangles(int[] triangles, int trianglesStart, int trianglesLength, int submesh, bool calculateBounds = true, int baseVertex = 0)
        {
            throw new StubOnlyException();
        }
    }

    public class Material : Object
    {
    }

    // ScriptableObject: "A class you can derive from if you want to create objects that live
    // independently of GameObjects" (asset data).
    public class ScriptableObject : Object
    {
        // ScriptableObject.CreateInstance<T>(): "Creates an instance of a scriptable object."
        public static T CreateInstance<T>()
            where T : ScriptableObject
        {
            throw new StubOnlyException();
        }
    }

    // CreateAssetMenuAttribute: "Mark a ScriptableObject-derived type to be automatically listed
    // in the Assets/Create submenu" (fileName, menuName, order are properties).
    [AttributeUsage(AttributeTargets.Class, Inherited = false, AllowMultiple = false)]
    public sealed class CreateAssetMenuAttribute : Attribute
    {
        public string fileName { get; set; }

        public string menuName { get; set; }

        public int order { get; set; }
    }

    public sealed class MeshFilter : Component
    {
        public Mesh sharedMesh
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }
    }

    public class Renderer : Component
    {
        public Material sharedMaterial
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Material[] sharedMaterials
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Rendering.ShadowCastingMode shadowCastingMode
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public bool receiveShadows
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // Renderer.forceRenderingOff (2019.3+): "Allows turning off rendering for a specific component."
        public bool forceRenderingOff
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }
    }

    public class MeshRenderer : Renderer
    {
    }

    public class SkinnedMeshRenderer : Renderer
    {
        public Mesh sharedMesh
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Transform[] bones
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Transform rootBone
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // SkinnedMeshRenderer.BakeMesh(Mesh mesh, bool useScale) (2020.2+).
        public void BakeMesh(Mesh mesh, bool useScale)
        {
            throw new StubOnlyException();
        }
    }

    public sealed class LineRenderer : Renderer
    {
        public bool useWorldSpace
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public int positionCount
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public float startWidth
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public float endWidth
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public void SetPositions(Vector3[] positions)
        {
            throw new StubOnlyException();
        }
    }

    public sealed class Camera : Behaviour
    {
        // Camera.CameraCallback: "Delegate type for camera callbacks."
        public delegate void CameraCallback(Camera cam);

        // Camera.onPreCull: "Delegate that you can use to execute custom code before a Camera
        // culls the scene" (Built-in Render Pipeline only).
        public static CameraCallback onPreCull;

        // Camera.ScreenPointToRay(Vector3 pos): "Returns a ray going from camera through a screen point."
        public Ray ScreenPointToRay(Vector3 pos)
        {
            throw new StubOnlyException();
        }

        public static Camera main

        {
            get { throw new StubOnlyException(); }
        }
    }

    public class Collider : Component
    {
        // Collider.enabled: "Enabled Colliders will collide with other Colliders, disabled Colliders won't."
        public bool enabled
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }
    }

    public sealed class CapsuleCollider : Collider
    {
        // CapsuleCollider.direction: "The direction of the capsule" (0 X, 1 Y, 2 Z).
        public int direction
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Vector3 center
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public float radius
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public float height
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }
    }

    public sealed class SphereCollider : Collider
    {
        public Vector3 center
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public float radius
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }
    }

    public sealed class BoxCollider : Collider
    {
        public Vector3 center
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Vector3 size
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }
    }

    // Rigidbody (UnityEngine.PhysicsModule).
    public sealed class Rigidbody : Component
    {
        public float mass
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // Rigidbody.AddExplosionForce(float explosionForce, Vector3 explosionPosition, float explosionRadius,
        // float upwardsModifier = 0.0f, ForceMode mode = ForceMode.Force).
        public void AddExplosionForce(float explosionForce, Vector3 explosionPosition, float explosionRadius,
            float upwardsModifier = 0f, ForceMode mode = ForceMode.Force)
        {
            throw new StubOnlyException();
        }
    }

    // JointLimits: min, max (degrees) of HingeJoint.limits.
    public struct JointLimits
    {
        public float min { get; set; }

        public float max { get; set; }
    }

    // SoftJointLimit: limit (degrees) of CharacterJoint's twist and swing limits.
    public struct SoftJointLimit
    {
        public float limit { get; set; }
    }

    // Joint: "Joint is the base class for all joints."
    public class Joint : Component
    {
        public Rigidbody connectedBody
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Vector3 axis
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Vector3 anchor
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }
    }

    public sealed class HingeJoint : Joint
    {
        public bool useLimits
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public JointLimits limits
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }
    }

    public sealed class CharacterJoint : Joint
    {
        public Vector3 swingAxis
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public SoftJointLimit lowTwistLimit
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public SoftJointLimit highTwistLimit
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public SoftJointLimit swing1Limit
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public SoftJointLimit swing2Limit
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }
    }

    // WindZoneMode (UnityEngine.WindModule): "Modes a Wind Zone can have, either Spherical or Directional."
    public enum WindZoneMode
    {
        Directional = 0,
        Spherical = 1,
    }

    // WindZone (UnityEngine.WindModule), inherits from Component.
    public class WindZone : Component
    {
        public WindZoneMode mode
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // windMain: "The primary wind force."
        public float windMain
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // windTurbulence: "The turbulence wind force."
        public float windTurbulence
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // windPulseMagnitude: "Defines how much the wind changes over time."
        public float windPulseMagnitude
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }
    }

    // UnityEngine.Cloth (UnityEngine.ClothModule), [RequireComponent(typeof(Transform), typeof(SkinnedMeshRenderer))].
    public sealed class Cloth : Component
    {
        public float clothSolverFrequency
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public float stretchingStiffness
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public float bendingStiffness
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public bool useTethers
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public bool useGravity
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public float damping
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public float worldVelocityScale
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public float worldAccelerationScale
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public float friction
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public float collisionMassScale
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // Cloth.useVirtualParticles is a float (0 = off, 1 = one virtual particle per triangle).
        public float useVirtualParticles
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public bool enableContinuousCollision
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public float sleepThreshold
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Vector3 externalAcceleration
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Vector3 randomAcceleration
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public CapsuleCollider[] capsuleColliders
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public Vector3[] vertices
        {
            get { throw new StubOnlyException(); }
        }

        public ClothSkinningCoefficient[] coefficients
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // Cloth.sphereColliders: "An array of ClothSphereColliderPairs which this Cloth instance should collide with."
        public ClothSphereColliderPair[] sphereColliders
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // Cloth.selfCollisionDistance: "Minimum distance at which two cloth particles repel each other (default: 0.0)."
        public float selfCollisionDistance
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // Cloth.selfCollisionStiffness: "how strong the separating impulse should be for colliding particles."
        public float selfCollisionStiffness
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // Cloth.enabled: "Is this cloth enabled?"
        public bool enabled
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }
    }

    // ClothSphereColliderPair: "A pair of SphereColliders used to define shapes for Cloth objects
    // to collide against" (properties first and second; second may be null: one sphere).
    public struct ClothSphereColliderPair
    {
        public SphereCollider first { get; set; }

        public SphereCollider second { get; set; }
    }
}

namespace UnityEngine.Rendering
{
    // IndexFormat: "Format of the mesh index buffer data."
    public enum IndexFormat
    {
        UInt16 = 0,
        UInt32 = 1,
    }

    // MeshUpdateFlags ([Flags]): "Mesh data update flags."
    [Flags]
    public enum MeshUpdateFlags
    {
        Default = 0,
        DontValidateIndices = 1,
        DontResetBoneBounds = 2,
        DontNotifyMeshUsers = 4,
        DontRecalculateBounds = 8,
    }

    public enum ShadowCastingMode
    {
        Off = 0,
        On = 1,
        TwoSided = 2,
        ShadowsOnly = 3,
    }

    public struct ScriptableRenderContext
    {
    }

    // RenderPipelineManager.beginContextRendering: "public static event
    // Action<ScriptableRenderContext, List<Camera>> beginContextRendering" (2021.1+; called by
    // URP, HDRP and custom SRPs, not by the Built-in Render Pipeline).
    public static class RenderPipelineManager
    {
        public static event Action<ScriptableRenderContext, List<Camera>> beginContextRendering
        {
            add { throw new StubOnlyException(); }
            remove { throw new StubOnlyException(); }
        }
    }
}

namespace UnityEngine.SceneManagement
{
    public struct Scene
    {
        public string path
        {
            get { throw new StubOnlyException(); }
        }

        public bool isDirty
        {
            get { throw new StubOnlyException(); }
        }
    }

    public class SceneManager
    {
        public static Scene GetActiveScene()
        {
            throw new StubOnlyException();
        }
    }
}

namespace Unity.Profiling
{
    // ProfilerCategory: a struct with static properties naming Unity's categories.
    public struct ProfilerCategory
    {
        public static ProfilerCategory Internal
        {
            get { throw new UnityEngine.StubOnlyException(); }
        }

        public static ProfilerCategory Physics
        {
            get { throw new UnityEngine.StubOnlyException(); }
        }
    }

    // ProfilerRecorderOptions ([Flags]): the documented names; Default is "equivalent to
    // (SumSamplesInFrame | WrapAroundWhenCapacityReached)". The numeric values are this stub's
    // (the documentation does not give them); scripts use the names only.
    [Flags]
    public enum ProfilerRecorderOptions
    {
        None = 0,
        StartImmediately = 1,
        KeepAliveDuringDomainReload = 2,
        CollectOnlyOnCurrentThread = 4,
        WrapAroundWhenCapacityReached = 8,
        SumAllSamplesInFrame = 16,
        Default = SumAllSamplesInFrame | WrapAroundWhenCapacityReached,
    }

    // ProfilerRecorder (2020.2+): StartNew(ProfilerCategory category, string statName,
    // int capacity = 1, ProfilerRecorderOptions options = ProfilerRecorderOptions.Default).
    public struct ProfilerRecorder : IDisposable
    {
        public static ProfilerRecorder StartNew(ProfilerCategory category, string statName, int capacity = 1,
            ProfilerRecorderOptions options = ProfilerRecorderOptions.Default)
        {
            throw new UnityEngine.StubOnlyException();
        }

        public bool Valid
        {
            get { throw new UnityEngine.StubOnlyException(); }
        }

        public long LastValue
        {
            get { throw new UnityEngine.StubOnlyException(); }
        }

        public void Dispose()
        {
            throw new UnityEngine.StubOnlyException();
        }
    }
}

namespace Unity.Collections
{
    // NativeArray<T> where T : struct (UnityEngine.CoreModule).
    public struct NativeArray<T> : IDisposable
        where T : struct
    {
        public int Length
        {
            get { throw new UnityEngine.StubOnlyException(); }
        }

        public void Dispose()
        {
            throw new UnityEngine.StubOnlyException();
        }
    }
}

namespace Unity.Collections.LowLevel.Unsafe
{
    public static unsafe class NativeArrayUnsafeUtility
    {
        public static void* GetUnsafePtr<T>(this NativeArray<T> nativeArray)
            where T : struct
        {
            throw new UnityEngine.StubOnlyException();
        }

        public static void* GetUnsafeReadOnlyPtr<T>(this NativeArray<T> nativeArray)
            where T : struct
        {
            throw new UnityEngine.StubOnlyException();
        }
    }
}
