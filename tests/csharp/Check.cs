// A tiny assertion helper for the C# test programs: one line per check, a summary line
// that scripts/test-csharp.sh adds up, and a non-zero exit code on any failure.
using System;

namespace Sinew.Tests
{
    static class Check
    {
        static int passed;
        static int failed;

        public static void That(bool condition, string name, string detail = null)
        {
            if (condition)
            {
                passed++;
                Console.WriteLine("ok     " + name);
            }
            else
            {
                failed++;
                Console.WriteLine("FAILED " + name + (detail == null ? "" : ": " + detail));
            }
        }

        public static void Equal<T>(T expected, T actual, string name)
        {
            That(Equals(expected, actual), name, "expected " + expected + ", got " + actual);
        }

        /// <summary>Runs <paramref name="action"/>; one check that it throws <typeparamref name="TEx"/>.
        /// Returns the exception, or null.</summary>
        public static TEx Throws<TEx>(string name, Action action) where TEx : Exception
        {
            try
            {
                action();
            }
            catch (TEx e)
            {
                That(true, name);
                return e;
            }
            catch (Exception e)
            {
                That(false, name, "threw " + e.GetType().Name + ": " + e.Message);
                return null;
            }
            That(false, name, "did not throw");
            return null;
        }

        /// <summary>A <see cref="SinewException"/> with <paramref name="code"/> whose message is the
        /// native one: starts with the code's name and says more.</summary>
        public static void ThrowsSinew(string name, SinewResult code, Action action, string messagePart = null)
        {
            SinewException e = Throws<SinewException>(name + " throws SinewException", action);
            if (e == null)
            {
                return;
            }
            Equal(code, e.Result, name + ": result code");
            That(e.Message == e.NativeMessage && e.Message.StartsWith(code + ": ") && e.Message.Length > code.ToString().Length + 10,
                name + ": carries the native message", "message was '" + e.Message + "'");
            if (messagePart != null)
            {
                That(e.Message.Contains(messagePart), name + ": message mentions '" + messagePart + "'", "message was '" + e.Message + "'");
            }
        }

        /// <summary>Runs a group of checks; an unexpected exception is one failed check.</summary>
        public static void Group(string name, Action body)
        {
            Console.WriteLine("# " + name);
            try
            {
                body();
            }
            catch (Exception e)
            {
                That(false, name + " ran to the end", e.GetType().Name + ": " + e.Message + "\n" + e.StackTrace);
            }
        }

        /// <summary>Prints the summary line and returns the process exit code.</summary>
        public static int Finish(string program)
        {
            Console.WriteLine("csharp-program " + program + ": " + passed + " passed, " + failed + " failed");
            return failed == 0 ? 0 : 1;
        }
    }
}
