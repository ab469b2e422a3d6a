// `cellshift-eval convert-trace`: a CSV workload table to an HDF5 trace file.
#include "command.hpp"

#include "cellshift/data/trace.hpp"

#include <iostream>
#include <map>
#include <optional>

namespace cellshift::eval::tool {
namespace {

class ConvertTraceCommand final : public Command {
public:
    void add_to(CLI::App& app) override {
        sub_ = app.add_subcommand("convert-trace",
                                  "convert a CSV workload table (one row per event, one column "
                                  "per slice) to an HDF5 trace file");
        sub_->add_option("input", csv_in_, "CSV file to read")->required();
        sub_->add_option("output", h5_out_, "HDF5 trace file to write (replaced atomically)")
            ->required();
        sub_->add_option("--source", source_, "free-text provenance stored in the trace");
        sub_->add_option("--header", header_,
                         "does the first line hold column names: auto (if none of its cells is "
                         "a number), yes, no")
            ->check(CLI::IsMember({"auto", "yes", "no"}))
            ->capture_default_str();
        sub_->add_option("--slice-width", slice_width_, "physical width of one slice (> 0)");
    }

    int run() override {
        static const std::map<std::string, data::CsvHeader> headers{
            {"auto", data::CsvHeader::Auto},
            {"yes", data::CsvHeader::Present},
            {"no", data::CsvHeader::Absent}};
        data::Trace t = data::read_trace_csv(csv_in_, headers.at(header_));
        if (!source_.empty()) {
            t.source = source_;
        }
        t.slice_width = slice_width_;
        data::write_trace(h5_out_, t);
        std::cout << "wrote " << h5_out_ << ": " << t.events() << " events x " << t.slices()
                  << " slices\n";
        return 0;
    }

private:
    std::string csv_in_, h5_out_, source_;
    std::string header_ = "auto";
    std::optional<double> slice_width_;
};

} // namespace

std::unique_ptr<Command> make_convert_trace_command() {
    return std::make_unique<ConvertTraceCommand>();
}

} // namespace cellshift::eval::tool
