// Minimal stand-ins for the Unity types bindings/csharp/Unity/SinewUnity.cs uses, with the
// same names and signatures as Unity's (NativeArray<T> where T : struct; the extension
// methods of NativeArrayUnsafeUtility), so that file can be compiled and run outside Unity.
// Only for tests: they are not Unity's implementation.
using System;
using System.Runtime.InteropServices;

namespace Unity.Collections
{
    public enum Allocator
    {
        Persistent = 4,
    }

    public unsafe struct NativeArray<T> : IDisposable where T : struct
    {
        internal void* buffer;
        internal int length;

        public NativeArray(int length, Allocator allocator)
        {
            this.length = length;
            int size = MemoryMarshal.AsBytes(new Span<T>(new T[1])).Length;
            buffer = (void*)Marshal.AllocHGlobal(size * length);
            new Span<byte>(buffer, size * length).Clear();
        }

        public int Length
        {
            get { return length; }
        }

        public T this[int index]
        {
            get { return new Span<T>(buffer, length)[index]; }
            set { new Span<T>(buffer, length)[index] = value; }
        }

        public void Dispose()
        {
            Marshal.FreeHGlobal((IntPtr)buffer);
            buffer = null;
        }
    }
}

namespace Unity.Collections.LowLevel.Unsafe
{
    public static unsafe class NativeArrayUnsafeUtility
    {
        public static void* GetUnsafePtr<T>(this NativeArray<T> nativeArray) where T : struct
        {
            return nativeArray.buffer;
        }

        public static void* GetUnsafeReadOnlyPtr<T>(this NativeArray<T> nativeArray) where T : struct
        {
            return nativeArray.buffer;
        }
    }
}
