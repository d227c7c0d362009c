// Hand-written. Errors of the native library as C# exceptions.
using System;
using System.Text;

namespace Sinew
{
    /// <summary>
    /// A <c>sinew_</c> call failed. <see cref="Result"/> is the code it returned and
    /// <see cref="NativeMessage"/> the library's own explanation
    /// (<c>sinew_last_error_message</c>), which is also the exception's message.
    /// </summary>
    public class SinewException : Exception
    {
        /// <summary>The code the native call returned (never <c>SINEW_OK</c>).</summary>
        public SinewResult Result { get; }

        /// <summary>The native message, e.g. "SINEW_INVALID_HANDLE: body handle 0x… is not valid …".</summary>
        public string NativeMessage { get; }

        public SinewException(SinewResult result, string nativeMessage)
            : base(string.IsNullOrEmpty(nativeMessage) ? result + " (the library gave no message)" : nativeMessage)
        {
            Result = result;
            NativeMessage = nativeMessage ?? string.Empty;
        }

        /// <summary>Throws for any code but <c>SINEW_OK</c>. Call on the thread that made the call:
        /// the native message is per thread.</summary>
        internal static void Check(SinewResult result)
        {
            if (result != SinewResult.SINEW_OK)
            {
                throw FromLastError(result);
            }
        }

        /// <summary>The exception for <paramref name="result"/>, carrying this thread's last native message.</summary>
        internal static SinewException FromLastError(SinewResult result)
        {
            return new SinewException(result, LastErrorMessage());
        }

        /// <summary>This thread's last native error message, decoded from UTF-8.</summary>
        internal static unsafe string LastErrorMessage()
        {
            byte* text = NativeMethods.sinew_last_error_message();
            if (text == null)
            {
                return string.Empty;
            }
            int length = 0;
            while (text[length] != 0)
            {
                length++;
            }
            return Encoding.UTF8.GetString(text, length);
        }
    }

    /// <summary>
    /// The native library could not be used: it was not found, or it implements another
    /// version of the C ABI than this wrapper was written for. Thrown by every constructor
    /// that would call into the library, with the same message each time.
    /// </summary>
    public class SinewLoadException : Exception
    {
        /// <summary>The ABI version this wrapper was written for (<see cref="SinewLibrary.ExpectedAbiVersion"/>).</summary>
        public uint ExpectedAbiVersion { get; }

        /// <summary>The ABI version the loaded library reports; 0 when it could not be loaded.</summary>
        public uint LibraryAbiVersion { get; }

        public SinewLoadException(string message, uint expectedAbiVersion, uint libraryAbiVersion, Exception inner)
            : base(message, inner)
        {
            ExpectedAbiVersion = expectedAbiVersion;
            LibraryAbiVersion = libraryAbiVersion;
        }
    }
}
