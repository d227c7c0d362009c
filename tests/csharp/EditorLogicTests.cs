// The logic behind the Unity editor tools, run on Mono against the real libsinew.so and the
// package's Sinew.Runtime.dll (compiled against the Unity stub, whose value types hold data):
// the paint brush's maths, painted values into a native cloth, the tearing rebuild against the
// wrapper's topology readback, presets, and the Unity Cloth mapping field by field. With an
// output directory it also draws the pictures of docs/unity.md from the same data.
//
//   mono EditorLogicTests.exe [picture-dir [preset-dir preset-script-guid]]
//
// With a preset directory it writes each built-in preset as the Unity asset the package ships
// (Presets/*.asset, compared with the committed ones by scripts/test-unity.sh).
//
// Last line: "csharp-program editor: N passed, M failed".
using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using Sinew;
using Sinew.Components;
using UnityEngine;

namespace Sinew.Tests
{
    static class EditorLogicTests
    {
        const float Dt = 1f / 60f;

        static int Main(string[] args)
        {
            Check.Group("brush: weight, radius and falloff", BrushWeight);
            Check.Group("brush: paint, erase, flood on a grid", BrushApply);
            Check.Group("brush: mirrored strokes leave symmetric values", BrushMirror);
            Check.Group("brush: bad input throws and changes nothing", BrushErrors);
            Check.Group("brush: the ray from the mouse onto the mesh", BrushRaycast);
            Check.Group("painted values: storage, import from vertex colours", PaintStorage);
            Check.Group("painted values: pins and mass into a native cloth", PaintedCloth);
            Check.Group("painted values: soft-body pins onto the lattice", PaintedSoftBody);
            Check.Group("tearing: the mirror follows the wrapper's topology readback", TearingMirror);
            Check.Group("presets: built-ins, application, save as preset", Presets);
            Check.Group("Unity Cloth conversion: the mapping field by field", Conversion);
            Check.Group("Unity Cloth conversion: the compliance in the native solver", ConversionInTheSolver);
            Check.Group("Unity Cloth conversion: the damping in the native solver", DampingInTheSolver);
            Check.Group("Unity Cloth conversion: the acceleration's wind in the native solver", WindInTheSolver);
            Check.Group("Unity Cloth conversion: colliders", ConversionColliders);
            if (args.Length > 0)
            {
                Check.Group("pictures for docs/unity.md", () => Pictures(args[0]));
            }
            if (args.Length > 2)
            {
                Check.Group("the shipped preset assets", () => PresetAssets(args[1], args[2]));
            }
            return Check.Finish("editor");
        }

        // ---- a symmetric grid in the XY plane (a cape hanging from y = 0) ----

        sealed class Grid
        {
            public int Cols, Rows;
            public float Spacing;
            public Vector3[] Positions;
            public int[] Triangles;

            public Grid(int cols, int rows, float spacing)
            {
                Cols = cols;
                Rows = rows;
                Spacing = spacing;
                Positions = new Vector3[cols * rows];
                float half = 0.5f * (cols - 1) * spacing;
                for (int r = 0; r < rows; r++)
                {
                    for (int c = 0; c < cols; c++)
                    {
                        Positions[r * cols + c] = new Vector3(c * spacing - half, -r * spacing, 0f);
                    }
                }
                var t = new List<int>();
                for (int r = 0; r + 1 < rows; r++)
                {
                    for (int c = 0; c + 1 < cols; c++)
                    {
                        int a = r * cols + c;
                        t.AddRange(new[] { a, a + cols, a + 1, a + 1, a + cols, a + cols + 1 });
                    }
                }
                Triangles = t.ToArray();
            }

            /// <summary>The vertex mirrored across x = 0.</summary>
            public int Mirror(int i)
            {
                int r = i / Cols, c = i % Cols;
                return r * Cols + (Cols - 1 - c);
            }
        }

        static float Dist(Vector3 a, Vector3 b)
        {
            return (float)Math.Sqrt((a - b).sqrMagnitude);
        }

        static float[] Filled(int n, float v)
        {
            var a = new float[n];
            for (int i = 0; i < n; i++)
            {
                a[i] = v;
            }
            return a;
        }

        // ---- brush ----

        static void BrushWeight()
        {
            Check.Equal(1f, SinewBrush.Weight(0f, 0.1f, 0.5f), "weight 1 at the centre");
            Check.Equal(1f, SinewBrush.Weight(0.05f, 0.1f, 0.5f), "weight 1 out to r(1 − falloff)");
            Check.Equal(0f, SinewBrush.Weight(0.1f, 0.1f, 0.5f), "weight 0 at the radius");
            Check.Equal(0f, SinewBrush.Weight(0.2f, 0.1f, 0.5f), "weight 0 beyond the radius");
            float mid = SinewBrush.Weight(0.075f, 0.1f, 0.5f);
            Check.That(Math.Abs(mid - 0.5f) < 1e-6f, "smoothstep: weight 0.5 half-way through the falloff band", mid.ToString());
            float quarter = SinewBrush.Weight(0.0625f, 0.1f, 0.5f);
            // t = 0.75: 3t² − 2t³ = 0.84375.
            Check.That(Math.Abs(quarter - 0.84375f) < 1e-6f, "smoothstep: 3t² − 2t³ at t = 0.75 is 0.84375", quarter.ToString());
            Check.Equal(1f, SinewBrush.Weight(0.099f, 0.1f, 0f), "falloff 0: a hard-edged brush (1 just inside the radius)");
            bool monotonic = true;
            float last = 1f;
            for (int k = 0; k <= 100; k++)
            {
                float w = SinewBrush.Weight(k * 0.001f, 0.1f, 1f);
                monotonic &= w <= last && w >= 0f;
                last = w;
            }
            Check.That(monotonic, "falloff 1: the weight falls monotonically from 1 to 0");
            Check.Equal(0f, SinewBrush.Weight(0f, 0f, 0.5f), "radius 0 paints nothing");
        }

        static void BrushApply()
        {
            var g = new Grid(21, 21, 0.05f);
            int n = g.Positions.Length;
            var center = new Vector3(0.2f, -0.3f, 0f);

            float[] pin = Filled(n, 0f);
            int changed = SinewBrush.Apply(g.Positions, pin, center, 0.12f, 0f, 1f, 1f, SinewBrushMode.Paint, SinewMirrorAxis.None, 0f);
            int inside = 0;
            bool exact = true;
            for (int i = 0; i < n; i++)
            {
                bool within = Dist(g.Positions[i], center) < 0.12f;
                inside += within ? 1 : 0;
                exact &= pin[i] == (within ? 1f : 0f);
            }
            Check.That(inside > 10 && changed == inside, "hard brush: exactly the vertices within the radius change", changed + " changed, " + inside + " within 0.12 m");
            Check.That(exact, "hard brush, strength 1: those are set to the value, the rest untouched");

            float[] soft = Filled(n, 0f);
            SinewBrush.Apply(g.Positions, soft, center, 0.12f, 0.5f, 1f, 1f, SinewBrushMode.Paint, SinewMirrorAxis.None, 0f);
            float worst = 0f;
            for (int i = 0; i < n; i++)
            {
                worst = Math.Max(worst, Math.Abs(soft[i] - SinewBrush.Weight(Dist(g.Positions[i], center), 0.12f, 0.5f)));
            }
            Check.That(worst < 1e-6f, "soft brush from 0 to 1: each value is its weight (worst error " + worst + ")");

            float[] half = Filled(n, 0.2f);
            SinewBrush.Apply(g.Positions, half, center, 0.12f, 0f, 0.5f, 1f, SinewBrushMode.Paint, SinewMirrorAxis.None, 0f);
            int nearest = Nearest(g, center);
            Check.That(Math.Abs(half[nearest] - 0.6f) < 1e-6f, "strength 0.5: 0.2 moves half-way to 1 (0.6)", half[nearest].ToString());

            SinewBrush.Apply(g.Positions, pin, center, 0.06f, 0f, 1f, 1f, SinewBrushMode.Erase, SinewMirrorAxis.None, SinewVertexPaint.Unpainted(SinewPaintChannel.Pin));
            Check.Equal(0f, pin[nearest], "erase: the pin channel goes back to 0 under the brush");
            Check.Equal(1f, pin[Nearest(g, center + new Vector3(0.1f, 0f, 0f))], "erase: painted values outside its radius stay");

            // A "free" channel (max distance: negative = no limit).
            float[] md = Filled(n, -1f);
            SinewBrush.Apply(g.Positions, md, center, 0.12f, 1f, 0.3f, 0.05f, SinewBrushMode.Paint, SinewMirrorAxis.None, -1f);
            Check.Equal(0.05f, md[nearest], "max distance: the first touch of an unpainted (free) vertex sets the value");
            Check.Equal(-1f, md[Nearest(g, new Vector3(-0.4f, -0.9f, 0f))], "max distance: vertices the brush did not reach stay free");
            SinewBrush.Apply(g.Positions, md, center, 0.12f, 1f, 1f, 0f, SinewBrushMode.Erase, SinewMirrorAxis.None, -1f);
            Check.Equal(-1f, md[nearest], "max distance: erase sets the vertex free again (−1)");

            float[] flood = Filled(n, 0.3f);
            flood[5] = 0.7f;
            int floodChanged = SinewBrush.Apply(g.Positions, flood, center, 0.01f, 0f, 0.1f, 0.7f, SinewBrushMode.Flood, SinewMirrorAxis.None, 0f);
            bool all = true;
            foreach (float v in flood)
            {
                all &= v == 0.7f;
            }
            Check.That(all && floodChanged == n - 1, "flood: every vertex gets the value whatever the brush (and the count changed is reported)", floodChanged + " changed");
        }

        static int Nearest(Grid g, Vector3 p)
        {
            int best = 0;
            for (int i = 1; i < g.Positions.Length; i++)
            {
                if (Dist(g.Positions[i], p) < Dist(g.Positions[best], p))
                {
                    best = i;
                }
            }
            return best;
        }

        static void BrushMirror()
        {
            var g = new Grid(20, 16, 0.05f);
            int n = g.Positions.Length;
            float[] v = Filled(n, -1f);
            // Two overlapping strokes near the plane and one far from it.
            SinewBrush.Apply(g.Positions, v, new Vector3(0.03f, -0.2f, 0f), 0.15f, 0.7f, 0.8f, 0.1f, SinewBrushMode.Paint, SinewMirrorAxis.X, -1f);
            SinewBrush.Apply(g.Positions, v, new Vector3(0.35f, -0.5f, 0f), 0.2f, 0.5f, 0.6f, 0.02f, SinewBrushMode.Paint, SinewMirrorAxis.X, -1f);
            bool symmetric = true;
            int painted = 0, leftPainted = 0;
            for (int i = 0; i < n; i++)
            {
                symmetric &= v[i] == v[g.Mirror(i)];
                painted += v[i] >= 0f ? 1 : 0;
                leftPainted += v[i] >= 0f && g.Positions[i].x < 0f ? 1 : 0;
            }
            Check.That(symmetric, "mirror X: every value equals its mirror image's, exactly");
            Check.That(painted > 20 && leftPainted * 2 == painted, "mirror X: the strokes on +x painted −x as much (" + leftPainted + " of " + painted + ")");
            Check.That(SinewBrush.Mirror(new Vector3(1f, 2f, 3f), SinewMirrorAxis.Y).y == -2f && SinewBrush.Mirror(new Vector3(1f, 2f, 3f), SinewMirrorAxis.Z).z == -3f,
                "Mirror: Y and Z planes negate their coordinate");

            float[] once = Filled(n, 0f);
            SinewBrush.Apply(g.Positions, once, new Vector3(0.01f, -0.3f, 0f), 0.2f, 1f, 0.5f, 1f, SinewBrushMode.Paint, SinewMirrorAxis.X, 0f);
            float[] single = Filled(n, 0f);
            SinewBrush.Apply(g.Positions, single, new Vector3(0.01f, -0.3f, 0f), 0.2f, 1f, 0.5f, 1f, SinewBrushMode.Paint, SinewMirrorAxis.None, 0f);
            int i0 = Nearest(g, new Vector3(0.025f, -0.3f, 0f));
            Check.That(once[i0] == Math.Max(single[i0], single[g.Mirror(i0)]),
                "a vertex reached by both halves of a mirrored stroke is painted once (with the larger weight), not twice");
        }

        static void BrushErrors()
        {
            var g = new Grid(5, 5, 0.1f);
            float[] v = Filled(25, 0.25f);
            Check.Throws<ArgumentException>("Apply with one value too few throws ArgumentException",
                () => SinewBrush.Apply(g.Positions, new float[24], Vector3.zero, 1f, 0f, 1f, 1f, SinewBrushMode.Paint, SinewMirrorAxis.None, 0f));
            ArgumentException e = Check.Throws<ArgumentException>("Apply with a NaN radius throws ArgumentException",
                () => SinewBrush.Apply(g.Positions, v, Vector3.zero, float.NaN, 0f, 1f, 1f, SinewBrushMode.Paint, SinewMirrorAxis.None, 0f));
            Check.That(e != null && e.Message.Contains("finite"), "the message says what is wrong", e == null ? null : e.Message);
            Check.Throws<ArgumentException>("Apply with an infinite value throws ArgumentException",
                () => SinewBrush.Apply(g.Positions, v, Vector3.zero, 1f, 0f, 1f, float.PositiveInfinity, SinewBrushMode.Flood, SinewMirrorAxis.None, 0f));
            bool untouched = true;
            foreach (float x in v)
            {
                untouched &= x == 0.25f;
            }
            Check.That(untouched, "refused strokes change nothing");
        }

        static void BrushRaycast()
        {
            var g = new Grid(11, 11, 0.1f);
            float d;
            Vector3 hit;
            bool ok = SinewBrush.Raycast(g.Positions, g.Triangles, new Vector3(0.123f, -0.456f, -2f), new Vector3(0f, 0f, 1f), out d, out hit);
            Check.That(ok && Math.Abs(d - 2f) < 1e-5f && Math.Abs(hit.x - 0.123f) < 1e-5f && Math.Abs(hit.y + 0.456f) < 1e-5f && Math.Abs(hit.z) < 1e-6f,
                "a ray along +z hits the grid at z = 0 where it crosses", ok + " " + d + " (" + hit.x + ", " + hit.y + ", " + hit.z + ")");
            ok = SinewBrush.Raycast(g.Positions, g.Triangles, new Vector3(0.1f, -0.5f, 2f), new Vector3(0f, 0f, -1f), out d, out hit);
            Check.That(ok && Math.Abs(d - 2f) < 1e-5f, "the back face is hit too (painting from behind a cape)");
            Check.That(!SinewBrush.Raycast(g.Positions, g.Triangles, new Vector3(3f, 0f, -2f), new Vector3(0f, 0f, 1f), out d, out hit), "a ray beside the mesh misses");
            int tri;
            Vector2 uv;
            ok = SinewBrush.Raycast(g.Positions, g.Triangles, new Vector3(0.123f, -0.456f, -2f), new Vector3(0f, 0f, 1f), out d, out hit, out tri, out uv);
            Vector3 back = SinewBrush.OnTriangle(g.Positions, g.Triangles, tri, uv);
            Check.That(ok && tri >= 0 && Dist(back, hit) < 1e-5f, "the hit's triangle and barycentric coordinates give the hit point back");
            // The same (triangle, u, v) on another pose: the grid bent 90° about x (y → z) gives the bent point.
            var bent = new Vector3[g.Positions.Length];
            for (int i = 0; i < bent.Length; i++)
            {
                bent[i] = new Vector3(g.Positions[i].x, 0f, g.Positions[i].y);
            }
            Vector3 onBent = SinewBrush.OnTriangle(bent, g.Triangles, tri, uv);
            Check.That(Math.Abs(onBent.x - 0.123f) < 1e-5f && Math.Abs(onBent.z + 0.456f) < 1e-5f && onBent.y == 0f,
                "the same place on another pose of the mesh (how a stroke on a posed skinned mesh reaches its rest shape)");
            Check.That(!SinewBrush.Raycast(g.Positions, g.Triangles, new Vector3(0f, -0.5f, -2f), new Vector3(0f, 0f, -1f), out d, out hit), "a ray pointing away misses");
        }

        // ---- painted values ----

        static void PaintStorage()
        {
            var p = new SinewVertexPaint();
            Check.That(!p.Has(SinewPaintChannel.Pin, 4), "a new paint has no channel");
            float[] md = p.Ensure(SinewPaintChannel.MaxDistance, 4);
            Check.That(md.Length == 4 && md[0] == -1f && p.maxDistance == md, "Ensure: max distance filled with −1 (free), stored in the field");
            Check.That(p.Ensure(SinewPaintChannel.MassScale, 3)[2] == 1f && p.Ensure(SinewPaintChannel.Pin, 3)[0] == 0f && p.Ensure(SinewPaintChannel.Backstop, 3)[1] == -1f,
                "Ensure: mass × 1, pin 0, backstop −1 (none)");
            md[1] = 0.3f;
            Check.That(p.Ensure(SinewPaintChannel.MaxDistance, 4)[1] == 0.3f, "Ensure keeps what fits");
            Check.That(p.Ensure(SinewPaintChannel.MaxDistance, 5)[1] == -1f, "Ensure for another vertex count starts again");
            var colors = new[] { new Color(1f, 0.5f, 0f, 1f), new Color(0f, 0.25f, 0f, 1f) };
            Check.That(p.ImportColors(SinewPaintChannel.MaxDistance, colors, SinewCloth.ColorChannel.Green, 0.2f, 2)
                && p.maxDistance[0] == 0.1f && p.maxDistance[1] == 0.05f, "import: green × 0.2 m into max distance");
            Check.That(!p.ImportColors(SinewPaintChannel.Pin, colors, SinewCloth.ColorChannel.Red, 1f, 3) && p.pin.Length == 3 && p.pin[0] == 0f,
                "import from colours of the wrong count is refused and changes nothing");
            p.Clear(SinewPaintChannel.MaxDistance);
            Check.That(!p.Has(SinewPaintChannel.MaxDistance, 2), "Clear forgets a channel");
            bool[] pinned = SinewCloth.PinnedFromWeights(new[] { 0f, 0.49f, 0.5f, 1f }, 0.5f);
            Check.That(!pinned[0] && !pinned[1] && pinned[2] && pinned[3], "pinned at or above the threshold");
        }

        static void PaintedCloth()
        {
            var g = new Grid(9, 7, 0.05f);
            int n = g.Positions.Length;
            var paint = new SinewVertexPaint();
            float[] pin = paint.Ensure(SinewPaintChannel.Pin, n);
            // A hard stroke along the top row, as dabs every 5 cm on +x mirrored to −x: the top row is pinned.
            for (int k = 0; k <= 4; k++)
            {
                SinewBrush.Apply(g.Positions, pin, new Vector3(0.05f * k, 0.01f, 0f), 0.03f, 0f, 1f, 1f, SinewBrushMode.Paint, SinewMirrorAxis.X, 0f);
            }
            float[] mass = paint.Ensure(SinewPaintChannel.MassScale, n);
            SinewBrush.Apply(g.Positions, mass, new Vector3(0f, -0.3f, 0f), 0.08f, 0f, 1f, 4f, SinewBrushMode.Paint, SinewMirrorAxis.None, 1f);
            bool[] pinned = SinewCloth.PinnedFromWeights(pin, 0.5f);
            float[] w = SinewCloth.InverseMasses(pinned, 0.01f, mass);
            int pinnedCount = 0;
            bool massOk = true;
            for (int i = 0; i < n; i++)
            {
                pinnedCount += pinned[i] ? 1 : 0;
                massOk &= pinned[i] ? w[i] == 0f : Math.Abs(w[i] - 1f / (0.01f * mass[i])) < 1e-3f;
            }
            Check.That(pinnedCount == 9, "a stroke along the top row pins its 9 vertices", pinnedCount + " pinned");
            Check.That(massOk, "inverse masses: 0 for pins, 1 / (mass × painted scale) for the rest");
            Check.Throws<InvalidOperationException>("a painted mass scale of 0 is refused",
                () => SinewCloth.InverseMasses(pinned, 0.01f, Filled(n, 0f)));

            using (var world = new World())
            {
                // Laid flat (the painted grid's y becomes z), held by the painted row: it swings down.
                var flat = new Vector3[n];
                for (int i = 0; i < n; i++)
                {
                    flat[i] = new Vector3(g.Positions[i].x, 0f, g.Positions[i].y);
                }
                SinewClothMeshDesc desc = SinewClothMeshDesc.Default;
                Cloth cloth = Cloth.CreateMesh(world, flat, g.Triangles, w, desc);
                Check.Equal((uint)9, cloth.GetInfo().pinned_count, "the native cloth has the 9 painted pins");
                var start = new Vector3[n];
                cloth.ReadPositions(start);
                for (int f = 0; f < 60; f++)
                {
                    world.Step(Dt);
                }
                var end = new Vector3[n];
                cloth.ReadPositions(end);
                bool pinsStill = true;
                float lowest = 0f;
                for (int i = 0; i < n; i++)
                {
                    if (pinned[i])
                    {
                        pinsStill &= Dist(start[i], end[i]) == 0f;
                    }
                    lowest = Math.Min(lowest, end[i].y - start[i].y);
                }
                Check.That(pinsStill, "after 1 s the painted pins have not moved");
                // The far edge is 0.3 m from the pins: hanging, it is about that far below them.
                Check.That(lowest < -0.2f, "and the free part has swung down below the pins (" + lowest + " m)");
            }
        }

        static void PaintedSoftBody()
        {
            // A 0.4 m cube, 4 cells: 5 x 5 x 5 particles 0.1 m apart from (−0.2, −0.2, −0.2).
            var layout = SinewSoftBody.LatticeLayout.Over(new Bounds(Vector3.zero, new Vector3(0.4f, 0.4f, 0.4f)), 4);
            Check.That(layout.Nx == 5 && layout.Ny == 5 && layout.Nz == 5, "the layout over a 0.4 m cube at 4 cells is 5³");
            // Render vertices: a 9 x 9 grid on each of the top and bottom faces (every 5 cm).
            var rest = new List<Vector3>();
            for (int a = 0; a <= 8; a++)
            {
                for (int b = 0; b <= 8; b++)
                {
                    rest.Add(new Vector3(-0.2f + 0.05f * a, 0.2f, -0.2f + 0.05f * b));
                    rest.Add(new Vector3(-0.2f + 0.05f * a, -0.2f, -0.2f + 0.05f * b));
                }
            }
            Vector3[] v = rest.ToArray();
            float[] pin = Filled(v.Length, 0f);
            // Paint the top face (a flat brush over it), and one bottom vertex below the threshold.
            SinewBrush.Apply(v, pin, new Vector3(0f, 0.2f, 0f), 0.3f, 0f, 1f, 1f, SinewBrushMode.Paint, SinewMirrorAxis.None, 0f);
            pin[1] = 0.49f;
            int[] pinned = SinewSoftBody.PinnedParticles(layout, v, pin, 0.5f);
            bool top = true;
            foreach (int p in pinned)
            {
                top &= (p / layout.Nx) % layout.Ny == layout.Ny - 1;
            }
            Check.That(pinned.Length == 25 && top, "painting the top face pins the 25 particles of the lattice's top layer, and only those (" + pinned.Length + ")");
            bool sorted = true;
            for (int k = 1; k < pinned.Length; k++)
            {
                sorted &= pinned[k] > pinned[k - 1];
            }
            Check.That(sorted, "each particle once, in increasing order");
            Check.Throws<ArgumentException>("PinnedParticles with one weight too few throws ArgumentException",
                () => SinewSoftBody.PinnedParticles(layout, v, new float[v.Length - 1], 0.5f));

            using (var world = new World())
            {
                SinewSoftLatticeDesc d = SinewSoftLatticeDesc.Default;
                d.nx = d.ny = d.nz = 5;
                d.spacing = 0.1f;
                d.origin = new SinewVec3(0f, 0f, 0f);
                SoftBody body = world.CreateSoftLattice(d);
                body.Pin(pinned);
                var start = new Vector3[body.VertexCount];
                body.ReadPositions(start);
                for (int f = 0; f < 60; f++)
                {
                    world.Step(Dt);
                }
                var end = new Vector3[start.Length];
                body.ReadPositions(end);
                float pinMoved = 0f, worst = 0f;
                foreach (int p in pinned)
                {
                    pinMoved = Math.Max(pinMoved, Dist(start[p], end[p]));
                }
                for (int p = 0; p < start.Length; p++)
                {
                    worst = Math.Max(worst, Dist(start[p], end[p]));
                }
                Check.That(pinMoved == 0f && Math.Abs(start[pinned[0]].y - 0.2f) < 1e-5f, "the pinned particles are the native lattice's top layer (y = 0.2 m) and do not move");
                Check.That(worst < 0.1f, "held by its painted top, the jelly hangs: after 1 s no particle moved 0.1 m (free fall: 4.9 m; worst " + worst + " m)");
            }
        }

        // ---- tearing ----

        static void TearingMirror()
        {
            using (var world = new World())
            {
                const int cols = 10, rows = 6;
                var g = new Grid(cols, rows, 0.05f);
                int n0 = g.Positions.Length;
                Cloth cloth = Cloth.CreateMesh(world, g.Positions, g.Triangles, Filled(n0, 100f), SinewClothMeshDesc.Default);
                var mirror = new SinewTopologyMirror();
                mirror.Reset(cloth);
                bool same = mirror.IndexCount == g.Triangles.Length;
                for (int i = 0; same && i < g.Triangles.Length; i++)
                {
                    same &= mirror.Indices[i] == g.Triangles[i];
                }
                Check.That(same, "an untorn mesh cloth's triangles are the mesh's, in its order (so sub-mesh ranges apply)");
                Check.That(mirror.VertexCount == n0 && mirror.OriginalVertexCount == n0 && mirror.Version == 0u, "Reset: vertex count " + n0 + ", version 0");

                SinewDynamics d = cloth.Dynamics;
                d.tear_threshold = 0.3f;
                cloth.Dynamics = d;
                var left = new int[rows];
                var right = new int[rows];
                for (int r = 0; r < rows; r++)
                {
                    left[r] = r * cols;
                    right[r] = r * cols + cols - 1;
                }
                var lt = new Vector3[rows];
                var rt = new Vector3[rows];
                var uv = new Vector2[n0];
                for (int i = 0; i < n0; i++)
                {
                    uv[i] = new Vector2(g.Positions[i].x, g.Positions[i].y);
                }
                Vector2[] uvOut = (Vector2[])uv.Clone();
                int tears = 0, quietFrames = 0;
                long quietBytes = 0;
                bool matches = true, cornersKept = true, uvOk = true, countKept = true;
                string detail = "";
                for (int f = 0; f < 240; f++)
                {
                    float pull = f * 0.005f;
                    for (int r = 0; r < rows; r++)
                    {
                        lt[r] = g.Positions[left[r]] + new Vector3(-pull, 0f, 0f);
                        rt[r] = g.Positions[right[r]] + new Vector3(pull, 0f, 0f);
                    }
                    cloth.SetPinTargets(left, lt);
                    cloth.SetPinTargets(right, rt);
                    world.Step(Dt);
                    int before = mirror.VertexCount;
                    long b0 = GC.GetAllocatedBytesForCurrentThread();
                    bool changed = mirror.Refresh(cloth);
                    long b1 = GC.GetAllocatedBytesForCurrentThread();
                    if (!changed)
                    {
                        quietFrames++;
                        quietBytes += b1 - b0;
                        continue;
                    }
                    tears++;
                    int n = cloth.VertexCount;
                    var indices = new int[cloth.IndexCount];
                    cloth.ReadIndices(indices);
                    var sources = new int[n];
                    cloth.ReadVertexSources(sources);
                    matches &= mirror.VertexCount == n && mirror.IndexCount == indices.Length && mirror.Version == cloth.TopologyVersion;
                    for (int i = 0; i < indices.Length; i++)
                    {
                        matches &= mirror.Indices[i] == indices[i];
                    }
                    for (int i = 0; i < n; i++)
                    {
                        matches &= mirror.Sources[i] == sources[i];
                    }
                    countKept &= mirror.IndexCount == g.Triangles.Length;
                    // Every corner is still the original corner vertex or a copy of it.
                    for (int i = 0; i < mirror.IndexCount && i < g.Triangles.Length; i++)
                    {
                        if (mirror.Sources[mirror.Indices[i]] != g.Triangles[i])
                        {
                            cornersKept = false;
                            if (detail.Length < 120)
                            {
                                detail += " corner " + i + ": " + mirror.Indices[i] + " from " + mirror.Sources[mirror.Indices[i]] + ", was " + g.Triangles[i] + ";";
                            }
                        }
                    }
                    SinewTopologyMirror.EnsureCapacity(ref uvOut, n);
                    mirror.CopyFromSources(uv, uvOut, before);
                    for (int i = 0; i < n; i++)
                    {
                        Vector2 want = uv[sources[i]];
                        uvOk &= uvOut[i].x == want.x && uvOut[i].y == want.y;
                    }
                }
                Check.That(tears > 0, "pulled apart at tear threshold 0.3, the cloth tore (" + tears + " topology changes)");
                Check.That(matches, "after every tear: the mirror's vertex count, triangles, sources and version are the wrapper's readback");
                Check.That(countKept, "tearing keeps the triangle count (" + g.Triangles.Length / 3 + " triangles)");
                Check.That(cornersKept, "every triangle corner is its original vertex or a copy of it, in the original order", detail);
                Check.That(uvOk, "CopyFromSources gives each added vertex its source's UV");
                Check.That(quietFrames > 100 && quietBytes == 0, "Refresh in the " + quietFrames + " frames without a tear allocates nothing (" + quietBytes + " bytes)");
                Check.That(mirror.VertexCount > n0, "the torn cloth has more vertices (" + mirror.VertexCount + ", was " + n0 + ")");
            }
            int[] a = { 1, 2 };
            int[] kept = a;
            SinewTopologyMirror.EnsureCapacity(ref a, 2);
            Check.That(ReferenceEquals(a, kept), "EnsureCapacity keeps an array that is long enough");
            SinewTopologyMirror.EnsureCapacity(ref a, 3);
            Check.That(a.Length >= 3 && a[0] == 1 && a[1] == 2, "EnsureCapacity grows and keeps the contents");
            Check.Throws<ArgumentNullException>("Refresh(null) throws ArgumentNullException", () => new SinewTopologyMirror().Refresh(null));
        }

        // ---- presets ----

        static void Presets()
        {
            var densities = new Dictionary<string, float>();
            foreach (string name in SinewClothPreset.BuiltInNames)
            {
                var p = new SinewClothPreset();
                bool ok = SinewClothPreset.BuiltIn(name, p);
                SinewMaterial m = p.physicsMaterial.ToNative();
                bool sane = ok && p.description.Length > 10 && m.particle_mass > 0f && m.stretch_compliance >= 0f && m.bend_compliance >= 0f
                    && m.damping >= 0f && m.thickness > 0f && m.kinetic_friction <= m.static_friction && p.tetherScale >= 1f;
                Check.That(sane, "built-in preset " + name + ": valid settings (masses > 0, compliances ≥ 0, kinetic ≤ static friction)");
                densities[name] = p.arealDensity;
            }
            Check.That(densities["Silk"] < densities["Cotton"] && densities["Cotton"] < densities["Denim"] && densities["Denim"] < densities["Leather"]
                && densities["Leather"] < densities["Chainmail"], "areal densities: silk < cotton < denim < leather < chainmail");
            var silk = new SinewClothPreset();
            var leather = new SinewClothPreset();
            SinewClothPreset.BuiltIn("Silk", silk);
            SinewClothPreset.BuiltIn("Leather", leather);
            Check.That(leather.physicsMaterial.bendStiffness > 100f * silk.physicsMaterial.bendStiffness, "silk bends far more easily than leather (bending stiffness in N·m)");
            // The fabrics, the rubber sheet and hair are the library's presets, field by field.
            string[] shared = { "Silk", "Cotton", "Denim", "Leather", "Rubber", "Hair" };
            SinewMaterialPreset[] native = { SinewMaterialPreset.SINEW_MATERIAL_SILK, SinewMaterialPreset.SINEW_MATERIAL_COTTON, SinewMaterialPreset.SINEW_MATERIAL_DENIM,
                SinewMaterialPreset.SINEW_MATERIAL_LEATHER, SinewMaterialPreset.SINEW_MATERIAL_RUBBER_SHEET, SinewMaterialPreset.SINEW_MATERIAL_HAIR };
            for (int i = 0; i < shared.Length; i++)
            {
                var p = new SinewClothPreset();
                SinewClothPreset.BuiltIn(shared[i], p);
                Check.That(SameFields(SinewMaterialSettings.FromNative(SinewMaterial.Preset(native[i])), p.physicsMaterial, null)
                    && (shared[i] == "Hair" || p.arealDensity == p.physicsMaterial.density),
                    "built-in " + shared[i] + " is the library's " + native[i] + " (and its areal density the material's)");
            }
            Check.That(SameFields(SinewMaterialSettings.FromNative(new SinewMaterialSettings().ToNative()), new SinewMaterialSettings(), null),
                "SinewMaterialSettings: FromNative(ToNative()) gives every field back");
            var rope = new SinewRope();
            silk.ApplyTo(rope, 0f, 0);
            Check.Equal(0f, rope.physicsMaterial.density, "a fabric preset on a rope keeps no density (kg/m² is not kg/m)");
            var unknown = new SinewClothPreset();
            unknown.arealDensity = 3f;
            Check.That(!SinewClothPreset.BuiltIn("Velvet?", unknown) && unknown.arealDensity == 3f, "an unknown built-in name is refused and changes nothing");

            var cotton = new SinewClothPreset();
            SinewClothPreset.BuiltIn("Cotton", cotton);
            cotton.dynamics.maxSpeed = 7f;
            cotton.tearThreshold = 0.4f;
            var cloth = new SinewCloth();
            cotton.ApplyTo(cloth, 1.5f, 300);
            Check.That(Math.Abs(cloth.physicsMaterial.particleMass * 300f - 0.15f * 1.5f) < 1e-6f,
                "cotton on 1.5 m² with 300 particles: particle mass × count = 0.15 kg/m² × 1.5 m²");
            Check.That(SameFields(cotton.physicsMaterial, cloth.physicsMaterial, "particleMass"), "apply: every material field but the particle mass is the preset's");
            Check.That(SameFields(cotton.dynamics, cloth.dynamics, null), "apply: every dynamics field is the preset's");
            Check.That(cloth.tearThreshold == 0.4f && cloth.useTethers == cotton.useTethers && cloth.tetherScale == cotton.tetherScale, "apply: tearing and tethers on a cloth");
            Check.That(!ReferenceEquals(cloth.physicsMaterial, cotton.physicsMaterial), "apply copies: editing the body later does not change the preset");
            Check.That(cloth.NativeDynamics().tear_threshold == 0.4f, "the cloth sends its tear threshold with its dynamics");
            cotton.arealDensity = 0f;
            cotton.physicsMaterial.particleMass = 0.02f;
            cotton.ApplyTo(cloth, 1.5f, 300);
            Check.Equal(0.02f, cloth.physicsMaterial.particleMass, "areal density 0: the preset's particle mass is kept");

            var saved = new SinewClothPreset();
            cloth.physicsMaterial.bendCompliance = 0.123f;
            cloth.dynamics.lift = 0.77f;
            saved.CaptureFrom(cloth);
            Check.That(SameFields(cloth.physicsMaterial, saved.physicsMaterial, null) && SameFields(cloth.dynamics, saved.dynamics, null) && saved.tearThreshold == cloth.tearThreshold,
                "save as preset: the body's material, dynamics and tearing, field by field");

            var jelly = new SinewClothPreset();
            SinewClothPreset.BuiltIn("Jelly", jelly);
            var soft = new SinewSoftBody();
            jelly.ApplyTo(soft, 0f, 0);
            Check.That(soft.mass == jelly.softMass && soft.shapeStiffness == jelly.softShapeStiffness && soft.edgeCompliance == jelly.softEdgeCompliance
                && soft.volumeCompliance == jelly.softVolumeCompliance && soft.friction == jelly.physicsMaterial.staticFriction, "jelly on a soft body: mass, shape stiffness, edge and volume compliance, friction");
            Check.Throws<ArgumentNullException>("ApplyTo(null) throws ArgumentNullException", () => jelly.ApplyTo(null, 1f, 1));
        }

        /// <summary>True when every public instance field of the two objects is equal (all but <paramref name="except"/>).</summary>
        static bool SameFields(object a, object b, string except)
        {
            bool same = true;
            foreach (FieldInfo f in a.GetType().GetFields(BindingFlags.Public | BindingFlags.Instance))
            {
                if (f.Name == except)
                {
                    continue;
                }
                bool eq = Equals(f.GetValue(a), f.GetValue(b));
                if (!eq)
                {
                    Console.WriteLine("    field " + f.Name + ": " + f.GetValue(a) + " vs " + f.GetValue(b));
                }
                same &= eq;
            }
            return same;
        }

        // ---- Unity Cloth conversion ----

        static SinewConversionContext Context()
        {
            SinewConversionContext c = default(SinewConversionContext);
            c.fixedRateHz = 60f;
            c.substeps = 8;
            c.gravity = new Vector3(0f, -9.81f, 0f);
            c.particleMass = 0.01f;
            c.area = 1f;
            c.particleCount = 100;
            c.airDensity = 1.2f;
            c.drag = 1f;
            return c;
        }

        static void Conversion()
        {
            SinewConversionContext ctx = Context();
            float h = ctx.Substep;
            UnityClothSettings u = UnityClothSettings.Default;
            u.stretchingStiffness = 0.8f;
            u.bendingStiffness = 0.3f;
            u.damping = 0.1f;
            u.worldVelocityScale = 0.3f;
            u.worldAccelerationScale = 0.7f;
            u.friction = 0.6f;
            u.sleepThreshold = 0.2f;
            u.useTethers = true;
            u.clothSolverFrequency = 120f;
            SinewClothMapping m = SinewClothConversion.Map(u, ctx);

            float s = SinewClothConversion.StiffnessFromCompliance(m.material.stretchCompliance, ctx.particleMass, h);
            Check.That(Math.Abs(s - 0.8f) < 1e-5f, "stretchingStiffness 0.8 → a compliance whose constraint removes 80% of its error per iteration (" + s + ")");
            float b = SinewClothConversion.StiffnessFromCompliance(m.material.bendCompliance, ctx.particleMass, h);
            Check.That(Math.Abs(b - 0.3f) < 1e-5f, "bendingStiffness 0.3 → 30% per iteration (" + b + ")");
            // α = h² Σw (1 − s)/s, by hand: h = 1/480 s, Σw = 200/kg.
            float expected = (1f / 480f) * (1f / 480f) * 200f * 0.2f / 0.8f;
            Check.That(Math.Abs(m.material.stretchCompliance - expected) < 1e-9f, "stretch compliance = h² Σw (1 − s)/s = " + expected + " m/N (" + m.material.stretchCompliance + ")");
            Check.Equal(m.material.stretchCompliance, m.material.shearCompliance, "shear compliance = stretch (Unity has one stiffness for both)");
            double kept = Math.Pow(1.0 - m.material.damping * h, 1.0 / h);
            double unityKept = Math.Pow(0.9, 120);
            Check.That(Math.Abs(kept - unityKept) < 1e-3 * unityKept, "damping 0.1 at 120 Hz keeps 0.9^120 of the velocity per second; Sinew's rate c keeps (1 − c h)^(1/h), the same (" + kept + " vs " + unityKept + ")");
            Check.Equal(0.3f, m.dynamics.worldVelocityScale, "worldVelocityScale → World Velocity Scale");
            Check.Equal(0.7f, m.dynamics.worldAccelerationScale, "worldAccelerationScale → World Acceleration Scale");
            Check.That(m.material.staticFriction == 0.6f && Math.Abs(m.material.kineticFriction - 0.48f) < 1e-6f, "friction 0.6 → static 0.6, kinetic 0.48 (0.8 ×)");
            Check.Equal(0.2f, m.dynamics.sleepThreshold, "sleepThreshold → Sleep Threshold");
            Check.That(m.useTethers && m.tetherMode == SinewTetherMode.SINEW_TETHER_EUCLIDEAN && m.tetherScale == 1f, "useTethers → Euclidean tethers at scale 1");
            Check.Equal(1f, m.material.gravityScale, "useGravity, no external acceleration → gravity scale 1");
            Check.That(m.windSpeed == 0f && !m.material.selfCollision, "no external acceleration → no wind; no self-collision distance → none");
            Check.That(m.notes.Exists(x => x.Contains("useVirtualParticles")), "useVirtualParticles (Unity's default 1) is reported as having no counterpart");
            Check.Equal(0f, SinewClothConversion.ComplianceFromStiffness(1f, 0.01f, h), "stiffness 1 → compliance 0 (rigid)");
            Check.Equal(SinewClothConversion.MaxCompliance, SinewClothConversion.ComplianceFromStiffness(0f, 0.01f, h), "stiffness 0 → the largest compliance");

            UnityClothSettings g = UnityClothSettings.Default;
            g.useGravity = false;
            g.externalAcceleration = new Vector3(0f, -9.81f, 0f);
            Check.That(Math.Abs(SinewClothConversion.Map(g, ctx).material.gravityScale - 1f) < 1e-6f, "useGravity off + external (0, −9.81, 0) → gravity scale 1");
            g.useGravity = true;
            g.externalAcceleration = new Vector3(0f, 4.905f, 0f);
            Check.That(Math.Abs(SinewClothConversion.Map(g, ctx).material.gravityScale - 0.5f) < 1e-6f, "useGravity + external (0, +4.905, 0) → gravity scale 0.5");

            UnityClothSettings w = UnityClothSettings.Default;
            w.externalAcceleration = new Vector3(3f, 0f, 0f);
            w.randomAcceleration = new Vector3(0f, 0f, 1.5f);
            SinewClothMapping wm = SinewClothConversion.Map(w, ctx);
            float sigma = ctx.particleMass * ctx.particleCount / ctx.area;
            float force = 0.5f * ctx.airDensity * ctx.drag * wm.windSpeed * wm.windSpeed;
            Check.That(Math.Abs(force - sigma * 3f) < 1e-4f, "external (3, 0, 0) → a wind whose drag on a facing cloth, ½ρC_d v², is σ a = " + sigma * 3f + " N/m² (" + force + ")");
            Check.That(wm.windDirection.x == 1f && wm.windDirection.y == 0f && Math.Abs(wm.windTurbulence - 0.5f) < 1e-6f && Math.Abs(wm.material.gravityScale - 1f) < 1e-6f,
                "its direction is +x, random 1.5 of 3 → turbulence 0.5, gravity unchanged");
            Check.That(wm.notes.Exists(x => x.Contains("wind")), "the wind equivalent is reported as approximate");

            UnityClothSettings c = UnityClothSettings.Default;
            c.coefficients = new ClothSkinningCoefficient[3];
            c.coefficients[0].maxDistance = 0f;
            c.coefficients[1].maxDistance = 0.1f;
            c.coefficients[2].maxDistance = float.MaxValue;
            c.coefficients[0].collisionSphereDistance = float.MaxValue;
            c.coefficients[1].collisionSphereDistance = 0.05f;
            c.coefficients[2].collisionSphereDistance = float.MaxValue;
            c.selfCollisionDistance = 0.02f;
            c.collisionMassScale = 0.5f;
            SinewClothMapping cm = SinewClothConversion.Map(c, ctx);
            Check.That(cm.maxDistances != null && cm.maxDistances[0] == 0f && cm.maxDistances[1] == 0.1f && cm.maxDistances[2] == -1f,
                "coefficients[i].maxDistance 0, 0.1, float.MaxValue → max distances 0, 0.1, −1 (no limit)");
            Check.Equal(1, cm.pinnedCount, "max distance 0 → pinned (1 vertex)");
            Check.That(cm.backstops != null && cm.backstops[0] == -1f && cm.backstops[1] == 0.05f && cm.backstops[2] == -1f,
                "coefficients[i].collisionSphereDistance MaxValue, 0.05, MaxValue → backstops −1, 0.05, −1");
            Check.That(cm.material.selfCollision && cm.material.thickness == 0.01f, "selfCollisionDistance 0.02 → self-collision, thickness 0.01 (2 × thickness apart)");
            Check.That(cm.notes.Exists(x => x.Contains("collisionMassScale")), "collisionMassScale is reported as having no counterpart");
            UnityClothSettings free = UnityClothSettings.Default;
            free.coefficients = new ClothSkinningCoefficient[2];
            free.coefficients[0].maxDistance = float.MaxValue;
            free.coefficients[1].maxDistance = float.MaxValue;
            free.coefficients[0].collisionSphereDistance = float.MaxValue;
            free.coefficients[1].collisionSphereDistance = float.MaxValue;
            SinewClothMapping fm = SinewClothConversion.Map(free, ctx);
            Check.That(fm.maxDistances == null && fm.backstops == null && fm.pinnedCount == 0, "all float.MaxValue → no max distances, no backstops");

            var target = new SinewCloth();
            SinewClothConversion.Apply(cm, target, 3);
            Check.That(target.maxDistanceSource == SinewCloth.MaxDistanceSource.Painted && target.paint.maxDistance[1] == 0.1f
                && target.pinSource == SinewCloth.PinSource.Painted && target.paint.pin[0] == 1f && target.paint.pin[1] == 0f,
                "Apply: max distances and the max-distance-0 pins become the cloth's painted values");
            Check.That(target.useBackstop && target.backstopPainted && target.paint.backstop[1] == 0.05f, "Apply: backstops become painted backstops");
            Check.That(SameFields(cm.material, target.physicsMaterial, null) && SameFields(cm.dynamics, target.dynamics, null), "Apply: material and dynamics, field by field");
            var none = new SinewCloth();
            SinewClothConversion.Apply(fm, none, 2);
            Check.That(none.pinSource == SinewCloth.PinSource.None && none.maxDistanceSource == SinewCloth.MaxDistanceSource.None, "Apply without limits: nothing pinned, no max distance");
            // Unity welds coincident vertices: 4 cloth particles for a quad whose mesh has a seam (6 vertices).
            var meshVertices = new[] { new Vector3(0f, 0f, 0f), new Vector3(1f, 0f, 0f), new Vector3(0f, 1f, 0f), new Vector3(1f, 0f, 0f), new Vector3(0f, 1f, 0f), new Vector3(1f, 1f, 0f) };
            var clothVertices = new[] { new Vector3(0f, 1f, 0f), new Vector3(1f, 1f, 0f), new Vector3(0f, 0f, 0f), new Vector3(1f, 0f, 0f) };
            var welded = new ClothSkinningCoefficient[4];
            for (int i = 0; i < 4; i++)
            {
                welded[i].maxDistance = 0.1f * i;
                welded[i].collisionSphereDistance = float.MaxValue;
            }
            ClothSkinningCoefficient[] perVertex = SinewClothConversion.PerMeshVertex(welded, clothVertices, meshVertices);
            Check.That(perVertex.Length == 6 && perVertex[0].maxDistance == 0.2f && perVertex[1].maxDistance == welded[3].maxDistance && perVertex[3].maxDistance == welded[3].maxDistance
                && perVertex[2].maxDistance == 0f && perVertex[4].maxDistance == 0f && perVertex[5].maxDistance == welded[1].maxDistance,
                "welded coefficients (4 for 6 mesh vertices): each mesh vertex takes its nearest cloth vertex's, the seam's copies the same");
            Check.Throws<ArgumentException>("coefficients that match neither the mesh nor Cloth.vertices throw ArgumentException",
                () => SinewClothConversion.PerMeshVertex(welded, new Vector3[3], meshVertices));
            Check.Throws<InvalidOperationException>("Apply with max distances for 3 vertices to a mesh of 4 throws (nothing silently dropped)",
                () => SinewClothConversion.Apply(cm, new SinewCloth(), 4));
            SinewConversionContext bad = ctx;
            bad.particleMass = 0f;
            Check.Throws<ArgumentException>("Map with particle mass 0 throws ArgumentException", () => SinewClothConversion.Map(u, bad));

            // Starting from the nearest fabric preset (what the editor's converter does).
            Check.That(SinewClothConversion.NearestFabric(0f) == SinewMaterialPreset.SINEW_MATERIAL_SILK
                && SinewClothConversion.NearestFabric(0.3f) == SinewMaterialPreset.SINEW_MATERIAL_COTTON
                && SinewClothConversion.NearestFabric(0.5f) == SinewMaterialPreset.SINEW_MATERIAL_DENIM
                && SinewClothConversion.NearestFabric(1f) == SinewMaterialPreset.SINEW_MATERIAL_LEATHER,
                "NearestFabric: bending stiffness 0 silk, 0.3 cotton, 0.5 denim, 1 leather");
            SinewConversionContext fromPreset = ctx;
            fromPreset.usePreset = true;
            fromPreset.preset = SinewClothConversion.NearestFabric(u.bendingStiffness);
            SinewClothMapping pm = SinewClothConversion.Map(u, fromPreset);
            SinewMaterial cotton = SinewMaterial.Preset(SinewMaterialPreset.SINEW_MATERIAL_COTTON);
            Check.That(pm.material.density == cotton.density && pm.material.bendStiffness == cotton.bend_stiffness && pm.material.thickness == cotton.thickness,
                "with a preset (cotton for bending 0.3): its density, bending stiffness and thickness");
            Check.That(Math.Abs(pm.material.particleMass - cotton.density * ctx.area / ctx.particleCount) < 1e-9f,
                "with a preset: the particle mass is its areal density × area / particles", pm.material.particleMass.ToString());
            Check.That(Math.Abs(pm.material.stretchCompliance - SinewClothConversion.ComplianceFromStiffness(0.8f, pm.material.particleMass, h)) < 1e-9f
                && pm.material.staticFriction == 0.6f && pm.material.damping == m.material.damping,
                "with a preset: stretch compliance for its particle mass, Unity's friction and damping");
            Check.That(pm.notes.Exists(n => n.Contains("SINEW_MATERIAL_COTTON")), "with a preset: the report names it");
        }

        /// <summary>
        /// The compliance the converter gives a Unity stiffness, in the native solver: one fixed step
        /// of one substep and one iteration, a two-particle rope whose pinned end is moved Δ away.
        /// The free particle (w = 1/m) then follows by the share w/(w + α/h²) of Δ; with α from
        /// stiffness s (computed for Σw = 2/m, two free particles) that is s/(2 − s).
        /// </summary>
        static void ConversionInTheSolver()
        {
            foreach (float s in new[] { 1f, 0.8f, 0.5f, 0.2f })
            {
                SinewWorldDesc wd = SinewWorldDesc.Default;
                wd.substeps = 1;
                wd.iterations = 1;
                wd.interpolate = 0;
                wd.thread_count = 1;
                wd.gravity = new SinewVec3(0f, 0f, 0f);
                using (var world = new World(wd))
                {
                    const float m = 0.01f, h = 1f / 60f, delta = 0.01f;
                    Rope rope = Rope.Create(world, new[] { new Vector3(0f, 0f, 0f), new Vector3(0.1f, 0f, 0f) }, new[] { 0 });
                    SinewMaterial mat = rope.Material;
                    mat.particle_mass = m;
                    mat.damping = 0f;
                    mat.stretch_compliance = SinewClothConversion.ComplianceFromStiffness(s, m, h);
                    rope.Material = mat;
                    rope.SetPinTargets(new[] { 0 }, new[] { new Vector3(-delta, 0f, 0f) });
                    world.Step(h);
                    var p = new Vector3[2];
                    rope.ReadPositions(p);
                    float followed = (0.1f - p[1].x) / delta;
                    float expected = s / (2f - s);
                    Check.That(Math.Abs(followed - expected) < 1e-3f,
                        "stiffness " + s + " → α = " + mat.stretch_compliance.ToString("0.###e0") + " m/N: in the solver the free end follows " + followed.ToString("0.0000")
                        + " of the pin's move (s/(2 − s) = " + expected.ToString("0.0000") + ")");
                }
            }
        }

        /// <summary>
        /// The damping the converter gives, in the native solver: a free rope falls, gravity is
        /// switched off, and its speed (its displacement per fixed step) after 1 s more is
        /// (1 − d)^f of what it was, as Unity's damping d at solver frequency f would leave.
        /// </summary>
        static void DampingInTheSolver()
        {
            SinewWorldDesc wd = SinewWorldDesc.Default;
            wd.interpolate = 0;
            wd.thread_count = 1;
            using (var world = new World(wd))
            {
                UnityClothSettings u = UnityClothSettings.Default;
                u.damping = 0.01f;
                SinewConversionContext ctx = Context();
                ctx.fixedRateHz = wd.fixed_rate_hz;
                ctx.substeps = (int)wd.substeps;
                float c = SinewClothConversion.Map(u, ctx).material.damping;
                Rope rope = Rope.Create(world, new[] { new Vector3(0f, 0f, 0f), new Vector3(0.1f, 0f, 0f) }, new int[0]);
                SinewMaterial mat = rope.Material;
                mat.damping = c;
                rope.Material = mat;
                SinewDynamics dyn = rope.Dynamics;
                dyn.sleep_threshold = 0f;
                rope.Dynamics = dyn;
                float dt = 1f / wd.fixed_rate_hz;
                for (int f = 0; f < 30; f++)
                {
                    world.Step(dt);
                }
                world.SetGravity(0f, 0f, 0f);
                var a = new Vector3[2];
                var b = new Vector3[2];
                rope.ReadPositions(a);
                world.Step(dt);
                rope.ReadPositions(b);
                float before = a[0].y - b[0].y;
                for (int f = 0; f < 59; f++)
                {
                    world.Step(dt);
                }
                rope.ReadPositions(a);
                world.Step(dt);
                rope.ReadPositions(b);
                float after = a[0].y - b[0].y;
                double want = Math.Pow(1.0 - u.damping, u.clothSolverFrequency);
                Check.That(before > 0f && Math.Abs(after / before - want) < 1e-3 * want,
                    "Unity damping 0.01 at 120 Hz → " + c.ToString("0.000") + " /s: in the solver the speed after 1 s is " + (after / before).ToString("0.0000")
                    + " of what it was (0.99^120 = " + want.ToString("0.0000") + ")");
            }
        }

        /// <summary>
        /// The wind the converter gives for an external acceleration across gravity, in the native
        /// solver: a free 0.5 m square facing it, no gravity, no turbulence; its centre of mass
        /// moves as under the acceleration a: over one fixed step of N substeps of h, by
        /// a h² N(N + 1)/2 (a little less as it picks up speed and the relative wind drops).
        /// </summary>
        static void WindInTheSolver()
        {
            SinewWorldDesc wd = SinewWorldDesc.Default;
            wd.interpolate = 0;
            wd.thread_count = 1;
            wd.gravity = new SinewVec3(0f, 0f, 0f);
            using (var world = new World(wd))
            {
                // An 11 x 11 grid 5 cm apart in the YZ plane: normal along x, 0.25 m², 121 particles.
                var g = new Grid(11, 11, 0.05f);
                var yz = new Vector3[g.Positions.Length];
                for (int i = 0; i < yz.Length; i++)
                {
                    yz[i] = new Vector3(0f, g.Positions[i].y, g.Positions[i].x);
                }
                const float mass = 0.01f, accel = 3f;
                Cloth cloth = Cloth.CreateMesh(world, yz, g.Triangles, Filled(yz.Length, 1f / mass), SinewClothMeshDesc.Default);
                SinewConversionContext ctx = Context();
                ctx.fixedRateHz = wd.fixed_rate_hz;
                ctx.substeps = (int)wd.substeps;
                ctx.particleMass = mass;
                ctx.area = 0.25f;
                ctx.particleCount = yz.Length;
                UnityClothSettings u = UnityClothSettings.Default;
                u.externalAcceleration = new Vector3(accel, 0f, 0f);
                SinewClothMapping m = SinewClothConversion.Map(u, ctx);
                SinewWind wind = SinewWind.Default;
                wind.direction = new SinewVec3(m.windDirection.x, m.windDirection.y, m.windDirection.z);
                wind.speed = m.windSpeed;
                wind.turbulence = 0f;
                wind.gust_strength = 0f;
                wind.air_density = ctx.airDensity;
                world.SetWind(wind);
                SinewDynamics d = cloth.Dynamics;
                d.drag = ctx.drag;
                cloth.Dynamics = d;
                SinewMaterial mat = cloth.Material;
                mat.damping = 0f;
                cloth.Material = mat;
                float dt = 1f / wd.fixed_rate_hz;
                world.Step(dt);
                var p = new Vector3[yz.Length];
                cloth.ReadPositions(p);
                double com = 0.0;
                foreach (Vector3 q in p)
                {
                    com += q.x / p.Length;
                }
                float h = dt / wd.substeps;
                double expected = accel * h * h * wd.substeps * (wd.substeps + 1) / 2.0;
                Check.That(com > 0.99 * expected && com < 1.005 * expected,
                    "external acceleration 3 m/s² → a wind of " + m.windSpeed.ToString("0.00") + " m/s: in the solver a facing cloth's centre moves "
                    + (com * 1000.0).ToString("0.0000") + " mm in the first step (under 3 m/s²: " + (expected * 1000.0).ToString("0.0000") + " mm, within −1%)");
            }
        }

        static void ConversionColliders()
        {
            var col = new Sinew.Components.SinewCollider();
            SinewClothConversion.MapCapsule(new Vector3(0.1f, 0.2f, 0.3f), 0.1f, 0.5f, 2, col);
            Check.That(col.shape == Sinew.Components.SinewCollider.Shape.Capsule && col.direction == Sinew.Components.SinewCollider.Axis.Z && Math.Abs(col.halfHeight - 0.15f) < 1e-6f
                && col.radius0 == 0.1f && col.radius1 == 0.1f && col.center.z == 0.3f, "CapsuleCollider r 0.1, height 0.5, direction Z → capsule along Z, half height 0.15, centre kept");
            SinewClothConversion.MapCapsule(Vector3.zero, 0.3f, 0.4f, 0, col);
            Check.That(col.direction == Sinew.Components.SinewCollider.Axis.X && col.halfHeight == 0f, "a capsule shorter than its diameter → half height 0 (a sphere)");
            Vector3 c, axis;
            float hh;
            bool pair = SinewClothConversion.MapSpherePair(new Vector3(0f, 0f, 0f), 0.1f, new Vector3(0f, 0.4f, 0f), 0.05f, out c, out axis, out hh);
            Check.That(pair && Math.Abs(c.y - 0.2f) < 1e-6f && axis.y == 1f && Math.Abs(hh - 0.2f) < 1e-6f, "sphere pair 0.4 m apart → tapered capsule centred between them, axis first → second, half height 0.2");
            Check.That(!SinewClothConversion.MapSpherePair(Vector3.one, 0.1f, Vector3.one, 0.2f, out c, out axis, out hh), "coinciding spheres are not a capsule");
        }

        // ---- preset assets ----

        /// <summary>Writes every built-in preset as a Unity YAML asset (a ScriptableObject of SinewClothPreset).</summary>
        static void PresetAssets(string dir, string scriptGuid)
        {
            Directory.CreateDirectory(dir);
            foreach (string name in SinewClothPreset.BuiltInNames)
            {
                var p = new SinewClothPreset();
                SinewClothPreset.BuiltIn(name, p);
                var y = new System.Text.StringBuilder();
                y.Append("%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n");
                y.Append("  m_ObjectHideFlags: 0\n  m_CorrespondingSourceObject: {fileID: 0}\n  m_PrefabInstance: {fileID: 0}\n");
                y.Append("  m_PrefabAsset: {fileID: 0}\n  m_GameObject: {fileID: 0}\n  m_Enabled: 1\n  m_EditorHideFlags: 0\n");
                y.Append("  m_Script: {fileID: 11500000, guid: " + scriptGuid + ", type: 3}\n");
                y.Append("  m_Name: " + name + "\n  m_EditorClassIdentifier: \n");
                Yaml(y, p, "  ");
                string path = Path.Combine(dir, name + ".asset");
                File.WriteAllText(path, y.ToString());
            }
            Check.That(Directory.GetFiles(dir, "*.asset").Length == SinewClothPreset.BuiltInNames.Length,
                "wrote the " + SinewClothPreset.BuiltInNames.Length + " built-in presets as assets into " + dir);
        }

        /// <summary>The serialized public fields of <paramref name="o"/> as Unity writes them.</summary>
        static void Yaml(System.Text.StringBuilder y, object o, string indent)
        {
            foreach (FieldInfo f in o.GetType().GetFields(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly))
            {
                object v = f.GetValue(o);
                if (v is float)
                {
                    string text = ((float)v).ToString("R", System.Globalization.CultureInfo.InvariantCulture).Replace("E", "e");
                    y.Append(indent + f.Name + ": " + text + "\n");
                }
                else if (v is bool)
                {
                    y.Append(indent + f.Name + ": " + ((bool)v ? 1 : 0) + "\n");
                }
                else if (v is int)
                {
                    y.Append(indent + f.Name + ": " + v + "\n");
                }
                else if (v is string)
                {
                    y.Append(indent + f.Name + ": '" + ((string)v).Replace("'", "''") + "'\n");
                }
                else if (v is LayerMask)
                {
                    y.Append(indent + f.Name + ":\n" + indent + "  serializedVersion: 2\n" + indent + "  m_Bits: " + unchecked((uint)((LayerMask)v).value) + "\n");
                }
                else if (v != null && v.GetType().IsDefined(typeof(SerializableAttribute), false))
                {
                    y.Append(indent + f.Name + ":\n");
                    Yaml(y, v, indent + "  ");
                }
                else
                {
                    throw new InvalidOperationException("no YAML for field " + f.Name + " of type " + f.FieldType.Name);
                }
            }
        }

        // ---- pictures ----

        static void Pictures(string dir)
        {
            Directory.CreateDirectory(dir);
            // A cape 0.6 m wide, 0.8 m long at 2 cm: the top row pinned (max distance 0), the max
            // distance growing to 0.15 m at the hem with a mirrored stroke, one shoulder painted by
            // a stroke on the other.
            var g = new Grid(31, 41, 0.02f);
            int n = g.Positions.Length;
            float[] md = Filled(n, -1f);
            // Row by row, as a gradient is painted with wide flat dabs: 0 at the top, 0.15 m at the hem.
            for (int r = 0; r < g.Rows; r++)
            {
                float depth = r * g.Spacing;
                for (int c = 0; c < g.Cols; c++)
                {
                    SinewBrush.Apply(g.Positions, md, g.Positions[r * g.Cols + c], 0.005f, 0f, 1f, 0.15f * depth / 0.8f, SinewBrushMode.Paint, SinewMirrorAxis.None, -1f);
                }
            }
            SinewBrush.Apply(g.Positions, md, new Vector3(0.2f, -0.08f, 0f), 0.12f, 0.6f, 1f, 0f, SinewBrushMode.Paint, SinewMirrorAxis.X, -1f);
            SinewBrush.Apply(g.Positions, md, new Vector3(0f, -0.7f, 0f), 0.15f, 0.5f, 1f, 0f, SinewBrushMode.Erase, SinewMirrorAxis.None, -1f);
            var img = new Picture(320, 400);
            img.Clear(new Color(0.16f, 0.16f, 0.18f, 1f));
            Func<Vector3, int> px = p => (int)(160 + p.x * 400f);
            Func<Vector3, int> py = p => (int)(20 - p.y * 440f);
            for (int t = 0; t < g.Triangles.Length; t += 3)
            {
                img.Triangle(g, t, md, px, py);
            }
            for (int i = 0; i < n; i++)
            {
                img.Dot(px(g.Positions[i]), py(g.Positions[i]), 1, SinewBrush.ValueColor(md[i], 0f, 0.15f));
            }
            // The brush circle where the mirrored stroke was, and its mirror image.
            img.Circle(px(new Vector3(0.2f, 0f, 0f)), py(new Vector3(0f, -0.08f, 0f)), (int)(0.12f * 400f), new Color(1f, 1f, 1f, 1f));
            img.Circle(px(new Vector3(-0.2f, 0f, 0f)), py(new Vector3(0f, -0.08f, 0f)), (int)(0.12f * 400f), new Color(0.6f, 0.8f, 1f, 1f));
            for (int y = py(new Vector3(0f, 0f, 0f)) - 10; y < 395; y += 6)
            {
                img.Dot(160, y, 0, new Color(0.6f, 0.8f, 1f, 1f));
            }
            string paintPath = Path.Combine(dir, "unity-paint.png");
            File.WriteAllBytes(paintPath, img.Png());
            Check.That(new FileInfo(paintPath).Length < 100000, "wrote " + paintPath + " (" + new FileInfo(paintPath).Length + " bytes, < 100 KB)");

            // The gizmo view: the same cape simulated for 1 s by the native library, particles
            // coloured by their painted max distance, constraints as lines, tethers on demand.
            var gz = new Grid(16, 21, 0.04f);
            int m = gz.Positions.Length;
            float[] gmd = new float[m];
            float[] w = new float[m];
            for (int i = 0; i < m; i++)
            {
                gmd[i] = 0.15f * (i / gz.Cols) / (gz.Rows - 1f);
                w[i] = i < gz.Cols ? 0f : 100f;
            }
            var pos = new Vector3[m];
            using (var world = new World())
            {
                Cloth cloth = Cloth.CreateMesh(world, gz.Positions, gz.Triangles, w, SinewClothMeshDesc.Default);
                cloth.SetTethers(SinewTetherMode.SINEW_TETHER_EUCLIDEAN, 1f);
                SinewWind wind = SinewWind.Default;
                wind.direction = new SinewVec3 { x = 0f, y = 0f, z = 1f };
                wind.speed = 8f;
                world.SetWind(wind);
                for (int f = 0; f < 90; f++)
                {
                    world.Step(Dt);
                }
                cloth.ReadPositions(pos);
            }
            var view = new Picture(320, 420);
            view.Clear(new Color(0.16f, 0.16f, 0.18f, 1f));
            // An oblique view: x right, y up, z towards the viewer and down.
            Func<Vector3, int> vx = p => (int)(160 + p.x * 400f + p.z * 150f);
            Func<Vector3, int> vy = p => (int)(20 - p.y * 440f + p.z * 120f);
            var grey = new Color(0.55f, 0.6f, 0.65f, 1f);
            for (int t = 0; t < gz.Triangles.Length; t += 3)
            {
                for (int k = 0; k < 3; k++)
                {
                    Vector3 a = pos[gz.Triangles[t + k]], bb = pos[gz.Triangles[t + (k + 1) % 3]];
                    view.Line(vx(a), vy(a), vx(bb), vy(bb), grey);
                }
            }
            var tether = new Color(0.3f, 0.9f, 0.5f, 1f);
            for (int c = 0; c < gz.Cols; c += 5)
            {
                int bottom = (gz.Rows - 1) * gz.Cols + c;
                view.Line(vx(pos[c]), vy(pos[c]), vx(pos[bottom]), vy(pos[bottom]), tether);
            }
            for (int i = 0; i < m; i++)
            {
                view.Dot(vx(pos[i]), vy(pos[i]), 2, i < gz.Cols ? new Color(0.9f, 0.1f, 0.1f, 1f) : SinewBrush.ValueColor(gmd[i], 0f, 0.15f));
            }
            string gizmoPath = Path.Combine(dir, "unity-gizmos.png");
            File.WriteAllBytes(gizmoPath, view.Png());
            Check.That(new FileInfo(gizmoPath).Length < 100000, "wrote " + gizmoPath + " (" + new FileInfo(gizmoPath).Length + " bytes, < 100 KB)");
        }

        /// <summary>An RGB image with a few drawing primitives and a PNG encoder (zlib via DeflateStream).</summary>
        sealed class Picture
        {
            readonly int width, height;
            readonly byte[] rgb;

            public Picture(int width, int height)
            {
                this.width = width;
                this.height = height;
                rgb = new byte[width * height * 3];
            }

            public void Clear(Color c)
            {
                for (int y = 0; y < height; y++)
                {
                    for (int x = 0; x < width; x++)
                    {
                        Set(x, y, c);
                    }
                }
            }

            void Set(int x, int y, Color c)
            {
                if (x < 0 || y < 0 || x >= width || y >= height)
                {
                    return;
                }
                int i = (y * width + x) * 3;
                rgb[i] = (byte)(Mathf.Clamp01(c.r) * 255f + 0.5f);
                rgb[i + 1] = (byte)(Mathf.Clamp01(c.g) * 255f + 0.5f);
                rgb[i + 2] = (byte)(Mathf.Clamp01(c.b) * 255f + 0.5f);
            }

            public void Dot(int cx, int cy, int r, Color c)
            {
                for (int y = -r; y <= r; y++)
                {
                    for (int x = -r; x <= r; x++)
                    {
                        if (x * x + y * y <= r * r)
                        {
                            Set(cx + x, cy + y, c);
                        }
                    }
                }
            }

            public void Line(int x0, int y0, int x1, int y1, Color c)
            {
                int steps = Math.Max(Math.Abs(x1 - x0), Math.Abs(y1 - y0));
                for (int s = 0; s <= steps; s++)
                {
                    float t = steps == 0 ? 0f : (float)s / steps;
                    Set((int)Math.Round(x0 + (x1 - x0) * t), (int)Math.Round(y0 + (y1 - y0) * t), c);
                }
            }

            public void Circle(int cx, int cy, int r, Color c)
            {
                for (int k = 0; k < 360; k++)
                {
                    double a = k * Math.PI / 180.0;
                    Set(cx + (int)Math.Round(r * Math.Cos(a)), cy + (int)Math.Round(r * Math.Sin(a)), c);
                }
            }

            /// <summary>Fills a grid triangle with the mean colour of its corners' values.</summary>
            public void Triangle(Grid g, int t, float[] values, Func<Vector3, int> px, Func<Vector3, int> py)
            {
                Vector3 a = g.Positions[g.Triangles[t]], b = g.Positions[g.Triangles[t + 1]], c = g.Positions[g.Triangles[t + 2]];
                float v = 0f;
                bool free = false;
                for (int k = 0; k < 3; k++)
                {
                    float x = values[g.Triangles[t + k]];
                    free |= x < 0f;
                    v += x / 3f;
                }
                Color col = SinewBrush.ValueColor(free ? -1f : v, 0f, 0.15f);
                col = new Color(col.r * 0.8f, col.g * 0.8f, col.b * 0.8f, 1f);
                int ax = px(a), ay = py(a), bx = px(b), by = py(b), cx = px(c), cy = py(c);
                int minX = Math.Min(ax, Math.Min(bx, cx)), maxX = Math.Max(ax, Math.Max(bx, cx));
                int minY = Math.Min(ay, Math.Min(by, cy)), maxY = Math.Max(ay, Math.Max(by, cy));
                for (int y = minY; y <= maxY; y++)
                {
                    for (int x = minX; x <= maxX; x++)
                    {
                        int w0 = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
                        int w1 = (cx - bx) * (y - by) - (cy - by) * (x - bx);
                        int w2 = (ax - cx) * (y - cy) - (ay - cy) * (x - cx);
                        if ((w0 >= 0 && w1 >= 0 && w2 >= 0) || (w0 <= 0 && w1 <= 0 && w2 <= 0))
                        {
                            Set(x, y, col);
                        }
                    }
                }
            }

            public byte[] Png()
            {
                var raw = new MemoryStream();
                for (int y = 0; y < height; y++)
                {
                    raw.WriteByte(0);
                    raw.Write(rgb, y * width * 3, width * 3);
                }
                byte[] data = raw.ToArray();
                var z = new MemoryStream();
                z.WriteByte(0x78);
                z.WriteByte(0x9C);
                using (var deflate = new System.IO.Compression.DeflateStream(z, System.IO.Compression.CompressionLevel.Optimal, true))
                {
                    deflate.Write(data, 0, data.Length);
                }
                uint s1 = 1, s2 = 0;
                foreach (byte x in data)
                {
                    s1 = (s1 + x) % 65521;
                    s2 = (s2 + s1) % 65521;
                }
                WriteBE(z, (s2 << 16) | s1);
                var png = new MemoryStream();
                png.Write(new byte[] { 137, 80, 78, 71, 13, 10, 26, 10 }, 0, 8);
                var header = new MemoryStream();
                WriteBE(header, (uint)width);
                WriteBE(header, (uint)height);
                header.Write(new byte[] { 8, 2, 0, 0, 0 }, 0, 5);
                Chunk(png, "IHDR", header.ToArray());
                Chunk(png, "IDAT", z.ToArray());
                Chunk(png, "IEND", new byte[0]);
                return png.ToArray();
            }

            static void Chunk(Stream s, string type, byte[] data)
            {
                WriteBE(s, (uint)data.Length);
                byte[] t = System.Text.Encoding.ASCII.GetBytes(type);
                s.Write(t, 0, 4);
                s.Write(data, 0, data.Length);
                uint crc = Crc(Crc(0xFFFFFFFFu, t), data) ^ 0xFFFFFFFFu;
                WriteBE(s, crc);
            }

            static uint Crc(uint crc, byte[] data)
            {
                foreach (byte b in data)
                {
                    crc ^= b;
                    for (int k = 0; k < 8; k++)
                    {
                        crc = (crc & 1) != 0 ? 0xEDB88320u ^ (crc >> 1) : crc >> 1;
                    }
                }
                return crc;
            }

            static void WriteBE(Stream s, uint v)
            {
                s.WriteByte((byte)(v >> 24));
                s.WriteByte((byte)(v >> 16));
                s.WriteByte((byte)(v >> 8));
                s.WriteByte((byte)v);
            }
        }
    }
}
