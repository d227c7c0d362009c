//! A particle body's run-time settings: its [`Material`] (mass, compliances, damping,
//! contact), its [`Dynamics`] (response to the character's motion, wind, tearing) and its
//! level of detail ([`Lod`]). Each validates itself; a body takes a new one whole or not at all.
//!
//! Compliance is XPBD's α (m/N): the inverse stiffness of a constraint, independent of the
//! substep length and the iteration count (see `solver::xpbd`); 0 is rigid.

use crate::error::{Error, MAX_COMPLIANCE, MAX_FACTOR, Result, check_magnitude, check_non_negative, check_positive, check_within};
use crate::solver::constraints::distance::{KIND_BEND, KIND_COUNT, KIND_SHEAR, KIND_STRETCH};

/// Per-body material, changeable at run time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    /// Mass of one particle (kg), when `density` is 0.
    pub particle_mass: f32,
    /// Mass from density when above 0 (`particles::mass`): kg/m³ for soft bodies (the
    /// tetrahedra's volume shared equally by the particles), kg/m² for cloth, meshes and balloons (a third of
    /// its triangles), kg/m for ropes and strands (half of its links), so that the same
    /// material weighs the same at any resolution. 0 (default): every particle weighs
    /// `particle_mass`.
    pub density: f32,
    /// Linear velocity damping rate (1/s).
    pub damping: f32,
    /// Multiplies the world's gravity.
    pub gravity_scale: f32,
    /// Compliance (m/N) of structural / stretch constraints; 0 is rigid.
    pub stretch_compliance: f32,
    /// Compliance (m/N) of shear (diagonal) constraints.
    pub shear_compliance: f32,
    /// Compliance (m/N) of bend constraints (distance to the particle two over, or across
    /// each pair of adjacent triangles of a mesh): the chapter's bending, used while
    /// `bend_stiffness` is 0.
    pub bend_compliance: f32,
    /// Bending stiffness (N·m) as a bending energy over the dihedral angle of every pair of
    /// adjacent triangles (`solver::constraints::dihedral`): resolution-independent, and it
    /// changes no length. Above 0 it replaces the distance bend of bodies with triangles
    /// (cloth, meshes, balloons, soft bodies' surfaces); ropes and strands keep theirs. 0
    /// (default): the distance bend.
    pub bend_stiffness: f32,
    /// Membrane stretch stiffness (N/m): the tension per unit width that stretches the cloth
    /// by 100 % along its threads (rows and columns of a grid; a mesh's world X projected into
    /// each triangle, and the direction across it), as a strain energy per triangle
    /// (`solver::constraints::membrane`), so it is the same at any resolution. Above 0 it
    /// replaces all distance constraints of sheets (cloth, meshes, balloons: bodies with
    /// triangles and no tetrahedra) (`stretch_compliance`,
    /// `shear_compliance`, and `bend_compliance`: bending is then `bend_stiffness` alone);
    /// ropes and strands keep theirs. 0 (default): the distance constraints.
    pub stretch_stiffness: f32,
    /// Membrane shear stiffness (N/m per radian): the shear force per unit length per radian
    /// of shear between the threads, used with `stretch_stiffness`. 0: no shear resistance.
    pub shear_stiffness: f32,
    /// Young's modulus (Pa) of a soft body's tetrahedra as a stable Neo-Hookean solid
    /// (`solver::constraints::neo_hookean`), the same at any resolution: a bar pulled along
    /// its length stretches by `stress / E` at small strains. Above 0, on a soft body with
    /// tetrahedra, it replaces the tetrahedra's volume constraints (`volume_compliance`),
    /// shape matching (`shape_stiffness` and plasticity) and all the body's own distance
    /// constraints (lattice edges or tetrahedron edges: `stretch_compliance`,
    /// `shear_compliance`, `bend_compliance`); the gas pressure, the dihedral bending of the
    /// surface, contacts and pins act as before. Other bodies ignore it. 0 (default): the
    /// chapter's volume constraints, shape matching and distance constraints. Typical values
    /// (docs/materials.md): jelly 1e3–1e4, flesh 1e4–1e5, rubber 1e6–1e7 Pa.
    pub youngs_modulus: f32,
    /// Poisson's ratio of the Neo-Hookean solid, in [0, 0.49]: how much a stretched bar
    /// narrows (at small strains its width shrinks by ν times its stretch); 0.49 keeps the
    /// volume nearly constant (rubber, flesh, jelly). Used while `youngs_modulus` is above 0.
    /// Default 0.3.
    pub poisson_ratio: f32,
    /// Particle radius for collisions (m).
    pub thickness: f32,
    /// Coulomb friction against colliders: a contact sticks while tangential motion is
    /// below `static_friction` × normal correction, else loses `kinetic_friction` × it.
    pub static_friction: f32,
    pub kinetic_friction: f32,
    /// The body meets colliders whose `layers & collision_mask != 0`.
    pub collision_mask: u32,
    /// Particles of this body keep `2 × thickness` apart from each other; the thickness must
    /// then be at most the body's mean stretch edge (`Body::check_self_collision`).
    pub self_collision: bool,
}

impl Default for Material {
    fn default() -> Self {
        Material {
            particle_mass: 0.01,
            density: 0.0,
            damping: 0.3,
            gravity_scale: 1.0,
            stretch_compliance: 0.0,
            shear_compliance: 0.0,
            bend_compliance: 1e-3,
            bend_stiffness: 0.0,
            stretch_stiffness: 0.0,
            shear_stiffness: 0.0,
            youngs_modulus: 0.0,
            poisson_ratio: 0.3,
            thickness: 0.01,
            static_friction: 0.5,
            kinetic_friction: 0.4,
            collision_mask: u32::MAX,
            self_collision: false,
        }
    }
}

/// The largest `Material::bend_stiffness` accepted (N·m): a 1 cm steel plate's (about 2e4).
pub const MAX_BEND_STIFFNESS: f32 = 1e5;

/// The largest `Material::stretch_stiffness` and `shear_stiffness` accepted (N/m): a sheet of
/// 1 mm steel (2e8 N/m) is stiffer than any cloth, and far stiffer than one substep can hold.
pub const MAX_MEMBRANE_STIFFNESS: f32 = 1e8;
/// The largest `Material::youngs_modulus` accepted (Pa): hard rubber is about 1e8; stiffer
/// solids are rigid bodies.
pub const MAX_YOUNGS_MODULUS: f32 = 1e9;
/// The largest `Material::poisson_ratio` accepted: 0.5 is incompressible, which the
/// Neo-Hookean volume term cannot express (its Lamé λ is infinite).
pub const MAX_POISSON_RATIO: f32 = 0.49;

/// Substeps per fixed step, of a body's LOD (and the world's), are within [1, this].
pub const MAX_SUBSTEPS: u32 = 64;
/// A particle's mass (kg) is within [`MIN_PARTICLE_MASS`, `MAX_PARTICLE_MASS`].
pub const MIN_PARTICLE_MASS: f32 = 1e-9;
pub const MAX_PARTICLE_MASS: f32 = 1e9;
/// The largest `Material::thickness` (m).
pub const MAX_THICKNESS: f32 = 10.0;

/// The largest `Material::density` (kg/m³, kg/m² or kg/m) accepted: far above any real
/// material's (osmium, 22,600 kg/m³).
pub const MAX_DENSITY: f32 = 1e6;

impl Material {
    pub fn validate(&self) -> Result<()> {
        check_positive(self.particle_mass, "material.particle_mass")?;
        if !(MIN_PARTICLE_MASS..=MAX_PARTICLE_MASS).contains(&self.particle_mass) {
            return Err(Error::invalid(format!(
                "material.particle_mass must be within [{MIN_PARTICLE_MASS:e}, {MAX_PARTICLE_MASS:e}] kg (got {})",
                self.particle_mass
            )));
        }
        check_within(self.density, MAX_DENSITY, "material.density")?;
        check_non_negative(self.damping, "material.damping")?;
        check_magnitude(self.gravity_scale, MAX_FACTOR, "material.gravity_scale")?;
        check_within(self.stretch_compliance, MAX_COMPLIANCE, "material.stretch_compliance")?;
        check_within(self.shear_compliance, MAX_COMPLIANCE, "material.shear_compliance")?;
        check_within(self.bend_compliance, MAX_COMPLIANCE, "material.bend_compliance")?;
        check_within(self.bend_stiffness, MAX_BEND_STIFFNESS, "material.bend_stiffness")?;
        check_within(self.stretch_stiffness, MAX_MEMBRANE_STIFFNESS, "material.stretch_stiffness")?;
        check_within(self.shear_stiffness, MAX_MEMBRANE_STIFFNESS, "material.shear_stiffness")?;
        check_within(self.youngs_modulus, MAX_YOUNGS_MODULUS, "material.youngs_modulus")?;
        check_within(self.poisson_ratio, MAX_POISSON_RATIO, "material.poisson_ratio")?;
        check_non_negative(self.thickness, "material.thickness")?;
        if self.thickness > MAX_THICKNESS {
            return Err(Error::invalid(format!("material.thickness must be at most {MAX_THICKNESS} m (got {})", self.thickness)));
        }
        check_within(self.static_friction, MAX_FACTOR, "material.static_friction")?;
        check_within(self.kinetic_friction, MAX_FACTOR, "material.kinetic_friction")?;
        Ok(())
    }

    /// Compliance per distance constraint class (`KIND_*`).
    pub(crate) fn compliances(&self) -> [f32; KIND_COUNT] {
        let mut c = [0.0; KIND_COUNT];
        c[KIND_STRETCH as usize] = self.stretch_compliance;
        c[KIND_SHEAR as usize] = self.shear_compliance;
        c[KIND_BEND as usize] = self.bend_compliance;
        c
    }
}

/// How a body responds to its character's motion, the wind, and strain (run-time settings).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dynamics {
    /// How much of the root's motion the particles feel as world motion: 1 = fully (the
    /// cloth is left behind), 0 = none (the cloth is carried rigidly with the root).
    pub world_velocity_scale: f32,
    /// How much of the root's change of velocity the particles feel: 1 = all (inertial lag),
    /// 0 = none (they take the root's velocity change at once).
    pub world_acceleration_scale: f32,
    /// Largest particle speed relative to the root (m/s); 0 = no limit.
    pub max_speed: f32,
    /// A root, a skinned pose or a set of pin targets that moves farther than this in one
    /// frame teleports the body with it (m); 0 = never. Default 2 m: more than a sprinting
    /// character (10 m/s) or a swung limb (up to ~30 m/s) covers in the longest frame the
    /// world simulates (`max_steps_per_frame` 4 at 60 Hz, 1/15 s), far less than a respawn
    /// or a cut to another place; so real motion is never mistaken for a jump, and a jump
    /// never drags the cloth across the world at hundreds of m/s.
    pub teleport_distance: f32,
    /// Pull of free particles towards the skinned pose (1/s); 0 = none.
    pub pose_stiffness: f32,
    /// Multiplies the world wind for this body.
    pub wind_scale: f32,
    /// Aerodynamic drag coefficient (triangles and segments).
    pub drag: f32,
    /// Aerodynamic lift coefficient (triangles).
    pub lift: f32,
    /// A stretch or shear constraint strained beyond `1 + tear_threshold` tears; 0 = never.
    pub tear_threshold: f32,
    /// The body sleeps (is not stepped) once every particle has stayed slower than this
    /// (m/s) for `sleep_time`; 0 = never sleeps. See `particles::sleep`.
    pub sleep_threshold: f32,
    /// How long (s of simulated time) the particles must stay below `sleep_threshold`; 0 =
    /// never sleeps.
    pub sleep_time: f32,
}

impl Default for Dynamics {
    fn default() -> Self {
        Dynamics {
            world_velocity_scale: 1.0,
            world_acceleration_scale: 1.0,
            max_speed: 0.0,
            teleport_distance: 2.0,
            pose_stiffness: 0.0,
            wind_scale: 1.0,
            drag: 1.0,
            lift: 0.3,
            tear_threshold: 0.0,
            sleep_threshold: 0.005,
            sleep_time: 1.0,
        }
    }
}

impl Dynamics {
    pub fn validate(&self) -> Result<()> {
        for (v, name) in [
            (self.world_velocity_scale, "world_velocity_scale"),
            (self.world_acceleration_scale, "world_acceleration_scale"),
        ] {
            crate::error::check_finite(v, name)?;
            if !(0.0..=1.0).contains(&v) {
                return Err(Error::invalid(format!("{name} must be within [0, 1] (got {v})")));
            }
        }
        check_non_negative(self.max_speed, "max_speed")?;
        check_non_negative(self.teleport_distance, "teleport_distance")?;
        check_non_negative(self.pose_stiffness, "pose_stiffness")?;
        check_within(self.wind_scale, MAX_FACTOR, "wind_scale")?;
        check_within(self.drag, MAX_FACTOR, "drag")?;
        check_within(self.lift, MAX_FACTOR, "lift")?;
        check_non_negative(self.tear_threshold, "tear_threshold")?;
        check_non_negative(self.sleep_threshold, "sleep_threshold")?;
        check_non_negative(self.sleep_time, "sleep_time")?;
        Ok(())
    }
}

/// Level of detail by camera distance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lod {
    /// Beyond this distance (m) the body runs `reduced_substeps`; 0 = never.
    pub reduce_distance: f32,
    pub reduced_substeps: u32,
    /// Beyond this distance (m) the body is frozen; 0 = never.
    pub freeze_distance: f32,
    /// Freeze while the host says the body is not visible.
    pub freeze_when_invisible: bool,
}

impl Default for Lod {
    fn default() -> Self {
        Lod { reduce_distance: 0.0, reduced_substeps: 2, freeze_distance: 0.0, freeze_when_invisible: true }
    }
}

impl Lod {
    pub fn validate(&self) -> Result<()> {
        check_non_negative(self.reduce_distance, "lod reduce_distance")?;
        check_non_negative(self.freeze_distance, "lod freeze_distance")?;
        if !(1..=MAX_SUBSTEPS).contains(&self.reduced_substeps) {
            return Err(Error::invalid(format!("lod reduced_substeps must be within [1, {MAX_SUBSTEPS}] (got {})", self.reduced_substeps)));
        }
        Ok(())
    }
}
