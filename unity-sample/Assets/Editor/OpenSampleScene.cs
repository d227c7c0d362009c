// Opens Assets/Scenes/Sample.unity when the project is opened with an empty, untitled scene
// (a fresh clone has no Library/ telling Unity which scene was open last). Once per editor session.
using UnityEditor;
using UnityEditor.SceneManagement;
using UnityEngine.SceneManagement;

[InitializeOnLoad]
static class OpenSampleScene
{
    const string ScenePath = "Assets/Scenes/Sample.unity";
    const string SessionKey = "Sinew.OpenSampleScene.Done";

    static OpenSampleScene()
    {
        EditorApplication.delayCall += OpenOnce;
    }

    static void OpenOnce()
    {
        if (SessionState.GetBool(SessionKey, false))
        {
            return;
        }
        SessionState.SetBool(SessionKey, true);
        if (EditorApplication.isPlayingOrWillChangePlaymode)
        {
            return;
        }
        Scene active = SceneManager.GetActiveScene();
        if (string.IsNullOrEmpty(active.path) && !active.isDirty)
        {
            EditorSceneManager.OpenScene(ScenePath, OpenSceneMode.Single);
        }
    }
}
