// COMPILE-ONLY STUB of the UnityEditor scripting API -- not Unity. Built as UnityEditor.dll
// next to UnityEngine.Stub.cs; only editor scripts (Assets/Editor) reference it, so a runtime
// script that uses UnityEditor fails to compile, as it would in a player build. Exactly the
// members the editor scripts use, with the documented signatures.
using System;
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
