// Hand-written. Loading the native library and refusing a mismatched one.
using System;

namespace Sinew
{
    /// <summary>
    /// The native library as a whole: its ABI version, checked once when this class is
    /// first touched, and library-wide calls.
    /// </summary>
    public static class SinewLibrary
    {
        /// <summary>
        /// The <c>SINEW_ABI_VERSION</c> of the header this wrapper matches. The C# test compares
        /// it with <c>include/sinew.h</c>; bump both together.
        /// </summary>
        public const uint ExpectedAbiVersion = 11;

        static readonly uint libraryAbiVersion;
        static readonly string failure;
        static readonly Exception failureCause;

        // Runs once per process. It records a failure instead of throwing: an exception from a
        // static constructor would surface as an unhelpful TypeInitializationException, and
        // would do so only once.
        static SinewLibrary()
        {
            try
            {
                libraryAbiVersion = NativeMethods.sinew_abi_version();
            }
            catch (DllNotFoundException e)
            {
                failure = "The Sinew native library could not be loaded (libsinew.so / sinew.dll / libsinew.dylib). "
                    + "Put the library built for this platform where the runtime looks for native plugins "
                    + "(in Unity: Assets/Plugins/<platform>; elsewhere: next to the executable or on the library path). "
                    + "Runtime message: " + e.Message;
                failureCause = e;
                return;
            }
            catch (EntryPointNotFoundException e)
            {
                failure = "A library named sinew was loaded, but it does not export sinew_abi_version: it is not the "
                    + "Sinew native library, or one too old for this wrapper (ABI version " + ExpectedAbiVersion + "). "
                    + "Runtime message: " + e.Message;
                failureCause = e;
                return;
            }
            if (libraryAbiVersion != ExpectedAbiVersion)
            {
                failure = "The Sinew native library implements C ABI version " + libraryAbiVersion
                    + ", but this C# wrapper was written for ABI version " + ExpectedAbiVersion
                    + ". Use the native library and the C# scripts of the same Sinew release.";
            }
        }

        /// <summary>The ABI version the loaded native library reports.</summary>
        /// <exception cref="SinewLoadException">The library is missing or mismatched.</exception>
        public static uint LibraryAbiVersion
        {
            get
            {
                EnsureCompatible();
                return libraryAbiVersion;
            }
        }

        /// <summary>True when the native library was found and its ABI version matches.</summary>
        public static bool IsCompatible
        {
            get { return failure == null; }
        }

        /// <summary>Throws <see cref="SinewLoadException"/> unless the native library is loaded and
        /// implements <see cref="ExpectedAbiVersion"/>. Cheap after the first call.</summary>
        public static void EnsureCompatible()
        {
            if (failure != null)
            {
                throw new SinewLoadException(failure, ExpectedAbiVersion, libraryAbiVersion, failureCause);
            }
        }

#if SINEW_DEBUG_PANIC
        /// <summary>
        /// Compiled with <c>SINEW_DEBUG_PANIC</c> defined, for a native library built with the cargo
        /// feature <c>debug-panic</c> (scripts/test-csharp.sh does both).
        /// Makes the library raise a panic inside its API boundary. It must come back as a
        /// <see cref="SinewException"/> with <c>SINEW_PANIC</c>, and the library must keep working:
        /// a check for hosts that the panic guard holds on their platform.
        /// </summary>
        public static void DebugTriggerPanic()
        {
            EnsureCompatible();
            SinewException.Check(NativeMethods.sinew_debug_trigger_panic());
        }

        /// <summary>
        /// Writes NaN into the body's state, as an overflow would: the next step must recover it
        /// and report it once (<see cref="World.Log"/>, <see cref="World.ReadEvents"/>).
        /// </summary>
        public static void DebugPoisonBody(Body body)
        {
            EnsureCompatible();
            SinewException.Check(NativeMethods.sinew_debug_poison_body(body.Handle));
        }
#endif
    }
}
