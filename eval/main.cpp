// cellshift-eval: compare load-balancing policies and work with cellshift files.
// Subcommands so far: `inspect` (validate and summarise files) and
// `convert-trace` (CSV workload table -> HDF5 trace).

#include "cellshift/data/run_tool.hpp"
#include "cellshift/data/trace.hpp"
#include "cellshift/eval/inspect.hpp"
#include "cellshift/version.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <map>
#include <optional>

int main(int argc, char** argv) {
    using namespace cellshift;
    CLI::App app{"cellshift-eval: evaluate load-balancing policies on held-out scenarios and "
                 "user traces, and inspect cellshift files."};
    app.set_version_flag("--version", std::string("cellshift-eval ") + CELLSHIFT_VERSION + " (" +
                                          CELLSHIFT_GIT_COMMIT + ")");
    app.require_subcommand(1);

    std::vector<std::string> inspect_files;
    auto* inspect = app.add_subcommand(
        "inspect", "validate cellshift files (controller, trace, run record; .csv traces) and "
                   "print a one-line summary of each; exits non-zero on the first bad file");
    inspect->add_option("files", inspect_files, "files to check")->required();

    std::string csv_in;
    std::string h5_out;
    std::string source;
    std::string header = "auto";
    std::optional<double> slice_width;
    auto* convert = app.add_subcommand(
        "convert-trace", "convert a CSV workload table (one row per event, one column per "
                         "slice) to an HDF5 trace file");
    convert->add_option("input", csv_in, "CSV file to read")->required();
    convert->add_option("output", h5_out, "HDF5 trace file to write (replaced atomically)")
        ->required();
    convert->add_option("--source", source, "free-text provenance stored in the trace");
    convert
        ->add_option("--header", header,
                     "does the first line hold column names: auto (if none of its cells is a "
                     "number), yes, no")
        ->check(CLI::IsMember({"auto", "yes", "no"}))
        ->capture_default_str();
    convert->add_option("--slice-width", slice_width, "physical width of one slice (> 0)");

    return data::run_tool<CLI::ParseError>("cellshift-eval", app, argc, argv, [&] {
        if (inspect->parsed()) {
            for (const auto& file : inspect_files) {
                std::cout << eval::describe_file(file) << "\n";
            }
            return 0;
        }
        if (convert->parsed()) {
            static const std::map<std::string, data::CsvHeader> headers{
                {"auto", data::CsvHeader::Auto},
                {"yes", data::CsvHeader::Present},
                {"no", data::CsvHeader::Absent}};
            data::Trace trace = data::read_trace_csv(csv_in, headers.at(header));
            if (!source.empty()) {
                trace.source = source;
            }
            trace.slice_width = slice_width;
            data::write_trace(h5_out, trace);
            std::cout << "wrote " << h5_out << ": " << trace.events() << " events x "
                      << trace.slices() << " slices\n";
            return 0;
        }
        return 0;
    });
}
