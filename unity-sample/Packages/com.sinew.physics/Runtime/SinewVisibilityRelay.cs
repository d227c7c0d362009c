// Hand-written. Forwards a child renderer's visibility to the body it draws.
using UnityEngine;

namespace Sinew.Components
{
    /// <summary>
    /// Added by Sinew components to the hidden child objects whose renderers draw their bodies
    /// (a skinned cloth's "Sinew Cloth Output", hair's strand lines): Unity sends
    /// <c>OnBecameVisible</c> / <c>OnBecameInvisible</c> only to scripts on the renderer's own
    /// GameObject, and this passes them on, so that LOD can freeze a body nobody sees.
    /// </summary>
    [AddComponentMenu("")]
    [DisallowMultipleComponent]
    public sealed class SinewVisibilityRelay : MonoBehaviour
    {
        SinewBodyBehaviour target;
        bool visible = true;

        /// <summary>The body this renderer draws.</summary>
        public SinewBodyBehaviour Target
        {
            get { return target; }
        }

        internal void Attach(SinewBodyBehaviour body)
        {
            target = body;
            visible = true;
        }

        void OnBecameVisible()
        {
            if (target != null)
            {
                target.ReportVisible(ref visible, true);
            }
        }

        void OnBecameInvisible()
        {
            if (target != null)
            {
                target.ReportVisible(ref visible, false);
            }
        }
    }
}
