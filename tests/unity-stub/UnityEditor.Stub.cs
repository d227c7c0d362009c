// COMPILE-ONLY STUB of the UnityEditor scripting API -- not Unity. Built as UnityEditor.dll
// next to UnityEngine.Stub.cs; only editor scripts (Assets/Editor) reference it, so a runtime
// script that uses UnityEditor fails to compile, as it would in a player build. Exactly the
// members the editor scripts use, with the documented signatures.
using System;
using System.Collections.Generic;
using UnityEngine;

namespace UnityEditor
{
    // InitializeOnLoadAttribute: "Allows an editor class to be initialized when Unity loads,
    // and when your scripts are recompiled" (runs the static constructor).
    [AttributeUsage(AttributeTargets.Class)]
    public class InitializeOnLoadAttribute : Attribute
    {
    }

    public sealed class EditorApplication
    {
        public delegate void CallbackFunction();

        // EditorApplication.delayCall: "Delegate which is called once after all inspectors update."
        public static CallbackFunction delayCall;

        // EditorApplication.isPlaying: "Whether the Editor is in Play mode."
        public static bool isPlaying
        {
            get { throw new StubOnlyException(); }
        }

        public static bool isPlayingOrWillChangePlaymode
        {
            get { throw new StubOnlyException(); }
        }
    }

    public class SessionState
    {
        public static bool GetBool(string key, bool defaultValue)
        {
            throw new StubOnlyException();
        }

        public static void SetBool(string key, bool value)
        {
            throw new StubOnlyException();
        }
    }
}

namespace UnityEditor
{
    // ---- inspectors ----

    // CustomEditor: "Tells an Editor class which run-time type it's an editor for."
    [AttributeUsage(AttributeTargets.Class, AllowMultiple = true, Inherited = true)]
    public class CustomEditor : Attribute
    {
        public CustomEditor(Type inspectedType)
        {
        }

        public CustomEditor(Type inspectedType, bool editorForChildClasses)
        {
        }
    }

    // CanEditMultipleObjects: "Attribute used to make a custom editor support multi-object editing."
    [AttributeUsage(AttributeTargets.Class, AllowMultiple = false, Inherited = false)]
    public sealed class CanEditMultipleObjects : Attribute
    {
    }

    // Editor: "Derive from this base class to create a custom inspector or editor for your custom object."
    public class Editor : ScriptableObject
    {
        public UnityEngine.Object target
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        public UnityEngine.Object[] targets
        {
            get { throw new StubOnlyException(); }
        }

        public SerializedObject serializedObject
        {
            get { throw new StubOnlyException(); }
        }

        public virtual void OnInspectorGUI()
        {
            throw new StubOnlyException();
        }

        // Editor.DrawDefaultInspector(): "Draw the built-in Inspector." (true when a value changed)
        public bool DrawDefaultInspector()
        {
            throw new StubOnlyException();
        }
    }

    // SerializedObject: "SerializedObject and SerializedProperty are classes for editing serialized
    // fields on Unity objects in a completely generic way" (undo, multi-object editing, prefab overrides).
    public class SerializedObject
    {
        public void Update()
        {
            throw new StubOnlyException();
        }

        public bool ApplyModifiedProperties()
        {
            throw new StubOnlyException();
        }

        public SerializedProperty FindProperty(string propertyPath)
        {
            throw new StubOnlyException();
        }

        // SerializedObject.GetIterator(): "Get the first serialized property."
        public SerializedProperty GetIterator()
        {
            throw new StubOnlyException();
        }
    }

    public class SerializedProperty
    {
        public string name
        {
            get { throw new StubOnlyException(); }
        }

        public string displayName
        {
            get { throw new StubOnlyException(); }
        }

        public string tooltip
        {
            get { throw new StubOnlyException(); }
        }

        public bool hasMultipleDifferentValues
        {
            get { throw new StubOnlyException(); }
        }

        public int intValue
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // SerializedProperty.NextVisible(bool enterChildren): "Move to next visible property."
        public bool NextVisible(bool enterChildren)
        {
            throw new StubOnlyException();
        }
    }

    // MessageType: "User message types" of EditorGUILayout.HelpBox.
    public enum MessageType
    {
        None = 0,
        Info = 1,
        Warning = 2,
        Error = 3,
    }

    public sealed class EditorGUILayout
    {
        public static bool PropertyField(SerializedProperty property, params GUILayoutOption[] options)
        {
            throw new StubOnlyException();
        }

        public static bool PropertyField(SerializedProperty property, GUIContent label, params GUILayoutOption[] options)
        {
            throw new StubOnlyException();
        }

        public static bool PropertyField(SerializedProperty property, GUIContent label, bool includeChildren, params GUILayoutOption[] options)
        {
            throw new StubOnlyException();
        }

        public static void HelpBox(string message, MessageType type)
        {
            throw new StubOnlyException();
        }

        // EditorGUILayout.Foldout(bool foldout, string content, bool toggleOnLabelClick).
        public static bool Foldout(bool foldout, string content, bool toggleOnLabelClick)
        {
            throw new StubOnlyException();
        }

        public static void LabelField(string label, params GUILayoutOption[] options)
        {
            throw new StubOnlyException();
        }

        public static void LabelField(string label, GUIStyle style, params GUILayoutOption[] options)
        {
            throw new StubOnlyException();
        }

        public static void LabelField(string label, string label2, params GUILayoutOption[] options)
        {
            throw new StubOnlyException();
        }

        public static float Slider(string label, float value, float leftValue, float rightValue, params GUILayoutOption[] options)
        {
            throw new StubOnlyException();
        }

        public static Enum EnumPopup(string label, Enum selected, params GUILayoutOption[] options)
        {
            throw new StubOnlyException();
        }

        public static int Popup(string label, int selectedIndex, string[] displayedOptions, params GUILayoutOption[] options)
        {
            throw new StubOnlyException();
        }

        public static bool Toggle(string label, bool value, params GUILayoutOption[] options)
        {
            throw new StubOnlyException();
        }

        public static void Space()
        {
            throw new StubOnlyException();
        }
    }

    public sealed class EditorGUI
    {
        // EditorGUI.indentLevel: "The indent level of the field labels."
        public static int indentLevel
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }
    }

    public sealed class EditorStyles
    {
        public static GUIStyle boldLabel
        {
            get { throw new StubOnlyException(); }
        }
    }

    // ---- undo, assets, selection, menus ----

    public class Undo
    {
        // Undo.RecordObject(Object objectToUndo, string name): "Records any changes done on the object after the RecordObject function."
        public static void RecordObject(UnityEngine.Object objectToUndo, string name)
        {
            throw new StubOnlyException();
        }

        public static void RecordObjects(UnityEngine.Object[] objectsToUndo, string name)
        {
            throw new StubOnlyException();
        }

        // Undo.AddComponent<T>(GameObject gameObject): "Adds a component to the game object and registers an undo operation for this action."
        public static T AddComponent<T>(GameObject gameObject)
            where T : Component
        {
            throw new StubOnlyException();
        }

        public static void RegisterCreatedObjectUndo(UnityEngine.Object objectToUndo, string name)
        {
            throw new StubOnlyException();
        }

        public static void SetCurrentGroupName(string name)
        {
            throw new StubOnlyException();
        }

        public static int GetCurrentGroup()
        {
            throw new StubOnlyException();
        }

        public static void IncrementCurrentGroup()
        {
            throw new StubOnlyException();
        }

        public static void CollapseUndoOperations(int groupIndex)
        {
            throw new StubOnlyException();
        }
    }

    public sealed class EditorUtility
    {
        public static void SetDirty(UnityEngine.Object target)
        {
            throw new StubOnlyException();
        }

        public static bool DisplayDialog(string title, string message, string ok)
        {
            throw new StubOnlyException();
        }

        // EditorUtility.SaveFilePanelInProject(string title, string defaultName, string extension, string message).
        public static string SaveFilePanelInProject(string title, string defaultName, string extension, string message)
        {
            throw new StubOnlyException();
        }
    }

    // EditorCurveBinding: "Defines how a curve is attached to an object that it controls."
    public struct EditorCurveBinding
    {
        // EditorCurveBinding.path: "The transform path of the object that is animated."
        public string path;

        // EditorCurveBinding.propertyName: "The name of the property to be animated."
        public string propertyName;

        // EditorCurveBinding.type: "The type of the property to be animated."
        public Type type;

        // EditorCurveBinding.FloatCurve(string inPath, Type inType, string inPropertyName):
        // "Creates a preconfigured binding for a float curve."
        public static EditorCurveBinding FloatCurve(string inPath, Type inType, string inPropertyName)
        {
            return new EditorCurveBinding { path = inPath, type = inType, propertyName = inPropertyName };
        }
    }

    // AnimationUtility: "Editor utility functions for modifying animation clips." The stub records
    // the curves set on each clip (see AnimationClip in UnityEngine.Stub.cs).
    public sealed class AnimationUtility
    {
        static readonly System.Runtime.CompilerServices.ConditionalWeakTable<AnimationClip, List<KeyValuePair<EditorCurveBinding, AnimationCurve>>> curves =
            new System.Runtime.CompilerServices.ConditionalWeakTable<AnimationClip, List<KeyValuePair<EditorCurveBinding, AnimationCurve>>>();

        // AnimationUtility.SetEditorCurve(AnimationClip clip, EditorCurveBinding binding, AnimationCurve curve):
        // "Adds, modifies or removes an editor float curve in a given clip." (null removes it)
        public static void SetEditorCurve(AnimationClip clip, EditorCurveBinding binding, AnimationCurve curve)
        {
            List<KeyValuePair<EditorCurveBinding, AnimationCurve>> list = curves.GetOrCreateValue(clip);
            list.RemoveAll(c => Same(c.Key, binding));
            if (curve != null)
            {
                list.Add(new KeyValuePair<EditorCurveBinding, AnimationCurve>(binding, new AnimationCurve(curve.keys)));
            }
        }

        // AnimationUtility.GetCurveBindings(AnimationClip clip): "Returns all the float curve bindings currently stored in the clip."
        public static EditorCurveBinding[] GetCurveBindings(AnimationClip clip)
        {
            return curves.GetOrCreateValue(clip).ConvertAll(c => c.Key).ToArray();
        }

        // AnimationUtility.GetEditorCurve(AnimationClip clip, EditorCurveBinding binding): "Return the
        // float curve that the binding is pointing to." (null when there is none)
        public static AnimationCurve GetEditorCurve(AnimationClip clip, EditorCurveBinding binding)
        {
            foreach (KeyValuePair<EditorCurveBinding, AnimationCurve> c in curves.GetOrCreateValue(clip))
            {
                if (Same(c.Key, binding))
                {
                    return new AnimationCurve(c.Value.keys);
                }
            }
            return null;
        }

        static bool Same(EditorCurveBinding a, EditorCurveBinding b)
        {
            return a.path == b.path && a.type == b.type && a.propertyName == b.propertyName;
        }
    }

    // MenuCommand: "Used to extract the context for a MenuItem." (CONTEXT/ menu items get the component)
    public sealed class MenuCommand
    {
        // MenuCommand.context: "Context is the object that is the target of a menu command."
        public UnityEngine.Object context;
    }

    public sealed class AssetDatabase
    {
        public static void CreateAsset(UnityEngine.Object asset, string path)
        {
            throw new StubOnlyException();
        }

        public static void SaveAssets()
        {
            throw new StubOnlyException();
        }

        // AssetDatabase.FindAssets(string filter): "Search the asset database using the search filter string" (GUIDs).
        public static string[] FindAssets(string filter)
        {
            throw new StubOnlyException();
        }

        public static string GUIDToAssetPath(string guid)
        {
            throw new StubOnlyException();
        }

        public static T LoadAssetAtPath<T>(string assetPath)
            where T : UnityEngine.Object
        {
            throw new StubOnlyException();
        }
    }

    public sealed class Selection
    {
        public static GameObject[] gameObjects
        {
            get { throw new StubOnlyException(); }
        }
    }

    // MenuItem: "The MenuItem attribute allows you to add menu items to the main menu and inspector context menus."
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
    public sealed class MenuItem : Attribute
    {
        public MenuItem(string itemName)
        {
        }

        public MenuItem(string itemName, bool isValidateFunction)
        {
        }

        public MenuItem(string itemName, bool isValidateFunction, int priority)
        {
        }
    }

    // ---- scene view ----

    // GizmoType ([Flags]): "Determines how a gizmo is drawn or picked in the Unity editor." The
    // members used; scripts use the names only.
    [Flags]
    public enum GizmoType
    {
        Pickable = 1,
        NotInSelectionHierarchy = 2,
        Selected = 4,
        Active = 8,
        InSelectionHierarchy = 16,
    }

    // DrawGizmo: "The DrawGizmo attribute allows you to supply a gizmo renderer for any Component."
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class DrawGizmo : Attribute
    {
        public DrawGizmo(GizmoType gizmo)
        {
        }
    }

    public sealed class Handles
    {
        public static Color color
        {
            get { throw new StubOnlyException(); }
            set { throw new StubOnlyException(); }
        }

        // Handles.DrawWireDisc(Vector3 center, Vector3 normal, float radius): "Draw the outline of a flat disc in 3D space."
        public static void DrawWireDisc(Vector3 center, Vector3 normal, float radius)
        {
            throw new StubOnlyException();
        }

        // Handles.DotHandleCap(int controlID, Vector3 position, Quaternion rotation, float size, EventType eventType).
        public static void DotHandleCap(int controlID, Vector3 position, Quaternion rotation, float size, EventType eventType)
        {
            throw new StubOnlyException();
        }
    }

    public sealed class HandleUtility
    {
        // HandleUtility.GUIPointToWorldRay(Vector2 position): "Convert 2D GUI position to a world space ray."
        public static Ray GUIPointToWorldRay(Vector2 position)
        {
            throw new StubOnlyException();
        }

        // HandleUtility.GetHandleSize(Vector3 position): "Get world space size of a manipulator handle at given position."
        public static float GetHandleSize(Vector3 position)
        {
            throw new StubOnlyException();
        }

        // HandleUtility.AddDefaultControl(int controlId): "Add a control to the list of default controls" (keeps the selection while painting).
        public static void AddDefaultControl(int controlId)
        {
            throw new StubOnlyException();
        }
    }

    public class SceneView : EditorWindow
    {
        public static void RepaintAll()
        {
            throw new StubOnlyException();
        }
    }

    // EditorWindow: "Derive from this class to create an editor window."
    public class EditorWindow : ScriptableObject
    {
        public static T GetWindow<T>(string title)
            where T : EditorWindow
        {
            throw new StubOnlyException();
        }

        public void Show()
        {
            throw new StubOnlyException();
        }

        public void Repaint()
        {
            throw new StubOnlyException();
        }
    }
}

namespace UnityEditor.EditorTools
{
    // EditorToolAttribute(string displayName, Type componentToolTarget) (2019.1+): "Registers an EditorTool as either a Global tool or a Component tool for a specific target type."
    [AttributeUsage(AttributeTargets.Class)]
    public class EditorToolAttribute : Attribute
    {
        public EditorToolAttribute(string displayName, Type componentToolTarget)
        {
        }
    }

    // EditorTool: "Use this class to implement custom editor tools" (a ScriptableObject).
    public abstract class EditorTool : ScriptableObject
    {
        public UnityEngine.Object target
        {
            get { throw new StubOnlyException(); }
        }

        public System.Collections.Generic.IEnumerable<UnityEngine.Object> targets
        {
            get { throw new StubOnlyException(); }
        }

        public virtual GUIContent toolbarIcon
        {
            get { throw new StubOnlyException(); }
        }

        // EditorTool.OnToolGUI(EditorWindow window): "Use this method to implement a custom editor tool."
        public virtual void OnToolGUI(EditorWindow window)
        {
            throw new StubOnlyException();
        }
    }

    // ToolManager (2020.2+): "Use ToolManager to set and query the active EditorTool."
    public static class ToolManager
    {
        public static Type activeToolType
        {
            get { throw new StubOnlyException(); }
        }

        public static void SetActiveTool(Type type)
        {
            throw new StubOnlyException();
        }

        public static void RestorePreviousTool()
        {
            throw new StubOnlyException();
        }
    }
}

namespace UnityEditor.SceneManagement
{
    public enum OpenSceneMode
    {
        Single = 0,
        Additive = 1,
        AdditiveWithoutLoading = 2,
    }

    public sealed class EditorSceneManager
    {
        // EditorSceneManager.OpenScene(string scenePath, OpenSceneMode mode = OpenSceneMode.Single).
        public static UnityEngine.SceneManagement.Scene OpenScene(string scenePath, OpenSceneMode mode = OpenSceneMode.Single)
        {
            throw new StubOnlyException();
        }
    }
}
