//! Rigid bodies by XPBD (Müller et al. 2020, "Detailed Rigid Body Simulation with Extended
//! Position Based Dynamics"). SKELETON: being written.
