// Hand-written. A host-side copy of a body's triangles and vertex sources that follows its
// topology version, for rebuilding a Unity mesh after the cloth tears (SinewCloth), with no
// managed allocation in the frames where nothing tore.
using System;

namespace Sinew.Components
{
    /// <summary>
    /// The triangles (<see cref="Body.ReadIndices(Span{int})"/>) and vertex sources
    /// (<see cref="Body.ReadVertexSources(Span{int})"/>) of a body, read again only when its
    /// <see cref="Body.TopologyVersion"/> changes (a tear).
    /// </summary>
    /// <remarks>
    /// Tearing only appends vertices (copies of the split ones) and re-points triangle corners at
    /// them: the triangle count and order stay, so a mesh's sub-mesh index ranges stay valid, and
    /// the first <see cref="OriginalVertexCount"/> vertices keep their indices. The arrays grow by
    /// half again when they are too small (a tear frame may allocate; any other frame does not):
    /// they may be longer than <see cref="VertexCount"/> / <see cref="IndexCount"/>.
    /// </remarks>
    public sealed class SinewTopologyMirror
    {
        int[] indices = new int[0];
        int[] sources = new int[0];

        /// <summary>The topology version the arrays were read at.</summary>
        public uint Version { get; private set; }

        /// <summary>Vertices of the body now (the original ones, then one per split).</summary>
        public int VertexCount { get; private set; }

        /// <summary>Vertices when <see cref="Reset"/> read the body.</summary>
        public int OriginalVertexCount { get; private set; }

        /// <summary>Valid entries of <see cref="Indices"/>: 3 per triangle.</summary>
        public int IndexCount { get; private set; }

        /// <summary>The triangles as vertex indices; the first <see cref="IndexCount"/> are valid.</summary>
        public int[] Indices
        {
            get { return indices; }
        }

        /// <summary>For each vertex, the original vertex it was copied from; the first <see cref="VertexCount"/> are valid.</summary>
        public int[] Sources
        {
            get { return sources; }
        }

        /// <summary>Reads <paramref name="body"/>'s topology as it is now; its vertex count becomes the original one.</summary>
        public void Reset(Body body)
        {
            if (body == null)
            {
                throw new ArgumentNullException("body");
            }
            Read(body, body.TopologyVersion);
            OriginalVertexCount = VertexCount;
        }

        /// <summary>
        /// True, with the arrays read again, when <paramref name="body"/>'s topology version differs
        /// from <see cref="Version"/>; false (and nothing read or allocated) otherwise.
        /// </summary>
        public bool Refresh(Body body)
        {
            if (body == null)
            {
                throw new ArgumentNullException("body");
            }
            uint now = body.TopologyVersion;
            if (now == Version)
            {
                return false;
            }
            Read(body, now);
            return true;
        }

        /// <summary>
        /// <c>destination[i] = original[Sources[i]]</c> for the vertices at and after
        /// <paramref name="from"/> (the vertices a tear added start at the old vertex count):
        /// gives them the UVs, colours or tangents of the vertex they were split from.
        /// </summary>
        public void CopyFromSources<T>(T[] original, T[] destination, int from)
        {
            for (int i = Math.Max(0, from); i < VertexCount; i++)
            {
                destination[i] = original[sources[i]];
            }
        }

        /// <summary>Grows <paramref name="array"/> to hold at least <paramref name="count"/> items (by half
        /// again, keeping its contents); no allocation when it already does.</summary>
        public static void EnsureCapacity<T>(ref T[] array, int count)
        {
            if (array == null)
            {
                array = new T[count];
                return;
            }
            if (array.Length >= count)
            {
                return;
            }
            var grown = new T[Math.Max(count, array.Length + array.Length / 2)];
            Array.Copy(array, grown, array.Length);
            array = grown;
        }

        void Read(Body body, uint version)
        {
            int n = body.VertexCount;
            int m = body.IndexCount;
            EnsureCapacity(ref indices, m);
            EnsureCapacity(ref sources, n);
            body.ReadIndices(new Span<int>(indices, 0, m));
            body.ReadVertexSources(new Span<int>(sources, 0, n));
            VertexCount = n;
            IndexCount = m;
            Version = version;
        }
    }
}
