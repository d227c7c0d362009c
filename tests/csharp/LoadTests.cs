// The wrapper's load-time check, run against a library that is missing or of another ABI
// version (scripts/test-csharp.sh builds a fake libsinew.so from fake_sinew.c).
//
//   mono LoadTests.exe missing
//   mono LoadTests.exe mismatch <fake version>
using System;

namespace Sinew.Tests
{
    static class LoadTests
    {
        static int Main(string[] args)
        {
            if (args.Length < 1)
            {
                Console.Error.WriteLine("usage: LoadTests.exe missing | mismatch <version>");
                return 2;
            }
            if (args[0] == "mismatch")
            {
                Mismatch(uint.Parse(args[1]));
            }
            else
            {
                Missing();
            }
            // The refused constructors left half-made World objects behind; their finalisers
            // must not throw (an exception on the finaliser thread ends the process).
            GC.Collect();
            GC.WaitForPendingFinalizers();
            Check.That(true, args[0] + ": finalisers of refused worlds ran without an exception");
            return Check.Finish("LoadTests " + args[0]);
        }

        static void Mismatch(uint fake)
        {
            Check.Equal(false, SinewLibrary.IsCompatible, "mismatch: IsCompatible is false");
            SinewLoadException e = Check.Throws<SinewLoadException>("mismatch: new World() throws SinewLoadException", () => new World());
            if (e != null)
            {
                Check.Equal(fake, e.LibraryAbiVersion, "mismatch: the exception carries the library's version");
                Check.Equal(SinewLibrary.ExpectedAbiVersion, e.ExpectedAbiVersion, "mismatch: the exception carries the wrapper's version");
                Check.That(e.Message.Contains("version " + fake) && e.Message.Contains("version " + SinewLibrary.ExpectedAbiVersion),
                    "mismatch: the message names both versions", e.Message);
                Console.WriteLine("  message: " + e.Message);
            }
            Check.Throws<SinewLoadException>("mismatch: a second new World() throws the same (no TypeInitializationException)", () => new World());
            Check.Throws<SinewLoadException>("mismatch: SinewWorldDesc.Default refuses too", () => { SinewWorldDesc d = SinewWorldDesc.Default; });
            Check.Throws<SinewLoadException>("mismatch: LibraryAbiVersion refuses too", () => { uint v = SinewLibrary.LibraryAbiVersion; });
        }

        static void Missing()
        {
            Check.Equal(false, SinewLibrary.IsCompatible, "missing: IsCompatible is false");
            SinewLoadException e = Check.Throws<SinewLoadException>("missing: new World() throws SinewLoadException", () => new World());
            if (e != null)
            {
                Check.That(e.Message.Contains("could not be loaded") && e.InnerException is DllNotFoundException,
                    "missing: the message says the library could not be loaded", e.Message);
                Console.WriteLine("  message: " + e.Message);
            }
            Check.Throws<SinewLoadException>("missing: a second attempt throws the same", () => new World());
        }
    }
}
