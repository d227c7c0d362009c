// Tests of the C# SoftBody wrapper against the real native library, on Mono (run from
// WrapperTests.cs, like CharacterTests and RagdollTests): every new call (lattice and
// tetrahedral creation, settings, volume, centre of mass), its errors (bad sizes, NaN, settings
// out of range, a tetrahedron with a bad index, a cloth asked for its volume), a jelly dropped on
// a plane coming to rest with its volume and above the plane, the readback of positions, normals
// and indices of its surface, and no managed allocation in the per-frame calls.
using System;
using System.Runtime.CompilerServices;

namespace Sinew.Tests
{
    static class SoftBodyTests
    {
        const float Frame = 1f / 60f;

        // The corners of a unit cube (corner c = i + 2j + 4k) and its 6 tetrahedra around the
        // diagonal 0-7, as the library cuts a lattice cell.
        static readonly int[] CubeTets = { 0, 1, 3, 7, 0, 3, 2, 7, 0, 2, 6, 7, 0, 6, 4, 7, 0, 4, 5, 7, 0, 5, 1, 7 };

        public static void Run()
        {
            Check.Group("soft bodies: defaults", Defaults);
            Check.Group("soft bodies: a lattice through the wrapper (kind, counts, volume, centre of mass, settings)", Lattice);
            Check.Group("soft bodies: a tetrahedral mesh through the wrapper", Tets);
            Check.Group("soft bodies: errors throw SinewException with the native message", Errors);
            Check.Group("soft bodies: readback of positions, normals and indices of the surface", Readback);
            Check.Group("soft bodies: a jelly dropped on a plane rests on it with its volume (1 %) and above it (1 mm)", JellyDrop);
            Check.Group("soft bodies: a paired jelly dropped onto another lands on it without sinking in (the Jelly Drop sample's settings)", JellyOnJelly);
            Check.Group("soft bodies: from a render mesh (read back as given) and a balloon (a gas)", MeshAndBalloon);
            Check.Group("soft bodies: no allocation per frame", NoAllocation);
        }

        // The unit cube's surface (corners as Cube gives them), wound outward.
        static readonly int[] CubeTriangles = { 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6 };

        static void MeshAndBalloon()
        {
            SinewWorldDesc wd = SinewWorldDesc.Default;
            wd.thread_count = 1;
            wd.gravity = new SinewVec3 { x = 0f, y = 0f, z = 0f };
            using (World w = new World(wd))
            {
                Vec3[] p = Cube(0.3f, new Vec3(0.1f, 1f, -0.2f));
                SoftBody b = w.CreateSoftBodyFromMesh(new ReadOnlySpan<Vec3>(p), new ReadOnlySpan<int>(CubeTriangles), 3, 0, SinewMaterial.Default, SinewSoftSettings.Default);
                Check.Equal(8, b.VertexCount, "CreateSoftBodyFromMesh: the mesh's own vertex count");
                var back = new Vec3[8];
                b.ReadPositions(new Span<Vec3>(back));
                bool exact = true;
                for (int i = 0; i < 8; i++)
                {
                    exact &= back[i].x == p[i].x && back[i].y == p[i].y && back[i].z == p[i].z;
                }
                Check.That(exact, "at rest the render mesh reads back exactly as given");
                Check.ThrowsSinew("resolution 0", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => w.CreateSoftBodyFromMesh(new ReadOnlySpan<Vec3>(p), new ReadOnlySpan<int>(CubeTriangles), 0, 0, SinewMaterial.Default, SinewSoftSettings.Default), "resolution");

                SinewMaterial m = SinewMaterial.Default;
                m.stretch_compliance = 1e-2f;
                m.shear_compliance = 1e-2f;
                m.bend_compliance = 1e3f;
                m.damping = 3f;
                SinewSoftSettings s = SinewSoftSettings.Default;
                s.shape_stiffness = 0f;
                s.pressure = 30f;
                SoftBody balloon = w.CreateBalloon(new ReadOnlySpan<Vec3>(p), new ReadOnlySpan<int>(CubeTriangles), 1e-5f, m, s);
                for (int f = 0; f < 120; f++)
                {
                    w.Step(Frame);
                }
                Check.That(balloon.Volume > 1.01f * balloon.RestVolume, "a balloon with a gas inside inflates", balloon.Volume + " of " + balloon.RestVolume);
                var inward = (int[])CubeTriangles.Clone();
                for (int t = 0; t < inward.Length; t += 3)
                {
                    int k = inward[t + 1];
                    inward[t + 1] = inward[t + 2];
                    inward[t + 2] = k;
                }
                Check.ThrowsSinew("a balloon wound inward", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => w.CreateBalloon(new ReadOnlySpan<Vec3>(p), new ReadOnlySpan<int>(inward), 1e-5f, m, s), "no volume");
            }
        }

        static World NewWorld()
        {
            SinewWorldDesc d = SinewWorldDesc.Default;
            d.thread_count = 1;
            return new World(d);
        }

        static Vec3[] Cube(float size, Vec3 at)
        {
            var p = new Vec3[8];
            for (int c = 0; c < 8; c++)
            {
                p[c] = new Vec3(at.x + size * (c & 1), at.y + size * ((c >> 1) & 1), at.z + size * ((c >> 2) & 1));
            }
            return p;
        }

        // A raw call (for what the typed wrapper does not let one ask, e.g. a cloth's volume),
        // thrown as the wrapper throws: the code and this thread's native message.
        static unsafe void Native(SinewResult result)
        {
            if (result == SinewResult.SINEW_OK)
            {
                return;
            }
            byte* text = NativeMethods.sinew_last_error_message();
            int length = 0;
            while (text != null && text[length] != 0)
            {
                length++;
            }
            throw new SinewException(result, text == null ? "" : System.Text.Encoding.UTF8.GetString(text, length));
        }

        static bool Near(float a, float b, float tolerance)
        {
            return Math.Abs(a - b) <= tolerance;
        }

        static float Length(Vec3 v)
        {
            return (float)Math.Sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
        }

        static Vec3 Sub(Vec3 a, Vec3 b)
        {
            return new Vec3(a.x - b.x, a.y - b.y, a.z - b.z);
        }

        static Vec3 Cross(Vec3 a, Vec3 b)
        {
            return new Vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
        }

        static float Dot(Vec3 a, Vec3 b)
        {
            return a.x * b.x + a.y * b.y + a.z * b.z;
        }

        static Vec3 Mean(Vec3[] p)
        {
            double x = 0, y = 0, z = 0;
            foreach (Vec3 q in p)
            {
                x += q.x;
                y += q.y;
                z += q.z;
            }
            return new Vec3((float)(x / p.Length), (float)(y / p.Length), (float)(z / p.Length));
        }

        // ---- defaults ----

        static void Defaults()
        {
            SinewSoftSettings s = SinewSoftSettings.Default;
            Check.Equal(0f, s.volume_compliance, "SinewSoftSettings.Default.volume_compliance = 0 (volume kept)");
            Check.Equal(0.5f, s.shape_stiffness, "SinewSoftSettings.Default.shape_stiffness = 0.5");
            Check.Equal(false, s.ChapterStiffness, "SinewSoftSettings.Default.ChapterStiffness = false");
            Check.Equal(0f, s.shape_linear, "SinewSoftSettings.Default.shape_linear = 0");
            Check.Equal(0.1f, s.plastic_yield, "SinewSoftSettings.Default.plastic_yield = 0.1");
            Check.Equal(0f, s.plastic_creep, "SinewSoftSettings.Default.plastic_creep = 0 (elastic)");
            Check.Equal(0.5f, s.plastic_max, "SinewSoftSettings.Default.plastic_max = 0.5");
            s.ChapterStiffness = true;
            Check.Equal(1u, s.chapter_stiffness, "ChapterStiffness = true sets chapter_stiffness to 1");

            SinewSoftLatticeDesc d = SinewSoftLatticeDesc.Default;
            Check.That(d.nx == 4 && d.ny == 4 && d.nz == 4, "SinewSoftLatticeDesc.Default is 4 x 4 x 4", d.nx + " x " + d.ny + " x " + d.nz);
            Check.Equal(64, d.ParticleCount, "ParticleCount = nx · ny · nz");
            Check.Equal(0.05f, d.spacing, "SinewSoftLatticeDesc.Default.spacing = 0.05 m");
            Check.That(d.AllNeighbours, "SinewSoftLatticeDesc.Default.AllNeighbours");
            Check.Equal(0u, d.cluster_cells, "SinewSoftLatticeDesc.Default.cluster_cells = 0 (one cluster)");
            Check.Equal(0f, d.material.bend_compliance, "the lattice's default material has bend compliance 0");
            Check.Equal(SinewSoftSettings.Default, d.soft, "the lattice's default settings are SinewSoftSettings.Default");
            Check.That(d.orientation.w == 1f && d.orientation.x == 0f && d.origin.x == 0f && d.origin.y == 0f && d.origin.z == 0f,
                "the lattice's default is at the origin, identity orientation");
            Check.Equal(d.Index(1, 2, 3), (3 * 4 + 2) * 4 + 1, "Index(i, j, k) = (k · ny + j) · nx + i");
        }

        // ---- creation ----

        static void Lattice()
        {
            using (World w = NewWorld())
            {
                SinewSoftLatticeDesc d = SinewSoftLatticeDesc.Default;
                d.origin = new SinewVec3(1f, 2f, 3f);
                SoftBody b = w.CreateSoftLattice(d);
                SinewBodyInfo info = b.GetInfo();
                Check.Equal(SinewBodyKind.SINEW_BODY_SOFT, info.Kind, "GetInfo().Kind is SINEW_BODY_SOFT");
                Check.Equal(64u, info.particle_count, "a 4³ lattice has 64 particles");
                Check.Equal(64, b.VertexCount, "VertexCount is the particle count");
                Check.Equal(108u, info.triangle_count, "its surface: 6 faces of 3 x 3 cells, 2 triangles each = 108");
                Check.Equal(324, b.IndexCount, "IndexCount = 3 per surface triangle");
                Check.That(b.World == w && !b.IsDisposed, "World and IsDisposed");

                float rest = 0.15f * 0.15f * 0.15f;
                float v, r;
                b.GetVolume(out v, out r);
                Check.That(Near(r, rest, rest * 1e-4f), "RestVolume of a 4³ lattice 5 cm apart is (0.15 m)³", "got " + r);
                Check.That(Near(v, r, r * 1e-5f), "Volume equals RestVolume at creation", v + " vs " + r);
                Check.Equal(r, b.RestVolume, "RestVolume is GetVolume's rest volume");
                Check.Equal(v, b.Volume, "Volume is GetVolume's volume");

                SinewVec3 c = b.CenterOfMass;
                Check.That(Near(c.x, 1f, 1e-5f) && Near(c.y, 2f, 1e-5f) && Near(c.z, 3f, 1e-5f), "CenterOfMass is the lattice's origin at creation", c.ToString());
                Vec3 cv;
                b.GetCenterOfMass(out cv);
                Check.That(cv.x == c.x && cv.y == c.y && cv.z == c.z, "GetCenterOfMass<T> gives the same bits as any 12-byte vector");

                SinewSoftSettings s = b.Settings;
                Check.Equal(SinewSoftSettings.Default, s, "Settings reads back the desc's settings");
                s.volume_compliance = 0.01f;
                s.shape_stiffness = 0.8f;
                s.ChapterStiffness = true;
                s.shape_linear = 0.25f;
                s.plastic_yield = 0.05f;
                s.plastic_creep = 2f;
                s.plastic_max = 0.3f;
                b.Settings = s;
                Check.Equal(s, b.Settings, "Settings set then read back, every field");

                // Gravity pulls the centre of mass down; the volume stays.
                for (int i = 0; i < 10; i++)
                {
                    w.Step(Frame);
                }
                SinewVec3 fallen = b.CenterOfMass;
                Check.That(fallen.y < 2f - 0.01f && Near(fallen.x, 1f, 1e-4f), "CenterOfMass follows the fall", fallen.ToString());

                SinewSoftLatticeDesc bar = SinewSoftLatticeDesc.Default;
                bar.nx = 8;
                bar.ny = 2;
                bar.nz = 3;
                bar.spacing = 0.1f;
                bar.AllNeighbours = false;
                bar.cluster_cells = 2;
                SoftBody b2 = w.CreateSoftLattice(bar);
                Check.Equal(48, b2.VertexCount, "an 8 x 2 x 3 lattice (axis + face diagonals + bend, clusters of 2³ cells) has 48 particles");
                Check.That(Near(b2.RestVolume, 0.7f * 0.1f * 0.2f, 1e-5f), "its rest volume is 0.7 x 0.1 x 0.2 m³", b2.RestVolume.ToString());
                b2.Dispose();
                Check.That(b2.IsDisposed, "Dispose");
            }
        }

        static void Tets()
        {
            using (World w = NewWorld())
            {
                Vec3[] p = Cube(0.2f, new Vec3(0f, 1f, 0f));
                SoftBody b = w.CreateSoftBody(p, CubeTets, SinewMaterial.Default, SinewSoftSettings.Default);
                SinewBodyInfo info = b.GetInfo();
                Check.Equal(SinewBodyKind.SINEW_BODY_SOFT, info.Kind, "CreateSoftBody: GetInfo().Kind is SINEW_BODY_SOFT");
                Check.Equal(8, b.VertexCount, "a cube of 6 tetrahedra has its 8 positions as vertices");
                Check.Equal(12u, info.triangle_count, "its boundary: 12 triangles");
                Check.Equal(19u, info.constraint_count, "a distance constraint on each of its 19 edges (12 sides, 6 face diagonals, 1 body diagonal)");
                Check.That(Near(b.RestVolume, 0.008f, 1e-6f), "RestVolume of a 0.2 m cube is 0.008 m³", b.RestVolume.ToString());
                SinewVec3 c = b.CenterOfMass;
                Check.That(Near(c.x, 0.1f, 1e-6f) && Near(c.y, 1.1f, 1e-6f) && Near(c.z, 0.1f, 1e-6f), "CenterOfMass is the cube's centre", c.ToString());

                // Any orientation: the tetrahedra reversed give the same body.
                var flipped = (int[])CubeTets.Clone();
                for (int t = 0; t < flipped.Length; t += 4)
                {
                    int s = flipped[t + 2];
                    flipped[t + 2] = flipped[t + 3];
                    flipped[t + 3] = s;
                }
                var settings = SinewSoftSettings.Default;
                settings.shape_stiffness = 0.9f;
                SoftBody b2 = w.CreateSoftBody(new ReadOnlySpan<Vec3>(p), new ReadOnlySpan<uint>(Array.ConvertAll(flipped, i => (uint)i)), SinewMaterial.Default, settings);
                Check.That(Near(b2.RestVolume, 0.008f, 1e-6f), "tetrahedra wound the other way (uint indices) are kept positive", b2.RestVolume.ToString());
                Check.Equal(0.9f, b2.Settings.shape_stiffness, "CreateSoftBody takes its settings");
            }
        }

        // ---- errors ----

        static unsafe void Errors()
        {
            using (World w = NewWorld())
            {
                SinewSoftLatticeDesc d = SinewSoftLatticeDesc.Default;
                d.ny = 1;
                Check.ThrowsSinew("a lattice 1 particle high", SinewResult.SINEW_INVALID_ARGUMENT, () => w.CreateSoftLattice(d), "at least 2");
                d = SinewSoftLatticeDesc.Default;
                d.nx = d.ny = d.nz = 200;
                Check.ThrowsSinew("a lattice of 8 million particles", SinewResult.SINEW_TOO_LARGE, () => w.CreateSoftLattice(d), "limit");
                d = SinewSoftLatticeDesc.Default;
                d.spacing = float.NaN;
                Check.ThrowsSinew("a lattice spacing of NaN", SinewResult.SINEW_NON_FINITE, () => w.CreateSoftLattice(d), "spacing");
                d = SinewSoftLatticeDesc.Default;
                d.spacing = 0f;
                Check.ThrowsSinew("a lattice spacing of 0", SinewResult.SINEW_INVALID_ARGUMENT, () => w.CreateSoftLattice(d), "spacing");
                d = SinewSoftLatticeDesc.Default;
                d.origin = new SinewVec3(0f, float.NaN, 0f);
                Check.ThrowsSinew("a lattice origin of NaN", SinewResult.SINEW_NON_FINITE, () => w.CreateSoftLattice(d));
                d = SinewSoftLatticeDesc.Default;
                d.orientation = new SinewQuat(0f, 0f, 0f, 2f);
                Check.ThrowsSinew("a lattice orientation that is not a unit quaternion", SinewResult.SINEW_INVALID_ARGUMENT, () => w.CreateSoftLattice(d), "unit quaternion");
                d = SinewSoftLatticeDesc.Default;
                d.soft.shape_stiffness = 1.5f;
                Check.ThrowsSinew("a lattice with shape_stiffness 1.5", SinewResult.SINEW_INVALID_ARGUMENT, () => w.CreateSoftLattice(d), "shape_stiffness");
                d = SinewSoftLatticeDesc.Default;
                d.material.particle_mass = -1f;
                Check.ThrowsSinew("a lattice of negative particle mass", SinewResult.SINEW_INVALID_ARGUMENT, () => w.CreateSoftLattice(d));

                SoftBody b = w.CreateSoftLattice(SinewSoftLatticeDesc.Default);
                SinewSoftSettings good = b.Settings;
                SinewSoftSettings s = good;
                s.volume_compliance = 2000f;
                Check.ThrowsSinew("Settings: volume_compliance 2000 (beyond 1000)", SinewResult.SINEW_INVALID_ARGUMENT, () => b.Settings = s, "volume_compliance");
                s = good;
                s.shape_stiffness = -0.1f;
                Check.ThrowsSinew("Settings: shape_stiffness -0.1", SinewResult.SINEW_INVALID_ARGUMENT, () => b.Settings = s, "shape_stiffness");
                s = good;
                s.shape_linear = 1.01f;
                Check.ThrowsSinew("Settings: shape_linear 1.01", SinewResult.SINEW_INVALID_ARGUMENT, () => b.Settings = s, "shape_linear");
                s = good;
                s.plastic_creep = float.NaN;
                Check.ThrowsSinew("Settings: plastic_creep NaN", SinewResult.SINEW_NON_FINITE, () => b.Settings = s, "plastic_creep");
                s = good;
                s.plastic_yield = float.PositiveInfinity;
                Check.ThrowsSinew("Settings: plastic_yield infinite", SinewResult.SINEW_NON_FINITE, () => b.Settings = s, "plastic_yield");
                s = good;
                s.shape_stiffness = 0.7f;
                s.plastic_max = -1f;
                Check.ThrowsSinew("Settings: plastic_max -1", SinewResult.SINEW_INVALID_ARGUMENT, () => b.Settings = s, "plastic_max");
                Check.Equal(good, b.Settings, "a refused Settings changes nothing (checked whole first)");

                Vec3[] p = Cube(0.2f, new Vec3(0f, 1f, 0f));
                SinewMaterial m = SinewMaterial.Default;
                SinewSoftSettings ss = SinewSoftSettings.Default;
                Check.ThrowsSinew("CreateSoftBody: 23 indices (not 4 per tetrahedron)", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => w.CreateSoftBody(new ReadOnlySpan<Vec3>(p), new ReadOnlySpan<int>(CubeTets, 0, 23), m, ss), "4 per tetrahedron");
                var badIndex = (int[])CubeTets.Clone();
                badIndex[9] = 8;
                Check.ThrowsSinew("CreateSoftBody: tetrahedron 2 has index 8 of 8 positions", SinewResult.SINEW_OUT_OF_RANGE,
                    () => w.CreateSoftBody(p, badIndex, m, ss), "tetrahedron 2 has index 8");
                badIndex[9] = -1;
                Check.ThrowsSinew("CreateSoftBody: a negative index", SinewResult.SINEW_OUT_OF_RANGE,
                    () => w.CreateSoftBody(p, badIndex, m, ss), "tetrahedron 2");
                Check.ThrowsSinew("CreateSoftBody: a degenerate tetrahedron (four corners of one face)", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => w.CreateSoftBody(p, new[] { 0, 1, 3, 7, 0, 1, 2, 3 }, m, ss), "tetrahedron 1");
                var nanP = (Vec3[])p.Clone();
                nanP[5].y = float.NaN;
                Check.ThrowsSinew("CreateSoftBody: a NaN position", SinewResult.SINEW_NON_FINITE, () => w.CreateSoftBody(nanP, CubeTets, m, ss));
                Check.ThrowsSinew("CreateSoftBody: no tetrahedra", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => w.CreateSoftBody(p, new int[0], m, ss), "at least 4 positions");
                Check.ThrowsSinew("CreateSoftBody: 3 positions", SinewResult.SINEW_INVALID_ARGUMENT,
                    () => w.CreateSoftBody(new ReadOnlySpan<Vec3>(p, 0, 3), new ReadOnlySpan<int>(CubeTets, 0, 4), m, ss));
                SinewSoftSettings badSettings = ss;
                badSettings.shape_stiffness = 2f;
                Check.ThrowsSinew("CreateSoftBody: shape_stiffness 2", SinewResult.SINEW_INVALID_ARGUMENT, () => w.CreateSoftBody(p, CubeTets, m, badSettings), "shape_stiffness");
                SinewMaterial badMaterial = m;
                badMaterial.stretch_compliance = float.NaN;
                Check.ThrowsSinew("CreateSoftBody: a NaN compliance", SinewResult.SINEW_NON_FINITE, () => w.CreateSoftBody(p, CubeTets, badMaterial, ss));
                Check.Throws<ArgumentException>("CreateSoftBody: a position type that is not 12 bytes", () => w.CreateSoftBody(new float[8], CubeTets, m, ss));

                // A cloth is a particle body but not a soft body: no settings, no volume; it has a
                // centre of mass.
                SinewClothGridDesc gd = SinewClothGridDesc.Default;
                Cloth cloth = Cloth.CreateGrid(w, gd);
                Check.ThrowsSinew("a cloth asked for its volume (sinew_softbody_get_volume)", SinewResult.SINEW_INVALID_ARGUMENT, () =>
                {
                    float v, r;
                    Native(NativeMethods.sinew_softbody_get_volume(cloth.Handle, &v, &r));
                }, "not a soft body");
                Check.ThrowsSinew("a cloth asked for soft settings", SinewResult.SINEW_INVALID_ARGUMENT, () =>
                {
                    SinewSoftSettings o;
                    Native(NativeMethods.sinew_softbody_get_settings(cloth.Handle, &o));
                }, "not a soft body");
                Check.ThrowsSinew("a cloth given soft settings", SinewResult.SINEW_INVALID_ARGUMENT, () =>
                {
                    SinewSoftSettings o = SinewSoftSettings.Default;
                    Native(NativeMethods.sinew_softbody_set_settings(cloth.Handle, &o));
                }, "not a soft body");
                var cp = new Vec3[cloth.VertexCount];
                cloth.ReadPositions(cp);
                Vec3 mean = Mean(cp);
                SinewVec3 cc = cloth.CenterOfMass;
                Check.That(Near(cc.x, mean.x, 1e-4f) && Near(cc.y, mean.y, 1e-4f) && Near(cc.z, mean.z, 1e-4f),
                    "a cloth's CenterOfMass is the mean of its equal-mass particles", cc + " vs " + mean);

                Check.ThrowsSinew("null pointers (sinew_softbody_get_volume)", SinewResult.SINEW_NULL_POINTER,
                    () => Native(NativeMethods.sinew_softbody_get_volume(b.Handle, null, null)));

                var shortBuffer = new Vec3[b.VertexCount - 1];
                Check.ThrowsSinew("ReadPositions into a buffer one short", SinewResult.SINEW_BUFFER_TOO_SMALL, () => b.ReadPositions(shortBuffer));
                Check.ThrowsSinew("ReadIndices into a buffer one short", SinewResult.SINEW_BUFFER_TOO_SMALL, () => b.ReadIndices(new int[b.IndexCount - 1]));

                b.Dispose();
                Check.ThrowsSinew("Volume of a disposed soft body", SinewResult.SINEW_INVALID_HANDLE, () => { float v = b.Volume; });
                Check.ThrowsSinew("Settings of a disposed soft body", SinewResult.SINEW_INVALID_HANDLE, () => { SinewSoftSettings o = b.Settings; });
                Check.ThrowsSinew("CenterOfMass of a disposed soft body", SinewResult.SINEW_INVALID_HANDLE, () => { SinewVec3 o = b.CenterOfMass; });
            }
        }

        // ---- readback ----

        static void Readback()
        {
            using (World w = NewWorld())
            {
                SinewSoftLatticeDesc d = SinewSoftLatticeDesc.Default;
                d.nx = 3;
                d.ny = 4;
                d.nz = 5;
                d.spacing = 0.1f;
                d.origin = new SinewVec3(0f, 1f, 0f);
                SoftBody b = w.CreateSoftLattice(d);
                int n = b.VertexCount;
                Check.Equal(60, n, "a 3 x 4 x 5 lattice has 60 vertices");
                var p = new Vec3[n];
                b.ReadPositions(p);
                bool ordered = true;
                for (int k = 0; k < 5; k++)
                {
                    for (int j = 0; j < 4; j++)
                    {
                        for (int i = 0; i < 3; i++)
                        {
                            Vec3 q = p[d.Index(i, j, k)];
                            ordered &= Near(q.x, (i - 1f) * 0.1f, 1e-6f) && Near(q.y, 1f + (j - 1.5f) * 0.1f, 1e-6f) && Near(q.z, (k - 2f) * 0.1f, 1e-6f);
                        }
                    }
                }
                Check.That(ordered, "ReadPositions: particle (k · ny + j) · nx + i sits at origin + ((i, j, k) − (n − 1) / 2) · spacing");

                var normals = new Vec3[n];
                b.ReadNormals(normals);
                Vec3 centre = new Vec3(0f, 1f, 0f);
                bool unit = true, outward = true;
                int surface = 0;
                for (int k = 0; k < 5; k++)
                {
                    for (int j = 0; j < 4; j++)
                    {
                        for (int i = 0; i < 3; i++)
                        {
                            int v = d.Index(i, j, k);
                            unit &= Near(Length(normals[v]), 1f, 1e-4f);
                            if (i == 0 || i == 2 || j == 0 || j == 3 || k == 0 || k == 4)
                            {
                                // On the surface: away from the centre (a corner's or an edge's
                                // normal is the mean of its faces').
                                surface++;
                                outward &= Dot(normals[v], Sub(p[v], centre)) > 0f;
                            }
                        }
                    }
                }
                Check.That(unit, "ReadNormals: every vertex's normal is of unit length");
                Check.Equal(54, surface, "54 of the 60 particles are on the surface");
                Check.That(outward, "ReadNormals: every surface particle's normal points away from the centre");

                int count = b.IndexCount;
                int triangles = 2 * 2 * (2 * 3 + 2 * 4 + 3 * 4);
                Check.Equal(3 * triangles, count, "IndexCount: 2 triangles per surface cell, 2 · (2·3 + 2·4 + 3·4) = 52 cells of 2 × 3 × 4");
                var idx = new int[count];
                b.ReadIndices(idx);
                bool inRange = true, wound = true;
                for (int t = 0; t < count; t += 3)
                {
                    inRange &= idx[t] >= 0 && idx[t] < n && idx[t + 1] >= 0 && idx[t + 1] < n && idx[t + 2] >= 0 && idx[t + 2] < n;
                    if (!inRange)
                    {
                        break;
                    }
                    Vec3 a = p[idx[t]];
                    Vec3 face = Cross(Sub(p[idx[t + 1]], a), Sub(p[idx[t + 2]], a));
                    Vec3 mid = new Vec3((a.x + p[idx[t + 1]].x + p[idx[t + 2]].x) / 3f, (a.y + p[idx[t + 1]].y + p[idx[t + 2]].y) / 3f,
                        (a.z + p[idx[t + 1]].z + p[idx[t + 2]].z) / 3f);
                    wound &= Dot(face, Sub(mid, centre)) > 0f;
                }
                Check.That(inRange, "ReadIndices: every index is a vertex");
                Check.That(wound, "ReadIndices: every surface triangle is wound outward");
                var uidx = new uint[count];
                b.ReadIndices(uidx);
                bool same = true;
                for (int i = 0; i < count; i++)
                {
                    same &= uidx[i] == (uint)idx[i];
                }
                Check.That(same, "ReadIndices(uint) equals ReadIndices(int)");

                SinewVec3 lo, hi;
                b.GetBounds(out lo, out hi);
                Check.That(Near(lo.x, -0.1f, 1e-6f) && Near(hi.z, 0.2f, 1e-6f) && Near(lo.y, 0.85f, 1e-6f), "GetBounds: the lattice's box");
            }
        }

        // ---- physics ----

        static void JellyDrop()
        {
            using (World w = NewWorld())
            {
                Collider floor = Collider.Create(w, SinewColliderDesc.Plane(0xffffffffu));
                const int n = 6;
                SinewSoftLatticeDesc d = SinewSoftLatticeDesc.Default;
                d.nx = d.ny = d.nz = n;
                d.spacing = 0.05f;
                d.origin = new SinewVec3(0f, 0.6f, 0f);
                d.material.particle_mass = 1f / (n * n * n);
                d.material.stretch_compliance = 1e-4f;
                d.material.shear_compliance = 1e-4f;
                d.material.damping = 0.1f;
                d.soft.shape_stiffness = 0.3f;
                SoftBody jelly = w.CreateSoftLattice(d);
                float thickness = d.material.thickness;
                var p = new Vec3[jelly.VertexCount];
                var previous = new Vec3[jelly.VertexCount];
                float lowest = float.MaxValue, worstVolume = 0f, lastMove = float.MaxValue;
                int restAt = -1;
                for (int f = 0; f < 240; f++)
                {
                    Array.Copy(p, previous, p.Length);
                    w.Step(Frame);
                    jelly.ReadPositions(p);
                    float move = 0f;
                    for (int i = 0; i < p.Length; i++)
                    {
                        lowest = Math.Min(lowest, p[i].y);
                        move = Math.Max(move, Length(Sub(p[i], previous[i])));
                    }
                    float v, r;
                    jelly.GetVolume(out v, out r);
                    if (f > 60)
                    {
                        worstVolume = Math.Max(worstVolume, Math.Abs(v / r - 1f));
                    }
                    if (restAt < 0 && f > 30 && (move < 1e-3f * Frame || jelly.GetInfo().sleeping != 0))
                    {
                        restAt = f;
                    }
                    lastMove = move;
                }
                Console.WriteLine("  jelly 6³ dropped 0.5 m: lowest particle at " + (lowest * 1e3f).ToString("F2") + " mm (radius " + thickness * 1e3f
                    + " mm), worst volume error after landing " + (worstVolume * 100f).ToString("F3") + " %, at rest at frame " + restAt);
                Check.That(lowest > -0.001f, "no particle goes below the plane minus 1 mm", "lowest " + lowest + " m");
                Check.That(lowest > thickness - 0.001f, "no particle sinks more than 1 mm into its radius above the plane", "lowest " + lowest + " m, radius " + thickness);
                Check.That(worstVolume < 0.01f, "after landing the volume stays within 1 % of rest", (worstVolume * 100f) + " %");
                Check.That(restAt >= 0, "the jelly comes to rest (particles move < 1 mm/s, or it sleeps)", "last frame's largest move " + lastMove + " m");
                SinewVec3 c = jelly.CenterOfMass;
                float half = 0.5f * (n - 1) * d.spacing;
                Check.That(Near(c.y, thickness + half, 0.01f) && Near(c.x, 0f, 0.005f) && Near(c.z, 0f, 0.005f),
                    "it rests upright on the plane: centre of mass at radius + half its height, above where it fell", c.ToString());
                float vNow = jelly.Volume;
                Check.That(Math.Abs(vNow / jelly.RestVolume - 1f) < 0.01f, "at rest its volume is within 1 % of rest", vNow + " vs " + jelly.RestVolume);
                floor.Dispose();
            }
        }

        // Two of the Jelly Drop sample's jellies (0.4 m, 6³ particles, edge compliance 2e-4 m/N,
        // shape stiffness 0.3, 1 kg), paired: the upper let go 5 cm above the lower, which stands
        // on the plane. Contact between bodies has no friction (the library's particle-particle
        // and particle-triangle contacts are frictionless), so the upper does not stay on top for
        // ever: it slides off within a few seconds; what is checked is that it lands and sits on
        // the lower without sinking into it, and that both end on the plane with their volumes.
        static void JellyOnJelly()
        {
            using (World w = NewWorld())
            {
                Collider floor = Collider.Create(w, SinewColliderDesc.Plane(0xffffffffu));
                SinewSoftLatticeDesc d = SinewSoftLatticeDesc.Default;
                d.nx = d.ny = d.nz = 6;
                d.spacing = 0.08f;
                d.material.particle_mass = 1f / 216f;
                d.material.stretch_compliance = 2e-4f;
                d.material.shear_compliance = 2e-4f;
                d.soft.shape_stiffness = 0.3f;
                float thickness = d.material.thickness;
                d.origin = new SinewVec3(0f, thickness + 0.2f, 0f);
                SoftBody lower = w.CreateSoftLattice(d);
                d.origin = new SinewVec3(0f, thickness + 0.65f, 0f);
                SoftBody upper = w.CreateSoftLattice(d);
                upper.SetCollisionPair(lower, true);
                var pl = new Vec3[lower.VertexCount];
                var pu = new Vec3[upper.VertexCount];
                float worstVolume = 0f, worstSink = 0f, lowest = float.MaxValue, minHeight = float.MaxValue;
                for (int f = 0; f < 300; f++)
                {
                    w.Step(Frame);
                    lower.ReadPositions(pl);
                    upper.ReadPositions(pu);
                    foreach (Vec3 p in pl)
                    {
                        lowest = Math.Min(lowest, p.y);
                    }
                    foreach (Vec3 p in pu)
                    {
                        lowest = Math.Min(lowest, p.y);
                    }
                    worstVolume = Math.Max(worstVolume, Math.Max(Math.Abs(lower.Volume / lower.RestVolume - 1f), Math.Abs(upper.Volume / upper.RestVolume - 1f)));
                    if (f >= 20 && f < 60)
                    {
                        // Sitting on it: the upper's bottom layer against the lower's top layer.
                        float lowerTop = float.MinValue, upperBottom = float.MaxValue;
                        foreach (Vec3 p in pl)
                        {
                            lowerTop = Math.Max(lowerTop, p.y);
                        }
                        foreach (Vec3 p in pu)
                        {
                            upperBottom = Math.Min(upperBottom, p.y);
                        }
                        worstSink = Math.Max(worstSink, lowerTop - upperBottom);
                        minHeight = Math.Min(minHeight, upper.CenterOfMass.y - lower.CenterOfMass.y);
                    }
                }
                SinewVec3 cu = upper.CenterOfMass;
                Console.WriteLine("  jelly on jelly: in frames 20-60 the upper's centre is at least " + (minHeight * 1e3f).ToString("F1")
                    + " mm above the lower's, its bottom at most " + (worstSink * 1e3f).ToString("F1") + " mm below the lower's top; after 5 s its centre is at "
                    + cu + "; worst volume error " + (worstVolume * 100f).ToString("F2") + " %");
                Check.That(minHeight > 0.38f, "the upper jelly lands and sits on the lower one (centres about 0.4 m apart in height)", minHeight + " m");
                Check.That(worstSink < 0.005f, "sitting on it, the upper's lowest particle is never more than 5 mm below the lower's highest", worstSink + " m");
                Check.That(lowest > -0.001f, "no particle of either goes below the plane minus 1 mm", lowest + " m");
                Check.That(worstVolume < 0.02f, "both keep their volume within 2 % throughout", (worstVolume * 100f) + " %");
                floor.Dispose();
            }
        }

        // ---- no allocation ----

        static void NoAllocation()
        {
            using (World w = NewWorld())
            {
                Collider floor = Collider.Create(w, SinewColliderDesc.Plane(0xffffffffu));
                SinewSoftLatticeDesc d = SinewSoftLatticeDesc.Default;
                d.origin = new SinewVec3(0f, 0.5f, 0f);
                SoftBody b = w.CreateSoftLattice(d);
                var p = new Vec3[b.VertexCount];
                var nrm = new Vec3[b.VertexCount];
                var idx = new int[b.IndexCount];
                SinewSoftSettings s = b.Settings;
                Frame1(w, b, p, nrm, idx, s, 0);
                long before = GC.GetAllocatedBytesForCurrentThread();
                for (int i = 1; i <= 100; i++)
                {
                    Frame1(w, b, p, nrm, idx, s, i);
                }
                long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
                Check.Equal(0L, allocated, "100 frames of Step, ReadPositions, ReadNormals, ReadIndices, Volume, RestVolume, GetVolume, CenterOfMass, GetCenterOfMass, Settings get / set allocate 0 bytes");
                floor.Dispose();
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static void Frame1(World w, SoftBody b, Vec3[] p, Vec3[] nrm, int[] idx, SinewSoftSettings s, int frame)
        {
            s.shape_stiffness = 0.3f + 0.001f * (frame % 10);
            b.Settings = s;
            SinewSoftSettings back = b.Settings;
            w.Step(Frame);
            b.ReadPositions(p);
            b.ReadNormals(nrm);
            b.ReadIndices(idx);
            float v, r;
            b.GetVolume(out v, out r);
            float sum = b.Volume + b.RestVolume + v + r + back.shape_stiffness;
            SinewVec3 c = b.CenterOfMass;
            Vec3 cv;
            b.GetCenterOfMass(out cv);
            if (float.IsNaN(sum + c.x + cv.y))
            {
                throw new InvalidOperationException("NaN");
            }
        }
    }
}
