// Hand-written. The world: owns the native world handle and outlives its bodies' wrappers.
using System;
using System.Collections.Generic;

namespace Sinew
{
    /// <summary>
    /// A simulation world (<c>SinewWorld</c>). Create bodies in it with <see cref="Cloth"/>,
    /// <see cref="Rope"/> and <see cref="CreateSoftLattice"/> / <see cref="CreateSoftBody{T}(ReadOnlySpan{T}, ReadOnlySpan{int}, SinewMaterial, SinewSoftSettings)"/>, and shapes with <see cref="Collider"/>, advance it once per frame with
    /// <see cref="Step"/> (or <see cref="StepBegin"/>/<see cref="StepEnd"/> around the game's own
    /// work), and dispose it when done: that destroys everything in it.
    /// </summary>
    /// <remarks>
    /// Not thread-safe: call a world and its objects from one thread at a time. The only
    /// exception is the garbage collector's finaliser thread, which the wrapper handles: a
    /// body or collider finalised while its world lives is queued here and destroyed by the
    /// next <see cref="Step"/>, <see cref="StepBegin"/> or <see cref="StepEnd"/> on the world's
    /// own thread; one finalised after its world was disposed makes no native call at all.
    /// </remarks>
    public sealed partial class World : IDisposable
    {
        readonly SinewWorld handle;

        // Guards changes of `alive` and `deferred` against the finaliser thread.
        readonly object gate = new object();
        volatile bool alive;

        // Objects whose wrappers were finalised, or disposed during an asynchronous step.
        // Preallocated so the common case never allocates.
        readonly List<Owned> deferred = new List<Owned>(16);
        volatile int deferredCount;

        /// <summary>A native object the world destroys for its wrapper.</summary>
        internal struct Owned
        {
            public ulong Id;
            public bool IsCollider;
            public bool IsRagdoll;

            public static Owned Body(SinewBody b)
            {
                Owned o;
                o.Id = b.id;
                o.IsCollider = false;
                o.IsRagdoll = false;
                return o;
            }

            public static Owned Collider(SinewCollider c)
            {
                Owned o;
                o.Id = c.id;
                o.IsCollider = true;
                o.IsRagdoll = false;
                return o;
            }

            public static Owned Ragdoll(SinewRagdoll r)
            {
                Owned o;
                o.Id = r.id;
                o.IsCollider = false;
                o.IsRagdoll = true;
                return o;
            }

            public SinewResult Destroy()
            {
                if (IsCollider)
                {
                    SinewCollider c;
                    c.id = Id;
                    return NativeMethods.sinew_collider_destroy(c);
                }
                if (IsRagdoll)
                {
                    SinewRagdoll r;
                    r.id = Id;
                    return NativeMethods.sinew_ragdoll_destroy(r);
                }
                SinewBody b;
                b.id = Id;
                return NativeMethods.sinew_body_destroy(b);
            }
        }

        /// <summary>Creates a world with the library's default settings.</summary>
        /// <exception cref="SinewLoadException">The native library is missing or of another ABI version.</exception>
        public World()
            : this(SinewWorldDesc.Default)
        {
        }

        /// <summary>Creates a world; start from <see cref="SinewWorldDesc.Default"/>.</summary>
        /// <exception cref="SinewLoadException">The native library is missing or of another ABI version.</exception>
        /// <exception cref="SinewException">The settings were refused.</exception>
        public unsafe World(SinewWorldDesc desc)
        {
            SinewLibrary.EnsureCompatible();
            SinewWorld h;
            SinewException.Check(NativeMethods.sinew_world_create(&desc, &h));
            handle = h;
            alive = true;
        }

        ~World()
        {
            // A constructor that threw (no library, refused settings) leaves nothing to free,
            // and maybe not even the field initialisers run.
            if (handle.id != 0)
            {
                Destroy(false);
            }
        }

        /// <summary>The native handle, for calls the wrapper does not cover. Still returned
        /// after <see cref="Dispose"/>: the library answers <c>SINEW_INVALID_HANDLE</c> for it.</summary>
        public SinewWorld Handle
        {
            get { return handle; }
        }

        /// <summary>True once <see cref="Dispose"/> has run (or the finaliser).</summary>
        public bool IsDisposed
        {
            get { return !alive; }
        }

        /// <summary>Advances the world by the frame time <paramref name="dt"/> (s), running whole fixed steps.</summary>
        /// <exception cref="SinewException"><c>SINEW_BUSY</c> between <see cref="StepBegin"/> and
        /// <see cref="StepEnd"/>; <c>SINEW_INVALID_HANDLE</c> after <see cref="Dispose"/>.</exception>
        public void Step(float dt)
        {
            DestroyDeferred();
            SinewException.Check(NativeMethods.sinew_world_step(handle, dt));
            ReportRecoveries();
        }

        /// <summary>Where the wrapper reports a body that a step had to put back on a finite
        /// state (<c>SINEW_EVENT_BODY_RECOVERED</c>), once per body: standard error by default;
        /// the Unity components set <c>Debug.LogWarning</c>. Null stops the reports.</summary>
        public static Action<string> Log = message => Console.Error.WriteLine(message);

        // Bodies already reported, by handle; and the reused event buffer.
        readonly HashSet<ulong> reported = new HashSet<ulong>();
        SinewEvent[] events = new SinewEvent[4];

        /// <summary>Copies the last step's events (<c>sinew_world_read_events</c>) into
        /// <paramref name="buffer"/> and returns how many there are; a buffer too short is filled
        /// with nothing and the count still returned.</summary>
        public unsafe int ReadEvents(SinewEvent[] buffer)
        {
            UIntPtr n;
            SinewException.Check(NativeMethods.sinew_world_get_event_count(handle, &n));
            int count = (int)n;
            if (buffer != null && buffer.Length >= count && count > 0)
            {
                fixed (SinewEvent* p = buffer)
                {
                    SinewException.Check(NativeMethods.sinew_world_read_events(handle, p, (UIntPtr)buffer.Length));
                }
            }
            return count;
        }

        unsafe void ReportRecoveries()
        {
            SinewWorldStats s;
            SinewException.Check(NativeMethods.sinew_world_get_stats(handle, &s));
            if (s.recovered_bodies == 0)
            {
                return;
            }
            int count = ReadEvents(events);
            if (count > events.Length)
            {
                events = new SinewEvent[count];
                count = ReadEvents(events);
            }
            for (int i = 0; i < count; i++)
            {
                SinewEvent e = events[i];
                if (e.kind == (uint)SinewEventKind.SINEW_EVENT_BODY_RECOVERED && reported.Add(e.body.id) && Log != null)
                {
                    string why = e.reason == (uint)SinewRecoveryReason.SINEW_RECOVERY_STEP_NOT_FINITE
                        ? "a step produced a non-finite state; the step was rolled back"
                        : "its state overflowed; it was put back on its pose at rest";
                    Log("Sinew: body 0x" + e.body.id.ToString("x") + " was recovered: " + why + " (reported once per body; see SinewBodyInfo.recoveries)");
                }
            }
        }

        /// <summary>Starts <see cref="Step"/> on the library's worker threads and returns at once.
        /// Until <see cref="StepEnd"/>, calls that read or change the world throw with <c>SINEW_BUSY</c>.</summary>
        public void StepBegin(float dt)
        {
            DestroyDeferred();
            SinewException.Check(NativeMethods.sinew_world_step_begin(handle, dt));
        }

        /// <summary>Waits for the step started by <see cref="StepBegin"/> and throws if it failed.</summary>
        /// <exception cref="SinewException"><c>SINEW_INVALID_ARGUMENT</c> when no step was started.</exception>
        public void StepEnd()
        {
            SinewResult r = NativeMethods.sinew_world_step_end(handle);
            if (r != SinewResult.SINEW_OK)
            {
                throw SinewException.FromLastError(r);
            }
            DestroyDeferred();
            ReportRecoveries();
        }

        /// <summary>Bytes <see cref="SaveState(Span{byte})"/> needs now (the size query of
        /// <c>sinew_world_save_state</c>).</summary>
        public int StateSize
        {
            get
            {
                return Snapshot.Size(new WorldState { Handle = handle });
            }
        }

        /// <summary>A snapshot of the world's whole dynamic state (docs/snapshots.md): every body, ragdoll and collider, time and the fixed-step accumulator. <see cref="LoadState"/> of it, into this world or one built by the same calls, continues exactly as this one does from here.</summary>
        public byte[] SaveState()
        {
            return Snapshot.Save(new WorldState { Handle = handle });
        }

        /// <summary>Writes the snapshot into <paramref name="destination"/> and returns its length;
        /// no allocation. An empty span only returns the length needed (as <see cref="StateSize"/>).</summary>
        /// <exception cref="SinewException"><c>SINEW_BUFFER_TOO_SMALL</c> when the span is shorter
        /// than <see cref="StateSize"/> (nothing is written); <c>SINEW_BUSY</c> during an
        /// asynchronous step.</exception>
        public int SaveState(Span<byte> destination)
        {
            return Snapshot.Save(new WorldState { Handle = handle }, destination);
        }

        /// <summary>Restores a snapshot <see cref="SaveState()"/> wrote.</summary>
        /// <exception cref="SinewException"><c>SINEW_INVALID_ARGUMENT</c>, changing nothing, for a
        /// truncated, corrupted or mismatched snapshot (the message names the difference);
        /// <c>SINEW_BUSY</c> during an asynchronous step.</exception>
        public void LoadState(ReadOnlySpan<byte> snapshot)
        {
            Snapshot.Load(new WorldState { Handle = handle }, snapshot);
        }

        /// <summary>The world's counters (<c>sinew_world_get_stats</c>).</summary>
        public unsafe SinewWorldStats GetStats()
        {
            SinewWorldStats s;
            SinewException.Check(NativeMethods.sinew_world_get_stats(handle, &s));
            return s;
        }

        /// <summary>Changes gravity (m/s²) from the next step on.</summary>
        public void SetGravity(SinewVec3 gravity)
        {
            SinewException.Check(NativeMethods.sinew_world_set_gravity(handle, gravity));
        }

        /// <summary>Changes gravity (m/s²) from the next step on.</summary>
        public void SetGravity(float x, float y, float z)
        {
            SetGravity(new SinewVec3(x, y, z));
        }

        /// <summary>
        /// Destroys the native world and every body in it; their wrappers become disposed.
        /// Waits for an asynchronous step first. Safe to call twice.
        /// </summary>
        public void Dispose()
        {
            Destroy(true);
            GC.SuppressFinalize(this);
        }

        void Destroy(bool disposing)
        {
            lock (gate)
            {
                if (!alive)
                {
                    return;
                }
                // From here on no body calls native code to destroy itself: the world does it.
                alive = false;
                deferred.Clear();
                deferredCount = 0;
            }
            SinewResult r = NativeMethods.sinew_world_destroy(handle);
            if (r == SinewResult.SINEW_BUSY)
            {
                // An asynchronous step is running: wait for it (its result no longer matters).
                NativeMethods.sinew_world_step_end(handle);
                r = NativeMethods.sinew_world_destroy(handle);
            }
            // INVALID_HANDLE: destroyed already through the raw handle; nothing left to free.
            if (disposing && r != SinewResult.SINEW_OK && r != SinewResult.SINEW_INVALID_HANDLE)
            {
                throw SinewException.FromLastError(r);
            }
        }

        /// <summary>
        /// Destroys a body or collider now, or later when the world is busy; nothing when the
        /// world is gone (it destroyed the object already). <paramref name="fromFinalizer"/>:
        /// queue it without calling native code, for the world's own thread to destroy.
        /// </summary>
        internal void DestroyOwned(Owned owned, bool fromFinalizer)
        {
            lock (gate)
            {
                if (!alive)
                {
                    return;
                }
                if (fromFinalizer)
                {
                    deferred.Add(owned);
                    deferredCount = deferred.Count;
                    return;
                }
                SinewResult r = owned.Destroy();
                if (r == SinewResult.SINEW_BUSY)
                {
                    deferred.Add(owned);
                    deferredCount = deferred.Count;
                }
                else if (r != SinewResult.SINEW_OK && r != SinewResult.SINEW_INVALID_HANDLE)
                {
                    throw SinewException.FromLastError(r);
                }
            }
        }

        /// <summary>Bodies and colliders whose wrappers were finalised, or disposed during an
        /// asynchronous step, and that the world has not destroyed yet.</summary>
        public int PendingDestroyCount
        {
            get { return deferredCount; }
        }

        void DestroyDeferred()
        {
            if (deferredCount == 0)
            {
                return;
            }
            lock (gate)
            {
                if (!alive)
                {
                    return;
                }
                int kept = 0;
                for (int i = 0; i < deferred.Count; i++)
                {
                    // BUSY (a step still running) keeps the body for the next try; any other
                    // failure means it is gone already.
                    if (deferred[i].Destroy() == SinewResult.SINEW_BUSY)
                    {
                        deferred[kept++] = deferred[i];
                    }
                }
                deferred.RemoveRange(kept, deferred.Count - kept);
                deferredCount = kept;
            }
        }
    }
}
