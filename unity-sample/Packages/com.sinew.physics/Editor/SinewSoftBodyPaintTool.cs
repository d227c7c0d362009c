// Hand-written. The paint tool on a Sinew Soft Body: pins only (the lattice particles nearest to
// the painted vertices are pinned, SinewSoftBody.PinnedParticles); the brush is the cloth's.
using Sinew.Components;
using UnityEditor;
using UnityEditor.EditorTools;
using UnityEngine;

namespace Sinew.Editor
{
    [EditorTool("Paint Sinew Soft Body pins", typeof(SinewSoftBody))]
    public sealed class SinewSoftBodyPaintTool : SinewPaintToolBase
    {
        public override GUIContent toolbarIcon
        {
            get { return new GUIContent("Pins", "Paint the pinned part of a Sinew Soft Body"); }
        }

        protected override Mesh MeshOf(SinewBodyBehaviour body)
        {
            var filter = body.GetComponent<MeshFilter>();
            return filter != null ? filter.sharedMesh : null;
        }

        protected override SinewVertexPaint PaintOf(SinewBodyBehaviour body)
        {
            return ((SinewSoftBody)body).paint;
        }

        protected override SinewPaintChannel Channel
        {
            get { return SinewPaintChannel.Pin; }
        }

        /// <summary>Floods the Pin channel of every selected soft body, with undo.</summary>
        public static void ApplyToAll(Object[] targets, SinewBrushMode mode)
        {
            FloodAll(targets, mode, SinewPaintChannel.Pin, t => ((Component)t).GetComponent<MeshFilter>() != null ? ((Component)t).GetComponent<MeshFilter>().sharedMesh : null,
                t => ((SinewSoftBody)t).paint);
        }
    }
}
