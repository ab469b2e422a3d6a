#include "lattice_command.hpp"

#include "run_command.hpp"

#include "cellshift/data/atomic_file.hpp"
#include "cellshift/sim/force_backend.hpp"
#include "cellshift/sim/lattice.hpp"

#include <iostream>
#include <sstream>
#include <stdexcept>

namespace cellshift::sim::tool {

int lattice_forces(const LatticeOptions& o) {
    if (o.cells < 1)
        throw std::invalid_argument("--cells must be >= 1");
    if (!(o.density > 0.0))
        throw std::invalid_argument("--density must be > 0");
    if (!(o.jitter >= 0.0 && o.jitter < 0.25))
        throw std::invalid_argument("--jitter must be in [0, 0.25)");
    if (!(o.alpha > 0.0) || !(o.D0 >= 0.0))
        throw std::invalid_argument("--morse needs D0 >= 0 and alpha > 0");
    if (o.forces.empty())
        throw std::invalid_argument("--forces FILE is required");
    const Lattice lattice = fcc_lattice(o.cells, o.density, o.jitter, o.seed);
    const SemParams params = morse_benchmark_params(lattice, o.D0, o.alpha, o.r0, o.cutoff);
    validate(params);
    auto backend = make_backend(o.backend, params);
    ForceField f;
    const ForceStats stats = backend->compute_forces(lattice.elements, f);
    write_forces_csv(o.forces, lattice.elements, f);
    if (!o.lammps_data.empty()) {
        // atom_style atomic: "id type x y z"; LAMMPS ids start at 1.
        std::ostringstream d;
        d.precision(17);
        d << "cellshift fcc lattice, " << lattice.elements.size() << " atoms, density " << o.density
          << ", jitter " << o.jitter << "\n\n"
          << lattice.elements.size() << " atoms\n1 atom types\n\n"
          << "0 " << lattice.box << " xlo xhi\n0 " << lattice.box << " ylo yhi\n0 " << lattice.box
          << " zlo zhi\n\nMasses\n\n1 1.0\n\nAtoms # atomic\n\n";
        const Elements& e = lattice.elements;
        for (std::size_t i = 0; i < e.size(); ++i) {
            d << e.id[i] + 1 << " 1 " << e.x[i] << ' ' << e.y[i] << ' ' << e.z[i] << '\n';
        }
        data::write_text_atomically(o.lammps_data, d.str());
    }
    std::cout << "lattice-forces: " << lattice.elements.size() << " elements, box " << lattice.box
              << ", " << backend->name() << ", " << stats.interactions / 2
              << " pairs within the cutoff\n";
    return 0;
}

} // namespace cellshift::sim::tool
