// Tells the user, once per editor session, when this editor's native library is missing from
// Runtime/Plugins: the package from git (or the sample project opened before packaging) has no
// binaries, and every Sinew component would otherwise fail later with a DllNotFoundException.
using System.IO;
using UnityEditor;
using UnityEngine;

namespace Sinew.Editor
{
    [InitializeOnLoad]
    static class SinewNativeLibraryCheck
    {
        const string Package = "Packages/com.sinew.physics/";
        const string SessionKey = "Sinew.NativeLibraryCheck.Reported";

#if UNITY_EDITOR_WIN
        internal const string Plugin = "Runtime/Plugins/Windows/x86_64/sinew.dll";
#elif UNITY_EDITOR_OSX
        internal const string Plugin = "Runtime/Plugins/macOS/libsinew.dylib";
#else
        internal const string Plugin = "Runtime/Plugins/Linux/x86_64/libsinew.so";
#endif

        internal const string Message =
            "Sinew: the native library " + Package + Plugin + " is missing, so no Sinew component can run. " +
            "Install the release tarball (com.sinew.physics-<version>.tgz, Package Manager > Add package from tarball), " +
            "or build it from the Sinew repository with `cargo run -p xtask -- package` (Rust from rustup.rs), " +
            "which fills Packages/com.sinew.physics in the sample project and writes the tarball to target/package/. " +
            "Then restart the editor: a native plugin is loaded once.";

        static SinewNativeLibraryCheck()
        {
            if (SessionState.GetBool(SessionKey, false))
            {
                return;
            }
            SessionState.SetBool(SessionKey, true);
            // Path.GetFullPath resolves a Packages/<name>/ path wherever the package lives.
            if (!File.Exists(Path.GetFullPath(Package + Plugin)))
            {
                Debug.LogError(Message, null);
            }
        }
    }
}
