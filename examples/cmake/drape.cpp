// A cloth dropped onto a sphere, through sinew.hpp and its math helpers. Exits 1 if the
// library and the helpers disagree about where things are:
//   - the grid starts where its documented layout puts it, `origin + rotate(orientation,
//     local)`, computed here with sinew::rotate (the quaternion convention);
//   - the sphere is placed with sinew::mat4_trs; after 3 s the cloth rests on it: no
//     particle inside it, the closest one on its surface (within the cloth's thickness
//     and 1 cm), so the library read the matrix's translation where mat4_trs wrote it.
#include "sinew.hpp"

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

float distance(SinewVec3 a, SinewVec3 b) {
    const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return std::sqrt(dx * dx + dy * dy + dz * dz);
}

}  // namespace

int main() {
    sinew::World world;

    SinewClothGridDesc desc = sinew::default_grid_desc();
    desc.columns = 21;
    desc.rows = 21;
    desc.spacing = 0.05f;
    desc.origin = sinew::vec3(0.2f, 1.5f, -0.1f);
    desc.orientation = sinew::quat_axis_angle(sinew::vec3(0.0f, 1.0f, 0.0f), 0.4f);
    desc.pin_mode = SINEW_PIN_NONE;
    sinew::Body cloth = world.create_grid(desc);

    std::vector<SinewVec3> positions;
    cloth.read_positions(positions);
    float layout_error = 0.0f;
    for (std::uint32_t row = 0; row < desc.rows; ++row) {
        for (std::uint32_t column = 0; column < desc.columns; ++column) {
            const SinewVec3 local = sinew::vec3((static_cast<float>(column) - 10.0f) * desc.spacing, 0.0f,
                                                (static_cast<float>(row) - 10.0f) * desc.spacing);
            const SinewVec3 r = sinew::rotate(desc.orientation, local);
            const SinewVec3 expected = sinew::vec3(desc.origin.x + r.x, desc.origin.y + r.y, desc.origin.z + r.z);
            const float e = distance(positions[row * desc.columns + column], expected);
            layout_error = e > layout_error ? e : layout_error;
        }
    }

    const float radius = 0.3f;
    const SinewVec3 centre = sinew::vec3(0.25f, 0.8f, -0.05f);
    sinew::Collider ball = world.create_collider(sinew::sphere_desc(radius));
    ball.set_transform(sinew::mat4_trs(centre, sinew::quat_axis_angle(sinew::vec3(1.0f, 0.0f, 0.0f), 1.0f)));

    for (int frame = 0; frame < 180; ++frame) {
        world.step(1.0f / 60.0f);
    }
    cloth.read_positions(positions);
    float closest = 1e9f;
    for (const SinewVec3& p : positions) {
        const float d = distance(p, centre);
        closest = d < closest ? d : closest;
    }
    const float thickness = desc.material.thickness;

    std::printf("grid layout error %.2e m (limit 1e-5)\n", static_cast<double>(layout_error));
    std::printf("closest particle %.4f m from the sphere's centre (radius %.2f, thickness %.3f)\n",
                static_cast<double>(closest), static_cast<double>(radius), static_cast<double>(thickness));
    const bool laid_out = layout_error <= 1e-5f;
    const bool resting = closest >= radius - 1e-3f && closest <= radius + thickness + 0.01f;
    std::printf("%s\n", laid_out && resting ? "drape: ok" : "drape: FAILED");
    return laid_out && resting ? 0 : 1;
}
